/* docs/console.md is made of real sessions: every `<!-- session: ARGS -->` starts one, run with
 * `iwarp debug --echo ARGS < SCRIPT` where SCRIPT holds the `(iwarp) ` lines of the session's console blocks (on
 * standard input, as typed: a -x script's errors would name its temporary file); the output must be the blocks,
 * line by line (a `...` line stands for any number of lines). Every command of the table has an example there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "command.h"
#include "dbg.h"

static const char *iwarp_exe;

static char *doc_text(void)
{
    FILE *f = fopen("docs/console.md", "r");
    assert_non_null(f);
    char *text = command_read_all(f);
    fclose(f);
    return text;
}

/* Lines of s as an array (s is cut in place). */
static size_t split_lines(char *s, char ***out)
{
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    assert_non_null(v);
    for (char *p = s; *p;) {
        char *nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        v[n++] = p;
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    *out = v;
    return n;
}

/* Whether got matches want, where a want line "..." matches any number of got lines. */
static bool match(char **want, size_t nw, char **got, size_t ng, size_t *bad_w, size_t *bad_g)
{
    size_t w = 0, g = 0;
    while (w < nw) {
        if (strcmp(want[w], "...") == 0) {
            if (w + 1 == nw)
                return true;
            while (g < ng && strcmp(got[g], want[w + 1]) != 0)
                g++;
            w++;
            continue;
        }
        if (g >= ng || strcmp(want[w], got[g]) != 0) {
            *bad_w = w;
            *bad_g = g;
            return false;
        }
        w++;
        g++;
    }
    *bad_w = w;
    *bad_g = g;
    return g == ng;
}

/* A console block of the docs: where its text lies in the document, and its commands. */
typedef struct block {
    size_t start, end; /* the lines between ```console and ``` */
} block_t;

static char *run_script(const char *args, const char *script)
{
    char path[] = "/tmp/iwarp-doc-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, script, strlen(script)), (ssize_t)strlen(script));
    close(fd);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "IWARP_HISTORY= '%s' debug --echo %s < %s 2>&1", iwarp_exe, args, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = command_read_all(p);
    pclose(p);
    unlink(path);
    return out;
}

/* IWARP_REBASELINE=1: the blocks get what the console printed, each from the echo of its first command. */
static void rebaseline(char **doc, const block_t *blocks, size_t nblocks, char *out)
{
    size_t cap = strlen(*doc) + strlen(out) + 1; /* before split_lines cuts out into lines */
    char **got;
    size_t ng = split_lines(out, &got), g = 0;
    char *fresh = calloc(1, cap + 1);
    assert_non_null(fresh);
    size_t done = 0;
    for (size_t k = 0; k < nblocks; k++) {
        strncat(fresh, *doc + done, blocks[k].start - done);
        /* this block's first command, and the next block's */
        char first[512];
        const char *b = *doc + blocks[k].start;
        snprintf(first, sizeof first, "%.*s", (int)strcspn(b, "\n"), b);
        while (g < ng && strcmp(got[g], first) != 0)
            g++;
        size_t stop = ng;
        if (k + 1 < nblocks) {
            const char *nb = *doc + blocks[k + 1].start;
            char next[512];
            snprintf(next, sizeof next, "%.*s", (int)strcspn(nb, "\n"), nb);
            for (size_t j = g + 1; j < ng; j++)
                if (strcmp(got[j], next) == 0) {
                    stop = j;
                    break;
                }
        }
        for (; g < stop; g++) {
            strcat(fresh, got[g]);
            strcat(fresh, "\n");
        }
        done = blocks[k].end;
    }
    strcat(fresh, *doc + done);
    free(got);
    free(*doc);
    *doc = fresh;
}

static void check_session(const char *args, char **doc, const block_t *blocks, size_t nblocks)
{
    size_t cap = 1 << 16;
    char *expected = calloc(1, cap), *script = calloc(1, cap);
    assert_non_null(expected);
    assert_non_null(script);
    for (size_t k = 0; k < nblocks; k++) {
        const char *b = *doc + blocks[k].start, *end = *doc + blocks[k].end;
        strncat(expected, b, (size_t)(end - b));
        for (const char *line = b; line < end;) {
            const char *nl = strchr(line, '\n');
            if (strncmp(line, "(iwarp) ", 8) == 0)
                strncat(script, line + 8, (size_t)(nl - line - 8 + 1));
            line = nl + 1;
        }
    }
    char *out = run_script(args, script);
    const char *rebase = getenv("IWARP_REBASELINE");
    if (rebase != NULL && strcmp(rebase, "1") == 0) {
        rebaseline(doc, blocks, nblocks, out);
    } else {
        size_t n = strlen(expected);
        if (n > 0 && expected[n - 1] == '\n')
            expected[n - 1] = '\0';
        char **want, **got;
        size_t nw = split_lines(expected, &want), ng = split_lines(out, &got);
        size_t bw, bg;
        if (!match(want, nw, got, ng, &bw, &bg))
            fail_msg("session '%s' differs from docs/console.md at its line %zu (IWARP_REBASELINE=1 rewrites the "
                     "sessions; review the diff):\n  docs:    %s\n  console: %s",
                     args, bw + 1, bw < nw ? want[bw] : "(end)", bg < ng ? got[bg] : "(end)");
        free(want);
        free(got);
    }
    free(out);
    free(expected);
    free(script);
}

static void test_every_session_of_the_docs_prints_what_the_docs_show(void **state)
{
    (void)state;
    char *doc = doc_text();
    unsigned sessions = 0;
    const char *marker = "<!-- session: ", *open = "```console\n";
    for (size_t at = 0; strstr(doc + at, marker) != NULL;) {
        char *m = strstr(doc + at, marker);
        char *args_start = m + strlen(marker), *args_end = strstr(args_start, " -->");
        assert_non_null(args_end);
        char args[512];
        snprintf(args, sizeof args, "%.*s", (int)(args_end - args_start), args_start);
        char *next = strstr(args_end, marker);
        size_t end = next ? (size_t)(next - doc) : strlen(doc);
        /* The console blocks up to the next session. */
        block_t blocks[64];
        size_t nblocks = 0;
        for (char *b = strstr(args_end, open); b != NULL && (size_t)(b - doc) < end; b = strstr(b, open)) {
            b += strlen(open);
            char *close = strstr(b, "```");
            assert_non_null(close);
            assert_true(nblocks < 64);
            blocks[nblocks++] = (block_t){(size_t)(b - doc), (size_t)(close - doc)};
            b = close + 3;
        }
        size_t before = strlen(doc);
        check_session(args, &doc, blocks, nblocks);
        /* A rebaselined session changes the length of the document; carry on after it. */
        end += strlen(doc) - before;
        at = end;
        sessions++;
    }
    assert_true(sessions >= 5);
    const char *rebase = getenv("IWARP_REBASELINE");
    if (rebase != NULL && strcmp(rebase, "1") == 0) {
        FILE *f = fopen("docs/console.md", "w");
        assert_non_null(f);
        fputs(doc, f);
        fclose(f);
    }
    free(doc);
}

static void test_every_command_has_an_example_in_the_docs(void **state)
{
    (void)state;
    char *doc = doc_text();
    size_t n;
    const dbg_command_t *cmds = dbg_commands(&n);
    for (size_t i = 0; i < n; i++) {
        char a[64], b[64], c[64];
        snprintf(a, sizeof a, "(iwarp) %s\n", cmds[i].name);
        snprintf(b, sizeof b, "(iwarp) %s ", cmds[i].name);
        snprintf(c, sizeof c, "(iwarp) %s/", cmds[i].name); /* x/8x: the format glued on */
        if (strstr(doc, a) == NULL && strstr(doc, b) == NULL && strstr(doc, c) == NULL)
            fail_msg("docs/console.md has no example of '%s'", cmds[i].name);
    }
    free(doc);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-OF-IWARP (run in the source root)\n", argv[0]);
        return 2;
    }
    iwarp_exe = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_session_of_the_docs_prints_what_the_docs_show),
        cmocka_unit_test(test_every_command_has_an_example_in_the_docs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
