/* Directives that act on one statement: sections, data, symbols, alignment, entry point, include and
 * messages. (.macro, .rept and the conditionals work on whole lines, in asm_source.c and asm_macro.c.) */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

enum { MAX_TEXT_ALIGN = 4096, MAX_DATA_ALIGN = 16 };

typedef void (*directive_fn)(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at);

/* The next comma-separated item as a cursor of its own; false at the end of the statement. */
static bool next_item(asm_cursor_t *c, asm_cursor_t *item)
{
    if (asm_at_end(c))
        return false;
    *item = *c;
    asm_skip_to_comma(c);
    item->end = c->i;
    if (!asm_at_end(c))
        c->i++;
    if (item->i == item->end) {
        asm_error(c->as, asm_cur_loc(item), "missing value before %s", asm_tok_describe(c->as, asm_cur(item)));
        return next_item(c, item);
    }
    return true;
}

static bool need_args(asm_cursor_t *c, const char *name, asm_loc_t at)
{
    if (!asm_at_end(c))
        return true;
    asm_error(c->as, at, "%s needs an operand", name);
    return false;
}

static bool not_in_bss(asm_t *as, const char *name, asm_loc_t at)
{
    if (as->cur != SEC_BSS)
        return true;
    asm_error(as, at, "%s cannot be in .bss (it is zero-filled and not stored; use .space)", name);
    return false;
}

static void d_section(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    if (!asm_expect_end(c, name))
        return;
    as->cur = strcmp(name, ".text") == 0 ? SEC_TEXT : strcmp(name, ".data") == 0 ? SEC_DATA : SEC_BSS;
}

static void d_equ(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    const asm_tok_t *t = asm_cur(c);
    if (asm_at_end(c) || t->kind != TK_IDENT) {
        asm_error(as, asm_cur_loc(c), "%s needs a symbol name", name);
        return;
    }
    c->i++;
    if (!asm_accept_punct(c, ',')) {
        asm_error(as, asm_cur_loc(c), "expected ',' after the name in %s NAME, value", name);
        return;
    }
    const asm_expr_t *e = asm_parse_expr_all(c);
    if (e != NULL)
        asm_define_equ(as, t->text, t->len, e, strcmp(name, ".set") == 0, asm_tok_loc(c, t));
}

static void d_data(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    static const struct {
        const char *name;
        asm_fixup_kind_t kind;
    } kinds[] = {
        {".word", FX_WORD}, {".half", FX_HALF}, {".byte", FX_BYTE}, {".float", FX_FLOAT}, {".double", FX_DOUBLE}};
    asm_fixup_kind_t kind = FX_WORD;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(name, kinds[i].name) == 0)
            kind = kinds[i].kind;
    if (!not_in_bss(as, name, at) || !need_args(c, name, at))
        return;
    asm_cursor_t item;
    while (next_item(c, &item)) {
        as->dot_offset = asm_section_size(as, as->cur);
        bool is_float = kind == FX_FLOAT || kind == FX_DOUBLE;
        const asm_expr_t *e = is_float ? asm_parse_float(&item) : asm_parse_expr_all(&item);
        if (e != NULL && !asm_emit_fixup(as, kind, e, at))
            return;
    }
}

static void d_string(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    if (!not_in_bss(as, name, at) || !need_args(c, name, at))
        return;
    bool nul = strcmp(name, ".asciz") == 0;
    asm_cursor_t item;
    while (next_item(c, &item)) {
        const asm_tok_t *t = asm_cur(&item);
        if (t->kind != TK_STRING) {
            asm_error(as, asm_cur_loc(&item), "%s takes strings in double quotes, not %s", name,
                      asm_tok_describe(as, t));
            continue;
        }
        item.i++;
        if (!asm_expect_end(&item, "the string"))
            continue;
        if (!asm_emit(as, t->str, t->slen, at) || (nul && !asm_emit(as, "", 1, at)))
            return;
    }
}

static bool eval_now_in(asm_t *as, asm_cursor_t *item, int64_t lo, int64_t hi, const char *what, int64_t *v)
{
    const asm_expr_t *e = asm_parse_expr_all(item);
    if (e == NULL || !asm_eval_now(as, e, v))
        return false;
    if (*v < lo || *v > hi) {
        asm_error(as, e->loc, "%s %lld out of range (%lld to %lld)", what, (long long)*v, (long long)lo, (long long)hi);
        return false;
    }
    return true;
}

static void d_space(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    asm_cursor_t item;
    int64_t n, fill = 0;
    if (!need_args(c, name, at) || !next_item(c, &item) ||
        !eval_now_in(as, &item, 0, ASM_MAX_SECTION_BYTES, ".space size", &n))
        return;
    if (next_item(c, &item) && !eval_now_in(as, &item, -128, 255, ".space fill byte", &fill))
        return;
    if (!asm_expect_end(c, ".space size, fill"))
        return;
    if (fill != 0 && as->cur == SEC_BSS) {
        asm_error(as, at, ".space in .bss cannot have a fill byte (.bss is zero-filled)");
        return;
    }
    if (!asm_emit(as, NULL, (size_t)n, at) || fill == 0 || n == 0)
        return;
    asm_section_t *s = &as->sec[as->cur];
    memset(s->bytes + s->size - (size_t)n, (int)(fill & 0xff), (size_t)n);
}

static void d_align(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    int64_t n;
    int64_t max = as->cur == SEC_TEXT ? MAX_TEXT_ALIGN : MAX_DATA_ALIGN;
    if (!need_args(c, name, at) || !eval_now_in(as, c, 1, max, ".align", &n))
        return;
    if ((n & (n - 1)) != 0) {
        asm_error(as, at, ".align %lld is not a power of two", (long long)n);
        return;
    }
    /* .data and .bss start on 16-byte boundaries, so aligning their offsets aligns the addresses. */
    uint64_t here = asm_section_size(as, as->cur) + (as->cur == SEC_TEXT ? as->text_base : 0);
    uint64_t pad = (uint64_t)(-(int64_t)here) & (uint64_t)(n - 1);
    asm_emit(as, NULL, pad, at);
}

static void d_global(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    asm_cursor_t item;
    if (!need_args(c, name, at))
        return;
    while (next_item(c, &item)) {
        if (asm_cur(&item)->kind != TK_IDENT) {
            asm_error(as, asm_cur_loc(&item), "%s takes symbol names, not %s", name,
                      asm_tok_describe(as, asm_cur(&item)));
            continue;
        }
        item.i++;
        asm_expect_end(&item, "the symbol name");
    }
}

static void d_entry(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    if (as->entry != NULL) {
        asm_error(as, at, ".entry given twice (first at line %u)", as->entry_loc.line);
        return;
    }
    if (!need_args(c, name, at))
        return;
    const asm_expr_t *e = asm_parse_expr_all(c);
    if (e != NULL) {
        as->entry = e;
        as->entry_loc = at;
    }
}

static void d_textbase(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    int64_t v;
    if (!need_args(c, name, at) || !eval_now_in(as, c, 0, UINT32_MAX - 3, ".textbase", &v))
        return;
    if (as->text_base_fixed) {
        asm_error(as, at, ".textbase must come before anything is placed in .text");
        return;
    }
    if (v & 3) {
        asm_error(as, at, ".textbase 0x%llx is not a multiple of 4", (unsigned long long)v);
        return;
    }
    as->text_base = (uint32_t)v;
}

static void d_include(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    const asm_tok_t *t = asm_cur(c);
    if (asm_at_end(c) || t->kind != TK_STRING) {
        asm_error(as, at, ".include needs a file name in double quotes");
        return;
    }
    c->i++;
    if (!asm_expect_end(c, "the file name"))
        return;
    if (memchr(t->str, '\0', t->slen) != NULL || t->slen == 0) {
        asm_error(as, at, "bad file name in .include");
        return;
    }
    asm_push_file(as, t->str, t->slen, &at);
}

static void d_message(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    const asm_tok_t *t = asm_cur(c);
    const char *msg = name + 1;
    if (!asm_at_end(c)) {
        if (t->kind != TK_STRING) {
            asm_error(as, asm_cur_loc(c), "%s takes a message in double quotes", name);
            return;
        }
        msg = asm_strndup(as, t->str, strnlen(t->str, t->slen));
        c->i++;
        if (!asm_expect_end(c, "the message"))
            return;
    }
    if (name[1] == 'e')
        asm_error(as, at, "%s", msg);
    else
        asm_warning(as, at, "%s", msg);
}

static void d_misplaced(asm_t *as, asm_cursor_t *c, const char *name, asm_loc_t at)
{
    asm_error(as, at, "%s must be the first word of its line", name);
}

static const struct {
    const char *name;
    directive_fn fn;
} directives[] = {
    {".text", d_section},     {".data", d_section},      {".bss", d_section},     {".equ", d_equ},
    {".set", d_equ},          {".word", d_data},         {".half", d_data},       {".byte", d_data},
    {".float", d_data},       {".double", d_data},       {".space", d_space},     {".align", d_align},
    {".ascii", d_string},     {".asciz", d_string},      {".global", d_global},   {".globl", d_global},
    {".entry", d_entry},      {".textbase", d_textbase}, {".include", d_include}, {".error", d_message},
    {".warning", d_message},  {".macro", d_misplaced},   {".endm", d_misplaced},  {".rept", d_misplaced},
    {".endr", d_misplaced},   {".if", d_misplaced},      {".ifdef", d_misplaced}, {".ifndef", d_misplaced},
    {".elseif", d_misplaced}, {".else", d_misplaced},    {".endif", d_misplaced},
};
enum { NDIRECTIVES = sizeof directives / sizeof directives[0] };

static int find_directive(const char *name, size_t len)
{
    for (int i = 0; i < (int)NDIRECTIVES; i++)
        if (strlen(directives[i].name) == len && memcmp(directives[i].name, name, len) == 0)
            return i;
    return -1;
}

bool asm_is_directive(const char *name, size_t len)
{
    return find_directive(name, len) >= 0;
}

const char *asm_suggest_directive(const char *name, size_t len)
{
    const char *cands[NDIRECTIVES];
    for (size_t i = 0; i < NDIRECTIVES; i++)
        cands[i] = directives[i].name;
    return asm_closest(name, len, cands, NDIRECTIVES);
}

bool asm_directive(asm_t *as, asm_cursor_t *c)
{
    const asm_tok_t *t = asm_cur(c);
    int k = find_directive(t->text, t->len);
    if (k < 0)
        return false;
    asm_loc_t at = asm_cur_loc(c);
    c->i++;
    directives[k].fn(as, c, directives[k].name, at);
    return true;
}
