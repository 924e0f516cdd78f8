/*
 * The memo of compiled tables (conset/route_memo.h): a set asked for again gets the tables compiled the first
 * time, which are exactly what compiling it alone gives; any change of the set or the options is another
 * entry; threads asking for one set at once compile it once; a set that does not compile gives its error to
 * every request.
 */
#include <pthread.h>
#include <string.h>

#include "conset/route_memo.h"
#include "conset/route_tables.h"
#include "route_test.h"

static void assert_same_tables(const celldata_t *a, const celldata_t *b)
{
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    for (unsigned i = 0; i < a->width * a->height; i++) {
        assert_int_equal(a->nwords[i], b->nwords[i]);
        assert_memory_equal(a->blobs[i], b->blobs[i], sizeof *a->blobs[i] * a->nwords[i]);
    }
}

static void test_a_set_asked_again_is_compiled_once_into_the_same_tables(void **state)
{
    (void)state;
    cset_t set;
    rt_pattern(&set, PATTERN_BUTTERFLY, 4, 4, 64, 12);
    route_options_t o;
    route_options_init(&o);
    route_memo_t *m = route_memo_new();
    assert_non_null(m);
    const celldata_t *first = NULL, *again = NULL;
    unsigned phases = 0, phases_again = 0, compiled = 0, requests = 0;
    char err[256];
    assert_int_equal(route_memo_tables(m, &set, &o, &first, &phases, err, sizeof err), 0);
    assert_int_equal(route_memo_tables(m, &set, &o, &again, &phases_again, err, sizeof err), 0);
    assert_ptr_equal(first, again);
    assert_int_equal(phases, phases_again);
    route_memo_counts(m, &compiled, &requests);
    assert_int_equal(compiled, 1);
    assert_int_equal(requests, 2);

    route_plan_t plan;
    rt_compile(&set, 0, &plan);
    celldata_t alone;
    assert_int_equal(route_tables(&plan, &alone, err, sizeof err), 0);
    assert_int_equal(phases, plan.nphases);
    assert_same_tables(first, &alone);
    celldata_free(&alone);
    route_plan_free(&plan);
    route_memo_free(m);
    cset_free(&set);
}

static void test_other_words_or_options_are_other_entries(void **state)
{
    (void)state;
    cset_t set, longer;
    rt_pattern(&set, PATTERN_TORUS, 4, 4, 64, 12);
    rt_pattern(&longer, PATTERN_TORUS, 4, 4, 128, 12);
    route_options_t o, links, paper;
    route_options_init(&o);
    route_options_init(&links);
    route_options_init(&paper);
    links.link_aware = true;
    paper.paper = true;
    route_memo_t *m = route_memo_new();
    const celldata_t *t[4];
    unsigned phases, compiled, requests;
    char err[256];
    assert_int_equal(route_memo_tables(m, &set, &o, &t[0], &phases, err, sizeof err), 0);
    assert_int_equal(route_memo_tables(m, &longer, &o, &t[1], &phases, err, sizeof err), 0);
    assert_int_equal(route_memo_tables(m, &set, &links, &t[2], &phases, err, sizeof err), 0);
    assert_int_equal(route_memo_tables(m, &set, &paper, &t[3], &phases, err, sizeof err), 0);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned j = i + 1; j < 4; j++)
            assert_true(t[i] != t[j]);
    route_memo_counts(m, &compiled, &requests);
    assert_int_equal(compiled, 4);
    assert_int_equal(requests, 4);
    route_memo_free(m);
    cset_free(&set);
    cset_free(&longer);
}

enum { ASKERS = 4 };

typedef struct asker {
    route_memo_t *m;
    const cset_t *set;
    const celldata_t *tables;
    int rc;
} asker_t;

static void *ask(void *arg)
{
    asker_t *a = arg;
    route_options_t o;
    route_options_init(&o);
    unsigned phases;
    char err[256];
    a->rc = route_memo_tables(a->m, a->set, &o, &a->tables, &phases, err, sizeof err);
    return NULL;
}

static void test_threads_asking_at_once_share_one_compilation(void **state)
{
    (void)state;
    cset_t set;
    rt_pattern(&set, PATTERN_ALLTOALL, 4, 4, 32, 12);
    route_memo_t *m = route_memo_new();
    asker_t askers[ASKERS];
    pthread_t tid[ASKERS];
    for (unsigned i = 0; i < ASKERS; i++) {
        askers[i] = (asker_t){m, &set, NULL, -1};
        assert_int_equal(pthread_create(&tid[i], NULL, ask, &askers[i]), 0);
    }
    for (unsigned i = 0; i < ASKERS; i++)
        assert_int_equal(pthread_join(tid[i], NULL), 0);
    for (unsigned i = 0; i < ASKERS; i++) {
        assert_int_equal(askers[i].rc, 0);
        assert_ptr_equal(askers[i].tables, askers[0].tables);
    }
    unsigned compiled, requests;
    route_memo_counts(m, &compiled, &requests);
    assert_int_equal(compiled, 1);
    assert_int_equal(requests, ASKERS);
    route_memo_free(m);
    cset_free(&set);
}

static void test_a_set_that_does_not_compile_gives_its_error_each_time(void **state)
{
    (void)state;
    cset_t set;
    rt_pattern(&set, PATTERN_TORUS, 4, 4, 16, 12);
    route_options_t o;
    route_options_init(&o);
    o.capacity = CSET_MAX_CAPACITY + 1;
    route_memo_t *m = route_memo_new();
    const celldata_t *t = NULL;
    unsigned phases, compiled, requests;
    char first[256] = "", again[256] = "";
    assert_int_equal(route_memo_tables(m, &set, &o, &t, &phases, first, sizeof first), -1);
    assert_int_equal(route_memo_tables(m, &set, &o, &t, &phases, again, sizeof again), -1);
    assert_null(t);
    assert_non_null(strstr(first, "capacity"));
    assert_string_equal(first, again);
    route_memo_counts(m, &compiled, &requests);
    assert_int_equal(compiled, 1);
    route_memo_free(m);
    cset_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_set_asked_again_is_compiled_once_into_the_same_tables),
        cmocka_unit_test(test_other_words_or_options_are_other_entries),
        cmocka_unit_test(test_threads_asking_at_once_share_one_compilation),
        cmocka_unit_test(test_a_set_that_does_not_compile_gives_its_error_each_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
