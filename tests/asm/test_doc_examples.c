/* Every ```asm block in the docs folder assembles without errors, and every ```asm-error block fails with the
 * diagnostic given in the comment after it:
 *
 *   ```asm-error
 *       add r1, r2
 *   ```
 *   <!-- error: 1:5: 'add' takes 3 operands -->
 *
 * "LINE:COL: TEXT" means a diagnostic starting "example.s:LINE:COL: error: TEXT". Each block is assembled
 * on its own as example.s, with runtime/ as an include directory (-I) so that examples may include the
 * runtime's headers; IWARP_DOCS_DIR and IWARP_RUNTIME_DIR come from meson. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm_test_util.h"

#if !defined(IWARP_DOCS_DIR) || !defined(IWARP_RUNTIME_DIR)
#error "IWARP_DOCS_DIR and IWARP_RUNTIME_DIR must name the docs and runtime folders"
#endif

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(f);
    fclose(m);
    return buf;
}

typedef struct counts {
    unsigned ok, errors, failures;
} counts_t;

/* The expected diagnostic of an asm-error block: the first "<!-- error: L:C: text -->" after it. */
static bool expected_error(const char *after, char *want, size_t cap)
{
    while (*after == '\n' || *after == ' ')
        after++;
    const char *tag = "<!-- error: ";
    if (strncmp(after, tag, strlen(tag)) != 0)
        return false;
    after += strlen(tag);
    const char *end = strstr(after, " -->");
    const char *colon1 = strchr(after, ':');
    const char *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;
    if (end == NULL || colon2 == NULL || colon2 > end)
        return false;
    snprintf(want, cap, "example.s:%.*s: error:%.*s", (int)(colon2 - after), after, (int)(end - colon2 - 1),
             colon2 + 1);
    return true;
}

static void check_block(const char *file, unsigned line, const char *code, size_t len, const char *after, bool error,
                        counts_t *c)
{
    static const char *const includes[] = {IWARP_RUNTIME_DIR};
    asm_options_t o;
    asm_options_init(&o);
    o.include_dirs = includes;
    o.ninclude_dirs = 1;
    asm_result_t r;
    int rc = asm_assemble_string("example.s", code, len, &o, &r);
    char want[512];
    bool ok;
    if (!error) {
        ok = rc == 0;
        c->ok++;
    } else {
        ok = rc != 0 && expected_error(after, want, sizeof want);
        for (size_t i = 0; ok && i < r.ndiags; i++) {
            char buf[1024];
            asm_format_diag(&r.diags[i], buf, sizeof buf);
            if (strncmp(buf, want, strlen(want)) == 0)
                break;
            if (i + 1 == r.ndiags)
                ok = false;
        }
        if (rc != 0 && !expected_error(after, want, sizeof want))
            snprintf(want, sizeof want, "(no <!-- error: LINE:COL: message --> comment after the block)");
        c->errors++;
    }
    if (!ok) {
        fprintf(stderr, "%s:%u: example %s\n%.*s---- diagnostics ----\n", file, line,
                error ? "should fail with" : "does not assemble", (int)len, code);
        if (error)
            fprintf(stderr, "expected: %s\n", want);
        asm_print_diags(&r, stderr);
        c->failures++;
    }
    asm_result_free(&r);
}

static void check_file(const char *path, counts_t *c)
{
    char *text = read_all(path);
    unsigned line = 1;
    for (char *p = text; *p;) {
        char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        bool is_asm = n == 6 && strncmp(p, "```asm", 6) == 0;
        bool is_err = n == 12 && strncmp(p, "```asm-error", 12) == 0;
        unsigned start = line;
        p += n + (eol != NULL);
        line++;
        if (!is_asm && !is_err)
            continue;
        char *code = p;
        while (*p && strncmp(p, "```", 3) != 0) {
            char *e = strchr(p, '\n');
            p = e ? e + 1 : p + strlen(p);
            line++;
        }
        size_t len = (size_t)(p - code);
        char *close = p;
        char *e = strchr(p, '\n');
        p = e ? e + 1 : p + strlen(p);
        line++;
        check_block(path, start, code, len, close + 3, is_err, c);
    }
    free(text);
}

static void every_doc_example_assembles_as_documented(void **state)
{
    (void)state;
    DIR *d = opendir(IWARP_DOCS_DIR);
    assert_non_null(d);
    counts_t c = {0, 0, 0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", IWARP_DOCS_DIR, e->d_name);
        check_file(path, &c);
    }
    closedir(d);
    fprintf(stderr, "doc examples: %u that assemble, %u that must fail, %u wrong\n", c.ok, c.errors, c.failures);
    assert_int_equal(c.failures, 0);
    assert_true(c.ok >= 10);
    assert_true(c.errors >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_doc_example_assembles_as_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
