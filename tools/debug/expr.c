/* The console's expression evaluator: a recursive-descent parser into a small tree, evaluated per cell. */
#include "expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum node_kind {
    N_NUM,
    N_REG,
    N_VAR, /* pc, clock, ... (see var_names) */
    N_SYM, /* a symbol of the cell's program */
    N_MEM, /* [addr] (size 4), h[addr] (2), b[addr] (1) */
    N_UN,
    N_BIN,
    N_CELL, /* (x, y).operand: the operand evaluated on another cell */
    N_FUNC, /* count(lc), credits(lc) */
} node_kind_t;

typedef enum var_id { V_PC, V_CLOCK, V_BUNDLES, V_X, V_Y, V_ID, V_WAITING, V_HALTED, V_COUNT } var_id_t;
static const char *const var_names[V_COUNT] = {"pc", "clock", "bundles", "x", "y", "id", "waiting", "halted"};

typedef enum func_id { F_COUNT, F_CREDITS, F_NUM } func_id_t;
static const char *const func_names[F_NUM] = {"count", "credits"};

const char *const expr_names[] = {"pc",      "clock",  "bundles", "x",        "y", "id",
                                  "waiting", "halted", "count(",  "credits(", NULL};

/* Binary operators, by precedence level (higher binds tighter). */
typedef enum bin_op {
    OP_OROR,
    OP_ANDAND,
    OP_OR,
    OP_XOR,
    OP_AND,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_SHL,
    OP_SHR,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
} bin_op_t;

struct expr {
    node_kind_t kind;
    int op; /* bin_op_t, unary character, var_id_t, func_id_t, register number, memory size */
    int64_t num;
    char *name;                      /* N_SYM */
    expr_t *l, *r, *c;               /* operands; for N_CELL: l = x, r = y, c = operand */
    const emu_program_t *cache_prog; /* N_SYM: the program the cached value was found in */
    int64_t cache_value;
};

typedef struct parser {
    const char *s;
    const char *p;
    char *err;
    size_t errlen;
    bool failed;
    unsigned depth; /* the levels (parentheses, brackets, unary operators) that enclose p */
} parser_t;

/* The levels an expression may nest: the parser recurses once per level, and so do the evaluator and expr_free,
 * on the console's stack (60,000 '(' or 100,000 '-' overflowed it). No expression a person types comes near. */
enum { EXPR_MAX_DEPTH = 256 };

static void perr(parser_t *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(parser_t *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, ps->errlen, fmt, ap);
    va_end(ap);
}

static expr_t *node(parser_t *ps, node_kind_t kind)
{
    expr_t *e = calloc(1, sizeof *e);
    if (e == NULL)
        perr(ps, "out of memory");
    else
        e->kind = kind;
    return e;
}

void expr_free(expr_t *e)
{
    if (e == NULL)
        return;
    expr_free(e->l);
    expr_free(e->r);
    expr_free(e->c);
    free(e->name);
    free(e);
}

static void skip_space(parser_t *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool accept(parser_t *ps, const char *tok)
{
    skip_space(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$';
}
static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static int64_t sext32(uint64_t v)
{
    return (int64_t)(int32_t)(uint32_t)v;
}

static expr_t *parse_expr(parser_t *ps, int level);

static expr_t *parse_number(parser_t *ps)
{
    const char *start = ps->p;
    expr_t *e = node(ps, N_NUM);
    if (e == NULL)
        return NULL;
    if (*ps->p == '\'') {
        if (ps->p[1] == '\0' || ps->p[2] != '\'') {
            perr(ps, "a character constant is one character between quotes: %s", start);
            expr_free(e);
            return NULL;
        }
        e->num = (unsigned char)ps->p[1];
        ps->p += 3;
        return e;
    }
    char *end;
    bool hex = ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X');
    bool bin = ps->p[0] == '0' && (ps->p[1] == 'b' || ps->p[1] == 'B');
    errno = 0;
    unsigned long long v = strtoull(bin ? ps->p + 2 : ps->p, &end, bin ? 2 : hex ? 16 : 10);
    if (end == ps->p || ident_char(*end)) {
        perr(ps, "bad number at '%.20s'", start);
        expr_free(e);
        return NULL;
    }
    if (errno == ERANGE) { /* strtoull gave its largest value: printing it would show a number nobody wrote */
        perr(ps, "number too large (expressions are 64-bit): '%.*s'", (int)(end - start), start);
        expr_free(e);
        return NULL;
    }
    /* A hex or binary literal of up to 32 bits is a word, signed like registers, so it compares with them. */
    e->num = (hex || bin) && v <= 0xffffffffull ? sext32(v) : (int64_t)v;
    ps->p = end;
    return e;
}

static expr_t *parse_mem(parser_t *ps, int size)
{
    expr_t *e = node(ps, N_MEM);
    if (e == NULL)
        return NULL;
    e->op = size;
    e->l = parse_expr(ps, 0);
    if (!accept(ps, "]"))
        perr(ps, "missing ']' in a memory reference");
    return e;
}

static int lookup(const char *const *names, unsigned n, const char *s, size_t len)
{
    for (unsigned i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
            return (int)i;
    return -1;
}

static expr_t *parse_ident(parser_t *ps)
{
    const char *s = ps->p;
    size_t len = 0;
    while (ident_char(s[len]))
        len++;
    ps->p += len;
    /* b[..] and h[..] read a byte and a half-word; w[..] is the same as [..]. */
    if (len == 1 && (*s == 'b' || *s == 'h' || *s == 'w') && accept(ps, "["))
        return parse_mem(ps, *s == 'b' ? 1 : *s == 'h' ? 2 : 4);
    /* gdb's convenience spelling: $pc, $sp, $r5 are pc, sp, r5 (a symbol may start with '$' too). */
    if (*s == '$' && len > 1 && (isa_reg_parse(s + 1, len - 1) >= 0 || lookup(var_names, V_COUNT, s + 1, len - 1) >= 0)) {
        s++;
        len--;
    }
    int r = isa_reg_parse(s, len);
    if (r >= 0) {
        expr_t *e = node(ps, N_REG);
        if (e != NULL)
            e->op = r;
        return e;
    }
    int v = lookup(var_names, V_COUNT, s, len);
    if (v >= 0) {
        expr_t *e = node(ps, N_VAR);
        if (e != NULL)
            e->op = v;
        return e;
    }
    int f = lookup(func_names, F_NUM, s, len);
    if (f >= 0) {
        expr_t *e = node(ps, N_FUNC);
        if (e == NULL)
            return NULL;
        e->op = f;
        if (!accept(ps, "(")) {
            perr(ps, "%s wants a channel number: %s(LC)", func_names[f], func_names[f]);
            return e;
        }
        e->l = parse_expr(ps, 0);
        if (!accept(ps, ")"))
            perr(ps, "missing ')' after %s(", func_names[f]);
        return e;
    }
    expr_t *e = node(ps, N_SYM);
    if (e == NULL)
        return NULL;
    e->name = strndup(s, len);
    if (e->name == NULL)
        perr(ps, "out of memory");
    return e;
}

static expr_t *parse_unary(parser_t *ps);

/* "(" already taken: a parenthesised expression, or (x, y).operand naming another cell. */
static expr_t *parse_paren(parser_t *ps)
{
    expr_t *first = parse_expr(ps, 0);
    if (!accept(ps, ",")) {
        if (!accept(ps, ")"))
            perr(ps, "missing ')'");
        return first;
    }
    expr_t *e = node(ps, N_CELL);
    if (e == NULL) {
        expr_free(first);
        return NULL;
    }
    e->l = first;
    e->r = parse_expr(ps, 0);
    if (!accept(ps, ")") || !accept(ps, ".")) {
        perr(ps, "a cell is written (x,y).operand, e.g. (3,2).r5");
        return e;
    }
    e->c = parse_unary(ps);
    return e;
}

static expr_t *parse_primary(parser_t *ps)
{
    skip_space(ps);
    char c = *ps->p;
    if (isdigit((unsigned char)c) || c == '\'')
        return parse_number(ps);
    if (accept(ps, "("))
        return parse_paren(ps);
    if (accept(ps, "["))
        return parse_mem(ps, 4);
    if (ident_start(c))
        return parse_ident(ps);
    if (c == '\0')
        perr(ps, "expression ends too early");
    else
        perr(ps, "unexpected '%c' in expression", c);
    return NULL;
}

static expr_t *parse_unary_here(parser_t *ps);

/* Every level of nesting passes here ('(' and '[' through parse_primary): the depth is bounded before the stack. */
static expr_t *parse_unary(parser_t *ps)
{
    if (ps->depth >= EXPR_MAX_DEPTH) {
        skip_space(ps);
        perr(ps, "column %zu: expression nested too deeply (limit %d)", (size_t)(ps->p - ps->s) + 1, EXPR_MAX_DEPTH);
        return NULL;
    }
    ps->depth++;
    expr_t *e = parse_unary_here(ps);
    ps->depth--;
    return e;
}

static expr_t *parse_unary_here(parser_t *ps)
{
    skip_space(ps);
    char c = *ps->p;
    if (c == '-' || c == '~' || c == '!' || c == '+') {
        ps->p++;
        expr_t *e = node(ps, N_UN);
        if (e == NULL)
            return NULL;
        e->op = c;
        e->l = parse_unary(ps);
        return e;
    }
    return parse_primary(ps);
}

typedef struct op_row {
    const char *text;
    bin_op_t op;
    int level;
} op_row_t;

/* Longer tokens first so "<=" is not read as "<". */
static const op_row_t ops[] = {
    {"||", OP_OROR, 1}, {"&&", OP_ANDAND, 2}, {"==", OP_EQ, 6}, {"!=", OP_NE, 6},  {"<=", OP_LE, 7},  {">=", OP_GE, 7},
    {"<<", OP_SHL, 8},  {">>", OP_SHR, 8},    {"|", OP_OR, 3},  {"^", OP_XOR, 4},  {"&", OP_AND, 5},  {"<", OP_LT, 7},
    {">", OP_GT, 7},    {"+", OP_ADD, 9},     {"-", OP_SUB, 9}, {"*", OP_MUL, 10}, {"/", OP_DIV, 10}, {"%", OP_MOD, 10},
};

static const op_row_t *peek_op(parser_t *ps)
{
    skip_space(ps);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strncmp(ps->p, ops[i].text, strlen(ops[i].text)) == 0)
            return &ops[i];
    return NULL;
}

/* Precedence climbing: operators of level > `level` bind here, left to right. */
static expr_t *parse_expr(parser_t *ps, int level)
{
    expr_t *l = parse_unary(ps);
    for (;;) {
        if (ps->failed)
            return l;
        const op_row_t *o = peek_op(ps);
        if (o == NULL || o->level <= level)
            return l;
        ps->p += strlen(o->text);
        expr_t *e = node(ps, N_BIN);
        if (e == NULL) {
            expr_free(l);
            return NULL;
        }
        e->op = o->op;
        e->l = l;
        e->r = parse_expr(ps, o->level);
        l = e;
    }
}

expr_t *expr_parse(const char *text, char *err, size_t errlen)
{
    parser_t ps = {text, text, err, errlen, false, 0};
    expr_t *e = parse_expr(&ps, 0);
    skip_space(&ps);
    if (!ps.failed && *ps.p != '\0')
        perr(&ps, "unexpected '%.20s' after the expression", ps.p);
    if (ps.failed) {
        expr_free(e);
        return NULL;
    }
    return e;
}

/* --- evaluation --- */

static int eerr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int eerr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int eval(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen);

static int eval_var(const expr_t *e, const expr_env_t *env, int64_t *v)
{
    const ca_t *ca = emu_array_ca(env->a, env->x, env->y);
    switch ((var_id_t)e->op) {
    case V_PC: *v = env->frame != NULL ? env->frame->pc : ca->s.pc; return 0;
    case V_CLOCK: *v = (int64_t)emu_array_clock(env->a); return 0;
    case V_BUNDLES: *v = (int64_t)ca->s.stats.bundles; return 0;
    case V_X: *v = env->x; return 0;
    case V_Y: *v = env->y; return 0;
    case V_ID: *v = (int64_t)env->y * emu_array_width(env->a) + env->x; return 0;
    case V_WAITING: *v = ca->s.state == CA_WAITING; return 0;
    case V_HALTED: *v = ca_done(ca); return 0;
    case V_COUNT: break;
    }
    return -1;
}

static int eval_reg(const expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    unsigned r = (unsigned)e->op;
    if (env->frame == NULL || r == ISA_REG_ZERO) {
        *v = sext32(ca_reg(emu_array_ca(env->a, env->x, env->y), r));
        return 0;
    }
    if (!env->frame->known[r])
        return eerr(err, errlen, "%s of frame %u is lost: a call overwrote it and no callee saved it",
                    r == ISA_REG_LINK ? "ra" : "that register", env->frame->level);
    *v = sext32(env->frame->regs[r]);
    return 0;
}

static int eval_sym(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    const ca_t *ca = emu_array_ca(env->a, env->x, env->y);
    if (ca->prog == NULL)
        return eerr(err, errlen, "'%s': cell (%u,%u) runs no program, so it has no symbols", e->name, env->x, env->y);
    if (e->cache_prog != ca->prog) {
        const isa_symbol_t *s = isa_image_symbol(&ca->prog->image, e->name);
        if (s == NULL)
            return eerr(err, errlen, "no symbol, register or name '%s' (help print lists the names)", e->name);
        e->cache_prog = ca->prog;
        e->cache_value = sext32(s->value);
    }
    *v = e->cache_value;
    return 0;
}

static int eval_mem(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    int64_t addr;
    if (eval(e->l, env, &addr, err, errlen) != 0)
        return -1;
    const ca_t *ca = emu_array_ca(env->a, env->x, env->y);
    uint8_t b[4] = {0, 0, 0, 0};
    if (ca_mem_read(ca, (uint32_t)addr, b, (uint32_t)e->op) != 0)
        return eerr(err, errlen, "address 0x%x is outside the memory of cell (%u,%u)", (uint32_t)addr, env->x, env->y);
    uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    *v = e->op == 4 ? sext32(w) : (int64_t)w;
    return 0;
}

static int eval_func(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    int64_t lc;
    if (eval(e->l, env, &lc, err, errlen) != 0)
        return -1;
    const coa_t *c = emu_array_coa(env->a, env->x, env->y);
    if (lc < 0 || lc >= (int64_t)c->cfg.channels)
        return eerr(err, errlen, "%s(%lld): channels are 0..%u", func_names[e->op], (long long)lc, c->cfg.channels - 1);
    *v = e->op == F_COUNT ? c->lc[lc].count : c->lc[lc].credits;
    return 0;
}

static int eval_cell(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    int64_t x, y;
    if (eval(e->l, env, &x, err, errlen) != 0 || eval(e->r, env, &y, err, errlen) != 0)
        return -1;
    if (x < 0 || y < 0 || x >= emu_array_width(env->a) || y >= emu_array_height(env->a))
        return eerr(err, errlen, "cell (%lld,%lld) is outside the %ux%u array", (long long)x, (long long)y,
                    emu_array_width(env->a), emu_array_height(env->a));
    expr_env_t other = {env->a, (unsigned)x, (unsigned)y, NULL}; /* another cell: its live registers */
    return eval(e->c, &other, v, err, errlen);
}

static int eval_bin(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    int64_t a, b;
    if (eval(e->l, env, &a, err, errlen) != 0)
        return -1;
    /* && and || do not evaluate their right side when the left decides, as in C. */
    if (e->op == OP_ANDAND && a == 0) {
        *v = 0;
        return 0;
    }
    if (e->op == OP_OROR && a != 0) {
        *v = 1;
        return 0;
    }
    if (eval(e->r, env, &b, err, errlen) != 0)
        return -1;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b; /* wrapping arithmetic without undefined behaviour */
    switch ((bin_op_t)e->op) {
    case OP_OROR:
    case OP_ANDAND: *v = b != 0; return 0;
    case OP_OR: *v = (int64_t)(ua | ub); return 0;
    case OP_XOR: *v = (int64_t)(ua ^ ub); return 0;
    case OP_AND: *v = (int64_t)(ua & ub); return 0;
    case OP_EQ: *v = a == b; return 0;
    case OP_NE: *v = a != b; return 0;
    case OP_LT: *v = a < b; return 0;
    case OP_LE: *v = a <= b; return 0;
    case OP_GT: *v = a > b; return 0;
    case OP_GE: *v = a >= b; return 0;
    case OP_SHL:
    case OP_SHR:
        /* A count the 64-bit arithmetic cannot do is an error, not a count taken modulo 64. */
        if (b < 0 || b > 63)
            return eerr(err, errlen, "shift by %lld: the count must be 0..63", (long long)b);
        *v = e->op == OP_SHL ? (int64_t)(ua << ub) : a >> ub;
        return 0;
    case OP_ADD: *v = (int64_t)(ua + ub); return 0;
    case OP_SUB: *v = (int64_t)(ua - ub); return 0;
    case OP_MUL: *v = (int64_t)(ua * ub); return 0;
    case OP_DIV:
    case OP_MOD:
        if (b == 0)
            return eerr(err, errlen, "division by zero in expression");
        if (a == INT64_MIN && b == -1)
            *v = e->op == OP_DIV ? a : 0;
        else
            *v = e->op == OP_DIV ? a / b : a % b;
        return 0;
    }
    return -1;
}

static int eval(expr_t *e, const expr_env_t *env, int64_t *v, char *err, size_t errlen)
{
    switch (e->kind) {
    case N_NUM: *v = e->num; return 0;
    case N_REG: return eval_reg(e, env, v, err, errlen);
    case N_VAR: return eval_var(e, env, v);
    case N_SYM: return eval_sym(e, env, v, err, errlen);
    case N_MEM: return eval_mem(e, env, v, err, errlen);
    case N_FUNC: return eval_func(e, env, v, err, errlen);
    case N_CELL: return eval_cell(e, env, v, err, errlen);
    case N_BIN: return eval_bin(e, env, v, err, errlen);
    case N_UN: {
        int64_t a;
        if (eval(e->l, env, &a, err, errlen) != 0)
            return -1;
        *v = e->op == '-' ? (int64_t)(0 - (uint64_t)a) : e->op == '~' ? ~a : e->op == '!' ? a == 0 : a;
        return 0;
    }
    }
    return -1;
}

int expr_eval(expr_t *e, const expr_env_t *env, int64_t *value, char *err, size_t errlen)
{
    return eval(e, env, value, err, errlen);
}
