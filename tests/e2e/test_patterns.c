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
#include "e2e.h"
#include "iwarp_config.h"
#include "route/pattern.h"
#include "route/route.h"
#include "route/route_tables.h"

enum { CONSET_TABLES = 0x70000 };

/* The user's way: `iwarp route --pattern ... -o tables.cdat`, then a run description with a celldata line;
 * conset_pattern.s in checking mode traps on the first wrong word. Returns the timed clocks of cell (0,0)
 * and the phases through *phases. */
static uint32_t run_conset_with(pattern_kind_t kind, unsigned w, unsigned h, uint32_t words, unsigned capacity,
                                bool check, bool links, unsigned *phases)
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
    fprintf(f, "array %ux%u\nprogram p %s/programs/patterns/conset_pattern.s\ncells all p %u %u\n"
               "celldata tables.cdat at 0x%x\n",
            w, h, IWARP_SOURCE_ROOT, words, check ? 1u : 0u, CONSET_TABLES);
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

static uint32_t run_conset(pattern_kind_t kind, unsigned w, unsigned h, uint32_t words, unsigned capacity,
                           bool check, unsigned *phases)
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

/* Every cell leaves sync_barrier_aligned in the same clock, give or take the 2 of its waiting loop. */
static void test_aligned_barrier_releases_every_cell_together(void **state)
{
    (void)state;
    static const char *const arrays[] = {"1x1", "2x1", "3x3", "5x7", "8x8", "4x6", "16x16", "31x31", "32x32"};
    char options[256];
    for (unsigned i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        snprintf(options, sizeof options, "array %s\ninclude %s/runtime", arrays[i], IWARP_SOURCE_ROOT);
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
            fail_msg("%s: cells left between clocks %u and %u", arrays[i], lo, hi);
        e2e_free(&r);
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

/* A bad connection set named by a `route` line: the error says where, and the run is not built. */
static void test_route_line_reports_the_sets_error(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp-route-XXXXXX", cset[1100];
    assert_non_null(mkdtemp(dir));
    snprintf(cset, sizeof cset, "%s/bad.cset", dir);
    FILE *f = fopen(cset, "w");
    assert_non_null(f);
    fputs("array 2x1\ntask t\nconn a 0,0 5,0 10\n", f);
    fclose(f);
    celldata_t d;
    char err[256];
    assert_int_equal(route_file_tables(cset, &d, err, sizeof err), -1);
    char where[1200];
    snprintf(where, sizeof where, "%s:3:", cset);
    assert_true(strncmp(err, where, strlen(where)) == 0);
    unlink(cset);
    rmdir(dir);
    assert_int_equal(route_file_tables(cset, &d, err, sizeof err), -1); /* gone: cannot be read */
    assert_true(strlen(err) > 0);
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
        cmocka_unit_test(test_conset_run_descriptions_deliver),
        cmocka_unit_test(test_route_line_reports_the_sets_error),
        cmocka_unit_test(test_conset_clocks_are_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
