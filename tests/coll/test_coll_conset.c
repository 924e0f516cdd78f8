/* The collectives under ConSet (experiments/coll/coll_conset.c, programs/coll/conset_coll.s): each pattern on rows,
 * columns and whole arrays (P a power of two or not), contiguous and strided blocks, a root other than 0;
 * the host checks every word of every cell's matrix, its gaps and guards. A few cases pin their clocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "coll.h"
#include "golden.h"

static const coll_pattern_t patterns[] = {COLL_BCAST, COLL_REDUCE, COLL_MBCAST_RING, COLL_MBCAST_PIPE,
                                          COLL_MREDUCE_RING};

/* Runs a case and asserts it ran and every word is right; returns its result. */
static coll_result_t run(coll_pattern_t p, coll_groups_t g, unsigned w, unsigned h, unsigned root, unsigned m,
                         unsigned n, unsigned lda)
{
    coll_case_t c = {.pattern = p, .impl = COLL_CONSET, .groups = g, .width = w, .height = h, .root = root,
                     .m = m, .n = n, .lda = lda};
    if (coll_is_multi(p) && lda < coll_group_size(&c) * n)
        c.lda = coll_group_size(&c) * n + (lda > n ? lda - n : 0);
    coll_result_t out;
    char err[512];
    int rc = coll_conset_run(&c, 1, &out, err, sizeof err);
    if (rc != 0)
        fail_msg("%s %s %ux%u root %u %ux%u lda %u: %s", coll_pattern_name(p), coll_groups_name(g), w, h, root, m,
                 n, c.lda, err);
    if (out.wrong != 0)
        fail_msg("%s %s %ux%u root %u %ux%u lda %u: %llu wrong words", coll_pattern_name(p), coll_groups_name(g), w,
                 h, root, m, n, c.lda, (unsigned long long)out.wrong);
    assert_int_equal(out.phases, 1);
    assert_true(out.clocks > 0);
    return out;
}

/* Every pattern on a grouping, contiguous (m = 1 and m > 1 with lda = n) and strided (lda > n). */
static void every_pattern(coll_groups_t g, unsigned w, unsigned h, unsigned root)
{
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        run(patterns[i], g, w, h, root, 1, 5, 5);
        run(patterns[i], g, w, h, root, 3, 4, 4);
        run(patterns[i], g, w, h, root, 3, 7, 11);
    }
}

static void test_rows_of_4x3(void **state)
{
    (void)state;
    every_pattern(COLL_ROWS, 4, 3, 0);
}

static void test_columns_of_4x3(void **state)
{
    (void)state;
    every_pattern(COLL_COLUMNS, 4, 3, 0);
}

static void test_whole_3x3(void **state)
{
    (void)state;
    every_pattern(COLL_WHOLE, 3, 3, 0);
}

static void test_whole_2x4(void **state)
{
    (void)state;
    every_pattern(COLL_WHOLE, 2, 4, 0);
}

static void test_root_other_than_0(void **state)
{
    (void)state;
    for (unsigned root = 1; root < 9; root += 3) {
        run(COLL_BCAST, COLL_WHOLE, 3, 3, root, 3, 7, 11);
        run(COLL_REDUCE, COLL_WHOLE, 3, 3, root, 3, 7, 11);
    }
    run(COLL_BCAST, COLL_ROWS, 4, 3, 3, 2, 6, 6);
    run(COLL_REDUCE, COLL_COLUMNS, 4, 3, 2, 2, 6, 9);
}

/* Rows of two cells: each ring is a pair of connections both ways, each tree one edge. */
static void test_groups_of_two(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        run(patterns[i], COLL_ROWS, 2, 2, 1, 2, 3, 5);
        run(patterns[i], COLL_COLUMNS, 3, 2, 0, 1, 20, 20);
    }
}

/* Clocks pinned for a few cases (IWARP_REBASELINE=1 meson test -C build coll_conset records them). */
static void test_clock_goldens(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        coll_pattern_t p;
        coll_groups_t g;
        unsigned w, h, m, n, lda;
    } cases[] = {
        {"conset_bcast_rows_4x4_8x32_lda40", COLL_BCAST, COLL_ROWS, 4, 4, 8, 32, 40},
        {"conset_reduce_whole_4x4_1x256", COLL_REDUCE, COLL_WHOLE, 4, 4, 1, 256, 256},
        {"conset_mreduce_ring_rows_4x4_4x16", COLL_MREDUCE_RING, COLL_ROWS, 4, 4, 4, 16, 64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coll_result_t r = run(cases[i].p, cases[i].g, cases[i].w, cases[i].h, 0, cases[i].m, cases[i].n,
                              cases[i].lda);
        golden_check("tests/coll/golden/clocks.txt", cases[i].name, r.clocks, "clocks", "coll");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_of_4x3),
        cmocka_unit_test(test_columns_of_4x3),
        cmocka_unit_test(test_whole_3x3),
        cmocka_unit_test(test_whole_2x4),
        cmocka_unit_test(test_root_other_than_0),
        cmocka_unit_test(test_groups_of_two),
        cmocka_unit_test(test_clock_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
