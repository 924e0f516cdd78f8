/* The host-side generators and sinks in place of the computation agents, the core of each cell of an emulated
 * array (emu_driver_t): the array's agents, links, scheduler and threads are every run's. Each works only
 * through its agent's port (coa_cr_read/write, the gates), as a program would, at no clock cost: one word per
 * gate per clock, channels from ALLOC, arrivals from the arrival queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coa_cr.h"
#include "coa_gate.h"
#include "conset/route.h"
#include "err.h"
#include "fnv.h"
#include "traffic_internal.h"

static uint64_t probability(double p)
{
    return p >= 1.0 ? UINT64_MAX : p <= 0.0 ? 0 : (uint64_t)(p * 18446744073709551616.0);
}

static void cell_error(tr_cell_t *c, uint64_t now, const char *what)
{
    if (c->counts.errors++ == 0)
        snprintf(c->first_error, sizeof c->first_error, "cell %u clock %llu: %s", c->id, (unsigned long long)now, what);
}

static bool note(tr_notes_t *ns, uint64_t created, uint64_t delay, unsigned hops)
{
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? 2 * ns->cap : 256;
        tr_note_t *v = realloc(ns->v, cap * sizeof *v);
        if (v == NULL) {
            ns->failed = true;
            return false;
        }
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n++] = (tr_note_t){created, (uint32_t)delay, (uint16_t)hops};
    return true;
}

/* The pools of runtime/msg.s's msg_init: transit pool 0 is channel 8+d of the neighbour in direction d, pool 1
 * (past the dateline) 12+d, the delivery pool 2 16+d; messages start on the local channels 4..7. */
static void msg_pools(coa_t *a)
{
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        for (unsigned p = 0; p < 3; p++)
            coa_cr_write(a, COA_CR_LINK_POOL + 8 * d + 2 * p, 1u << (8 + 4 * p + d), 0);
        coa_cr_write(a, COA_CR_LINK_POOL + 8 * d + 6, 0, 0);
        coa_cr_write(a, COA_CR_REMOTE_FREE + 2 * d, 0xfff00u, 0);
    }
    coa_cr_write(a, COA_CR_LOCAL_POOL, 0xf0u, 0);
}

static uint32_t link_end(unsigned dir, unsigned channel)
{
    return coa_end_encode((coa_end_t){COA_END_LINK, (uint8_t)dir, (uint8_t)channel});
}

/* Fixed routing: the pattern as a connection set, compiled by the communication compiler (docs/conset.md) into
 * one phase, whose pathways are written into the agents' forwarding entries once, as a context switch would:
 * each channel's route to the next cell's channel, its source, the source's output gate and the sink's input
 * gate. Messages then need no header and no trailer. */
static int setup_fixed(tr_net_t *n, char *err, size_t errlen)
{
    cset_t set;
    if (cset_init(&set, n->w, n->h, CSET_MAX_CAPACITY) != 0)
        return err_set(err, errlen, "a %ux%u connection set cannot be made", n->w, n->h);
    unsigned task = cset_task(&set, traffic_pattern_name(n->cfg.pattern));
    int rc = task == CSET_NONE ? err_set(err, errlen, "out of memory") : 0;
    for (unsigned src = 0; rc == 0 && src < n->ncells; src++) {
        uint64_t unused = 0; /* the permutations draw nothing */
        unsigned dst = tr_destination(&n->cfg, src, &unused);
        char id[32];
        snprintf(id, sizeof id, "c%u_%u", src, dst);
        if (dst != src && cset_add(&set, id, src, dst, 1, task) == CSET_NONE)
            rc = err_set(err, errlen, "out of memory");
    }
    route_options_t o;
    route_options_init(&o);
    route_plan_t plan;
    if (rc == 0 && route_compile(&set, &o, &plan, err, errlen) != 0)
        rc = -1;
    else if (rc == 0) {
        if (plan.nphases != 1)
            rc = err_set(err, errlen, "the %s pattern compiles into %u phases on %ux%u: fixed pathways need one",
                         traffic_pattern_name(n->cfg.pattern), plan.nphases, n->w, n->h);
        for (unsigned k = 0; rc == 0 && k < set.nconns; k++) {
            const route_conn_t *pc = &plan.conns[k];
            unsigned first = pc->first, last = pc->first + pc->ncells - 1;
            for (unsigned i = first; rc == 0 && i <= last; i++) {
                coa_t *a = n->cells[plan.cells[i]].coa;
                uint32_t lc = COA_CR_LC + 8u * plan.chans[i];
                if ((i < last &&
                     coa_cr_write(a, lc + COA_LC_F_ROUTE, link_end(plan.dirs[i], plan.chans[i + 1]), 0) != 0) ||
                    (i > first &&
                     coa_cr_write(a, lc + COA_LC_F_SOURCE, link_end(plan.dirs[i - 1] ^ 1u, plan.chans[i - 1]), 0) != 0))
                    rc = err_set(err, errlen, "channel %u of cell %u refused its forwarding entry", plan.chans[i],
                                 plan.cells[i]);
            }
            tr_cell_t *from = &n->cells[plan.cells[first]], *to = &n->cells[plan.cells[last]];
            if (rc == 0 && (coa_cr_write(from->coa, COA_CR_GATE_OUT0, plan.chans[first], 0) != 0 ||
                            coa_cr_write(to->coa, COA_CR_GATE_IN0, plan.chans[last], 0) != 0))
                rc = err_set(err, errlen, "a gate refused its channel");
            to->fixed_hops = pc->ncells - 1;
            to->receiving = true;
            to->rx_words = UINT32_MAX;
        }
        route_plan_free(&plan);
    }
    cset_free(&set);
    return rc;
}

static void net_clock(void *user, emu_drive_span_t *span, uint64_t now);

int tr_net_init(tr_net_t *n, const traffic_config_t *cfg, char *err, size_t errlen)
{
    memset(n, 0, sizeof *n);
    if (traffic_config_check(cfg, err, errlen) != 0)
        return -1;
    const emu_machine_t *m = &cfg->machine;
    n->cfg = *cfg;
    n->w = m->width;
    n->h = m->height;
    n->ncells = n->w * n->h;
    n->injecting = true;
    double size = traffic_mean_size(cfg);
    if (cfg->injection == TRAFFIC_ONOFF) {
        n->p_create = probability(cfg->rate / (size * cfg->duty));
        n->p_switch_off = cfg->duty >= 1.0 ? 0 : probability(1.0 / cfg->burst);
        n->p_switch_on = cfg->duty >= 1.0 ? 0 : probability(cfg->duty / (cfg->burst * (1.0 - cfg->duty)));
    } else {
        n->p_create = probability(cfg->rate / size);
    }
    if (emu_array_create(&n->array, m, err, errlen) != 0)
        return -1;
    n->cells = calloc(n->ncells, sizeof *n->cells);
    if (n->cells == NULL) {
        tr_net_free(n);
        return err_set(err, errlen, "out of memory for %u cells", n->ncells);
    }
    for (unsigned i = 0; i < n->ncells; i++) {
        tr_cell_t *c = &n->cells[i];
        c->id = i;
        c->coa = emu_array_agent(n->array, i);
        c->rng = cfg->seed * 0x2545f4914f6cdd1dull + i;
        splitmix64_next(&c->rng);
        c->last_created = calloc(n->ncells, sizeof *c->last_created);
        if (c->last_created == NULL) {
            tr_net_free(n);
            return err_set(err, errlen, "out of memory for cell %u", i);
        }
        msg_pools(c->coa);
        c->on = cfg->injection == TRAFFIC_BERNOULLI || splitmix64_next(&c->rng) < probability(cfg->duty);
    }
    if (cfg->routing == TRAFFIC_FIXED && setup_fixed(n, err, errlen) != 0) {
        tr_net_free(n);
        return -1;
    }
    emu_array_set_threads(n->array, cfg->threads);
    emu_array_set_driver(n->array, &(emu_driver_t){.user = n, .clock = net_clock});
    return 0;
}

void tr_net_free(tr_net_t *n)
{
    if (n->cells != NULL)
        for (unsigned i = 0; i < n->ncells; i++) {
            tr_cell_t *c = &n->cells[i];
            free(c->queue);
            free(c->last_created);
            free(c->deliveries.v);
            free(c->injections.v);
        }
    emu_array_free(n->array);
    free(n->cells);
    memset(n, 0, sizeof *n);
}

/* --- the source --- */

static bool queue_push(tr_cell_t *c, tr_msg_t m)
{
    if (c->qlen == c->qcap) {
        size_t cap = c->qcap ? 2 * c->qcap : 16;
        tr_msg_t *q = malloc(cap * sizeof *q);
        if (q == NULL)
            return false;
        for (size_t k = 0; k < c->qlen; k++)
            q[k] = c->queue[(c->qhead + k) % c->qcap];
        free(c->queue);
        c->queue = q;
        c->qcap = cap;
        c->qhead = 0;
    }
    c->queue[(c->qhead + c->qlen++) % c->qcap] = m;
    return true;
}

int tr_net_inject(tr_net_t *n, unsigned src, unsigned dst, unsigned words)
{
    tr_cell_t *c = &n->cells[src];
    if (src == dst || dst >= n->ncells || words == 0 || words > TRAFFIC_MAX_WORDS ||
        !queue_push(c, (tr_msg_t){n->clock, dst, words}))
        return -1;
    c->counts.created++;
    c->counts.words_created += words;
    return 0;
}

/* What every cell's core reads at a clock, taken from the network once a clock: in a local the compiler keeps it
 * in registers across the agent's calls, which it cannot tell leave the network alone. */
typedef struct tr_clock {
    tr_net_t *n;
    tr_cell_t *cells;
    uint64_t p_create;
    bool injecting, onoff, fixed;
} tr_clock_t;

static void generate(const tr_clock_t *k, tr_cell_t *c, uint64_t now)
{
    tr_net_t *n = k->n;
    if (k->onoff) {
        uint64_t u = splitmix64_next(&c->rng);
        if (c->on ? u < n->p_switch_off : u < n->p_switch_on)
            c->on = !c->on;
    }
    if (!c->on || splitmix64_next(&c->rng) >= k->p_create)
        return;
    unsigned dst = tr_destination(&n->cfg, c->id, &c->rng);
    unsigned words = tr_size(&n->cfg, &c->rng);
    if (dst == c->id)
        return; /* a fixed point of the pattern sends nothing */
    if (!queue_push(c, (tr_msg_t){now, dst, words})) {
        cell_error(c, now, "out of memory for the source queue");
        return;
    }
    c->counts.created++;
    c->counts.words_created += words;
}

/* The k-th word of a message on the wire: signs, the info word (source << 20 | length, as runtime/msg.s), the
 * data (word j is the creation clock + j: the sink checks order and recovers the creation time), the trailer. */
static uint32_t message_word(const tr_cell_t *c, const tr_send_t *s, unsigned k, bool *tag)
{
    unsigned ns = s->route.nsigns;
    *tag = k < ns || k == s->total - 1;
    if (k < ns)
        return s->route.signs[k];
    if (k == ns)
        return c->id << 20 | s->msg.words;
    if (k < s->total - 1)
        return (uint32_t)s->msg.created + (k - ns - 1);
    return coa_trailer_encode((uint32_t)s->msg.created);
}

/* Fixed routing: go0 stays bound to the pathway; a message is its info word and its data. */
static void send_fixed(tr_net_t *n, tr_cell_t *c, coa_t *agent, uint64_t now)
{
    tr_send_t *s = &c->send[0];
    if (!s->busy) {
        if (c->qlen == 0)
            return;
        s->busy = true;
        s->msg = c->queue[c->qhead];
        c->qhead = (c->qhead + 1) % c->qcap;
        c->qlen--;
        s->next = 0;
        s->total = s->msg.words + 1;
        if (s->msg.created >= n->measure_from && !note(&c->injections, s->msg.created, now - s->msg.created, 0))
            cell_error(c, now, "out of memory for the measurements");
    }
    if (coa_gate_out_status(agent, 0) != 0)
        return;
    uint32_t w = s->next == 0 ? c->id << 20 | s->msg.words : (uint32_t)s->msg.created + (s->next - 1);
    coa_gate_out_push(agent, 0, w, now);
    if (++s->next == s->total)
        s->busy = false;
}

static void send(tr_net_t *n, tr_cell_t *c, coa_t *agent, unsigned g, uint64_t now)
{
    tr_send_t *s = &c->send[g];
    if (!s->busy) {
        if (c->qlen == 0)
            return;
        const tr_msg_t *m = &c->queue[c->qhead];
        /* As runtime/msg.s: a message does not start while another to the same destination is going out, so
         * messages between two cells arrive in order. */
        if (c->send[g ^ 1u].busy && c->send[g ^ 1u].msg.dst == m->dst)
            return;
        uint32_t lc;
        coa_cr_read(agent, COA_CR_ALLOC, &lc, now);
        if (lc == ~0u)
            return; /* every local channel is busy: try again next clock */
        coa_cr_write(agent, COA_CR_GATE_OUT0 + g, lc, now);
        s->busy = true;
        s->msg = *m;
        c->qhead = (c->qhead + 1) % c->qcap;
        c->qlen--;
        traffic_route(n->w, n->h, c->id, s->msg.dst, &s->route);
        s->next = 0;
        s->total = s->route.nsigns + s->msg.words + 2;
        if (s->msg.created >= n->measure_from &&
            !note(&c->injections, s->msg.created, now - s->msg.created, s->route.hops))
            cell_error(c, now, "out of memory for the measurements");
    }
    if (coa_gate_out_status(agent, g) != 0)
        return;
    bool tag;
    uint32_t w = message_word(c, s, s->next, &tag);
    if (tag)
        coa_cr_write(agent, COA_CR_TAG_NEXT, 1u << g, now);
    coa_gate_out_push(agent, g, w, now);
    if (++s->next == s->total)
        s->busy = false; /* the trailer unbound the gate */
}

/* --- the sink --- */

static void delivered(tr_net_t *n, tr_cell_t *c, uint64_t now);

static void receive(tr_net_t *n, tr_cell_t *c, coa_t *agent, uint64_t now)
{
    if (!c->receiving) {
        uint32_t lc;
        if (agent->narrivals == 0 || coa_cr_read(agent, COA_CR_ARRIVAL, &lc, now) != 0 ||
            coa_cr_write(agent, COA_CR_GATE_IN0, lc, now) != 0)
            return;
        c->receiving = true;
        c->rx_got = 0;
        c->rx_words = UINT32_MAX; /* until the info word */
    }
    if (coa_gate_in_status(agent, 0) != 0)
        return;
    uint32_t w = coa_gate_in_pop(agent, 0, now);
    char what[128];
    if (c->rx_words == UINT32_MAX) {
        c->rx_src = w >> 20;
        c->rx_words = w & TRAFFIC_MAX_WORDS;
        if (c->rx_src >= n->ncells || c->rx_src == c->id || c->rx_words == 0) {
            snprintf(what, sizeof what, "info word 0x%08x names no other cell or no data", w);
            cell_error(c, now, what);
        }
        return;
    }
    if (c->rx_got == 0) {
        c->rx_first = w;
    } else if (w != c->rx_first + c->rx_got) {
        snprintf(what, sizeof what, "word %u of the message from cell %u is 0x%08x, not 0x%08x", c->rx_got, c->rx_src,
                 w, c->rx_first + c->rx_got);
        cell_error(c, now, what);
    }
    c->rx_got++;
    if (n->cfg.routing == TRAFFIC_FIXED && c->rx_got == c->rx_words) {
        /* No trailer on a fixed pathway: the last data word ends the message, and the next one follows. */
        delivered(n, c, now);
        c->receiving = true;
        c->rx_words = UINT32_MAX;
        c->rx_got = 0;
    }
}

/* The agent consumed the trailer: the message's tail is delivered now. */
static void delivered(tr_net_t *n, tr_cell_t *c, uint64_t now)
{
    c->receiving = false;
    char what[128];
    if (c->rx_words == UINT32_MAX || c->rx_got != c->rx_words) {
        snprintf(what, sizeof what, "a message from cell %u ended after %u of its %u data words", c->rx_src, c->rx_got,
                 c->rx_words);
        cell_error(c, now, what);
        return;
    }
    uint32_t latency = (uint32_t)now - c->rx_first;
    uint32_t last = c->last_created[c->rx_src];
    if (last != 0 && (int32_t)(c->rx_first - (last - 1)) <= 0) {
        snprintf(what, sizeof what, "a message from cell %u created at %u came after one created at %u", c->rx_src,
                 c->rx_first, last - 1);
        cell_error(c, now, what);
    }
    c->last_created[c->rx_src] = c->rx_first + 1;
    c->counts.delivered++;
    c->counts.words_delivered += c->rx_words;
    c->counts.latency_sum += latency;
    uint64_t created = now - latency;
    unsigned hops = n->cfg.routing == TRAFFIC_FIXED ? c->fixed_hops : tr_hops(n->w, n->h, c->rx_src, c->id);
    if (created >= n->measure_from && !note(&c->deliveries, created, latency, hops))
        cell_error(c, now, "out of memory for the measurements");
}

/* One clock of a cell's core, between the agent's arrivals and its spools, headers and links (emu_drive_cells):
 * the sink, the generator and the senders. */
static inline void core_step(void *user, unsigned cell, coa_t *agent, uint64_t now)
{
    const tr_clock_t *k = user;
    tr_net_t *n = k->n;
    tr_cell_t *c = &k->cells[cell];
    receive(n, c, agent, now);
    if (k->injecting)
        generate(k, c, now);
    if (k->fixed)
        send_fixed(n, c, agent, now);
    else
        for (unsigned g = 0; g < COA_NUM_GATES; g++)
            send(n, c, agent, g, now);
}

/* After the agent's clock: a trailer it consumed delivered the message; a fault is the cell's error, and the run
 * goes on. */
static inline void core_after(void *user, unsigned cell, coa_t *agent, uint64_t now)
{
    const tr_clock_t *k = user;
    tr_net_t *n = k->n;
    tr_cell_t *c = &k->cells[cell];
    if (c->receiving && agent->gate_in_lc[0] == COA_NONE)
        delivered(n, c, now);
    if (agent->fault.raised) {
        cell_error(c, now, agent->fault.detail);
        agent->fault.raised = false;
    }
}

static void net_clock(void *user, emu_drive_span_t *span, uint64_t now)
{
    tr_net_t *n = user;
    const tr_clock_t k = {n, n->cells, n->p_create, n->injecting, n->cfg.injection == TRAFFIC_ONOFF,
                          n->cfg.routing == TRAFFIC_FIXED};
    emu_drive_cells(span, now, (void *)&k, core_step, core_after);
}

void tr_net_run(tr_net_t *n, uint64_t until)
{
    emu_array_run(n->array, until);
    n->clock = emu_array_clock(n->array);
}

/* --- what the measurement reads --- */

tr_counts_t tr_net_counts(const tr_net_t *n)
{
    tr_counts_t s = {0};
    for (unsigned i = 0; i < n->ncells; i++) {
        const tr_counts_t *c = &n->cells[i].counts;
        s.created += c->created;
        s.words_created += c->words_created;
        s.delivered += c->delivered;
        s.words_delivered += c->words_delivered;
        s.latency_sum += c->latency_sum;
        s.errors += c->errors;
    }
    return s;
}

bool tr_net_empty(const tr_net_t *n)
{
    tr_counts_t s = tr_net_counts(n);
    return s.created == s.delivered;
}

const char *tr_net_first_error(const tr_net_t *n)
{
    for (unsigned i = 0; i < n->ncells; i++)
        if (n->cells[i].counts.errors > 0)
            return n->cells[i].first_error;
    return "";
}

uint64_t tr_net_hash(const tr_net_t *n)
{
    uint64_t h = FNV64_OFFSET;
    for (unsigned i = 0; i < n->ncells; i++) {
        const tr_cell_t *c = &n->cells[i];
        for (unsigned d = 0; d < COA_NUM_DIRS; d++)
            h = fnv1a64_u64(fnv1a64_u64(h, c->coa->link_stats[d].words), c->coa->link_stats[d].busy_clocks);
        for (unsigned lc = 0; lc < c->coa->cfg.channels; lc++) {
            const coa_lc_stats_t *s = &c->coa->lc_stats[lc];
            h = fnv1a64_u64(fnv1a64_u64(fnv1a64_u64(h, s->words_in), s->words_out), s->pathways);
            for (unsigned k = 0; k < COA_WAIT_COUNT; k++)
                h = fnv1a64_u64(h, s->wait_clocks[k]);
        }
        h = fnv1a64_u64(fnv1a64_u64(fnv1a64_u64(h, c->counts.delivered), c->counts.latency_sum), c->rng);
    }
    return h;
}
