/* The lexer: one line at a time into as->toks. Columns are 1-based byte columns. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

bool asm_is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$';
}

bool asm_is_ident_char(int c)
{
    return asm_is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

typedef struct lexer {
    asm_t *as;
    const asm_line_t *line;
    const char *s;
    size_t n, i;
} lexer_t;

static int peek_at(const lexer_t *lx, size_t k)
{
    return lx->i + k < lx->n ? (unsigned char)lx->s[lx->i + k] : -1;
}

static asm_loc_t loc_at(const lexer_t *lx, size_t off)
{
    asm_loc_t l = lx->line->loc;
    l.col += (uint32_t)off;
    return l;
}

/* One character of a string or character literal, escapes decoded; -1 after reporting an error. */
static int lex_char_in_literal(lexer_t *lx)
{
    size_t start = lx->i;
    int c = peek_at(lx, 0);
    lx->i++;
    if (c != '\\')
        return c;
    int e = peek_at(lx, 0);
    lx->i++;
    switch (e) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'a': return '\a';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'v': return '\v';
    case 'e': return 27;
    case '\\': return '\\';
    case '\'': return '\'';
    case '"': return '"';
    case 'x': {
        int v = 0, nd = 0;
        while (nd < 2 && digit_value(peek_at(lx, 0)) < 16) {
            v = v * 16 + digit_value(peek_at(lx, 0));
            lx->i++;
            nd++;
        }
        if (nd == 0) {
            asm_error(lx->as, loc_at(lx, start), "\\x needs hex digits");
            return -1;
        }
        return v;
    }
    default:
        if (e >= '0' && e <= '7') {
            int v = e - '0', nd = 1;
            while (nd < 3 && peek_at(lx, 0) >= '0' && peek_at(lx, 0) <= '7') {
                v = v * 8 + (peek_at(lx, 0) - '0');
                lx->i++;
                nd++;
            }
            if (v > 255) {
                asm_error(lx->as, loc_at(lx, start), "octal escape out of range");
                return -1;
            }
            return v;
        }
        if (e < 0)
            asm_error(lx->as, loc_at(lx, start), "backslash at end of line");
        else if (e >= 32 && e < 127)
            asm_error(lx->as, loc_at(lx, start), "unknown escape sequence '\\%c'", e);
        else
            asm_error(lx->as, loc_at(lx, start), "unknown escape sequence");
        return -1;
    }
}

static bool lex_string(lexer_t *lx, asm_tok_t *t)
{
    size_t start = lx->i++;
    char *buf = asm_alloc(lx->as, lx->n - lx->i + 1); /* decoded text is never longer than the rest */
    size_t len = 0;
    for (;;) {
        int c = peek_at(lx, 0);
        if (c < 0) {
            asm_error(lx->as, loc_at(lx, start), "unterminated string");
            return false;
        }
        if (c == '"') {
            lx->i++;
            break;
        }
        c = lex_char_in_literal(lx);
        if (c < 0)
            return false;
        buf[len++] = (char)c;
    }
    t->kind = TK_STRING;
    t->str = buf;
    t->slen = len;
    return true;
}

static bool lex_char(lexer_t *lx, asm_tok_t *t)
{
    size_t start = lx->i++;
    int c = peek_at(lx, 0);
    if (c < 0 || c == '\'') {
        asm_error(lx->as, loc_at(lx, start), c < 0 ? "unterminated character literal" : "empty character literal");
        return false;
    }
    c = lex_char_in_literal(lx);
    if (c < 0)
        return false;
    if (peek_at(lx, 0) != '\'') {
        asm_error(lx->as, loc_at(lx, start), "character literal needs a closing ' after one character");
        return false;
    }
    lx->i++;
    t->kind = TK_INT;
    t->ival = (uint64_t)c;
    return true;
}

static bool lex_digits(lexer_t *lx, unsigned base, uint64_t *out, size_t start)
{
    uint64_t v = 0;
    size_t nd = 0;
    bool overflow = false;
    while (lx->i < lx->n) {
        int c = peek_at(lx, 0);
        if (c == '_' && nd > 0) { /* 0x1234_5678 */
            lx->i++;
            continue;
        }
        int d = digit_value(c);
        if (d >= (int)base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = true;
        v = v * base + (uint64_t)d;
        lx->i++;
        nd++;
    }
    if (nd == 0) {
        asm_error(lx->as, loc_at(lx, start), "number needs digits after its base prefix");
        return false;
    }
    if (overflow) {
        asm_error(lx->as, loc_at(lx, start), "integer literal too large");
        return false;
    }
    *out = v;
    return true;
}

/* After the integer part: does a fraction or exponent follow (then it is a float)? */
static bool float_follows(const lexer_t *lx)
{
    int c = peek_at(lx, 0);
    if (c == '.')
        return true;
    if (c == 'e' || c == 'E') {
        int d = peek_at(lx, 1);
        return is_digit(d) || ((d == '+' || d == '-') && is_digit(peek_at(lx, 2)));
    }
    return false;
}

static void skip_float_tail(lexer_t *lx)
{
    if (peek_at(lx, 0) == '.') {
        lx->i++;
        while (is_digit(peek_at(lx, 0)))
            lx->i++;
    }
    int c = peek_at(lx, 0);
    int d = peek_at(lx, 1);
    if ((c == 'e' || c == 'E') && (is_digit(d) || ((d == '+' || d == '-') && is_digit(peek_at(lx, 2))))) {
        lx->i += 2;
        while (is_digit(peek_at(lx, 0)))
            lx->i++;
    }
}

static bool lex_number(lexer_t *lx, asm_tok_t *t)
{
    size_t start = lx->i;
    int c0 = peek_at(lx, 0), c1 = peek_at(lx, 1);
    unsigned base = 10;
    if (c0 == '.') {
        t->kind = TK_FLOAT;
        skip_float_tail(lx);
    } else {
        if (c0 == '0' && (c1 == 'x' || c1 == 'X'))
            base = 16;
        else if (c0 == '0' && (c1 == 'b' || c1 == 'B') && (peek_at(lx, 2) == '0' || peek_at(lx, 2) == '1'))
            base = 2;
        else if (c0 == '0' && (c1 == 'o' || c1 == 'O'))
            base = 8;
        if (base != 10)
            lx->i += 2;
        if (!lex_digits(lx, base, &t->ival, start))
            return false;
        t->kind = TK_INT;
        if (base == 10 && float_follows(lx)) {
            t->kind = TK_FLOAT;
            skip_float_tail(lx);
        } else if (base == 10 && (peek_at(lx, 0) == 'b' || peek_at(lx, 0) == 'f') &&
                   !asm_is_ident_char(peek_at(lx, 1))) {
            t->kind = TK_LOCAL;
            t->dir = (char)peek_at(lx, 0);
            lx->i++;
        }
    }
    if (asm_is_ident_char(peek_at(lx, 0))) {
        asm_error(lx->as, loc_at(lx, start), "bad number '%.*s'", (int)(lx->i - start + 1), lx->s + start);
        return false;
    }
    return true;
}

static const struct {
    char a, b;
    int code;
} two_char_ops[] = {
    {'<', '<', P_SHL}, {'>', '>', P_SHR}, {'<', '=', P_LE},     {'>', '=', P_GE},
    {'=', '=', P_EQ},  {'!', '=', P_NE},  {'&', '&', P_ANDAND}, {'|', '|', P_OROR},
};

static bool lex_punct(lexer_t *lx, asm_tok_t *t)
{
    int c = peek_at(lx, 0), d = peek_at(lx, 1);
    t->kind = TK_PUNCT;
    for (size_t k = 0; k < sizeof two_char_ops / sizeof two_char_ops[0]; k++)
        if (two_char_ops[k].a == c && two_char_ops[k].b == d) {
            t->punct = two_char_ops[k].code;
            lx->i += 2;
            return true;
        }
    if (c >= 0 && strchr("+-*/%<>=!~&|^()[]{},:;", c) != NULL) {
        t->punct = c;
        lx->i++;
        return true;
    }
    if (c >= 33 && c < 127)
        asm_error(lx->as, loc_at(lx, lx->i), "unexpected character '%c'", c);
    else
        asm_error(lx->as, loc_at(lx, lx->i), "unexpected byte 0x%02x", (unsigned)c);
    return false;
}

static bool lex_token(lexer_t *lx, asm_tok_t *t)
{
    int c = peek_at(lx, 0);
    if (c == '"')
        return lex_string(lx, t);
    if (c == '\'')
        return lex_char(lx, t);
    if (is_digit(c) || (c == '.' && is_digit(peek_at(lx, 1))))
        return lex_number(lx, t);
    if (asm_is_ident_start(c)) {
        while (asm_is_ident_char(peek_at(lx, 0)))
            lx->i++;
        t->kind = TK_IDENT;
        return true;
    }
    if (c == '%' && asm_is_ident_start(peek_at(lx, 1))) {
        lx->i++;
        while (asm_is_ident_char(peek_at(lx, 0)))
            lx->i++;
        t->kind = TK_FUNC;
        return true;
    }
    return lex_punct(lx, t);
}

bool asm_lex_line(asm_t *as, const asm_line_t *line)
{
    lexer_t lx = {as, line, line->text, line->len, 0};
    as->ntoks = 0;
    for (;;) {
        while (lx.i < lx.n && (lx.s[lx.i] == ' ' || lx.s[lx.i] == '\t' || lx.s[lx.i] == '\r' || lx.s[lx.i] == '\f' ||
                               lx.s[lx.i] == '\v'))
            lx.i++;
        bool comment = peek_at(&lx, 0) == '#' || (peek_at(&lx, 0) == '/' && peek_at(&lx, 1) == '/');
        asm_tok_t *t = ASM_PUSH(as, as->toks, as->ntoks, as->toks_cap);
        memset(t, 0, sizeof *t);
        t->off = (uint32_t)lx.i;
        t->col = line->loc.col + (uint32_t)lx.i;
        t->text = lx.s + lx.i;
        if (lx.i >= lx.n || comment) {
            t->kind = TK_EOL;
            return true;
        }
        if (!lex_token(&lx, t)) {
            t->kind = TK_EOL;
            t->end = t->off;
            return false;
        }
        t->end = (uint32_t)lx.i;
        t->len = t->end - t->off;
    }
}

bool asm_tok_is(const asm_tok_t *t, const char *ident)
{
    return t->kind == TK_IDENT && strlen(ident) == t->len && memcmp(t->text, ident, t->len) == 0;
}

bool asm_tok_punct(const asm_tok_t *t, int p)
{
    return t->kind == TK_PUNCT && t->punct == p;
}

const char *asm_tok_describe(asm_t *as, const asm_tok_t *t)
{
    if (t->kind == TK_EOL)
        return "end of line";
    if (t->kind == TK_STRING)
        return "string";
    int n = t->len > 40 ? 40 : (int)t->len;
    return asm_printf(as, "'%.*s'", n, t->text);
}

const asm_tok_t *asm_cur(const asm_cursor_t *c)
{
    return &c->t[c->i < c->end ? c->i : c->end];
}

bool asm_at_end(const asm_cursor_t *c)
{
    return c->i >= c->end;
}

asm_loc_t asm_tok_loc(const asm_cursor_t *c, const asm_tok_t *t)
{
    asm_loc_t l = c->line->loc;
    l.col = t->col;
    return l;
}

asm_loc_t asm_cur_loc(const asm_cursor_t *c)
{
    return asm_tok_loc(c, asm_cur(c));
}

bool asm_accept_punct(asm_cursor_t *c, int p)
{
    if (!asm_at_end(c) && asm_tok_punct(asm_cur(c), p)) {
        c->i++;
        return true;
    }
    return false;
}

bool asm_expect_end(asm_cursor_t *c, const char *what)
{
    if (asm_at_end(c))
        return true;
    asm_error(c->as, asm_cur_loc(c), "unexpected %s after %s", asm_tok_describe(c->as, asm_cur(c)), what);
    return false;
}

void asm_skip_to_comma(asm_cursor_t *c)
{
    int depth = 0;
    while (!asm_at_end(c)) {
        const asm_tok_t *t = asm_cur(c);
        if (t->kind == TK_PUNCT && (t->punct == '(' || t->punct == '['))
            depth++;
        else if (t->kind == TK_PUNCT && (t->punct == ')' || t->punct == ']'))
            depth--;
        else if (depth <= 0 && asm_tok_punct(t, ','))
            return;
        c->i++;
    }
}
