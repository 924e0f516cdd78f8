/*
 * Cells scheduled by events: a cell that has halted, or whose CA waits on a gate or sleeps in wfe with an
 * idle communication agent, changes nothing clock after clock, so it goes dormant and is not stepped until
 * a neighbour posts to one of its links or its timer comes. Stepping it would only have found nothing to do
 * (EMU_CELL_SLEEPS says exactly what emu_cell_step would have skipped), so every clock, statistic and
 * state hash is the same; an array where one cell computes costs about what that cell costs alone. A cell
 * whose core is busy with a long bundle naps the same way (EMU_CELL_NAPS) but stays in the list: the
 * naps are short, and a rebuild for each would cost more than it saves.
 *
 * With threads: a cell marks itself dormant at the end of its clock, and its block confirms it at the next
 * (once every thread has said it is done with the last clock, every post of that clock is visible); a
 * neighbour that posts from then on sees the mark and wakes it. A word posted at clock t arrives at t + hop
 * latency >= t + 1, so a cell woken at t is stepped again in time for it.
 */
#include <stdlib.h>

#include "cell_step.h"
#include "schedule.h"

/* The cells whose links cross to another block: every word on such a link moves between two cores' caches,
 * and a block asks for all of them at the start of its clock (prefetch) rather than one miss at a time. */
static void find_edges(emu_array_t *a, unsigned n)
{
    unsigned nedge = 0;
    for (unsigned t = 0; t < n; t++) {
        emu_block_t *b = &a->blocks[t];
        b->edge = &a->edge[nedge];
        b->nedge = 0;
        for (unsigned i = b->first; i < b->last; i++) {
            emu_cell_t *c = &a->cells[i];
            c->cross = 0;
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                const emu_cell_t *to = c->out[d].receiver;
                if (to != NULL && to->block != b)
                    c->cross |= (uint8_t)(1u << d);
            }
            if (c->cross != 0)
                b->edge[b->nedge++] = i;
        }
        nedge += b->nedge;
    }
}

/* Asks for the cache lines this clock's crossing words live in: the slots the block's edge cells read now and
 * write for hop_latency clocks ahead, with their books. */
static void prefetch_edges(const emu_array_t *a, const emu_block_t *b, uint64_t now)
{
    uint64_t ahead = now + a->machine.agent.hop_latency;
    for (unsigned k = 0; k < b->nedge; k++) {
        const emu_cell_t *c = &a->cells[b->edge[k]];
        const coa_wiring_t *w = &c->coa.w;
        __builtin_prefetch((const void *)w->in_posted, 0);
        for (unsigned m = c->cross; m != 0; m &= m - 1u) {
            unsigned d = (unsigned)__builtin_ctz(m);
            const coa_line_t *line = &c->out[d];
            __builtin_prefetch(&w->in_slots[d][now & w->in_mask], 1); /* what the neighbour that way sent */
            __builtin_prefetch(&line->slots[ahead & (line->nslots - 1u)], 1);
            __builtin_prefetch(line->receiver_dormant, 0);
        }
    }
}

/* After the block's awake list, a cell to stand for the next one, which emu_block_step asks the caches for while the
 * last runs: no test for the end of the list at every cell. Its last cell (the lines are there already), or any. */
static void end_awake(emu_array_t *a, emu_block_t *b)
{
    b->awake[b->nawake] = b->nawake > 0 ? b->awake[b->nawake - 1] : &a->cells[0];
}

/* coa_receiving for a cell's first nap clock, out of line: inline, GCC computes the addresses of the incoming
 * lines' posted words once for it and for the step's arrivals, in four registers on every step's path (msgpass 8x8
 * +36M), where the step's loads would take them as displacements from the cell. */
static __attribute__((noinline)) bool nap_receiving(const coa_t *c)
{
    return coa_receiving(c);
}

int emu_blocks_prepare(emu_array_t *a, unsigned n)
{
    if (a->blocks == NULL) {
        a->blocks = aligned_alloc(64, EMU_MAX_BLOCKS * sizeof *a->blocks);
        a->awake = malloc((a->ncells + EMU_MAX_BLOCKS) * sizeof *a->awake); /* and each slice's sentinel */
        a->edge = malloc(a->ncells * sizeof *a->edge);
        if (a->blocks == NULL || a->awake == NULL || a->edge == NULL) {
            free(a->blocks);
            free(a->awake);
            free(a->edge);
            a->blocks = NULL;
            a->awake = NULL;
            a->edge = NULL;
            return -1;
        }
    }
    if (n > EMU_MAX_BLOCKS)
        n = EMU_MAX_BLOCKS;
    /* Whatever changed between two runs (a load, the debugger's `set`, a snapshot) counts as a wake. */
    for (unsigned t = 0; t < n; t++) {
        emu_block_t *b = &a->blocks[t];
        b->first = (unsigned)((uint64_t)a->ncells * t / n);
        b->last = (unsigned)((uint64_t)a->ncells * (t + 1) / n);
        b->awake = &a->awake[b->first + t];
        b->nawake = 0;
        for (unsigned i = b->first; i < b->last; i++) {
            emu_cell_t *c = &a->cells[i];
            atomic_store_explicit(&c->dormant, false, memory_order_relaxed);
            atomic_store_explicit(&c->woken, false, memory_order_relaxed);
            c->napping = false;
            c->block = b;
            b->awake[b->nawake++] = c;
        }
        end_awake(a, b);
        b->dirty = false;
        atomic_init(&b->wakes, 0);
        b->wakes_seen = 0;
        b->wake_at = UINT64_MAX;
        b->dormant_waiting = 0;
    }
    find_edges(a, n);
    return 0;
}

/* Which cells of the block are awake at clock `now`: the dormant ones stay so unless woken, due, or (for one
 * that went dormant last clock) posted to by a neighbour before it could see the mark. */
static void rebuild(emu_array_t *a, emu_block_t *b, uint64_t now)
{
    b->wakes_seen = atomic_load_explicit(&b->wakes, memory_order_relaxed);
    b->dirty = false;
    /* The list, its length, the earliest timer and the waiting count in locals, written back at the end: stored
     * through b at each cell, every cell's stores (woken, dormant) might have changed them for the compiler. */
    emu_cell_t **const awake = b->awake;
    unsigned nawake = 0, dormant_waiting = 0;
    uint64_t wake_at = UINT64_MAX;
    emu_cell_t *const last = &a->cells[b->last];
    for (emu_cell_t *c = &a->cells[b->first]; c < last; c++) {
        /* A napping cell (its core busy) stays in the list, where it costs a few instructions a clock and
         * wakes itself: out of it, the end of each short nap would cost a rebuild. */
        if (atomic_load_explicit(&c->dormant, memory_order_relaxed) && !c->napping) {
            /* Only a post made before the mark could be seen needs looking for in its lines: later ones woke it. */
            bool woken = atomic_load_explicit(&c->woken, memory_order_relaxed) &&
                         atomic_exchange_explicit(&c->woken, false, memory_order_relaxed);
            if (!woken && c->wake_at > now && !(c->sleep_fresh && coa_receiving(&c->coa))) {
                c->sleep_fresh = false;
                if (c->wake_at < wake_at)
                    wake_at = c->wake_at;
                if (c->sleep_waiting)
                    dormant_waiting++;
                continue;
            }
            /* It is stepped at this clock: the waits its stuck agent's sleep left are added up now, once, rather
             * than asked for in each step. */
            if (c->stuck_since != 0)
                emu_cell_unstick(c, now);
            atomic_store_explicit(&c->dormant, false, memory_order_relaxed);
        }
        awake[nawake++] = c;
    }
    b->nawake = nawake;
    b->wake_at = wake_at;
    b->dormant_waiting = dormant_waiting;
    end_awake(a, b);
}

/* What the dormant cells would have told the clock: a waiting CA keeps the run going, and a timer is due. */
static void tell_dormant(const emu_block_t *b, emu_step_summary_t *sum)
{
    /* A waiting CA is running too. */
    emu_summary_add(sum, b->wake_at, 0, b->dormant_waiting > 0 ? EMU_STATE_BIT(CA_WAITING) : 0u);
}

void emu_block_step(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum)
{
    if (a->driver.clock != NULL) {
        emu_block_drive(a, b, now, sum);
        return;
    }
    if (b->dirty || now >= b->wake_at || atomic_load_explicit(&b->wakes, memory_order_relaxed) != b->wakes_seen)
        rebuild(a, b, now);
    prefetch_edges(a, b, now);
    /* A lone cell may not nap: it runs ahead instead (emu_block_alone). Hooks may read any cell's waits at any
     * clock, which a stuck agent's sleep leaves to be added up. */
    unsigned may = (b->nawake > 1 ? EMU_MAY_NAP : 0u) | (a->has_hooks ? 0u : EMU_MAY_STICK);
    /* Hooks look at every cell at every clock: no CA runs ahead of it then. Nor does one when the run ends at the next
     * clock: 0, asked once here rather than for each cell. */
    uint64_t ahead_until = !a->has_hooks && a->run_limit > now + 1 ? a->run_limit : 0;
    /* The list does not change while its cells run (a wake only counts in b->wakes): read once, not after each cell's
     * stores, any of which might have changed it for all the compiler knows. */
    emu_cell_t *const *const end = b->awake + b->nawake;
    for (emu_cell_t *const *at = b->awake; at < end; at++) {
        emu_cell_t *c = *at;
        /* The next cell's first misses, asked for while this one runs: its incoming counts and its core (after the
         * last, end_awake's stand-in). */
        const emu_cell_t *n = at[1];
        __builtin_prefetch((const void *)n->coa.w.in_posted, 0);
        __builtin_prefetch(&n->ca.s, 0);
        /* A dormant cell in the list naps, its core busy (rebuild drops the sleepers): it is skipped, as long as
         * nothing was posted to it. A post that saw the mark set `woken`; one made in its last clock by another
         * thread, before the mark was visible, is found here on its first nap clock. */
        if (atomic_load_explicit(&c->dormant, memory_order_relaxed)) {
            if (now < c->wake_at && !atomic_load_explicit(&c->woken, memory_order_relaxed) &&
                (!c->nap_fresh || !nap_receiving(&c->coa))) {
                if (c->nap_fresh) /* the line is read by other threads' posts: written only when it changes */
                    c->nap_fresh = false;
                emu_summary_add(sum, c->wake_at, 0, EMU_STATE_BIT(CA_RUNNING));
                continue;
            }
            atomic_store_explicit(&c->woken, false, memory_order_relaxed);
            atomic_store_explicit(&c->dormant, false, memory_order_relaxed);
            c->napping = false;
        }
        emu_cell_next_t next = emu_cell_step_next(c, now, sum, may, ahead_until);
        if (next == EMU_CELL_SLEEPS) {
            c->sleep_fresh = true;
            c->sleep_waiting = c->ca.s.state == CA_WAITING;
            atomic_store_explicit(&c->dormant, true, memory_order_relaxed);
            b->dirty = true;
        } else if (next == EMU_CELL_NAPS) {
            /* No rebuild: the cell stays in the list and wakes itself at wake_at. */
            c->nap_fresh = true;
            c->napping = true;
            atomic_store_explicit(&c->dormant, true, memory_order_relaxed);
        }
    }
    tell_dormant(b, sum);
}

/* A cell may run alone while it computes: no other cell of the array is awake or due, and its agent is idle
 * with nothing in flight either way. None of that changes while it runs alone, since only the CA runs. */
static bool agent_quiet(const emu_cell_t *c, uint64_t now)
{
    return c->ca.prog != NULL && !coa_active(&c->coa) && !coa_sending(&c->coa, now) && !coa_receiving(&c->coa);
}

/* ... and for each clock: its CA runs outside events (which arrivals or a timer would raise), and the bundle
 * it issues next does not touch the agent. */
static bool computes(const ca_t *ca)
{
    if (ca->s.state != CA_RUNNING || ca->s.events_on)
        return false;
    const emu_bundle_t *bd = emu_program_bundle(ca->prog, ca->s.pc);
    return bd != NULL && !(bd->flags & (EMU_BUNDLE_PORT | EMU_BUNDLE_ILLEGAL));
}

/* The clocks a lone cell may run ahead at most in one go: a stop request (Ctrl-C) is seen between them. */
enum { EMU_RUN_AHEAD_CLOCKS = 1u << 20 };

/* Whether the clocks from now on may go in one go (emu_cell_run_alone): clock by clock, each would issue the
 * bundle at the clock the last one freed the core, and the clock would move on to the next. That needs the clock
 * at ready_at, and no deadlock to declare on the way: none can be when no dormant cell waits; otherwise every
 * bundle must count as progress (outside a handler, past the recheck bundles) and none last as long as the
 * deadlock window, which then never closes nor cuts a skip short. */
static bool may_run_ahead(const emu_array_t *a, const emu_block_t *b, const emu_cell_t *c, uint64_t now)
{
    const ca_t *ca = &c->ca;
    if (ca->s.ready_at != now)
        return false;
    if (b->dormant_waiting == 0)
        return true;
    return !ca->s.in_handler && c->saved.awake_bundles >= EMU_RECHECK_BUNDLES &&
           ca->prog->max_clocks < a->machine.deadlock_clocks;
}

bool emu_block_alone(emu_array_t *a, emu_block_t *b, emu_run_clock_t *rc, uint64_t limit, emu_run_status_t *st)
{
    if (b->nawake != 1 || b->dirty || a->driver.clock != NULL || atomic_load_explicit(&b->wakes, memory_order_relaxed) != b->wakes_seen)
        return false;
    emu_cell_t *c = b->awake[0];
    if (!agent_quiet(c, rc->clock))
        return false;
    while (rc->clock < b->wake_at && !a->stop_requested && computes(&c->ca)) {
        emu_step_summary_t sum = {.next = UINT64_MAX};
        if (may_run_ahead(a, b, c, rc->clock)) {
            uint64_t horizon = b->wake_at < limit ? b->wake_at : limit;
            if (horizon - rc->clock > EMU_RUN_AHEAD_CLOCKS)
                horizon = rc->clock + EMU_RUN_AHEAD_CLOCKS;
            if (emu_cell_run_alone(c, horizon, &sum)) {
                rc->clock = c->saved.now; /* the last clock it ran, decided on as it would have been */
                a->last_ran = rc->clock;
                a->ran_any = true;
                tell_dormant(b, &sum);
                if (emu_clock_decide(rc, &a->machine, &sum, limit, st))
                    return true;
                continue;
            }
        }
        emu_cell_step_alone(c, rc->clock, &sum);
        a->last_ran = rc->clock;
        a->ran_any = true;
        tell_dormant(b, &sum);
        if (emu_clock_decide(rc, &a->machine, &sum, limit, st))
            return true;
    }
    return false;
}
