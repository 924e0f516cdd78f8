/* A run cut into slices (emu_array_run to one limit after another, as `iwarp run` does for its progress line and
 * Ctrl-C, and 1 to 3 host threads) ends exactly as the run in one piece: status, cycles, clock and the state
 * hash with memory and every statistic. So does a run watched by hooks, in which every cell is stepped at every
 * clock it would be without them (no agent sleeps stuck, no CA runs ahead of the array's clock). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "e2e.h"
#include "iwarp_config.h"

typedef struct outcome {
    emu_run_status_t status;
    uint64_t cycles, clock, hash, stuck, ahead, diverted;
} outcome_t;

static bool no_stop(void *user, emu_array_t *a, uint64_t clock)
{
    (void)user;
    (void)a;
    (void)clock;
    return false;
}

static void build(const char *run_file, emu_array_t **a, run_desc_t *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", IWARP_SOURCE_ROOT, run_file);
    emu_machine_t m;
    emu_machine_defaults(&m);
    assert_int_equal(run_desc_parse_file(path, &m, d, stderr), 0);
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(d, none, 0, none, 0, a), 0);
    emu_array_set_output(*a, NULL, NULL);
}

/* How the run ended, then the array and its description freed. */
static outcome_t finish(emu_array_t *a, run_desc_t *d, emu_run_status_t status)
{
    outcome_t o = {.status = status,
                   .cycles = emu_array_cycles(a),
                   .clock = emu_array_clock(a),
                   .hash = emu_array_hash(a, true, true),
                   .stuck = emu_array_stuck_clocks(a),
                   .ahead = emu_array_ahead_bundles(a),
                   .diverted = emu_array_ahead_diverted(a)};
    emu_array_free(a);
    run_desc_free(d);
    return o;
}

/* slice 0: in one piece; else slices of pseudo-random lengths up to `slice` clocks. threads 0: a different
 * count for each slice, 1 to 3 (as a bench run takes the cores other runs leave, run_sliced_shared). hooked:
 * with hooks that never stop it. */
static outcome_t run_hooked(const char *run_file, uint64_t slice, unsigned threads, bool hooked)
{
    emu_array_t *a;
    run_desc_t d;
    build(run_file, &a, &d);
    emu_array_set_threads(a, threads > 0 ? threads : 1);
    if (hooked)
        emu_array_set_hooks(a, &(emu_hooks_t){NULL, no_stop, no_stop});
    emu_run_status_t st;
    if (slice == 0) {
        st = emu_array_run(a, d.max_cycles);
    } else {
        uint64_t seed = slice;
        for (;;) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t to = emu_array_clock(a) + 1 + (seed >> 33) % slice;
            if (to > d.max_cycles)
                to = d.max_cycles;
            if (threads == 0)
                emu_array_set_threads(a, 1 + (unsigned)(seed >> 40) % 3);
            st = emu_array_run(a, to);
            if (st != EMU_RUN_LIMIT || to == d.max_cycles)
                break;
        }
    }
    return finish(a, &d, st);
}

static outcome_t run(const char *run_file, uint64_t slice, unsigned threads)
{
    return run_hooked(run_file, slice, threads, false);
}

static void same_as(const char *run_file, const char *how, outcome_t cut, outcome_t whole)
{
    if (cut.status != whole.status || cut.cycles != whole.cycles || cut.clock != whole.clock || cut.hash != whole.hash)
        fail_msg("%s %s: %s after %llu cycles (clock %llu, hash %016llx); in one piece %s, %llu (%llu, %016llx)",
                 run_file, how, emu_run_status_name(cut.status), (unsigned long long)cut.cycles,
                 (unsigned long long)cut.clock, (unsigned long long)cut.hash, emu_run_status_name(whole.status),
                 (unsigned long long)whole.cycles, (unsigned long long)whole.clock, (unsigned long long)whole.hash);
}

/* stuck, ahead: whether agents must sleep stuck, CAs run ahead, in the run (else the comparison with hooks would
 * prove nothing). Returns how the run in one piece ended. */
static outcome_t same_run(const char *run_file, bool stuck, bool ahead)
{
    outcome_t whole = run(run_file, 0, 1);
    outcome_t hooked = run_hooked(run_file, 0, 1, true);
    same_as(run_file, "with hooks", hooked, whole);
    assert_int_equal(hooked.stuck, 0);
    assert_int_equal(hooked.ahead, 0);
    if (stuck && whole.stuck == 0)
        fail_msg("%s: no agent slept stuck", run_file);
    if (ahead && whole.ahead == 0)
        fail_msg("%s: no CA ran ahead", run_file);
    same_as(run_file, "with hooks, in slices of up to 500 clocks", run_hooked(run_file, 500, 1, true), whole);
    /* Short slices on one thread; longer ones on several (a run call on threads starts them: keep it cheap). */
    static const struct {
        uint64_t slice;
        unsigned threads;
    } cuts[] = {{1, 1}, {7, 1}, {300, 3}, {5000, 2}, {3000, 0}};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char how[128];
        snprintf(how, sizeof how, "in slices of up to %llu clocks on %u threads (0: 1 to 3 by slice)",
                 (unsigned long long)cuts[i].slice, cuts[i].threads);
        same_as(run_file, how, run(run_file, cuts[i].slice, cuts[i].threads), whole);
    }
    return whole;
}

static void same(const char *run_file, bool stuck) { (void)same_run(run_file, stuck, false); }

static void test_a_pathway_run_in_slices_is_the_same_run(void **state)
{
    (void)state;
    same("programs/net/pathway.run", false);
}

static void test_message_passing_in_slices_is_the_same_run(void **state)
{
    (void)state;
    same("programs/demos/alltoall.run", false);
}

static void test_a_deadlock_in_slices_is_the_same_deadlock(void **state)
{
    (void)state;
    same("programs/demos/deadlock.run", true);
}

static void test_conset_in_slices_is_the_same_run(void **state)
{
    (void)state;
    same("programs/demos/conset.run", false);
}

/* Headers that wait at a dateline, and worms that block one another: agents stuck for hundreds of clocks. */
static void test_stuck_agents_sleep_to_the_same_run(void **state)
{
    (void)state;
    same("programs/demos/wormhole.run", true);
    same("programs/demos/dateline.run", true);
}

/* Cells that compute between words: their CAs run ahead of the array's clock, each as far as its next word, and
 * the run is the one stepped clock by clock, in slices that end inside those runs too. */
static void test_cas_run_ahead_to_the_same_run(void **state)
{
    (void)state;
    same_run("tests/programs/ahead/ahead.run", false, true);
    same_run("tests/programs/ahead/ahead_endless_window.run", false, true);
    assert_int_equal(run("tests/programs/ahead/ahead_endless_window.run", 0, 1).status, EMU_RUN_DONE);
}

/* CAs that compute with events on, their runs ahead cut short by arrivals they could not foresee and ended by their
 * timer: each takes its event at the clock it would clock by clock. */
static void test_events_divert_cas_that_run_ahead_at_their_clock(void **state)
{
    (void)state;
    /* The hooked run, which it must equal, runs nothing ahead (same_run), so nothing there is cut short. */
    if (same_run("tests/programs/ahead/ahead_events.run", false, true).diverted == 0)
        fail_msg("no arrival came while a CA ran ahead: the test proves nothing");
}

/* A cell faults while the others have run ahead past the clock of the fault, and inside a run ahead of its own:
 * every cell stands at that clock as it would clock by clock, the faulting one with its fault at its clock. */
static void test_a_fault_while_cas_run_ahead_stops_every_cell_at_its_clock(void **state)
{
    (void)state;
    same_run("tests/programs/ahead/ahead_fault.run", false, true);
    outcome_t o = run("tests/programs/ahead/ahead_fault.run", 0, 1);
    assert_int_equal(o.status, EMU_RUN_FAULT);
}

static void stop_on_a_line(void *user, unsigned x, unsigned y, const char *line)
{
    (void)x;
    (void)y;
    (void)line;
    emu_array_request_stop(user);
}

/* Runs to the stop the first console line asks for (or, with stop_at, to that clock, with hooks that never stop
 * it: no CA runs ahead), then closes the books at the clock it stopped at, as a run to that limit would. A stop
 * request is seen as a clock starts, on thread 0 with several: a line written on another thread in the same
 * clock may be seen then or a clock later. */
static outcome_t run_to_stop(const char *run_file, unsigned threads, uint64_t stop_at)
{
    emu_array_t *a;
    run_desc_t d;
    build(run_file, &a, &d);
    emu_array_set_threads(a, threads);
    emu_run_status_t st;
    if (stop_at != 0) {
        emu_array_set_hooks(a, &(emu_hooks_t){NULL, no_stop, no_stop});
        st = emu_array_run(a, stop_at);
    } else {
        emu_array_set_output(a, stop_on_a_line, a);
        st = emu_array_run(a, d.max_cycles);
        emu_array_run(a, emu_array_clock(a));
    }
    return finish(a, &d, st);
}

/* A stop (Ctrl-C) while the others have run ahead past its clock: every cell stands at that clock, as clock by
 * clock, on 1 to 3 threads. */
static void test_a_stop_while_cas_run_ahead_leaves_every_cell_at_its_clock(void **state)
{
    (void)state;
    const char *run_file = "tests/programs/ahead/ahead_stop.run";
    for (unsigned threads = 1; threads <= 3; threads++) {
        outcome_t o = run_to_stop(run_file, threads, 0);
        assert_int_equal(o.status, EMU_RUN_STOPPED);
        assert_true(o.ahead > 0);
        outcome_t hooked = run_to_stop(run_file, 1, o.clock);
        assert_int_equal(hooked.status, EMU_RUN_LIMIT);
        assert_int_equal(hooked.ahead, 0);
        o.status = EMU_RUN_LIMIT;
        same_as(run_file, "stopped", o, hooked);
    }
}

/* The agent of a cell whose CA has run ahead faults (a tagged word that is not a trailer): the CA stands at the
 * clock of the fault, faulted, as clock by clock. */
static void test_a_network_fault_at_a_cell_running_ahead_is_the_same_fault(void **state)
{
    (void)state;
    same_run("tests/programs/ahead/netfault.run", false, true);
    emu_array_t *a;
    run_desc_t d;
    build("tests/programs/ahead/netfault.run", &a, &d);
    assert_int_equal(emu_array_run(a, d.max_cycles), EMU_RUN_FAULT);
    assert_int_equal(emu_array_ca(a, 1, 0)->s.state, CA_FAULTED);
    assert_int_equal(emu_array_ca(a, 1, 0)->s.fault.kind, EMU_FAULT_NETWORK);
    emu_array_free(a);
    run_desc_free(&d);
}

/* The ring stalls cell by cell, each after computing ahead: the deadlock is declared the same window after the
 * last cell's last bundle, which the array must count as progress once it catches up with that cell. */
static void test_a_deadlock_after_cas_ran_ahead_is_the_same_deadlock(void **state)
{
    (void)state;
    same_run("tests/programs/ahead/ahead_deadlock.run", false, true);
    assert_int_equal(run("tests/programs/ahead/ahead_deadlock.run", 0, 1).status, EMU_RUN_DEADLOCK);
}

/* Message passing where cells compute between messages (the LogGP send overlap: a spin loop after each send). */
static void test_message_passing_with_computation_runs_ahead_to_the_same_run(void **state)
{
    (void)state;
    same_run("tests/programs/ahead/ahead_logp.run", false, true);
}

/* Each clock, the reason each channel holding words waits, asked of coa_lc_wait at that clock: what the
 * agents' own books must hold at the end, where the waits that cannot change before an event are counted
 * lazily (frozen: no space, no channel) and the clocks of agents asleep while stuck in one sum. */
typedef struct tally {
    uint64_t waits[COA_WAIT_COUNT];
    uint64_t frozen_seen; /* clocks at which a channel was frozen: the lazy count had work to do */
} tally_t;

static bool count_waits(void *user, emu_array_t *a, uint64_t clock)
{
    tally_t *t = user;
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const coa_t *c = emu_array_coa(a, x, y);
            for (unsigned lc = 0; lc < c->cfg.channels; lc++)
                if (c->lc[lc].count > 0) {
                    t->waits[coa_lc_wait(c, lc, clock)]++;
                    t->frozen_seen += c->frozen_lc >> lc & 1u;
                }
        }
    return false;
}

static void waits_add_up(const char *run_file)
{
    emu_array_t *a;
    run_desc_t d;
    build(run_file, &a, &d);
    tally_t t = {0};
    emu_array_set_hooks(a, &(emu_hooks_t){&t, no_stop, count_waits});
    emu_array_run(a, d.max_cycles);
    uint64_t books[COA_WAIT_COUNT] = {0};
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const coa_t *c = emu_array_coa(a, x, y);
            for (unsigned lc = 0; lc < c->cfg.channels; lc++)
                for (unsigned w = 0; w < COA_WAIT_COUNT; w++)
                    books[w] += c->lc_stats[lc].wait_clocks[w];
        }
    assert_true(t.frozen_seen > 0);
    /* No data is the time a routed channel is empty, counted apart; none is not counted. */
    for (unsigned w = 0; w < COA_WAIT_COUNT; w++)
        if (w != COA_WAIT_NONE && w != COA_WAIT_NO_DATA && books[w] != t.waits[w])
            fail_msg("%s: %s: %llu clocks in the books, %llu counted clock by clock", run_file,
                     coa_wait_name((coa_wait_t)w), (unsigned long long)books[w], (unsigned long long)t.waits[w]);
    assert_true(t.waits[COA_WAIT_NO_SPACE] > 0 && t.waits[COA_WAIT_NO_CHANNEL] > 0);
    emu_array_free(a);
    run_desc_free(&d);
}

static void test_every_clock_of_every_wait_is_counted(void **state)
{
    (void)state;
    waits_add_up("programs/demos/alltoall.run");
    waits_add_up("programs/demos/wormhole.run");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pathway_run_in_slices_is_the_same_run),
        cmocka_unit_test(test_message_passing_in_slices_is_the_same_run),
        cmocka_unit_test(test_a_deadlock_in_slices_is_the_same_deadlock),
        cmocka_unit_test(test_conset_in_slices_is_the_same_run),
        cmocka_unit_test(test_stuck_agents_sleep_to_the_same_run),
        cmocka_unit_test(test_every_clock_of_every_wait_is_counted),
        cmocka_unit_test(test_cas_run_ahead_to_the_same_run),
        cmocka_unit_test(test_events_divert_cas_that_run_ahead_at_their_clock),
        cmocka_unit_test(test_a_fault_while_cas_run_ahead_stops_every_cell_at_its_clock),
        cmocka_unit_test(test_message_passing_with_computation_runs_ahead_to_the_same_run),
        cmocka_unit_test(test_a_deadlock_after_cas_ran_ahead_is_the_same_deadlock),
        cmocka_unit_test(test_a_stop_while_cas_run_ahead_leaves_every_cell_at_its_clock),
        cmocka_unit_test(test_a_network_fault_at_a_cell_running_ahead_is_the_same_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
