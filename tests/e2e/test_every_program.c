/* Every program in programs/ gives the same run however the host gets there: on 1, 2 and 3 threads, and in
 * the debugger stopped at a breakpoint and at a clock on the way; the same report (clocks, every statistic)
 * and the same state hash (registers, memory, queues, statistics). The emulator's speed work (cells that
 * sleep, threads) is held to this. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"

static const char *iwarp;

typedef struct program_case {
    const char *what;  /* a run description, or a program and its options */
    const char *brk;   /* a label the debugger stops at on the way */
} program_case_t;

static const program_case_t cases[] = {
    {"programs/demos/alltoall.run", "received"},
    {"programs/demos/conset.run", "conset_transfer"},
    {"programs/demos/dateline.run", "send"},
    {"programs/demos/deadlock.run", "_start"},
    {"programs/demos/roundrobin.run", "receiver"},
    {"programs/demos/spooling.run", "_start"},
    {"programs/demos/wormhole.run", "_start"},
    {"programs/net/msg_random.s --array 8x8 --args 4,128", "msg_receive"},
    {"programs/net/msg_random.run", "msg_isend"},
    {"programs/net/neighbours.run", "_start"},
    {"programs/net/pathway.run", "_start"},
    {"programs/patterns/conset_alltoall.run", "conset_transfer"},
    {"programs/patterns/conset_butterfly.run", "conset_transfer"},
    {"programs/patterns/conset_torus.run", "sync_barrier"},
    {"programs/patterns/msgpass.s --array 4x4 --args 64,0,1", "msg_wait"},
    {"programs/patterns/msgpass.s --array 4x4 --args 32,2,1", "msg_wait"},
    {"programs/patterns/torus_msg.s --array 4x4 --args 64", "msg_event"},
    {"programs/logp/logp.s --array 4x4 --args 1,64,8,2,0,1", "msg_isend"},
    {"programs/logp/logp.s --array 4x4 --args 3,16,8,2,40,5", "msg_receive"},
    {"programs/bench/compute.s --args 40", "outer"},
    {"programs/caching/caching.s --array 2x1 --args 1,64,4 -D NG=3", "deposit"},
    {"programs/hpf/assign.s --array 4x2 --args 1,1,2,1 -D N0=40 -D N1=30 -D T=4 -D SP0=1 -D SK0=40 -D SP1=4 "
     "-D SK1=8 -D DP0=4 -D DK0=1 -D DP1=1 -D DK1=30", "dep_receive"},
    {"programs/hpf/assign.s --array 4x2 --args 0,0,2,1 -D N0=33 -D N1=17 -D T=4 -D SP0=2 -D SK0=3 -D SP1=2 "
     "-D SK1=2 -D DP0=1 -D DK0=33 -D DP1=4 -D DK1=5", "hpf_emit"},
    {"programs/bench/one_active.s --array 4x4 --args 40,30000", "sleeper"},
    {"programs/bench/one_active.s --array 4x4 --args 40,3000", "sleeper"},
    /* a lone cell running ahead (emu_cell_run_alone) against the deadlock window: ends in a deadlock at clock 6,
     * and runs to the end with a window shorter than the sleepers' timer */
    {"programs/bench/one_active.s --array 4x4 --set deadlock_clocks=2 --args 40,3000", "_start"},
    {"programs/bench/one_active.s --array 3x2 --set deadlock_clocks=200 --args 60,5000", "sleeper"},
    {"programs/bench/stream.s --array 4x4 --args 600", "_start"},
    {"programs/bench/stream.s --array 3x5 --args 100", "_start"},
    /* the copy-transfer programs on memory as loaded (the bench lays it out; these move its zeros) */
    {"programs/copy/basic.s --array 2x1 --set mem_bytes=4M --args 9,64,4,256", "packing_receive"},
    {"programs/copy/basic.s --array 2x1 --set mem_bytes=4M --args 7,64,4,4", "spools_send"},
    /* the collectives from their arguments, on every row (the host's layout is not needed to run them) */
    {"programs/coll/coll_msg.s --array 4x2 --set mem_bytes=8M --args 2,1,3,10,12,7,1", "k_gate_add"},
    {"programs/coll/coll_msg.s --array 3x2 --set mem_bytes=8M --args 5,1,2,6,30,4,0", "coll_take"},
    {"programs/coll/coll_msg.s --array 4x1 --set mem_bytes=8M --args 7,0,2,6,30,1,0", "k_add_buf"},
    {"programs/coll/row_sum.s --array 4x2 --set mem_bytes=8M --args 1,7", "coll_bcast"},
};

/* The report without the one line that depends on the host, and without a ConSet run's phase account, which
 * watches every clock through a hook and so keeps the run on one thread. */
static char *report(const char *what, unsigned threads)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "'%s' run %s --threads %u --no-phases --json 2>/dev/null", iwarp, what, threads);
    (void)command_run(cmd, &out);
    char *line = strstr(out, "\"host_seconds\"");
    if (line != NULL) {
        char *end = strchr(line, '\n');
        memmove(line, end != NULL ? end + 1 : line + strlen(line), strlen(end != NULL ? end + 1 : line) + 1);
    }
    return out;
}

/* The state hash at the end of the run: the last line of --state-hash-at. */
static void end_hash(const char *what, unsigned threads, char *hash, size_t cap)
{
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "'%s' run %s --threads %u --state-hash-at 4000000000 2>/dev/null | tail -n 1", iwarp,
             what, threads);
    (void)command_run(cmd, &out);
    snprintf(hash, cap, "%.*s", (int)strcspn(out, "\n"), out);
    free(out);
    if (strlen(hash) != 16)
        fail_msg("%s: no state hash on %u threads", what, threads);
}

static void test_threads_change_nothing(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *one = report(cases[i].what, 1);
        if (strstr(one, "\"cycles\"") == NULL)
            fail_msg("%s: no report:\n%s", cases[i].what, one);
        char h1[64];
        end_hash(cases[i].what, 1, h1, sizeof h1);
        for (unsigned t = 2; t <= 3; t++) {
            char *other = report(cases[i].what, t);
            if (strcmp(one, other) != 0)
                fail_msg("%s: the report on %u threads differs from one thread's", cases[i].what, t);
            free(other);
            char ht[64];
            end_hash(cases[i].what, t, ht, sizeof ht);
            if (strcmp(h1, ht) != 0)
                fail_msg("%s: state hash %s on one thread, %s on %u", cases[i].what, h1, ht, t);
        }
        free(one);
    }
}

/* A machine with the agent's default keys runs the block step and the cells' ports compiled with them fixed
 * (emu/threads.c, emu_cell_port_ops), any other machine the ones that read them: the same code, so the same run.
 * Nine spools instead of eight changes nothing these programs see (none uses the ninth), so that machine's report,
 * from the code that reads the keys, is the default machine's; a hop latency of 3 instead of 2 takes the same code
 * and still changes the run. */
static void test_the_default_keys_step_changes_nothing(void **state)
{
    (void)state;
    char what[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *fixed = report(cases[i].what, 1);
        snprintf(what, sizeof what, "%s --set spools=9", cases[i].what);
        char *read = report(what, 1);
        if (strcmp(fixed, read) != 0)
            fail_msg("%s: the report with the default keys differs from the one with 9 spools", cases[i].what);
        free(read);
        if (strstr(cases[i].what, "stream.s") != NULL) {
            snprintf(what, sizeof what, "%s --set hop_latency=3", cases[i].what);
            char *later = report(what, 1);
            if (strstr(later, "\"cycles\"") == NULL || strcmp(fixed, later) == 0)
                fail_msg("%s: hop latency 3 gives no report, or the default machine's:\n%s", cases[i].what, later);
            free(later);
        }
        free(fixed);
    }
}

/* In the debugger every clock runs with its hooks: a breakpoint, a stop at a clock and a resumed run end in the
 * state the plain run ends in. */
static void test_the_debugger_changes_nothing(void **state)
{
    (void)state;
    char script[64];
    snprintf(script, sizeof script, "/tmp/iwarp-every-%d.dbg", (int)getpid());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char h1[64];
        end_hash(cases[i].what, 1, h1, sizeof h1);
        FILE *f = fopen(script, "w");
        assert_non_null(f);
        fprintf(f, "break %s\ncontinue\ndelete\ncontinue 700\ncontinue\nhash\n", cases[i].brk);
        assert_int_equal(fclose(f), 0);
        char cmd[1024], *out;
        snprintf(cmd, sizeof cmd, "'%s' debug -x %s %s 2>&1", iwarp, script, cases[i].what);
        (void)command_run(cmd, &out);
        if (strstr(out, "breakpoint 1 hit") == NULL)
            fail_msg("%s: the breakpoint at %s was not hit:\n%s", cases[i].what, cases[i].brk, out);
        if (strstr(out, h1) == NULL)
            fail_msg("%s: the debugger's run does not end with state hash %s:\n%s", cases[i].what, h1, out);
        free(out);
    }
    unlink(script);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_every_program IWARP\n");
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_change_nothing),
        cmocka_unit_test(test_the_debugger_changes_nothing),
        cmocka_unit_test(test_the_default_keys_step_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
