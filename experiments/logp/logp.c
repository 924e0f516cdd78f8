/*
 * The LogGP microbenchmarks on the emulated machine (programs/logp/logp.s over runtime/msg.s), as the LogGP
 * microbenchmarks paper runs them: ping-pong for the end-to-end latency, the flood test over sizes and queue
 * depths for g and G, the CPU overlap tests for o_s and o_r, and g/G. Every figure comes out of an emulated
 * run. Shared by `iwarp bench logp` (tools/bench/bench_logp.c) and `iwarp model msgpass`.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "logp.h"
#include "interrupt.h"
#include "program_load.h"
#include "run_loop.h"

enum { MODE_PINGPONG = 0, MODE_FLOOD = 1, MODE_OVERLAP_SEND = 2, MODE_OVERLAP_RECEIVE = 3, MAX_SIZES = 16 };

static const unsigned depths_full[] = {1, 2, 4, 8, 16};
static const unsigned depths_quick[] = {1, 4};

/* Runs logp.s once; returns cell 0's clocks, or 0 after printing why it failed. */
static uint64_t run_once(const logp_setup_t *su, unsigned mode, uint32_t words, uint32_t messages, uint32_t depth,
                         uint32_t compute, uint32_t partner)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = su->width;
    m.height = su->height;
    char err[256];
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, sizeof err) != 0) {
        fprintf(stderr, "bench logp: %s\n", err);
        return 0;
    }
    const emu_program_t *p = program_add(a, "programs/logp/logp.s", NULL, 0);
    uint32_t args[6] = {mode, words, messages, depth, compute, partner};
    int rc = p != NULL ? 0 : -1;
    for (unsigned y = 0; rc == 0 && y < m.height; y++)
        for (unsigned x = 0; rc == 0 && x < m.width; x++)
            if (emu_array_load(a, x, y, p, args, 6, err, sizeof err) != 0) {
                fprintf(stderr, "bench logp: %s\n", err);
                rc = -1;
            }
    uint64_t clocks = 0;
    if (rc == 0 && !interrupt_requested()) {
        /* A progress line on a terminal; after Ctrl-C no run starts, and the measurement ends without a result. */
        static const char *const mode_names[] = {"ping-pong", "flood", "overlap send", "overlap receive"};
        char what[128];
        snprintf(what, sizeof what, "%s, %u words x %u, queue depth %u, compute %u", mode < 4 ? mode_names[mode] : "?",
                 words, messages, depth, compute);
        char named[160];
        snprintf(named, sizeof named, "bench logp: %s", what);
        /* Run by su->run_jobs, several at once, under the jobs' line; else alone, under a line of its own. */
        bool interrupted;
        emu_run_status_t st = su->run_jobs != NULL ? run_sliced(a, 2000000000ull, &interrupted)
                                                   : run_loop(a, 2000000000ull, named, su->quiet, &interrupted);
        if (interrupted) {
            emu_array_free(a);
            return 0;
        }
        if (st == EMU_RUN_DONE) {
            clocks = ca_reg(emu_array_ca(a, 0, 0), ISA_REG_A0);
        } else {
            unsigned fx = 0, fy = 0;
            emu_array_first_fault(a, &fx, &fy);
            emu_format_fault(a, fx, fy, err, sizeof err);
            fprintf(stderr, "bench logp: mode %u, %u words: run ended %s %s %s\n", mode, words, emu_run_status_name(st),
                    st == EMU_RUN_FAULT ? err : "", emu_array_deadlock(a));
        }
    }
    emu_array_free(a);
    return clocks;
}

/* The seed's method: the minimum of several runs. The emulator is deterministic, so the runs agree; the
 * second run checks it. */
static uint64_t run_min(const logp_setup_t *su, unsigned mode, uint32_t words, uint32_t messages, uint32_t depth,
                        uint32_t compute, uint32_t partner)
{
    uint64_t a = run_once(su, mode, words, messages, depth, compute, partner);
    if (a == 0 || su->runs < 2)
        return a;
    uint64_t b = run_once(su, mode, words, messages, depth, compute, partner);
    if (b == 0)
        return 0; /* failed (said why) or interrupted */
    if (b != a)
        fprintf(stderr, "bench logp: two identical runs took %llu and %llu clocks: the emulator is not deterministic\n",
                (unsigned long long)a, (unsigned long long)b);
    return b < a ? b : a;
}

static uint32_t flood_messages(const logp_setup_t *su, uint32_t words)
{
    uint32_t budget = su->quick ? 8192 : 65536; /* words per run */
    uint32_t n = budget / words;
    uint32_t lo = 4, hi = su->quick ? 40 : 200;
    return n < lo ? lo : n > hi ? hi : n;
}

/* Largest computation per message that leaves the flood time within one clock per message of none. */
static uint32_t max_hidden_compute(const logp_setup_t *su, unsigned mode, uint32_t messages, uint32_t partner,
                                   uint64_t base, uint32_t limit)
{
    uint32_t lo = 0, hi = limit;
    while (hi - lo > (su->quick ? 8u : 2u)) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t t = run_once(su, mode, 2, messages, 1, mid, partner);
        if (t != 0 && t <= base + messages)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* One case of the measurement, with what it took. */
typedef struct logp_case {
    unsigned mode;
    uint32_t words, messages, depth, partner;
    uint64_t clocks; /* 0: failed */
} logp_case_t;

typedef struct logp_cases {
    const logp_setup_t *su;
    logp_case_t *c;
} logp_cases_t;

/* The searches for the computation hidden behind a send (0) and a receive (1): each run depends on the last,
 * but the two are independent. */
typedef struct logp_search {
    const logp_setup_t *su;
    uint32_t messages, partner, limit;
    uint64_t base[2];
    uint32_t hidden[2];
} logp_search_t;

static void run_search(void *arg, unsigned i)
{
    logp_search_t *s = arg;
    unsigned mode = i == 0 ? MODE_OVERLAP_SEND : MODE_OVERLAP_RECEIVE;
    s->hidden[i] = max_hidden_compute(s->su, mode, s->messages, s->partner, s->base[i], s->limit);
}

/* job(arg, i) for i < n: through su->run_jobs when there is one, else in turn. */
static void run_all(const logp_setup_t *su, unsigned n, void (*job)(void *arg, unsigned i), void *arg)
{
    if (su->run_jobs != NULL)
        su->run_jobs(su->jobs_ctx, n, job, arg);
    else
        for (unsigned i = 0; i < n; i++)
            job(arg, i);
}

static void run_case(void *arg, unsigned i)
{
    logp_cases_t *l = arg;
    logp_case_t *c = &l->c[i];
    c->clocks = run_min(l->su, c->mode, c->words, c->messages, c->depth, 0, c->partner);
}

int logp_measure(const logp_setup_t *su, logp_result_t *r)
{
    memset(r, 0, sizeof *r);
    uint32_t near = 1 % (su->width * su->height);
    uint32_t far = (su->height / 2) * su->width + su->width / 2;
    r->far_hops = su->width / 2 + su->height / 2;
    uint32_t pings = su->quick ? 20 : 100;
    const unsigned *depths = su->quick ? depths_quick : depths_full;
    r->ndepth_g = su->quick ? 4 : 16;
    r->ndepths = su->quick ? 2 : 5;
    r->nsizes = 0;
    for (uint32_t words = 2; words <= 32768; words *= su->quick ? 32 : 2)
        r->sizes_words[r->nsizes++] = words;
    for (unsigned d = 0; d < r->ndepths; d++)
        r->depths[d] = depths[d];

    /* The independent cases, the longest first (when several run at once, the last to start is a short one):
     * time per message against the size for a few queue depths, g against the queue depth with 8-byte
     * messages, and the ping-pongs for the end-to-end latency. */
    logp_case_t cases[LOGP_MAX_DEPTHS * LOGP_MAX_SIZES + LOGP_MAX_DEPTHS + 4];
    unsigned n = 0;
    for (unsigned s = r->nsizes; s-- > 0;)
        for (unsigned d = 0; d < r->ndepths; d++)
            cases[n++] = (logp_case_t){MODE_FLOOD, r->sizes_words[s], flood_messages(su, r->sizes_words[s]), depths[d],
                                       near, 0};
    uint32_t n8 = flood_messages(su, 2);
    for (unsigned q = 1; q <= r->ndepth_g; q++)
        cases[n++] = (logp_case_t){MODE_FLOOD, 2, n8, q, near, 0};
    cases[n++] = (logp_case_t){MODE_PINGPONG, 2, pings, 1, near, 0};
    cases[n++] = (logp_case_t){MODE_PINGPONG, 2, pings, 1, far, 0};
    /* the bases of the overheads: computation hidden behind a send (or a receive) at queue depth one */
    uint32_t n1 = su->quick ? 20 : 100;
    cases[n++] = (logp_case_t){MODE_OVERLAP_SEND, 2, n1, 1, near, 0};
    cases[n++] = (logp_case_t){MODE_OVERLAP_RECEIVE, 2, n1, 1, near, 0};
    logp_cases_t list = {su, cases};
    run_all(su, n, run_case, &list);
    for (unsigned i = 0; i < n; i++)
        if (cases[i].clocks == 0)
            return -1;

    unsigned at = 0;
    for (unsigned s = r->nsizes; s-- > 0;)
        for (unsigned d = 0; d < r->ndepths; d++, at++)
            r->per_message[d][s] = (double)cases[at].clocks / cases[at].messages;
    r->g = INFINITY;
    for (unsigned q = 1; q <= r->ndepth_g; q++, at++) {
        r->g_by_depth[q - 1] = (double)cases[at].clocks / n8;
        r->g = fmin(r->g, r->g_by_depth[q - 1]);
    }
    r->eel_near = (double)cases[at++].clocks / (2.0 * pings);
    r->eel_far = (double)cases[at++].clocks / (2.0 * pings);
    logp_search_t search = {su, n1, near, 0, {cases[at].clocks, cases[at + 1].clocks}, {0, 0}};
    r->g_q1 = (double)search.base[0] / n1;

    /* G: the slope of the time per message against the size, over the large messages (least squares over
     * the sizes of 4 KB and up at the best queue depth measured). */
    unsigned best = r->ndepths - 1;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    unsigned k = 0;
    for (unsigned s = 0; s < r->nsizes; s++) {
        double bytes = 4.0 * r->sizes_words[s];
        if (bytes < 4096 && s + 2 < r->nsizes)
            continue;
        sx += bytes;
        sy += r->per_message[best][s];
        sxx += bytes * bytes;
        sxy += bytes * r->per_message[best][s];
        k++;
    }
    r->G = k >= 2 ? (k * sxy - sx * sy) / (k * sxx - sx * sx) : NAN;
    r->large_bytes = r->g / r->G;

    /* overheads: the largest computation the send (or the receive) hides */
    search.limit = (uint32_t)(2 * r->g_q1);
    run_all(su, 2, run_search, &search);
    if (interrupt_requested())
        return -1;
    r->hidden_send = search.hidden[0];
    r->o_s = r->g_q1 - search.hidden[0];
    r->hidden_receive = search.hidden[1];
    r->o_r = (double)search.base[1] / n1 - search.hidden[1];
    return 0;
}

