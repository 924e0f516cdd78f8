/* The communication agent: set-up, the parts of a clock, and the gates the computation agent uses. */
#include <stdlib.h>
#include <string.h>

#include "coa_header.h"
#include "coa_link.h"
#include "coa_spool.h"

const char *coa_dir_name(coa_dir_t d)
{
    static const char *const names[COA_NUM_DIRS] = {
#define X(id, name, dx, dy) name,
        COA_DIRS(X)
#undef X
    };
    return d < COA_NUM_DIRS ? names[d] : "?";
}

void coa_dir_step(coa_dir_t d, unsigned w, unsigned h, unsigned *x, unsigned *y)
{
    static const int dx[COA_NUM_DIRS] = {
#define X(id, name, dx, dy) dx,
        COA_DIRS(X)
#undef X
    };
    static const int dy[COA_NUM_DIRS] = {
#define X(id, name, dx, dy) dy,
        COA_DIRS(X)
#undef X
    };
    *x = (*x + (unsigned)((int)w + dx[d & 3u])) % w; /* w + dx >= 0: a step of -1 wraps to w - 1 */
    *y = (*y + (unsigned)((int)h + dy[d & 3u])) % h;
}

/* The default reservation, the same on every cell so that each cell knows its neighbours' (docs/network.md):
 * channels 0-7 are the local pool; 8-15 are pool 0, two per travel direction; 16-19 pool 1, one each. */
static void default_pools(coa_t *c)
{
    memset(c->link_pool, 0, sizeof c->link_pool);
    if (c->cfg.channels < 20) {
        c->local_pool = c->cfg.channels >= 64 ? ~0ull : coa_bit(c->cfg.channels) - 1u;
    } else {
        c->local_pool = 0xffu;
        for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
            c->link_pool[d][0] = coa_bit(8 + 2 * d) | coa_bit(9 + 2 * d);
            c->link_pool[d][1] = coa_bit(16 + d);
        }
    }
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        c->remote_free[d] = 0;
        for (unsigned p = 0; p < COA_NUM_POOLS; p++)
            c->remote_free[d] |= c->link_pool[d][p];
    }
}

void coa_reset(coa_t *c)
{
    for (unsigned i = 0; i < COA_MAX_CHANNELS; i++) {
        memset(&c->lc[i], 0, sizeof c->lc[i]);
        memset(&c->lc_stats[i], 0, sizeof c->lc_stats[i]);
        c->lc[i].travel_dir = COA_NONE;
        c->lc[i].moved_at = UINT64_MAX;
    }
    for (unsigned s = 0; s < COA_MAX_SPOOLS; s++) {
        memset(&c->spool[s], 0, sizeof c->spool[s]);
        c->spool[s].lc = COA_NONE;
    }
    memset(c->gate_in_lc, COA_NONE, sizeof c->gate_in_lc);
    memset(c->gate_out_lc, COA_NONE, sizeof c->gate_out_lc);
    c->tag_next = 0;
    c->asleep = false;
    c->loading = false;
    c->narrivals = 0;
    c->busy_lc = 0;
    c->tagged_lc = 0;
    c->header_lc = 0;
    c->routed_lc = 0;
    c->credit_lc = 0;
    c->frozen_lc = 0;
    c->blocked_lc = 0;
    memset(c->link_lc, 0, sizeof c->link_lc);
    c->linked_lc = 0;
    c->header_work_lc = 0;
    c->spools_active = 0;
    c->spools_stuck = 0;
    c->spools_ready = 0;
    c->stuck_lcs = 0;
    c->spool_events = 0;
    c->out_pending_until = 0;
    c->moved = 0;
    memset(c->link_free_at, 0, sizeof c->link_free_at);
    memset(c->rr, 0, sizeof c->rr);
    memset(c->link_last_lc, COA_NONE, sizeof c->link_last_lc);
    memset(c->link_stats, 0, sizeof c->link_stats);
    c->spool_rr = 0;
    memset(&c->fault, 0, sizeof c->fault);
    default_pools(c);
}

int coa_init(coa_t *c, const coa_config_t *cfg, coa_place_t at, uint8_t *mem, uint32_t mem_bytes, uint32_t mem_guard)
{
    memset(c, 0, sizeof *c);
    if (cfg->channels == 0 || cfg->channels > COA_MAX_CHANNELS || cfg->spools > COA_MAX_SPOOLS ||
        cfg->queue_depth == 0 || cfg->queue_depth > 0xffff || cfg->hop_latency == 0 ||
        cfg->hop_latency > COA_MAX_HOP_LATENCY)
        return -1;
    c->cfg = *cfg;
    c->at = at;
    c->w.qdata = calloc((size_t)cfg->channels * cfg->queue_depth, sizeof *c->w.qdata);
    c->w.qtag = calloc((size_t)cfg->channels * cfg->queue_depth, sizeof *c->w.qtag);
    if (c->w.qdata == NULL || c->w.qtag == NULL) {
        coa_free(c);
        return -1;
    }
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        atomic_init(&c->w.in_posted[d], 0);
    c->w.mem = mem;
    uint32_t last = mem_bytes - 4u; /* wraps below 4 bytes, as the comparison it stands for did */
    if (last >= mem_guard) {
        c->w.mem_first = mem_guard;
        c->w.mem_span = last - mem_guard;
    } else { /* no word: only address 1 is in the range, and it is misaligned */
        c->w.mem_first = 1;
        c->w.mem_span = 0;
    }
    coa_reset(c);
    return 0;
}

void coa_free(coa_t *c)
{
    free(c->w.qdata);
    free(c->w.qtag);
    c->w.qdata = NULL;
    c->w.qtag = NULL;
}

bool coa_stuck(const coa_t *c, uint64_t now)
{
    /* The pattern loader runs even while the agent sleeps; nothing else does. */
    if (c->asleep ? c->loading : !coa_spools_stuck(c) || !coa_headers_stuck(c) || !coa_links_stuck(c))
        return false;
    /* A reason may still change with time alone (a header's set-up, a link busy with a word): each flips at
     * most once, so one the same next clock and at the end of time is the same at every clock between. */
    for (uint64_t m = c->busy_lc; m != 0; m &= m - 1) {
        unsigned lc = (unsigned)__builtin_ctzll(m);
        if (coa_lc_wait_now(c, lc, now + 1) != coa_lc_wait_now(c, lc, UINT64_MAX))
            return false;
    }
    return true;
}

bool coa_quiescent(const coa_t *c)
{
    return !coa_active(c);
}

void coa_thaw_waits(coa_t *c, uint64_t now)
{
    coa_thaw(c, ~0ull, now);
}

void coa_settle(coa_t *c, uint64_t now)
{
    coa_thaw(c, ~0ull, now);
    for (unsigned lc = 0; lc < c->cfg.channels; lc++) {
        coa_lc_note_state(c, lc, now);
        c->lc_stats[lc].occupancy_sum = coa_lc_occupancy_sum(&c->lc[lc], now);
    }
}
