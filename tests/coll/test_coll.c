/* The collective patterns over message passing (runtime/coll.s, experiments/coll): every pattern in both
 * implementations on 1xQ, Px1 and PxQ groups (sizes that are not powers of two among them), contiguous and
 * strided blocks, chunks that do and do not divide the block: every word of every cell's matrix region checked
 * by the host (coll_check). Also: a buffered send returns before its receive is posted, chunked beats naive on
 * large blocks, and the clocks of a few cases are pinned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "coll.h"
#include "golden.h"

static coll_result_t run(const coll_case_t *c)
{
    coll_result_t r;
    char err[512] = "";
    int rc = coll_run(c, 1, &r, err, sizeof err);
    if (rc != 0)
        fail_msg("%s %s %s %ux%u %ux%u lda %u chunk %u: %s", coll_pattern_name(c->pattern), coll_impl_name(c->impl),
                 coll_groups_name(c->groups), c->width, c->height, c->m, c->n, c->lda, c->chunk, err);
    return r;
}

static void expect_right(const coll_case_t *c)
{
    coll_result_t r = run(c);
    if (r.wrong != 0)
        fail_msg("%s %s %s %ux%u %ux%u lda %u chunk %u: %llu words wrong", coll_pattern_name(c->pattern),
                 coll_impl_name(c->impl), coll_groups_name(c->groups), c->width, c->height, c->m, c->n, c->lda,
                 c->chunk, (unsigned long long)r.wrong);
    assert_true(r.clocks > 0);
}

/* The groupings and shapes every pattern runs on: rows of 4x3 (1x4), columns of 4x3 (3x1), the whole 3x3
 * (9 ranks) and the whole 2x3; a contiguous row, a strided block whose chunk divides it, one whose chunk does
 * not, and a chunk longer than the block. */
typedef struct shape {
    coll_groups_t groups;
    unsigned w, h, m, n, extra, chunk;
} shape_t;

static const shape_t shapes[] = {
    {COLL_ROWS, 4, 3, 1, 24, 0, 8},   {COLL_COLUMNS, 4, 3, 3, 5, 2, 5}, {COLL_WHOLE, 3, 3, 4, 6, 3, 7},
    {COLL_WHOLE, 2, 3, 2, 3, 1, 64}, {COLL_ROWS, 4, 3, 6, 4, 0, 3},
};

static void every_shape(coll_pattern_t p)
{
    for (unsigned impl = COLL_NAIVE; impl <= COLL_CHUNKED; impl++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const shape_t *sh = &shapes[s];
            coll_case_t c = {.pattern = p, .impl = (coll_impl_t)impl, .groups = sh->groups, .width = sh->w,
                             .height = sh->h, .m = sh->m, .n = sh->n, .chunk = sh->chunk};
            unsigned row = coll_is_multi(p) ? sh->n * coll_group_size(&c) : sh->n;
            c.lda = row + sh->extra;
            expect_right(&c);
            if (p == COLL_BCAST || p == COLL_REDUCE) {
                c.root = coll_group_size(&c) - 1;
                expect_right(&c);
                c.root = coll_group_size(&c) / 2;
                expect_right(&c);
            }
        }
}

static void test_bcast(void **state)
{
    (void)state;
    every_shape(COLL_BCAST);
}

static void test_reduce(void **state)
{
    (void)state;
    every_shape(COLL_REDUCE);
}

static void test_mbcast_tree(void **state)
{
    (void)state;
    every_shape(COLL_MBCAST_TREE);
}

static void test_mbcast_ring(void **state)
{
    (void)state;
    every_shape(COLL_MBCAST_RING);
}

static void test_mbcast_pipe(void **state)
{
    (void)state;
    every_shape(COLL_MBCAST_PIPE);
}

static void test_mreduce_tree(void **state)
{
    (void)state;
    every_shape(COLL_MREDUCE_TREE);
}

static void test_mreduce_ring(void **state)
{
    (void)state;
    every_shape(COLL_MREDUCE_RING);
}

static void test_bsend(void **state)
{
    (void)state;
    every_shape(COLL_BSEND);
}

/* The sender of a buffered send goes on before the receiver has posted its receive: with the receiver waiting
 * 20000 clocks, the send returns long before, and the ping-pong still delivers every word both ways. */
static void test_bsend_returns_first(void **state)
{
    (void)state;
    for (unsigned impl = COLL_NAIVE; impl <= COLL_CHUNKED; impl++) {
        coll_case_t c = {.pattern = COLL_BSEND, .impl = (coll_impl_t)impl, .groups = COLL_ROWS, .width = 4,
                         .height = 1, .m = 8, .n = 64, .lda = 80, .chunk = 100, .delay = 20000};
        coll_result_t r = run(&c);
        assert_int_equal(r.wrong, 0);
        assert_true(r.recv_post >= 20000);
        assert_true(r.send_return < 10000);
        assert_true(r.send_return < r.recv_post);
        assert_true(r.clocks > r.recv_post);
    }
}

/* Chunking pays on large blocks (the buffered collectives paper's moderate to large messages): fewer clocks than naive for
 * every pattern on a row of 8 cells, a contiguous 1 x 2048 block in chunks of 512 words. */
static void test_chunked_beats_naive(void **state)
{
    (void)state;
    for (unsigned p = 0; p < COLL_PATTERNS; p++) {
        coll_case_t c = {.pattern = (coll_pattern_t)p, .groups = COLL_ROWS, .width = 8, .height = 1, .m = 1,
                         .n = 2048, .chunk = 512};
        c.lda = coll_is_multi(c.pattern) ? 8 * c.n : c.n;
        c.impl = COLL_NAIVE;
        coll_result_t naive = run(&c);
        c.impl = COLL_CHUNKED;
        coll_result_t chunked = run(&c);
        assert_int_equal(naive.wrong, 0);
        assert_int_equal(chunked.wrong, 0);
        if (chunked.clocks >= naive.clocks)
            fail_msg("%s: chunked %llu clocks, naive %llu", coll_pattern_name(c.pattern),
                     (unsigned long long)chunked.clocks, (unsigned long long)naive.clocks);
    }
}

/* Exact clocks of a few cases (tests/coll/golden/clocks.txt; IWARP_REBASELINE=1 records them anew). */
static void test_goldens(void **state)
{
    (void)state;
    static const coll_case_t cases[] = {
        {.pattern = COLL_BCAST, .impl = COLL_NAIVE, .groups = COLL_ROWS, .width = 4, .height = 2, .m = 4, .n = 16,
         .lda = 20, .chunk = 1},
        {.pattern = COLL_REDUCE, .impl = COLL_CHUNKED, .groups = COLL_WHOLE, .width = 3, .height = 3, .m = 4, .n = 16,
         .lda = 20, .chunk = 24, .root = 4},
        {.pattern = COLL_MBCAST_RING, .impl = COLL_CHUNKED, .groups = COLL_COLUMNS, .width = 2, .height = 5, .m = 2,
         .n = 40, .lda = 210, .chunk = 32},
        {.pattern = COLL_MBCAST_PIPE, .impl = COLL_NAIVE, .groups = COLL_ROWS, .width = 5, .height = 1, .m = 1, .n = 100,
         .lda = 500, .chunk = 1},
        {.pattern = COLL_BSEND, .impl = COLL_CHUNKED, .groups = COLL_ROWS, .width = 3, .height = 2, .m = 10, .n = 10,
         .lda = 10, .chunk = 30},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coll_result_t r = run(&cases[i]);
        assert_int_equal(r.wrong, 0);
        char name[96];
        snprintf(name, sizeof name, "%s-%s-%s-%ux%u", coll_pattern_name(cases[i].pattern),
                 coll_impl_name(cases[i].impl), coll_groups_name(cases[i].groups), cases[i].width, cases[i].height);
        golden_check("tests/coll/golden/clocks.txt", name, r.clocks, "clocks", "coll");
    }
}

/* The host's threads change nothing: the same clocks and the same words on 1, 2 and 3 threads, for message
 * passing and ConSet (programs/coll/conset_coll.s needs the host's tables, so test_every_program cannot run
 * it). */
static void test_threads_change_nothing(void **state)
{
    (void)state;
    static const coll_case_t cases[] = {
        {.pattern = COLL_MREDUCE_RING, .impl = COLL_CHUNKED, .groups = COLL_WHOLE, .width = 3, .height = 3, .m = 3,
         .n = 10, .lda = 100, .chunk = 7},
        {.pattern = COLL_BCAST, .impl = COLL_CONSET, .groups = COLL_COLUMNS, .width = 4, .height = 5, .m = 6, .n = 9,
         .lda = 11, .root = 3},
        {.pattern = COLL_MBCAST_PIPE, .impl = COLL_CONSET, .groups = COLL_ROWS, .width = 5, .height = 3, .m = 2,
         .n = 13, .lda = 70},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coll_result_t one = run(&cases[i]);
        assert_int_equal(one.wrong, 0);
        for (unsigned t = 2; t <= 3; t++) {
            coll_result_t r;
            char err[256];
            assert_int_equal(coll_run(&cases[i], t, &r, err, sizeof err), 0);
            assert_int_equal(r.clocks, one.clocks);
            assert_int_equal(r.wrong, 0);
        }
    }
}

/* Shapes the programs cannot take are refused with a reason, before anything runs. */
static void test_refusals(void **state)
{
    (void)state;
    char err[256];
    coll_result_t r;
    coll_case_t c = {.pattern = COLL_MBCAST_RING, .impl = COLL_CHUNKED, .groups = COLL_ROWS, .width = 4, .height = 2,
                     .m = 2, .n = 8, .lda = 8, .chunk = 4};
    assert_int_equal(coll_run(&c, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "lda 8 is less than"));
    c.lda = 32;
    c.groups = COLL_COLUMNS;
    c.height = 1;
    assert_int_equal(coll_run(&c, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "one cell"));
    c.groups = COLL_ROWS;
    c.chunk = 0;
    assert_int_equal(coll_run(&c, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "chunk of at least one word"));
    c.chunk = 4;
    c.m = 2000;
    c.n = 200;
    c.lda = 800;
    assert_int_equal(coll_run(&c, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not fit"));
    c = (coll_case_t){.pattern = COLL_BCAST, .groups = COLL_ROWS, .width = 4, .height = 1, .m = 1, .n = 4, .lda = 4,
                      .chunk = 4, .root = 4};
    assert_int_equal(coll_run(&c, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "root 4"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bcast),        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_mbcast_tree),  cmocka_unit_test(test_mbcast_ring),
        cmocka_unit_test(test_mbcast_pipe),  cmocka_unit_test(test_mreduce_tree),
        cmocka_unit_test(test_mreduce_ring), cmocka_unit_test(test_bsend),
        cmocka_unit_test(test_bsend_returns_first), cmocka_unit_test(test_chunked_beats_naive),
        cmocka_unit_test(test_goldens),      cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_threads_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
