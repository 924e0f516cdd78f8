/* A recursive-descent JSON reader with a depth limit, positions for errors, and a compact writer. */
#include "json_value.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { JV_MAX_DEPTH = 64 };

typedef struct jv_parser {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    bool failed;
} jv_parser_t;

static void where(const jv_parser_t *p, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++) {
        if (p->s[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static bool fail(jv_parser_t *p, const char *what)
{
    if (!p->failed) {
        unsigned line, col;
        where(p, &line, &col);
        if (p->err != NULL && p->errlen > 0)
            snprintf(p->err, p->errlen, "%u:%u: %s", line, col, what);
        p->failed = true;
    }
    return false;
}

static void skip_space(jv_parser_t *p)
{
    while (p->pos < p->len &&
           (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static bool literal(jv_parser_t *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "expected a JSON value");
    p->pos += n;
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool number(jv_parser_t *p, jv_t *v)
{
    size_t start = p->pos;
    if (p->pos < p->len && p->s[p->pos] == '-')
        p->pos++;
    if (p->pos >= p->len || !is_digit(p->s[p->pos]))
        return fail(p, "expected a digit");
    if (p->s[p->pos] == '0')
        p->pos++;
    else
        while (p->pos < p->len && is_digit(p->s[p->pos]))
            p->pos++;
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (p->pos >= p->len || !is_digit(p->s[p->pos]))
            return fail(p, "expected a digit after '.'");
        while (p->pos < p->len && is_digit(p->s[p->pos]))
            p->pos++;
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (p->pos >= p->len || !is_digit(p->s[p->pos]))
            return fail(p, "expected a digit in the exponent");
        while (p->pos < p->len && is_digit(p->s[p->pos]))
            p->pos++;
    }
    v->kind = JV_NUMBER;
    v->text = malloc(p->pos - start + 1);
    if (v->text == NULL)
        return fail(p, "out of memory");
    memcpy(v->text, p->s + start, p->pos - start);
    v->text[p->pos - start] = '\0';
    return true;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string at p->pos (the opening quote); the decoded text is never longer than the source. */
static bool string(jv_parser_t *p, char **out)
{
    p->pos++;
    size_t start = p->pos;
    char *t = malloc(p->len - start + 1);
    if (t == NULL)
        return fail(p, "out of memory");
    size_t n = 0;
    for (;;) {
        if (p->pos >= p->len) {
            free(t);
            return fail(p, "unterminated string");
        }
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            free(t);
            return fail(p, "control character in a string");
        }
        if (c != '\\') {
            t[n++] = (char)c;
            p->pos++;
            continue;
        }
        if (p->pos + 1 >= p->len) {
            free(t);
            return fail(p, "unterminated escape");
        }
        char e = p->s[p->pos + 1];
        p->pos += 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = e != '\0' ? strchr(from, e) : NULL;
        if (k != NULL) {
            t[n++] = to[k - from];
            continue;
        }
        int cp = e == 'u' && p->len - p->pos >= 4 ? hex4(p->s + p->pos) : -1;
        if (cp < 0) {
            free(t);
            return fail(p, "bad escape in a string");
        }
        p->pos += 4;
        uint32_t code = (uint32_t)cp;
        if (code >= 0xd800 && code < 0xdc00 && p->len - p->pos >= 6 && p->s[p->pos] == '\\' &&
            p->s[p->pos + 1] == 'u') {
            int lo = hex4(p->s + p->pos + 2);
            if (lo >= 0xdc00 && lo < 0xe000) {
                code = 0x10000 + ((code - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
                p->pos += 6;
            }
        }
        if (code == 0) {
            free(t);
            return fail(p, "\\u0000 in a string");
        }
        n += put_utf8(t + n, code); /* 6 or 12 source characters give at most 4 bytes */
    }
    t[n] = '\0';
    *out = t;
    return true;
}

static bool value(jv_parser_t *p, jv_t *v, unsigned depth);

static bool grow(jv_parser_t *p, jv_t *v, size_t *cap, bool keys)
{
    if (v->n < *cap)
        return true;
    size_t c = *cap ? 2 * *cap : 4;
    jv_t *items = realloc(v->items, c * sizeof *items);
    if (items == NULL)
        return fail(p, "out of memory");
    v->items = items;
    if (keys) {
        char **k = realloc(v->keys, c * sizeof *k);
        if (k == NULL)
            return fail(p, "out of memory");
        v->keys = k;
    }
    *cap = c;
    return true;
}

static bool container(jv_parser_t *p, jv_t *v, unsigned depth, bool object)
{
    v->kind = object ? JV_OBJECT : JV_ARRAY;
    char close = object ? '}' : ']';
    size_t cap = 0;
    p->pos++;
    skip_space(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return true;
    }
    for (;;) {
        if (!grow(p, v, &cap, object))
            return false;
        char *key = NULL;
        if (object) {
            skip_space(p);
            if (p->pos >= p->len || p->s[p->pos] != '"')
                return fail(p, "expected a member name");
            if (!string(p, &key))
                return false;
            skip_space(p);
            if (p->pos >= p->len || p->s[p->pos] != ':') {
                free(key);
                return fail(p, "expected ':'");
            }
            p->pos++;
            v->keys[v->n] = key;
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        v->n++;
        if (!value(p, &v->items[v->n - 1], depth + 1))
            return false;
        skip_space(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            return true;
        }
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool value(jv_parser_t *p, jv_t *v, unsigned depth)
{
    if (depth > JV_MAX_DEPTH)
        return fail(p, "nested too deep");
    skip_space(p);
    if (p->pos >= p->len)
        return fail(p, "expected a JSON value");
    switch (p->s[p->pos]) {
    case '{': return container(p, v, depth, true);
    case '[': return container(p, v, depth, false);
    case '"': v->kind = JV_STRING; return string(p, &v->text);
    case 't':
        v->kind = JV_BOOL;
        v->boolean = true;
        return literal(p, "true");
    case 'f': v->kind = JV_BOOL; return literal(p, "false");
    case 'n': v->kind = JV_NULL; return literal(p, "null");
    default: return number(p, v);
    }
}

void jv_free(jv_t *v)
{
    if (v == NULL)
        return;
    free(v->text);
    for (size_t i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys != NULL)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    memset(v, 0, sizeof *v);
}

void jv_free_all(jv_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        jv_free(&v[i]);
    free(v);
}

int jv_parse_all(const char *text, size_t len, jv_t **out, size_t *n, char *err, size_t errlen)
{
    jv_parser_t p = {text, len, 0, err, errlen, false};
    jv_t *v = NULL;
    size_t count = 0, cap = 0;
    for (;;) {
        skip_space(&p);
        if (p.pos >= len)
            break;
        if (count == cap) {
            size_t c = cap ? 2 * cap : 4;
            jv_t *grown = realloc(v, c * sizeof *grown);
            if (grown == NULL) {
                fail(&p, "out of memory");
                break;
            }
            v = grown;
            cap = c;
        }
        memset(&v[count], 0, sizeof v[count]);
        count++;
        if (!value(&p, &v[count - 1], 0))
            break;
        char c = p.pos < len ? text[p.pos] : ' ';
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            fail(&p, "expected a blank or the end after a value");
            break;
        }
    }
    if (p.failed) {
        jv_free_all(v, count);
        return -1;
    }
    *out = v;
    *n = count;
    return 0;
}

const jv_t *jv_get(const jv_t *v, const char *key)
{
    if (v->kind != JV_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

static void put(FILE *f, const jv_t *v)
{
    switch (v->kind) {
    case JV_NULL: fputs("null", f); break;
    case JV_BOOL: fputs(v->boolean ? "true" : "false", f); break;
    case JV_NUMBER: fputs(v->text, f); break;
    case JV_STRING: put_string(f, v->text); break;
    case JV_ARRAY:
    case JV_OBJECT:
        fputc(v->kind == JV_OBJECT ? '{' : '[', f);
        for (size_t i = 0; i < v->n; i++) {
            if (i > 0)
                fputc(',', f);
            if (v->kind == JV_OBJECT) {
                put_string(f, v->keys[i]);
                fputc(':', f);
            }
            put(f, &v->items[i]);
        }
        fputc(v->kind == JV_OBJECT ? '}' : ']', f);
        break;
    }
}

char *jv_compact(const jv_t *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    put(f, v);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
