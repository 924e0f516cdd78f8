/* Whole-image listings: labels at their addresses, bundles, data as words and bytes, .bss as .space, the
 * entry point; everything laid out so that the assembler rebuilds the same image. */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "dis.h"

typedef struct label {
    uint32_t at; /* word index in .text, byte offset in .data or .bss */
    const char *name;
} label_t;

typedef struct listing {
    const isa_image_t *img;
    FILE *out;
    unsigned flags;
    label_t *text, *data, *bss;
    size_t ntext, ndata, nbss;
    uint32_t text_end, data_end, bss_base, bss_size;
} listing_t;

static int cmp_label(const void *a, const void *b)
{
    const label_t *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Stable merge sort of symbol indices by name, so equal names keep their order (the first one wins). */
static void merge_sort(const isa_image_t *img, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(img, idx, tmp, h);
    merge_sort(img, idx + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = strcmp(img->syms[idx[j]].name, img->syms[idx[i]].name) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static bool sort_by_name(const isa_image_t *img, size_t *idx, size_t n)
{
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (tmp == NULL)
        return false;
    merge_sort(img, idx, tmp, n);
    free(tmp);
    return true;
}

static uint32_t align16(uint64_t v)
{
    return (uint32_t)((v + 15) & ~(uint64_t)15);
}

/* Marks the symbols a listing can define: printable names, the first symbol of each name (sorting
 * the indices by name keeps this fast for images with many symbols). */
static bool *usable_symbols(const isa_image_t *img, unsigned flags)
{
    size_t n = img->nsyms;
    bool *ok = calloc(n ? n : 1, sizeof *ok);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (ok == NULL || idx == NULL) {
        free(ok);
        free(idx);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    if (!(flags & DIS_NO_SYMBOLS)) {
        if (!sort_by_name(img, idx, n)) {
            free(ok);
            free(idx);
            return NULL;
        }
        for (size_t k = 0; k < n; k++)
            ok[idx[k]] = (k == 0 || strcmp(img->syms[idx[k - 1]].name, img->syms[idx[k]].name) != 0) &&
                         dis_symbol_name_ok(img->syms[idx[k]].name);
    }
    free(idx);
    return ok;
}

/* Sorts each symbol into a section it can be a label of, or writes it as NAME = value. */
static void place_symbols(listing_t *l, const bool *ok)
{
    const isa_image_t *img = l->img;
    for (size_t i = 0; i < img->nsyms; i++) {
        const isa_symbol_t *s = &img->syms[i];
        if (!ok[i])
            continue;
        uint64_t v = s->value;
        label_t lab = {0, s->name};
        if (s->kind == ISA_SYM_TEXT && v >= img->text_base && v <= l->text_end && (v - img->text_base) % 4 == 0) {
            lab.at = (uint32_t)(v - img->text_base) / 4;
            l->text[l->ntext++] = lab;
        } else if (s->kind == ISA_SYM_DATA && v >= img->data_base && v <= l->data_end) {
            lab.at = (uint32_t)(v - img->data_base);
            l->data[l->ndata++] = lab;
        } else if (s->kind == ISA_SYM_DATA && l->bss_size && v >= l->bss_base &&
                   v <= (uint64_t)l->bss_base + l->bss_size) {
            lab.at = (uint32_t)(v - l->bss_base);
            l->bss[l->nbss++] = lab;
        } else {
            fprintf(l->out, "%s = 0x%x\n", s->name, s->value);
        }
    }
    qsort(l->text, l->ntext, sizeof *l->text, cmp_label);
    qsort(l->data, l->ndata, sizeof *l->data, cmp_label);
    qsort(l->bss, l->nbss, sizeof *l->bss, cmp_label);
}

/* Prints the labels at position at (advancing *k); returns the position of the next label, or limit. */
static uint32_t labels_at(listing_t *l, const label_t *labs, size_t n, size_t *k, uint32_t at, uint32_t limit)
{
    while (*k < n && labs[*k].at <= at) {
        if (labs[*k].at == at)
            fprintf(l->out, "%s:\n", labs[*k].name);
        (*k)++;
    }
    return *k < n && labs[*k].at < limit ? labs[*k].at : limit;
}

static void raw_comment(listing_t *l, int width, uint32_t addr, const uint32_t *w, size_t n)
{
    if (!(l->flags & DIS_RAW))
        return;
    fprintf(l->out, "%*s# %08x:", width < 40 ? 40 - width : 1, "", addr);
    for (size_t i = 0; i < n; i++)
        fprintf(l->out, " %08x", w[i]);
}

static void line_comment(listing_t *l, uint32_t addr)
{
    const isa_image_t *img = l->img;
    if (!(l->flags & DIS_LINES))
        return;
    for (size_t i = 0; i < img->nlines; i++)
        if (img->lines[i].addr == addr && img->lines[i].file < img->nfiles) {
            fprintf(l->out, "    # %s:%u\n", img->files[img->lines[i].file], img->lines[i].line);
            return;
        }
}

static void list_text(listing_t *l)
{
    const isa_image_t *img = l->img;
    fprintf(l->out, ".text\n");
    size_t k = 0;
    for (uint32_t i = 0; i < img->text_words;) {
        uint32_t next = labels_at(l, l->text, l->ntext, &k, i, img->text_words);
        uint32_t addr = img->text_base + 4 * i;
        isa_bundle_t b;
        size_t used = 0;
        char text[512];
        int n = -1;
        /* A bundle may not swallow a labelled word: the label could not be written back inside it. */
        if (isa_decode_bundle(img->text + i, img->text_words - i, &b, &used) == ISA_OK && i + used <= next)
            n = dis_bundle_text(&b, (l->flags & DIS_NO_SYMBOLS) ? NULL : img, text, sizeof text);
        if (n < 0 || (size_t)n >= sizeof text) {
            used = 1;
            n = snprintf(text, sizeof text, ".word 0x%08x", img->text[i]);
        } else {
            line_comment(l, addr);
        }
        fprintf(l->out, "    %s", text);
        raw_comment(l, n, addr, img->text + i, used);
        fputc('\n', l->out);
        i += (uint32_t)used;
    }
    labels_at(l, l->text, l->ntext, &k, img->text_words, img->text_words);
}

static void list_data(listing_t *l)
{
    const isa_image_t *img = l->img;
    const uint8_t *d = img->data;
    fprintf(l->out, ".data\n");
    size_t k = 0;
    for (uint32_t off = 0; off < img->data_bytes;) {
        uint32_t limit = labels_at(l, l->data, l->ndata, &k, off, img->data_bytes);
        bool words = off % 4 == 0 && limit - off >= 4;
        fprintf(l->out, "    %s ", words ? ".word" : ".byte");
        for (int n = 0; n < (words ? 4 : 8) && off < limit; n++) {
            if (words && limit - off < 4)
                break;
            if (!words && off % 4 == 0 && limit - off >= 4 && n > 0)
                break;
            if (words)
                fprintf(l->out, "%s0x%08x", n ? ", " : "",
                        (uint32_t)d[off] | (uint32_t)d[off + 1] << 8 | (uint32_t)d[off + 2] << 16 |
                            (uint32_t)d[off + 3] << 24);
            else
                fprintf(l->out, "%s0x%02x", n ? ", " : "", d[off]);
            off += words ? 4 : 1;
        }
        fputc('\n', l->out);
    }
    labels_at(l, l->data, l->ndata, &k, img->data_bytes, img->data_bytes);
}

static void list_bss(listing_t *l)
{
    if (l->bss_size == 0)
        return;
    fprintf(l->out, ".bss\n");
    size_t k = 0;
    for (uint32_t off = 0; off < l->bss_size;) {
        uint32_t limit = labels_at(l, l->bss, l->nbss, &k, off, l->bss_size);
        fprintf(l->out, "    .space %u\n", limit - off);
        off = limit;
    }
    labels_at(l, l->bss, l->nbss, &k, l->bss_size, l->bss_size);
}

static void header(listing_t *l)
{
    const isa_image_t *img = l->img;
    fprintf(l->out, "# iWarp image: entry 0x%x, .text 0x%x (%u words), .data 0x%x (%u bytes), .bss %u bytes\n",
            img->entry, img->text_base, img->text_words, img->data_base, img->data_bytes, img->bss_bytes);
    if (img->text_base % 4 != 0)
        fprintf(l->out, "# warning: .text at 0x%x is not word aligned; the assembler cannot place it there\n",
                img->text_base);
    if (img->data_bytes && img->data_base != align16(l->text_end))
        fprintf(l->out, "# warning: .data at 0x%x, but reassembled it will be at 0x%x (after .text)\n", img->data_base,
                align16(l->text_end));
    if (img->bss_bytes && img->bss_bytes <= l->bss_base - l->data_end)
        fprintf(l->out, "# warning: %u .bss bytes do not reach the 16-byte boundary; reassembled there will be none\n",
                img->bss_bytes);
    if (img->text_base != ASM_DEFAULT_TEXT_BASE)
        fprintf(l->out, ".textbase 0x%x\n", img->text_base);
}

int dis_image(const isa_image_t *img, FILE *out, unsigned flags)
{
    listing_t l = {.img = img, .out = out, .flags = flags};
    l.text_end = img->text_base + 4 * img->text_words;
    l.data_end = img->data_base + img->data_bytes;
    l.bss_base = align16(l.data_end);
    l.bss_size = img->bss_bytes > l.bss_base - l.data_end ? img->bss_bytes - (l.bss_base - l.data_end) : 0;
    size_t n = img->nsyms ? img->nsyms : 1;
    l.text = malloc(n * sizeof *l.text);
    l.data = malloc(n * sizeof *l.data);
    l.bss = malloc(n * sizeof *l.bss);
    bool *ok = usable_symbols(img, flags);
    if (l.text == NULL || l.data == NULL || l.bss == NULL || ok == NULL) {
        free(l.text);
        free(l.data);
        free(l.bss);
        free(ok);
        return -1;
    }
    header(&l);
    place_symbols(&l, ok);
    free(ok);
    const char *entry = NULL;
    for (size_t i = 0; i < l.ntext && entry == NULL; i++)
        if (img->text_base + 4 * l.text[i].at == img->entry)
            entry = l.text[i].name;
    if (entry != NULL)
        fprintf(out, ".entry %s\n", entry);
    else
        fprintf(out, ".entry 0x%x\n", img->entry);
    list_text(&l);
    if (img->data_bytes || l.ndata)
        list_data(&l);
    list_bss(&l);
    free(l.text);
    free(l.data);
    free(l.bss);
    return ferror(out) ? -1 : 0;
}
