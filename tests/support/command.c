#include "command.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

char *command_read_all(FILE *f)
{
    size_t n = 0, cap = 4096;
    char *text = malloc(cap);
    assert_non_null(text);
    for (size_t k; (k = fread(text + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (cap - n < 2) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    text[n] = '\0';
    return text;
}

int command_run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    *out = command_read_all(p);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
