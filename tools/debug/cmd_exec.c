/* Execution control: run, continue, step, next, until, finish. Each builds a goal for the engine and reports where
 * the run stopped. */
#include <string.h>

#include "dbg.h"

static int check_live(dbg_t *d)
{
    if (!d->ended)
        return 0;
    return dbg_error(d, "the run is over (%s at clock %llu): `run` starts it again, `goto`/`reverse-step` go back",
                     emu_run_status_name(d->status), (unsigned long long)emu_array_clock(d->a));
}

/* An optional count: "N" (default `def`). Returns 0 or -1. */
static int count_arg(dbg_t *d, char **args, uint64_t def, uint64_t *n, const char *usage)
{
    *n = def;
    char *w = dbg_word(args);
    if (w == NULL)
        return 0;
    if (dbg_parse_u64(w, n) != 0 || *n == 0)
        return dbg_error(d, "usage: %s (N a positive number, not '%s')", usage, w);
    return 0;
}

static dbg_goal_t goal_points(void)
{
    dbg_goal_t g = dbg_goal(UINT64_MAX);
    g.points = true;
    return g;
}

static int go(dbg_t *d, const dbg_goal_t *g)
{
    uint64_t from = emu_array_clock(d->a);
    if (g->track_cell >= 0)
        dbg_gap_start(d, (unsigned)g->track_cell);
    dbg_run(d, g);
    if (g->track_cell >= 0) {
        dbg_gap_end(d);
        dbg_gap_report(d, (unsigned)g->track_cell, "on", emu_array_clock(d->a) - from);
    }
    dbg_report_stop(d);
    return 0;
}

int dbg_cmd_continue(dbg_t *d, char *args)
{
    uint64_t n;
    if (count_arg(d, &args, 0, &n, "continue [CLOCKS]") != 0 || check_live(d) != 0)
        return -1;
    if (dbg_word(&args) != NULL)
        return dbg_error(d, "usage: continue [CLOCKS]");
    dbg_goal_t g = goal_points();
    if (n > 0)
        g.limit = emu_array_clock(d->a) + n;
    return go(d, &g);
}

int dbg_cmd_run(dbg_t *d, char *args)
{
    if (emu_array_clock(d->a) > 0 || d->ended) {
        if (dbg_restore(d, d->ring.v[0].snap, true) != 0)
            return -1;
        emu_snapshot_free(d->edit_snap); /* a new run: the program as loaded, whatever `set` changed */
        d->edit_snap = NULL;
        d->output_high = 0; /* a new run shows its output again */
        dbg_printf(d, "restarted at clock 0\n");
    }
    return dbg_cmd_continue(d, args);
}

static bool cell_live(const ca_t *ca)
{
    return ca->s.state == CA_RUNNING || ca->s.state == CA_WAITING;
}

/* The unit of step N clocks and reverse-step N clocks, which their completion offers; "clock" is taken too. */
static const char clocks_unit[] = "clocks";

bool dbg_is_clocks(const char *word)
{
    size_t n = strlen(word);
    return (n == sizeof clocks_unit - 1 || n == sizeof clocks_unit - 2) && strncmp(word, clocks_unit, n) == 0;
}

void dbg_complete_steps(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)d;
    (void)line;
    dbg_words_add(words, text, clocks_unit);
}

int dbg_cmd_step(dbg_t *d, char *args)
{
    uint64_t n;
    if (count_arg(d, &args, 1, &n, "step [N] [clocks]") != 0 || check_live(d) != 0)
        return -1;
    char *unit = dbg_word(&args);
    bool clocks = unit != NULL && dbg_is_clocks(unit);
    if ((unit != NULL && !clocks) || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: step [N] [clocks]");
    dbg_goal_t g = goal_points();
    if (clocks) {
        g.limit = emu_array_clock(d->a) + n;
    } else {
        const ca_t *ca = dbg_ca(d, d->sel);
        if (!cell_live(ca))
            return dbg_error(d, "(%u,%u) is %s: `cell X,Y` selects another, `step N clocks` steps the whole array",
                             dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel), dbg_state_text(ca));
        g.step_cell = (int)d->sel;
        g.step_bundles = ca->s.stats.bundles + n;
        g.track_cell = (int)d->sel;
    }
    return go(d, &g);
}

static bool is_call(const ca_t *ca)
{
    const emu_bundle_t *b = ca->prog ? emu_program_bundle(ca->prog, ca->s.pc) : NULL;
    for (unsigned i = 0; b != NULL && i < b->count; i++) {
        const isa_op_info_t *info = isa_op_info(ca->prog->ops[b->first_op + i].opcode);
        if (info != NULL && (info->flags & ISA_F_LINK))
            return true;
    }
    return false;
}

int dbg_cmd_next(dbg_t *d, char *args)
{
    uint64_t n;
    if (count_arg(d, &args, 1, &n, "next [N]") != 0 || check_live(d) != 0)
        return -1;
    if (dbg_word(&args) != NULL)
        return dbg_error(d, "usage: next [N]");
    unsigned cell = d->sel;
    uint64_t from = emu_array_clock(d->a);
    dbg_gap_start(d, cell);
    for (uint64_t k = 0; k < n; k++) {
        const ca_t *ca = dbg_ca(d, cell);
        if (!cell_live(ca))
            return dbg_error(d, "(%u,%u) is %s", dbg_cell_x(d, cell), dbg_cell_y(d, cell), dbg_state_text(ca));
        dbg_goal_t g = goal_points();
        g.track_cell = (int)cell;
        if (is_call(ca)) {
            /* Over the call: the call opens one level, its matching ret closes it. */
            g.ret = true;
            g.ret_cell = cell;
            g.ret_depth = -1;
        } else {
            g.step_cell = (int)cell;
            g.step_bundles = ca->s.stats.bundles + 1;
        }
        dbg_reason_t r = dbg_run(d, &g);
        if ((r != DBG_STOP_STEP && r != DBG_STOP_RETURN) || k + 1 == n)
            break;
    }
    dbg_gap_end(d);
    dbg_gap_report(d, cell, "on", emu_array_clock(d->a) - from);
    dbg_report_stop(d);
    return 0;
}

int dbg_cmd_finish(dbg_t *d, char *args)
{
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: finish");
    if (check_live(d) != 0)
        return -1;
    const ca_t *ca = dbg_ca(d, d->sel);
    if (!cell_live(ca))
        return dbg_error(d, "(%u,%u) is %s", dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel), dbg_state_text(ca));
    /* Until the cell issues the ret that ends this function: calls it makes meanwhile open and close levels. */
    dbg_goal_t g = goal_points();
    g.ret = true;
    g.ret_cell = d->sel;
    g.ret_depth = 0;
    const emu_program_t *p = ca->prog;
    const isa_symbol_t *f = isa_image_symbol_before(&p->image, ca->s.pc);
    /* The function the loader started is the outermost frame: it has nothing to return to (gdb says the same). */
    if (dbg_function_start(ca, ca->s.pc) == p->image.entry) {
        const isa_symbol_t *entry = isa_image_symbol_before(&p->image, p->image.entry);
        return dbg_error(d, "\"finish\" not meaningful in the outermost frame: (%u,%u) is in %s, where it started",
                         dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel), entry != NULL ? entry->name : "the entry");
    }
    dbg_printf(d, "running until (%u,%u) returns from %s\n", dbg_cell_x(d, d->sel), dbg_cell_y(d, d->sel),
               f ? f->name : "the current function");
    return go(d, &g);
}

int dbg_cmd_until(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    if (*text == '\0')
        return dbg_error(d, "usage: until CONDITION  (an expression on the selected cell, e.g. until r5 >= 10)");
    if (check_live(d) != 0)
        return -1;
    char err[256];
    expr_t *e = expr_parse(text, err, sizeof err);
    if (e == NULL)
        return dbg_error(d, "%s", err);
    int64_t v;
    if (dbg_eval(d, e, d->sel, &v, err, sizeof err) != 0) {
        expr_free(e);
        return dbg_error(d, "%s", err);
    }
    dbg_goal_t g = goal_points();
    g.until = e;
    int rc = go(d, &g);
    expr_free(e);
    return rc;
}
