/* xQy all-to-all under ConSet (programs/copy/alltoall.s through copy_alltoall): in both styles, for every
 * pattern pair, on arrays whose sides are and are not powers of two, with blocks shorter than the send's
 * lookahead (8 words: no word goes both ways in one bundle) and longer ones (odd and even remainders), every cell ends with every word from
 * every other cell at its place and no guard word touched; and a clock golden of each style. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "copy_alltoall.h"
#include "e2e.h"

static copy_a2a_run_t run(copy_style_t style, long x, long y, unsigned words, unsigned w, unsigned h)
{
    copy_a2a_case_t c = {.style = style, .x = x, .y = y, .words = words, .width = w, .height = h};
    copy_a2a_run_t r;
    char err[2048];
    if (copy_alltoall_run(&c, &r, err, sizeof err) != 0)
        fail_msg("%s %ldQ%ld on %ux%u: %s", style == COPY_PACKING ? "packing" : "chained", x, y, w, h, err);
    return r;
}

static void test_every_word_reaches_its_place(void **state)
{
    (void)state;
    static const long patterns[] = {1, 3, 8, 16, COPY_INDEXED};
    static const unsigned sides[][2] = {{4, 4}, {3, 2}};
    static const unsigned words[] = {6, 18, 20};
    for (unsigned s = 0; s < 2; s++)
        for (unsigned n = 0; n < 3; n++)
            for (unsigned i = 0; i < 5; i++)
                for (unsigned j = 0; j < 5; j++)
                    for (unsigned style = COPY_PACKING; style <= COPY_CHAINED; style++) {
                        copy_a2a_run_t r =
                            run((copy_style_t)style, patterns[i], patterns[j], words[n], sides[s][0], sides[s][1]);
                        if (r.wrong != 0)
                            fail_msg("%s %ldQ%ld, %u words on %ux%u: %llu words wrong",
                                     style == COPY_PACKING ? "packing" : "chained", patterns[i], patterns[j], words[n],
                                     sides[s][0], sides[s][1], (unsigned long long)r.wrong);
                    }
}

/* The network alone moves the same words through the same phases and leaves every destination alone; it is
 * never slower than the chained copy of contiguous blocks, which does the same with memory in the loop. */
static void test_the_network_alone_bounds_the_copies(void **state)
{
    (void)state;
    copy_a2a_run_t net = run(COPY_BASIC, 1, 1, 20, 4, 4), chained = run(COPY_CHAINED, 1, 1, 20, 4, 4);
    assert_int_equal(net.wrong, 0);
    assert_int_equal(net.phases, chained.phases);
    assert_true(net.clocks <= chained.clocks);
}

static void test_clock_goldens(void **state)
{
    (void)state;
    e2e_check_golden("programs/copy/alltoall.s#packing-1Q16-4x4-32", run(COPY_PACKING, 1, 16, 32, 4, 4).clocks);
    e2e_check_golden("programs/copy/alltoall.s#chained-1Q16-4x4-32", run(COPY_CHAINED, 1, 16, 32, 4, 4).clocks);
    e2e_check_golden("programs/copy/alltoall.s#chained-!Q1-4x4-32",
                     run(COPY_CHAINED, COPY_INDEXED, 1, 32, 4, 4).clocks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_word_reaches_its_place),
        cmocka_unit_test(test_the_network_alone_bounds_the_copies),
        cmocka_unit_test(test_clock_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
