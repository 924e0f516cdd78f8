/* The report's figures per phase (route_report.h), on sets small enough to check by hand. */
#include "conset/route_links.h"
#include "conset/route_report.h"
#include "route_test.h"

/* A ring of 4, two tasks. Task t1: a and b both go 0,0 -> 1,0 over the one link +X of cell 0,0 (the other way
 * round is 4 cells), c goes 2,0 -> 3,0; a and b share their source, so they follow each other: 2 x 10 words x 2
 * clocks = 40 clocks, and the link they share carries one of them at a time: the link-weighted length is the
 * 40 clocks, though the phase's busiest link carries 2 connections. Task t2: one connection to itself, 7 words,
 * no link at all: its 14 clocks count once. (test_links.c has connections that do share a link at once.) */
static void test_link_weighted_length_counts_connections_on_a_link_at_once(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 4x1\ntask t1\nconn a 0,0 1,0 10\nconn b 0,0 1,0 10\nconn c 2,0 3,0 3\n"
                 "task t2\nconn s 1,0 1,0 7\n");
    for (int paper = 0; paper <= 1; paper++) {
        route_options_t o;
        route_options_init(&o);
        o.paper = paper;
        route_plan_t plan;
        char err[256];
        assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), 0);
        rt_check_plan(&s, &plan);
        assert_int_equal(plan.nphases, 2);
        assert_int_equal(plan.phases[0].clocks, 40);
        assert_int_equal(plan.phases[1].clocks, 14);
        route_phase_stats_t st;
        route_phase_stats(&plan, 0, &st);
        assert_int_equal(st.link_max, 2);
        assert_int_equal(route_phase_link_weighted_clocks(&plan, 0), 40);
        route_phase_stats(&plan, 1, &st);
        assert_int_equal(st.link_max, 0);
        assert_int_equal(route_phase_link_weighted_clocks(&plan, 1), 14);
        assert_int_equal(route_link_weighted(&plan), 54);
        route_plan_free(&plan);
    }
    cset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_weighted_length_counts_connections_on_a_link_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
