/* Personalized exchanges under ConSet (programs/copy/exchange.s through copy_exchange and the kernels of
 * copy_kernels): in both styles, every cell ends with every word from every cell at its place and no guard
 * word touched, for xQy with every pattern pair (blocks shorter than the send's lookahead of 8 words, so
 * that no word goes both ways in one bundle, and longer ones with odd and even remainders), on arrays whose
 * sides are and are not powers of two; the transpose, the sparse gather and the block-cyclic redistribution
 * likewise; the network alone stores nothing and bounds the copies; clock goldens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "copy_kernels.h"
#include "e2e.h"

static const char *style_name(copy_style_t s)
{
    return s == COPY_PACKING ? "packing" : s == COPY_CHAINED ? "chained" : "network";
}

static copy_exchange_run_t run(const copy_kernel_params_t *p, copy_style_t style)
{
    char err[2048];
    copy_kernel_t *k = copy_kernel_new(p, err, sizeof err);
    if (k == NULL)
        fail_msg("%s", err);
    copy_exchange_run_t r;
    if (copy_exchange_run(copy_kernel_spec(k), style, 1, NULL, &r, err, sizeof err) != 0)
        fail_msg("kernel %d, %s: %s", (int)p->kind, style_name(style), err);
    copy_kernel_free(k);
    return r;
}

static void expect_right(const copy_kernel_params_t *p, const char *what)
{
    for (unsigned style = COPY_PACKING; style <= COPY_CHAINED; style++) {
        copy_exchange_run_t r = run(p, (copy_style_t)style);
        if (r.wrong != 0)
            fail_msg("%s, %s, %u words on %ux%u: %llu words wrong", what, style_name((copy_style_t)style), p->n,
                     p->width, p->height, (unsigned long long)r.wrong);
    }
}

static void test_xqy_moves_every_word(void **state)
{
    (void)state;
    static const long patterns[] = {1, 3, 16, 20, COPY_INDEXED};
    static const unsigned sides[][2] = {{4, 4}, {3, 2}};
    static const unsigned words[] = {6, 18, 21};
    for (unsigned s = 0; s < 2; s++)
        for (unsigned n = 0; n < 3; n++)
            for (unsigned i = 0; i < 5; i++)
                for (unsigned j = 0; j < 5; j++) {
                    copy_kernel_params_t p = {COPY_KERNEL_XQY, sides[s][0], sides[s][1], words[n], patterns[i],
                                              patterns[j], 0, 0};
                    char what[64];
                    snprintf(what, sizeof what, "%ldQ%ld", patterns[i], patterns[j]);
                    expect_right(&p, what);
                }
}

static void test_kernels_move_every_word(void **state)
{
    (void)state;
    static const unsigned sides[][2] = {{4, 4}, {5, 3}};
    for (unsigned s = 0; s < 2; s++) {
        unsigned w = sides[s][0], h = sides[s][1];
        copy_kernel_params_t t = {COPY_KERNEL_TRANSPOSE, w, h, 13, 0, 0, 0, 0};
        expect_right(&t, "transpose");
        copy_kernel_params_t g = {COPY_KERNEL_GATHER, w, h, 97, 0, 0, 0, 0};
        expect_right(&g, "gather");
        copy_kernel_params_t c = {COPY_KERNEL_CYCLIC, w, h, 100, 0, 0, 3, 7};
        expect_right(&c, "cyclic(3) to cyclic(7)");
        copy_kernel_params_t b = {COPY_KERNEL_CYCLIC, w, h, 64, 0, 0, 64, 1};
        expect_right(&b, "block to cyclic");
    }
}

/* The block layouts make the host describe blocks as strides where they are and by index arrays where
 * they are not: block to cyclic is strided at both ends, the gather indexed. */
static void test_blocks_are_described_as_they_are(void **state)
{
    (void)state;
    copy_kernel_params_t b = {COPY_KERNEL_CYCLIC, 4, 4, 64, 0, 0, 64, 1};
    copy_exchange_run_t r = run(&b, COPY_CHAINED);
    assert_int_equal(r.indexed_blocks, 0);
    copy_kernel_params_t g = {COPY_KERNEL_GATHER, 4, 4, 256, 0, 0, 0, 0};
    r = run(&g, COPY_CHAINED);
    assert_true(r.indexed_blocks > r.strided_blocks);
}

static void test_the_network_alone_bounds_the_copies(void **state)
{
    (void)state;
    copy_kernel_params_t p = {COPY_KERNEL_XQY, 4, 4, 20, 1, 1, 0, 0};
    copy_exchange_run_t net = run(&p, COPY_BASIC), chained = run(&p, COPY_CHAINED);
    assert_int_equal(net.wrong, 0);
    assert_int_equal(net.phases, chained.phases);
    assert_true(net.clocks <= chained.clocks);
}

static void test_clock_goldens(void **state)
{
    (void)state;
    copy_kernel_params_t x = {COPY_KERNEL_XQY, 4, 4, 32, 1, 16, 0, 0};
    e2e_check_golden("programs/copy/exchange.s#packing-1Q16-4x4-32", run(&x, COPY_PACKING).clocks);
    e2e_check_golden("programs/copy/exchange.s#chained-1Q16-4x4-32", run(&x, COPY_CHAINED).clocks);
    copy_kernel_params_t g = {COPY_KERNEL_GATHER, 4, 4, 128, 0, 0, 0, 0};
    e2e_check_golden("programs/copy/exchange.s#chained-gather-4x4-128", run(&g, COPY_CHAINED).clocks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xqy_moves_every_word),
        cmocka_unit_test(test_kernels_move_every_word),
        cmocka_unit_test(test_blocks_are_described_as_they_are),
        cmocka_unit_test(test_the_network_alone_bounds_the_copies),
        cmocka_unit_test(test_clock_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
