/* Where lines come from: a stack of sources (files, included files, macro expansions, .rept bodies), the
 * conditional-assembly stack, and the loop that feeds each line to the statement parser. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "file.h"

enum { MAX_FILE_BYTES = 64u << 20 };

static uint32_t add_file(asm_t *as, const char *path)
{
    for (size_t i = 0; i < as->nfiles; i++)
        if (strcmp(as->files[i].name, path) == 0)
            return (uint32_t)i;
    asm_file_t *f = ASM_PUSH(as, as->files, as->nfiles, as->files_cap);
    f->name = asm_strdup(as, path);
    const char *slash = strrchr(path, '/');
    f->dir = slash == NULL ? asm_strdup(as, ".") : asm_strndup(as, path, slash == path ? 1 : (size_t)(slash - path));
    return (uint32_t)(as->nfiles - 1);
}

/* Reads a whole file into the arena; NULL with the reason in why when it cannot. */
static char *read_file(asm_t *as, FILE *f, const char *name, size_t *len, char *why, size_t cap)
{
    uint8_t *data;
    if (file_read_stream(f, name, MAX_FILE_BYTES, &data, len, why, cap) != 0)
        return NULL;
    char *buf = asm_alloc(as, *len + 1);
    if (*len > 0)
        memcpy(buf, data, *len);
    buf[*len] = '\0';
    free(data);
    return buf;
}

static asm_source_t *push_source(asm_t *as, asm_src_kind_t kind)
{
    asm_source_t *s = ASM_PUSH(as, as->srcs, as->nsrcs, as->srcs_cap);
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->cond_base = as->nconds;
    return s;
}

static void push_text(asm_t *as, uint32_t file, const char *buf, size_t len)
{
    asm_source_t *s = push_source(as, SRC_FILE);
    s->buf = buf;
    s->len = len;
    s->file = file;
    as->include_depth++;
}

void asm_push_string(asm_t *as, const char *name, const char *src, size_t len)
{
    uint32_t file = add_file(as, name);
    push_text(as, file, len ? asm_strndup(as, src, len) : "", len);
}

static FILE *open_include(asm_t *as, const char *name, const asm_loc_t *from, char **path)
{
    if (name[0] == '/') {
        *path = asm_strdup(as, name);
        const char *why;
        return file_open_read(name, &why);
    }
    const char *dir = from->file < as->nfiles ? as->files[from->file].dir : ".";
    for (size_t i = 0; i <= as->opt->ninclude_dirs; i++) {
        const char *d = i == 0 ? dir : as->opt->include_dirs[i - 1];
        *path = strcmp(d, ".") == 0 ? asm_strdup(as, name) : asm_printf(as, "%s/%s", d, name);
        const char *why;
        FILE *f = file_open_read(*path, &why);
        if (f != NULL)
            return f;
    }
    return NULL;
}

bool asm_push_file(asm_t *as, const char *path, size_t len, const asm_loc_t *from)
{
    char *name = asm_strndup(as, path, len);
    if (from != NULL && as->include_depth > ASM_MAX_INCLUDE_DEPTH) {
        asm_error(as, *from, ".include nested more than %d deep (does '%s' include itself?)", ASM_MAX_INCLUDE_DEPTH,
                  name);
        return false;
    }
    char *full = name;
    const char *why = NULL;
    FILE *f = from != NULL ? open_include(as, name, from, &full) : file_open_read(name, &why);
    if (f == NULL) {
        if (from != NULL)
            asm_error(as, *from, "cannot find include file '%s' (searched the including file's directory%s)", name,
                      as->opt->ninclude_dirs ? " and the -I directories" : "");
        else
            asm_error(as, (asm_loc_t){add_file(as, name), 0, 0, NULL}, "cannot open: %s", why);
        return false;
    }
    size_t n = 0;
    char err[512];
    char *buf = read_file(as, f, full, &n, err, sizeof err);
    fclose(f);
    uint32_t file = add_file(as, full);
    if (buf == NULL) {
        asm_loc_t at = from != NULL ? *from : (asm_loc_t){file, 0, 0, NULL};
        asm_error(as, at, "cannot read %s", err); /* err names the file */
        return false;
    }
    push_text(as, file, buf, n);
    return true;
}

void asm_push_lines(asm_t *as, const asm_line_t *lines, size_t n, uint64_t reps, const asm_expansion_t *exp)
{
    if (n == 0 || reps == 0)
        return;
    asm_source_t *s = push_source(as, SRC_LINES);
    s->lines = lines;
    s->nlines = n;
    s->reps_left = reps;
    s->exp = exp;
}

static bool next_line(asm_t *as, asm_source_t *s, asm_line_t *out)
{
    if (s->kind == SRC_FILE) {
        if (s->pos >= s->len)
            return false;
        const char *start = s->buf + s->pos;
        const char *nl = memchr(start, '\n', s->len - s->pos);
        size_t n = nl != NULL ? (size_t)(nl - start) : s->len - s->pos;
        s->pos += n + (nl != NULL);
        if (n > 0 && start[n - 1] == '\r')
            n--;
        *out = (asm_line_t){start, n, {s->file, ++s->line, 1, NULL}};
        return true;
    }
    if (s->next >= s->nlines) {
        if (s->reps_left <= 1)
            return false;
        s->reps_left--;
        s->next = 0;
    }
    *out = s->lines[s->next++];
    if (s->macro != NULL) {
        out->text = asm_macro_substitute(as, s, out, &out->len);
        out->loc.exp = s->exp;
    }
    return true;
}

static void pop_source(asm_t *as)
{
    asm_source_t *s = &as->srcs[as->nsrcs - 1];
    for (; as->nconds > s->cond_base; as->nconds--)
        if (!as->stop)
            asm_error(as, as->conds[as->nconds - 1].loc, "unterminated conditional (missing .endif)");
    if (as->collect.mode != COLLECT_NONE && as->collect.src_depth == as->nsrcs) {
        bool macro = as->collect.mode == COLLECT_MACRO;
        asm_error(as, as->collect.loc, "unterminated %s (missing %s)", macro ? ".macro" : ".rept",
                  macro ? ".endm" : ".endr");
        as->collect.mode = COLLECT_NONE;
        free(as->collect.lines);
        as->collect.lines = NULL;
        as->collect.n = as->collect.cap = 0;
    }
    if (s->kind == SRC_FILE) {
        as->include_depth--;
        if (as->bundle.open) {
            asm_error(as, as->bundle.loc, "unterminated bundle: '{' has no matching '}'");
            as->bundle.open = false;
        }
    }
    if (s->macro != NULL)
        as->macro_depth--;
    as->nsrcs--;
}

bool asm_cond_skipping(const asm_t *as)
{
    return as->nconds > 0 && as->conds[as->nconds - 1].state != COND_ACTIVE;
}

/* The condition of .if/.ifdef/.ifndef/.elseif; -1 after an error. */
static int eval_condition(asm_t *as, const asm_line_t *line, const char *word)
{
    if (!asm_lex_line(as, line))
        return -1;
    asm_cursor_t c = {as, line, as->toks, 1, as->ntoks - 1, 0};
    if (strcmp(word, ".if") == 0 || strcmp(word, ".elseif") == 0) {
        const asm_expr_t *e = asm_parse_expr_all(&c);
        int64_t v;
        return e != NULL && asm_eval_now(as, e, &v) ? v != 0 : -1;
    }
    const asm_tok_t *t = asm_cur(&c);
    if (asm_at_end(&c) || t->kind != TK_IDENT) {
        asm_error(as, asm_cur_loc(&c), "%s needs a symbol name", word);
        return -1;
    }
    c.i++;
    if (!asm_expect_end(&c, "the symbol name"))
        return -1;
    char *name = asm_sym_scoped_name(as, t->text, t->len);
    asm_sym_t *s = asm_sym_lookup(as, name, strlen(name));
    bool defined = s != NULL && s->kind != SYM_UNDEF;
    return strcmp(word, ".ifdef") == 0 ? defined : !defined;
}

static void cond_directive(asm_t *as, const asm_line_t *line, const char *word)
{
    size_t base = as->nsrcs ? as->srcs[as->nsrcs - 1].cond_base : 0;
    if (strncmp(word, ".if", 3) == 0) {
        asm_cond_t *c = ASM_PUSH(as, as->conds, as->nconds, as->conds_cap);
        *c = (asm_cond_t){COND_OUTER_OFF, false, line->loc};
        if (as->nconds > 1 && as->conds[as->nconds - 2].state != COND_ACTIVE)
            return;
        int v = eval_condition(as, line, word);
        c = &as->conds[as->nconds - 1]; /* the stack may have moved */
        c->state = v < 0 ? COND_DONE : v ? COND_ACTIVE : COND_SEEKING;
        return;
    }
    if (as->nconds <= base) {
        asm_error(as, line->loc, "%s without .if", word);
        return;
    }
    asm_cond_t *c = &as->conds[as->nconds - 1];
    if (strcmp(word, ".endif") == 0) {
        as->nconds--;
        return;
    }
    if (c->seen_else) {
        asm_error(as, line->loc, "%s after .else (the .if is at line %u)", word, c->loc.line);
        return;
    }
    if (strcmp(word, ".else") == 0) {
        c->seen_else = true;
        if (c->state == COND_ACTIVE || c->state == COND_SEEKING)
            c->state = c->state == COND_ACTIVE ? COND_DONE : COND_ACTIVE;
        return;
    }
    if (c->state == COND_ACTIVE) {
        c->state = COND_DONE;
    } else if (c->state == COND_SEEKING) {
        int v = eval_condition(as, line, word);
        c = &as->conds[as->nconds - 1];
        c->state = v < 0 ? COND_DONE : v ? COND_ACTIVE : COND_SEEKING;
    }
}

/* The first word of a line after any labels, for the directives that work on whole lines; *at is
 * where it starts. */
static size_t first_word(const asm_line_t *line, char *buf, size_t cap, size_t *at)
{
    const char *t = line->text;
    size_t i = 0, n;
    for (;;) {
        while (i < line->len && (t[i] == ' ' || t[i] == '\t'))
            i++;
        size_t j = i;
        while (j < line->len && asm_is_ident_char((unsigned char)t[j]))
            j++;
        size_t k = j;
        while (k < line->len && (t[k] == ' ' || t[k] == '\t'))
            k++;
        if (j == i || k >= line->len || t[k] != ':')
            break;
        i = k + 1;
    }
    *at = i;
    for (n = 0; i < line->len && asm_is_ident_char((unsigned char)line->text[i]) && n + 1 < cap; n++)
        buf[n] = line->text[i++];
    buf[n] = '\0';
    return n;
}

static bool is_cond_word(const char *w)
{
    return strcmp(w, ".if") == 0 || strcmp(w, ".ifdef") == 0 || strcmp(w, ".ifndef") == 0 || strcmp(w, ".else") == 0 ||
           strcmp(w, ".elseif") == 0 || strcmp(w, ".endif") == 0;
}

static bool is_block_word(const char *w)
{
    return is_cond_word(w) || strcmp(w, ".macro") == 0 || strcmp(w, ".rept") == 0 || strcmp(w, ".endm") == 0 ||
           strcmp(w, ".endr") == 0;
}

static void handle_line(asm_t *as, const asm_line_t *line)
{
    char word[16];
    size_t at;
    first_word(line, word, sizeof word, &at);
    if (as->collect.mode != COLLECT_NONE) {
        asm_collect_line(as, line, word);
        return;
    }
    if (!is_block_word(word)) {
        if (!asm_cond_skipping(as))
            asm_process_line(as, line);
        return;
    }
    /* Labels before a block directive ("table: .rept 4") are defined first when the line is active. */
    asm_line_t rest = *line;
    if (at > 0) {
        rest.text += at;
        rest.len -= at;
        rest.loc.col += (uint32_t)at;
        if (!asm_cond_skipping(as)) {
            asm_line_t labels = *line;
            labels.len = at;
            asm_process_line(as, &labels);
        }
    }
    if (is_cond_word(word))
        cond_directive(as, &rest, word);
    else if (asm_cond_skipping(as))
        return;
    else if (strcmp(word, ".macro") == 0)
        asm_start_macro(as, &rest);
    else if (strcmp(word, ".rept") == 0)
        asm_start_rept(as, &rest);
    else
        asm_error(as, rest.loc, "%s without %s", word, word[4] == 'm' ? ".macro" : ".rept");
}

void asm_run(asm_t *as)
{
    while (as->nsrcs > 0 && !as->stop) {
        asm_line_t line;
        if (!next_line(as, &as->srcs[as->nsrcs - 1], &line)) {
            pop_source(as);
            continue;
        }
        if (++as->lines_read > as->max_lines) {
            asm_error(as, line.loc, "more than %llu lines processed (a macro or .rept that never ends?)",
                      (unsigned long long)as->max_lines);
            as->stop = true;
            break;
        }
        handle_line(as, &line);
    }
    as->nsrcs = 0;
}
