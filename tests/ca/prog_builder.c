/* The test program builder (see prog_builder.h). */
#include "prog_builder.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct pb_label {
    char *name;
    uint32_t addr;
    bool data;
} pb_label_t;

typedef struct pb_fixup {
    size_t word; /* index of the extension word in the text */
    char *label;
} pb_fixup_t;

struct pb {
    uint32_t text_base, data_base;
    bool data_base_set;
    const char *entry_label;
    uint32_t entry_addr;
    bool entry_set;

    uint32_t *text;
    size_t ntext, text_cap;
    uint8_t *data;
    size_t ndata, data_cap;
    uint32_t bss;

    pb_label_t *labels;
    size_t nlabels, labels_cap;
    pb_fixup_t *fixups;
    size_t nfixups, fixups_cap;
    isa_line_t *lines;
    size_t nlines, lines_cap;
    char **files;
    size_t nfiles;
};

/* Grows *arr (of elem-size items, *cap of them) to hold at least need. */
static void *grow(void *arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return arr;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(arr, ncap * elem);
    if (n == NULL)
        abort();
    *cap = ncap;
    return n;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d == NULL)
        abort();
    memcpy(d, s, n);
    return d;
}

pb_t *pb_new(void)
{
    pb_t *p = calloc(1, sizeof *p);
    if (p == NULL)
        abort();
    p->text_base = PB_TEXT_BASE;
    p->data_base = PB_DATA_BASE;
    return p;
}

void pb_free(pb_t *p)
{
    if (p == NULL)
        return;
    free(p->text);
    free(p->data);
    for (size_t i = 0; i < p->nlabels; i++)
        free(p->labels[i].name);
    free(p->labels);
    for (size_t i = 0; i < p->nfixups; i++)
        free(p->fixups[i].label);
    free(p->fixups);
    free(p->lines);
    for (size_t i = 0; i < p->nfiles; i++)
        free(p->files[i]);
    free(p->files);
    free(p);
}

void pb_set_text_base(pb_t *p, uint32_t base)
{
    p->text_base = base;
}

void pb_set_data_base(pb_t *p, uint32_t base)
{
    p->data_base = base;
    p->data_base_set = true;
}

void pb_set_entry(pb_t *p, const char *label, uint32_t addr)
{
    p->entry_label = label;
    p->entry_addr = addr;
    p->entry_set = true;
}

uint32_t pb_here(const pb_t *p)
{
    return p->text_base + 4u * (uint32_t)p->ntext;
}

static void add_label(pb_t *p, const char *name, uint32_t addr, bool data)
{
    p->labels = grow(p->labels, &p->labels_cap, p->nlabels + 1, sizeof *p->labels);
    p->labels[p->nlabels++] = (pb_label_t){dup_str(name), addr, data};
}

void pb_label(pb_t *p, const char *name)
{
    add_label(p, name, pb_here(p), false);
}

static void put_word(pb_t *p, uint32_t w)
{
    p->text = grow(p->text, &p->text_cap, p->ntext + 1, sizeof *p->text);
    p->text[p->ntext++] = w;
}

void pb_word(pb_t *p, uint32_t word)
{
    put_word(p, word);
}

uint32_t pb_emit(pb_t *p, const pb_op_t *ops, unsigned n)
{
    uint32_t addr = pb_here(p);
    for (unsigned i = 0; i < n; i++) {
        uint32_t w[2];
        unsigned k = isa_encode_op(&ops[i].op, i + 1 < n, w);
        put_word(p, w[0]);
        if (k == 2) {
            if (ops[i].target != NULL) {
                p->fixups = grow(p->fixups, &p->fixups_cap, p->nfixups + 1, sizeof *p->fixups);
                p->fixups[p->nfixups++] = (pb_fixup_t){p->ntext, dup_str(ops[i].target)};
            }
            put_word(p, w[1]);
        }
    }
    return addr;
}

void pb_line(pb_t *p, const char *file, unsigned line, unsigned col)
{
    size_t f = 0;
    while (f < p->nfiles && strcmp(p->files[f], file) != 0)
        f++;
    if (f == p->nfiles) {
        size_t cap = p->nfiles;
        p->files = grow(p->files, &cap, p->nfiles + 1, sizeof *p->files);
        p->files[p->nfiles++] = dup_str(file);
    }
    p->lines = grow(p->lines, &p->lines_cap, p->nlines + 1, sizeof *p->lines);
    p->lines[p->nlines++] = (isa_line_t){pb_here(p), (uint32_t)f, line, col};
}

uint32_t pb_data_here(const pb_t *p)
{
    return p->data_base + (uint32_t)p->ndata;
}

void pb_data_label(pb_t *p, const char *name)
{
    add_label(p, name, pb_data_here(p), true);
}

void pb_data_bytes(pb_t *p, const void *bytes, size_t n)
{
    p->data = grow(p->data, &p->data_cap, p->ndata + n, 1);
    memcpy(p->data + p->ndata, bytes, n);
    p->ndata += n;
}

void pb_data_align(pb_t *p, unsigned align)
{
    static const uint8_t zero = 0;
    while (pb_data_here(p) % align != 0)
        pb_data_bytes(p, &zero, 1);
}

void pb_data_word(pb_t *p, uint32_t word)
{
    uint8_t le[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
    pb_data_bytes(p, le, sizeof le);
}

void pb_bss(pb_t *p, uint32_t bytes)
{
    p->bss += bytes;
}

uint32_t pb_addr(const pb_t *p, const char *label)
{
    for (size_t i = 0; i < p->nlabels; i++)
        if (strcmp(p->labels[i].name, label) == 0)
            return p->labels[i].addr;
    return UINT32_MAX;
}

static int fail(char *err, size_t errlen, const char *what, const char *label)
{
    snprintf(err, errlen, "%s '%s' is not defined", what, label);
    return -1;
}

int pb_finish(pb_t *p, isa_image_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->nfixups; i++) {
        uint32_t addr = pb_addr(p, p->fixups[i].label);
        if (addr == UINT32_MAX)
            return fail(err, errlen, "label", p->fixups[i].label);
        p->text[p->fixups[i].word] += addr;
    }
    uint32_t entry = p->text_base;
    if (p->entry_set) {
        entry = p->entry_addr;
        if (p->entry_label != NULL && (entry = pb_addr(p, p->entry_label)) == UINT32_MAX)
            return fail(err, errlen, "entry label", p->entry_label);
    }
    /* Without data the data section sits right after the text, so small memories still fit the image. */
    uint32_t data_base = p->data_base;
    if (!p->data_base_set && p->ndata == 0 && p->bss == 0)
        data_base = (pb_here(p) + 7u) & ~7u;

    out->entry = entry;
    out->text_base = p->text_base;
    out->text_words = (uint32_t)p->ntext;
    out->text = p->text;
    p->text = NULL; /* ntext stays: pb_here still answers */
    p->text_cap = 0;
    out->data_base = data_base;
    out->data_bytes = (uint32_t)p->ndata;
    out->data = p->data;
    p->data = NULL;
    p->data_cap = 0;
    out->bss_bytes = p->bss;

    out->syms = calloc(p->nlabels ? p->nlabels : 1, sizeof *out->syms);
    if (out->syms == NULL)
        abort();
    for (size_t i = 0; i < p->nlabels; i++) {
        out->syms[i] = (isa_symbol_t){dup_str(p->labels[i].name), p->labels[i].addr,
                                      p->labels[i].data ? ISA_SYM_DATA : ISA_SYM_TEXT};
    }
    out->nsyms = p->nlabels;
    out->lines = p->lines;
    out->nlines = p->nlines;
    p->lines = NULL;
    p->nlines = 0;
    out->files = p->files;
    out->nfiles = p->nfiles;
    p->files = NULL;
    p->nfiles = 0;
    isa_image_sort(out);
    return 0;
}

void pb_to_bundle(const pb_op_t *ops, unsigned n, isa_bundle_t *out)
{
    memset(out, 0, sizeof *out);
    out->count = (uint8_t)n;
    for (unsigned i = 0; i < n && i < ISA_BUNDLE_MAX_OPS; i++)
        out->ops[i] = ops[i].op;
}
