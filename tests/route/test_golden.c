/*
 * What the router makes of seed 004's patterns on the 8x8 array, against tests/route/golden/phases.txt:
 * phases and AS-predicted clocks for 256 words. Seed 004 reports 30 phases for all-to-all with 12 channels,
 * 2 for the butterfly with 12 and 1 with 16; these numbers are this router's own, recorded, never typed in, for
 * our compiler and for the paper mode (route_options_t.paper), with each plan's link-weighted clocks.
 * After a change that is meant to alter them: IWARP_REBASELINE=1 meson test -C build route_golden, then
 * review the diff of the golden file.
 */
#include <stdio.h>

#include "conset/route_report.h"
#include "route_test.h"

/* paper: compiled as the ConSet paper's compiler (route_options_t.paper), its figures named paper_...; the
 * link-weighted clocks are recorded for both. */
static void golden_as(pattern_kind_t k, unsigned capacity, bool paper)
{
    cset_t s;
    rt_pattern(&s, k, 8, 8, 256, capacity);
    route_plan_t plan;
    route_options_t o;
    route_options_init(&o);
    o.paper = paper;
    char err[256];
    if (route_compile(&s, &o, &plan, err, sizeof err) != 0)
        fail_msg("route_compile: %s", err);
    rt_check_plan(&s, &plan);
    const char *prefix = paper ? "paper_" : "";
    char name[96];
    snprintf(name, sizeof name, "%s%s_8x8_capacity%u_phases", prefix, pattern_name(k), capacity);
    rt_check_golden(name, plan.nphases);
    snprintf(name, sizeof name, "%s%s_8x8_capacity%u_clocks_256_words", prefix, pattern_name(k), capacity);
    rt_check_golden(name, route_predicted_clocks(&plan));
    snprintf(name, sizeof name, "%s%s_8x8_capacity%u_link_weighted_clocks_256_words", prefix, pattern_name(k),
             capacity);
    rt_check_golden(name, route_link_weighted(&plan));
    route_plan_free(&plan);
    cset_free(&s);
}

static void golden(pattern_kind_t k, unsigned capacity)
{
    golden_as(k, capacity, false);
    golden_as(k, capacity, true);
}

static void test_torus_phases(void **state)
{
    (void)state;
    golden(PATTERN_TORUS, 12);
}

static void test_butterfly_phases_with_12_and_16_channels(void **state)
{
    (void)state;
    golden(PATTERN_BUTTERFLY, 12);
    golden(PATTERN_BUTTERFLY, 16);
}

static void test_alltoall_phases_with_12_and_16_channels(void **state)
{
    (void)state;
    golden(PATTERN_ALLTOALL, 12);
    golden(PATTERN_ALLTOALL, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_phases),
        cmocka_unit_test(test_butterfly_phases_with_12_and_16_channels),
        cmocka_unit_test(test_alltoall_phases_with_12_and_16_channels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
