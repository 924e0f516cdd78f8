/*
 * The paper mode (route_options_t.paper, `iwarp route --paper`): only what the ConSet paper's section 4.4
 * describes. Every plan keeps every property a plan must have; the router prices a node 1 + its routes over the
 * capacity and never looks at the words (no balancing); rounds never add phases; each phase's schedule is the greedy
 * alone; the same seed gives the same plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conset/route_report.h"
#include "conset/sched.h"
#include "route_test.h"

static void compile_paper(const cset_t *s, unsigned iterations, uint64_t seed, route_plan_t *plan)
{
    route_options_t o;
    route_options_init(&o);
    o.paper = true;
    o.iterations = iterations;
    o.seed = seed;
    char err[256];
    if (route_compile(s, &o, plan, err, sizeof err) != 0)
        fail_msg("route_compile: %s", err);
    assert_true(plan->paper);
}

static void test_patterns_and_random_sets_keep_every_property(void **state)
{
    (void)state;
    static const pattern_kind_t kinds[] = {PATTERN_TORUS, PATTERN_BUTTERFLY, PATTERN_ALLTOALL};
    for (unsigned k = 0; k < 3; k++) {
        cset_t s;
        rt_pattern(&s, kinds[k], 8, 8, 256, 12);
        route_plan_t plan;
        compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 1, &plan);
        rt_check_plan(&s, &plan); /* capacity per phase, every connection routed once on a path, channels... */
        /* A round that needs another phase is undone: the rounds never add one. */
        assert_true(plan.nphases <= plan.greedy_phases);
        route_plan_free(&plan);
        cset_free(&s);
    }
    for (uint64_t seed = 1; seed <= 20; seed++) {
        unsigned w = 1 + (unsigned)(seed * 7 % 9), h = 1 + (unsigned)(seed * 5 % 7);
        unsigned capacity = 1 + (unsigned)(seed % 16), n = 20 + (unsigned)(seed * 37 % 300);
        cset_t s;
        rt_random_set(&s, seed, w, h, n, capacity, seed % 2 == 0); /* with `after`s: rounds that cannot keep them */
        route_plan_t plan;
        compile_paper(&s, 10, seed, &plan);
        rt_check_plan(&s, &plan);
        assert_true(plan.nphases <= plan.greedy_phases);
        route_plan_free(&plan);
        cset_free(&s);
    }
}

/* Section 4.4.1: "initialize node costs to 1", "update node costs": 1/capacity a route through the node, so a
 * node costs less than 2 until it is full, and a path goes round (one cell more, cost 1 more) only a full node.
 * On a ring of 5, cell 1,0 holds the two self connections (routed first: x comes after them). */
static void test_a_node_costs_one_plus_its_share_of_routes(void **state)
{
    (void)state;
    static const uint16_t through[] = {0, 1, 2}, round[] = {0, 4, 3, 2};
    for (unsigned capacity = 2; capacity <= 3; capacity++) {
        char text[256];
        snprintf(text, sizeof text,
                 "array 5x1\ncapacity %u\nconn s1 1,0 1,0 8\nconn s2 1,0 1,0 8 after s1\nconn x 0,0 2,0 8 after s2\n",
                 capacity);
        cset_t s;
        rt_parse(&s, text);
        route_plan_t plan;
        compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 1, &plan);
        rt_check_plan(&s, &plan);
        assert_int_equal(plan.nphases, 1);
        const route_conn_t *x = &plan.conns[2];
        /* 3 channels: through 1,0 costs 1 + (1 + 2/3) + 1 < 4 the other way round; 2: 1,0 is full. */
        if (capacity == 3) {
            assert_int_equal(x->ncells, 3);
            assert_memory_equal(plan.cells + x->first, through, sizeof through);
        } else {
            assert_int_equal(x->ncells, 4);
            assert_memory_equal(plan.cells + x->first, round, sizeof round);
        }
        route_plan_free(&plan);
        cset_free(&s);
    }
    /* Two shortest paths, through 1,0 (2 routes of 12) or 3,0 (none): the cheaper, 3,0. */
    cset_t s;
    rt_parse(&s, "array 4x1\nconn s1 1,0 1,0 8\nconn s2 1,0 1,0 8 after s1\nconn x 0,0 2,0 8 after s2\n");
    route_plan_t plan;
    compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 1, &plan);
    static const uint16_t other[] = {0, 3, 2};
    assert_int_equal(plan.conns[2].ncells, 3);
    assert_memory_equal(plan.cells + plan.conns[2].first, other, sizeof other);
    route_plan_free(&plan);
    cset_free(&s);
}

/* No balancing: the paper's router never looks at the words, so a connection carrying other words, last in the
 * routing order either way, changes no phase and no path. */
static void test_the_router_does_not_look_at_the_words(void **state)
{
    (void)state;
    cset_t a, b;
    rt_pattern(&a, PATTERN_ALLTOALL, 8, 8, 256, 12);
    rt_pattern(&b, PATTERN_ALLTOALL, 8, 8, 256, 12);
    /* The routing order: most hops first, then most words, then file order; the last of the one-hop
     * connections keeps its place with fewer words. */
    torus_t t = torus_make(8, 8);
    unsigned last = 0;
    for (unsigned i = 0; i < b.nconns; i++)
        if (torus_distance(&t, b.conns[i].src, b.conns[i].dst) == 1)
            last = i;
    b.conns[last].words = 1;
    route_plan_t pa, pb;
    compile_paper(&a, 8, 3, &pa);
    compile_paper(&b, 8, 3, &pb);
    assert_int_equal(pa.nphases, pb.nphases);
    for (unsigned i = 0; i < a.nconns; i++) {
        assert_int_equal(pa.conns[i].phase, pb.conns[i].phase);
        assert_int_equal(pa.conns[i].ncells, pb.conns[i].ncells);
        assert_memory_equal(pa.cells + pa.conns[i].first, pb.cells + pb.conns[i].first,
                            sizeof *pa.cells * pa.conns[i].ncells);
    }
    route_plan_free(&pa);
    route_plan_free(&pb);
    cset_free(&a);
    cset_free(&b);
}

/* Section 4.4.2: each phase's schedule is the greedy alone, exactly (test_sched.c has a phase where our other
 * schedules do better; on these phases the greedy meets the busiest timeline). */
static void test_each_phase_is_scheduled_by_the_greedy_alone(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_ALLTOALL, 8, 8, 32, 12);
    route_plan_t plan;
    compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 1, &plan);
    for (unsigned p = 0; p < plan.nphases; p++) {
        const route_phase_t *ph = &plan.phases[p];
        unsigned n = ph->nconns, *src = malloc(sizeof *src * n), *dst = malloc(sizeof *dst * n);
        uint64_t *dur = malloc(sizeof *dur * n), *start = malloc(sizeof *start * n);
        assert_true(src != NULL && dst != NULL && dur != NULL && start != NULL);
        for (unsigned k = 0; k < n; k++) {
            src[k] = s.conns[ph->conns[k]].src;
            dst[k] = s.conns[ph->conns[k]].dst;
            dur[k] = (uint64_t)SCHED_CLOCKS_PER_WORD * s.conns[ph->conns[k]].words;
        }
        sched_input_t in = {.cells = 64, .n = n, .src = src, .dst = dst, .dur = dur, .seed = 1, .greedy_only = true};
        assert_int_equal(sched_phase(&in, start), (int64_t)ph->clocks);
        for (unsigned k = 0; k < n; k++)
            assert_int_equal(plan.conns[ph->conns[k]].start, start[k]);
        free(src);
        free(dst);
        free(dur);
        free(start);
    }
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_the_same_seed_gives_the_same_plan_and_another_may_not(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_BUTTERFLY, 8, 8, 32, 12);
    route_plan_t a, b, c;
    compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 7, &a);
    compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, 7, &b);
    assert_int_equal(a.nphases, b.nphases);
    size_t cells = 0;
    for (unsigned i = 0; i < s.nconns; i++) {
        assert_int_equal(a.conns[i].phase, b.conns[i].phase);
        assert_int_equal(a.conns[i].start, b.conns[i].start);
        cells += a.conns[i].ncells;
    }
    assert_memory_equal(a.cells, b.cells, sizeof *a.cells * cells);
    /* The seed picks the routes each round rips up: some seed among a few moves some route. */
    bool moved = false;
    for (uint64_t seed = 1; seed <= 4 && !moved; seed++) {
        compile_paper(&s, ROUTE_DEFAULT_ITERATIONS, seed, &c);
        for (unsigned i = 0; i < s.nconns && !moved; i++)
            moved = c.conns[i].phase != a.conns[i].phase || c.conns[i].ncells != a.conns[i].ncells ||
                    memcmp(c.cells + c.conns[i].first, a.cells + a.conns[i].first,
                           sizeof *c.cells * c.conns[i].ncells) != 0;
        route_plan_free(&c);
    }
    assert_true(moved);
    route_plan_free(&a);
    route_plan_free(&b);
    cset_free(&s);
}

static void test_paper_with_links_is_refused(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "conn a 0,0 1,0 5\n");
    route_options_t o;
    route_options_init(&o);
    o.paper = o.link_aware = true;
    route_plan_t plan;
    char err[256];
    assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), -1);
    assert_non_null(strstr(err, "paper and links"));
    cset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns_and_random_sets_keep_every_property),
        cmocka_unit_test(test_a_node_costs_one_plus_its_share_of_routes),
        cmocka_unit_test(test_the_router_does_not_look_at_the_words),
        cmocka_unit_test(test_each_phase_is_scheduled_by_the_greedy_alone),
        cmocka_unit_test(test_the_same_seed_gives_the_same_plan_and_another_may_not),
        cmocka_unit_test(test_paper_with_links_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
