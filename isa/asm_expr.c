/* Expressions: C operators and precedence over 64-bit intermediates, parsed into trees that are
 * evaluated in the first pass when a value is needed for layout, otherwise in the second. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

bool asm_fits32(int64_t v)
{
    return v >= INT32_MIN && v <= (int64_t)UINT32_MAX;
}

static asm_expr_t *node(asm_cursor_t *c, asm_expr_kind_t kind, const asm_tok_t *at)
{
    asm_expr_t *e = asm_alloc(c->as, sizeof *e);
    e->kind = kind;
    e->loc = asm_tok_loc(c, at);
    return e;
}

static const asm_expr_t *parse_binary(asm_cursor_t *c, int min_prec);

static const asm_expr_t *symbol_ref(asm_cursor_t *c, const asm_tok_t *t)
{
    asm_t *as = c->as;
    if (t->len == 1 && t->text[0] == '.') {
        asm_expr_t *e = node(c, EX_NUM, t);
        e->section = as->dot_section;
        e->num = as->dot_offset;
        if (as->dot_section == SEC_TEXT) {
            e->section = SEC_ABS;
            e->num += as->text_base;
        }
        return e;
    }
    if (isa_reg_parse(t->text, t->len) >= 0) {
        asm_error(as, asm_tok_loc(c, t), "register '%.*s' cannot be used in an expression", (int)t->len, t->text);
        return NULL;
    }
    char *name = asm_sym_scoped_name(as, t->text, t->len);
    asm_sym_t *s = asm_sym_get(as, name, strlen(name));
    asm_expr_t *e = node(c, EX_SYM, t);
    if (s->kind == SYM_SET) {
        /* A .set symbol means its value at this point, so a later .set does not change it. */
        e->kind = EX_NUM;
        e->num = s->value;
        e->section = s->section;
    }
    e->sym = s;
    return e;
}

static const asm_expr_t *parse_primary(asm_cursor_t *c);

static const asm_expr_t *parse_primary_here(asm_cursor_t *c)
{
    asm_t *as = c->as;
    const asm_tok_t *t = asm_cur(c);
    if (asm_at_end(c)) {
        asm_error(as, asm_cur_loc(c), "expected an expression before %s", asm_tok_describe(as, t));
        return NULL;
    }
    c->i++;
    switch (t->kind) {
    case TK_INT: {
        asm_expr_t *e = node(c, EX_NUM, t);
        if (t->ival > INT64_MAX) {
            asm_error(as, e->loc, "integer literal too large");
            return NULL;
        }
        e->num = (int64_t)t->ival;
        return e;
    }
    case TK_IDENT: return symbol_ref(c, t);
    case TK_LOCAL: {
        asm_sym_t *s = asm_local_label(as, t->ival, t->dir, false, asm_tok_loc(c, t));
        if (s == NULL)
            return NULL;
        asm_expr_t *e = node(c, EX_SYM, t);
        e->sym = s;
        return e;
    }
    case TK_FLOAT:
        asm_error(as, asm_tok_loc(c, t), "float literal %.*s where an integer is needed", (int)t->len, t->text);
        return NULL;
    case TK_FUNC:
        asm_error(as, asm_tok_loc(c, t), "%.*s is only allowed as a whole float operand", (int)t->len, t->text);
        return NULL;
    case TK_PUNCT:
        if (t->punct == '(') {
            const asm_expr_t *e = parse_binary(c, 1);
            if (e == NULL)
                return NULL;
            if (!asm_accept_punct(c, ')')) {
                asm_error(as, asm_cur_loc(c), "expected ')' before %s", asm_tok_describe(as, asm_cur(c)));
                return NULL;
            }
            return e;
        }
        if (t->punct == '-' || t->punct == '~' || t->punct == '!' || t->punct == '+') {
            const asm_expr_t *a = parse_primary(c);
            if (a == NULL || t->punct == '+')
                return a;
            asm_expr_t *e = node(c, EX_UNARY, t);
            e->op = t->punct;
            e->a = a;
            return e;
        }
        break;
    default: break;
    }
    asm_error(as, asm_tok_loc(c, t), "expected an expression, found %s", asm_tok_describe(as, t));
    return NULL;
}

/* Every level of nesting, '(' or a unary operator, passes here: the depth is bounded before the stack is. */
static const asm_expr_t *parse_primary(asm_cursor_t *c)
{
    if (c->depth >= ASM_EXPR_MAX_DEPTH) {
        asm_error(c->as, asm_cur_loc(c), "expression nested too deeply (limit %d)", ASM_EXPR_MAX_DEPTH);
        return NULL;
    }
    c->depth++;
    const asm_expr_t *e = parse_primary_here(c);
    c->depth--;
    return e;
}

static int precedence(const asm_tok_t *t)
{
    if (t->kind != TK_PUNCT)
        return 0;
    switch (t->punct) {
    case P_OROR: return 1;
    case P_ANDAND: return 2;
    case '|': return 3;
    case '^': return 4;
    case '&': return 5;
    case P_EQ:
    case P_NE: return 6;
    case '<':
    case '>':
    case P_LE:
    case P_GE: return 7;
    case P_SHL:
    case P_SHR: return 8;
    case '+':
    case '-': return 9;
    case '*':
    case '/':
    case '%': return 10;
    default: return 0;
    }
}

static const asm_expr_t *parse_binary(asm_cursor_t *c, int min_prec)
{
    const asm_expr_t *lhs = parse_primary(c);
    while (lhs != NULL && !asm_at_end(c)) {
        const asm_tok_t *t = asm_cur(c);
        int prec = precedence(t);
        if (prec == 0 || prec < min_prec)
            break;
        c->i++;
        const asm_expr_t *rhs = parse_binary(c, prec + 1);
        if (rhs == NULL)
            return NULL;
        asm_expr_t *e = node(c, EX_BINARY, t);
        e->op = t->punct;
        e->a = lhs;
        e->b = rhs;
        lhs = e;
    }
    return lhs;
}

const asm_expr_t *asm_parse_expr(asm_cursor_t *c)
{
    return parse_binary(c, 1);
}

const asm_expr_t *asm_parse_expr_all(asm_cursor_t *c)
{
    const asm_expr_t *e = asm_parse_expr(c);
    if (e != NULL && !asm_expect_end(c, "expression"))
        return NULL;
    return e;
}

static bool is_float_word(const asm_tok_t *t)
{
    return asm_tok_is(t, "inf") || asm_tok_is(t, "nan");
}

const asm_expr_t *asm_parse_float(asm_cursor_t *c)
{
    size_t save = c->i;
    const asm_tok_t *first = asm_cur(c);
    if (!asm_at_end(c) && first->kind == TK_FUNC) {
        if (first->len != 5 || memcmp(first->text, "%bits", 5) != 0) {
            asm_error(c->as, asm_cur_loc(c), "unknown function %.*s (only %%bits)", (int)first->len, first->text);
            return NULL;
        }
        c->i++;
        if (!asm_accept_punct(c, '(')) {
            asm_error(c->as, asm_cur_loc(c), "expected '(' after %%bits");
            return NULL;
        }
        const asm_expr_t *inner = asm_parse_expr(c);
        if (inner == NULL)
            return NULL;
        if (!asm_accept_punct(c, ')')) {
            asm_error(c->as, asm_cur_loc(c), "expected ')' to close %%bits(");
            return NULL;
        }
        asm_expr_t *e = node(c, EX_BITS, first);
        e->a = inner;
        return asm_expect_end(c, "%bits(...)") ? e : NULL;
    }
    bool neg = false;
    if (asm_accept_punct(c, '-'))
        neg = true;
    else
        asm_accept_punct(c, '+');
    const asm_tok_t *t = asm_cur(c);
    if (!asm_at_end(c) && (t->kind == TK_FLOAT || is_float_word(t)) && c->i + 1 == c->end) {
        c->i++;
        asm_expr_t *e = node(c, EX_FLOAT, first);
        e->ftext = asm_strndup(c->as, t->text, t->len);
        e->op = neg ? '-' : 0;
        return e;
    }
    c->i = save;
    return asm_parse_expr_all(c);
}

/* ---- evaluation ---- */

typedef struct eval_ctx {
    asm_t *as;
    bool final;
} eval_ctx_t;

static bool eval(eval_ctx_t *x, const asm_expr_t *e, asm_value_t *out);

static bool eval_symbol(eval_ctx_t *x, const asm_expr_t *e, asm_value_t *out)
{
    asm_t *as = x->as;
    asm_sym_t *s = e->sym;
    if (s->kind == SYM_UNDEF) {
        if (s->name[0] >= '0' && s->name[0] <= '9')
            asm_error(as, e->loc, "local label %.*s is not defined after this point", (int)strcspn(s->name, "\x02"),
                      s->name);
        else if (x->final)
            asm_error(as, e->loc, "undefined symbol '%s'", s->name);
        else
            asm_error(as, e->loc, "symbol '%s' is not defined yet (the value is needed in the first pass)", s->name);
        return false;
    }
    if (s->kind == SYM_EQU && s->eval_state != 2) {
        if (s->eval_state == 1) {
            asm_error(as, e->loc, "symbol '%s' is defined in terms of itself", s->name);
            return false;
        }
        s->eval_state = 1;
        asm_value_t v;
        bool ok = eval(x, s->expr, &v);
        s->eval_state = 0;
        if (!ok)
            return false;
        /* A first-pass value may be relative to .data or .bss; to_final adds the base once it is known. */
        s->value = v.v;
        s->section = v.section;
        s->eval_state = 2;
    }
    out->v = s->value;
    out->section = s->kind == SYM_LABEL || s->kind == SYM_EQU || s->kind == SYM_SET ? s->section : SEC_ABS;
    return true;
}

static bool to_final(eval_ctx_t *x, asm_value_t *v)
{
    if (v->section == SEC_TEXT) { /* text addresses are known from the start */
        v->v += x->as->text_base;
        v->section = SEC_ABS;
    } else if (x->final && v->section != SEC_ABS) {
        v->v += x->as->base[v->section];
        v->section = SEC_ABS;
    }
    return true;
}

static bool need_abs(eval_ctx_t *x, const asm_expr_t *e, const asm_value_t *a, const asm_value_t *b)
{
    const asm_value_t *rel = a->section != SEC_ABS ? a : b;
    if (rel->section == SEC_ABS)
        return true;
    asm_error(x->as, e->loc, "this expression uses a %s address, which is not known until the end of the first pass",
              asm_section_name(rel->section));
    return false;
}

static bool eval_binary(eval_ctx_t *x, const asm_expr_t *e, asm_value_t a, asm_value_t b, asm_value_t *out)
{
    uint64_t ua = (uint64_t)a.v, ub = (uint64_t)b.v;
    out->section = SEC_ABS;
    switch (e->op) {
    case '+':
        if (a.section != SEC_ABS && b.section != SEC_ABS)
            return need_abs(x, e, &a, &a);
        out->section = a.section != SEC_ABS ? a.section : b.section;
        out->v = (int64_t)(ua + ub);
        return true;
    case '-':
        if (b.section != SEC_ABS && b.section != a.section)
            return need_abs(x, e, &b, &b);
        out->section = b.section == SEC_ABS ? a.section : SEC_ABS;
        out->v = (int64_t)(ua - ub);
        return true;
    default: break;
    }
    if (!need_abs(x, e, &a, &b))
        return false;
    switch (e->op) {
    case '*': out->v = (int64_t)(ua * ub); return true;
    case '/':
    case '%':
        if (b.v == 0) {
            asm_error(x->as, e->loc, e->op == '/' ? "division by zero" : "remainder by zero");
            return false;
        }
        if (a.v == INT64_MIN && b.v == -1)
            out->v = e->op == '/' ? INT64_MIN : 0;
        else
            out->v = e->op == '/' ? a.v / b.v : a.v % b.v;
        return true;
    case P_SHL:
    case P_SHR:
        if (b.v < 0 || b.v > 63) {
            asm_error(x->as, e->loc, "shift count %lld out of range (0 to 63)", (long long)b.v);
            return false;
        }
        out->v = e->op == P_SHL ? (int64_t)(ua << b.v) : a.v >> b.v;
        return true;
    case '&': out->v = a.v & b.v; return true;
    case '|': out->v = a.v | b.v; return true;
    case '^': out->v = a.v ^ b.v; return true;
    case P_EQ: out->v = a.v == b.v; return true;
    case P_NE: out->v = a.v != b.v; return true;
    case '<': out->v = a.v < b.v; return true;
    case '>': out->v = a.v > b.v; return true;
    case P_LE: out->v = a.v <= b.v; return true;
    case P_GE: out->v = a.v >= b.v; return true;
    case P_ANDAND: out->v = a.v && b.v; return true;
    case P_OROR: out->v = a.v || b.v; return true;
    default: asm_error(x->as, e->loc, "bad operator"); return false;
    }
}

static bool eval(eval_ctx_t *x, const asm_expr_t *e, asm_value_t *out)
{
    asm_value_t a, b;
    switch (e->kind) {
    case EX_NUM:
        out->v = e->num;
        out->section = e->section;
        return to_final(x, out);
    case EX_SYM: return eval_symbol(x, e, out) && to_final(x, out);
    case EX_UNARY:
        if (!eval(x, e->a, &a) || !need_abs(x, e, &a, &a))
            return false;
        out->section = SEC_ABS;
        out->v = e->op == '-' ? (int64_t)(0 - (uint64_t)a.v) : e->op == '~' ? ~a.v : !a.v;
        return true;
    case EX_BINARY: return eval(x, e->a, &a) && eval(x, e->b, &b) && eval_binary(x, e, a, b, out);
    case EX_FLOAT:
    case EX_BITS: asm_error(x->as, e->loc, "a float value where an integer is needed"); return false;
    }
    return false;
}

bool asm_eval(asm_t *as, const asm_expr_t *e, bool final, asm_value_t *out)
{
    eval_ctx_t x = {as, final};
    return eval(&x, e, out);
}

bool asm_eval_now(asm_t *as, const asm_expr_t *e, int64_t *out)
{
    asm_value_t v;
    if (!asm_eval(as, e, as->final_layout, &v))
        return false;
    if (v.section != SEC_ABS) {
        asm_error(as, e->loc, "this expression uses a %s address, which is not known until the end of the first pass",
                  asm_section_name(v.section));
        return false;
    }
    *out = v.v;
    return true;
}

static bool eval_int_operand(asm_t *as, const asm_expr_t *e, int64_t *v)
{
    if (!asm_eval_now(as, e, v))
        return false;
    if (!asm_fits32(*v)) {
        asm_error(as, e->loc, "value %lld does not fit in 32 bits", (long long)*v);
        return false;
    }
    return true;
}

/* The literal as a double, or as a float rounded once (strtof), so both widths round correctly. */
static bool float_literal(asm_t *as, const asm_expr_t *e, bool single, double *d, float *f)
{
    bool neg = e->op == '-';
    if (strcmp(e->ftext, "inf") == 0) {
        *d = neg ? -INFINITY : INFINITY;
        *f = (float)*d;
        return true;
    }
    errno = 0;
    char *end;
    if (single)
        *f = strtof(e->ftext, &end);
    else
        *d = strtod(e->ftext, &end);
    if (*end != '\0' || (errno == ERANGE && (single ? isinf(*f) : isinf(*d)))) {
        asm_error(as, e->loc, "float literal %s out of range", e->ftext);
        return false;
    }
    if (neg) {
        *f = -*f;
        *d = -*d;
    }
    return true;
}

/* The bits of a float operand as a single (single = true) or a double. */
static bool eval_float(asm_t *as, const asm_expr_t *e, bool single, uint64_t *bits)
{
    int64_t v;
    float f = 0;
    double d = 0;
    switch (e->kind) {
    case EX_BITS:
        if (!single) {
            asm_error(as, e->loc, "%%bits gives a 32-bit pattern; .double takes a float value");
            return false;
        }
        if (!eval_int_operand(as, e->a, &v))
            return false;
        *bits = (uint32_t)v;
        return true;
    case EX_FLOAT:
        if (strcmp(e->ftext, "nan") == 0) {
            uint64_t quiet = single ? 0x7fc00000u : 0x7ff8000000000000u;
            uint64_t sign = single ? 0x80000000u : 0x8000000000000000u;
            *bits = e->op == '-' ? quiet | sign : quiet;
            return true;
        }
        if (!float_literal(as, e, single, &d, &f))
            return false;
        break;
    default:
        if (!eval_int_operand(as, e, &v))
            return false;
        f = (float)v;
        d = (double)v;
        break;
    }
    uint32_t b32;
    memcpy(&b32, &f, 4);
    if (single)
        *bits = b32;
    else
        memcpy(bits, &d, 8);
    return true;
}

bool asm_eval_float32(asm_t *as, const asm_expr_t *e, uint32_t *bits)
{
    uint64_t b;
    if (!eval_float(as, e, true, &b))
        return false;
    *bits = (uint32_t)b;
    return true;
}

bool asm_eval_float64(asm_t *as, const asm_expr_t *e, uint64_t *bits) { return eval_float(as, e, false, bits); }
