/* The pattern generators (seed 004, section 5.1; conset/pattern.h). */
#include <string.h>

#include "conset/torus.h"
#include "route_test.h"

static unsigned out_degree(const cset_t *s, unsigned v)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->nconns; i++)
        n += s->conns[i].src == v;
    return n;
}

static bool has_conn(const cset_t *s, unsigned src, unsigned dst)
{
    for (unsigned i = 0; i < s->nconns; i++)
        if (s->conns[i].src == src && s->conns[i].dst == dst)
            return true;
    return false;
}

static void test_torus_sends_to_the_four_neighbours(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_TORUS, 8, 8, 256, 12);
    torus_t t = torus_make(8, 8);
    assert_int_equal(s.nconns, 256);
    assert_int_equal(s.ntasks, 1);
    assert_string_equal(s.tasks[0], "torus");
    for (unsigned v = 0; v < 64; v++)
        for (unsigned d = 0; d < 4; d++)
            assert_true(has_conn(&s, v, torus_neighbour(&t, v, d)));
    for (unsigned i = 0; i < s.nconns; i++)
        assert_int_equal(s.conns[i].words, 256);
    assert_string_equal(s.conns[0].id, "c0_1");
    cset_free(&s);
}

static void test_torus_on_sides_of_one_and_two_has_no_self_or_duplicate_connections(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_TORUS, 2, 1, 4, 12); /* +X and -X are the same cell; +Y and -Y the cell itself */
    assert_int_equal(s.nconns, 2);
    assert_true(has_conn(&s, 0, 1) && has_conn(&s, 1, 0));
    cset_free(&s);
    rt_pattern(&s, PATTERN_TORUS, 2, 2, 4, 12);
    assert_int_equal(s.nconns, 8);
    cset_free(&s);
    rt_pattern(&s, PATTERN_TORUS, 1, 1, 4, 12);
    assert_int_equal(s.nconns, 0);
    cset_free(&s);
    rt_pattern(&s, PATTERN_TORUS, 3, 1, 4, 12);
    assert_int_equal(s.nconns, 6);
    for (unsigned i = 0; i < s.nconns; i++)
        assert_int_not_equal(s.conns[i].src, s.conns[i].dst);
    cset_free(&s);
}

static unsigned gray(unsigned x)
{
    return x ^ (x >> 1);
}

static void test_butterfly_is_a_gray_coded_hypercube(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_BUTTERFLY, 8, 8, 32, 12);
    assert_int_equal(s.nconns, 64 * 6);
    for (unsigned v = 0; v < 64; v++)
        assert_int_equal(out_degree(&s, v), 6);
    for (unsigned i = 0; i < s.nconns; i++) {
        unsigned a = s.conns[i].src, b = s.conns[i].dst;
        unsigned la = gray(a % 8) | gray(a / 8) << 3, lb = gray(b % 8) | gray(b / 8) << 3;
        unsigned diff = la ^ lb;
        assert_true(diff != 0 && (diff & (diff - 1)) == 0);
    }
    /* The mapping keeps each dimension within a row or a column, at most 3 hops away on the 8-ring. */
    torus_t t = torus_make(8, 8);
    for (unsigned i = 0; i < s.nconns; i++)
        assert_true(torus_distance(&t, s.conns[i].src, s.conns[i].dst) <= 3);
    cset_free(&s);
    rt_pattern(&s, PATTERN_BUTTERFLY, 4, 2, 32, 12);
    assert_int_equal(s.nconns, 8 * 3);
    cset_free(&s);
}

static void test_butterfly_needs_sides_that_are_powers_of_two(void **state)
{
    (void)state;
    cset_t s;
    char err[256];
    assert_int_equal(pattern_generate(&s, PATTERN_BUTTERFLY, 6, 8, 32, 12, err, sizeof err), -1);
    assert_non_null(strstr(err, "powers of two"));
    cset_free(&s);
}

static void test_alltoall_sends_to_every_other_cell(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_ALLTOALL, 8, 8, 16, 12);
    assert_int_equal(s.nconns, 64 * 63);
    for (unsigned v = 0; v < 64; v++)
        assert_int_equal(out_degree(&s, v), 63);
    for (unsigned i = 0; i < s.nconns; i++)
        assert_int_not_equal(s.conns[i].src, s.conns[i].dst);
    cset_free(&s);
}

static void test_names_parse_and_bad_ones_do_not(void **state)
{
    (void)state;
    pattern_kind_t k;
    assert_int_equal(pattern_parse("butterfly", &k), 0);
    assert_int_equal(k, PATTERN_BUTTERFLY);
    assert_string_equal(pattern_name(PATTERN_ALLTOALL), "alltoall");
    assert_int_equal(pattern_parse("ring", &k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_sends_to_the_four_neighbours),
        cmocka_unit_test(test_torus_on_sides_of_one_and_two_has_no_self_or_duplicate_connections),
        cmocka_unit_test(test_butterfly_is_a_gray_coded_hypercube),
        cmocka_unit_test(test_butterfly_needs_sides_that_are_powers_of_two),
        cmocka_unit_test(test_alltoall_sends_to_every_other_cell),
        cmocka_unit_test(test_names_parse_and_bad_ones_do_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
