/*
 * Explaining a deadlock: from each blocked computation agent, follow what it waits for (a gate's channel,
 * that channel's upstream or downstream neighbour, a free channel of a pool, another agent) until a node
 * repeats. The repeated part is the cycle of waiting cells and channels that the report prints.
 */
#include <stdarg.h>
#include <string.h>

#include "deadlock.h"

enum { MAX_CHAIN = 256 };

typedef struct wait_node {
    bool is_ca;
    unsigned cell;
    unsigned lc;
    char why[384];
} wait_node_t;

static unsigned neighbour(const emu_array_t *a, unsigned cell, unsigned dir)
{
    unsigned w = a->machine.width, h = a->machine.height;
    unsigned x = cell % w, y = cell / w;
    switch (dir) {
    case COA_DIR_PX: x = (x + 1) % w; break;
    case COA_DIR_MX: x = (x + w - 1) % w; break;
    case COA_DIR_PY: y = (y + 1) % h; break;
    default: y = (y + h - 1) % h; break;
    }
    return y * w + x;
}

static void say(wait_node_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(wait_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->why, sizeof n->why, fmt, ap);
    va_end(ap);
}

/* Fills in why `n` waits and returns what it waits for; false at a dead end. */
static bool step(const emu_array_t *a, wait_node_t *n, wait_node_t *next)
{
    const emu_cell_t *c = &a->cells[n->cell];
    const coa_t *coa = &c->coa;
    memset(next, 0, sizeof *next);
    next->cell = n->cell;
    if (n->is_ca) {
        unsigned g = c->ca.s.wait_gate;
        if (c->ca.s.state != CA_WAITING) {
            say(n, "CA of (%u,%u) is %s", c->x, c->y, ca_state_name(c->ca.s.state));
            return false;
        }
        char src[256]; /* faults name the source line; so does a cell in a wait cycle */
        emu_source_text(&c->ca, c->ca.s.pc, src, sizeof src);
        if (c->ca.s.wait_cause == CA_STALL_WFE) {
            /* Asleep until a word moves: it waits for whatever its receiving spools wait for. */
            for (unsigned s = 0; s < coa->cfg.spools; s++)
                if (coa->spool[s].mode == COA_SPOOL_RECEIVE && coa->spool[s].lc < coa->cfg.channels) {
                    say(n, "CA of (%u,%u) at pc 0x%x%s sleeps in wfe; spool %u receives from channel %u", c->x, c->y,
                        c->ca.s.pc, src, s, coa->spool[s].lc);
                    next->lc = coa->spool[s].lc;
                    return true;
                }
            say(n, "CA of (%u,%u) at pc 0x%x%s sleeps in wfe, waiting for a word to move", c->x, c->y, c->ca.s.pc,
                src);
            return false;
        }
        unsigned lc = g < 2 ? coa->gate_in_lc[g] : coa->gate_out_lc[g - 2];
        say(n, "CA of (%u,%u) at pc 0x%x%s waits %s %s%u (channel %u %s)", c->x, c->y, c->ca.s.pc, src,
            g < 2 ? "for a word on" : "for room on", g < 2 ? "gi" : "go", g % 2, lc, g < 2 ? "empty" : "full");
        if (lc == COA_EXPECT) {
            say(n, "CA of (%u,%u) at pc 0x%x%s waits on gi%u for a pathway that has not arrived", c->x, c->y,
                c->ca.s.pc, src, g);
            return false;
        }
        if (lc == COA_NONE)
            return false;
        next->lc = lc;
        return true;
    }
    const coa_lc_t *l = &coa->lc[n->lc];
    if (l->count == 0 && l->state == COA_LC_DRAINING && l->route.kind == COA_END_LINK) {
        /* Not "empty, fed by" its source: it is free once the channel downstream gives its last credits back. */
        unsigned down = neighbour(a, n->cell, l->route.dir);
        say(n, "(%u,%u) channel %u is draining: its trailer has left, it waits for the last credits from (%u,%u) "
            "channel %u before it is free", c->x, c->y, n->lc, down % a->machine.width, down / a->machine.width,
            l->route.index);
        next->cell = down;
        next->lc = l->route.index;
        return true;
    }
    if (l->count == 0) {
        switch (l->source.kind) {
        case COA_END_LINK: {
            unsigned up = neighbour(a, n->cell, l->source.dir);
            say(n, "(%u,%u) channel %u is empty, fed by (%u,%u) channel %u", c->x, c->y, n->lc, up % a->machine.width,
                up / a->machine.width, l->source.index);
            next->cell = up;
            next->lc = l->source.index;
            return true;
        }
        case COA_END_GATE:
            say(n, "(%u,%u) channel %u is empty, fed by go%u of its CA", c->x, c->y, n->lc, l->source.index);
            next->is_ca = true;
            return true;
        default: say(n, "(%u,%u) channel %u is empty and has no source", c->x, c->y, n->lc); return false;
        }
    }
    if (l->state == COA_LC_HEADER && l->travel_dir < COA_NUM_DIRS) {
        unsigned down = neighbour(a, n->cell, l->travel_dir);
        uint64_t pool = coa->link_pool[l->travel_dir][l->pool];
        say(n, "(%u,%u) channel %u holds a header waiting for a free pool-%u channel at (%u,%u)", c->x, c->y, n->lc,
            l->pool, down % a->machine.width, down / a->machine.width);
        if (pool == 0)
            return false;
        next->cell = down;
        next->lc = (unsigned)__builtin_ctzll(pool);
        return true;
    }
    switch (l->route.kind) {
    case COA_END_LINK: {
        unsigned down = neighbour(a, n->cell, l->route.dir);
        say(n, "(%u,%u) channel %u holds %u word%s, no room at (%u,%u) channel %u", c->x, c->y, n->lc, l->count,
            l->count == 1 ? "" : "s",
            down % a->machine.width, down / a->machine.width, l->route.index);
        next->cell = down;
        next->lc = l->route.index;
        return true;
    }
    case COA_END_GATE:
        say(n, "(%u,%u) channel %u holds %u word%s for gi%u, which its CA does not read", c->x, c->y, n->lc, l->count,
            l->count == 1 ? "" : "s", l->route.index);
        next->is_ca = true;
        return true;
    default:
        say(n, "(%u,%u) channel %u holds %u words (%s)", c->x, c->y, n->lc, l->count,
            coa_wait_name(coa_lc_wait(coa, n->lc, a->clock)));
        return false;
    }
}

static bool same(const wait_node_t *x, const wait_node_t *y)
{
    return x->is_ca == y->is_ca && x->cell == y->cell && (x->is_ca || x->lc == y->lc);
}

static void append(char *buf, size_t cap, const char *text)
{
    size_t n = strlen(buf);
    if (n + 1 < cap)
        snprintf(buf + n, cap - n, "%s", text);
}

/* The clock the cycle closed: the last time anything in it moved (a word left one of its channels, or one of
 * its agents began its wait). The run stops deadlock_clocks later, when the detector notices. */
static uint64_t closed_at(const emu_array_t *a, const wait_node_t *cyc, unsigned n)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < n; k++) {
        const emu_cell_t *c = &a->cells[cyc[k].cell];
        uint64_t at = cyc[k].is_ca ? c->ca.s.wait_since : c->coa.lc[cyc[k].lc].moved_at;
        if (at != UINT64_MAX && at > t) /* UINT64_MAX: no word has ever left that channel */
            t = at;
    }
    return t;
}

/* A cycle of link channels of one pool that goes all the way round a row or a column of the torus: the
 * dateline (a change of pool where the ring wraps) is what normally breaks it. */
static bool ring_without_dateline(const emu_array_t *a, const wait_node_t *cyc, unsigned n, char *what, size_t cap)
{
    unsigned w = a->machine.width, h = a->machine.height;
    bool same_row = true, same_col = true;
    int pool = -1;
    for (unsigned k = 0; k < n; k++) {
        if (cyc[k].is_ca)
            return false;
        const coa_lc_t *l = &a->cells[cyc[k].cell].coa.lc[cyc[k].lc];
        if (pool >= 0 && l->pool != pool)
            return false;
        pool = l->pool;
        same_row &= cyc[k].cell / w == cyc[0].cell / w;
        same_col &= cyc[k].cell % w == cyc[0].cell % w;
    }
    /* Every cell of the ring is in the cycle: it wraps. */
    if (same_row && n >= w && w > 1)
        snprintf(what, cap, "row %u", cyc[0].cell / w);
    else if (same_col && n >= h && h > 1)
        snprintf(what, cap, "column %u", cyc[0].cell % w);
    else
        return false;
    return true;
}

/* A plain-language cause when the cycle is a known pattern, and what decides when a deadlock is noticed. */
static void explain(emu_array_t *a, const wait_node_t *cyc, unsigned n)
{
    char line[512], what[32];
    uint64_t t = closed_at(a, cyc, n);
    snprintf(line, sizeof line,
             "the cycle closed at clock %llu (nothing in it moved after that); it was noticed at clock %llu, once "
             "nothing in the array had progressed for deadlock_clocks = %llu clocks (the setting that decides when "
             "a deadlock is noticed)\n",
             (unsigned long long)t, (unsigned long long)a->clock, (unsigned long long)a->machine.deadlock_clocks);
    append(a->deadlock, sizeof a->deadlock, line);
    if (ring_without_dateline(a, cyc, n, what, sizeof what)) {
        const coa_lc_t *l = &a->cells[cyc[0].cell].coa.lc[cyc[0].lc];
        snprintf(line, sizeof line,
                 "cause: channels of one pool (pool %u) round a ring (%s): no dateline. Each message holds a channel "
                 "and waits for the next one round the ring; a route that changes pool where the ring wraps (the "
                 "dateline) breaks such cycles\n",
                 l->pool, what);
        append(a->deadlock, sizeof a->deadlock, line);
        return;
    }
    for (unsigned k = 0; k < n; k++) {
        const emu_cell_t *c = &a->cells[cyc[k].cell];
        if (cyc[k].is_ca && c->ca.s.wait_cause == CA_STALL_WFE) {
            snprintf(line, sizeof line,
                     "cause: a spool stuck: (%u,%u) sleeps in wfe for a spool that waits on the network itself\n",
                     c->x, c->y);
            append(a->deadlock, sizeof a->deadlock, line);
            return;
        }
        if (!cyc[k].is_ca && c->coa.lc[cyc[k].lc].count > 0 && c->coa.lc[cyc[k].lc].route.kind == COA_END_GATE) {
            snprintf(line, sizeof line,
                     "cause: a receiver not draining: words for (%u,%u) wait in channel %u while its CA waits "
                     "on something else in the cycle (a send before its receive?)\n",
                     c->x, c->y, cyc[k].lc);
            append(a->deadlock, sizeof a->deadlock, line);
            return;
        }
    }
}

/* Follows waits from `start`; returns true (with a->deadlock written) when a cycle closes, else writes the
 * chain only if nothing is written yet. */
static bool follow(emu_array_t *a, const wait_node_t *start, wait_node_t *chain)
{
    unsigned n = 0;
    chain[0] = *start;
    int cycle_at = -1;
    while (n + 1 < MAX_CHAIN) {
        if (!step(a, &chain[n], &chain[n + 1]))
            break;
        n++;
        for (unsigned k = 0; k < n && cycle_at < 0; k++)
            if (same(&chain[k], &chain[n]))
                cycle_at = (int)k;
        if (cycle_at >= 0)
            break;
    }
    if (cycle_at < 0 && a->deadlock[0] != '\0')
        return false; /* keep the first chain unless this one closes a cycle */
    a->deadlock[0] = '\0';
    append(a->deadlock, sizeof a->deadlock, cycle_at >= 0 ? "wait cycle:\n" : "wait chain (no cycle found):\n");
    for (unsigned k = cycle_at >= 0 ? (unsigned)cycle_at : 0; k < n + (cycle_at < 0); k++) {
        append(a->deadlock, sizeof a->deadlock, "  ");
        append(a->deadlock, sizeof a->deadlock, chain[k].why);
        append(a->deadlock, sizeof a->deadlock, "\n");
    }
    if (cycle_at >= 0)
        explain(a, chain + cycle_at, n - (unsigned)cycle_at);
    return cycle_at >= 0;
}

bool emu_deadlock_report(emu_array_t *a)
{
    static const wait_node_t empty;
    wait_node_t chain[MAX_CHAIN];
    a->deadlock[0] = '\0';
    /* From each waiting computation agent first: that is what the user sees stuck. */
    for (unsigned i = 0; i < a->ncells; i++) {
        if (a->cells[i].ca.s.state != CA_WAITING)
            continue;
        wait_node_t start = empty;
        start.is_ca = true;
        start.cell = i;
        if (follow(a, &start, chain))
            return true;
    }
    /* Agents asleep in wfe wait on the network as a whole: look for the cycle among the channels. */
    for (unsigned i = 0; i < a->ncells; i++)
        for (uint64_t m = a->cells[i].coa.busy_lc; m != 0; m &= m - 1) {
            wait_node_t start = empty;
            start.cell = i;
            start.lc = (unsigned)__builtin_ctzll(m);
            if (follow(a, &start, chain))
                return true;
        }
    return false;
}
