/* Machine description: defaults, `key = value` parsing and printing, all from one table of keys. */
#include "machine.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coa.h"
#include "err.h"
#include "file.h"

typedef enum { KEY_U32, KEY_UINT, KEY_U64 } key_type_t;

/* How a key's values read in the docs: sizes as 512K, addresses in hex, the rest in decimal. */
typedef enum { UNIT_BYTES, UNIT_ADDRESS, UNIT_CELLS, UNIT_COUNT, UNIT_WORDS, UNIT_CLOCKS } key_unit_t;
static const char *const unit_names[] = {"bytes", "address", "cells", "count", "words", "clocks"};

typedef struct machine_key {
    const char *name;
    key_type_t type;
    size_t offset;
    uint64_t def, min, max;
    key_unit_t unit;
    const char *doc, *source;
} machine_key_t;

static const machine_key_t keys[] = {
#define EMU_KEY(name, field, type, def, min, max, unit, doc, source)                                                   \
    {name, type, offsetof(emu_machine_t, field), def, min, max, UNIT_##unit, doc, source},
#define COA_KEY(field, def, min, max, unit, doc, source)                                                               \
    {#field, KEY_UINT, offsetof(emu_machine_t, agent.field), def, min, max, UNIT_##unit, doc, source},
#include "machine_keys.def"
#undef COA_KEY
#undef EMU_KEY
};
enum { NKEYS = sizeof keys / sizeof keys[0] };
/* The range of every timing class (timing.<class>), in clocks. */
enum { TIMING_MIN = 1, TIMING_MAX = 1000 };

/* The agent's keys are unsigned, as the table says of them. */
#define COA_KEY(field, def, min, max, unit, doc, source)                                                               \
    _Static_assert(sizeof((coa_config_t *)0)->field == sizeof(unsigned), #field " is not an unsigned");
#include "coa_keys.def"
#undef COA_KEY

/* The value of key k in m, whatever its type. */
static uint64_t key_value(const emu_machine_t *m, const machine_key_t *k)
{
    const char *p = (const char *)m + k->offset;
    uint32_t u32;
    unsigned u;
    uint64_t u64;
    switch (k->type) {
    case KEY_U32: memcpy(&u32, p, sizeof u32); return u32;
    case KEY_UINT: memcpy(&u, p, sizeof u); return u;
    default: memcpy(&u64, p, sizeof u64); return u64;
    }
}

static void key_store(emu_machine_t *m, const machine_key_t *k, uint64_t v)
{
    char *p = (char *)m + k->offset;
    uint32_t u32 = (uint32_t)v;
    unsigned u = (unsigned)v;
    switch (k->type) {
    case KEY_U32: memcpy(p, &u32, sizeof u32); break;
    case KEY_UINT: memcpy(p, &u, sizeof u); break;
    case KEY_U64: memcpy(p, &v, sizeof v); break;
    }
}

/* Every key and every timing class equal. */
bool emu_machine_same(const emu_machine_t *x, const emu_machine_t *y)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (key_value(x, &keys[i]) != key_value(y, &keys[i]))
            return false;
    return memcmp(&x->timing, &y->timing, sizeof x->timing) == 0;
}

int emu_machine_check(const emu_machine_t *m, char *err, size_t errlen)
{
    if (m->mem_guard >= m->mem_bytes)
        return err_set(err, errlen, "mem_guard 0x%x leaves nothing of mem_bytes 0x%x", m->mem_guard, m->mem_bytes);
    /* Below the null page it is the program that does not fit, which loading it says (a raised mem_guard with the
     * default text_base must not stop programs assembled for another base). */
    if (m->text_base >= m->mem_bytes || m->text_base % 4 != 0)
        return err_set(err, errlen, "text_base 0x%x must be a multiple of 4 inside mem_bytes 0x%x", m->text_base,
                       m->mem_bytes);
    return 0;
}

coa_place_t emu_machine_place(const emu_machine_t *m, unsigned x, unsigned y)
{
    return (coa_place_t){.x = x, .y = y, .width = m->width, .height = m->height};
}

int emu_machine_in_range(const emu_machine_t *m, char *err, size_t errlen)
{
    for (size_t i = 0; i < NKEYS; i++) {
        uint64_t v = key_value(m, &keys[i]);
        if (v < keys[i].min || v > keys[i].max)
            return err_set(err, errlen, "%s is %llu, the key allows %llu to %llu", keys[i].name, (unsigned long long)v,
                           (unsigned long long)keys[i].min, (unsigned long long)keys[i].max);
    }
    for (unsigned t = 0; t < ISA_T_COUNT; t++)
        if (m->timing.clocks[t] < TIMING_MIN || m->timing.clocks[t] > TIMING_MAX)
            return err_set(err, errlen, "timing.%s is %u, the key allows %d to %d",
                           isa_timing_key((isa_timing_class_t)t), m->timing.clocks[t], TIMING_MIN, TIMING_MAX);
    return emu_machine_check(m, err, errlen);
}

/* Every key's default is its row's (docs/machine.md says where each comes from). */
void emu_machine_defaults(emu_machine_t *m)
{
    memset(m, 0, sizeof *m);
    isa_timing_defaults(&m->timing);
    for (size_t i = 0; i < NKEYS; i++)
        key_store(m, &keys[i], keys[i].def);
}

size_t emu_parse_count_prefix(const char *s, uint64_t *v)
{
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = hex ? s + 2 : s;
    if (!(hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(p, &end, hex ? 16 : 10);
    if (errno != 0)
        return 0;
    *v = n;
    return (size_t)(end - s);
}

int emu_parse_count(const char *s, uint64_t *v)
{
    size_t n = emu_parse_count_prefix(s, v);
    return n > 0 && s[n] == '\0' ? 0 : -1;
}

static int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v;
    size_t n = emu_parse_count_prefix(s, &v);
    if (n == 0)
        return -1;
    const char *end = s + n;
    /* Accept size suffixes, since memory sizes read better as 512K. */
    unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : 0;
    if (shift != 0) {
        if (v > UINT64_MAX >> shift)
            return -1;
        v <<= shift;
        end++;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

int emu_machine_set(emu_machine_t *m, const char *key, const char *value, char *err, size_t errlen)
{
    uint64_t v;
    if (strncmp(key, "timing.", 7) == 0) {
        int t = isa_timing_lookup(key + 7);
        if (t < 0)
            return err_set(err, errlen, "unknown timing class '%s'", key + 7);
        if (parse_u64(value, &v) != 0 || v < TIMING_MIN || v > TIMING_MAX)
            return err_set(err, errlen, "%s wants clocks from %d to %d, not '%s'", key, TIMING_MIN, TIMING_MAX, value);
        m->timing.clocks[t] = (uint16_t)v;
        return 0;
    }
    for (size_t i = 0; i < NKEYS; i++) {
        const machine_key_t *k = &keys[i];
        if (strcmp(k->name, key) != 0)
            continue;
        if (parse_u64(value, &v) != 0 || v < k->min || v > k->max)
            return err_set(err, errlen, "%s wants a number from %llu to %llu, not '%s'", key,
                           (unsigned long long)k->min, (unsigned long long)k->max, value);
        key_store(m, k, v);
        return 0;
    }
    return err_set(err, errlen, "unknown machine key '%s'", key);
}

static char *trim(char *s, char **end_out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    *e = '\0';
    if (end_out != NULL)
        *end_out = e;
    return s;
}

int emu_machine_load(emu_machine_t *m, const char *path, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    if (file_read_max(path, FILE_MAX_MACHINE, &data, &len, err, errlen) != 0)
        return -1;
    if (len == 0) /* data is NULL */
        return err_set(err, errlen, "%s: an empty file (a machine file has 'key = value' lines)", path);
    /* Line by line over the whole file, however long a line is (a cut line's tail must not pass for a line). */
    char *text = malloc(len + 1);
    if (text == NULL) {
        free(data);
        return err_set(err, errlen, "%s: out of memory", path);
    }
    if (len > 0)
        memcpy(text, data, len);
    text[len] = '\0';
    free(data);
    int rc = 0;
    unsigned lineno = 0;
    for (char *line = text; rc == 0 && line != NULL && (size_t)(line - text) < len;) {
        char *eol = strchr(line, '\n');
        if (eol != NULL)
            *eol = '\0';
        lineno++;
        if (strlen(line) != (size_t)((eol != NULL ? eol : text + len) - line)) {
            rc = err_set(err, errlen, "%s:%u:%zu: a NUL byte in a machine file", path, lineno, strlen(line) + 1);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        char *start = trim(line, NULL);
        if (*start != '\0') {
            char *eq = strchr(start, '=');
            if (eq == NULL) {
                rc = err_set(err, errlen, "%s:%u:%d: expected 'key = value'", path, lineno, (int)(start - line) + 1);
                break;
            }
            *eq = '\0';
            char *key = trim(start, NULL);
            char *value = trim(eq + 1, NULL);
            char inner[200];
            if (emu_machine_set(m, key, value, inner, sizeof inner) != 0)
                rc = err_set(err, errlen, "%s:%u:%d: %s", path, lineno, (int)(key - line) + 1, inner);
        }
        line = eol != NULL ? eol + 1 : NULL;
    }
    free(text);
    return rc;
}

void emu_machine_print(const emu_machine_t *m, FILE *out)
{
    for (size_t i = 0; i < NKEYS; i++)
        fprintf(out, "%s = %llu\n", keys[i].name, (unsigned long long)key_value(m, &keys[i]));
    for (unsigned t = 0; t < ISA_T_COUNT; t++)
        fprintf(out, "timing.%s = %u\n", isa_timing_key((isa_timing_class_t)t), m->timing.clocks[t]);
}

/* A value as the docs write it in its unit: sizes with the largest of K, M, G that divides them. */
static void doc_value(char *buf, size_t len, uint64_t v, key_unit_t unit)
{
    static const char suffix[] = "GMK";
    if (unit == UNIT_ADDRESS) {
        snprintf(buf, len, "0x%llx", (unsigned long long)v);
        return;
    }
    if (unit == UNIT_BYTES && v != 0)
        for (unsigned i = 0; i < 3; i++) {
            uint64_t scale = 1ull << (10u * (3u - i));
            if (v % scale == 0) {
                snprintf(buf, len, "%llu%c", (unsigned long long)(v / scale), suffix[i]);
                return;
            }
        }
    snprintf(buf, len, "%llu", (unsigned long long)v);
}

void emu_machine_doc_table(FILE *out)
{
    fprintf(out, "| key | default | range | unit | meaning | source |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const machine_key_t *k = &keys[i];
        char def[32], min[32], max[32];
        doc_value(def, sizeof def, k->def, k->unit);
        doc_value(min, sizeof min, k->min, k->unit);
        doc_value(max, sizeof max, k->max, k->unit);
        fprintf(out, "| `%s` | %s | ", k->name, def);
        if (k->max == UINT64_MAX)
            fprintf(out, "%s or more", min);
        else
            fprintf(out, "%s..%s", min, max);
        fprintf(out, " | %s | %s | %s |\n", unit_names[k->unit], k->doc, k->source);
    }
    fprintf(out, "| `timing.<class>` | see [isa.md](isa.md#timing) | %d..%d | clocks | clocks of a timing class (",
            TIMING_MIN, TIMING_MAX);
    for (unsigned t = 0; t < ISA_T_COUNT; t++)
        fprintf(out, "%s`%s`", t > 0 ? ", " : "", isa_timing_key((isa_timing_class_t)t));
    fprintf(out, ") | isa.md |\n");
}

int emu_parse_pair(const char *s, unsigned max, unsigned *a, unsigned *b)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long x = strtoul(s, &end, 10);
    if (*end != 'x' && *end != 'X')
        return -1;
    const char *second = end + 1;
    if (*second < '0' || *second > '9')
        return -1;
    unsigned long y = strtoul(second, &end, 10);
    if (*end != '\0' || x < 1 || y < 1 || x > max || y > max)
        return -1;
    *a = (unsigned)x;
    *b = (unsigned)y;
    return 0;
}

int emu_parse_array_size(const char *s, unsigned *width, unsigned *height)
{
    return emu_parse_pair(s, EMU_MAX_DIM, width, height);
}

uint64_t emu_machine_footprint(const emu_machine_t *m)
{
    /* Per cell: its memory, each channel's queue (a word and a tag byte per entry) and a margin for the cell's
     * and agent's structs and link slots, which are a few tens of kilobytes at most. */
    uint64_t per_cell = (uint64_t)m->mem_bytes + (uint64_t)m->agent.channels * m->agent.queue_depth * 5u + 64u * 1024u;
    return per_cell * m->width * m->height;
}

/* Bytes of memory the host can give without swapping: MemAvailable, else physical pages; 0 when unknown. */
static uint64_t host_available(void)
{
    uint8_t *text;
    size_t len;
    char err[256];
    if (file_read_max("/proc/meminfo", 1u << 16, &text, &len, err, sizeof err) == 0 && text != NULL) {
        const char *line = strstr((const char *)text, "MemAvailable:");
        unsigned long long kb;
        bool found = line != NULL && sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
        free(text);
        if (found)
            return (uint64_t)kb * 1024u;
    }
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int emu_machine_check_host(const emu_machine_t *m, char *err, size_t errlen)
{
    uint64_t need = emu_machine_footprint(m), have = host_available();
    if (have == 0 || need <= have)
        return 0;
    return err_set(err, errlen,
                   "array %ux%u needs %.1f GiB (%u cells of %.1f MiB of memory, plus channels), but this host has "
                   "%.1f GiB available: use fewer cells or a smaller mem_bytes",
                   m->width, m->height, (double)need / (1u << 30), m->width * m->height,
                   (double)m->mem_bytes / (1u << 20), (double)have / (1u << 30));
}
