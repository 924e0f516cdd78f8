/* Measuring a point the way BookSim does: warm-up, sample periods until the accepted rate and the mean latency
 * settle, then a drain until the messages created in the samples have arrived (docs/traffic.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "interrupt.h"
#include "progress.h"
#include "traffic_internal.h"

enum { DRAIN_STEP = 200, WATCH_SLICE = 4096 };

/* The network run on to `until`; when watched, in slices with the progress line between them, stopping early
 * (false) on Ctrl-C. */
static bool advance(tr_net_t *n, uint64_t until, traffic_watch_t *w, progress_t *p, uint64_t end)
{
    if (w == NULL) {
        tr_net_run(n, until);
        return true;
    }
    while (n->clock < until) {
        if (interrupt_requested()) {
            w->interrupted = true;
            return false;
        }
        tr_net_run(n, until - n->clock > WATCH_SLICE ? n->clock + WATCH_SLICE : until);
        progress_update(p, n->clock, end);
    }
    return true;
}

static uint64_t link_busy(const tr_net_t *n, unsigned i, unsigned d)
{
    return n->cells[i].coa->link_stats[d].busy_clocks;
}

/* Notes of messages created in [from, to), from every cell in cell order (so the order is the same whatever
 * the threads). */
static size_t gather(const tr_net_t *n, bool deliveries, uint64_t from, uint64_t to, tr_note_t **out)
{
    size_t total = 0;
    for (unsigned i = 0; i < n->ncells; i++)
        total += deliveries ? n->cells[i].deliveries.n : n->cells[i].injections.n;
    tr_note_t *v = malloc((total ? total : 1) * sizeof *v);
    size_t k = 0;
    for (unsigned i = 0; v != NULL && i < n->ncells; i++) {
        const tr_notes_t *ns = deliveries ? &n->cells[i].deliveries : &n->cells[i].injections;
        for (size_t j = 0; j < ns->n; j++)
            if (ns->v[j].created >= from && ns->v[j].created < to)
                v[k++] = ns->v[j];
    }
    *out = v;
    return v != NULL ? k : 0;
}

static bool notes_failed(const tr_net_t *n)
{
    for (unsigned i = 0; i < n->ncells; i++)
        if (n->cells[i].deliveries.failed || n->cells[i].injections.failed)
            return true;
    return false;
}

static int by_delay(const void *a, const void *b)
{
    uint32_t x = ((const tr_note_t *)a)->delay, y = ((const tr_note_t *)b)->delay;
    return (x > y) - (x < y);
}

/* Nearest rank: the smallest latency with at least q of the messages at or below it. */
static double percentile(const tr_note_t *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    size_t rank = (size_t)ceil(q * (double)n);
    return v[rank > 0 ? rank - 1 : 0].delay;
}

static size_t delivered_in(const tr_net_t *n, uint64_t from, uint64_t to)
{
    size_t k = 0;
    for (unsigned i = 0; i < n->ncells; i++)
        for (size_t j = 0; j < n->cells[i].deliveries.n; j++)
            k += n->cells[i].deliveries.v[j].created >= from && n->cells[i].deliveries.v[j].created < to;
    return k;
}

static void latencies(const tr_net_t *n, uint64_t from, uint64_t to, traffic_point_t *pt)
{
    tr_note_t *v;
    size_t k = gather(n, true, from, to, &v);
    qsort(v, k, sizeof *v, by_delay);
    double sum = 0, hop_sum[TRAFFIC_MAX_HOP_BINS] = {0};
    for (size_t j = 0; j < k; j++) {
        sum += v[j].delay;
        unsigned hb = v[j].hops < TRAFFIC_MAX_HOP_BINS ? v[j].hops : TRAFFIC_MAX_HOP_BINS - 1;
        hop_sum[hb] += v[j].delay;
        pt->hop_messages[hb]++;
    }
    pt->delivered = k;
    pt->latency_mean = k ? sum / (double)k : NAN;
    double squares = 0;
    for (size_t j = 0; j < k; j++)
        squares += (v[j].delay - pt->latency_mean) * (v[j].delay - pt->latency_mean);
    pt->latency_sd = k > 1 ? sqrt(squares / (double)(k - 1)) : NAN;
    pt->latency_p50 = percentile(v, k, 0.5);
    pt->latency_p90 = percentile(v, k, 0.9);
    pt->latency_p99 = percentile(v, k, 0.99);
    pt->latency_max = k ? v[k - 1].delay : NAN;
    for (unsigned b = 0; b < TRAFFIC_MAX_HOP_BINS; b++)
        pt->hop_latency_mean[b] = pt->hop_messages[b] ? hop_sum[b] / (double)pt->hop_messages[b] : NAN;
    free(v);
    /* Network latency: the mean latency less the mean time the same messages waited in their source queue. */
    k = gather(n, false, from, to, &v);
    double queued = 0;
    for (size_t j = 0; j < k; j++)
        queued += v[j].delay;
    pt->network_latency_mean = k ? pt->latency_mean - queued / (double)k : NAN;
    free(v);
}

static bool settled(double now, double before, double tol)
{
    return fabs(now - before) <= tol * fabs(now);
}

int traffic_measure(const traffic_config_t *cfg, traffic_point_t *pt, char *err, size_t errlen)
{
    return traffic_measure_watched(cfg, pt, NULL, err, errlen);
}

int traffic_measure_watched(const traffic_config_t *cfg, traffic_point_t *pt, traffic_watch_t *w, char *err,
                            size_t errlen)
{
    memset(pt, 0, sizeof *pt);
    pt->rate = cfg->rate;
    tr_net_t n;
    if (tr_net_init(&n, cfg, err, errlen) != 0)
        return -1;
    uint64_t *busy0 = calloc(4u * n.ncells, sizeof *busy0);
    if (busy0 == NULL) {
        tr_net_free(&n);
        return err_set(err, errlen, "out of memory");
    }
    progress_t prog;
    progress_init(&prog, w != NULL ? w->what : NULL, w == NULL || w->quiet || w->what == NULL);
    /* The end the line counts to: warm-up and every sample (convergence usually stops sooner). */
    uint64_t goal = cfg->warmup + (uint64_t)cfg->max_samples * cfg->sample;
    if (!advance(&n, cfg->warmup, w, &prog, goal))
        goto interrupted;
    n.measure_from = n.clock;
    for (unsigned i = 0; i < n.ncells; i++)
        for (unsigned d = 0; d < COA_NUM_DIRS; d++)
            busy0[4 * i + d] = link_busy(&n, i, d);
    tr_counts_t start = tr_net_counts(&n), prev = start;
    double prev_acc = NAN, prev_lat = NAN, cells = n.ncells;
    for (pt->samples = 1; pt->samples <= cfg->max_samples; pt->samples++) {
        if (!advance(&n, n.clock + cfg->sample, w, &prog, goal))
            goto interrupted;
        tr_counts_t now = tr_net_counts(&n);
        double acc = (double)(now.words_delivered - prev.words_delivered) / (cells * (double)cfg->sample);
        double lat = now.delivered > prev.delivered
                         ? (double)(now.latency_sum - prev.latency_sum) / (double)(now.delivered - prev.delivered)
                         : NAN;
        pt->converged = pt->samples >= cfg->min_samples && pt->samples >= 2 && settled(acc, prev_acc, cfg->tolerance) &&
                        (isnan(lat) ? isnan(prev_lat) : settled(lat, prev_lat, cfg->tolerance));
        pt->accepted_change = fabs(acc - prev_acc) / fabs(acc);
        pt->latency_change = fabs(lat - prev_lat) / fabs(lat);
        pt->sample_delivered = now.delivered - prev.delivered;
        prev = now;
        prev_acc = acc;
        prev_lat = lat;
        if (pt->converged)
            break;
    }
    if (pt->samples > cfg->max_samples)
        pt->samples = cfg->max_samples;
    uint64_t from = n.measure_from, to = n.clock, span = to - from;
    tr_counts_t end = tr_net_counts(&n);
    pt->offered = (double)(end.words_created - start.words_created) / (cells * (double)span);
    pt->accepted = (double)(end.words_delivered - start.words_delivered) / (cells * (double)span);
    pt->measured = end.created - start.created;
    double busy_sum = 0;
    for (unsigned i = 0; i < n.ncells; i++)
        for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
            double u = (double)(link_busy(&n, i, d) - busy0[4 * i + d]) / (double)span;
            busy_sum += u;
            pt->link_util[4 * i + d] = u;
            if (u > pt->link_util_max) {
                pt->link_util_max = u;
                pt->busiest_link = 4 * i + d;
            }
        }
    pt->link_util_mean = busy_sum / (4.0 * cells);
    free(busy0);
    busy0 = NULL;

    /* The drain: injection goes on (the load stays what it was) until the measured messages are in. */
    uint64_t limit = to + cfg->drain_limit;
    while (delivered_in(&n, from, to) < pt->measured && n.clock < limit && tr_net_counts(&n).errors == 0)
        if (!advance(&n, n.clock + DRAIN_STEP < limit ? n.clock + DRAIN_STEP : limit, w, &prog, 0))
            goto interrupted;
    progress_done(&prog);
    latencies(&n, from, to, pt);
    pt->saturated = pt->delivered < pt->measured || pt->latency_mean > cfg->latency_limit ||
                    pt->accepted < (1.0 - 2.0 * cfg->tolerance) * pt->offered;
    pt->clocks = n.clock;
    for (unsigned i = 0; i < n.ncells; i++) {
        coa_settle(n.cells[i].coa, n.clock);
        for (unsigned lc = 0; lc < n.cells[i].coa->cfg.channels; lc++)
            for (unsigned k = 0; k < COA_WAIT_COUNT; k++)
                pt->waits[k] += n.cells[i].coa->lc_stats[lc].wait_clocks[k];
    }
    end = tr_net_counts(&n);
    pt->errors = end.errors;
    snprintf(pt->first_error, sizeof pt->first_error, "%s", tr_net_first_error(&n));
    int rc = 0;
    if (notes_failed(&n))
        rc = err_set(err, errlen, "out of memory for the measurements");
    tr_net_free(&n);
    return rc;

interrupted: /* Ctrl-C: no point to report (watch->interrupted says so) */
    progress_done(&prog);
    free(busy0);
    tr_net_free(&n);
    return 0;
}

int traffic_soak(const traffic_config_t *cfg, uint64_t clocks, traffic_soak_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    tr_net_t n;
    if (tr_net_init(&n, cfg, err, errlen) != 0)
        return -1;
    n.measure_from = UINT64_MAX; /* nothing noted */
    tr_net_run(&n, clocks);
    n.injecting = false;
    uint64_t limit = clocks + cfg->drain_limit;
    while (!tr_net_empty(&n) && n.clock < limit && tr_net_counts(&n).errors == 0)
        tr_net_run(&n, n.clock + DRAIN_STEP);
    tr_counts_t c = tr_net_counts(&n);
    out->created = c.created;
    out->delivered = c.delivered;
    out->words_delivered = c.words_delivered;
    out->errors = c.errors;
    out->clocks = n.clock;
    out->drained = tr_net_empty(&n);
    out->state_hash = tr_net_hash(&n);
    snprintf(out->first_error, sizeof out->first_error, "%s", tr_net_first_error(&n));
    tr_net_free(&n);
    return 0;
}

double traffic_bisection_bound(const traffic_config_t *cfg)
{
    unsigned w = cfg->machine.width, h = cfg->machine.height, n = w * h;
    double b = 1.0 / cfg->machine.agent.link_clocks, bound = INFINITY;
    /* A cut into columns [0, W/2) and the rest is crossed from the first part by 2 links a row (+X in the
     * middle, -X round the wrap); uniform traffic from A cells sends B/(N-1) of its words across. */
    if (w >= 2) {
        double a = (double)(w / 2) * h;
        bound = fmin(bound, 2.0 * h * b * (n - 1) / (a * (n - a)));
    }
    if (h >= 2) {
        double a = (double)(h / 2) * w;
        bound = fmin(bound, 2.0 * w * b * (n - 1) / (a * (n - a)));
    }
    /* The bound counts every word on the wire; the rates count data words. */
    double signs = 0;
    for (unsigned s = 0; s < n; s++)
        for (unsigned d = 0; d < n; d++)
            if (s != d) {
                traffic_route_t r;
                traffic_route(w, h, s, d, &r);
                signs += r.nsigns;
            }
    double size = traffic_mean_size(cfg), wire = signs / ((double)n * (n - 1)) + 2.0 + size;
    return bound * size / wire;
}
