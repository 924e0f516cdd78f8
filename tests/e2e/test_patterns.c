/* The basic patterns of seed 004 move every word where it should go under both models (message passing,
 * and ConSet with the communication compiler's tables): the programs check every word received (checking
 * mode) and trap on the first wrong one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h> /* mkdtemp */
#include <string.h>
#include <unistd.h>

#include "celldata.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_tables.h"
#include "e2e.h"
#include "iwarp_config.h"
#include "run_desc.h"

enum { CONSET_TABLES = 0x70000 };

/* The user's way: `iwarp route --pattern ... -o tables.cdat`, then a run description with a celldata line;
 * conset_pattern.s in checking mode traps on the first wrong word. Returns the timed clocks of cell (0,0)
 * and the phases through *phases. */
static uint32_t run_conset_on(const char *machine, pattern_kind_t kind, unsigned w, unsigned h, uint32_t words,
                              unsigned capacity, bool check, bool links, unsigned *phases)
{
    char err[256];
    cset_t set;
    route_options_t o;
    route_plan_t plan;
    celldata_t tables;
    if (pattern_generate(&set, kind, w, h, words, capacity, err, sizeof err) != 0)
        fail_msg("%s", err);
    route_options_init(&o);
    o.link_aware = links;
    if (route_compile(&set, &o, &plan, err, sizeof err) != 0 || route_tables(&plan, &tables, err, sizeof err) != 0)
        fail_msg("%s", err);
    *phases = plan.nphases;
    char dir[] = "/tmp/iwarp-conset-XXXXXX", cdat[1100], run[1100];
    assert_non_null(mkdtemp(dir));
    snprintf(cdat, sizeof cdat, "%s/tables.cdat", dir);
    snprintf(run, sizeof run, "%s/pattern.run", dir);
    if (celldata_write(&tables, cdat, err, sizeof err) != 0)
        fail_msg("%s", err);
    FILE *f = fopen(run, "w");
    assert_non_null(f);
    fprintf(f,
            "array %ux%u\n%s\nprogram p %s/programs/patterns/conset_pattern.s\ncells all p %u %u\n"
            "celldata tables.cdat at 0x%x\n",
            w, h, machine, IWARP_SOURCE_ROOT, words, check ? 1u : 0u, CONSET_TABLES);
    fclose(f);
    e2e_run_t r;
    e2e_run_path(&r, run);
    unlink(cdat);
    unlink(run);
    rmdir(dir);
    e2e_assert_done(&r);
    uint32_t clocks = e2e_a0(&r, 0, 0);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            assert_true(e2e_a0(&r, x, y) > 0);
    e2e_free(&r);
    celldata_free(&tables);
    route_plan_free(&plan);
    cset_free(&set);
    return clocks;
}

static uint32_t run_conset_with(pattern_kind_t kind, unsigned w, unsigned h, uint32_t words, unsigned capacity,
                                bool check, bool links, unsigned *phases)
{
    return run_conset_on("", kind, w, h, words, capacity, check, links, phases);
}

static uint32_t run_conset(pattern_kind_t kind, unsigned w, unsigned h, uint32_t words, unsigned capacity, bool check,
                           unsigned *phases)
{
    return run_conset_with(kind, w, h, words, capacity, check, false, phases);
}

static void test_conset_torus_delivers(void **state)
{
    (void)state;
    unsigned phases;
    run_conset(PATTERN_TORUS, 8, 8, 40, 12, true, &phases); /* more words than a queue holds */
    assert_int_equal(phases, 1);
    run_conset(PATTERN_TORUS, 3, 2, 17, 12, true, &phases);
    run_conset(PATTERN_TORUS, 1, 1, 5, 12, true, &phases); /* a cell alone: nothing to send */
}

static void test_conset_butterfly_delivers(void **state)
{
    (void)state;
    unsigned phases;
    run_conset(PATTERN_BUTTERFLY, 8, 8, 24, 12, true, &phases);
    assert_int_equal(phases, 2);
    run_conset(PATTERN_BUTTERFLY, 8, 8, 24, 16, true, &phases); /* six receives in its one phase */
    assert_int_equal(phases, 1);
    run_conset(PATTERN_BUTTERFLY, 4, 2, 9, 12, true, &phases);
}

static void test_conset_all_to_all_delivers(void **state)
{
    (void)state;
    unsigned phases;
    run_conset(PATTERN_ALLTOALL, 8, 8, 12, 12, true, &phases);
    assert_true(phases > 20);
    run_conset(PATTERN_ALLTOALL, 3, 3, 30, 4, true, &phases);
    assert_true(phases > 1);
}

/* Tables of `iwarp route --links`: the cells keep to the schedule's clock. */
static void test_conset_with_links_delivers(void **state)
{
    (void)state;
    unsigned phases;
    run_conset_with(PATTERN_BUTTERFLY, 8, 8, 24, 12, true, true, &phases);
    run_conset_with(PATTERN_ALLTOALL, 8, 8, 12, 12, true, true, &phases);
    run_conset_with(PATTERN_TORUS, 5, 3, 20, 12, true, true, &phases);
}

/* On 16x16 the plain barrier's release reaches the two ends of its ring 500 clocks apart: a cell that left
 * early would send into a neighbour still forwarding the last phase's way (words lost, a credit error).
 * The switch's aligned barrier makes the phases safe on any size. */
static void test_conset_phases_switch_safely_on_16x16(void **state)
{
    (void)state;
    unsigned phases;
    run_conset(PATTERN_BUTTERFLY, 16, 16, 24, 12, true, &phases);
    assert_true(phases > 1);
}

/* Every cell leaves sync_barrier_aligned in the same clock, give or take the 2 of its waiting loop, on both
 * kinds of ring (one snake, rows and column 0) and whatever the links' latency and rate: the release's bound
 * comes from the machine (a bound too short traps TRAP_SYNC_LATE, which fails e2e_assert_done). */
static void test_aligned_barrier_releases_every_cell_together(void **state)
{
    (void)state;
    static const char *const arrays[] = {"1x1", "2x1", "3x3", "5x7", "8x8", "4x6", "16x16", "31x31", "32x32"};
    static const char *const machines[] = {
        "",
        "set hop_latency = 1",
        "set hop_latency = 3",
        "set hop_latency = 4",
        "set hop_latency = 8",
        "set hop_latency = 63",
        "set link_clocks = 1",
        "set link_clocks = 64",
        "set hop_latency = 63\nset link_clocks = 64",
    };
    char options[512];
    for (unsigned m = 0; m < sizeof machines / sizeof machines[0]; m++)
        for (unsigned i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
            snprintf(options, sizeof options, "array %s\n%s\ninclude %s/runtime", arrays[i], machines[m],
                     IWARP_SOURCE_ROOT);
            e2e_run_t r;
            e2e_run_source(&r,
                           "        .include \"sync.s\"\n"
                           "_start: call sync_init\n"
                           "        call sync_barrier\n"
                           "        call sync_barrier_aligned\n"
                           "        rdcr a0, [CR_CLOCK_LO]\n"
                           "        halt\n",
                           options);
            e2e_assert_done(&r);
            unsigned w = emu_array_width(r.array), h = emu_array_height(r.array);
            uint32_t lo = UINT32_MAX, hi = 0;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    uint32_t t = e2e_a0(&r, x, y);
                    lo = t < lo ? t : lo;
                    hi = t > hi ? t : hi;
                }
            if (hi - lo > 2)
                fail_msg("%s, %s: cells left between clocks %u and %u", arrays[i], machines[m], lo, hi);
            e2e_free(&r);
        }
}

/* Every phase switch is an aligned barrier: with a hop latency above the 3 clocks a hop sync.s once assumed
 * (and up to the machine's 63), every pattern still switches its phases in step and delivers every word. */
static void test_conset_switches_phases_on_any_hop_latency(void **state)
{
    (void)state;
    static const char *const machines[] = {"set hop_latency = 4", "set hop_latency = 8", "set hop_latency = 63"};
    for (unsigned m = 0; m < sizeof machines / sizeof machines[0]; m++) {
        unsigned phases;
        run_conset_on(machines[m], PATTERN_TORUS, 8, 8, 24, 12, true, false, &phases);
        run_conset_on(machines[m], PATTERN_BUTTERFLY, 8, 8, 24, 12, true, false, &phases);
        assert_int_equal(phases, 2);
        run_conset_on(machines[m], PATTERN_ALLTOALL, 5, 3, 12, 12, true, false, &phases);
        assert_true(phases > 2);
    }
}

/* The run descriptions of programs/patterns: a `route` line compiles the connection set when the run is
 * built. */
static void test_conset_run_descriptions_deliver(void **state)
{
    (void)state;
    static const char *const runs[] = {"programs/patterns/conset_torus.run", "programs/patterns/conset_butterfly.run",
                                       "programs/patterns/conset_alltoall.run"};
    for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        e2e_run_t r;
        e2e_run_file(&r, runs[i]);
        e2e_assert_done(&r);
        assert_true(e2e_a0(&r, 7, 7) > 256u * 2);
        e2e_free(&r);
    }
}

/* Runs conset_pattern.s (K words, checking) on the tables of the connection set SET, on a machine whose
 * channel queues hold QUEUE_DEPTH words: a run description with a `route` line, as a user writes it. */
static void run_cset_text(e2e_run_t *r, const char *set, unsigned w, unsigned h, unsigned k, unsigned queue_depth)
{
    char dir[] = "/tmp/iwarp-cset-XXXXXX", cset[1100], run[1100];
    assert_non_null(mkdtemp(dir));
    snprintf(cset, sizeof cset, "%s/set.cset", dir);
    snprintf(run, sizeof run, "%s/set.run", dir);
    e2e_write_text(cset, set);
    char text[2048];
    snprintf(text, sizeof text,
             "array %ux%u\nset queue_depth = %u\nprogram p %s/programs/patterns/conset_pattern.s\n"
             "cells all p %u 1\nroute set.cset at 0x%x\n",
             w, h, queue_depth, IWARP_SOURCE_ROOT, k, CONSET_TABLES);
    e2e_write_text(run, text);
    e2e_run_path(r, run);
    unlink(cset);
    unlink(run);
    rmdir(dir);
}

/* Not only the uniform patterns: connections from a cell to itself, words from 1 to 50, an `after`, two
 * tasks, on every queue depth from 1 to 8. A send that runs ahead of its receive further than its own
 * queue holds deadlocks in a circle; one to itself shares that queue with its receive. */
static void test_conset_mixed_sets_deliver_at_every_queue_depth(void **state)
{
    (void)state;
    static const char set[] = "array 3x2\n"
                              "task a\n"
                              "conn self0 0,0 0,0 40\nconn self1 1,0 1,0 9\n"
                              "conn x 0,0 2,1 33\nconn y 2,1 0,0 20\nconn z 1,0 0,1 17\nconn w 0,1 1,0 50\n"
                              "conn v 1,1 1,1 1 after x\n"
                              "task b\n"
                              "conn p 2,0 0,1 12\nconn q 0,1 2,0 12\nconn r 1,1 2,1 3\nconn s 2,1 2,1 25\n";
    for (unsigned depth = 1; depth <= 8; depth++) {
        e2e_run_t r;
        run_cset_text(&r, set, 3, 2, 50, depth);
        if (r.status != EMU_RUN_DONE)
            fail_msg("queue depth %u: %s", depth, emu_run_status_name(r.status));
        e2e_free(&r);
    }
}

/* More words than the pattern program's send buffer holds is refused before anything is sent. */
static void test_conset_pattern_refuses_too_many_words(void **state)
{
    (void)state;
    e2e_run_t r;
    run_cset_text(&r, "array 2x1\nconn a 0,0 1,0 16384\nconn b 1,0 0,0 16384\n", 2, 1, 16385, 8);
    assert_int_equal(r.status, EMU_RUN_FAULT);
    unsigned x, y;
    assert_true(emu_array_first_fault(r.array, &x, &y));
    char why[512];
    emu_format_fault(r.array, x, y, why, sizeof why);
    assert_non_null(strstr(why, "trap 3 ")); /* conset_pattern.s: K is more than SEND_WORDS */
    e2e_free(&r);
}

/* Builds the run description at PATH, which must fail; returns what it wrote to stderr (to be freed). */
static char *build_errors(const char *path)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    run_desc_t desc;
    assert_int_equal(run_desc_parse_file(path, &m, &desc, stderr), 0);
    FILE *log = tmpfile();
    assert_non_null(log);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0 && dup2(fileno(log), STDERR_FILENO) >= 0);
    emu_array_t *a;
    int rc = run_desc_build(&desc, NULL, 0, NULL, 0, &a);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    run_desc_free(&desc);
    assert_int_equal(rc, -1);
    assert_null(a);
    long len = ftell(log);
    assert_true(len > 0);
    char *text = calloc((size_t)len + 1, 1);
    assert_non_null(text);
    rewind(log);
    assert_int_equal(fread(text, 1, (size_t)len, log), (size_t)len);
    fclose(log);
    return text;
}

/* A `route` line whose set is bad, does not fit the array or is missing: one line that names the run
 * description's line and then the set's own `file:line:col`, and the run is not built. */
static void test_route_line_reports_the_sets_error(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp-route-XXXXXX", cset[1100], run[1100], want[2400];
    assert_non_null(mkdtemp(dir));
    snprintf(cset, sizeof cset, "%s/bad.cset", dir);
    snprintf(run, sizeof run, "%s/bad.run", dir);
    e2e_write_text(cset, "array 2x1\ntask t\nconn a 0,0 5,0 10\nconn b 0,0 6,0 10\n");
    char desc[2048];
    snprintf(desc, sizeof desc,
             "# a set with errors\narray 2x1\nprogram p %s/programs/patterns/conset_pattern.s\ncells all p 10 1\n"
             "route bad.cset at 0x70000\n",
             IWARP_SOURCE_ROOT);
    e2e_write_text(run, desc);
    char *text = build_errors(run);
    snprintf(want, sizeof want, "%s:5: %s/bad.cset:3:12: DST 5,0 is outside the 2x1 array (and 1 more error)\n", run,
             dir);
    assert_string_equal(text, want);
    free(text);

    e2e_write_text(cset, "array 4x1\nconn a 0,0 3,0 10\n"); /* a good set, for another array */
    text = build_errors(run);
    snprintf(want, sizeof want, "%s:5: %s/bad.cset: ", run, dir);
    assert_true(strncmp(text, want, strlen(want)) == 0);
    assert_non_null(strstr(text, "4x1"));
    free(text);

    unlink(cset); /* gone: the description itself is refused, at the line that names it */
    emu_machine_t m;
    emu_machine_defaults(&m);
    run_desc_t parsed;
    FILE *log = tmpfile();
    assert_non_null(log);
    assert_int_equal(run_desc_parse_file(run, &m, &parsed, log), -1);
    run_desc_free(&parsed);
    char said[2400] = "";
    rewind(log);
    assert_non_null(fgets(said, sizeof said, log));
    fclose(log);
    snprintf(want, sizeof want, "%s:5:7: %s/bad.cset: No such file or directory\n", run, dir);
    assert_string_equal(said, want);
    unlink(run);
    rmdir(dir);
}

/* The timed runs of the bench at its smallest size, pinned: a change in the runtime, the compiler or the
 * machine shows up here (IWARP_REBASELINE=1 records new values). */
static void test_conset_clocks_are_pinned(void **state)
{
    (void)state;
    unsigned phases;
    e2e_check_golden("conset_torus_8x8_32", run_conset(PATTERN_TORUS, 8, 8, 32, 12, false, &phases));
    e2e_check_golden("conset_butterfly_8x8_32", run_conset(PATTERN_BUTTERFLY, 8, 8, 32, 12, false, &phases));
    e2e_check_golden("conset_butterfly_links_8x8_32",
                     run_conset_with(PATTERN_BUTTERFLY, 8, 8, 32, 12, false, true, &phases));
}

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
        cmocka_unit_test(test_conset_torus_delivers),
        cmocka_unit_test(test_conset_butterfly_delivers),
        cmocka_unit_test(test_conset_all_to_all_delivers),
        cmocka_unit_test(test_conset_with_links_delivers),
        cmocka_unit_test(test_conset_phases_switch_safely_on_16x16),
        cmocka_unit_test(test_aligned_barrier_releases_every_cell_together),
        cmocka_unit_test(test_conset_switches_phases_on_any_hop_latency),
        cmocka_unit_test(test_conset_run_descriptions_deliver),
        cmocka_unit_test(test_route_line_reports_the_sets_error),
        cmocka_unit_test(test_conset_mixed_sets_deliver_at_every_queue_depth),
        cmocka_unit_test(test_conset_pattern_refuses_too_many_words),
        cmocka_unit_test(test_conset_clocks_are_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
