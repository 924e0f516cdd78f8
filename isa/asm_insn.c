/* One operation: its operands parsed and checked against the table row of isa.def, pseudo-instructions
 * rewritten to the real operation they stand for. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

typedef enum { OPD_REG, OPD_MEM, OPD_EXPR } opd_kind_t;

typedef struct operand {
    opd_kind_t kind;
    size_t s, e; /* token range */
    int reg;
    asm_loc_t loc;
} operand_t;

enum { MAX_OPERANDS = 4 };

/* A pseudo-instruction: sig lists its operands (r register, e expression); map lists the real operation's
 * operands by index into them, with z for r0 and l for the link register. */
typedef struct pseudo {
    const char *name, *real, *sig, *map, *usage;
} pseudo_t;

static const pseudo_t pseudos[] = {
    {"mov", "or", "rr", "01z", "rd, rs"},
    {"li", "or", "re", "0z1", "rd, value"},
    {"la", "or", "re", "0z1", "rd, symbol"},
    {"not", "nor", "rr", "01z", "rd, rs"},
    {"neg", "sub", "rr", "0z1", "rd, rs"},
    {"ret", "jr", "", "l", ""},
    {"b", "jmp", "e", "0", "target"},
    {"beqz", "beq", "re", "0z1", "rs, target"},
    {"bnez", "bne", "re", "0z1", "rs, target"},
    {"bgt", "blt", "rre", "102", "rs1, rs2, target"},
    {"ble", "bge", "rre", "102", "rs1, rs2, target"},
    {"bgtu", "bltu", "rre", "102", "rs1, rs2, target"},
    {"bleu", "bgeu", "rre", "102", "rs1, rs2, target"},
};
enum { NPSEUDOS = sizeof pseudos / sizeof pseudos[0] };

static const pseudo_t *find_pseudo(const char *name, size_t len)
{
    for (size_t i = 0; i < NPSEUDOS; i++)
        if (strlen(pseudos[i].name) == len && memcmp(pseudos[i].name, name, len) == 0)
            return &pseudos[i];
    return NULL;
}

const char *asm_suggest_op(const char *name, size_t len)
{
    const char *cands[ISA_OPCODE_LIMIT + NPSEUDOS];
    size_t n = 0;
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++)
        if (isa_op_info(op) != NULL)
            cands[n++] = isa_op_info(op)->mnemonic;
    for (size_t i = 0; i < NPSEUDOS; i++)
        cands[n++] = pseudos[i].name;
    return asm_closest(name, len, cands, n);
}

static const char *usage_of(const isa_op_info_t *info)
{
    switch (info->format) {
    case ISA_FMT_NONE: return "no operands";
    case ISA_FMT_RRX: return info->flags & ISA_F_NO_IMM ? "rd, rs1, rs2" : "rd, rs1, rs2|value";
    case ISA_FMT_RR: return "rd, rs1";
    case ISA_FMT_LD: return "rd, [address]";
    case ISA_FMT_ST: return "rs, [address]";
    case ISA_FMT_BR: return "rs1, rs2, target";
    case ISA_FMT_LOOP: return "rd, target";
    case ISA_FMT_J: return "target";
    case ISA_FMT_JR: return "rs1";
    case ISA_FMT_TRAP: return "code";
    default: return "?";
    }
}

static size_t split_operands(asm_cursor_t *c, operand_t *out, size_t max, bool *too_many)
{
    size_t n = 0;
    *too_many = false;
    while (!asm_at_end(c)) {
        size_t s = c->i;
        asm_skip_to_comma(c);
        if (n == max) {
            *too_many = true;
            return n;
        }
        operand_t *o = &out[n++];
        o->s = s;
        o->e = c->i;
        o->loc = asm_tok_loc(c, &c->t[s]);
        const asm_tok_t *t = &c->t[s];
        o->kind = OPD_EXPR;
        if (o->e == s + 1 && t->kind == TK_IDENT && (o->reg = isa_reg_parse(t->text, t->len)) >= 0)
            o->kind = OPD_REG;
        else if (o->e > s && asm_tok_punct(t, '['))
            o->kind = OPD_MEM;
        if (!asm_at_end(c))
            c->i++;
    }
    return n;
}

typedef struct binder {
    asm_t *as;
    asm_cursor_t *c;
    const char *mn;
    const isa_op_info_t *info;
    asm_pending_op_t *p;
} binder_t;

enum { ROLE_READ = 1, ROLE_WRITE = 2, ROLE_PAIR = 4 };

static bool check_reg(binder_t *b, const operand_t *o, unsigned role)
{
    char buf[8];
    const char *name = isa_reg_name((unsigned)o->reg, buf);
    if ((role & ROLE_PAIR) && isa_reg_is_gate((unsigned)o->reg)) {
        asm_error(b->as, o->loc, "'%s' takes a register pair here, and a pair cannot be a gate (%s)", b->mn, name);
        return false;
    }
    if ((role & ROLE_PAIR) && (o->reg & 1)) {
        asm_error(b->as, o->loc, "'%s' takes a register pair here: the first register must be even, not %s", b->mn,
                  name);
        return false;
    }
    if ((role & ROLE_WRITE) && isa_reg_is_gate_in((unsigned)o->reg)) {
        asm_error(b->as, o->loc, "%s is an input gate and cannot be written", name);
        return false;
    }
    if ((role & ROLE_READ) && isa_reg_is_gate_out((unsigned)o->reg)) {
        asm_error(b->as, o->loc, "%s is an output gate and cannot be read", name);
        return false;
    }
    return true;
}

static bool want_reg(binder_t *b, const operand_t *o, size_t idx, unsigned role, uint8_t *field)
{
    if (o->kind != OPD_REG) {
        asm_error(b->as, o->loc, "operand %zu of '%s' must be a register (%s: %s)", idx + 1, b->mn, b->mn,
                  usage_of(b->info));
        return false;
    }
    if (!check_reg(b, o, role))
        return false;
    *field = (uint8_t)o->reg;
    return true;
}

static bool want_expr(binder_t *b, const operand_t *o, size_t idx, asm_fixup_kind_t kind)
{
    if (o->kind != OPD_EXPR) {
        asm_error(b->as, o->loc, "operand %zu of '%s' must be a value, not a %s (%s: %s)", idx + 1, b->mn,
                  o->kind == OPD_REG ? "register" : "memory operand", b->mn, usage_of(b->info));
        return false;
    }
    asm_cursor_t sub = *b->c;
    sub.i = o->s;
    sub.end = o->e;
    const asm_expr_t *e = kind == FX_FLOAT ? asm_parse_float(&sub) : asm_parse_expr_all(&sub);
    if (e == NULL)
        return false;
    b->p->op.has_ext = true;
    b->p->ext = e;
    b->p->ext_kind = kind;
    return true;
}

static bool is_reg_tok(const asm_tok_t *t, int *reg)
{
    return t->kind == TK_IDENT && (*reg = isa_reg_parse(t->text, t->len)) >= 0;
}

/* [rs1], [rs1 + rs2], [rs1 + expr], [rs1 - expr], [expr] */
static bool bind_mem(binder_t *b, const operand_t *o)
{
    asm_t *as = b->as;
    if (o->kind != OPD_MEM) {
        asm_error(as, o->loc, "operand 2 of '%s' must be a memory operand in brackets (%s: %s)", b->mn, b->mn,
                  usage_of(b->info));
        return false;
    }
    const asm_tok_t *t = b->c->t;
    if (!asm_tok_punct(&t[o->e - 1], ']') || o->e - o->s < 2) {
        asm_error(as, o->loc, "missing ']' at the end of the memory operand");
        return false;
    }
    asm_cursor_t sub = *b->c;
    sub.i = o->s + 1;
    sub.end = o->e - 1;
    if (asm_at_end(&sub)) {
        asm_error(as, o->loc, "empty memory operand []");
        return false;
    }
    int reg;
    operand_t r = *o;
    r.kind = OPD_REG;
    if (is_reg_tok(asm_cur(&sub), &reg)) {
        r.reg = reg;
        r.loc = asm_cur_loc(&sub);
        if (!check_reg(b, &r, ROLE_READ))
            return false;
        b->p->op.rs1 = (uint8_t)reg;
        sub.i++;
        if (asm_at_end(&sub))
            return true;
        const asm_tok_t *sign = asm_cur(&sub);
        if (!asm_tok_punct(sign, '+') && !asm_tok_punct(sign, '-')) {
            asm_error(as, asm_cur_loc(&sub), "expected '+', '-' or ']' after the base register, found %s",
                      asm_tok_describe(as, sign));
            return false;
        }
        if (sub.i + 2 == sub.end && is_reg_tok(&t[sub.i + 1], &reg)) {
            r.reg = reg;
            r.loc = asm_tok_loc(&sub, &t[sub.i + 1]);
            if (asm_tok_punct(sign, '-')) {
                asm_error(as, r.loc, "an index register can only be added ([rs1 + rs2])");
                return false;
            }
            if (!check_reg(b, &r, ROLE_READ))
                return false;
            b->p->op.rs2 = (uint8_t)reg;
            return true;
        }
        if (asm_tok_punct(sign, '+'))
            sub.i++; /* a '-' stays: the rest is then read as a negated expression */
    }
    const asm_expr_t *e = asm_parse_expr_all(&sub);
    if (e == NULL)
        return false;
    b->p->op.has_ext = true;
    b->p->ext = e;
    b->p->ext_kind = FX_WORD;
    return true;
}

static bool bind_rrx(binder_t *b, const operand_t *o)
{
    const isa_op_info_t *info = b->info;
    unsigned rd_pair = info->flags & ISA_F_RD_PAIR ? ROLE_PAIR : 0;
    unsigned rs_pair = info->flags & ISA_F_RS_PAIR ? ROLE_PAIR : 0;
    if (!want_reg(b, &o[0], 0, ROLE_WRITE | rd_pair, &b->p->op.rd) ||
        !want_reg(b, &o[1], 1, ROLE_READ | rs_pair, &b->p->op.rs1))
        return false;
    if (o[2].kind == OPD_REG)
        return want_reg(b, &o[2], 2, ROLE_READ | rs_pair, &b->p->op.rs2);
    if (info->flags & ISA_F_NO_IMM) {
        asm_error(b->as, o[2].loc, "'%s' takes no immediate: operand 3 must be a register%s", b->mn,
                  rs_pair ? " pair" : "");
        return false;
    }
    return want_expr(b, &o[2], 2, info->flags & ISA_F_FLOAT_IMM ? FX_FLOAT : FX_WORD);
}

static bool bind(binder_t *b, const operand_t *o, size_t n)
{
    static const size_t counts[ISA_FMT_COUNT] = {
        [ISA_FMT_NONE] = 0, [ISA_FMT_RRX] = 3,  [ISA_FMT_RR] = 2, [ISA_FMT_LD] = 2, [ISA_FMT_ST] = 2,
        [ISA_FMT_BR] = 3,   [ISA_FMT_LOOP] = 2, [ISA_FMT_J] = 1,  [ISA_FMT_JR] = 1, [ISA_FMT_TRAP] = 1,
    };
    const isa_op_info_t *info = b->info;
    isa_op_t *op = &b->p->op;
    unsigned rd_pair = info->flags & ISA_F_RD_PAIR ? ROLE_PAIR : 0;
    unsigned rs_pair = info->flags & ISA_F_RS_PAIR ? ROLE_PAIR : 0;
    if (n != counts[info->format]) {
        asm_error(b->as, b->p->loc, "'%s' takes %zu operand%s (%s), not %zu", b->mn, counts[info->format],
                  counts[info->format] == 1 ? "" : "s", usage_of(info), n);
        return false;
    }
    switch (info->format) {
    case ISA_FMT_NONE: return true;
    case ISA_FMT_RRX: return bind_rrx(b, o);
    case ISA_FMT_RR:
        return want_reg(b, &o[0], 0, ROLE_WRITE | rd_pair, &op->rd) &&
               want_reg(b, &o[1], 1, ROLE_READ | rs_pair, &op->rs1);
    case ISA_FMT_LD: return want_reg(b, &o[0], 0, ROLE_WRITE | rd_pair, &op->rd) && bind_mem(b, &o[1]);
    case ISA_FMT_ST: return want_reg(b, &o[0], 0, ROLE_READ | rd_pair, &op->rd) && bind_mem(b, &o[1]);
    case ISA_FMT_BR:
        return want_reg(b, &o[0], 0, ROLE_READ, &op->rs1) && want_reg(b, &o[1], 1, ROLE_READ, &op->rs2) &&
               want_expr(b, &o[2], 2, FX_TARGET);
    case ISA_FMT_LOOP:
        if (o[0].kind == OPD_REG && isa_reg_is_gate((unsigned)o[0].reg)) {
            asm_error(b->as, o[0].loc, "the loop counter cannot be a gate");
            return false;
        }
        return want_reg(b, &o[0], 0, ROLE_READ | ROLE_WRITE, &op->rd) && want_expr(b, &o[1], 1, FX_TARGET);
    case ISA_FMT_J: return want_expr(b, &o[0], 0, FX_TARGET);
    case ISA_FMT_JR: return want_reg(b, &o[0], 0, ROLE_READ, &op->rs1);
    case ISA_FMT_TRAP: return want_expr(b, &o[0], 0, FX_WORD);
    default: return false;
    }
}

/* Rewrites the operands of a pseudo-instruction into those of its real operation. */
static bool expand_pseudo(asm_t *as, const pseudo_t *ps, operand_t *o, size_t *n, asm_loc_t at)
{
    size_t want = strlen(ps->sig);
    if (*n != want) {
        asm_error(as, at, "'%s' takes %zu operand%s (%s%s), not %zu", ps->name, want, want == 1 ? "" : "s", ps->name,
                  *ps->usage ? asm_printf(as, " %s", ps->usage) : "", *n);
        return false;
    }
    for (size_t k = 0; k < want; k++) {
        bool reg = ps->sig[k] == 'r';
        if ((o[k].kind == OPD_REG) != reg) {
            asm_error(as, o[k].loc, "operand %zu of '%s' must be %s (%s %s)", k + 1, ps->name,
                      reg ? "a register" : "a value, not a register", ps->name, ps->usage);
            return false;
        }
    }
    operand_t in[MAX_OPERANDS];
    memcpy(in, o, sizeof in);
    size_t m = strlen(ps->map);
    for (size_t k = 0; k < m; k++) {
        char c = ps->map[k];
        if (c >= '0' && c <= '9') {
            o[k] = in[c - '0'];
        } else {
            o[k] = (operand_t){OPD_REG, 0, 0, c == 'l' ? ISA_REG_LINK : ISA_REG_ZERO, at};
        }
    }
    *n = m;
    return true;
}

bool asm_parse_op(asm_t *as, asm_cursor_t *c, asm_pending_op_t *p)
{
    const asm_tok_t *mn = asm_cur(c);
    memset(p, 0, sizeof *p);
    p->loc = asm_cur_loc(c);
    c->i++;
    operand_t o[MAX_OPERANDS];
    memset(o, 0, sizeof o);
    bool too_many;
    size_t n = split_operands(c, o, MAX_OPERANDS, &too_many);
    const char *name = asm_strndup(as, mn->text, mn->len);
    const pseudo_t *ps = find_pseudo(mn->text, mn->len);
    int opc = isa_opcode_by_mnemonic(ps != NULL ? ps->real : mn->text, ps != NULL ? strlen(ps->real) : mn->len);
    if (opc < 0) {
        const char *hint = asm_suggest_op(mn->text, mn->len);
        asm_error(as, p->loc, "unknown operation '%s'%s", name,
                  hint ? asm_printf(as, " (did you mean '%s'?)", hint) : "");
        return false;
    }
    if (too_many) {
        asm_error(as, p->loc, "too many operands for '%s'", name);
        return false;
    }
    if (ps != NULL && !expand_pseudo(as, ps, o, &n, p->loc))
        return false;
    p->op.opcode = (uint8_t)opc;
    binder_t b = {as, c, name, isa_op_info((unsigned)opc), p};
    if (!bind(&b, o, n))
        return false;
    isa_error_t err = isa_op_check(&p->op);
    if (err != ISA_OK) {
        asm_error(as, p->loc, "'%s': %s", name, isa_error_string(err));
        return false;
    }
    return true;
}
