/* The words of one line of the line formats (line_tokens.h). */
#include "line_tokens.h"

#include "grow.h"

#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_control(char c)
{
    return ((unsigned char)c < 0x20 || (unsigned char)c == 0x7f) && !is_space(c);
}

line_status_t line_split(const char *line, size_t len, line_tokens_t *t, unsigned *col)
{
    t->n = 0;
    size_t i = 0;
    while (i < len && line[i] != '#') {
        if (is_space(line[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < len && !is_space(line[i]) && line[i] != '#') {
            if (is_control(line[i])) {
                *col = i + 1 > 0xffffffffu ? 0xffffffffu : (unsigned)(i + 1);
                return LINE_CONTROL_CHAR;
            }
            i++;
        }
        line_token_t *v = grow_double(t->v, t->n, &t->cap, sizeof *v, 16, SIZE_MAX);
        if (v == NULL)
            return LINE_NO_MEMORY;
        t->v = v;
        unsigned c = start + 1 > 0xffffffffu ? 0xffffffffu : (unsigned)(start + 1);
        t->v[t->n++] = (line_token_t){line + start, i - start, c};
    }
    return LINE_OK;
}

void line_tokens_free(line_tokens_t *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

bool line_token_is(const line_token_t *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}
