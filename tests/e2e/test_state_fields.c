/* The state hash covers every field of a cell's state: each field the structs of emu/state_fields.c declare in
 * their headers is in its table (hashed, or left out with a reason), in the header's order, and every field the
 * table hashes changes the hash when it changes. A field added to ca_state_block_t, coa_t or a struct inside them
 * and not added to the table fails here, before scripts/compare-builds.sh could miss a change in it. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_internal.h"
#include "e2e.h"
#include "iwarp_config.h"
#include "state_fields.h"

enum { MAX_FIELDS = 64, NAME_LEN = 48 };

typedef struct names {
    char name[MAX_FIELDS][NAME_LEN];
    unsigned n;
} names_t;

static char *read_source(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", IWARP_SOURCE_ROOT, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    /* Comments out, as blanks. */
    for (char *p = s; *p != '\0'; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            assert_non_null(e);
            memset(p, ' ', (size_t)(e + 2 - p));
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p != '\0' && *p != '\n')
                *p++ = ' ';
        }
    }
    return s;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The name a declarator declares: its last identifier before any [size]. */
static void declarator_name(const char *b, const char *e, names_t *out)
{
    const char *br = memchr(b, '[', (size_t)(e - b));
    if (br != NULL)
        e = br;
    while (e > b && !ident_char(e[-1]))
        e--;
    const char *s = e;
    while (s > b && ident_char(s[-1]))
        s--;
    assert_true(e > s && (size_t)(e - s) < NAME_LEN && out->n < MAX_FIELDS);
    memcpy(out->name[out->n], s, (size_t)(e - s));
    out->name[out->n][e - s] = '\0';
    out->n++;
}

/* The declarators of `type a, b[4];` statements in [p, end), in order. */
static void declared_fields(const char *p, const char *end, names_t *out)
{
    while (p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        if (semi == NULL)
            break;
        /* `type a, b[4];`: each comma starts another declarator. */
        const char *d = p;
        for (const char *q = p; q <= semi; q++)
            if (*q == ',' || q == semi) {
                declarator_name(d, q, out);
                d = q + 1;
            }
        p = semi + 1;
    }
}

/* The fields a table file declares, one a row: `ROW(field, ...)` lines, the first argument each (the rows of a
 * struct whose fields are generated, as coa_config_t's are from comm_agent/coa_keys.def). */
static void row_fields(const char *rel, names_t *out)
{
    char *src = read_source(rel);
    for (const char *line = src; line != NULL && *line != '\0';) {
        const char *p = line;
        while (*p == ' ')
            p++;
        const char *name = p;
        while (isupper((unsigned char)*p) || *p == '_')
            p++;
        if (p > name && *p == '(') {
            const char *b = p + 1, *e = b;
            while (ident_char(*e))
                e++;
            assert_true(e > b && (size_t)(e - b) < NAME_LEN && out->n < MAX_FIELDS);
            memcpy(out->name[out->n], b, (size_t)(e - b));
            out->name[out->n][e - b] = '\0';
            out->n++;
        }
        line = strchr(line, '\n');
        if (line != NULL)
            line++;
    }
    free(src);
}

/* The fields of `typedef struct TAG { ... }` in the source text, in order; a `#include "F"` inside expands to the
 * rows of F (beside the header), other preprocessor lines are skipped. */
static void header_fields(const char *src, const char *header, const char *tag, names_t *out)
{
    char open[96];
    snprintf(open, sizeof open, "typedef struct %s {", tag);
    const char *p = strstr(src, open);
    if (p == NULL)
        fail_msg("no `%s` in its header", open);
    p += strlen(open);
    const char *end = strchr(p, '}');
    assert_non_null(end);
    out->n = 0;
    while (p < end) {
        const char *hash = memchr(p, '#', (size_t)(end - p));
        const char *stop = hash != NULL ? hash : end;
        declared_fields(p, stop, out);
        if (hash == NULL)
            break;
        const char *eol = memchr(hash, '\n', (size_t)(end - hash));
        if (eol == NULL)
            eol = end;
        if (strncmp(hash, "#include \"", 10) == 0) {
            const char *f = hash + 10, *q = memchr(f, '"', (size_t)(eol - f));
            assert_non_null(q);
            const char *slash = strrchr(header, '/');
            char rel[256];
            snprintf(rel, sizeof rel, "%.*s%.*s", slash != NULL ? (int)(slash + 1 - header) : 0, header, (int)(q - f),
                     f);
            row_fields(rel, out);
        }
        p = eol;
    }
}

static void test_every_field_of_the_state_is_in_the_table(void **state)
{
    (void)state;
    unsigned n;
    const state_struct_t *const *all = state_fields_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const state_struct_t *t = all[i];
        char *src = read_source(t->header);
        names_t h;
        header_fields(src, t->header, t->tag, &h);
        for (unsigned k = 0; k < h.n || k < t->nfields; k++) {
            const char *hn = k < h.n ? h.name[k] : "(none)";
            const char *tn = k < t->nfields ? t->fields[k].name : "(none)";
            if (strcmp(hn, tn) != 0)
                fail_msg("struct %s (%s): field %u is %s, emu/state_fields.c has %s: declare every field there, "
                         "hashed or left out with a reason",
                         t->tag, t->header, k, hn, tn);
        }
        free(src);
    }
}

/* The table's fields lie in the struct, in order, without overlap, and a field hashed by hand or left out says
 * why. */
static void test_the_table_matches_the_layout(void **state)
{
    (void)state;
    unsigned n;
    const state_struct_t *const *all = state_fields_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const state_struct_t *t = all[i];
        size_t at = 0;
        for (unsigned k = 0; k < t->nfields; k++) {
            const state_field_t *f = &t->fields[k];
            assert_true(f->offset >= at);
            at = f->offset + f->size;
            assert_true(at <= t->size);
            if (f->how == STATE_NESTED)
                assert_true(f->of != NULL && f->size % f->of->size == 0);
            if (f->how == STATE_BY_HAND || f->how == STATE_NOT_HASHED)
                assert_true(f->why != NULL && f->why[0] != '\0');
        }
    }
}

/* Flips the first and the last byte of every field the table hashes as bytes, text or statistics, in one cell,
 * and wants another hash, then the same one back. The array is loaded and not run: every queue is empty, so the fields
 * the hash reads to walk the queues may take any value. */
typedef struct flipper {
    emu_array_t *a;
    uint64_t base;
    unsigned flipped;
} flipper_t;

static void flip_fields(flipper_t *fl, uint8_t *block, const state_struct_t *t, const char *path)
{
    for (unsigned k = 0; k < t->nfields; k++) {
        const state_field_t *f = &t->fields[k];
        uint8_t *p = block + f->offset;
        if (f->how == STATE_NESTED) { /* an array's first and last elements: the others are hashed alike */
            flip_fields(fl, p, f->of, f->name);
            if (f->size > f->of->size)
                flip_fields(fl, p + f->size - f->of->size, f->of, f->name);
            continue;
        }
        if (f->how == STATE_BY_HAND || f->how == STATE_NOT_HASHED)
            continue;
        size_t last = f->how == STATE_TEXT ? 0 : f->size - 1; /* a text's first byte ends it or not */
        for (size_t b = 0; b <= last; b += last > 0 ? last : 1) {
            p[b] ^= 1u;
            uint64_t h = emu_array_hash(fl->a, false, true);
            p[b] ^= 1u;
            if (h == fl->base)
                fail_msg("%s.%s: byte %zu changed and the state hash did not", path, f->name, b);
            fl->flipped++;
        }
    }
    assert_int_equal(emu_array_hash(fl->a, false, true), fl->base);
}

static void test_every_hashed_field_changes_the_hash(void **state)
{
    (void)state;
    static const char *const none[1] = {NULL};
    e2e_run_t run;
    e2e_run_file(&run, "programs/net/pathway.run");
    flipper_t fl = {0};
    assert_int_equal(run_desc_build(&run.desc, none, 0, none, 0, &fl.a), 0);
    fl.base = emu_array_hash(fl.a, false, true);
    emu_cell_t *c = &fl.a->cells[fl.a->ncells - 1];
    flip_fields(&fl, (uint8_t *)&c->ca.s, state_fields_ca(), "ca");
    flip_fields(&fl, (uint8_t *)&c->coa, state_fields_coa(), "coa");
    assert_true(fl.flipped > 200);
    emu_array_free(fl.a);
    e2e_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_of_the_state_is_in_the_table),
        cmocka_unit_test(test_the_table_matches_the_layout),
        cmocka_unit_test(test_every_hashed_field_changes_the_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
