#include "json.h"

#include <math.h>
#include <stdlib.h>

void json_init(json_writer_t *j, FILE *out, bool pretty)
{
    j->out = out;
    j->depth = 0;
    j->need_comma = false;
    j->pretty = pretty;
}

static void newline(json_writer_t *j)
{
    if (!j->pretty)
        return;
    fputc('\n', j->out);
    for (unsigned i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

static void write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* Comma, indentation and key before a value. */
static void prefix(json_writer_t *j, const char *key)
{
    if (j->need_comma)
        fputc(',', j->out);
    if (j->depth > 0)
        newline(j);
    j->need_comma = true;
    if (key != NULL) {
        write_escaped(j->out, key);
        fputs(j->pretty ? ": " : ":", j->out);
    }
}

static void open_scope(json_writer_t *j, const char *key, char c)
{
    prefix(j, key);
    fputc(c, j->out);
    j->depth++;
    j->need_comma = false;
}

static void close_scope(json_writer_t *j, char c)
{
    bool had_items = j->need_comma;
    if (j->depth > 0)
        j->depth--;
    if (had_items)
        newline(j);
    fputc(c, j->out);
    j->need_comma = true; /* the scope just closed is an item of the one around it */
}

void json_begin_object(json_writer_t *j, const char *key) { open_scope(j, key, '{'); }
void json_end_object(json_writer_t *j) { close_scope(j, '}'); }
void json_begin_array(json_writer_t *j, const char *key) { open_scope(j, key, '['); }
void json_end_array(json_writer_t *j) { close_scope(j, ']'); }

void json_string(json_writer_t *j, const char *key, const char *value)
{
    prefix(j, key);
    if (value == NULL)
        fputs("null", j->out);
    else
        write_escaped(j->out, value);
}

void json_u64(json_writer_t *j, const char *key, uint64_t value)
{
    prefix(j, key);
    fprintf(j->out, "%llu", (unsigned long long)value);
}

void json_i64(json_writer_t *j, const char *key, int64_t value)
{
    prefix(j, key);
    fprintf(j->out, "%lld", (long long)value);
}

void json_double(json_writer_t *j, const char *key, double value)
{
    prefix(j, key);
    char text[32];
    json_format_double(text, value);
    fputs(isfinite(value) ? text : "null", j->out);
}

void json_format_double(char buf[32], double value)
{
    snprintf(buf, 32, "%.15g", value);
    if (strtod(buf, NULL) != value)
        snprintf(buf, 32, "%.17g", value);
}

void json_bool(json_writer_t *j, const char *key, bool value)
{
    prefix(j, key);
    fputs(value ? "true" : "false", j->out);
}

void json_null(json_writer_t *j, const char *key)
{
    prefix(j, key);
    fputs("null", j->out);
}

void json_raw(json_writer_t *j, const char *key, const char *text)
{
    prefix(j, key);
    fputs(text, j->out);
}

void json_finish(json_writer_t *j) { fputc('\n', j->out); }
