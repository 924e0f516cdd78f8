/* A line's statements: labels, the braces and semicolons of LIW bundles, NAME = value, directives, macro
 * calls and operations; and the checks and encoding of each finished bundle. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

static const char *unit_rule(isa_unit_t unit)
{
    switch (unit) {
    case ISA_UNIT_ALU: return "more than two integer ALU operations in one bundle (there are two ALUs)";
    case ISA_UNIT_FPA: return "two floating-point adder operations in one bundle (one adder)";
    case ISA_UNIT_FPM:
        return "two floating-point multiplier operations in one bundle (one multiplier, which also does integer "
               "multiply and divide)";
    case ISA_UNIT_MEM: return "more than two memory operations in one bundle (at most two)";
    case ISA_UNIT_CTRL: return "two control-flow operations in one bundle (one branch unit)";
    case ISA_UNIT_CR: return "two control-register operations in one bundle (one control-register port)";
    default: return "too many operations for one functional unit in a bundle";
    }
}

/* The register that made isa_bundle_check fail: the first one read (gates only) or written twice. */
static int first_repeat(const isa_bundle_t *b, unsigned bad, bool writes, bool gates_only)
{
    uint8_t seen[ISA_NUM_REGS] = {0};
    for (unsigned j = 0; j <= bad && j < b->count; j++) {
        uint8_t r[4];
        unsigned n = writes ? isa_op_writes(&b->ops[j], r) : isa_op_reads(&b->ops[j], r);
        for (unsigned k = 0; k < n; k++) {
            if (r[k] == ISA_REG_ZERO || (gates_only && !isa_reg_is_gate(r[k])))
                continue;
            if (seen[r[k]]++)
                return r[k];
        }
    }
    return 0;
}

static void bundle_error(asm_t *as, const isa_bundle_t *b, isa_error_t err, unsigned bad, asm_loc_t loc)
{
    char buf[8];
    const isa_op_info_t *info = isa_op_info(b->ops[bad].opcode);
    switch (err) {
    case ISA_ERR_BUNDLE_UNIT: asm_error(as, loc, "%s", unit_rule(info->unit)); return;
    case ISA_ERR_BUNDLE_SYS: asm_error(as, loc, "%s must be alone in its bundle", info->mnemonic); return;
    case ISA_ERR_BUNDLE_WRITE: {
        unsigned r = (unsigned)first_repeat(b, bad, true, false);
        asm_error(as, loc, "%s is written by two operations of one bundle (they would write it in the same clock)",
                  isa_reg_name(r, buf));
        return;
    }
    case ISA_ERR_BUNDLE_GATE: {
        int r = first_repeat(b, bad, false, true);
        if (r == 0)
            r = first_repeat(b, bad, true, true);
        if (isa_reg_is_gate_out((unsigned)r))
            asm_error(as, loc, "output gate %s is written twice in one bundle (each write sends a word)",
                      isa_reg_name((unsigned)r, buf));
        else
            asm_error(as, loc, "input gate %s is read twice in one bundle (each read takes another word)",
                      isa_reg_name((unsigned)r, buf));
        return;
    }
    default: asm_error(as, loc, "%s", isa_error_string(err)); return;
    }
}

void asm_emit_bundle(asm_t *as, asm_pending_op_t *ops, unsigned count, asm_loc_t loc)
{
    if (as->cur != SEC_TEXT) {
        asm_error(as, loc, "operations belong in .text, not %s", asm_section_name(as->cur));
        return;
    }
    if (asm_section_size(as, SEC_TEXT) % 4 != 0) {
        asm_error(as, loc, "operation at .text offset %u, which is not a multiple of 4 (add .align 4)",
                  asm_section_size(as, SEC_TEXT));
        return;
    }
    isa_bundle_t b = {.count = (uint8_t)count};
    for (unsigned i = 0; i < count; i++)
        b.ops[i] = ops[i].op;
    unsigned bad = 0;
    isa_error_t err = isa_bundle_check(&b, &bad);
    if (err != ISA_OK) {
        bundle_error(as, &b, err, bad, ops[bad < count ? bad : 0].loc);
        return;
    }
    asm_line_entry_t *le = ASM_PUSH(as, as->lines, as->nlines, as->lines_cap);
    le->offset = asm_section_size(as, SEC_TEXT);
    le->loc = asm_loc_outer(loc);
    for (unsigned i = 0; i < count; i++) {
        uint32_t w[2];
        unsigned n = isa_encode_op(&ops[i].op, i + 1 < count, w);
        uint8_t bytes[4] = {(uint8_t)w[0], (uint8_t)(w[0] >> 8), (uint8_t)(w[0] >> 16), (uint8_t)(w[0] >> 24)};
        if (!asm_emit(as, bytes, 4, loc))
            return;
        if (n == 2 && !asm_emit_fixup(as, ops[i].ext_kind, ops[i].ext, ops[i].loc))
            return;
    }
}

static bool is_numeric_label(const asm_tok_t *t)
{
    if (t->kind != TK_INT || t->len == 0)
        return false;
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return true;
}

static void define_label_tok(asm_t *as, const asm_cursor_t *c, const asm_tok_t *t)
{
    asm_loc_t loc = asm_tok_loc(c, t);
    if (as->bundle.open) {
        asm_error(as, loc, "a label cannot be inside a bundle (put it before the '{')");
        return;
    }
    if (t->kind == TK_IDENT) {
        asm_define_label(as, t->text, t->len, loc);
        return;
    }
    asm_sym_t *s = asm_local_label(as, t->ival, 0, true, loc);
    s->kind = SYM_LABEL;
    s->section = as->cur;
    s->value = asm_section_size(as, as->cur);
    s->def = loc;
}

static void close_bundle(asm_t *as, asm_loc_t at)
{
    asm_bundle_t *b = &as->bundle;
    if (!b->open) {
        asm_error(as, at, "'}' without '{'");
        return;
    }
    b->open = false;
    if (b->bad)
        return;
    if (b->count == 0) {
        asm_error(as, b->loc, "empty bundle: '{ }' needs at least one operation");
        return;
    }
    asm_emit_bundle(as, b->ops, b->count, b->loc);
}

/* A macro called in the middle of a line (inside a one-line bundle): the rest of the line is read after
 * the expansion. */
static void push_rest_of_line(asm_t *as, const asm_line_t *line, const asm_tok_t *from)
{
    asm_line_t *rest = asm_alloc(as, sizeof *rest);
    rest->text = line->text + from->off;
    rest->len = line->len - from->off;
    rest->loc = line->loc;
    rest->loc.col = from->col;
    asm_push_lines(as, rest, 1, 1, NULL);
}

static void operation(asm_t *as, asm_cursor_t *c)
{
    asm_bundle_t *b = &as->bundle;
    asm_pending_op_t op;
    bool ok = asm_parse_op(as, c, &op);
    if (!b->open) {
        if (ok)
            asm_emit_bundle(as, &op, 1, op.loc);
        return;
    }
    if (ok && b->count == ISA_BUNDLE_MAX_OPS) {
        asm_error(as, op.loc, "more than %d operations in one bundle", ISA_BUNDLE_MAX_OPS);
        ok = false;
    }
    if (!ok) {
        b->bad = true;
        return;
    }
    b->ops[b->count++] = op;
}

/* Returns false when the rest of the line was handed over (macro call). */
static bool statement(asm_t *as, asm_cursor_t *c)
{
    const asm_tok_t *t = asm_cur(c);
    asm_loc_t loc = asm_cur_loc(c);
    as->dot_section = as->bundle.open ? SEC_TEXT : as->cur;
    if (!as->bundle.open)
        as->dot_offset = asm_section_size(as, as->cur);
    if (t->kind != TK_IDENT) {
        asm_error(as, loc, "expected a label, directive or operation, found %s", asm_tok_describe(as, t));
        return true;
    }
    const asm_macro_t *m = asm_macro_lookup(as, t->text, t->len);
    if (m != NULL) {
        c->i++;
        if (c->t[c->end].kind != TK_EOL)
            push_rest_of_line(as, c->line, &c->t[c->end]);
        asm_call_macro(as, m, c, loc);
        return false;
    }
    if (asm_tok_punct(&c->t[c->i + 1], '=') && c->i + 1 < c->end) {
        if (as->bundle.open) {
            asm_error(as, loc, "'=' cannot be inside a bundle");
            return true;
        }
        c->i += 2;
        const asm_expr_t *e = asm_parse_expr_all(c);
        if (e != NULL)
            asm_define_equ(as, t->text, t->len, e, false, loc);
        return true;
    }
    if (t->text[0] == '.' && t->len > 1) {
        if (as->bundle.open && asm_is_directive(t->text, t->len)) {
            asm_error(as, loc, "directives cannot be inside a bundle");
            return true;
        }
        if (!asm_directive(as, c)) {
            const char *hint = asm_suggest_directive(t->text, t->len);
            asm_error(as, loc, "unknown directive '%.*s'%s", (int)t->len, t->text,
                      hint ? asm_printf(as, " (did you mean '%s'?)", hint) : "");
        }
        return true;
    }
    operation(as, c);
    return true;
}

void asm_process_line(asm_t *as, const asm_line_t *line)
{
    if (!asm_lex_line(as, line)) {
        if (as->bundle.open)
            as->bundle.bad = true;
        return;
    }
    const asm_tok_t *t = as->toks;
    asm_cursor_t c = {as, line, t, 0, as->ntoks - 1, 0};
    size_t i = 0;
    while (t[i].kind != TK_EOL && !as->stop) {
        asm_loc_t loc = asm_tok_loc(&c, &t[i]);
        if ((t[i].kind == TK_IDENT || is_numeric_label(&t[i])) && asm_tok_punct(&t[i + 1], ':')) {
            define_label_tok(as, &c, &t[i]);
            i += 2;
            continue;
        }
        if (asm_tok_punct(&t[i], '{')) {
            if (as->bundle.open) {
                asm_error(as, loc, "'{' inside a bundle (bundles do not nest)");
                as->bundle.bad = true;
            } else {
                as->bundle = (asm_bundle_t){.open = true, .loc = loc};
                as->dot_section = SEC_TEXT;
                as->dot_offset = asm_section_size(as, SEC_TEXT);
            }
            i++;
            continue;
        }
        if (asm_tok_punct(&t[i], '}')) {
            close_bundle(as, loc);
            i++;
            continue;
        }
        if (asm_tok_punct(&t[i], ';')) {
            if (!as->bundle.open)
                asm_error(as, loc, "';' separates operations only inside a bundle { ... }");
            i++;
            continue;
        }
        size_t j = i;
        while (t[j].kind != TK_EOL && !asm_tok_punct(&t[j], ';') && !asm_tok_punct(&t[j], '{') &&
               !asm_tok_punct(&t[j], '}'))
            j++;
        asm_cursor_t sc = {as, line, t, i, j, 0};
        if (!statement(as, &sc))
            return;
        i = j;
    }
}
