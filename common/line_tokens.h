/*
 * The words of one line of the line formats (run descriptions, connection sets): apart by spaces and tabs
 * ('\r', '\v' and '\f' count as space), a '#' starting a comment wherever it is. One splitter, so that both
 * formats take the same text the same way.
 */
#ifndef COMMON_LINE_TOKENS_H
#define COMMON_LINE_TOKENS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct line_token {
    const char *text; /* into the line, not NUL-terminated */
    size_t len;
    unsigned col; /* 1-based */
} line_token_t;

typedef struct line_tokens {
    line_token_t *v;
    size_t n, cap;
} line_tokens_t;

typedef enum line_status {
    LINE_OK,
    LINE_CONTROL_CHAR, /* a control character (not a space) at *col */
    LINE_NO_MEMORY,
} line_status_t;

/* Splits line[0..len) (no newline in it) into t, which grows as needed; on LINE_CONTROL_CHAR, *col is its
 * column and t holds the words before it. */
line_status_t line_split(const char *line, size_t len, line_tokens_t *t, unsigned *col);
void line_tokens_free(line_tokens_t *t);
bool line_token_is(const line_token_t *t, const char *s);

#endif
