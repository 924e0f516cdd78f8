/* --threads auto's choice (runner/thread_tuner.c), fed with slice rates that are given, not measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "thread_tuner.h"

enum { SLICES = 600 };

/* Emulated clocks a slice of 0.05 s does at `threads`, at the i-th slice of the run. */
typedef double (*rate_fn)(unsigned threads, unsigned i);

/* A tuner of up to `max` threads runs n slices from its start with `idle` cores free besides its own threads;
 * counts[i] is the thread count slice i ran at. */
static void run_idle(thread_tuner_t *t, unsigned max, rate_fn rate, unsigned n, unsigned *counts, unsigned idle)
{
    thread_tuner_init(t, max);
    for (unsigned i = 0; i < n; i++) {
        counts[i] = thread_tuner_next(t, idle);
        thread_tuner_note(t, (uint64_t)(rate(counts[i], i) * 0.05), 0.05);
    }
}
static void run(thread_tuner_t *t, unsigned max, rate_fn rate, unsigned n, unsigned *counts)
{
    run_idle(t, max, rate, n, counts, THREAD_TUNER_IDLE_UNKNOWN);
}

/* The slices between the starts of two tries of `count` found from `from` on (SLICES when none). */
static unsigned next_at(const unsigned *counts, unsigned from, unsigned count)
{
    for (unsigned i = from; i < SLICES; i++)
        if (counts[i] == count)
            return i;
    return SLICES;
}

static double two_wins(unsigned k, unsigned i) { return (void)i, k == 2 ? 1.5e6 : 1.0e6; }
static double two_noise(unsigned k, unsigned i) { return (void)i, k == 2 ? 1.04e6 : 1.0e6; }
static double two_loses(unsigned k, unsigned i) { return (void)i, k == 2 ? 0.5e6 : 1.0e6; }
/* From slice 1 on, the run does more clocks a second at any count (a phase of idle clocks skipped). */
static double phase_change(unsigned k, unsigned i) { return (void)k, i < 1 ? 1.0e6 : 1.5e6; }
/* Two threads 4% faster, and the slice after the first try slower at one (the host busy with something else). */
static double noise_then_dip(unsigned k, unsigned i) { return k == 2 ? 1.04e6 : i == 2 ? 0.9e6 : 1.0e6; }
/* Two threads lose until slice 100, then win. */
static double two_wins_later(unsigned k, unsigned i) { return k == 2 && i >= 100 ? 1.5e6 : k == 2 ? 0.5e6 : 1e6; }
/* Two threads win until slice 100, when another program takes a core: then they run a third of one's rate. */
static double two_then_host_busy(unsigned k, unsigned i) { return k == 2 ? (i < 100 ? 1.5e6 : 0.3e6) : 1.0e6; }
/* Of 1, 2, 4 and 8 threads, 4 is the best. */
static double best_at_four(unsigned k, unsigned i)
{
    (void)i;
    return k == 1 ? 1.0e6 : k == 2 ? 1.8e6 : k == 4 ? 2.5e6 : 2.0e6;
}

static void test_one_core_never_tries(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run(&t, 1, two_wins, SLICES, counts);
    for (unsigned i = 0; i < SLICES; i++)
        assert_int_equal(counts[i], 1);
    assert_int_equal(t.probes, 0);
}

/* The first try comes after one measured slice; it is kept only when clearly faster than the slices before and
 * after it, and the first try from the new count comes THREAD_TUNER_EVERY slices after. */
static void test_a_try_is_kept_when_it_wins_on_both_sides(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run(&t, 2, two_wins, SLICES, counts);
    assert_int_equal(counts[0], 1);
    assert_int_equal(counts[1], 2); /* the try */
    assert_int_equal(counts[2], 1); /* the check */
    assert_int_equal(counts[3], 2);
    assert_int_equal(t.cur, 2);
    assert_int_equal(next_at(counts, 3, 1), 3 + THREAD_TUNER_EVERY);

    run(&t, 2, two_noise, SLICES, counts); /* 4% faster: noise */
    assert_int_equal(t.cur, 1);
    assert_int_equal(t.switches, 0);
    assert_true(t.probes > 0);

    run(&t, 2, noise_then_dip, 4, counts); /* faster than the slice after, not clearly than the one before */
    assert_int_equal(counts[1], 2);
    assert_int_equal(t.cur, 1);
    assert_int_equal(t.switches, 0);

    run(&t, 2, phase_change, 4, counts); /* faster than the slice before, not than the one after */
    assert_int_equal(counts[1], 2);
    assert_int_equal(counts[2], 1);
    assert_int_equal(t.cur, 1);
    assert_int_equal(t.probes, 1);
    assert_int_equal(t.switches, 0);
}

/* Tries that lose come half as often each time, up to one in THREAD_TUNER_EVERY_MAX slices; one kept brings the
 * gap back to THREAD_TUNER_EVERY. */
static void test_losing_tries_come_more_rarely(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run(&t, 2, two_loses, SLICES, counts);
    unsigned at = next_at(counts, 0, 2), gap = THREAD_TUNER_EVERY * 2;
    assert_int_equal(at, 1);
    for (unsigned n = 0; n < 6; n++) {
        unsigned next = next_at(counts, at + 1, 2);
        assert_int_equal(next - at - 1, gap);
        at = next;
        if (gap < THREAD_TUNER_EVERY_MAX)
            gap *= 2;
    }
    assert_int_equal(t.cur, 1);

    run(&t, 2, two_wins_later, SLICES, counts);
    assert_int_equal(t.cur, 2);
    assert_int_equal(t.switches, 1);
    unsigned kept = next_at(counts, 100, 2); /* the try that won, its check after it */
    assert_int_equal(counts[kept + 1], 1);
    assert_int_equal(next_at(counts, kept + 2, 1), kept + 2 + THREAD_TUNER_EVERY);
}

/* Slices too short to time say nothing: no try is made on them, and a try cut short is made again. */
static void test_short_slices_are_not_compared(void **state)
{
    (void)state;
    thread_tuner_t t;
    thread_tuner_init(&t, 4);
    for (unsigned i = 0; i < 50; i++) {
        assert_int_equal(thread_tuner_next(&t, THREAD_TUNER_IDLE_UNKNOWN), 1);
        thread_tuner_note(&t, 1000, 0.001);
    }
    thread_tuner_note(&t, 1000000, 0.05);
    assert_int_equal(thread_tuner_next(&t, THREAD_TUNER_IDLE_UNKNOWN), 2);
    thread_tuner_skip(&t); /* the run ended in it */
    assert_int_equal(thread_tuner_next(&t, THREAD_TUNER_IDLE_UNKNOWN), 2);
    thread_tuner_note(&t, 4000000, THREAD_TUNER_MIN_SECONDS / 2);
    assert_int_equal(t.cur, 1);
    assert_int_equal(thread_tuner_next(&t, THREAD_TUNER_IDLE_UNKNOWN), 2);
}

/* With more cores it climbs while doubling wins, then tries both ways from the best: down after up lost. */
static void test_it_climbs_and_turns(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run(&t, 8, best_at_four, SLICES, counts);
    assert_int_equal(t.cur, 4);
    assert_int_equal(t.switches, 2); /* 1 -> 2 -> 4 */
    unsigned eight = next_at(counts, 0, 8);
    assert_true(eight < SLICES);
    assert_true(next_at(counts, eight + 1, 2) < SLICES); /* then the other way */
    for (unsigned i = 0; i < SLICES; i++)
        assert_true(counts[i] == 1 || counts[i] == 2 || counts[i] == 4 || counts[i] == 8);
}

/* A count kept turns bad (the host got busy): the first slice clearly slower than the count before the switch ran
 * goes back to it, without waiting for a try; tries of more threads then come more rarely. */
static void test_a_count_turned_bad_goes_back_at_once(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run(&t, 2, two_then_host_busy, SLICES, counts);
    assert_int_equal(counts[99], 2);
    assert_int_equal(counts[100], 2); /* the slow slice that tells */
    assert_int_equal(counts[101], 1);
    assert_int_equal(t.fallbacks, 1);
    assert_int_equal(t.cur, 1);
    unsigned later = next_at(counts, 101, 2);
    assert_true(later - 101 > THREAD_TUNER_EVERY); /* as after a lost try */
    for (unsigned i = 101; i < SLICES; i++) /* a try now and then, never more than it and its check */
        if (counts[i] == 2)
            assert_int_equal(counts[i + 1], 1);

    run(&t, 2, two_wins, SLICES, counts); /* a count that stays good is never left */
    assert_int_equal(t.fallbacks, 0);
    assert_int_equal(t.cur, 2);
}

/* With no core idle for more threads, none is tried, however much they would win; with one idle, they are. */
static void test_no_try_of_more_threads_without_an_idle_core(void **state)
{
    (void)state;
    thread_tuner_t t;
    unsigned counts[SLICES];
    run_idle(&t, 2, two_wins, SLICES, counts, 0);
    for (unsigned i = 0; i < SLICES; i++)
        assert_int_equal(counts[i], 1);
    assert_int_equal(t.probes, 0);
    assert_true(t.skipped > 0);

    run_idle(&t, 2, two_wins, SLICES, counts, 1);
    assert_int_equal(t.cur, 2);
    assert_int_equal(t.skipped, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_core_never_tries),
        cmocka_unit_test(test_a_try_is_kept_when_it_wins_on_both_sides),
        cmocka_unit_test(test_losing_tries_come_more_rarely),
        cmocka_unit_test(test_short_slices_are_not_compared),
        cmocka_unit_test(test_it_climbs_and_turns),
        cmocka_unit_test(test_a_count_turned_bad_goes_back_at_once),
        cmocka_unit_test(test_no_try_of_more_threads_without_an_idle_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
