/* The basic transfers of the copy-transfer model on the emulated iWarp (programs/copy/basic.s through
 * copy_measure): every transfer moves every word to its place and touches no guard word; the steady rates
 * are the machine's arithmetic (docs/copy.md: clocks per word from the memory accesses a word needs, 2
 * clocks per word per link, the link shared by k pathways); a few exact clock goldens; what the machine
 * cannot do is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "copy_measure.h"
#include "e2e.h"

static copy_bench_case_t bench_case(const char *name, bool plain, unsigned words)
{
    copy_bench_case_t c = {.plain = plain, .words = words};
    if (!copy_transfer_parse(name, strlen(name), &c.t))
        fail_msg("%s is not a transfer", name);
    return c;
}

static copy_run_t run(const char *name, bool plain, unsigned words)
{
    copy_bench_case_t c = bench_case(name, plain, words);
    copy_run_t r;
    char err[1024];
    if (copy_measure_run(&c, &r, err, sizeof err) != 0)
        fail_msg("%s: %s", name, err);
    return r;
}

static void test_every_transfer_moves_every_word_and_no_guard(void **state)
{
    (void)state;
    static const char *const names[] = {"1C1", "1C7", "5C1", "3C9", "1C!", "!C1", "!C!", "0C1", "1C0", "1S0", "13S0", "!S0",
                                        "1F0", "6F0", "0R1", "0R11", "0R!", "0D1", "0D3", "0D!", "Nd@1", "Nd@2",
                                        "Nd@3", "Nd@4", "Nadp@1", "Nadp@4"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (unsigned plain = 0; plain < 2; plain++) {
            if (plain && names[i][strlen(names[i]) - 2] != 'S')
                continue;
            for (unsigned words = 2; words <= 130; words += 64) {
                copy_run_t r = run(names[i], plain, words);
                if (r.wrong != 0)
                    fail_msg("%s%s, %u words: %llu words wrong", names[i], plain ? " plain" : "", words,
                             (unsigned long long)r.wrong);
            }
        }
}

/* Clocks a word in the steady state: from runs of N and 2N words. */
static double rate(const char *name, bool plain)
{
    copy_bench_case_t c = bench_case(name, plain, 64);
    copy_throughput_t t;
    char err[1024];
    if (copy_measure(&c, &t, err, sizeof err) != 0)
        fail_msg("%s: %s", name, err);
    return t.clocks_per_word;
}

static void test_steady_rates_are_the_machines_arithmetic(void **state)
{
    (void)state;
    /* A bundle with memory operations takes 2 clocks and the memory one access a clock: 2 accesses a word
     * (load and store, or load and gate) in one bundle, 3 in 1.5 bundles, 4 in 2. */
    assert_true(rate("1C1", false) == 2.0);
    assert_true(rate("64C64", false) == 2.0);
    /* An indexed store needs its word and its address loaded in the two bundles before: a bypass stall a pair
     * (docs/isa.md, "Bypass stalls"). */
    assert_true(rate("1C!", false) == 3.5);
    assert_true(rate("!C1", false) == 3.0);
    assert_true(rate("!C!", false) == 4.0);
    /* Stores alone, loads alone: two a bundle, a word a clock (the bound of a resource constraint). */
    assert_true(rate("0C1", false) == 1.0);
    assert_true(rate("1C0", false) == 1.0);
    assert_true(rate("!S0", false) == 2.0);
    assert_true(rate("0R!", false) == 2.0);
    /* Plain code: ldw (2) + add (1) + loop (1); indexed, the index load (2) more, and a bypass stall: the word's
     * load reads the index loaded by the instruction before. */
    assert_true(rate("1S0", true) == 4.0);
    assert_true(rate("!S0", true) == 7.0);
    /* A spool moves a word a clock; the link takes one every 2 clocks and k pathways share it; pairs carry
     * two words for each data word. */
    assert_true(rate("1F0", false) == 2.0);
    assert_true(rate("0D64", false) == 2.0);
    for (unsigned k = 1; k <= 4; k++) {
        char nd[16], nadp[16];
        snprintf(nd, sizeof nd, "Nd@%u", k);
        snprintf(nadp, sizeof nadp, "Nadp@%u", k);
        assert_true(rate(nd, false) == 2.0 * k);
        assert_true(rate(nadp, false) == 4.0 * k);
    }
    assert_true(rate("0D!", false) == 4.0);
}

static void test_clock_goldens(void **state)
{
    (void)state;
    static const char *const names[] = {"1C1", "!C!", "!S0", "0R!", "0D!", "Nd@2"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "programs/copy/basic.s#%s-64", names[i]);
        e2e_check_golden(name, run(names[i], false, 64).clocks);
    }
}

static void expect_refused(const char *name, unsigned words, const char *want)
{
    copy_bench_case_t c = bench_case(name, false, words);
    copy_run_t r;
    char err[1024];
    assert_int_not_equal(copy_measure_run(&c, &r, err, sizeof err), 0);
    assert_string_equal(err, want);
}

static void test_what_the_machine_cannot_do_is_refused(void **state)
{
    (void)state;
    expect_refused("!F0", 64, "a spool fetches with a constant stride only: no !F0 on iWarp");
    expect_refused("1C1", 63, "N must be even, from 2 to 16384 words");
    expect_refused("Nd@5", 64, "the congestion must be 1 to 4 pathways on one link");
    expect_refused("1C4096", 1024, "N x stride spans more memory than the program's layout has (1.4 MB a side)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_transfer_moves_every_word_and_no_guard),
        cmocka_unit_test(test_steady_rates_are_the_machines_arithmetic),
        cmocka_unit_test(test_clock_goldens),
        cmocka_unit_test(test_what_the_machine_cannot_do_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
