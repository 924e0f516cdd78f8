/*
 * Every ```asm example in docs/ that is followed by a run comment is run, and its expectations checked:
 *
 *   <!-- run: array 4x3; set queue_depth = 4; expect done; a0(3,2)=5050 -->
 *
 * Items are separated by ';'. `expect STATUS` names the run status (done, fault, deadlock); `a0(X,Y)=V`
 * checks a cell's a0 after the run; anything else is a run-description line (docs/run.md). The program
 * runs on every cell, with runtime/ on the include path.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "e2e.h"
#include "iwarp_config.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(f);
    fclose(m);
    return buf;
}

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    char *e = s + strlen(s);
    while (e > s && e[-1] == ' ')
        *--e = '\0';
    return s;
}

/* Runs one example; returns 1 when it ran. */
static int run_example(const char *doc, const char *code, size_t code_len, const char *comment)
{
    char *items = strdup(comment);
    char options[1024] = "";
    char expect[32] = "done";
    struct check {
        unsigned x, y;
        uint32_t value;
    } checks[16];
    unsigned nchecks = 0;
    char *save = NULL;
    for (char *it = strtok_r(items, ";", &save); it != NULL; it = strtok_r(NULL, ";", &save)) {
        it = trim(it);
        unsigned x, y;
        unsigned long long v;
        if (sscanf(it, "a0(%u,%u)=%lli", &x, &y, (long long *)&v) == 3 && nchecks < 16)
            checks[nchecks++] = (struct check){x, y, (uint32_t)v};
        else if (strncmp(it, "expect ", 7) == 0)
            snprintf(expect, sizeof expect, "%s", it + 7);
        else {
            strncat(options, it, sizeof options - strlen(options) - 2);
            strcat(options, "\n");
        }
    }
    free(items);
    char *text = strndup(code, code_len);
    e2e_run_t r;
    e2e_run_source(&r, text, options);
    free(text);
    if (strcmp(emu_run_status_name(r.status), expect) != 0) {
        unsigned fx, fy;
        char line[400] = "";
        if (emu_array_first_fault(r.array, &fx, &fy))
            emu_format_fault(r.array, fx, fy, line, sizeof line);
        fail_msg("%s: example ended '%s', expected '%s': %s", doc, emu_run_status_name(r.status), expect, line);
    }
    for (unsigned i = 0; i < nchecks; i++) {
        uint32_t got = e2e_a0(&r, checks[i].x, checks[i].y);
        if (got != checks[i].value)
            fail_msg("%s: a0 of (%u,%u) is %u, expected %u", doc, checks[i].x, checks[i].y, got, checks[i].value);
    }
    e2e_free(&r);
    return 1;
}

static void test_runnable_doc_examples_give_their_stated_results(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/docs", IWARP_SOURCE_ROOT);
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned ran = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *doc = read_file(path);
        for (const char *p = doc; (p = strstr(p, "```asm\n")) != NULL;) {
            const char *code = p + 7;
            const char *end = strstr(code, "```");
            if (end == NULL)
                break;
            const char *after = end + 3;
            while (*after == '\n' || *after == ' ')
                after++;
            if (strncmp(after, "<!-- run:", 9) == 0) {
                const char *close = strstr(after, "-->");
                assert_non_null(close);
                char *comment = strndup(after + 9, (size_t)(close - after - 9));
                ran += (unsigned)run_example(e->d_name, code, (size_t)(end - code), comment);
                free(comment);
            }
            p = end + 3;
        }
        free(doc);
    }
    closedir(d);
    assert_true(ran >= 1); /* the docs promise runnable examples */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runnable_doc_examples_give_their_stated_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
