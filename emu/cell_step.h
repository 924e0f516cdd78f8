/* A cell's clock (emu_cell_step_next), inline in the loop that steps a block's cells (schedule.c): as a call, its
 * frame and the call cost 29 host instructions a cell-clock of stream 8x8's 197 in the step and the loop. What is
 * rare (a run ahead, its settling, a stuck agent's waits, the answers after a step that does not stay awake) stays
 * out of line in cell.c. */
#ifndef EMU_CELL_STEP_H
#define EMU_CELL_STEP_H

#include "cell.h"
#include "watch.h"

/* Runs the CA ahead from now (its ready_at) up to below horizon (cell.c); returns what ca_step would. */
uint64_t emu_cell_run_ahead(emu_cell_t *c, uint64_t now, uint64_t horizon);
/* What emu_cell_step_next answers after a step that left nothing in flight and no fault; active: coa_active. */
emu_cell_next_t emu_cell_next_after(emu_cell_t *c, uint64_t now, unsigned may, bool active);

static inline bool asleep_in_wfe(const ca_t *ca)
{
    return ca->s.state == CA_WAITING && ca->s.wait_cause == CA_STALL_WFE;
}

/* Whether the CA's timer is set (timer_at not 0) and its clock has come: one compare, since 0 - 1 wraps past any
 * clock (now stays far below UINT64_MAX). */
static inline bool timer_passed(const ca_state_block_t *s, uint64_t now)
{
    return s->timer_at - 1 < now;
}

/* Whether an event could divert a CA that waits on a gate, or wake one asleep in wfe (which a pending
 * event in the mask wakes with events off too), so that it must be stepped. */
static inline bool event_possible(const emu_cell_t *c, uint64_t now)
{
    const ca_state_block_t *s = &c->ca.s;
    if (!s->events_on && !asleep_in_wfe(&c->ca))
        return false;
    uint32_t bits = s->event_pending | c->coa.spool_events | (c->coa.narrivals > 0 ? (uint32_t)CA_EVENT_ARRIVAL : 0u);
    if (timer_passed(s, now))
        bits |= CA_EVENT_TIMER;
    return (bits & s->event_mask) != 0;
}

/* Whether the CA's events would neither be latched nor taken at `now` (ca_step_ready): what the port's
 * event_sources (cell_event_sources) gives, asked here without the call: no spool has ended, and the arrival
 * queue's level. */
static inline bool events_quiet(const emu_cell_t *c, uint64_t now)
{
    const ca_state_block_t *s = &c->ca.s;
    /* The arrival's bit apart, tested only when some channel has arrived: no bit to build at every clock. A spool's
     * end latches in or out of the mask: its bits join the pending ones after the mask, in one test. */
    return !timer_passed(s, now) && ((s->event_pending & s->event_mask) | c->coa.spool_events) == 0 &&
           (c->coa.narrivals == 0 || !(s->event_mask & CA_EVENT_ARRIVAL));
}

/* ca_step for a CA that runs or waits. With events on, ca_step asks the port for them before every bundle: here
 * the cell asks its agent itself, inline, and the core asks only when something is there. */
static inline uint64_t ca_step_here(emu_cell_t *c, uint64_t now)
{
    ca_t *ca = &c->ca;
    if (now < ca->s.ready_at)
        return ca->s.ready_at;
    if (!ca->s.events_on || events_quiet(c, now))
        return ca_step_ready(ca, now);
    return ca_step(ca, now);
}

/* A timer that would wake the CA: the clock it comes, or UINT64_MAX. The step, the lone cell's step and the
 * test for sleep all ask it, so they cannot disagree. */
static inline uint64_t timer_due(const ca_t *ca, uint64_t now)
{
    if ((ca->s.events_on || asleep_in_wfe(ca)) && ca->s.timer_at != 0 && (ca->s.event_mask & CA_EVENT_TIMER) &&
        !ca_done(ca))
        return ca->s.timer_at > now ? ca->s.timer_at : now + 1;
    return UINT64_MAX;
}

/* The array has caught up with a CA that ran ahead: the bundles it issued meanwhile were progress, each at its
 * clock, as step would have counted them (and reports, sum). */
static inline void ahead_caught_up(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum)
{
    if (c->ahead_active && now >= c->ahead->until) {
        uint64_t last = c->ahead->last_issue;
        if (last > c->saved.progress_at)
            c->saved.progress_at = last;
        if (last > sum->progress_at)
            sum->progress_at = last;
        c->ahead_active = false;
    }
}

/* With events on, whether the CA may start a run ahead now: no event would divert it before its next bundle, and
 * none of what a step would latch at each clock (a spool's end, the timer's clock) is pending. An arrival may come
 * meanwhile: step puts the CA back then. The timer ends the run ahead (run_ahead). */
static inline bool events_allow_ahead(const emu_cell_t *c, uint64_t now)
{
    const ca_state_block_t *s = &c->ca.s;
    return c->coa.spool_events == 0 && !timer_passed(s, now) && !event_possible(c, now);
}

/* A run ahead that issues fewer bundles than this costs more than stepping them (its start keeps the CA's state):
 * the next AHEAD_SHORT_SKIPS tries at the same pc step instead. */
enum { AHEAD_SHORT_BUNDLES = 4, AHEAD_SHORT_SKIPS = 16 };
static inline bool short_ahead_here(emu_cell_t *c)
{
    if (c->ahead_short_skips == 0 || c->ca.s.pc != c->ahead_short_pc)
        return false;
    c->ahead_short_skips--;
    return true;
}

/* Whether the CA's next bundle, due now, may start a run ahead up to ahead_until (emu_cell_step_next; 0: none may). */
static inline bool may_start_ahead(emu_cell_t *c, uint64_t now, uint64_t ahead_until)
{
    const ca_t *ca = &c->ca;
    /* A spool at work first: it keeps a busy agent's CA from running ahead at every clock. */
    if (c->coa.spools_active != 0 || ahead_until == 0 || ca->s.state != CA_RUNNING || ca->s.ready_at != now ||
        ca->s.in_handler || c->saved.awake_bundles < EMU_RECHECK_BUNDLES || c->coa.loading || c->coa.fault.raised ||
        ca->prog->max_clocks >= c->array->machine.deadlock_clocks)
        return false;
    /* This bundle and the next in the text (the sentinel after the last has no flags): a lone bundle between two
     * that touch the agent is not worth keeping the CA's state for. */
    const emu_bundle_t *b = emu_program_bundle(ca->prog, ca->s.pc);
    return b != NULL && (b->flags & b[1].flags & EMU_BUNDLE_RUN_AHEAD) &&
           (!ca->s.events_on || events_allow_ahead(c, now)) && !short_ahead_here(c);
}

/* What a step found of its agent at its end, which emu_cell_step_next asks again: computed once, since the summary's
 * stores in between could alias the agent's counts for the compiler. */
typedef struct step_end {
    bool active;  /* coa_active */
    bool sending; /* coa_sending */
} step_end_t;

static inline __attribute__((always_inline)) step_end_t step(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum,
                                                             uint64_t ahead_until)
{
    /* The clock's progress goes into the summary where it is made: the cell's progress_at from before was reported
     * when it was (the clock's summary holds it, or a dormant cell's is older still), so that the last progress the
     * run keeps (emu_clock_decide) is at least every cell's, and reporting it again at every clock would add
     * nothing. */
    ahead_caught_up(c, now, sum);
    /* A stuck agent's waits were added up as its cell woke (rebuild in schedule.c, emu_cell_step): no test here. */
    c->saved.now = now;
    uint64_t moved_before = c->coa.moved;
    coa_deliver(&c->coa, now);

    ca_t *ca = &c->ca;
    /* A CA blocked on a gate can only go on once a word has moved in this cell. Running first: one test where the CA
     * issues at every clock. */
    if (ca->s.state == CA_RUNNING ||
        (ca->s.state == CA_WAITING && (c->coa.moved != c->saved.moved_seen || event_possible(c, now)))) {
        /* Their answer, the CA's ready_at while it runs (UINT64_MAX once it halts or faults, now + 1 for a wait), is
         * read from the CA at the end, the one place that needs it, rather than kept across the agent's calls. */
        if (may_start_ahead(c, now, ahead_until))
            (void)emu_cell_run_ahead(c, now, ahead_until);
        else
            (void)ca_step_here(c, now);
        /* A run-ahead stops at a watched pc: its last bundle got there (emu_program_stop_ahead). */
        if (__builtin_expect(c->watch != NULL, 0))
            emu_watch_pc(c->watch, ca->s.pc, c->ahead_active ? c->ahead->last_issue : now);
        /* Event handlers are not progress on their own: a runtime that only retries on a timer while
         * nothing moves is stuck, and the deadlock detector must see it. Nor is a program that wakes
         * from wfe for that timer, looks again and sleeps again: the runtimes' wait loops do, and a
         * torus without its dateline then livelocked for ever instead of stopping as a deadlock. A wait loop
         * ends at its wfe whether the CA sleeps there or not: with an event always pending when it comes
         * back (a retry timer shorter than its handler), it never sleeps. Before both were seen so, the rfe of
         * each handler and the looks of such loops added up to progress, and a livelock went on to the cycle
         * limit. The CA notes the clock of each bundle it issues outside a handler (awake_issue_at; an rfe issues in
         * its handler), so that nothing is kept across its call; a run ahead has added its bundles but this one. */
        if (ca->s.wfe_reached) {
            ca->s.wfe_reached = false;
            c->saved.awake_bundles = 0;
        } else if (ca->awake_issue_at == now && !ca->s.in_handler &&
                   ++c->saved.awake_bundles > EMU_RECHECK_BUNDLES) {
            c->saved.progress_at = now;
            sum->progress_at = now; /* the latest clock any cell reports */
        }
        if (ca->s.state == CA_WAITING)
            c->saved.moved_seen = c->coa.moved;
    }
    bool coa_busy = coa_active(&c->coa);
    if (coa_busy)
        coa_after_ca(&c->coa, now, now < ca->s.mem_busy_until);
    /* A CA that ran ahead with events on, to which an event came in this clock (an arrival), is put back to the end
     * of it: it takes the event at the next clock it is ready, as a step at each clock would have found. */
    if (__builtin_expect(c->ahead_active, 0) && event_possible(c, now + 1)) {
        if (c->ahead->last_issue > now) /* not only the timer, which the run ahead stopped short of */
            c->ahead_diverted++;
        emu_cell_settle_ahead(c, now + 1, &sum->progress_at);
    }
    if (c->coa.moved != moved_before) {
        c->saved.progress_at = now;
        sum->progress_at = now;
    }
    if (c->coa.fault.raised && ca->s.state != CA_FAULTED) {
        /* The run stops at this clock: a CA that ran past it is put back there first. */
        if (c->ahead_active)
            emu_cell_settle_ahead(c, now + 1, &sum->progress_at);
        ca_raise_fault(ca, now, EMU_FAULT_NETWORK, c->coa.fault.addr, c->coa.fault.detail);
        c->coa.fault.raised = false;
    }

    /* A waiting CA needs no clock of its own: whatever wakes it arrives over a link, and the sender keeps
     * the clock ticking until then (coa_sending); its post wakes the receiver if it sleeps (schedule.c). */
    step_end_t end = {coa_busy && coa_active(&c->coa), coa_sending(&c->coa, now)}; /* an idle agent stayed so */
    uint64_t next = now + 1; /* the agent's clocks come first: no timer is due before the next */
    if (!coa_busy && !end.active && !end.sending) {
        /* A CA that faulted here stops the run at this clock, whatever its next. */
        next = ca->s.state == CA_RUNNING ? ca->s.ready_at : UINT64_MAX;
        uint64_t timer = timer_due(ca, now);
        if (timer < next)
            next = timer;
    }
    emu_summary_add(sum, next, 0, EMU_STATE_BIT(ca->s.state)); /* its progress: above */
    return end;
}

/* emu_cell_step, then what the cell does next (`may`: EMU_MAY_*). With ahead_until not 0 (the run's limit, above
 * now + 1; 0 where nothing may run ahead), a CA that would issue a bundle that touches nothing outside its core, with
 * no event pending, out of a handler, past its wait loop's bundles (progress, EMU_RECHECK_BUNDLES) and with no spool or
 * loader of its agent at work, runs ahead up to below ahead_until (and its timer's clock), a few hundred clocks at
 * most: the bundles each clock would issue, at once. Nothing outside the core reads or changes what they do until the
 * next bundle, which the cell issues at its clock as before, or an arrival for a CA with events on, which puts it back
 * to that clock; meanwhile the cell naps, or steps its agent alone. Should the run end first, emu_cell_settle_ahead
 * puts the CA back as it was at the run's end. */
static inline emu_cell_next_t emu_cell_step_next(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum, unsigned may,
                                                 uint64_t ahead_until)
{
    step_end_t end = step(c, now, sum, ahead_until);
    /* A running CA never lets its cell sleep (may_sleep), nor nap beside a busy agent: the common answer, without the
     * call, asked first. Every answer but AWAKE needs nothing the agent sent still on its way, and no fault. */
    if ((end.active && c->ca.s.state == CA_RUNNING) || end.sending || c->coa.fault.raised)
        return EMU_CELL_AWAKE;
    return emu_cell_next_after(c, now, may, end.active);
}

#endif
