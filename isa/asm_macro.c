/* Macros and .rept: collecting their bodies, calling a macro with its arguments and substituting \name,
 * \@ (a number unique to each expansion) and \() (nothing, to join text) in each line as it is read. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

const asm_macro_t *asm_macro_lookup(asm_t *as, const char *name, size_t len)
{
    for (size_t i = 0; i < as->nmacros; i++)
        if (strlen(as->macros[i]->name) == len && memcmp(as->macros[i]->name, name, len) == 0)
            return as->macros[i];
    return NULL;
}

static void start_collect(asm_t *as, asm_collect_mode_t mode, const asm_line_t *line)
{
    asm_collect_t *c = &as->collect;
    c->mode = mode;
    c->nest = 0;
    c->src_depth = as->nsrcs;
    c->loc = line->loc;
    c->macro = NULL;
    c->count = 0;
    c->lines = NULL; /* each body gets an arena copy when it ends */
    c->n = 0;
    c->cap = 0;
}

static void finish_collect(asm_t *as)
{
    asm_collect_t *c = &as->collect;
    asm_line_t *body = NULL;
    if (c->n) {
        body = asm_alloc(as, c->n * sizeof *body);
        memcpy(body, c->lines, c->n * sizeof *body);
    }
    free(c->lines);
    c->lines = NULL;
    c->mode = COLLECT_NONE;
    if (c->macro != NULL) {
        c->macro->body = body;
        c->macro->nbody = c->n;
        *ASM_PUSH(as, as->macros, as->nmacros, as->macros_cap) = c->macro;
    } else if (c->count > 0) {
        asm_push_lines(as, body, c->n, c->count, NULL);
    }
    c->n = 0;
    c->cap = 0;
}

void asm_collect_line(asm_t *as, const asm_line_t *line, const char *word)
{
    asm_collect_t *c = &as->collect;
    bool macro = c->mode == COLLECT_MACRO;
    if (strcmp(word, macro ? ".macro" : ".rept") == 0) {
        c->nest++;
    } else if (strcmp(word, macro ? ".endm" : ".endr") == 0) {
        if (c->nest == 0) {
            finish_collect(as);
            return;
        }
        c->nest--;
    }
    *ASM_PUSH(as, c->lines, c->n, c->cap) = *line;
}

/* Text of tokens [from, to) of the current line, as written. */
static char *token_text(asm_t *as, const asm_line_t *line, const asm_tok_t *from, const asm_tok_t *to)
{
    if (from >= to)
        return asm_strdup(as, "");
    return asm_strndup(as, line->text + from->off, to[-1].end - from->off);
}

static bool parse_params(asm_t *as, asm_cursor_t *c, asm_macro_t *m)
{
    size_t cap = c->end - c->i + 1;
    m->params = asm_alloc(as, cap * sizeof *m->params);
    m->defaults = asm_alloc(as, cap * sizeof *m->defaults);
    while (!asm_at_end(c)) {
        const asm_tok_t *t = asm_cur(c);
        if (t->kind != TK_IDENT || memchr(t->text, '.', t->len) != NULL) {
            asm_error(as, asm_cur_loc(c), "expected a parameter name, found %s", asm_tok_describe(as, t));
            return false;
        }
        for (size_t k = 0; k < m->nparams; k++)
            if (strlen(m->params[k]) == t->len && memcmp(m->params[k], t->text, t->len) == 0) {
                asm_error(as, asm_cur_loc(c), "parameter '%.*s' appears twice", (int)t->len, t->text);
                return false;
            }
        m->params[m->nparams] = asm_strndup(as, t->text, t->len);
        c->i++;
        if (asm_accept_punct(c, '=')) {
            size_t from = c->i;
            while (!asm_at_end(c) && !asm_tok_punct(asm_cur(c), ','))
                c->i++;
            m->defaults[m->nparams] = token_text(as, c->line, &c->t[from], &c->t[c->i]);
        }
        m->nparams++;
        if (!asm_at_end(c) && !asm_accept_punct(c, ',')) {
            asm_error(as, asm_cur_loc(c), "expected ',' between macro parameters, found %s",
                      asm_tok_describe(as, asm_cur(c)));
            return false;
        }
    }
    return true;
}

void asm_start_macro(asm_t *as, const asm_line_t *line)
{
    start_collect(as, COLLECT_MACRO, line);
    if (!asm_lex_line(as, line))
        return;
    asm_cursor_t c = {as, line, as->toks, 1, as->ntoks - 1, 0};
    const asm_tok_t *t = asm_cur(&c);
    if (asm_at_end(&c) || t->kind != TK_IDENT) {
        asm_error(as, asm_cur_loc(&c), ".macro needs a name");
        return;
    }
    asm_loc_t at = asm_cur_loc(&c);
    const asm_macro_t *old = asm_macro_lookup(as, t->text, t->len);
    if (old != NULL) {
        asm_error(as, at, "macro '%s' is already defined (at %s:%u:%u)", old->name, asm_file_name(as, old->def.file),
                  old->def.line, old->def.col);
        return;
    }
    if (asm_is_directive(t->text, t->len)) {
        asm_error(as, at, "'%.*s' is a directive and cannot be a macro name", (int)t->len, t->text);
        return;
    }
    asm_macro_t *m = asm_alloc(as, sizeof *m);
    m->name = asm_strndup(as, t->text, t->len);
    m->def = at;
    c.i++;
    asm_accept_punct(&c, ',');
    if (parse_params(as, &c, m))
        as->collect.macro = m;
}

void asm_start_rept(asm_t *as, const asm_line_t *line)
{
    start_collect(as, COLLECT_REPT, line);
    if (!asm_lex_line(as, line))
        return;
    asm_cursor_t c = {as, line, as->toks, 1, as->ntoks - 1, 0};
    const asm_expr_t *e = asm_parse_expr_all(&c);
    int64_t n;
    if (e == NULL || !asm_eval_now(as, e, &n))
        return;
    if (n < 0 || (uint64_t)n > as->max_lines) {
        asm_error(as, e->loc, ".rept count %lld out of range (0 to %llu)", (long long)n,
                  (unsigned long long)as->max_lines);
        return;
    }
    as->collect.count = (uint64_t)n;
}

static bool bind_arg(asm_t *as, const asm_macro_t *m, char **args, size_t k, char *text, asm_loc_t at)
{
    if (args[k] != NULL) {
        asm_error(as, at, "argument '%s' of macro '%s' given twice", m->params[k], m->name);
        return false;
    }
    args[k] = text;
    return true;
}

/* Positional arguments, or name=value; a blank argument takes the default. */
static bool parse_args(asm_t *as, const asm_macro_t *m, asm_cursor_t *c, char **args)
{
    size_t pos = 0;
    while (!asm_at_end(c)) {
        size_t from = c->i;
        asm_skip_to_comma(c);
        const asm_tok_t *first = &c->t[from];
        asm_loc_t at = asm_tok_loc(c, first);
        size_t key = m->nparams;
        if (c->i - from >= 2 && first->kind == TK_IDENT && asm_tok_punct(first + 1, '='))
            for (size_t k = 0; k < m->nparams; k++)
                if (asm_tok_is(first, m->params[k]))
                    key = k;
        if (key < m->nparams) {
            if (!bind_arg(as, m, args, key, token_text(as, c->line, first + 2, &c->t[c->i]), at))
                return false;
        } else if (pos >= m->nparams) {
            asm_error(as, at, "too many arguments for macro '%s' (it takes %zu)", m->name, m->nparams);
            return false;
        } else {
            char *text = token_text(as, c->line, first, &c->t[c->i]);
            if (text[0] != '\0' && !bind_arg(as, m, args, pos, text, at))
                return false;
            pos++;
        }
        if (!asm_at_end(c))
            c->i++; /* the comma */
    }
    return true;
}

void asm_call_macro(asm_t *as, const asm_macro_t *m, asm_cursor_t *c, asm_loc_t loc)
{
    if (as->macro_depth >= ASM_MAX_MACRO_DEPTH) {
        asm_error(as, loc, "macro calls nested more than %d deep (does '%s' call itself?)", ASM_MAX_MACRO_DEPTH,
                  m->name);
        return;
    }
    char **args = asm_alloc(as, (m->nparams + 1) * sizeof *args);
    if (!parse_args(as, m, c, args))
        return;
    for (size_t k = 0; k < m->nparams; k++) {
        if (args[k] == NULL)
            args[k] = m->defaults[k];
        if (args[k] == NULL) {
            asm_error(as, loc, "macro '%s' needs a value for parameter '%s'", m->name, m->params[k]);
            return;
        }
    }
    if (m->nbody == 0)
        return;
    asm_expansion_t *exp = asm_alloc(as, sizeof *exp);
    exp->macro = m->name;
    exp->call = loc;
    asm_push_lines(as, m->body, m->nbody, 1, exp);
    asm_source_t *s = &as->srcs[as->nsrcs - 1];
    s->macro = m;
    s->args = args;
    s->counter = as->macro_counter++;
    as->macro_depth++;
}

static bool is_param_char(int c)
{
    return asm_is_ident_char(c) && c != '.';
}

char *asm_macro_substitute(asm_t *as, const asm_source_t *s, const asm_line_t *line, size_t *len)
{
    const asm_macro_t *m = s->macro;
    const char *t = line->text;
    size_t n = line->len, out = 0, cap = n + 1;
    char *buf = asm_alloc(as, cap);
    for (size_t i = 0; i < n;) {
        const char *piece = t + i;
        size_t plen = 1, skip = 1;
        char num[24];
        if (t[i] == '\\' && i + 1 < n) {
            if (t[i + 1] == '@') {
                plen = (size_t)snprintf(num, sizeof num, "%lu", s->counter);
                piece = num;
                skip = 2;
            } else if (t[i + 1] == '(' && i + 2 < n && t[i + 2] == ')') {
                plen = 0;
                skip = 3;
            } else if (is_param_char((unsigned char)t[i + 1])) {
                size_t j = i + 1;
                while (j < n && is_param_char((unsigned char)t[j]))
                    j++;
                for (size_t k = 0; k < m->nparams; k++)
                    if (strlen(m->params[k]) == j - i - 1 && memcmp(m->params[k], t + i + 1, j - i - 1) == 0) {
                        piece = s->args[k];
                        plen = strlen(piece);
                        skip = j - i;
                    }
            }
        }
        if (out + plen + 1 > cap) {
            size_t ncap = (out + plen + 1) * 2;
            char *nb = asm_alloc(as, ncap);
            memcpy(nb, buf, out);
            buf = nb;
            cap = ncap;
        }
        memcpy(buf + out, piece, plen);
        out += plen;
        i += skip;
    }
    buf[out] = '\0';
    *len = out;
    return buf;
}
