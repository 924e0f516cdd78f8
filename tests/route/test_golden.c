/*
 * What the router makes of seed 004's patterns on the 8x8 array, against tests/route/golden/phases.txt:
 * phases and AS-predicted clocks for 256 words. Seed 004 reports 30 phases for all-to-all with 12 channels,
 * 2 for the butterfly with 12 and 1 with 16; these numbers are this router's own, recorded, never typed in.
 * After a change that is meant to alter them: IWARP_REBASELINE=1 meson test -C build route_golden, then
 * review the diff of the golden file.
 */
#include <stdio.h>

#include "route_test.h"

static void golden(pattern_kind_t k, unsigned capacity)
{
    cset_t s;
    rt_pattern(&s, k, 8, 8, 256, capacity);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    uint64_t clocks = 0;
    for (unsigned p = 0; p < plan.nphases; p++)
        clocks += plan.phases[p].clocks;
    char name[64];
    snprintf(name, sizeof name, "%s_8x8_capacity%u_phases", pattern_name(k), capacity);
    rt_check_golden(name, plan.nphases);
    snprintf(name, sizeof name, "%s_8x8_capacity%u_clocks_256_words", pattern_name(k), capacity);
    rt_check_golden(name, clocks);
    route_plan_free(&plan);
    cset_free(&s);
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
