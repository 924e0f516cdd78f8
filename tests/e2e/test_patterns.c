/* The basic patterns of seed 004 move every word where it should go under both models: the programs check
 * every word received (checking mode) and trap on the first wrong one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "e2e.h"

static void run_msgpass(uint32_t pattern, unsigned w, unsigned h)
{
    uint32_t args[3] = {16, pattern, 1}; /* 16 words per message, checked */
    e2e_run_t r;
    e2e_run_program(&r, "programs/patterns/msgpass.s", w, h, args, 3);
    e2e_assert_done(&r);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            assert_true(e2e_a0(&r, x, y) > 0); /* the timed part took time */
    e2e_free(&r);
}

static void test_torus_messages_arrive_whole(void **state)
{
    (void)state;
    run_msgpass(0, 8, 8);
    run_msgpass(0, 3, 2);
}

static void test_butterfly_messages_arrive_whole(void **state)
{
    (void)state;
    run_msgpass(1, 8, 8);
    run_msgpass(1, 4, 2);
}

static void test_all_to_all_messages_arrive_whole(void **state)
{
    (void)state;
    run_msgpass(2, 8, 8);
    run_msgpass(2, 3, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_messages_arrive_whole),
        cmocka_unit_test(test_butterfly_messages_arrive_whole),
        cmocka_unit_test(test_all_to_all_messages_arrive_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
