/* Image serialisation and lookups. The parser treats its input as hostile (it is fuzzed). */
#include "image.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "file.h"

static const char image_magic[8] = {'I', 'W', 'A', 'R', 'P', 'I', 'M', 'G'};
enum { HEADER_WORDS = 12, MAX_SECTION_BYTES = 64u << 20 };

static int put_u32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int isa_image_write(const isa_image_t *img, FILE *out)
{
    /* String table: symbol names then file names, each NUL-terminated. */
    uint32_t strtab = 0;
    for (size_t i = 0; i < img->nsyms; i++)
        strtab += (uint32_t)strlen(img->syms[i].name) + 1;
    for (size_t i = 0; i < img->nfiles; i++)
        strtab += (uint32_t)strlen(img->files[i]) + 1;

    int rc = fwrite(image_magic, 1, 8, out) == 8 ? 0 : -1;
    uint32_t header[HEADER_WORDS - 1] = {
        ISA_IMAGE_VERSION,
        img->entry,
        img->text_base,
        img->text_words,
        img->data_base,
        img->data_bytes,
        img->bss_bytes,
        (uint32_t)img->nsyms,
        (uint32_t)img->nlines,
        (uint32_t)img->nfiles,
        strtab,
    };
    for (unsigned i = 0; i < HEADER_WORDS - 1; i++)
        rc |= put_u32(out, header[i]);
    for (uint32_t i = 0; i < img->text_words; i++)
        rc |= put_u32(out, img->text[i]);
    if (img->data_bytes && fwrite(img->data, 1, img->data_bytes, out) != img->data_bytes)
        rc = -1;
    for (uint32_t pad = img->data_bytes; pad % 4; pad++)
        rc |= fputc(0, out) == EOF ? -1 : 0;
    uint32_t name_off = 0;
    for (size_t i = 0; i < img->nsyms; i++) {
        rc |= put_u32(out, name_off) | put_u32(out, img->syms[i].value) | put_u32(out, (uint32_t)img->syms[i].kind);
        name_off += (uint32_t)strlen(img->syms[i].name) + 1;
    }
    for (size_t i = 0; i < img->nlines; i++) {
        const isa_line_t *l = &img->lines[i];
        rc |= put_u32(out, l->addr) | put_u32(out, l->file) | put_u32(out, l->line) | put_u32(out, l->col);
    }
    for (size_t i = 0; i < img->nfiles; i++) {
        rc |= put_u32(out, name_off);
        name_off += (uint32_t)strlen(img->files[i]) + 1;
    }
    for (size_t i = 0; i < img->nsyms; i++)
        rc |= fwrite(img->syms[i].name, 1, strlen(img->syms[i].name) + 1, out) ? 0 : -1;
    for (size_t i = 0; i < img->nfiles; i++)
        rc |= fwrite(img->files[i], 1, strlen(img->files[i]) + 1, out) ? 0 : -1;
    return rc ? -1 : 0;
}

/* Copies the NUL-terminated string at off in the string table; NULL if it is not terminated in range. */
static char *str_at(const uint8_t *strtab, uint32_t size, uint32_t off)
{
    if (off >= size)
        return NULL;
    const uint8_t *end = memchr(strtab + off, 0, size - off);
    if (end == NULL)
        return NULL;
    size_t n = (size_t)(end - (strtab + off));
    char *s = malloc(n + 1);
    if (s != NULL)
        memcpy(s, strtab + off, n + 1);
    return s;
}

int isa_image_parse(const uint8_t *buf, size_t len, isa_image_t *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    if (len < 8 + 4 * (HEADER_WORDS - 1) || memcmp(buf, image_magic, 8) != 0)
        return err_set(err, errlen, "not an iWarp image (bad magic or too short)");
    uint32_t h[HEADER_WORDS - 1];
    for (unsigned i = 0; i < HEADER_WORDS - 1; i++)
        h[i] = get_u32(buf + 8 + 4 * i);
    if (h[0] != ISA_IMAGE_VERSION)
        return err_set(err, errlen, "image version %u, this emulator reads version %u", h[0], ISA_IMAGE_VERSION);
    img->entry = h[1];
    img->text_base = h[2];
    img->text_words = h[3];
    img->data_base = h[4];
    img->data_bytes = h[5];
    img->bss_bytes = h[6];
    uint32_t nsyms = h[7], nlines = h[8], nfiles = h[9], strtab_bytes = h[10];
    if (img->text_words > MAX_SECTION_BYTES / 4 || img->data_bytes > MAX_SECTION_BYTES ||
        img->bss_bytes > MAX_SECTION_BYTES || nsyms > MAX_SECTION_BYTES / 12 || nlines > MAX_SECTION_BYTES / 16 ||
        nfiles > MAX_SECTION_BYTES / 4 || strtab_bytes > MAX_SECTION_BYTES)
        return err_set(err, errlen, "image section sizes out of range");

    uint64_t need = 8 + 4ull * (HEADER_WORDS - 1) + 4ull * img->text_words + ((img->data_bytes + 3ull) & ~3ull) +
                    12ull * nsyms + 16ull * nlines + 4ull * nfiles + strtab_bytes;
    if (need != len)
        return err_set(err, errlen, "image is %zu bytes but its header describes %llu", len, (unsigned long long)need);

    const uint8_t *p = buf + 8 + 4 * (HEADER_WORDS - 1);
    const uint8_t *syms_at = p + 4ull * img->text_words + ((img->data_bytes + 3ull) & ~3ull);
    const uint8_t *lines_at = syms_at + 12ull * nsyms;
    const uint8_t *files_at = lines_at + 16ull * nlines;
    const uint8_t *strtab = files_at + 4ull * nfiles;

    img->text = calloc(img->text_words ? img->text_words : 1, sizeof *img->text);
    img->data = calloc(img->data_bytes ? img->data_bytes : 1, 1);
    img->syms = calloc(nsyms ? nsyms : 1, sizeof *img->syms);
    img->lines = calloc(nlines ? nlines : 1, sizeof *img->lines);
    img->files = calloc(nfiles ? nfiles : 1, sizeof *img->files);
    if (!img->text || !img->data || !img->syms || !img->lines || !img->files) {
        isa_image_free(img);
        return err_set(err, errlen, "out of memory reading image");
    }
    for (uint32_t i = 0; i < img->text_words; i++)
        img->text[i] = get_u32(p + 4 * i);
    memcpy(img->data, p + 4ull * img->text_words, img->data_bytes);

    for (uint32_t i = 0; i < nsyms; i++) {
        const uint8_t *s = syms_at + 12ull * i;
        uint32_t kind = get_u32(s + 8);
        img->syms[i].name = str_at(strtab, strtab_bytes, get_u32(s));
        img->syms[i].value = get_u32(s + 4);
        img->syms[i].kind = (isa_symbol_kind_t)kind;
        img->nsyms = i + 1;
        if (img->syms[i].name == NULL || kind > ISA_SYM_ABS) {
            isa_image_free(img);
            return err_set(err, errlen, "symbol %u has a bad name offset or kind", i);
        }
    }
    for (uint32_t i = 0; i < nfiles; i++) {
        img->files[i] = str_at(strtab, strtab_bytes, get_u32(files_at + 4ull * i));
        img->nfiles = i + 1;
        if (img->files[i] == NULL) {
            isa_image_free(img);
            return err_set(err, errlen, "file name %u has a bad offset", i);
        }
    }
    for (uint32_t i = 0; i < nlines; i++) {
        const uint8_t *l = lines_at + 16ull * i;
        isa_line_t *line = &img->lines[i];
        *line = (isa_line_t){get_u32(l), get_u32(l + 4), get_u32(l + 8), get_u32(l + 12)};
        if (line->file >= nfiles || (i > 0 && line->addr < img->lines[i - 1].addr)) {
            img->nlines = i;
            isa_image_free(img);
            return err_set(err, errlen, "line entry %u names a missing file or is out of order", i);
        }
    }
    img->nlines = nlines;
    return 0;
}

int isa_image_load_file(const char *path, isa_image_t *out, char *err, size_t errlen)
{
    uint8_t *buf;
    size_t len;
    if (file_read_max(path, FILE_MAX_IMAGE, &buf, &len, err, errlen) != 0)
        return -1;
    char inner[200];
    int rc = isa_image_parse(buf, len, out, inner, sizeof inner);
    free(buf);
    if (rc != 0)
        return err_set(err, errlen, "%s: %s", path, inner);
    return 0;
}

void isa_image_free(isa_image_t *img)
{
    if (img == NULL)
        return;
    free(img->text);
    free(img->data);
    for (size_t i = 0; i < img->nsyms; i++)
        free(img->syms[i].name);
    free(img->syms);
    free(img->lines);
    for (size_t i = 0; i < img->nfiles; i++)
        free(img->files[i]);
    free(img->files);
    memset(img, 0, sizeof *img);
}

static int cmp_sym(const void *a, const void *b)
{
    const isa_symbol_t *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_line(const void *a, const void *b)
{
    const isa_line_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void isa_image_sort(isa_image_t *img)
{
    if (img->nsyms > 1)
        qsort(img->syms, img->nsyms, sizeof *img->syms, cmp_sym);
    if (img->nlines > 1)
        qsort(img->lines, img->nlines, sizeof *img->lines, cmp_line);
}

const isa_symbol_t *isa_image_symbol(const isa_image_t *img, const char *name)
{
    for (size_t i = 0; i < img->nsyms; i++)
        if (strcmp(img->syms[i].name, name) == 0)
            return &img->syms[i];
    return NULL;
}

const isa_symbol_t *isa_image_symbol_before(const isa_image_t *img, uint32_t addr)
{
    bool in_text = addr >= img->text_base && addr - img->text_base < 4ull * img->text_words;
    isa_symbol_kind_t want = in_text ? ISA_SYM_TEXT : ISA_SYM_DATA;
    const isa_symbol_t *best = NULL;
    for (size_t i = 0; i < img->nsyms; i++) {
        const isa_symbol_t *s = &img->syms[i];
        if (s->kind == want && s->value <= addr && (best == NULL || s->value >= best->value))
            best = s;
    }
    return best;
}

const isa_line_t *isa_image_line(const isa_image_t *img, uint32_t addr)
{
    size_t lo = 0, hi = img->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (img->lines[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? NULL : &img->lines[lo - 1];
}
