/* Diagnostics: "file:line:col: error: message", with the macro invocation chain appended so an error in a
 * macro body can be traced to the call. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

const char *asm_file_name(const asm_t *as, uint32_t file)
{
    if (file == ASM_FILE_CMDLINE)
        return "<command line>";
    return file < as->nfiles ? as->files[file].name : "<unknown>";
}

asm_loc_t asm_loc_outer(asm_loc_t loc)
{
    while (loc.exp != NULL)
        loc = loc.exp->call;
    return loc;
}

/* The same message at the same place is said once (a .rept body repeats its errors otherwise). */
static bool already_said(const asm_result_t *r, const char *file, asm_loc_t loc, const char *msg)
{
    for (size_t i = r->ndiags; i-- > 0;) {
        const asm_diag_t *d = &r->diags[i];
        if (d->line == loc.line && d->col == loc.col && strcmp(d->msg, msg) == 0 && strcmp(d->file, file) == 0)
            return true;
    }
    return false;
}

static void add_diag(asm_t *as, asm_loc_t loc, bool is_error, const char *fmt, va_list ap) ASM_PRINTF(4, 0);

static void add_diag(asm_t *as, asm_loc_t loc, bool is_error, const char *fmt, va_list ap)
{
    asm_result_t *r = as->res;
    if (r->ndiags >= ASM_MAX_DIAGS || (is_error && as->stop))
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    const char *sep = " (in macro";
    for (const asm_expansion_t *e = loc.exp; e != NULL && n + 1 < sizeof msg; e = e->call.exp) {
        snprintf(msg + n, sizeof msg - n, "%s '%s' called at %s:%u:%u", sep, e->macro, asm_file_name(as, e->call.file),
                 e->call.line, e->call.col);
        n = strlen(msg);
        sep = ", from macro";
    }
    if (loc.exp != NULL && n + 1 < sizeof msg)
        strcat(msg, ")");
    const char *file = asm_file_name(as, loc.file);
    if (already_said(r, file, loc, msg))
        return;
    asm_reserve(as, (void **)&r->diags, &as->diag_cap, r->ndiags + 1, sizeof *r->diags);
    asm_diag_t *d = &r->diags[r->ndiags];
    *d = (asm_diag_t){.line = loc.line, .col = loc.col, .is_error = is_error};
    d->file = asm_malloc_strdup(as, file);
    r->ndiags++;
    d->msg = asm_malloc_strdup(as, msg);
    if (!is_error)
        return;
    if (++r->nerrors >= ASM_MAX_ERRORS && !as->stop) {
        as->stop = true;
        asm_reserve(as, (void **)&r->diags, &as->diag_cap, r->ndiags + 1, sizeof *r->diags);
        d = &r->diags[r->ndiags];
        *d = (asm_diag_t){.line = loc.line, .col = loc.col, .is_error = true};
        d->file = asm_malloc_strdup(as, file);
        r->ndiags++;
        d->msg = asm_malloc_strdup(as, "too many errors, stopping");
        r->nerrors++;
    }
}

void asm_error(asm_t *as, asm_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_diag(as, loc, true, fmt, ap);
    va_end(ap);
}

void asm_warning(asm_t *as, asm_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_diag(as, loc, false, fmt, ap);
    va_end(ap);
}

int asm_format_diag(const asm_diag_t *d, char *buf, size_t cap)
{
    const char *kind = d->is_error ? "error" : "warning";
    if (d->line == 0)
        return snprintf(buf, cap, "%s: %s: %s", d->file, kind, d->msg);
    return snprintf(buf, cap, "%s:%u:%u: %s: %s", d->file, d->line, d->col, kind, d->msg);
}

void asm_print_diags(const asm_result_t *r, FILE *out)
{
    for (size_t i = 0; i < r->ndiags; i++) {
        char buf[2048];
        asm_format_diag(&r->diags[i], buf, sizeof buf);
        fprintf(out, "%s\n", buf);
    }
}

static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    enum { MAXLEN = 32 };
    if (la >= MAXLEN || lb >= MAXLEN)
        return SIZE_MAX;
    size_t row[MAXLEN + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *asm_closest(const char *word, size_t len, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, len, cands[i], strlen(cands[i]));
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best;
}

void asm_result_free(asm_result_t *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->ndiags; i++) {
        free(r->diags[i].file);
        free(r->diags[i].msg);
    }
    free(r->diags);
    isa_image_free(&r->image);
    memset(r, 0, sizeof *r);
}
