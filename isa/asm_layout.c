/* Sections and the second pass: placing .text, .data and .bss, resolving the fields left open in the
 * first pass, and filling the image (words, symbols, line table, file table). */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

const char *asm_section_name(asm_section_id_t s)
{
    static const char *const names[SEC_COUNT] = {"absolute", ".text", ".data", ".bss"};
    return s < SEC_COUNT ? names[s] : "?";
}

uint32_t asm_section_size(const asm_t *as, asm_section_id_t s)
{
    return (uint32_t)as->sec[s].size;
}

bool asm_emit(asm_t *as, const void *p, size_t n, asm_loc_t loc)
{
    asm_section_t *sec = &as->sec[as->cur];
    if (n == 0)
        return true;
    if (n > ASM_MAX_SECTION_BYTES - sec->size) {
        asm_error(as, loc, "%s would grow past %u bytes", asm_section_name(as->cur), (unsigned)ASM_MAX_SECTION_BYTES);
        return false;
    }
    if (as->cur == SEC_BSS) {
        sec->size += n;
        return true;
    }
    asm_reserve(as, (void **)&sec->bytes, &sec->cap, sec->size + n, 1);
    if (p != NULL)
        memcpy(sec->bytes + sec->size, p, n);
    else
        memset(sec->bytes + sec->size, 0, n);
    sec->size += n;
    if (as->cur == SEC_TEXT)
        as->text_base_fixed = true;
    return true;
}

static unsigned fixup_width(asm_fixup_kind_t k)
{
    switch (k) {
    case FX_HALF: return 2;
    case FX_BYTE: return 1;
    case FX_DOUBLE: return 8;
    default: return 4;
    }
}

bool asm_emit_fixup(asm_t *as, asm_fixup_kind_t kind, const asm_expr_t *e, asm_loc_t loc)
{
    uint32_t at = asm_section_size(as, as->cur);
    if (!asm_emit(as, NULL, fixup_width(kind), loc))
        return false;
    *ASM_PUSH(as, as->fixups, as->nfixups, as->fixups_cap) = (asm_fixup_t){kind, as->cur, at, e};
    return true;
}

static void put_le(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static bool fixup_value(asm_t *as, const asm_fixup_t *f, uint64_t *out)
{
    if (f->kind == FX_FLOAT) {
        uint32_t bits;
        if (!asm_eval_float32(as, f->expr, &bits))
            return false;
        *out = bits;
        return true;
    }
    if (f->kind == FX_DOUBLE)
        return asm_eval_float64(as, f->expr, out);
    int64_t v;
    if (!asm_eval_now(as, f->expr, &v))
        return false;
    int64_t lo = f->kind == FX_HALF ? INT16_MIN : f->kind == FX_BYTE ? INT8_MIN : INT32_MIN;
    int64_t hi = f->kind == FX_HALF ? UINT16_MAX : f->kind == FX_BYTE ? UINT8_MAX : (int64_t)UINT32_MAX;
    if (v < lo || v > hi) {
        const char *what = f->kind == FX_HALF ? ".half" : f->kind == FX_BYTE ? ".byte" : "a 32-bit field";
        asm_error(as, f->expr->loc, "value %lld out of range for %s (%lld to %lld)", (long long)v, what, (long long)lo,
                  (long long)hi);
        return false;
    }
    if (f->kind == FX_TARGET && (v & 3) != 0) /* legal to encode, so the disassembler's output must assemble */
        asm_warning(as, f->expr->loc, "branch target 0x%llx is not a multiple of 4", (unsigned long long)(uint32_t)v);
    *out = (uint64_t)v;
    return true;
}

static bool place_sections(asm_t *as)
{
    uint64_t text_end = (uint64_t)as->text_base + as->sec[SEC_TEXT].size;
    uint64_t data = (text_end + 15) & ~(uint64_t)15;
    uint64_t bss = (data + as->sec[SEC_DATA].size + 15) & ~(uint64_t)15;
    if (bss + as->sec[SEC_BSS].size > UINT32_MAX) {
        asm_error(as, (asm_loc_t){0, 0, 0, NULL}, "the sections do not fit below 4 GiB with .text at 0x%x",
                  as->text_base);
        return false;
    }
    as->base[SEC_ABS] = 0;
    as->base[SEC_TEXT] = as->text_base;
    as->base[SEC_DATA] = (uint32_t)data;
    as->base[SEC_BSS] = (uint32_t)bss;
    as->final_layout = true;
    return true;
}

static void resolve_fixups(asm_t *as)
{
    for (size_t i = 0; i < as->nfixups && !as->stop; i++) {
        const asm_fixup_t *f = &as->fixups[i];
        uint64_t v;
        if (fixup_value(as, f, &v) && as->sec[f->section].bytes != NULL)
            put_le(as->sec[f->section].bytes + f->offset, v, fixup_width(f->kind));
    }
}

static uint32_t find_entry(asm_t *as)
{
    if (as->entry != NULL) {
        int64_t v;
        if (!asm_eval_now(as, as->entry, &v))
            return as->text_base;
        if (!asm_fits32(v))
            asm_error(as, as->entry_loc, "entry point %lld does not fit in 32 bits", (long long)v);
        return (uint32_t)v;
    }
    static const char *const names[] = {"_start", "start"};
    for (size_t i = 0; i < 2; i++) {
        asm_sym_t *s = asm_sym_lookup(as, names[i], strlen(names[i]));
        if (s != NULL && s->kind != SYM_UNDEF) {
            asm_value_t v;
            asm_expr_t ref = {.kind = EX_SYM, .sym = s, .loc = s->def};
            if (asm_eval(as, &ref, true, &v))
                return (uint32_t)v.v;
        }
    }
    return as->text_base;
}

static void *calloc_or_die(asm_t *as, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL)
        asm_out_of_memory(as);
    return p;
}

static void fill_symbols(asm_t *as, isa_image_t *img)
{
    img->syms = calloc_or_die(as, as->syms.n, sizeof *img->syms);
    for (size_t i = 0; i < as->syms.n; i++) {
        asm_sym_t *s = as->syms.all[i];
        if (s->kind == SYM_UNDEF || !s->exported)
            continue;
        asm_value_t v;
        asm_expr_t ref = {.kind = EX_SYM, .sym = s, .loc = s->def};
        if (!asm_eval(as, &ref, true, &v))
            continue;
        isa_symbol_kind_t kind = ISA_SYM_ABS;
        if (s->kind == SYM_LABEL)
            kind = s->section == SEC_TEXT ? ISA_SYM_TEXT : ISA_SYM_DATA;
        img->syms[img->nsyms].name = asm_malloc_strdup(as, s->name);
        img->syms[img->nsyms].value = (uint32_t)v.v;
        img->syms[img->nsyms].kind = kind;
        img->nsyms++;
    }
}

static void fill_image(asm_t *as, isa_image_t *img)
{
    img->text_base = as->text_base;
    img->text_words = asm_section_size(as, SEC_TEXT) / 4;
    img->text = calloc_or_die(as, img->text_words, 4);
    for (uint32_t i = 0; i < img->text_words; i++) {
        const uint8_t *p = as->sec[SEC_TEXT].bytes + 4 * i;
        img->text[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    img->data_base = as->base[SEC_DATA];
    img->data_bytes = asm_section_size(as, SEC_DATA);
    img->data = calloc_or_die(as, img->data_bytes, 1);
    if (img->data_bytes)
        memcpy(img->data, as->sec[SEC_DATA].bytes, img->data_bytes);
    /* The loader zeroes bss_bytes directly after the data, so the gap up to the 16-byte boundary counts. */
    uint32_t bss = asm_section_size(as, SEC_BSS);
    img->bss_bytes = bss ? as->base[SEC_BSS] - (img->data_base + img->data_bytes) + bss : 0;
    img->entry = find_entry(as);
    fill_symbols(as, img);

    img->files = calloc_or_die(as, as->nfiles, sizeof *img->files);
    for (size_t i = 0; i < as->nfiles; i++) {
        img->files[i] = asm_malloc_strdup(as, as->files[i].name);
        img->nfiles++;
    }
    img->lines = calloc_or_die(as, as->nlines, sizeof *img->lines);
    for (size_t i = 0; i < as->nlines; i++) {
        asm_loc_t l = as->lines[i].loc;
        img->lines[i] = (isa_line_t){as->text_base + as->lines[i].offset, l.file, l.line, l.col};
    }
    img->nlines = as->nlines;
    isa_image_sort(img);
}

void asm_finish(asm_t *as)
{
    if (as->stop)
        return;
    if (asm_section_size(as, SEC_TEXT) % 4 != 0) {
        asm_loc_t l = {as->nfiles ? 0 : ASM_FILE_CMDLINE, 0, 0, NULL};
        asm_error(as, l, ".text is %u bytes, not a whole number of words (pad it with .align 4)",
                  asm_section_size(as, SEC_TEXT));
    }
    if (!place_sections(as))
        return;
    resolve_fixups(as);
    isa_image_t *img = &as->res->image;
    fill_image(as, img);
    if (as->res->nerrors != 0)
        isa_image_free(img);
}
