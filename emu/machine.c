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

typedef struct machine_key {
    const char *name;
    key_type_t type;
    size_t offset;
    uint64_t min, max;
} machine_key_t;

#define KEY(name, type, field, min, max)                                                                               \
    {                                                                                                                  \
        name, type, offsetof(emu_machine_t, field), min, max                                                           \
    }
static const machine_key_t keys[] = {
    KEY("mem_bytes", KEY_U32, mem_bytes, 4096, 1u << 30),
    KEY("mem_guard", KEY_U32, mem_guard, 0, 1u << 20),
    KEY("text_base", KEY_U32, text_base, 0, 1u << 30),
    KEY("width", KEY_UINT, width, 1, EMU_MAX_DIM),
    KEY("height", KEY_UINT, height, 1, EMU_MAX_DIM),
    KEY("channels", KEY_UINT, channels, 4, 64),
    KEY("queue_depth", KEY_UINT, queue_depth, 1, 1024),
    KEY("link_clocks", KEY_UINT, link_clocks, 1, 64),
    KEY("hop_latency", KEY_UINT, hop_latency, 1, COA_MAX_HOP_LATENCY),
    KEY("setup_clocks", KEY_UINT, setup_clocks, 0, 64),
    KEY("spools", KEY_UINT, spools, 1, 32),
    KEY("deadlock_clocks", KEY_U64, deadlock_clocks, 1, UINT64_MAX),
    KEY("bypass.load", KEY_UINT, timing.bypass_load, 0, ISA_BYPASS_MAX),
    KEY("bypass.mem_operand", KEY_UINT, timing.bypass_mem_operand, 0, ISA_BYPASS_MAX),
};
#undef KEY

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

/* Every key and every timing class equal. */
bool emu_machine_same(const emu_machine_t *x, const emu_machine_t *y)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
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

void emu_machine_defaults(emu_machine_t *m)
{
    memset(m, 0, sizeof *m);
    isa_timing_defaults(&m->timing);
    m->mem_bytes = 512u * 1024u; /* 512 KB per cell: no source (docs/machine.md, defaults with no source) */
    m->mem_guard = 0x1000;
    m->text_base = 0x1000;
    m->width = 8; /* the 64-cell iWarp of seed 004 */
    m->height = 8;
    m->channels = 20;    /* seed 004, 4.1.2: 20 logical channels per cell */
    m->queue_depth = 8;  /* no source (docs/machine.md, defaults with no source) */
    m->link_clocks = 2;  /* seed 004: 40 MB/s per link = one 32-bit word per 2 clocks at 20 MHz */
    m->hop_latency = 2;  /* no source (docs/machine.md, defaults with no source) */
    m->setup_clocks = 2; /* with hop_latency, a header takes 4 clocks per hop (4-5 noted), no source: docs/machine.md */
    m->spools = 8;       /* no source (docs/machine.md, defaults with no source) */
    m->deadlock_clocks = 100000;
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
        if (parse_u64(value, &v) != 0 || v < 1 || v > 1000)
            return err_set(err, errlen, "%s wants clocks from 1 to 1000, not '%s'", key, value);
        m->timing.clocks[t] = (uint16_t)v;
        return 0;
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const machine_key_t *k = &keys[i];
        if (strcmp(k->name, key) != 0)
            continue;
        if (parse_u64(value, &v) != 0 || v < k->min || v > k->max)
            return err_set(err, errlen, "%s wants a number from %llu to %llu, not '%s'", key,
                           (unsigned long long)k->min, (unsigned long long)k->max, value);
        char *field = (char *)m + k->offset;
        switch (k->type) {
        case KEY_U32: *(uint32_t *)(void *)field = (uint32_t)v; break;
        case KEY_UINT: *(unsigned *)(void *)field = (unsigned)v; break;
        case KEY_U64: *(uint64_t *)(void *)field = v; break;
        }
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
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        fprintf(out, "%s = %llu\n", keys[i].name, (unsigned long long)key_value(m, &keys[i]));
    }
    for (unsigned t = 0; t < ISA_T_COUNT; t++)
        fprintf(out, "timing.%s = %u\n", isa_timing_key((isa_timing_class_t)t), m->timing.clocks[t]);
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
    uint64_t per_cell = (uint64_t)m->mem_bytes + (uint64_t)m->channels * m->queue_depth * 5u + 64u * 1024u;
    return per_cell * m->width * m->height;
}

/* Bytes of memory the host can give without swapping: MemAvailable, else physical pages; 0 when unknown. */
static uint64_t host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f != NULL) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f) != NULL)
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                fclose(f);
                return (uint64_t)kb * 1024u;
            }
        fclose(f);
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
