/* The partitioner and router (APR) with channels and schedule: every property of a plan (rt_check_plan) on the
 * patterns of seed 004 and on random sets, ordering constraints, phases, determinism. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conset/route_tables.h"
#include "route_test.h"

static void check_pattern(pattern_kind_t k, unsigned w, unsigned h, unsigned capacity)
{
    cset_t s;
    rt_pattern(&s, k, w, h, 256, capacity);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_torus_butterfly_and_alltoall_keep_capacity_12(void **state)
{
    (void)state;
    check_pattern(PATTERN_TORUS, 8, 8, 12);
    check_pattern(PATTERN_BUTTERFLY, 8, 8, 12);
    check_pattern(PATTERN_ALLTOALL, 8, 8, 12);
}

static void test_torus_butterfly_and_alltoall_keep_capacity_16(void **state)
{
    (void)state;
    check_pattern(PATTERN_TORUS, 8, 8, 16);
    check_pattern(PATTERN_BUTTERFLY, 8, 8, 16);
    check_pattern(PATTERN_ALLTOALL, 8, 8, 16);
}

static void test_small_and_odd_arrays(void **state)
{
    (void)state;
    static const unsigned sizes[][2] = {{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}, {5, 1}, {4, 4}, {7, 3}};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_pattern(PATTERN_TORUS, sizes[i][0], sizes[i][1], 12);
        check_pattern(PATTERN_ALLTOALL, sizes[i][0], sizes[i][1], 4);
        check_pattern(PATTERN_ALLTOALL, sizes[i][0], sizes[i][1], 1);
    }
    check_pattern(PATTERN_BUTTERFLY, 4, 2, 3);
    check_pattern(PATTERN_BUTTERFLY, 16, 4, 12);
}

static void test_random_sets_keep_every_property(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        unsigned w = 1 + (unsigned)(seed * 7 % 9), h = 1 + (unsigned)(seed * 5 % 7);
        unsigned capacity = 1 + (unsigned)(seed % 16), n = 20 + (unsigned)(seed * 37 % 300);
        cset_t s;
        rt_random_set(&s, seed, w, h, n, capacity, seed % 2 == 0);
        route_plan_t plan;
        rt_compile(&s, 0, &plan);
        rt_check_plan(&s, &plan);
        celldata_t d;
        char err[128];
        assert_int_equal(route_tables(&plan, &d, err, sizeof err), 0);
        rt_check_tables(&plan, &d);
        celldata_free(&d);
        route_plan_free(&plan);
        cset_free(&s);
    }
}

static void test_random_sets_with_capacity_12_and_16_on_8x8(void **state)
{
    (void)state;
    for (uint64_t seed = 100; seed < 106; seed++)
        for (unsigned capacity = 12; capacity <= 16; capacity += 4) {
            cset_t s;
            rt_random_set(&s, seed, 8, 8, 600, capacity, true);
            route_plan_t plan;
            rt_compile(&s, 0, &plan);
            rt_check_plan(&s, &plan);
            route_plan_free(&plan);
            cset_free(&s);
        }
}

static void test_a_set_that_cannot_fit_one_phase_gets_several(void **state)
{
    (void)state;
    /* Cell 0,0 is an end of 5 connections; with 2 channels a cell holds at most 2 ends per phase. */
    cset_t s;
    rt_parse(&s, "array 4x4\ncapacity 2\n"
                 "conn a 0,0 1,0 8\nconn b 0,0 0,1 8\nconn c 0,0 3,0 8\nconn d 2,2 0,0 8\nconn e 0,0 0,0 8\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    assert_int_equal(plan.nphases, 3);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_one_connection_fits_one_phase_and_a_self_connection_takes_one_channel(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 3x3\ncapacity 1\nconn a 1,1 1,1 5\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    assert_int_equal(plan.nphases, 1);
    assert_int_equal(plan.conns[0].ncells, 1);
    assert_int_equal(plan.chans[plan.conns[0].first], 4);
    assert_int_equal(plan.phases[0].clocks, 10);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_routes_are_shortest_when_there_is_room(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_BUTTERFLY, 8, 8, 256, 16);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    /* Seed 004: a single phase with 16 channels; every route is then a shortest one (no channel to spare). */
    assert_int_equal(plan.nphases, 1);
    torus_t t = torus_make(8, 8);
    for (unsigned i = 0; i < s.nconns; i++)
        assert_int_equal(plan.conns[i].ncells, torus_distance(&t, s.conns[i].src, s.conns[i].dst) + 1);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_ordering_constraints_in_one_phase_follow_in_time(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 4x1\n"
                 "conn a 0,0 1,0 100\n"
                 "conn b 2,0 3,0 10 after a\n"
                 "conn c 1,0 2,0 10 after b\n"
                 "conn d 3,0 0,0 50 after a c\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    assert_int_equal(plan.nphases, 1);
    assert_true(plan.conns[1].start >= plan.conns[0].end);
    assert_true(plan.conns[2].start >= plan.conns[1].end);
    assert_true(plan.conns[3].start >= plan.conns[2].end);
    assert_int_equal(plan.phases[0].clocks, 200 + 20 + 20 + 100);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_ordering_constraints_across_phases_keep_the_order(void **state)
{
    (void)state;
    /* Capacity 1 on a ring: each connection below needs the cells of the others, so each gets a phase; the
     * constraints force the order of the phases. */
    cset_t s;
    rt_parse(&s, "array 3x1\ncapacity 1\n"
                 "conn z 0,0 2,0 4 after y\n"
                 "conn y 1,0 0,0 4 after x\n"
                 "conn x 2,0 1,0 4\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    assert_int_equal(plan.nphases, 3);
    assert_int_equal(plan.conns[2].phase, 0);
    assert_int_equal(plan.conns[1].phase, 1);
    assert_int_equal(plan.conns[0].phase, 2);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_tasks_get_phases_of_their_own(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 4x4\n"
                 "task one\nconn a 0,0 1,0 5\n"
                 "task two\nconn b 2,2 3,3 5\n"
                 "task one\nconn c 1,1 2,1 5\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    assert_int_equal(plan.nphases, 2);
    assert_int_equal(plan.phases[0].task, 0);
    assert_int_equal(plan.phases[0].nconns, 2);
    assert_int_equal(plan.phases[1].task, 1);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_an_empty_set_has_no_phases(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 2x2\n");
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    assert_int_equal(plan.nphases, 0);
    celldata_t d;
    char err[128];
    assert_int_equal(route_tables(&plan, &d, err, sizeof err), 0);
    rt_check_tables(&plan, &d);
    assert_int_equal(d.nwords[3], 4);
    celldata_free(&d);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_the_phase_count_is_at_least_the_lower_bound(void **state)
{
    (void)state;
    static const pattern_kind_t kinds[] = {PATTERN_TORUS, PATTERN_BUTTERFLY, PATTERN_ALLTOALL};
    for (unsigned k = 0; k < 3; k++)
        for (unsigned capacity = 4; capacity <= 16; capacity += 4) {
            cset_t s;
            rt_pattern(&s, kinds[k], 4, 4, 8, capacity);
            route_plan_t plan;
            rt_compile(&s, 0, &plan);
            /* The router's own bound also counts the connection ends at each cell, so it is at least as high. */
            assert_true(plan.lower_bound >= rt_lower_bound(&s, capacity));
            assert_true(plan.nphases >= plan.lower_bound);
            route_plan_free(&plan);
            cset_free(&s);
        }
}

/* The tables, as bytes. */
static char *compile_to_bytes(const cset_t *s, const route_options_t *o, size_t *len)
{
    route_plan_t plan;
    char err[128];
    assert_int_equal(route_compile(s, o, &plan, err, sizeof err), 0);
    celldata_t d;
    assert_int_equal(route_tables(&plan, &d, err, sizeof err), 0);
    char path[] = "/tmp/route_det_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(celldata_write(&d, path, err, sizeof err), 0);
    char *bytes = rt_read_file(path, len);
    remove(path);
    celldata_free(&d);
    route_plan_free(&plan);
    return bytes;
}

static void test_the_same_input_and_seed_give_the_same_bytes(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_ALLTOALL, 8, 8, 256, 12);
    route_options_t o;
    route_options_init(&o);
    size_t n1, n2;
    char *a = compile_to_bytes(&s, &o, &n1), *b = compile_to_bytes(&s, &o, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
    cset_free(&s);
    rt_random_set(&s, 42, 6, 5, 400, 7, true);
    o.seed = 99;
    a = compile_to_bytes(&s, &o, &n1);
    b = compile_to_bytes(&s, &o, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
    cset_free(&s);
}

static void test_other_seeds_and_no_rerouting_still_give_valid_plans(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_ALLTOALL, 4, 4, 64, 6);
    route_options_t o;
    route_options_init(&o);
    for (unsigned i = 0; i < 3; i++) {
        o.seed = 1000 + i;
        o.iterations = i == 2 ? 0 : ROUTE_DEFAULT_ITERATIONS;
        route_plan_t plan;
        char err[128];
        assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), 0);
        rt_check_plan(&s, &plan);
        route_plan_free(&plan);
    }
    cset_free(&s);
}

/* route --links: every property still holds, connections sharing a directed link never overlap in time, and
 * the tables say the cells keep to the clock. */
static void check_links_apart(const route_plan_t *plan)
{
    for (unsigned p = 0; p < plan->nphases; p++) {
        const route_phase_t *ph = &plan->phases[p];
        for (unsigned a = 0; a < ph->nconns; a++)
            for (unsigned b = 0; b < a; b++) {
                const route_conn_t *x = &plan->conns[ph->conns[a]], *y = &plan->conns[ph->conns[b]];
                if (!(x->start < y->end && y->start < x->end))
                    continue;
                for (unsigned i = 0; i + 1 < x->ncells; i++)
                    for (unsigned j = 0; j + 1 < y->ncells; j++)
                        if (plan->cells[x->first + i] == plan->cells[y->first + j] &&
                            plan->dirs[x->first + i] == plan->dirs[y->first + j])
                            fail_msg("phase %u: connections %u and %u share the link %u/%u at the same time", p,
                                     ph->conns[a], ph->conns[b], plan->cells[x->first + i], plan->dirs[x->first + i]);
            }
    }
}

static void compile_links(const cset_t *s, route_plan_t *plan)
{
    route_options_t o;
    route_options_init(&o);
    o.link_aware = true;
    char err[256];
    if (route_compile(s, &o, plan, err, sizeof err) != 0)
        fail_msg("route_compile: %s", err);
    assert_true(plan->link_aware);
    rt_check_plan(s, plan);
    check_links_apart(plan);
    celldata_t d;
    assert_int_equal(route_tables(plan, &d, err, sizeof err), 0);
    rt_check_tables(plan, &d);
    celldata_free(&d);
}

static void test_links_keep_connections_sharing_a_link_apart(void **state)
{
    (void)state;
    static const pattern_kind_t kinds[] = {PATTERN_TORUS, PATTERN_BUTTERFLY, PATTERN_ALLTOALL};
    for (unsigned k = 0; k < 3; k++) {
        cset_t s;
        route_plan_t plan;
        rt_pattern(&s, kinds[k], 8, 8, 256, 12);
        compile_links(&s, &plan);
        route_plan_free(&plan);
        cset_free(&s);
    }
    for (uint64_t seed = 1; seed <= 20; seed++) {
        cset_t s;
        route_plan_t plan;
        rt_random_set(&s, seed, 5, 4, 60, 6, seed % 2 == 0);
        compile_links(&s, &plan);
        route_plan_free(&plan);
        cset_free(&s);
    }
}

static void test_a_timed_phase_longer_than_the_cells_can_count_is_refused(void **state)
{
    (void)state;
    /* 2^31 - 2 clocks: the longest phase of whole words the cells count (signed 32-bit differences). */
    cset_t s;
    route_plan_t plan;
    rt_parse(&s, "array 2x1\nconn a 0,0 1,0 1073741823\nconn b 1,0 0,0 1\n");
    compile_links(&s, &plan);
    assert_int_equal(plan.phases[0].clocks, 2147483646u);
    route_plan_free(&plan);
    cset_free(&s);
    /* Two words more, after it: 2^31 clocks, which would wrap; untimed tables never look at the clock. */
    rt_parse(&s, "array 2x1\nconn a 0,0 1,0 1073741823\nconn b 0,0 1,0 1 after a\n");
    route_options_t o;
    route_options_init(&o);
    o.link_aware = true;
    char err[256];
    assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), 0);
    assert_int_equal(plan.phases[0].clocks, 2147483648u);
    assert_int_equal(route_tables_check(&plan, err, sizeof err), -1);
    celldata_t d;
    err[0] = '\0';
    assert_int_equal(route_tables(&plan, &d, err, sizeof err), -1);
    assert_string_equal(err, "phase 0 of the timed schedule (--links) lasts 2147483648 clocks, more than the "
                             "2147483647 the cells can count; compile without --links, or with shorter connections");
    route_plan_free(&plan);
    rt_compile(&s, 0, &plan);
    assert_int_equal(route_tables_check(&plan, err, sizeof err), 0);
    assert_int_equal(route_tables(&plan, &d, err, sizeof err), 0);
    celldata_free(&d);
    route_plan_free(&plan);
    cset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_links_keep_connections_sharing_a_link_apart),
        cmocka_unit_test(test_a_timed_phase_longer_than_the_cells_can_count_is_refused),
        cmocka_unit_test(test_torus_butterfly_and_alltoall_keep_capacity_12),
        cmocka_unit_test(test_torus_butterfly_and_alltoall_keep_capacity_16),
        cmocka_unit_test(test_small_and_odd_arrays),
        cmocka_unit_test(test_random_sets_keep_every_property),
        cmocka_unit_test(test_random_sets_with_capacity_12_and_16_on_8x8),
        cmocka_unit_test(test_a_set_that_cannot_fit_one_phase_gets_several),
        cmocka_unit_test(test_one_connection_fits_one_phase_and_a_self_connection_takes_one_channel),
        cmocka_unit_test(test_routes_are_shortest_when_there_is_room),
        cmocka_unit_test(test_ordering_constraints_in_one_phase_follow_in_time),
        cmocka_unit_test(test_ordering_constraints_across_phases_keep_the_order),
        cmocka_unit_test(test_tasks_get_phases_of_their_own),
        cmocka_unit_test(test_an_empty_set_has_no_phases),
        cmocka_unit_test(test_the_phase_count_is_at_least_the_lower_bound),
        cmocka_unit_test(test_the_same_input_and_seed_give_the_same_bytes),
        cmocka_unit_test(test_other_seeds_and_no_rerouting_still_give_valid_plans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
