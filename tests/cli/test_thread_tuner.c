/* --threads auto's choice (tools/run/thread_tuner.c), fed with slice rates that are given, not measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "thread_tuner.h"

/* Runs slices of a million clocks in 0.05 s at the chosen count until the tuner asks for another; returns how many
 * ran first (at most `limit`). */
static unsigned slices_until_try(thread_tuner_t *t, unsigned limit)
{
    unsigned n = 0;
    while (n < limit) {
        unsigned k = thread_tuner_next(t);
        if (k != t->cur)
            return n;
        thread_tuner_note(t, 1000000, 0.05);
        n++;
    }
    return n;
}

static void test_one_core_never_tries(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 1);
    for (unsigned i = 0; i < 100; i++) {
        assert_int_equal(thread_tuner_next(&t), 1);
        thread_tuner_note(&t, 1000000, 0.05);
    }
    assert_int_equal(t.probes, 0);
}

/* The first try comes after one measured slice; it is kept only when clearly faster. */
static void test_a_try_is_kept_when_it_wins(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 2);
    assert_int_equal(slices_until_try(&t, 100), 1);
    assert_int_equal(thread_tuner_next(&t), 2);
    thread_tuner_note(&t, 1040000, 0.05); /* 4% faster: noise, not kept */
    assert_int_equal(t.cur, 1);
    assert_int_equal(t.probes, 1);
    assert_int_equal(t.switches, 0);

    thread_tuner_init(&t, 2);
    assert_int_equal(slices_until_try(&t, 100), 1);
    assert_int_equal(thread_tuner_next(&t), 2);
    thread_tuner_note(&t, 1500000, 0.05);
    assert_int_equal(t.cur, 2);
    assert_int_equal(t.switches, 1);
    /* From 2 of 2, the next try is 1, THREAD_TUNER_EVERY slices on. */
    assert_int_equal(slices_until_try(&t, 100), THREAD_TUNER_EVERY);
    assert_int_equal(thread_tuner_next(&t), 1);
}

/* Tries that lose come half as often each time, down to one in THREAD_TUNER_EVERY_MAX slices. */
static void test_losing_tries_come_more_rarely(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 2);
    assert_int_equal(slices_until_try(&t, 1000), 1);
    unsigned expect = THREAD_TUNER_EVERY * 2;
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(thread_tuner_next(&t), 2);
        thread_tuner_note(&t, 500000, 0.05);
        assert_int_equal(t.cur, 1);
        assert_int_equal(slices_until_try(&t, 1000), expect);
        if (expect < THREAD_TUNER_EVERY_MAX)
            expect *= 2;
    }
    assert_int_equal(t.probes, 6);
}

/* Slices too short to time say nothing: no try is made on them, and a try cut short is made again. */
static void test_short_slices_are_not_compared(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 4);
    for (unsigned i = 0; i < 50; i++) {
        assert_int_equal(thread_tuner_next(&t), 1);
        thread_tuner_note(&t, 1000, 0.001);
    }
    thread_tuner_note(&t, 1000000, 0.05);
    assert_int_equal(thread_tuner_next(&t), 2);
    thread_tuner_skip(&t); /* the run ended in it */
    assert_int_equal(thread_tuner_next(&t), 2);
    thread_tuner_note(&t, 4000000, THREAD_TUNER_MIN_SECONDS / 2);
    assert_int_equal(t.cur, 1);
    assert_int_equal(thread_tuner_next(&t), 2);
}

/* With more cores it climbs while doubling wins, then tries the other way after a loss. */
static void test_it_climbs_and_turns(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 8);
    double rate_at[9] = {0, 1.0e6, 1.8e6, 2.5e6, 2.5e6, 0, 0, 0, 2.0e6}; /* 4 is the best */
    for (unsigned step = 0; step < 200; step++) {
        unsigned k = thread_tuner_next(&t);
        assert_true(k == 1 || k == 2 || k == 4 || k == 8);
        thread_tuner_note(&t, (uint64_t)(rate_at[k] * 0.05), 0.05);
    }
    assert_int_equal(t.cur, 4);
    assert_true(t.switches == 2); /* 1 -> 2 -> 4, and neither 8 nor 2 beat 4 */
    assert_true(t.probes > 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_core_never_tries),
        cmocka_unit_test(test_a_try_is_kept_when_it_wins),
        cmocka_unit_test(test_losing_tries_come_more_rarely),
        cmocka_unit_test(test_short_slices_are_not_compared),
        cmocka_unit_test(test_it_climbs_and_turns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
