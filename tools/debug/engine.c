/*
 * The engine: runs the array through emu_array_run with hooks that look before and after each clock and decide
 * whether to stop. Nothing here writes to the array, so a run stopped anywhere and resumed is the run that
 * never stopped (tests/debug/test_state_hash.c checks it against `iwarp run --state-hash-at`).
 *
 * Breakpoints fire before a clock: the cell has not issued the bundle yet. Everything else (steps, watches,
 * events, until) is seen after a clock, by comparing state, and stops before the next one.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* The only statics of the console. A signal handler receives no context pointer, so the array to stop must be
 * reachable from a static; it is set only while a run is in progress. The flag also tells the prompt that
 * Ctrl-C was pressed while a line was being typed. */
static emu_array_t *volatile sigint_array;
static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig)
{
    (void)sig;
    sigint_seen = 1;
    emu_array_t *a = sigint_array;
    if (a != NULL)
        emu_array_request_stop(a); /* sets a flag the run loop tests before each clock */
}

void dbg_sigint_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: the console's select() returns so the prompt can react */
    sigaction(SIGINT, &sa, NULL);
}

bool dbg_sigint_take(void)
{
    bool seen = sigint_seen != 0;
    sigint_seen = 0;
    return seen;
}

/* Reverse-continue counts stop events without stopping; an event stops at a clock, and only events that stop
 * before the present count (the one the session is stopped at does not). */
static void note_event_stop(dbg_t *d, uint64_t clock)
{
    if (d->goal->record_only != 0 && clock < d->goal->record_before)
        d->qualified_events = d->events;
}

/* A stop event (breakpoints before a clock, watches after): stops unless recording skips it. */
static bool event(dbg_t *d, bool after, uint64_t clock)
{
    d->events++;
    const dbg_goal_t *g = d->goal;
    if (g->record_only == 0 || d->events == g->record_only)
        return true;
    /* Recording: this one does not stop; its message would describe a stop that never happens. */
    dbg_stop_clear(d);
    d->reason = DBG_STOP_NONE;
    d->stop_cell = -1;
    if (after)
        d->event_after_pending = true;
    else
        note_event_stop(d, clock);
    return false;
}

/* Calls and returns of the cell `next`/`finish` follow, counted as it issues them: a saved and reloaded ra or
 * nested calls do not fool it. True when the `ret` that closes the call in progress has issued. */
static bool returned(dbg_t *d, const dbg_goal_t *g)
{
    const ca_t *ca = dbg_ca(d, g->ret_cell);
    if (ca->s.stats.bundles == d->track_bundles)
        return false;
    const emu_bundle_t *b = emu_program_bundle(ca->prog, d->track_pc);
    for (unsigned i = 0; b != NULL && i < b->count; i++) {
        const isa_op_t *op = &ca->prog->ops[b->first_op + i];
        const isa_op_info_t *info = isa_op_info(op->opcode);
        if (info != NULL && (info->flags & ISA_F_LINK))
            d->call_depth++;
        else if (op->opcode == ISA_OP_JR && op->rs1 == ISA_REG_LINK && d->call_depth-- == 0)
            return true;
    }
    return false;
}

static bool before_clock(void *user, emu_array_t *a, uint64_t clock)
{
    dbg_t *d = user;
    const dbg_goal_t *g = d->goal;
    (void)a;
    if (d->event_after_pending) {
        d->event_after_pending = false;
        note_event_stop(d, clock);
    }
    if (!g->replay && sigint_seen)
        return true; /* emu_array_run reports STOPPED; the engine calls it an interrupt */
    if (clock >= d->ring_due) {
        d->ring_stop = true;
        return true;
    }
    bool skip = clock == d->skip_clock;
    d->skip_clock = UINT64_MAX;
    if (g->ret) {
        const ca_t *ca = dbg_ca(d, g->ret_cell);
        d->track_pc = ca->s.pc;
        d->track_bundles = ca->s.stats.bundles;
    }
    if (g->points && !skip && dbg_has_breaks(d) && dbg_check_breaks(d, clock)) {
        if (d->reason == DBG_STOP_NONE)
            d->reason = DBG_STOP_POINT;
        if (event(d, false, clock))
            return true;
    }
    d->in_clock = true;
    d->clock_in_progress = clock;
    return false;
}

void dbg_gap_start(dbg_t *d, unsigned cell)
{
    memset(&d->gap, 0, sizeof d->gap);
    d->gap.bundles = dbg_ca(d, cell)->s.stats.bundles;
    d->gap.from = emu_array_clock(d->a);
}

/* A stretch without an instruction ends at `to`: the longest so far is kept. */
static void gap_close(dbg_gap_t *gap, uint64_t to)
{
    if (to <= gap->from)
        return;
    if (to - gap->from >= DBG_LONG_WAIT_CLOCKS)
        gap->nlong++;
    if (to - gap->from > gap->best_to - gap->best_from) {
        gap->best_from = gap->from;
        gap->best_to = to;
        memcpy(gap->best_what, gap->what, sizeof gap->what);
    }
}

/* After a clock: an instruction issued ends the stretch; a wait in it is described as it begins. */
static void gap_track(dbg_t *d, unsigned cell, uint64_t clock)
{
    const ca_t *ca = dbg_ca(d, cell);
    dbg_gap_t *gap = &d->gap;
    if (ca->s.stats.bundles != gap->bundles) {
        gap_close(gap, clock);
        gap->bundles = ca->s.stats.bundles;
        gap->from = clock + 1;
        gap->what[0] = '\0';
    } else if (gap->what[0] == '\0' && ca->s.state == CA_WAITING) {
        char where[96], line[64], why[320];
        dbg_addr_text(d, cell, ca->s.pc, where, sizeof where);
        dbg_line_text(d, cell, ca->s.pc, line, sizeof line);
        dbg_wait_text(d, cell, why, sizeof why);
        snprintf(gap->what, sizeof gap->what, "at %s%s%s it %s", where, *line ? " " : "", line, why);
    }
}

void dbg_gap_end(dbg_t *d)
{
    gap_close(&d->gap, emu_array_clock(d->a));
    d->gap.from = emu_array_clock(d->a);
}

void dbg_gap_report(dbg_t *d, unsigned cell, const char *verb, uint64_t clocks)
{
    const dbg_gap_t *gap = &d->gap;
    if (gap->best_to - gap->best_from < DBG_LONG_WAIT_CLOCKS)
        return;
    char more[48] = "";
    if (gap->nlong > 1)
        snprintf(more, sizeof more, ", the longest of %u", gap->nlong);
    dbg_printf(d,
               "went %s %llu clocks, across a wait of %llu clocks (clock %llu to %llu%s) in which (%u,%u) issued "
               "nothing:\n",
               verb, (unsigned long long)clocks, (unsigned long long)(gap->best_to - gap->best_from),
               (unsigned long long)gap->best_from, (unsigned long long)gap->best_to, more, dbg_cell_x(d, cell),
               dbg_cell_y(d, cell));
    if (gap->best_what[0] != '\0')
        dbg_printf(d, "  %s\n", gap->best_what);
}

static bool after_clock(void *user, emu_array_t *a, uint64_t clock)
{
    dbg_t *d = user;
    const dbg_goal_t *g = d->goal;
    (void)a;
    d->in_clock = false;
    d->last_after_clock = clock;
    if (clock + 1 > d->output_high)
        d->output_high = clock + 1;
    dbg_log_marks(d, clock);
    if (g->track_cell >= 0)
        gap_track(d, (unsigned)g->track_cell, clock);
    if (d->phases != NULL && clock >= d->phases_high) { /* a replayed clock is in the account already */
        d->phases_high = clock + 1;
        phase_account_observe(d->phases, clock);
    }
    bool stop = false;
    if (g->ret && returned(d, g)) {
        d->reason = DBG_STOP_RETURN;
        d->stop_cell = (int)g->ret_cell;
        stop = true;
    }
    if (g->step_cell >= 0 && dbg_ca(d, (unsigned)g->step_cell)->s.stats.bundles >= g->step_bundles) {
        d->reason = DBG_STOP_STEP;
        d->stop_cell = g->step_cell;
        stop = true;
    }
    if (g->points && dbg_has_watches(d) && dbg_check_watches(d, clock)) {
        if (d->reason == DBG_STOP_NONE || d->reason == DBG_STOP_STEP)
            d->reason = DBG_STOP_POINT;
        stop |= event(d, true, clock);
    }
    if (g->until != NULL) {
        int64_t v;
        char err[256];
        if (dbg_eval(d, g->until, d->sel, &v, err, sizeof err) != 0) {
            dbg_str_printf(&d->stop_msg, "error in the until condition at clock %llu: %s\n", (unsigned long long)clock,
                           err);
            d->reason = DBG_STOP_EVAL;
            stop = true;
        } else if (v != 0) {
            if (d->reason == DBG_STOP_NONE)
                d->reason = DBG_STOP_UNTIL;
            dbg_str_printf(&d->stop_msg, "until: the condition holds after clock %llu\n", (unsigned long long)clock);
            stop = true;
        }
    }
    return stop;
}

void dbg_on_output(void *user, unsigned x, unsigned y, const char *text)
{
    dbg_t *d = user;
    dbg_str_t *pend = &d->pending[y * d->w + x];
    if (!d->in_clock) {
        /* Not inside a clock: the array flushed a partial line because a run ended at a clock limit. Hold it
         * until the rest of the line comes (replays drop it: it was held when that clock first ran). */
        if (d->goal == NULL || !d->goal->replay)
            dbg_str_add(pend, text, strlen(text));
        return;
    }
    if (d->clock_in_progress < d->output_high)
        return; /* a replayed clock: its output was printed the first time it ran */
    dbg_printf(d, "[%u,%u] %s%s\n", x, y, pend->s ? pend->s : "", text);
    dbg_str_clear(pend);
}

static void flush_pending(dbg_t *d)
{
    for (unsigned i = 0; i < d->ncells; i++)
        if (d->pending[i].len > 0) {
            dbg_printf(d, "[%u,%u] %s\n", dbg_cell_x(d, i), dbg_cell_y(d, i), d->pending[i].s);
            dbg_str_clear(&d->pending[i]);
        }
}

int dbg_restore(dbg_t *d, const emu_snapshot_t *s, bool settled)
{
    char err[256];
    if (emu_snapshot_restore(d->a, s, err, sizeof err) != 0)
        return dbg_error(d, "%s", err);
    d->settled = settled;
    d->skip_clock = UINT64_MAX;
    d->ended = true;
    for (unsigned i = 0; i < d->ncells; i++) {
        const ca_t *ca = dbg_ca(d, i);
        if (ca->s.state == CA_RUNNING || ca->s.state == CA_WAITING)
            d->ended = false;
        dbg_str_clear(&d->pending[i]); /* partial lines belong to the state left behind */
    }
    unsigned fx, fy;
    d->status = !d->ended ? EMU_RUN_LIMIT : emu_array_first_fault(d->a, &fx, &fy) ? EMU_RUN_FAULT : EMU_RUN_DONE;
    return 0;
}

dbg_goal_t dbg_goal(uint64_t limit)
{
    dbg_goal_t g;
    memset(&g, 0, sizeof g);
    g.limit = limit;
    g.step_cell = -1;
    g.track_cell = -1;
    return g;
}

dbg_reason_t dbg_run(dbg_t *d, const dbg_goal_t *g)
{
    d->goal = g;
    d->reason = DBG_STOP_NONE;
    d->stop_cell = -1;
    d->events = 0;
    d->qualified_events = 0;
    d->event_after_pending = false;
    d->ring_stop = false;
    dbg_stop_clear(d);
    for (unsigned i = 0; i < d->npoints; i++)
        d->points[i]->fired = false;
    uint64_t limit = g->limit < d->max_cycles ? g->limit : d->max_cycles;
    if (d->ended || emu_array_clock(d->a) >= limit) {
        d->reason = d->ended ? DBG_STOP_END : DBG_STOP_LIMIT;
        d->goal = NULL;
        return d->reason;
    }
    if (g->points)
        dbg_arm_watches(d);
    d->call_depth = g->ret_depth;
    emu_hooks_t hooks = {d, before_clock, after_clock};
    emu_array_set_hooks(d->a, &hooks);
    emu_run_status_t st;
    for (;;) {
        d->ring_due = dbg_ring_next(d);
        if (!g->replay)
            sigint_array = d->a;
        st = emu_array_run(d->a, limit);
        sigint_array = NULL;
        if (st == EMU_RUN_STOPPED && d->ring_stop && d->reason == DBG_STOP_NONE) {
            d->ring_stop = false;
            dbg_ring_take(d);
            continue;
        }
        break;
    }
    emu_array_set_hooks(d->a, NULL);
    d->in_clock = false;
    d->status = st;
    if (d->event_after_pending) {
        d->event_after_pending = false;
        note_event_stop(d, emu_array_clock(d->a));
    }
    switch (st) {
    case EMU_RUN_DONE:
    case EMU_RUN_FAULT:
    case EMU_RUN_DEADLOCK:
    case EMU_RUN_LIVELOCK:
        d->ended = true;
        d->settled = true;
        if (!g->replay)
            flush_pending(d);
        if (d->reason == DBG_STOP_NONE)
            d->reason = DBG_STOP_END;
        break;
    case EMU_RUN_LIMIT:
        d->settled = true;
        if (d->reason == DBG_STOP_NONE)
            d->reason = DBG_STOP_LIMIT;
        break;
    case EMU_RUN_STOPPED:
        d->settled = false;
        if (d->reason == DBG_STOP_NONE)
            d->reason = DBG_STOP_INTERRUPT;
        break;
    }
    if (!g->replay && d->reason == DBG_STOP_INTERRUPT)
        dbg_sigint_take();
    /* Where the session stops is where the person looks: breakpoints there do not fire again on resuming. */
    if (d->reason == DBG_STOP_POINT || d->reason == DBG_STOP_STEP || d->reason == DBG_STOP_RETURN ||
        d->reason == DBG_STOP_UNTIL)
        d->skip_clock = emu_array_clock(d->a);
    if (d->stop_cell >= 0)
        d->sel = (unsigned)d->stop_cell;
    if (!g->replay) /* tbreak: gone once it has stopped the run (the message names it already) */
        for (unsigned i = d->npoints; i-- > 0;)
            if (d->points[i]->fired && d->points[i]->temporary)
                dbg_point_delete(d, d->points[i]->id);
    d->goal = NULL;
    return d->reason;
}

/* The first cell named in the deadlock report, so the session selects a cell of the wait cycle. */
static int deadlock_cell(dbg_t *d)
{
    const char *p = strstr(emu_array_deadlock(d->a), "(");
    unsigned x, y;
    if (p != NULL && sscanf(p, "(%u,%u)", &x, &y) == 2 && x < d->w && y < d->h)
        return (int)(y * d->w + x);
    return -1;
}

/* Where the first "(x,y)" of a line is: its offset and length, or false. */
static bool cell_in(const char *line, size_t n, size_t *at, size_t *len)
{
    for (size_t i = 0; i < n; i++) {
        unsigned x, y;
        int used = 0;
        if (line[i] == '(' && sscanf(line + i, "(%u,%u)%n", &x, &y, &used) == 2 && used > 0 && (size_t)used <= n - i) {
            *at = i;
            *len = (size_t)used;
            return true;
        }
    }
    return false;
}

void dbg_stop_clear(dbg_t *d)
{
    dbg_str_clear(&d->stop_msg);
    d->nhits = 0;
}

void dbg_note_catch(dbg_t *d, const dbg_point_t *p, unsigned cell, uint32_t value, uint64_t clock)
{
    if (d->nhits == d->hits_cap) {
        size_t cap = d->hits_cap ? 2 * d->hits_cap : 64;
        dbg_catch_hit_t *grown = realloc(d->hits, cap * sizeof *grown);
        if (grown == NULL)
            return; /* the line is printed all the same, only not summed up */
        d->hits = grown;
        d->hits_cap = cap;
    }
    d->hits[d->nhits++] = (dbg_catch_hit_t){p->id, p->event, cell, value, clock, d->stop_msg.len};
}

enum { SUMMARY_MIN_LINES = 4 }; /* runs of this many lines about one point and many cells are summed up */

/* One line for the hits of catchpoint `point` in this stop: how many, on how many cells, what happened. */
static void catch_summary(dbg_t *d, unsigned point, unsigned count)
{
    unsigned cells = 0, lo = UINT32_MAX, hi = 0;
    bool same = true;
    const dbg_catch_hit_t *first = NULL;
    for (size_t k = 0; k < d->nhits; k++) {
        const dbg_catch_hit_t *h = &d->hits[k];
        if (h->point != point)
            continue;
        if (first == NULL)
            first = h;
        same &= h->value == first->value;
        bool seen = false; /* a cell counts once, however many of its pathways opened */
        for (size_t j = 0; j < k && !seen; j++)
            seen = d->hits[j].point == point && d->hits[j].cell == h->cell;
        cells += !seen;
        lo = h->cell < lo ? h->cell : lo;
        hi = h->cell > hi ? h->cell : hi;
    }
    char what[96];
    switch (first->event) {
    case DBG_CATCH_OPEN: snprintf(what, sizeof what, "%u pathways opened", count); break;
    case DBG_CATCH_CLOSE: snprintf(what, sizeof what, "%u pathways closed", count); break;
    case DBG_CATCH_PHASE:
        if (same)
            snprintf(what, sizeof what, "phase %u begins", first->value);
        else
            snprintf(what, sizeof what, "%u phases begin", count);
        break;
    case DBG_CATCH_SEND: snprintf(what, sizeof what, "%u messages sent", count); break;
    case DBG_CATCH_RECEIVE: snprintf(what, sizeof what, "%u messages received", count); break;
    default: snprintf(what, sizeof what, "%u marks", count); break;
    }
    if (cells == 1)
        dbg_printf(d, "catchpoint %u on (%u,%u) at clock %llu: %s; `info catch` lists them\n", point, dbg_cell_x(d, lo),
                   dbg_cell_y(d, lo), (unsigned long long)first->clock, what);
    else
        dbg_printf(d, "catchpoint %u on %u cells, (%u,%u) to (%u,%u), at clock %llu: %s; `info catch` lists them\n",
                   point, cells, dbg_cell_x(d, lo), dbg_cell_y(d, lo), dbg_cell_x(d, hi), dbg_cell_y(d, hi),
                   (unsigned long long)first->clock, what);
}

/* The catchpoint lines of this stop, for `info catch`. */
static void keep_catch_list(dbg_t *d)
{
    if (d->nhits == 0)
        return;
    dbg_str_clear(&d->catch_list);
    d->catch_clock = d->hits[0].clock;
    for (size_t k = 0; k < d->nhits; k++) {
        const char *line = d->stop_msg.s + d->hits[k].at, *end = d->stop_msg.s + d->stop_msg.len;
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        dbg_str_add(&d->catch_list, line, eol != NULL ? (size_t)(eol - line) + 1 : (size_t)(end - line));
    }
}

void dbg_info_catch(dbg_t *d)
{
    if (d->catch_list.len == 0) {
        dbg_printf(d, "no catchpoint has stopped the run yet\n");
        return;
    }
    dbg_printf(d, "catchpoint hits of the stop at clock %llu:\n", (unsigned long long)d->catch_clock);
    dbg_write(d, d->catch_list.s, d->catch_list.len);
}

/* The stop's messages, with runs of four or more watchpoint lines that differ only in their cell written as
 * one ("watchpoint 1 on 16 cells, (0,0) to (3,3), at clock 17: a0 was 0, now 24"): a watch on @all of 8x8
 * would print 64 lines for one clock. Catchpoints likewise: four or more hits of one catchpoint in a stop are
 * one line, and `info catch` lists them. */
void dbg_write_stop_messages(dbg_t *d)
{
    keep_catch_list(d);
    const char *s = d->stop_msg.s, *end = s + d->stop_msg.len;
    size_t hit = 0; /* the next catchpoint line */
    while (s < end) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        size_t n = eol != NULL ? (size_t)(eol - s) + 1 : (size_t)(end - s);
        size_t off = (size_t)(s - d->stop_msg.s);
        if (hit < d->nhits && d->hits[hit].at == off) {
            unsigned point = d->hits[hit].point, count = 0;
            bool first = true;
            for (size_t k = 0; k < d->nhits; k++)
                if (d->hits[k].point == point) {
                    count++;
                    first &= k >= hit;
                }
            hit++;
            if (count >= SUMMARY_MIN_LINES) {
                if (first)
                    catch_summary(d, point, count);
            } else {
                dbg_write(d, s, n);
            }
            s += n;
            continue;
        }
        size_t at, len;
        unsigned count = 1;
        const char *last = s;
        size_t last_n = n, last_at = 0, last_len = 0;
        if (strncmp(s, "watchpoint ", 11) == 0 && cell_in(s, n, &at, &len)) {
            /* the lines after it that read the same but for the cell */
            for (const char *q = s + n; q < end;) {
                const char *qe = memchr(q, '\n', (size_t)(end - q));
                size_t qn = qe != NULL ? (size_t)(qe - q) + 1 : (size_t)(end - q);
                size_t qa, ql;
                if (!cell_in(q, qn, &qa, &ql) || qa != at || qn - ql != n - len || memcmp(q, s, at) != 0 ||
                    memcmp(q + qa + ql, s + at + len, n - at - len) != 0)
                    break;
                last = q;
                last_n = qn;
                last_at = qa;
                last_len = ql;
                count++;
                q += qn;
            }
        }
        if (count >= SUMMARY_MIN_LINES) {
            dbg_printf(d, "%.*son %u cells, %.*s to %.*s,%.*s", (int)(at - 3), s, count, (int)len, s + at,
                       (int)last_len, last + last_at, (int)(n - at - len), s + at + len);
            s = last + last_n;
        } else {
            dbg_write(d, s, n);
            s += n;
        }
    }
}

void dbg_report_stop(dbg_t *d)
{
    if (d->stop_msg.len > 0)
        dbg_write_stop_messages(d);
    unsigned long long clock = emu_array_clock(d->a);
    switch (d->reason) {
    case DBG_STOP_LIMIT:
        if (clock >= d->max_cycles)
            dbg_printf(d, "stopped at the run's cycle limit, clock %llu\n", clock);
        else
            dbg_printf(d, "clock %llu\n", clock);
        break;
    case DBG_STOP_INTERRUPT: /* after the terminal's ^C echo, on a line of its own */
        dbg_printf(d, "%sinterrupted at clock %llu\n", d->interactive ? "\n" : "", clock);
        break;
    case DBG_STOP_END: break;
    default: break;
    }
    if (d->ended) {
        unsigned fx, fy;
        if (d->status == EMU_RUN_DONE) {
            dbg_printf(d, "the run is done: every cell halted, %llu cycles\n",
                       (unsigned long long)emu_array_cycles(d->a));
            return;
        }
        if (d->status == EMU_RUN_DEADLOCK) {
            dbg_printf(d, "deadlock at clock %llu: nothing moved for %llu clocks while cells waited\n%s", clock,
                       (unsigned long long)emu_array_machine(d->a)->deadlock_clocks, emu_array_deadlock(d->a));
            int c = deadlock_cell(d);
            if (c >= 0)
                d->sel = (unsigned)c;
        } else if (d->status == EMU_RUN_LIVELOCK) {
            dbg_printf(d, "livelock at clock %llu: nothing moved for %llu clocks while cells still ran\n%s", clock,
                       (unsigned long long)emu_array_machine(d->a)->deadlock_clocks, emu_array_deadlock(d->a));
            int c = deadlock_cell(d);
            if (c >= 0)
                d->sel = (unsigned)c;
        } else if (emu_array_first_fault(d->a, &fx, &fy)) {
            d->sel = fy * d->w + fx;
        }
    }
    dbg_print_where(d, d->sel);
    dbg_print_displays(d);
}
