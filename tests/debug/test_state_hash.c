/* Debugging never changes results: a session that stops at breakpoints, watchpoints and catchpoints, steps,
 * steps back and travels in time prints, at every clock, the hash an uninterrupted batch run prints there
 * (`iwarp run --state-hash-at N`, trace/state_hash.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dbg_test.h"

typedef struct target {
    const char *rel;
    unsigned w, h;
    uint32_t args[2];
    unsigned nargs;
} target_t;

/* The console's hash at this clock must be the batch run's. */
static void check_hash(dbg_t *d, const target_t *t)
{
    const char *out = dt_do(d, "hash");
    unsigned long long clock, hash;
    assert_int_equal(sscanf(out, "clock %llu hash %llx", &clock, &hash), 2);
    uint64_t want = dt_batch_hash(t->rel, t->w, t->h, t->args, t->nargs, clock);
    if (want != hash)
        fail_msg("at clock %llu the console's hash is %016llx, the batch run's %016llx", clock, hash,
                 (unsigned long long)want);
}

static void run_commands(dbg_t *d, const target_t *t, const char *const *cmds)
{
    for (; *cmds != NULL; cmds++) {
        dt_do(d, *cmds);
        check_hash(d, t);
    }
}

static void test_pathway_stopped_everywhere_hashes_as_the_batch_run(void **state)
{
    (void)state;
    static const target_t t = {"programs/net/pathway.run", 0, 0, {0}, 0};
    dbg_t *d = dt_open(t.rel, 0, 0, NULL, 0);
    static const char *const cmds[] = {
        "break destination",
        "continue", /* a breakpoint: the hook stopped the array before a clock */
        "step 3",
        "watch stall gi0 20 @5,3", /* stopped with a gate wait open: its clocks are not in the statistics yet */
        "continue",
        "catch open",
        "continue",
        "delete",
        "watch channel 8 >= 8 @1,0",
        "continue",
        "reverse-step",
        "reverse-step 7 clocks",
        "reverse-continue",
        "continue 333", /* a clock limit */
        "step 5 clocks",
        "goto 1234",
        "goto 77",
        "goto 15001", /* past the session's furthest clock */
        "reverse-step 3",
        "delete",
        "catch close",
        "continue",
        "continue", /* to the end */
        NULL,
    };
    run_commands(d, &t, cmds);
    assert_true(d->ended);
    dt_close(d);
}

static void test_neighbours_with_spools_hash_as_the_batch_run(void **state)
{
    (void)state;
    static const target_t t = {"programs/net/neighbours.run", 0, 0, {0}, 0};
    dbg_t *d = dt_open(t.rel, 0, 0, NULL, 0);
    static const char *const cmds[] = {
        "set snapshot-interval 700", /* many ring snapshots, and a ring that thins out */
        "set snapshot-keep 4",
        "catch open @1,1",
        "continue",
        "continue",
        "catch close @1,1",
        "continue",
        "delete",
        "continue 3000",
        "reverse-step 2",
        "goto 10",
        "continue",
        NULL,
    };
    run_commands(d, &t, cmds);
    dt_close(d);
}

static void test_calls_with_next_and_finish_hash_as_the_batch_run(void **state)
{
    (void)state;
    static const target_t t = {"tests/debug/programs/calls.s", 1, 1, {0}, 0};
    dbg_t *d = dt_open(t.rel, 1, 1, NULL, 0);
    static const char *const cmds[] = {
        "break leaf", "continue",         "finish", "next",     "next", "watch [counter]",
        "continue",   "reverse-continue", "rs 2",   "continue", NULL,
    };
    run_commands(d, &t, cmds);
    dt_close(d);
}

static void test_message_passing_with_events_hashes_as_the_batch_run(void **state)
{
    (void)state;
    static const target_t t = {"programs/patterns/torus_msg.s", 4, 4, {64}, 1};
    dbg_t *d = dt_open(t.rel, t.w, t.h, t.args, t.nargs);
    static const char *const cmds[] = {
        "catch send @0,0",  "continue",     "watch stall wfe 3 @all", /* the runtime sleeps in wfe while it waits */
        "continue",         "delete",       "catch receive @1,0",     "continue",  "continue",
        "reverse-continue", "reverse-step", "step 40 clocks",         "goto 9000", "delete",
        "continue",         NULL,
    };
    run_commands(d, &t, cmds);
    assert_true(d->ended);
    dt_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pathway_stopped_everywhere_hashes_as_the_batch_run),
        cmocka_unit_test(test_neighbours_with_spools_hash_as_the_batch_run),
        cmocka_unit_test(test_calls_with_next_and_finish_hash_as_the_batch_run),
        cmocka_unit_test(test_message_passing_with_events_hashes_as_the_batch_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
