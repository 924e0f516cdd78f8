/* The routes of the message passing runtime, built on the host: msg_route of runtime/msg.s, sign for sign. */
#include "traffic.h"
#include "word.h"

/* Appends a direction sign that sets the pool; a sign naming the same cell as the last one replaces it (a
 * turn on the dateline, or on the cell before the destination), as msg_sign does. */
static void add_sign(traffic_route_t *r, unsigned x, unsigned y, coa_dir_t dir, unsigned pool)
{
    coa_sign_t s = {.x = x, .y = y, .action = (coa_sign_action_t)dir, .set_pool = true, .pool = pool};
    uint32_t w = coa_sign_encode(&s);
    if (r->nsigns > 0 && (r->signs[r->nsigns - 1] ^ w) >> 18 == 0)
        r->nsigns--;
    r->signs[r->nsigns++] = w;
}

/* One leg along a ring of `k` cells from `from` to `to`: the direction (positive on a tie) and hops. */
static unsigned leg(unsigned k, unsigned from, unsigned to, bool *positive)
{
    unsigned plus = (to + k - from) % k;
    *positive = 2 * plus <= k;
    return *positive ? plus : k - plus;
}

/* Hops from `from` to the cell before the ring's wrap-around link in the leg's direction. */
static unsigned to_dateline(unsigned k, unsigned from, bool positive)
{
    return positive ? (k - 1 + k - from) % k : from;
}

void traffic_route(unsigned w, unsigned h, unsigned src, unsigned dst, traffic_route_t *r)
{
    unsigned sx = src % w, sy = src / w, dx = dst % w, dy = dst / w;
    *r = (traffic_route_t){0};
    bool xpos = true, ypos = true;
    unsigned xhops = leg(w, sx, dx, &xpos), yhops = leg(h, sy, dy, &ypos);
    coa_dir_t xdir = xpos ? COA_DIR_PX : COA_DIR_MX, ydir = ypos ? COA_DIR_PY : COA_DIR_MY;
    if (xhops > 0) {
        add_sign(r, sx, sy, xdir, 0);
        if (to_dateline(w, sx, xpos) < xhops)
            add_sign(r, xpos ? w - 1 : 0, sy, xdir, 1);
    }
    if (yhops > 0) {
        add_sign(r, dx, sy, ydir, 0);
        if (to_dateline(h, sy, ypos) < yhops)
            add_sign(r, dx, ypos ? h - 1 : 0, ydir, 1);
    }
    /* The last hop into the destination takes a delivery (pool 2) channel. */
    if (yhops > 0)
        add_sign(r, dx, (dy + (ypos ? h - 1 : 1)) % h, ydir, 2);
    else if (xhops > 0)
        add_sign(r, (dx + (xpos ? w - 1 : 1)) % w, dy, xdir, 2);
    coa_sign_t sink = {.x = dx, .y = dy, .action = COA_SIGN_QUEUE};
    r->signs[r->nsigns++] = coa_sign_encode(&sink);
    r->hops = xhops + yhops;
    r->consumed = r->nsigns >= 2 ? r->nsigns - 2 : 0;
}

/* The head leaves the source setup_clocks after its first sign is written and decodes the next sign for as
 * long again; every later cell decodes it once more (setup_clocks), twice where a sign is consumed on the way
 * (a turn or a pool switch), and each link adds hop_latency. The sink sign, the info word, the data and the
 * trailer follow it over the last link a word every link_clocks, and the sink consumes the trailer in the clock
 * it arrives. Exact while setup_clocks >= link_clocks and the credits come back in time (docs/traffic.md). */
uint64_t traffic_zero_load_latency(const emu_machine_t *m, const traffic_route_t *r, unsigned words)
{
    return (uint64_t)m->agent.setup_clocks * (r->hops + 1 + r->consumed) + (uint64_t)m->agent.hop_latency * r->hops +
           (uint64_t)m->agent.link_clocks * (words + 2);
}

/* A fixed pathway is open before the message: word k (the info word first) is written at creation + k, leaves
 * each cell link_clocks after the one before it and is read hop_latency per link later (docs/network.md, stream
 * timing); the message is delivered when its last data word is read. */
uint64_t traffic_fixed_zero_load_latency(const emu_machine_t *m, unsigned hops, unsigned words)
{
    return (uint64_t)m->agent.link_clocks * words + (uint64_t)m->agent.hop_latency * hops;
}
