/* The traffic generators on the communication agents (docs/traffic.md): single messages take exactly the
 * zero-load latency of the documented formula; past saturation no word is lost, duplicated or reordered under
 * any pattern; uniform traffic stays below the bisection bound; the host threads change nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic_internal.h"

static void config(traffic_config_t *cfg, unsigned w, unsigned h)
{
    traffic_config_defaults(cfg);
    cfg->machine.width = w;
    cfg->machine.height = h;
}

static void set(traffic_config_t *cfg, const char *key, const char *value)
{
    char err[256];
    if (emu_machine_set(&cfg->machine, key, value, err, sizeof err) != 0)
        fail_msg("%s = %s: %s", key, value, err);
}

/* One message alone in the network from src to dst: its latency, creation to the tail delivered. */
static uint64_t lone_message(tr_net_t *n, unsigned src, unsigned dst, unsigned words)
{
    uint64_t before = tr_net_counts(n).delivered;
    size_t notes = n->cells[dst].deliveries.n;
    assert_int_equal(tr_net_inject(n, src, dst, words), 0);
    uint64_t limit = n->clock + 10000;
    while (tr_net_counts(n).delivered == before && n->clock < limit)
        tr_net_run(n, n->clock + 1);
    assert_int_equal(tr_net_counts(n).delivered, before + 1);
    assert_int_equal(n->cells[dst].deliveries.n, notes + 1);
    /* Let the frees and credits come home before the next message. */
    tr_net_run(n, n->clock + 64);
    assert_true(tr_net_empty(n));
    return n->cells[dst].deliveries.v[notes].delay;
}

static void check_zero_load(traffic_config_t *cfg, unsigned srcs_step)
{
    char err[256];
    tr_net_t n;
    cfg->rate = 0;
    if (tr_net_init(&n, cfg, err, sizeof err) != 0)
        fail_msg("%s", err);
    unsigned w = n.w, h = n.h;
    for (unsigned src = 0; src < n.ncells; src += srcs_step)
        for (unsigned dst = 0; dst < n.ncells; dst++) {
            if (dst == src)
                continue;
            traffic_route_t r;
            traffic_route(w, h, src, dst, &r);
            assert_int_equal(r.hops, tr_hops(w, h, src, dst));
            unsigned words = 1 + (src * 7 + dst * 3) % 24;
            uint64_t got = lone_message(&n, src, dst, words);
            uint64_t want = traffic_zero_load_latency(&cfg->machine, &r, words);
            if (got != want)
                fail_msg("%ux%u setup %u hop %u link %u: %u -> %u (%u hops, %u signs), %u words: latency %llu, "
                         "the formula says %llu",
                         w, h, cfg->machine.agent.setup_clocks, cfg->machine.agent.hop_latency,
                         cfg->machine.agent.link_clocks, src, dst, r.hops, r.nsigns, words, (unsigned long long)got,
                         (unsigned long long)want);
        }
    assert_int_equal(tr_net_counts(&n).errors, 0);
    tr_net_free(&n);
}

static void test_zero_load_latency_is_the_formula_on_8x8(void **state)
{
    (void)state;
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    check_zero_load(&cfg, 9);
}

static void test_zero_load_latency_is_the_formula_with_other_timings(void **state)
{
    (void)state;
    static const char *const timings[][3] = {
        {"3", "3", "2"}, {"2", "1", "2"}, {"4", "2", "3"}, {"3", "1", "3"}, {"6", "5", "4"}};
    for (size_t i = 0; i < sizeof timings / sizeof timings[0]; i++) {
        traffic_config_t cfg;
        config(&cfg, 5, 3);
        set(&cfg, "setup_clocks", timings[i][0]);
        set(&cfg, "hop_latency", timings[i][1]);
        set(&cfg, "link_clocks", timings[i][2]);
        check_zero_load(&cfg, 4);
    }
}

/* Past saturation every pattern, then a drain: every message arrives, whole and in order per pair. */
static void soak(traffic_config_t *cfg, uint64_t clocks)
{
    char err[256];
    traffic_soak_t s;
    if (traffic_soak(cfg, clocks, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (s.errors != 0 || !s.drained || s.created != s.delivered || s.created == 0)
        fail_msg("%s on %ux%u: created %llu, delivered %llu, drained %d, %llu errors: %s",
                 traffic_pattern_name(cfg->pattern), cfg->machine.width, cfg->machine.height,
                 (unsigned long long)s.created, (unsigned long long)s.delivered, s.drained,
                 (unsigned long long)s.errors, s.first_error);
}

/* 3000 clocks of a pattern on 8x8 at `rate`, sizes 1..24, then the drain. */
static void soak_pattern(traffic_routing_t routing, traffic_pattern_t p, double rate)
{
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    cfg.routing = routing;
    cfg.pattern = p;
    cfg.rate = rate;
    cfg.nsizes = 0;
    cfg.size_lo = 1;
    cfg.size_hi = 24;
    cfg.hotspot = 27;
    cfg.seed = 7 + p;
    cfg.drain_limit = 2000000;
    soak(&cfg, 3000);
}

static void test_no_word_lost_duplicated_or_reordered_past_saturation(void **state)
{
    (void)state;
    for (unsigned p = 0; p < TRAFFIC_NUM_PATTERNS; p++)
        soak_pattern(TRAFFIC_DOR, (traffic_pattern_t)p, 0.4); /* beyond every pattern's saturation (docs/traffic.md) */
}

static void test_no_word_lost_with_bursts_shallow_queues_and_odd_sides(void **state)
{
    (void)state;
    traffic_config_t cfg;
    config(&cfg, 5, 7);
    set(&cfg, "queue_depth", "2");
    cfg.injection = TRAFFIC_ONOFF;
    cfg.duty = 0.5;
    cfg.burst = 40;
    cfg.rate = 0.45;
    cfg.sizes[0] = 3;
    cfg.sizes[1] = 40;
    cfg.nsizes = 2;
    cfg.drain_limit = 2000000;
    soak(&cfg, 4000);
    cfg.pattern = TRAFFIC_TORNADO;
    soak(&cfg, 4000);
}

/* A point that did not converge says why and what to change (traffic_why): at a low load, too few messages a
 * sample period, and the period it names is long enough for the point to converge; past saturation, lower the
 * rate; a converged point says nothing. */
static void test_an_unconverged_point_says_what_to_change(void **state)
{
    (void)state;
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    cfg.rate = 0.001;
    cfg.min_samples = cfg.max_samples = 3;
    traffic_point_t pt;
    char err[256];
    traffic_why_t why;
    if (traffic_measure(&cfg, &pt, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_false(pt.converged);
    assert_false(pt.saturated);
    traffic_why(&cfg, &pt, &why);
    const char *at = strstr(why.change, "lengthen --sample to about ");
    if (strncmp(why.why, "not converged: ", 15) != 0 || at == NULL)
        fail_msg("%s; %s", why.why, why.change);
    unsigned long long sample = strtoull(at + strlen("lengthen --sample to about "), NULL, 10);
    assert_true(sample > cfg.sample);
    cfg.sample = sample;
    cfg.max_samples = 10;
    if (traffic_measure(&cfg, &pt, err, sizeof err) != 0)
        fail_msg("%s", err);
    traffic_why(&cfg, &pt, &why);
    if (!pt.converged || why.why[0] != '\0' || why.change[0] != '\0')
        fail_msg("--sample %llu: converged %d, %s", sample, pt.converged, why.why);
    config(&cfg, 8, 8);
    cfg.rate = 0.3;
    cfg.max_samples = 3;
    if (traffic_measure(&cfg, &pt, err, sizeof err) != 0)
        fail_msg("%s", err);
    traffic_why(&cfg, &pt, &why);
    if (!pt.saturated || strncmp(why.why, "saturated: ", 11) != 0 || strncmp(why.change, "lower --rate", 12) != 0)
        fail_msg("rate 0.3: %s; %s", why.why, why.change);
}

static void test_uniform_accepted_throughput_stays_below_the_bisection_bound(void **state)
{
    (void)state;
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    cfg.rate = 0.5;
    cfg.warmup = 1000;
    cfg.sample = 1000;
    cfg.max_samples = 3;
    cfg.drain_limit = 0;
    traffic_point_t pt;
    char err[256];
    if (traffic_measure(&cfg, &pt, err, sizeof err) != 0)
        fail_msg("%s", err);
    double bound = traffic_bisection_bound(&cfg);
    assert_true(pt.saturated);
    assert_true(pt.accepted > 0);
    if (!(pt.accepted < bound))
        fail_msg("accepted %g is not below the bisection bound %g", pt.accepted, bound);
    assert_int_equal(pt.errors, 0);
}

static void test_low_load_latency_of_neighbour_traffic_is_the_zero_load_latency(void **state)
{
    (void)state;
    /* Neighbour traffic at a low rate on 8x8: (x+1, y+1) is 2 hops with a turn, so while messages do not meet
     * (one every 3200 clocks a cell) each takes the zero-load latency and the percentiles are all equal. */
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    cfg.pattern = TRAFFIC_NEIGHBOUR;
    cfg.rate = 0.005;
    cfg.sizes[0] = 16;
    traffic_point_t pt;
    char err[256];
    if (traffic_measure(&cfg, &pt, err, sizeof err) != 0)
        fail_msg("%s", err);
    traffic_route_t r;
    traffic_route(8, 8, 0, 9, &r);
    double want = (double)traffic_zero_load_latency(&cfg.machine, &r, 16);
    assert_true(pt.delivered > 0);
    assert_true(pt.latency_p50 == want);
    assert_true(pt.hop_messages[2] == pt.delivered);
}

static void test_threads_change_nothing(void **state)
{
    (void)state;
    traffic_config_t cfg;
    config(&cfg, 8, 8);
    cfg.rate = 0.3;
    cfg.drain_limit = 2000000;
    traffic_soak_t one, two;
    char err[256];
    assert_int_equal(traffic_soak(&cfg, 3000, &one, err, sizeof err), 0);
    cfg.threads = 2;
    assert_int_equal(traffic_soak(&cfg, 3000, &two, err, sizeof err), 0);
    assert_int_equal(one.state_hash, two.state_hash);
    assert_int_equal(one.clocks, two.clocks);
    assert_int_equal(one.delivered, two.delivered);
    cfg.routing = TRAFFIC_FIXED;
    cfg.pattern = TRAFFIC_TORNADO;
    cfg.threads = 1;
    assert_int_equal(traffic_soak(&cfg, 3000, &one, err, sizeof err), 0);
    cfg.threads = 2;
    assert_int_equal(traffic_soak(&cfg, 3000, &two, err, sizeof err), 0);
    assert_int_equal(one.state_hash, two.state_hash);
    assert_int_equal(one.delivered, two.delivered);
    cfg.routing = TRAFFIC_DOR;
    cfg.pattern = TRAFFIC_UNIFORM;

    cfg.rate = 0.1;
    cfg.warmup = 500;
    cfg.sample = 500;
    traffic_point_t p1, p2;
    cfg.threads = 1;
    assert_int_equal(traffic_measure(&cfg, &p1, err, sizeof err), 0);
    cfg.threads = 2;
    assert_int_equal(traffic_measure(&cfg, &p2, err, sizeof err), 0);
    assert_memory_equal(&p1, &p2, sizeof p1);
}

/* A watched measurement (iwarp traffic's: a progress line, Ctrl-C between slices of clocks) runs its warm-up
 * and samples in slices; the point is the same to the last byte as one run in one go. */
static void test_slices_change_nothing(void **state)
{
    (void)state;
    traffic_config_t cfg;
    traffic_config_defaults(&cfg);
    cfg.rate = 0.15;
    cfg.warmup = 9000; /* over two slices of 4096 clocks */
    cfg.sample = 5000;
    char err[256];
    traffic_point_t whole, sliced;
    assert_int_equal(traffic_measure(&cfg, &whole, err, sizeof err), 0);
    traffic_watch_t watch = {"test", true, false};
    assert_int_equal(traffic_measure_watched(&cfg, &sliced, &watch, err, sizeof err), 0);
    assert_false(watch.interrupted);
    assert_true(sliced.clocks > 9000 + 5000);
    assert_memory_equal(&whole, &sliced, sizeof whole);
}

/* Fixed pathways: every permutation pattern's messages, alone, take link_clocks * words + hop_latency * hops. */
static void check_fixed_zero_load(traffic_config_t *cfg)
{
    char err[256];
    tr_net_t n;
    cfg->rate = 0;
    cfg->routing = TRAFFIC_FIXED;
    if (tr_net_init(&n, cfg, err, sizeof err) != 0)
        fail_msg("%s: %s", traffic_pattern_name(cfg->pattern), err);
    for (unsigned src = 0; src < n.ncells; src++) {
        uint64_t unused = 0;
        unsigned dst = tr_destination(cfg, src, &unused);
        if (dst == src)
            continue;
        unsigned words = 1 + (src * 5) % 20, hops = n.cells[dst].fixed_hops;
        assert_true(hops >= tr_hops(n.w, n.h, src, dst));
        uint64_t got = lone_message(&n, src, dst, words);
        uint64_t want = traffic_fixed_zero_load_latency(&cfg->machine, hops, words);
        if (got != want)
            fail_msg("%s on %ux%u (hop %u, link %u): %u -> %u, %u hops, %u words: latency %llu, the formula says %llu",
                     traffic_pattern_name(cfg->pattern), n.w, n.h, cfg->machine.agent.hop_latency,
                     cfg->machine.agent.link_clocks, src, dst, hops, words, (unsigned long long)got,
                     (unsigned long long)want);
    }
    assert_int_equal(tr_net_counts(&n).errors, 0);
    tr_net_free(&n);
}

static void test_fixed_pathways_take_the_stream_latency(void **state)
{
    (void)state;
    static const char *const timings[][2] = {{"2", "2"}, {"1", "3"}, {"3", "2"}};
    for (size_t t = 0; t < sizeof timings / sizeof timings[0]; t++)
        for (unsigned p = TRAFFIC_TRANSPOSE; p <= TRAFFIC_NEIGHBOUR; p++) {
            traffic_config_t cfg;
            config(&cfg, 8, 8);
            set(&cfg, "hop_latency", timings[t][0]);
            set(&cfg, "link_clocks", timings[t][1]);
            cfg.pattern = (traffic_pattern_t)p;
            check_fixed_zero_load(&cfg);
        }
}

static void test_no_word_lost_on_fixed_pathways_past_saturation(void **state)
{
    (void)state;
    for (unsigned p = TRAFFIC_TRANSPOSE; p <= TRAFFIC_NEIGHBOUR; p++)
        soak_pattern(TRAFFIC_FIXED, (traffic_pattern_t)p, 0.45);
}

static void test_bad_combinations_are_refused_with_a_reason(void **state)
{
    (void)state;
    traffic_config_t cfg;
    char err[256];
    config(&cfg, 8, 4);
    cfg.pattern = TRAFFIC_TRANSPOSE;
    assert_int_equal(traffic_config_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "square"));
    config(&cfg, 6, 6);
    cfg.pattern = TRAFFIC_BITREV;
    assert_int_equal(traffic_config_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of 2"));
    config(&cfg, 8, 8);
    cfg.sizes[0] = 1;
    cfg.rate = 1.5;
    assert_int_equal(traffic_config_check(&cfg, err, sizeof err), -1);
    config(&cfg, 1, 1);
    assert_int_equal(traffic_config_check(&cfg, err, sizeof err), -1);
    config(&cfg, 8, 8);
    assert_int_equal(traffic_parse_sizes("0", &cfg, err, sizeof err), -1);
    assert_int_equal(traffic_parse_sizes("9-3", &cfg, err, sizeof err), -1);
    assert_int_equal(traffic_parse_sizes("4,,8", &cfg, err, sizeof err), -1);
    assert_int_equal(traffic_parse_sizes("4-8", &cfg, err, sizeof err), 0);
    cfg.routing = TRAFFIC_FIXED;
    assert_int_equal(traffic_config_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "fixed pathways need a pattern where each cell sends to one cell, not uniform"));
    assert_int_equal(cfg.size_lo, 4);
    assert_int_equal(cfg.size_hi, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_latency_is_the_formula_on_8x8),
        cmocka_unit_test(test_an_unconverged_point_says_what_to_change),
        cmocka_unit_test(test_zero_load_latency_is_the_formula_with_other_timings),
        cmocka_unit_test(test_no_word_lost_duplicated_or_reordered_past_saturation),
        cmocka_unit_test(test_no_word_lost_with_bursts_shallow_queues_and_odd_sides),
        cmocka_unit_test(test_uniform_accepted_throughput_stays_below_the_bisection_bound),
        cmocka_unit_test(test_low_load_latency_of_neighbour_traffic_is_the_zero_load_latency),
        cmocka_unit_test(test_threads_change_nothing),
        cmocka_unit_test(test_slices_change_nothing),
        cmocka_unit_test(test_fixed_pathways_take_the_stream_latency),
        cmocka_unit_test(test_no_word_lost_on_fixed_pathways_past_saturation),
        cmocka_unit_test(test_bad_combinations_are_refused_with_a_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
