/* A cell: memory, computation agent, communication agent, and the port that joins the two agents. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cell.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cell_step.h"
#include "coa_gate.h"

/* A cell's memory: pages the kernel gives out zeroed when first touched, so a cell pays only for the memory
 * its program uses. calloc does the same for the first array only: once such a block is freed glibc raises its
 * mmap threshold, and the next array's memories come from the heap and are cleared byte by byte (a bench that
 * creates 8 MB cells one array after another spent 7% of its time clearing them). */
static uint8_t *memory_new(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
static void memory_free(uint8_t *mem, size_t bytes)
{
    if (mem != NULL)
        munmap(mem, bytes);
}

static void console_line(emu_cell_t *c)
{
    c->saved.console[c->saved.console_len] = '\0';
    if (c->array->output != NULL)
        c->array->output(c->array->output_user, c->x, c->y, c->saved.console);
    c->saved.console_len = 0;
}

/* Whole lines go to the host, empty ones included; only a line longer than EMU_CONSOLE_LINE is split. */
static void console_put(emu_cell_t *c, const char *text)
{
    for (; *text; text++) {
        if (*text == '\n') {
            console_line(c);
            continue;
        }
        if (c->saved.console_len + 1 >= EMU_CONSOLE_LINE)
            console_line(c);
        c->saved.console[c->saved.console_len++] = *text;
    }
}

void emu_cell_flush_console(emu_cell_t *c)
{
    if (c->saved.console_len > 0)
        console_line(c);
}

int emu_cell_cr_read(void *ctx, uint32_t index, uint32_t *value)
{
    emu_cell_t *c = ctx;
    const emu_machine_t *m = &c->array->machine;
    if (index >= EMU_CR_COA_BASE)
        return coa_cr_read_quick(&c->coa, index, value) ? 0 : coa_cr_read(&c->coa, index, value, c->saved.now);
    switch (index) {
    case EMU_CR_CELL_X: *value = c->x; return 0;
    case EMU_CR_CELL_Y: *value = c->y; return 0;
    case EMU_CR_ARRAY_W: *value = m->width; return 0;
    case EMU_CR_ARRAY_H: *value = m->height; return 0;
    case EMU_CR_CLOCK_LO: *value = (uint32_t)c->saved.now; return 0;
    case EMU_CR_CLOCK_HI: *value = (uint32_t)(c->saved.now >> 32); return 0;
    case EMU_CR_MEM_BYTES: *value = m->mem_bytes; return 0;
    case EMU_CR_CELL_ID: *value = c->y * m->width + c->x; return 0;
    case EMU_CR_QUEUE_DEPTH: *value = m->agent.queue_depth; return 0;
    case EMU_CR_HOP_LATENCY: *value = m->agent.hop_latency; return 0;
    case EMU_CR_LINK_CLOCKS: *value = m->agent.link_clocks; return 0;
    case EMU_CR_EVENT_ENABLE: *value = c->ca.s.events_on; return 0;
    case EMU_CR_EVENT_MASK: *value = c->ca.s.event_mask; return 0;
    case EMU_CR_EVENT_PENDING: *value = ca_events_pending(&c->ca, c->saved.now); return 0;
    case EMU_CR_EVENT_VECTOR: *value = c->ca.s.event_vector; return 0;
    case EMU_CR_EVENT_EPC: *value = c->ca.s.epc; return 0;
    case EMU_CR_TIMER: *value = (uint32_t)c->ca.s.timer_at; return 0;
    default: return -1;
    }
}

int emu_cell_cr_write(void *ctx, uint32_t index, uint32_t value)
{
    emu_cell_t *c = ctx;
    char buf[16];
    if (index >= EMU_CR_COA_BASE)
        return coa_cr_write(&c->coa, index, value, c->saved.now);
    switch (index) {
    case EMU_CR_DEBUG_PUTC:
        buf[0] = (char)value;
        buf[1] = '\0';
        console_put(c, buf);
        return 0;
    case EMU_CR_DEBUG_PUTI:
        snprintf(buf, sizeof buf, "%" PRId32, (int32_t)value);
        console_put(c, buf);
        return 0;
    case EMU_CR_DEBUG_PUTX:
        snprintf(buf, sizeof buf, "0x%" PRIx32, value);
        console_put(c, buf);
        return 0;
    case EMU_CR_EVENT_ENABLE: c->ca.s.events_on = (value & 1u) != 0; return 0;
    case EMU_CR_EVENT_MASK: c->ca.s.event_mask = value; return 0;
    case EMU_CR_EVENT_PENDING:
        ca_events_pending(&c->ca, c->saved.now); /* latch what is pending before clearing */
        c->ca.s.event_pending &= ~value;
        return 0;
    case EMU_CR_EVENT_VECTOR: c->ca.s.event_vector = value; return 0;
    case EMU_CR_EVENT_EPC: c->ca.s.epc = value; return 0;
    case EMU_CR_EVENT_RAISE: c->ca.s.event_pending |= value & ~(uint32_t)CA_EVENT_LEVEL_BITS; return 0;
    case EMU_CR_TIMER:
        /* The timer names a clock by its low 32 bits: the next one at or after now. */
        c->ca.s.timer_at = value == 0 ? 0 : (c->saved.now & ~0xffffffffull) | value;
        if (c->ca.s.timer_at != 0 && c->ca.s.timer_at < c->saved.now)
            c->ca.s.timer_at += 1ull << 32;
        return 0;
    case EMU_CR_MARK:
        if (c->saved.marks_clock != c->saved.now) {
            c->saved.marks_clock = c->saved.now;
            c->saved.nmarks = 0;
        }
        if (c->saved.nmarks < EMU_MAX_MARKS_PER_CLOCK)
            c->saved.marks[c->saved.nmarks++] = value;
        return 0;
    default: return -1;
    }
}

const ca_port_ops_t *emu_cell_port_ops(const coa_config_t *keys, bool watched)
{
    if (coa_keys_default(keys))
        return watched ? &emu_cell_watched_port_default_keys : &emu_cell_port_default_keys;
    return watched ? &emu_cell_watched_port : &emu_cell_port;
}

void emu_cell_set_watch(emu_cell_t *c, emu_watch_t *w)
{
    emu_watch_free(c->watch);
    c->watch = w;
    c->ca.port.ops = emu_cell_port_ops(&c->array->machine.agent, w != NULL);
}

int emu_cell_init(emu_cell_t *c, emu_array_t *a, unsigned x, unsigned y)
{
    const emu_machine_t *m = &a->machine;
    memset(c, 0, sizeof *c);
    c->x = x;
    c->y = y;
    c->array = a;
    c->mem = memory_new(m->mem_bytes);
    if (c->mem == NULL)
        return -1;
    ca_init(&c->ca, c->mem, m->mem_bytes, m->mem_guard,
            (ca_port_t){emu_cell_port_ops(&m->agent, false), c, &c->coa.moved,
                        /* coa_cr_read_quick's answers: an empty arrival queue, a spool's status */
                        &c->coa.narrivals, COA_CR_ARRIVAL, COA_CR_NONE, &c->coa.spool[0].status,
                        COA_CR_SPOOL + COA_SPOOL_F_STATUS, m->agent.spools, 3, sizeof c->coa.spool[0],
                        /* what coa_gate_in_status finds an input gate empty by */
                        c->coa.gate_in_lc, &c->coa.busy_lc});
    if (coa_init(&c->coa, &m->agent, emu_machine_place(m, x, y), c->mem, m->mem_bytes, m->mem_guard) != 0)
        return -1;
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        if (coa_line_init(&c->out[d], m->agent.hop_latency) != 0)
            return -1;
    return 0;
}

void emu_cell_wire(emu_array_t *a, emu_cell_t *c)
{
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        unsigned nx = c->x, ny = c->y;
        coa_dir_step((coa_dir_t)d, a->machine.width, a->machine.height, &nx, &ny);
        emu_cell_t *n = emu_array_cell(a, nx, ny);
        coa_wire(&c->coa, (coa_dir_t)d, &c->out[d], &n->coa);
        c->out[d].receiver_dormant = &n->dormant;
        c->out[d].wake = emu_cell_wake;
        c->out[d].receiver = n;
    }
}

void emu_cell_free(emu_cell_t *c)
{
    coa_free(&c->coa);
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        coa_line_free(&c->out[d]);
    memory_free(c->mem, c->array->machine.mem_bytes);
    c->mem = NULL;
    if (c->ahead != NULL)
        free(c->ahead->undo.e);
    free(c->ahead);
    c->ahead = NULL;
    emu_watch_free(c->watch);
    c->watch = NULL;
}

bool emu_cell_runs_on(const emu_cell_t *c, uint64_t now)
{
    return c->ca.s.state == CA_RUNNING || (c->ca.s.state == CA_WAITING && timer_due(&c->ca, now) != UINT64_MAX);
}

/* The clocks a CA runs ahead of its cell at most in one go: each may have to be put back, so its stores are
 * noted (ca_undo_t), two a clock at most. */
enum { AHEAD_CLOCKS = 512, AHEAD_NOTES = 2 * AHEAD_CLOCKS + 2 };

/* The CA as it was before it ran ahead: memory, then its state. */
static void ahead_rewind(emu_cell_t *c)
{
    ca_undo_apply(&c->ca, &c->ahead->undo);
    c->ahead->undo.n = 0;
    c->ca.s = c->ahead->s;
}

static bool ahead_make(emu_cell_t *c)
{
    emu_ahead_t *h = calloc(1, sizeof *h);
    if (h != NULL)
        h->undo.e = malloc(sizeof *h->undo.e * AHEAD_NOTES);
    if (h == NULL || h->undo.e == NULL) {
        free(h);
        return false;
    }
    c->ahead = h;
    return true;
}

/* Runs the CA ahead from now (its ready_at) up to below horizon, AHEAD_CLOCKS at most; returns what ca_step would
 * (ready_at). A fault on the way must stop the array at its clock, with every other cell there: the CA runs again
 * up to the faulting bundle, which then issues at its clock as any other. Without memory for the notes it steps
 * as always. */
__attribute__((noinline)) uint64_t emu_cell_run_ahead(emu_cell_t *c, uint64_t now, uint64_t horizon)
{
    ca_t *ca = &c->ca;
    if (c->ahead == NULL && !ahead_make(c))
        return ca_step(ca, now);
    emu_ahead_t *h = c->ahead;
    /* The deadlock window closes at no clock of the run: its bundles are reported as progress only when the
     * array catches up (ahead_caught_up), and the first, now, as it issues. */
    uint64_t room = c->array->machine.deadlock_clocks - ca->prog->max_clocks; /* above 0: may_start_ahead */
    if (room > AHEAD_CLOCKS)
        room = AHEAD_CLOCKS;
    if (horizon - now > room)
        horizon = now + room;
    /* With events on, a bundle at or after the timer's clock would find the timer's event first. */
    if (ca->s.events_on && ca->s.timer_at != 0 && horizon > ca->s.timer_at)
        horizon = ca->s.timer_at;
    h->s = ca->s;
    h->undo.n = 0;
    uint64_t last = now;
    ca_run_ahead_noted(ca, horizon, &h->undo, &last);
    if (ca->s.state == CA_FAULTED) {
        uint64_t at = ca->s.fault.cycle;
        ahead_rewind(c);
        if (at == now)
            return ca_step(ca, now);
        ca_run_ahead_noted(ca, at, &h->undo, &last);
    }
    h->last_issue = last;
    h->until = ca->s.ready_at;
    c->ahead_active = true;
    uint64_t issued = ca->s.stats.bundles - h->s.stats.bundles;
    c->ahead_bundles += issued;
    /* step's books of progress, which count the first at now as a bundle a step issued (no run ahead leaves a
     * handler or comes to a wfe; a wfe reached before clears the count there all the same). */
    if (issued != 0) {
        ca->awake_issue_at = now;
        c->saved.awake_bundles += issued - 1;
    }
    if (issued < AHEAD_SHORT_BUNDLES) {
        c->ahead_short_pc = h->s.pc;
        c->ahead_short_skips = AHEAD_SHORT_SKIPS;
    }
    return ca->s.ready_at;
}

__attribute__((noinline)) void emu_cell_settle_ahead(emu_cell_t *c, uint64_t clock, uint64_t *last_progress)
{
    if (!c->ahead_active)
        return;
    emu_ahead_t *h = c->ahead;
    c->ahead_active = false;
    if (h->last_issue >= clock) {
        /* The first bundle issued at a clock that ran (the step that started the run): it issues again. */
        uint64_t issued = c->ca.s.stats.bundles;
        ahead_rewind(c);
        uint64_t last = h->s.ready_at;
        ca_run_ahead_noted(&c->ca, clock, &h->undo, &last);
        if (c->watch != NULL)
            emu_watch_rewind(c->watch, clock, c->ca.s.pc);
        c->saved.awake_bundles -= issued - c->ca.s.stats.bundles;
        h->last_issue = last;
    }
    if (h->last_issue > c->saved.progress_at)
        c->saved.progress_at = h->last_issue;
    if (h->last_issue > *last_progress)
        *last_progress = h->last_issue;
}

/* A lone cell's CA runs or has faulted (its bundles neither halt nor wait): its summary bit, as emu_cell_step's. */
static inline uint32_t alone_state(const ca_t *ca)
{
    return EMU_STATE_BIT(ca->s.state) & (EMU_STATE_BIT(CA_RUNNING) | EMU_STATE_BIT(CA_FAULTED));
}

void emu_cell_step_alone(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum)
{
    /* emu_cell_step, less what cannot happen here: nothing arrives (no other cell is awake and nothing is in
     * flight), the agent is idle and the bundle does not touch it, so no word moves and no fault is raised. */
    ahead_caught_up(c, now, sum);
    c->saved.now = now;
    ca_t *ca = &c->ca;
    uint64_t issued_before = ca->s.stats.bundles;
    uint64_t next = ca_step(ca, now);
    if (c->watch != NULL)
        emu_watch_pc(c->watch, ca->s.pc, now);
    if (ca->s.stats.bundles != issued_before && !ca->s.in_handler && ++c->saved.awake_bundles > EMU_RECHECK_BUNDLES)
        c->saved.progress_at = now;
    uint64_t timer = timer_due(ca, now);
    emu_summary_add(sum, timer < next ? timer : next, c->saved.progress_at, alone_state(ca));
}

bool emu_cell_run_alone(emu_cell_t *c, uint64_t horizon, emu_step_summary_t *sum)
{
    ahead_caught_up(c, c->ca.s.ready_at, sum);
    ca_t *ca = &c->ca;
    uint64_t last_issue = 0;
    uint64_t issued = ca_run_alone(ca, horizon, &last_issue);
    /* It stops at a watched pc (emu_program_stop_ahead): only its last bundle can have got there. */
    if (c->watch != NULL)
        emu_watch_pc(c->watch, ca->s.pc, last_issue);
    bool faulted = ca->s.state == CA_FAULTED;
    if (issued == 0 && !faulted)
        return false;
    /* What emu_cell_step_alone did at each of those clocks, added up: no run-ahead bundle enters or leaves a
     * handler, so each counts as progress from the same count on as it would one by one. */
    c->saved.now = faulted ? ca->s.fault.cycle : last_issue;
    if (issued != 0 && !ca->s.in_handler) {
        c->saved.awake_bundles += issued;
        if (c->saved.awake_bundles > EMU_RECHECK_BUNDLES)
            c->saved.progress_at = last_issue;
    }
    /* Events are off and the CA neither sleeps nor has halted: no timer is due (timer_due). */
    emu_summary_add(sum, faulted ? UINT64_MAX : ca->s.ready_at, c->saved.progress_at, alone_state(ca));
    return true;
}

/* Whether stepping the cell changes nothing until a word is posted to it or its timer comes (then c->wake_at is
 * the timer's clock, or UINT64_MAX), given that its agent is idle, sends nothing and has no fault. */
static inline bool may_sleep(emu_cell_t *c, uint64_t now)
{
    const coa_t *coa = &c->coa;
    const ca_t *ca = &c->ca;
    switch (ca->s.state) {
    case CA_IDLE:
    case CA_HALTED: c->wake_at = UINT64_MAX; break;
    case CA_WAITING:
        /* As emu_cell_step skips it: nothing moved since it blocked, and no event can divert it. */
        if (coa->moved != c->saved.moved_seen || event_possible(c, now))
            return false;
        c->wake_at = timer_due(ca, now);
        break;
    default: return false; /* running, or faulted (the run stops on it) */
    }
    return !coa_receiving(coa);
}

/* Whether the cell's next clocks, up to c->wake_at, would each find its core still busy with the bundle it
 * issued, given the same of its agent. */
static inline bool may_nap(emu_cell_t *c, uint64_t now)
{
    const ca_t *ca = &c->ca;
    if (ca->s.state != CA_RUNNING || ca->s.ready_at <= now + 1 || coa_receiving(&c->coa))
        return false;
    /* Until then each step would find the core busy (ca_step returns at once) and the agent idle. */
    uint64_t timer = timer_due(ca, now);
    c->wake_at = timer < ca->s.ready_at ? timer : ca->s.ready_at;
    return true;
}

void emu_cell_unstick(emu_cell_t *c, uint64_t now)
{
    if (now > c->stuck_since) {
        coa_account_stuck_waits(&c->coa, c->stuck_since, now - c->stuck_since);
        c->stuck_clocks += now - c->stuck_since;
    }
    c->stuck_since = 0;
}

emu_cell_next_t emu_cell_next_after(emu_cell_t *c, uint64_t now, unsigned may, bool active)
{
    const coa_t *coa = &c->coa;
    if (active) {
        /* A stuck agent sleeps with its CA: the CA first, the cheaper question. */
        if (!(may & EMU_MAY_STICK) || !may_sleep(c, now) || !coa_stuck(coa, now))
            return EMU_CELL_AWAKE;
        c->stuck_since = now + 1;
        return EMU_CELL_SLEEPS;
    }
    if (may_sleep(c, now))
        return EMU_CELL_SLEEPS;
    return (may & EMU_MAY_NAP) && may_nap(c, now) ? EMU_CELL_NAPS : EMU_CELL_AWAKE;
}

void emu_cell_step(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum)
{
    if (c->stuck_since != 0) /* asleep so in a block's list before (step leaves it to whoever wakes the cell) */
        emu_cell_unstick(c, now);
    (void)step(c, now, sum, 0);
}

void emu_source_text(const ca_t *ca, uint32_t pc, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (ca->prog != NULL) {
        const isa_line_t *line = isa_image_line(&ca->prog->image, pc);
        if (line != NULL && line->file < ca->prog->image.nfiles)
            snprintf(buf, cap, " (%s:%u:%u)", ca->prog->image.files[line->file], line->line, line->col);
    }
}

void emu_cell_wake(void *cell)
{
    emu_cell_t *c = cell;
    atomic_store_explicit(&c->woken, true, memory_order_relaxed);
    if (c->block != NULL)
        atomic_fetch_add_explicit(&c->block->wakes, 1, memory_order_relaxed);
}
