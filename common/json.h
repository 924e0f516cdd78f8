/* A small streaming JSON writer: keeps track of commas and nesting so callers only name values. */
#ifndef TOOLS_JSON_H
#define TOOLS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Nesting has no limit: a scope only needs to know whether it has an item yet (the scope it closes into
 * always has, the one it closed). */
typedef struct json_writer {
    FILE *out;
    unsigned depth;  /* for indentation */
    bool need_comma; /* the current scope has an item */
    bool pretty;
} json_writer_t;

void json_init(json_writer_t *j, FILE *out, bool pretty);
void json_begin_object(json_writer_t *j, const char *key); /* key NULL inside arrays and at top level */
void json_end_object(json_writer_t *j);
void json_begin_array(json_writer_t *j, const char *key);
void json_end_array(json_writer_t *j);
void json_string(json_writer_t *j, const char *key, const char *value);
void json_u64(json_writer_t *j, const char *key, uint64_t value);
void json_i64(json_writer_t *j, const char *key, int64_t value);
void json_double(json_writer_t *j, const char *key, double value); /* non-finite values become null */
void json_bool(json_writer_t *j, const char *key, bool value);
void json_null(json_writer_t *j, const char *key);
/* A value given as JSON text that is already valid (iwarp sweep embeds the records a command printed). */
void json_raw(json_writer_t *j, const char *key, const char *text);
/* The shortest text that reads back as the same double (%.15g, else %.17g): JSON and CSV write the same. */
void json_format_double(char buf[32], double value);
/* Ends the document with a newline. */
void json_finish(json_writer_t *j);

#endif
