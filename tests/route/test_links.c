/*
 * The link-weighted length of a phase (conset/route_links.h): the AS schedule with each stretch of time
 * counted as often as the most connections sharing one directed link then. The expected values come from the
 * plan itself (its connections' slots and paths), never typed in.
 */
#include "route_test.h"

#include "conset/route_links.h"
#include "conset/route_report.h"

/* Two connections that cross the same link in the same slot: 0,0 -> 2,0 and 1,0 -> 3,0 on 8x1 both take the
 * link 1,0 +X (the way round the other side is three times as long), and nothing orders them, so AS starts
 * both at clock 0. The link moves each at half its rate: the phase counts their slot twice. */
static void test_two_connections_on_one_link_count_their_slot_twice(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 8x1\nconn a 0,0 2,0 16\nconn b 1,0 3,0 16\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    assert_int_equal(plan.nphases, 1);
    route_phase_stats_t st;
    route_phase_stats(&plan, 0, &st);
    assert_int_equal(st.link_max, 2);
    const route_conn_t *a = &plan.conns[0], *b = &plan.conns[1];
    assert_int_equal(a->start, b->start);
    assert_int_equal(a->end, b->end);
    assert_int_equal(route_phase_link_weighted_clocks(&plan, 0), a->start + 2 * (a->end - a->start));
    route_plan_free(&plan);
    cset_free(&s);
}

/* With one connection on every link (the torus) or a schedule that keeps sharers apart (--links), the
 * weighted length is the predicted one; the paper's scheduler on all-to-all overlaps sharers, so it is
 * longer, but never more than predicted clocks times the phase's link_max. */
static void check_phases(pattern_kind_t k, bool link_aware, bool expect_equal)
{
    cset_t s;
    rt_pattern(&s, k, 8, 8, 32, 12);
    route_options_t o;
    route_options_init(&o);
    o.link_aware = link_aware;
    route_plan_t plan;
    char err[256];
    assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), 0);
    bool any_longer = false;
    for (unsigned p = 0; p < plan.nphases; p++) {
        uint64_t w = route_phase_link_weighted_clocks(&plan, p);
        route_phase_stats_t st;
        route_phase_stats(&plan, p, &st);
        assert_true(w >= plan.phases[p].clocks);
        assert_true(w <= plan.phases[p].clocks * st.link_max);
        if (expect_equal)
            assert_int_equal(w, plan.phases[p].clocks);
        any_longer |= w > plan.phases[p].clocks;
    }
    assert_true(any_longer != expect_equal);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_torus_and_link_aware_plans_weigh_what_they_predict(void **state)
{
    (void)state;
    check_phases(PATTERN_TORUS, false, true);
    check_phases(PATTERN_BUTTERFLY, true, true);
}

static void test_alltoall_under_the_papers_scheduler_weighs_more(void **state)
{
    (void)state;
    check_phases(PATTERN_ALLTOALL, false, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_connections_on_one_link_count_their_slot_twice),
        cmocka_unit_test(test_torus_and_link_aware_plans_weigh_what_they_predict),
        cmocka_unit_test(test_alltoall_under_the_papers_scheduler_weighs_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
