/* Reading JSON (RFC 8259) into a tree: what iwarp sweep needs to check the records a command printed, embed
 * them in one line, and flatten them into CSV columns. Numbers keep their text, so nothing is rounded. */
#ifndef COMMON_JSON_VALUE_H
#define COMMON_JSON_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum jv_kind { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind_t;

typedef struct jv {
    jv_kind_t kind;
    bool boolean;
    char *text;       /* number: as written; string: decoded (UTF-8, may not hold NUL) */
    char **keys;      /* object */
    struct jv *items; /* array elements or object values */
    size_t n;
} jv_t;

/* Parses every JSON value in text[0..len), separated by whitespace (a document, or JSON lines). Returns the
 * number of values in *out (to free with jv_free_all), or -1 with "line:col: what" in err. */
int jv_parse_all(const char *text, size_t len, jv_t **out, size_t *n, char *err, size_t errlen);
void jv_free(jv_t *v);
void jv_free_all(jv_t *v, size_t n);

/* The value as compact JSON (no whitespace): a string to free, NULL when out of memory. */
char *jv_compact(const jv_t *v);
/* A member of an object, or NULL. */
const jv_t *jv_get(const jv_t *v, const char *key);

#endif
