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
    unsigned lane_cell, lane_dir; /* the link the wait for the next node crosses (emu_wait_step_t) */
    char why[384];
} wait_node_t;

/* Where a search writes: the report's text and the cycle's steps. */
typedef struct found {
    char *text;
    size_t cap;
    emu_wait_cycle_t *cycle;
    bool noticed; /* the deadlock window closed (else the run stopped first) */
} found_t;

static unsigned neighbour(const emu_array_t *a, unsigned cell, unsigned dir)
{
    unsigned w = a->machine.width, h = a->machine.height;
    unsigned x = cell % w, y = cell / w;
    coa_dir_step((coa_dir_t)dir, w, h, &x, &y);
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

static void lane(wait_node_t *n, unsigned cell, unsigned dir)
{
    n->lane_cell = cell;
    n->lane_dir = dir;
}

/* Fills in why `n` waits and returns what it waits for; false at a dead end. */
static bool step(const emu_array_t *a, wait_node_t *n, wait_node_t *next)
{
    const emu_cell_t *c = &a->cells[n->cell];
    const coa_t *coa = &c->coa;
    memset(next, 0, sizeof *next);
    next->cell = n->cell;
    next->lane_dir = n->lane_dir = COA_NUM_DIRS;
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
            say(n, "CA of (%u,%u) at pc 0x%x%s sleeps in wfe, waiting for a word to move", c->x, c->y, c->ca.s.pc, src);
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
        say(n,
            "(%u,%u) channel %u is draining: its trailer has left, it waits for the last credits from (%u,%u) "
            "channel %u before it is free",
            c->x, c->y, n->lc, down % a->machine.width, down / a->machine.width, l->route.index);
        lane(n, n->cell, l->route.dir);
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
            lane(n, up, coa_dir_opposite((coa_dir_t)l->source.dir)); /* the words would come from up */
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
        lane(n, n->cell, l->travel_dir);
        next->cell = down;
        next->lc = (unsigned)__builtin_ctzll(pool);
        return true;
    }
    switch (l->route.kind) {
    case COA_END_LINK: {
        unsigned down = neighbour(a, n->cell, l->route.dir);
        say(n, "(%u,%u) channel %u holds %u word%s, no room at (%u,%u) channel %u", c->x, c->y, n->lc, l->count,
            l->count == 1 ? "" : "s", down % a->machine.width, down / a->machine.width, l->route.index);
        lane(n, n->cell, l->route.dir);
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

/* When a node's wait began: the last word that left a channel, or, for a header waiting for a channel, when it
 * was decoded (a header that never moved has no other clock: the first hop of a message blocked at its second).
 * UINT64_MAX when nothing says. */
static uint64_t wait_began(const emu_array_t *a, const wait_node_t *n)
{
    const emu_cell_t *c = &a->cells[n->cell];
    if (n->is_ca)
        return c->ca.s.wait_began;
    const coa_lc_t *l = &c->coa.lc[n->lc];
    uint64_t at = l->moved_at; /* UINT64_MAX: no word has ever left that channel */
    if (l->state == COA_LC_HEADER && l->setup_started && (at == UINT64_MAX || l->setup_done > at))
        at = l->setup_done;
    return at;
}

/* The clock the cycle closed: the last time anything in it moved (a word left one of its channels, one of its
 * headers was decoded, or one of its agents began its wait). The run stops deadlock_clocks later, when the
 * detector notices. */
static uint64_t closed_at(const emu_array_t *a, const wait_node_t *cyc, unsigned n)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t at = wait_began(a, &cyc[k]);
        if (at != UINT64_MAX && at > t)
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

/* --- The messages in the cycle: the pathways its channels belong to, one row each. --- */

enum { MAX_MESSAGES = 32, MAX_PATH = 512 };

typedef struct cycle_msg {
    unsigned cell, lc; /* its first channel, where its words enter the network */
    unsigned last;     /* its last node in the cycle (the others come right before it) */
    unsigned nodes;    /* how many nodes of the cycle it holds */
    char from[32], to[32], sent[24], length[16], holds[96], waits[128];
} cycle_msg_t;

static unsigned cell_at(const emu_array_t *a, unsigned cell, unsigned dir, unsigned *x, unsigned *y)
{
    unsigned n = neighbour(a, cell, dir);
    *x = n % a->machine.width;
    *y = n / a->machine.width;
    return n;
}

/* The next channel of (cell, lc)'s pathway, downstream or upstream, when the two still point at each other. */
static bool along(const emu_array_t *a, unsigned *cell, unsigned *lc, bool down)
{
    const coa_lc_t *l = &a->cells[*cell].coa.lc[*lc];
    coa_end_t to = down ? l->route : l->source;
    if (to.kind != COA_END_LINK || to.index >= a->cells[*cell].coa.cfg.channels)
        return false;
    unsigned next = neighbour(a, *cell, to.dir);
    const coa_lc_t *n = &a->cells[next].coa.lc[to.index];
    coa_end_t back = down ? n->source : n->route;
    if (n->state == COA_LC_FREE || back.kind != COA_END_LINK || neighbour(a, next, back.dir) != *cell ||
        back.index != *lc)
        return false;
    *cell = next;
    *lc = to.index;
    return true;
}

/* Whether a node of the cycle is a channel that carries a message (a draining channel's message has left), and
 * then where that message's words enter the network: the key that tells messages apart. */
static bool message_of(const emu_array_t *a, const wait_node_t *n, unsigned *cell, unsigned *lc)
{
    if (n->is_ca)
        return false;
    const coa_lc_t *l = &a->cells[n->cell].coa.lc[n->lc];
    if (l->state == COA_LC_FREE || l->state == COA_LC_DRAINING)
        return false;
    *cell = n->cell;
    *lc = n->lc;
    for (unsigned limit = a->ncells * COA_MAX_CHANNELS; limit > 0 && along(a, cell, lc, false); limit--)
        ;
    return true;
}

static const char *sink_name(unsigned kind, unsigned index, char *buf, size_t cap)
{
    switch (kind) {
    case COA_END_GATE: snprintf(buf, cap, "gi%u", index); break;
    case COA_END_SPOOL: snprintf(buf, cap, "spool %u", index); break;
    default: snprintf(buf, cap, "queue"); break;
    }
    return buf;
}

/* Where the message goes, how many words of data it has sent and how long it is, from its channels: its words
 * in the network, what its receiver took, its header's signs, and the runtime's info word (runtime/msg.s: the
 * first data word is the source id << 20 | the length) or its sending spool. */
static void message_words(const emu_array_t *a, cycle_msg_t *m)
{
    unsigned w = a->machine.width;
    const coa_t *oc = &a->cells[m->cell].coa;
    const coa_lc_t *ol = &oc->lc[m->lc];
    char end[16];
    if (ol->source.kind == COA_END_GATE)
        snprintf(m->from, sizeof m->from, "(%u,%u) go%u", m->cell % w, m->cell / w, ol->source.index);
    else if (ol->source.kind == COA_END_SPOOL)
        snprintf(m->from, sizeof m->from, "(%u,%u) spool %u", m->cell % w, m->cell / w, ol->source.index);
    else
        snprintf(m->from, sizeof m->from, "(%u,%u)?", m->cell % w, m->cell / w); /* the trace ends there */
    /* Downstream to the header or the sink, then the queues from there back up, oldest word first. */
    unsigned pc[MAX_PATH], pl[MAX_PATH], np = 0, cell = m->cell, lc = m->lc;
    do {
        pc[np] = cell;
        pl[np++] = lc;
    } while (np < MAX_PATH && along(a, &cell, &lc, true));
    uint64_t data = 0;
    bool have_first = false, have_sign = false;
    uint32_t first = 0;
    coa_sign_t sign = {0};
    for (unsigned k = np; k-- > 0;) {
        const coa_t *c = &a->cells[pc[k]].coa;
        for (unsigned i = 0; i < c->lc[pl[k]].count; i++) {
            bool tag = false;
            uint32_t word = coa_lc_peek(c, pl[k], i, &tag);
            coa_sign_t s;
            if (!tag) {
                data++;
                if (!have_first)
                    first = word;
                have_first = true;
            } else if (!have_sign && coa_sign_decode(word, &s) && s.action >= COA_SIGN_GATE) {
                sign = s;
                have_sign = true;
            }
        }
    }
    const coa_t *hc = &a->cells[pc[np - 1]].coa;
    const coa_lc_t *h = &hc->lc[pl[np - 1]];
    unsigned hx = pc[np - 1] % w, hy = pc[np - 1] / w;
    bool arrived = h->state == COA_LC_ARRIVED || (h->state == COA_LC_ROUTED && h->route.kind != COA_END_LINK);
    bool to_queue, taken_known = true;
    uint64_t taken = 0;
    if (arrived) {
        unsigned kind = h->state == COA_LC_ARRIVED ? COA_END_QUEUE : h->route.kind;
        snprintf(m->to, sizeof m->to, "(%u,%u) %s", hx, hy, sink_name(kind, h->route.index, end, sizeof end));
        to_queue = kind == COA_END_QUEUE;
        if (kind == COA_END_SPOOL) {
            /* What its receiving spool has written to memory so far. */
            const coa_spool_t *sp = &hc->spool[h->route.index % COA_MAX_SPOOLS];
            taken_known = sp->mode == COA_SPOOL_RECEIVE && sp->lc == pl[np - 1];
            taken = taken_known ? sp->index : 0;
        } else if (kind == COA_END_GATE) {
            /* The words that left the channel, but for the sign that ended the pathway there: only when this
             * pathway is the only one the channel has carried. */
            const coa_lc_stats_t *hs = &hc->lc_stats[pl[np - 1]];
            taken_known = hs->pathways == 1 && hs->words_out >= 1;
            taken = taken_known ? hs->words_out - 1 : 0;
        }
    } else if (have_sign) {
        snprintf(m->to, sizeof m->to, "(%u,%u) %s", sign.x, sign.y,
                 sink_name(sign.action == COA_SIGN_GATE    ? COA_END_GATE
                           : sign.action == COA_SIGN_SPOOL ? COA_END_SPOOL
                                                           : COA_END_QUEUE,
                           sign.sink, end, sizeof end));
        to_queue = sign.action == COA_SIGN_QUEUE;
    } else {
        snprintf(m->to, sizeof m->to, "?");
        to_queue = false;
    }
    /* The info word: only while nothing has been taken, for the arrival queue, naming the message's source. */
    bool info =
        have_first && taken == 0 && taken_known && to_queue && first >> 20 == m->cell && (first & 0xfffffu) + 1 >= data;
    const coa_spool_t *sp = ol->source.kind == COA_END_SPOOL ? &oc->spool[ol->source.index % COA_MAX_SPOOLS] : NULL;
    if (info) {
        data--;
        snprintf(m->length, sizeof m->length, "%u", first & 0xfffffu);
    } else if (sp != NULL && sp->mode == COA_SPOOL_SEND && sp->lc == m->lc && sp->tag_head == 0 && sp->tag_tail == 0) {
        snprintf(m->length, sizeof m->length, "%llu", (unsigned long long)sp->index + sp->count);
    } else {
        snprintf(m->length, sizeof m->length, "?");
    }
    snprintf(m->sent, sizeof m->sent, "%s%llu", taken_known ? "" : ">=", (unsigned long long)(data + taken));
}

static void node_text(const emu_array_t *a, const wait_node_t *n, char *buf, size_t cap)
{
    snprintf(buf, cap, "(%u,%u) lc %u", n->cell % a->machine.width, n->cell / a->machine.width, n->lc);
}

static void message_ref(const int *group, unsigned k, char *buf, size_t cap)
{
    if (group[k] >= 0)
        snprintf(buf, cap, ", held by #%d", group[k] + 1);
    else
        buf[0] = '\0';
}

/* What the message whose last node in the cycle is k waits for: the next node, through the CA in between. */
static void message_waits(const emu_array_t *a, const wait_node_t *cyc, unsigned n, const int *group, unsigned k,
                          char *buf, size_t cap)
{
    unsigned w = a->machine.width, next = (k + 1) % n, x, y;
    const wait_node_t *node = &cyc[k], *nn = &cyc[next];
    const emu_cell_t *c = &a->cells[node->cell];
    const coa_lc_t *l = &c->coa.lc[node->lc];
    char ref[32], at[40];
    if (nn->is_ca) {
        /* A receiver that does not read, or a sender that does not write: what that CA waits for instead. */
        const ca_t *ca = &a->cells[nn->cell].ca;
        unsigned after = (next + 1) % n;
        char them[16] = "";
        if (!cyc[after].is_ca && group[after] >= 0)
            snprintf(them, sizeof them, " #%d", group[after] + 1);
        const char *does = ca->s.wait_cause == CA_STALL_WFE ? "it sleeps in wfe, for"
                           : ca->s.wait_gate >= 2           ? "it waits to send"
                                                            : "it waits for the words of";
        if (l->count > 0 && l->route.kind == COA_END_GATE)
            snprintf(buf, cap, "(%u,%u) to read gi%u; %s%s", c->x, c->y, l->route.index, does, them);
        else if (l->source.kind == COA_END_GATE)
            snprintf(buf, cap, "(%u,%u) to write go%u; %s%s", c->x, c->y, l->source.index, does, them);
        else
            snprintf(buf, cap, "(%u,%u)'s CA; %s%s", nn->cell % w, nn->cell / w, does, them);
        return;
    }
    message_ref(group, next, ref, sizeof ref);
    node_text(a, nn, at, sizeof at);
    if (l->count > 0 && l->state == COA_LC_HEADER && l->travel_dir < COA_NUM_DIRS) {
        cell_at(a, node->cell, l->travel_dir, &x, &y);
        snprintf(buf, cap, "a pool-%u channel at (%u,%u)%s", l->pool, x, y, ref);
    } else if (l->count > 0) {
        snprintf(buf, cap, "room in %s%s", at, ref);
    } else {
        snprintf(buf, cap, "words from %s%s", at, ref);
    }
}

/* A table of the messages (pathways) whose channels make up the cycle: where each comes from and goes, how far it
 * has come, the channels of the cycle it holds and what it waits for, which the next one holds. */
static void messages(const emu_array_t *a, found_t *out, const wait_node_t *cyc, unsigned n)
{
    if (n > MAX_CHAIN)
        return;
    unsigned key_cell[MAX_CHAIN], key_lc[MAX_CHAIN];
    bool keyed[MAX_CHAIN];
    for (unsigned k = 0; k < n; k++)
        keyed[k] = message_of(a, &cyc[k], &key_cell[k], &key_lc[k]);
#define SAME(i, j) (keyed[i] && keyed[j] && key_cell[i] == key_cell[j] && key_lc[i] == key_lc[j])
    /* Start where a message starts, so that none is cut in two by the cycle's wrap. */
    unsigned start = n;
    for (unsigned k = 0; k < n && start == n; k++)
        if (keyed[k] && !SAME((k + n - 1) % n, k))
            start = k;
    if (start == n)
        return;
    int group[MAX_CHAIN];
    static cycle_msg_t msg[MAX_MESSAGES];
    unsigned nm = 0, more = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (start + i) % n, prev = (k + n - 1) % n;
        group[k] = -1;
        if (!keyed[k])
            continue;
        if (i > 0 && SAME(prev, k) && group[prev] >= 0) {
            group[k] = group[prev];
            msg[group[k]].last = k;
            msg[group[k]].nodes++;
            continue;
        }
        if (nm == MAX_MESSAGES) {
            more++;
            continue;
        }
        memset(&msg[nm], 0, sizeof msg[nm]);
        msg[nm].cell = key_cell[k];
        msg[nm].lc = key_lc[k];
        msg[nm].last = k;
        msg[nm].nodes = 1;
        group[k] = (int)nm++;
    }
#undef SAME
    for (unsigned i = 0; i < nm; i++) {
        cycle_msg_t *m = &msg[i];
        message_words(a, m);
        char first[32], last[32];
        node_text(a, &cyc[(m->last + n + 1 - m->nodes) % n], first, sizeof first);
        node_text(a, &cyc[m->last], last, sizeof last);
        if (m->nodes == 1)
            snprintf(m->holds, sizeof m->holds, "%s", last);
        else if (m->nodes == 2)
            snprintf(m->holds, sizeof m->holds, "%s, %s", first, last);
        else
            snprintf(m->holds, sizeof m->holds, "%s .. %s", first, last);
        message_waits(a, cyc, n, group, m->last, m->waits, sizeof m->waits);
    }
    /* Columns as wide as their widest entry, so that the table stays narrow on small arrays. */
    int wf = 4, wt = 2, ws = 4, wl = 6, wh = 5;
    for (unsigned i = 0; i < nm; i++) {
        wf = (int)strlen(msg[i].from) > wf ? (int)strlen(msg[i].from) : wf;
        wt = (int)strlen(msg[i].to) > wt ? (int)strlen(msg[i].to) : wt;
        ws = (int)strlen(msg[i].sent) > ws ? (int)strlen(msg[i].sent) : ws;
        wl = (int)strlen(msg[i].length) > wl ? (int)strlen(msg[i].length) : wl;
        wh = (int)strlen(msg[i].holds) > wh ? (int)strlen(msg[i].holds) : wh;
    }
    char line[512];
    append(out->text, out->cap,
           "messages in the cycle (each holds channels from its source on and waits for one the next holds):\n");
    snprintf(line, sizeof line, "  %2s  %-*s  %-*s  %*s  %*s  %-*s  %s\n", "#", wf, "from", wt, "to", ws, "sent", wl,
             "length", wh, "holds", "waits for");
    append(out->text, out->cap, line);
    for (unsigned i = 0; i < nm; i++) {
        const cycle_msg_t *m = &msg[i];
        snprintf(line, sizeof line, "  %2u  %-*s  %-*s  %*s  %*s  %-*s  %s\n", i + 1, wf, m->from, wt, m->to, ws,
                 m->sent, wl, m->length, wh, m->holds, m->waits);
        append(out->text, out->cap, line);
    }
    if (more > 0) {
        snprintf(line, sizeof line, "  ... and %u more\n", more);
        append(out->text, out->cap, line);
    }
    append(out->text, out->cap,
           "  sent: data words so far (in the network or taken); length: from the runtime's info word or the "
           "sending spool\n");
}

/* A plain-language cause when the cycle is a known pattern, and what decides when a deadlock is noticed. */
static void explain(const emu_array_t *a, found_t *out, const wait_node_t *cyc, unsigned n)
{
    char line[512], what[32];
    messages(a, out, cyc, n);
    uint64_t t = closed_at(a, cyc, n);
    out->cycle->closed_at = t;
    if (out->noticed)
        snprintf(line, sizeof line,
                 "the cycle closed at clock %llu (nothing in it moved after that); it was noticed at clock %llu, "
                 "once nothing in the array had progressed for deadlock_clocks = %llu clocks (the setting that "
                 "decides when a deadlock is noticed)\n",
                 (unsigned long long)t, (unsigned long long)a->clock, (unsigned long long)a->machine.deadlock_clocks);
    else
        snprintf(line, sizeof line,
                 "the cycle closed at clock %llu (nothing in it moved after that); the run stopped at clock %llu, "
                 "before the deadlock detector's window (deadlock_clocks = %llu clocks without progress) closed\n",
                 (unsigned long long)t, (unsigned long long)a->clock, (unsigned long long)a->machine.deadlock_clocks);
    append(out->text, out->cap, line);
    if (ring_without_dateline(a, cyc, n, what, sizeof what)) {
        const coa_lc_t *l = &a->cells[cyc[0].cell].coa.lc[cyc[0].lc];
        snprintf(line, sizeof line,
                 "cause: channels of one pool (pool %u) round a ring (%s): no dateline. Each message holds a channel "
                 "and waits for the next one round the ring; a route that changes pool where the ring wraps (the "
                 "dateline) breaks such cycles\n",
                 l->pool, what);
        append(out->text, out->cap, line);
        return;
    }
    for (unsigned k = 0; k < n; k++) {
        const emu_cell_t *c = &a->cells[cyc[k].cell];
        if (cyc[k].is_ca && c->ca.s.wait_cause == CA_STALL_WFE) {
            snprintf(line, sizeof line,
                     "cause: a spool stuck: (%u,%u) sleeps in wfe for a spool that waits on the network itself\n", c->x,
                     c->y);
            append(out->text, out->cap, line);
            return;
        }
        if (!cyc[k].is_ca && c->coa.lc[cyc[k].lc].count > 0 && c->coa.lc[cyc[k].lc].route.kind == COA_END_GATE) {
            snprintf(line, sizeof line,
                     "cause: a receiver not draining: words for (%u,%u) wait in channel %u while its CA waits "
                     "on something else in the cycle (a send before its receive?)\n",
                     c->x, c->y, cyc[k].lc);
            append(out->text, out->cap, line);
            return;
        }
    }
}

/* Follows waits from `start`; returns true (with the report and the steps written) when a cycle closes, else
 * writes the chain only if nothing is written yet. */
static bool follow(const emu_array_t *a, found_t *out, const wait_node_t *start, wait_node_t *chain)
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
    if (cycle_at < 0 && out->text[0] != '\0')
        return false; /* keep the first chain unless this one closes a cycle */
    out->text[0] = '\0';
    append(out->text, out->cap, cycle_at >= 0 ? "wait cycle:\n" : "wait chain (no cycle found):\n");
    for (unsigned k = cycle_at >= 0 ? (unsigned)cycle_at : 0; k < n + (cycle_at < 0); k++) {
        append(out->text, out->cap, "  ");
        append(out->text, out->cap, chain[k].why);
        append(out->text, out->cap, "\n");
    }
    if (cycle_at < 0)
        return false;
    emu_wait_cycle_t *cyc = out->cycle;
    cyc->n = n - (unsigned)cycle_at;
    for (unsigned k = 0; k < cyc->n; k++) {
        const wait_node_t *w = &chain[(unsigned)cycle_at + k];
        cyc->step[k] = (emu_wait_step_t){w->cell, w->is_ca ? 0 : w->lc, w->is_ca, w->lane_cell, w->lane_dir};
    }
    explain(a, out, chain + cycle_at, cyc->n);
    return true;
}

static bool find_cycle(const emu_array_t *a, found_t *out)
{
    static const wait_node_t empty;
    wait_node_t chain[MAX_CHAIN];
    _Static_assert((int)MAX_CHAIN <= (int)EMU_WAIT_CYCLE_MAX, "a cycle's steps fit");
    out->text[0] = '\0';
    out->cycle->n = 0;
    /* From each waiting computation agent first: that is what the user sees stuck. */
    for (unsigned i = 0; i < a->ncells; i++) {
        if (a->cells[i].ca.s.state != CA_WAITING)
            continue;
        wait_node_t start = empty;
        start.is_ca = true;
        start.cell = i;
        if (follow(a, out, &start, chain))
            return true;
    }
    /* Agents asleep in wfe wait on the network as a whole: look for the cycle among the channels. */
    for (unsigned i = 0; i < a->ncells; i++)
        for (uint64_t m = a->cells[i].coa.busy_lc; m != 0; m &= m - 1) {
            wait_node_t start = empty;
            start.cell = i;
            start.lc = (unsigned)__builtin_ctzll(m);
            if (follow(a, out, &start, chain))
                return true;
        }
    return false;
}

bool emu_deadlock_report(emu_array_t *a)
{
    found_t out = {a->deadlock, sizeof a->deadlock, &a->deadlock_cycle, true};
    return find_cycle(a, &out);
}

const emu_wait_cycle_t *emu_array_deadlock_cycle(const emu_array_t *a)
{
    return &a->deadlock_cycle;
}

bool emu_array_find_wait_cycle(const emu_array_t *a, emu_wait_cycle_t *cycle, char *report, size_t cap)
{
    char none[1];
    found_t out = {report != NULL && cap > 0 ? report : none, report != NULL && cap > 0 ? cap : sizeof none, cycle,
                   false};
    bool found = find_cycle(a, &out);
    /* Waits that close a cycle are a deadlock only once nothing on its way can end them: a word or credit
     * posted when the cycle last moved arrives within a hop and a link's clocks, a header is decoded within
     * setup_clocks. Before that, a stopped run's waits are ordinary traffic (a credit on the wire). */
    const coa_config_t *c = &a->machine.agent;
    if (found && a->clock - cycle->closed_at <= (uint64_t)c->hop_latency + c->link_clocks + c->setup_clocks)
        found = false;
    if (!found) {
        out.text[0] = '\0'; /* a chain of waits is no news in a run that was stopped */
        cycle->n = 0;
    }
    return found;
}
