/* Scripts: `source FILE` and `iwarp debug -x FILE` run command files; `expect` and `assert` turn them into
 * regression tests (a failed check, or an error no `expect` checked, makes `-x` exit with status 1). Also the
 * small session commands: echo, set, quit. */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "file.h"

int dbg_read_stream(dbg_t *d, FILE *in, const char *name)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    /* A sourced script's errors name it; the one that sourced it takes over again after. */
    const char *outer = d->script;
    unsigned outer_line = d->script_line;
    d->script = name;
    d->script_line = 0;
    while (!d->quit && (len = getline(&line, &cap, in)) >= 0) {
        d->script_line++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        dbg_execute(d, line);
    }
    free(line);
    d->script = outer;
    d->script_line = outer_line;
    return 0;
}

int dbg_source_file(dbg_t *d, const char *path)
{
    if (d->depth >= DBG_MAX_SOURCE_DEPTH)
        return dbg_error(d, "source: scripts nested more than %d deep", DBG_MAX_SOURCE_DEPTH);
    const char *why;
    FILE *f = file_open_read(path, &why);
    if (f == NULL)
        return dbg_error(d, "cannot read script '%s': %s", path, why);
    d->depth++;
    dbg_read_stream(d, f, path);
    d->depth--;
    fclose(f);
    return 0;
}

int dbg_cmd_source(dbg_t *d, char *args)
{
    char *path = dbg_trim(args);
    if (*path == '\0')
        return dbg_error(d, "usage: source FILE");
    char *copy = strdup(path); /* the line buffer is reused by the commands of the script */
    if (copy == NULL)
        return dbg_error(d, "out of memory");
    int rc = dbg_source_file(d, copy);
    free(copy);
    return rc;
}

/* Text without surrounding double quotes (so leading or trailing blanks can be expected). */
static char *unquote(char *s)
{
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s[n - 1] = '\0';
        return s + 1;
    }
    return s;
}

int dbg_cmd_expect(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    bool negate = strncmp(text, "not ", 4) == 0;
    if (negate)
        text = dbg_trim(text + 4);
    text = unquote(text);
    if (*text == '\0')
        return dbg_error(d, "usage: expect [not] TEXT  (checks the output of the previous command)");
    bool found = false;
    if (d->capture.s != NULL) {
        char saved = d->capture.s[d->expect_len]; /* only what the checked command printed */
        d->capture.s[d->expect_len] = '\0';
        found = strstr(d->capture.s, text) != NULL;
        d->capture.s[d->expect_len] = saved;
    } else {
        found = strstr("", text) != NULL;
    }
    if (found != negate) {
        d->error_pending = false; /* the error was expected */
        return 0;
    }
    d->failures++;
    d->error_pending = false;
    dbg_printf(d, "expect failed: '%s' %s the output of the previous command\n", text, negate ? "is in" : "is not in");
    return 0;
}

/* When a failed assertion is a comparison at its top level ("a0 == 19998"), the value of each side, so the
 * message says what the state was: " (a0 is 12, 19998 is 19998)". Nothing otherwise. */
static void comparison_values(dbg_t *d, const char *text, char *out, size_t cap)
{
    static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
    int depth = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if (*p == ')' || *p == ']')
            depth--;
        if (depth != 0)
            continue;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            size_t n = strlen(ops[k]);
            /* "<<" and ">>" are shifts, and "<=" must not be taken for "<" */
            if (strncmp(p, ops[k], n) != 0 || (n == 1 && (p[1] == p[0] || p[1] == '=')) ||
                (n == 1 && p > text && (p[-1] == p[0] || p[-1] == '!' || p[-1] == '=')))
                continue;
            char *left = strndup(text, (size_t)(p - text)), *right = strdup(p + n);
            int64_t lv, rv;
            char err[128];
            expr_t *le = left != NULL ? expr_parse(left, err, sizeof err) : NULL;
            expr_t *re = right != NULL ? expr_parse(right, err, sizeof err) : NULL;
            if (le != NULL && re != NULL && dbg_eval(d, le, d->sel, &lv, err, sizeof err) == 0 &&
                dbg_eval(d, re, d->sel, &rv, err, sizeof err) == 0)
                snprintf(out, cap, " (%s is %lld, %s is %lld)", dbg_trim(left), (long long)lv, dbg_trim(right),
                         (long long)rv);
            expr_free(le);
            expr_free(re);
            free(left);
            free(right);
            return;
        }
    }
}

int dbg_cmd_assert(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    if (*text == '\0')
        return dbg_error(d, "usage: assert EXPRESSION");
    int64_t v;
    if (dbg_eval_text(d, text, d->sel, &v) != 0)
        return -1;
    if (v == 0) {
        d->failures++;
        char values[160] = "";
        comparison_values(d, text, values, sizeof values);
        dbg_printf(d, "assert failed on (%u,%u) at clock %llu: %s%s\n", dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel),
                   (unsigned long long)emu_array_clock(d->a), text, values);
    }
    return 0;
}

int dbg_cmd_echo(dbg_t *d, char *args)
{
    dbg_printf(d, "%s\n", unquote(dbg_trim(args)));
    return 0;
}

int dbg_cmd_quit(dbg_t *d, char *args)
{
    (void)args;
    d->quit = true;
    return 0;
}

/* set [X,Y] REGISTER = EXPRESSION, set [X,Y] [ADDRESS] = EXPRESSION: the state changes, and history starts
 * there (time travel cannot replay through a change it did not make; dbg_history_restart). */
static int set_state(dbg_t *d, char *args, char *eq)
{
    *eq = '\0';
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    char *target = dbg_trim(args), *value_text = dbg_trim(eq + 1);
    int64_t v;
    if (dbg_eval_text(d, value_text, cell, &v) != 0)
        return -1;
    unsigned x = dbg_cell_x(d, cell), y = dbg_cell_y(d, cell);
    size_t n = strlen(target);
    if (n > 2 && target[0] == '[' && target[n - 1] == ']') {
        target[n - 1] = '\0';
        int64_t addr;
        if (dbg_eval_text(d, target + 1, cell, &addr) != 0)
            return -1;
        uint32_t w = (uint32_t)v;
        if (addr < 0 || addr % 4 != 0 || emu_array_poke(d->a, x, y, (uint32_t)addr, &w, 4) != 0)
            return dbg_error(d, "set: [0x%llx] is not a word of the memory of (%u,%u)", (unsigned long long)addr, x, y);
        dbg_printf(d, "(%u,%u) [0x%llx] = 0x%08x\n", x, y, (unsigned long long)addr, w);
    } else {
        int r = isa_reg_parse(target, strlen(target));
        if (r <= ISA_REG_ZERO)
            return dbg_error(d, "set: '%s' is no register (r1..r127, ra, sp, a0..a7) nor [ADDRESS]", target);
        if (emu_array_set_reg(d->a, x, y, (unsigned)r, (uint32_t)v) != 0)
            return dbg_error(d, "set: r%d cannot be set", r);
        char name[8];
        dbg_printf(d, "(%u,%u) %s = 0x%08x\n", x, y, isa_reg_name((unsigned)r, name), (uint32_t)v);
    }
    dbg_history_restart(d);
    return 0;
}

int dbg_cmd_set(dbg_t *d, char *args)
{
    char *eq = strchr(args, '=');
    if (eq != NULL && (eq == args || (eq[-1] != '=' && eq[-1] != '!' && eq[-1] != '<' && eq[-1] != '>')))
        return set_state(d, args, eq);
    return dbg_set_setting(d, args);
}
