/*
 * Time travel, built on snapshots and deterministic replay: the array is a pure function of its start, so the
 * state at any past clock is a ring snapshot before it plus a replay to it. Reverse-step finds the clock of the
 * selected cell's previous instruction; reverse-continue replays the history counting stop events and lands on
 * the last one before the present.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

enum {
    RING_DEFAULT_INTERVAL = 10000, /* clocks between snapshots, doubled as the ring thins out */
    RING_MIN_KEEP = 1, /* only the start: an array whose snapshot outgrows the budget replays from clock 0 */
};
#define RING_BUDGET_BYTES (256.0 * 1024 * 1024) /* snapshots of an 8x8 array of 512 KB cells take ~33 MB each */

static bool snap_fill(dbg_t *d, dbg_snap_t *s)
{
    s->snap = emu_snapshot_take(d->a);
    s->bundles = malloc(sizeof *s->bundles * d->ncells);
    if (s->snap == NULL || s->bundles == NULL) {
        emu_snapshot_free(s->snap);
        free(s->bundles);
        return false;
    }
    s->clock = emu_array_clock(d->a);
    s->settled = d->settled;
    for (unsigned i = 0; i < d->ncells; i++)
        s->bundles[i] = dbg_ca(d, i)->s.stats.bundles;
    return true;
}

static void snap_free(dbg_snap_t *s)
{
    emu_snapshot_free(s->snap);
    free(s->bundles);
}

void dbg_ring_init(dbg_t *d)
{
    dbg_ring_t *r = &d->ring;
    r->interval = RING_DEFAULT_INTERVAL;
    r->v = calloc(DBG_RING_MAX_KEEP + 1, sizeof *r->v);
    if (r->v == NULL || !snap_fill(d, &r->v[0]))
        return;
    r->n = 1;
    double fit = RING_BUDGET_BYTES / (double)emu_snapshot_bytes(r->v[0].snap);
    r->keep = fit > DBG_RING_MAX_KEEP ? DBG_RING_MAX_KEEP : fit < RING_MIN_KEEP ? RING_MIN_KEEP : (unsigned)fit;
}

void dbg_ring_free(dbg_t *d)
{
    for (unsigned i = 0; i < d->ring.n; i++)
        snap_free(&d->ring.v[i]);
    free(d->ring.v);
    memset(&d->ring, 0, sizeof d->ring);
}

uint64_t dbg_ring_next(const dbg_t *d)
{
    const dbg_ring_t *r = &d->ring;
    if (r->keep < 2 || r->n == 0 || r->interval == 0)
        return UINT64_MAX; /* reverse execution replays from the start */
    return r->v[r->n - 1].clock + r->interval;
}

void dbg_ring_take(dbg_t *d)
{
    dbg_ring_t *r = &d->ring;
    if (r->n == 0 || r->keep < 2 || emu_array_clock(d->a) <= r->v[r->n - 1].clock)
        return;
    while (r->n >= r->keep) {
        /* Full: keep the start and every other snapshot, and take them half as often from now on. */
        unsigned n = 1;
        for (unsigned i = 1; i < r->n; i++) {
            if (i % 2 == 1)
                snap_free(&r->v[i]);
            else
                r->v[n++] = r->v[i];
        }
        r->n = n;
        r->interval *= 2;
    }
    if (!snap_fill(d, &r->v[r->n])) {
        r->keep = 1; /* out of memory: no more snapshots; time travel replays from the start */
        return;
    }
    r->n++;
}

const dbg_snap_t *dbg_ring_before(const dbg_t *d, uint64_t clock)
{
    for (unsigned i = d->ring.n; i-- > 1;)
        if (d->ring.v[i].clock < clock)
            return &d->ring.v[i];
    return &d->ring.v[0];
}

static dbg_goal_t replay_goal(uint64_t limit)
{
    dbg_goal_t g = dbg_goal(limit);
    g.replay = true;
    return g;
}

int dbg_travel_to(dbg_t *d, uint64_t clock)
{
    const dbg_snap_t *s = dbg_ring_before(d, clock);
    uint64_t from = s->clock;
    if (d->edit_snap != NULL && s->clock < d->edit_clock) {
        /* A `set` changed the state at edit_clock: nothing before it can be replayed to here. */
        if (clock < d->edit_clock)
            dbg_printf(d, "history starts at clock %llu, where `set` changed the state\n",
                       (unsigned long long)d->edit_clock);
        if (clock < d->edit_clock)
            clock = d->edit_clock;
        if (dbg_restore(d, d->edit_snap, d->edit_settled) != 0)
            return -1;
        from = d->edit_clock;
    } else if (dbg_restore(d, s->snap, s->settled) != 0) {
        return -1;
    }
    if (clock > from) {
        dbg_goal_t g = replay_goal(clock);
        /* Going further than the session has been is a run like any other: its output shows, Ctrl-C works. */
        g.replay = clock <= d->output_high;
        dbg_run(d, &g);
    }
    d->skip_clock = emu_array_clock(d->a); /* the person looks at this clock: see dbg_t.skip_clock */
    return 0;
}

int dbg_settled_hash(dbg_t *d, uint64_t *hash)
{
    bool waiting = false;
    for (unsigned i = 0; i < d->ncells; i++)
        waiting |= dbg_ca(d, i)->s.state == CA_WAITING;
    uint64_t now = emu_array_clock(d->a);
    if (d->ended || d->settled || !waiting || now == 0) {
        *hash = emu_array_hash(d->a, true, true);
        return 0;
    }
    /* Stopped by a hook, a gate wait is still open and its clocks are not yet in the statistics, as they are when
     * a run ends at a clock limit. Replay to this clock with a limit, hash, and come back exactly. */
    emu_snapshot_t *here = emu_snapshot_take(d->a);
    if (here == NULL)
        return dbg_error(d, "out of memory for a snapshot");
    uint64_t skip = d->skip_clock;
    unsigned sel = d->sel;
    emu_run_status_t status = d->status;
    const dbg_snap_t *s = dbg_ring_before(d, now);
    char err[256];
    int rc = emu_snapshot_restore(d->a, s->snap, err, sizeof err);
    if (rc == 0) {
        dbg_goal_t g = replay_goal(now);
        dbg_run(d, &g);
        *hash = emu_array_hash(d->a, true, true);
        rc = emu_array_clock(d->a) == now ? 0 : -1;
        snprintf(err, sizeof err, "the replay ended at clock %llu, not %llu", (unsigned long long)emu_array_clock(d->a),
                 (unsigned long long)now);
    }
    int back = emu_snapshot_restore(d->a, here, err, sizeof err);
    emu_snapshot_free(here);
    d->skip_clock = skip;
    d->sel = sel;
    d->status = status;
    d->settled = false;
    d->ended = false;
    if (rc != 0 || back != 0)
        return dbg_error(d, "hash: %s", err);
    return 0;
}

/* --- commands --- */

static void landed(dbg_t *d)
{
    dbg_printf(d, "clock %llu\n", (unsigned long long)emu_array_clock(d->a));
    dbg_print_where(d, d->sel);
}

int dbg_cmd_goto(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    uint64_t clock;
    if (w == NULL || dbg_parse_u64(w, &clock) != 0 || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: goto CLOCK");
    if (dbg_travel_to(d, clock) != 0)
        return -1;
    if (emu_array_clock(d->a) != clock) {
        dbg_report_stop(d); /* the run ended (or was interrupted) before that clock */
        return 0;
    }
    landed(d);
    return 0;
}

int dbg_cmd_reverse_step(dbg_t *d, char *args)
{
    uint64_t n = 1;
    char *w = dbg_word(&args);
    if (w != NULL && (dbg_parse_u64(w, &n) != 0 || n == 0))
        return dbg_error(d, "usage: reverse-step [N] [clocks]");
    char *unit = dbg_word(&args);
    bool clocks = unit != NULL && dbg_is_clocks(unit);
    if ((unit != NULL && !clocks) || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: reverse-step [N] [clocks]");
    uint64_t now = emu_array_clock(d->a);
    if (now == 0)
        return dbg_error(d, "at clock 0: there is no history before the start");
    if (clocks) {
        if (dbg_travel_to(d, n > now ? 0 : now - n) != 0)
            return -1;
        landed(d);
        return 0;
    }
    unsigned cell = d->sel;
    uint64_t have = dbg_ca(d, cell)->s.stats.bundles;
    if (have < n) {
        if (dbg_travel_to(d, 0) != 0)
            return -1;
        dbg_printf(d, "(%u,%u) had issued only %llu instructions: back at the start\n", dbg_cell_x(d, cell),
                   dbg_cell_y(d, cell), (unsigned long long)have);
        landed(d);
        return 0;
    }
    uint64_t target = have - n; /* land just before the cell issues instruction number target + 1 */
    const dbg_snap_t *s = &d->ring.v[0];
    for (unsigned i = d->ring.n; i-- > 1;)
        if (d->ring.v[i].clock < now && d->ring.v[i].bundles[cell] <= target) {
            s = &d->ring.v[i];
            break;
        }
    /* First replay: find the clock of that instruction; second: stop right before it. */
    if (dbg_restore(d, s->snap, s->settled) != 0)
        return -1;
    dbg_goal_t g = replay_goal(now);
    g.step_cell = (int)cell;
    g.step_bundles = target + 1;
    if (dbg_run(d, &g) != DBG_STOP_STEP) {
        dbg_travel_to(d, now);
        return dbg_error(d, "replay did not find instruction %llu of (%u,%u)", (unsigned long long)target + 1,
                         dbg_cell_x(d, cell), dbg_cell_y(d, cell));
    }
    uint64_t issue = d->last_after_clock;
    /* On to now, noting the waits that going back crosses: a long one deserves a word. */
    dbg_gap_start(d, cell);
    if (now - emu_array_clock(d->a) >= DBG_LONG_WAIT_CLOCKS) {
        dbg_goal_t rest = replay_goal(now);
        rest.track_cell = (int)cell;
        dbg_run(d, &rest);
        dbg_gap_end(d);
    }
    if (dbg_travel_to(d, issue) != 0)
        return -1;
    d->sel = cell;
    dbg_gap_report(d, cell, "back", now - issue);
    landed(d);
    return 0;
}

int dbg_cmd_reverse_continue(dbg_t *d, char *args)
{
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: reverse-continue");
    uint64_t now = emu_array_clock(d->a);
    if (now == 0)
        return dbg_error(d, "at clock 0: there is no history before the start");
    uint64_t hi = now;
    /* Segments of history, newest first: the last stop event before now is in the newest segment that has one. */
    for (;;) {
        const dbg_snap_t *s = dbg_ring_before(d, hi);
        if (dbg_restore(d, s->snap, s->settled) != 0)
            return -1;
        dbg_goal_t g = replay_goal(hi);
        g.points = true;
        g.record_only = UINT64_MAX;
        g.record_before = now;
        dbg_run(d, &g);
        uint64_t k = d->qualified_events;
        if (k > 0) {
            if (dbg_restore(d, s->snap, s->settled) != 0)
                return -1;
            g.record_only = k;
            dbg_run(d, &g);
            d->skip_clock = emu_array_clock(d->a);
            if (d->stop_msg.len > 0)
                dbg_write_stop_messages(d);
            landed(d);
            return 0;
        }
        if (s->clock == 0)
            break;
        hi = s->clock;
    }
    if (dbg_travel_to(d, 0) != 0)
        return -1;
    dbg_printf(d, "no breakpoint, watchpoint or catchpoint stops before clock %llu: back at the start\n",
               (unsigned long long)now);
    landed(d);
    return 0;
}

void dbg_info_snapshots(dbg_t *d)
{
    size_t bytes = 0;
    for (unsigned i = 0; i < d->ring.n; i++)
        bytes += emu_snapshot_bytes(d->ring.v[i].snap);
    dbg_printf(d, "%u snapshots for reverse execution (%.1f MB), at most %u, one every %llu clocks from now on:",
               d->ring.n, (double)bytes / (1024.0 * 1024.0), d->ring.keep, (unsigned long long)d->ring.interval);
    for (unsigned i = 0; i < d->ring.n; i++)
        dbg_printf(d, " %llu", (unsigned long long)d->ring.v[i].clock);
    dbg_printf(d, "\n");
}

/* The verbs of snapshot, which its completion offers too. */
typedef enum snapshot_verb { SNAPSHOT_SAVE, SNAPSHOT_LOAD, SNAPSHOT_LIST, SNAPSHOT_VERBS } snapshot_verb_t;
static const char *const snapshot_verbs[SNAPSHOT_VERBS] = {"save", "load", "list"};

int dbg_cmd_snapshot(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    char *path = dbg_trim(args);
    char err[512];
    unsigned verb = 0;
    while (w != NULL && verb < SNAPSHOT_VERBS && strcmp(w, snapshot_verbs[verb]) != 0)
        verb++;
    if (verb == SNAPSHOT_LIST && *path == '\0') {
        dbg_info_snapshots(d);
        return 0;
    }
    if (w == NULL || *path == '\0' || verb >= SNAPSHOT_LIST)
        return dbg_error(d, "usage: snapshot save FILE | snapshot load FILE | snapshot list");
    if (verb == SNAPSHOT_SAVE) {
        emu_snapshot_t *s = emu_snapshot_take(d->a);
        if (s == NULL)
            return dbg_error(d, "out of memory for a snapshot");
        int rc = emu_snapshot_save(s, path, err, sizeof err);
        size_t bytes = emu_snapshot_bytes(s);
        emu_snapshot_free(s);
        if (rc != 0)
            return dbg_error(d, "%s", err);
        dbg_printf(d, "saved clock %llu to %s (%.1f MB)\n", (unsigned long long)emu_array_clock(d->a), path,
                   (double)bytes / (1024.0 * 1024.0));
        return 0;
    }
    emu_snapshot_t *s = emu_snapshot_load(path, err, sizeof err);
    if (s == NULL)
        return dbg_error(d, "%s", err);
    /* A snapshot file of this run description is a state of this same history: the ring stays valid. */
    int rc = dbg_restore(d, s, false);
    emu_snapshot_free(s);
    if (rc != 0)
        return -1;
    d->skip_clock = emu_array_clock(d->a);
    dbg_printf(d, "loaded %s: ", path);
    landed(d);
    return 0;
}

void dbg_complete_snapshot(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    if (dbg_word_index(line, text) != 1) {
        dbg_complete_files(d, line, text, words);
        return;
    }
    for (unsigned v = 0; v < SNAPSHOT_VERBS; v++)
        dbg_words_add(words, text, snapshot_verbs[v]);
}

void dbg_history_restart(dbg_t *d)
{
    /* Snapshots after now belong to the history before the change: they go. */
    dbg_ring_t *r = &d->ring;
    uint64_t now = emu_array_clock(d->a);
    while (r->n > 1 && r->v[r->n - 1].clock > now)
        snap_free(&r->v[--r->n]);
    emu_snapshot_free(d->edit_snap);
    d->edit_snap = emu_snapshot_take(d->a);
    d->edit_clock = now;
    d->edit_settled = d->settled;
}
