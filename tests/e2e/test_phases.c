/*
 * The per-phase account of a ConSet run (runner/phase_account.h, docs/conset.md "Where a phase's clocks
 * go"): its parts add up, its milestones come in order, it costs the run no clock, its predictions are the
 * compiler's, and `iwarp run --json` carries it. The torus's numbers are pinned in tests/golden/phases.txt
 * (written by the emulator: IWARP_REBASELINE=1 meson test -C build e2e_phases, then review the diff); the doc's
 * all-to-all table is checked by tests/cli/test_cli.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "conset/cset.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_links.h"
#include "golden.h"
#include "iwarp_config.h"
#include "model.h"
#include "phase_account.h"
#include "phase_predict.h"
#include "run_desc.h"

static const char *iwarp;

/* A run of conset_pattern.s (timed, unchecked) with the set compiled by a `route` line, as a user writes it. */
typedef struct phase_run {
    char dir[64], cset[128], run[128];
    cset_t set;
    route_plan_t plan;
    run_desc_t desc;
    emu_array_t *a;
    phase_account_t *pa;
    const phase_row_t *rows;
    unsigned nrows;
} phase_run_t;

static void write_run(phase_run_t *r, pattern_kind_t kind, unsigned side, uint32_t words)
{
    char err[256];
    snprintf(r->dir, sizeof r->dir, "/tmp/iwarp-phases-XXXXXX");
    assert_non_null(mkdtemp(r->dir));
    snprintf(r->cset, sizeof r->cset, "%s/set.cset", r->dir);
    snprintf(r->run, sizeof r->run, "%s/set.run", r->dir);
    if (pattern_generate(&r->set, kind, side, side, words, 12, err, sizeof err) != 0)
        fail_msg("%s", err);
    FILE *f = fopen(r->cset, "w");
    assert_non_null(f);
    assert_int_equal(cset_write(&r->set, f), 0);
    assert_int_equal(fclose(f), 0);
    route_options_t o;
    route_options_init(&o);
    if (route_compile(&r->set, &o, &r->plan, err, sizeof err) != 0)
        fail_msg("%s", err);
    f = fopen(r->run, "w");
    assert_non_null(f);
    fprintf(
        f,
        "array %ux%u\nprogram p %s/programs/patterns/conset_pattern.s\ncells all p %u 0\nroute set.cset at 0x70000\n",
        side, side, IWARP_SOURCE_ROOT, words);
    assert_int_equal(fclose(f), 0);
}

/* How the account looks at the run: not at all, by a hook after every clock, or from the cells' logs. */
typedef enum { NO_ACCOUNT, BY_HOOK, BY_WATCH } account_by_t;

/* Builds and runs it (in slices of `slice` clocks on `threads` threads, the account asked for its rows after
 * each: a CA that ran ahead past a slice's end is put back; 0: in one go), with the account as `by` says. */
static void run_as(phase_run_t *r, account_by_t by, uint64_t slice, unsigned threads)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    assert_int_equal(run_desc_parse_file(r->run, &m, &r->desc, stderr), 0);
    assert_int_equal(run_desc_build(&r->desc, NULL, 0, NULL, 0, &r->a), 0);
    emu_array_set_threads(r->a, threads);
    r->pa = NULL;
    if (by != NO_ACCOUNT) {
        r->pa = phase_account_create(r->a);
        assert_non_null(r->pa);
        assert_int_equal(phase_predict_attach(r->pa, &r->desc), 0);
        emu_hooks_t hooks = {r->pa, NULL, phase_account_hook};
        if (by == BY_HOOK)
        emu_array_set_hooks(r->a, &hooks);
        else
            assert_int_equal(phase_account_watch(r->pa, r->a), 0);
    }
    const uint64_t limit = 100000000;
    emu_run_status_t st;
    do {
        uint64_t to = slice == 0 ? limit : emu_array_clock(r->a) + slice;
        st = emu_array_run(r->a, to < limit ? to : limit);
        if (r->pa != NULL)
        r->nrows = phase_account_rows(r->pa, &r->rows);
    } while (st == EMU_RUN_LIMIT && emu_array_clock(r->a) < limit);
    assert_int_equal(st, EMU_RUN_DONE);
}

static void run(phase_run_t *r, bool account)
{
    run_as(r, account ? BY_HOOK : NO_ACCOUNT, 0, 1);
}

static void run_free(phase_run_t *r)
{
    phase_account_free(r->pa);
    emu_array_free(r->a);
    run_desc_free(&r->desc);
}

static void remove_files(phase_run_t *r)
{
    route_plan_free(&r->plan);
    cset_free(&r->set);
    unlink(r->cset);
    unlink(r->run);
    rmdir(r->dir);
}

/* What every account must be: a row per phase in order, each complete, its parts adding up to its total, rows
 * end to end, milestones in order, the compiler's predictions. */
static void check_account(const phase_run_t *r)
{
    assert_int_equal(r->nrows, r->plan.nphases);
    uint64_t sum = 0;
    for (unsigned k = 0; k < r->nrows; k++) {
        const phase_row_t *w = &r->rows[k];
        assert_int_equal(w->phase, (int)k);
        assert_true(w->complete);
        assert_int_equal(w->other + w->sync + w->load + w->first + w->transfer + w->drain, w->total);
        assert_int_equal(w->total, w->end - w->start);
        if (k > 0)
            assert_int_equal(w->start, r->rows[k - 1].end);
        else
            assert_int_equal(w->start, w->barrier_in);
        assert_true(w->barrier_in <= w->barrier_out && w->barrier_out <= w->loaded && w->loaded <= w->end);
        assert_true(w->stream_start <= w->first_sent && w->first_sent <= w->first_received);
        assert_true(w->first_received <= w->last_received && w->last_sent <= w->last_received);
        assert_true(w->last_received <= w->end);
        assert_int_equal(w->predicted, r->plan.phases[k].clocks);
        assert_int_equal(w->link_weighted, route_phase_link_weighted_clocks(&r->plan, k));
        sum += w->total;
    }
    assert_int_equal(sum, r->rows[r->nrows - 1].end - r->rows[0].start);
}

/* All-to-all at 32 words: 28 phases. The account watches every clock and changes none: the run's clocks, every
 * cell's a0 (the pattern's clocks) and its statistics are those of the run without it. */
static void test_alltoall_account_adds_up_and_costs_no_clock(void **state)
{
    (void)state;
    phase_run_t with, without;
    write_run(&with, PATTERN_ALLTOALL, 8, 32);
    run(&with, true);
    check_account(&with);
    without = with;
    run(&without, false);
    assert_int_equal(emu_array_cycles(without.a), emu_array_cycles(with.a));
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            const ca_t *p = emu_array_ca(with.a, x, y), *q = emu_array_ca(without.a, x, y);
            assert_int_equal(ca_reg(p, ISA_REG_A0), ca_reg(q, ISA_REG_A0));
            assert_memory_equal(&p->s.stats, &q->s.stats, sizeof p->s.stats);
        }
    /* The pattern's clocks (from leaving the start barrier to leaving the end one) hold the section. */
    assert_true(with.rows[with.nrows - 1].end - with.rows[0].start < ca_reg(emu_array_ca(with.a, 0, 0), ISA_REG_A0));
    run_free(&without);
    run_free(&with);
    remove_files(&with);
}

/* The account from the cells' logs is the one a hook after every clock gives, though the array then runs on
 * its threads with its CAs ahead of the clock, put back at the end of each slice (an odd length, so that runs
 * ahead are cut short all over), and the rows are asked for between slices. */
static void test_watched_account_is_the_hooks(void **state)
{
    (void)state;
    static const pattern_kind_t kinds[] = {PATTERN_ALLTOALL, PATTERN_BUTTERFLY};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        phase_run_t hooked, watched;
        write_run(&hooked, kinds[k], 8, 32);
        run(&hooked, true);
        check_account(&hooked);
        static const struct {
            uint64_t slice;
            unsigned threads;
        } ways[] = {{0, 1}, {0, 2}, {97, 1}, {131, 2}};
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            watched = hooked;
            run_as(&watched, BY_WATCH, ways[w].slice, ways[w].threads);
            assert_int_equal(watched.nrows, hooked.nrows);
            assert_memory_equal(watched.rows, hooked.rows, hooked.nrows * sizeof *hooked.rows);
            assert_int_equal(emu_array_cycles(watched.a), emu_array_cycles(hooked.a));
            /* Without a hook the CAs run ahead, and the array may take its threads. */
            assert_true(emu_array_ahead_bundles(watched.a) > 0);
            assert_int_equal(emu_array_ahead_bundles(hooked.a), 0);
            assert_true(emu_array_max_threads(watched.a) > 1);
            run_free(&watched);
        }
        run_free(&hooked);
        remove_files(&hooked);
    }
}

/* The torus at 32 words, one phase: every part and milestone pinned. */
static void test_torus_account_is_pinned(void **state)
{
    (void)state;
    phase_run_t r;
    write_run(&r, PATTERN_TORUS, 8, 32);
    run(&r, true);
    check_account(&r);
    const phase_row_t *w = &r.rows[0];
    const struct {
        const char *name;
        uint64_t value;
    } pins[] = {
        {"start", w->start},
        {"barrier_out", w->barrier_out},
        {"loaded", w->loaded},
        {"stream_start", w->stream_start},
        {"first_sent", w->first_sent},
        {"first_received", w->first_received},
        {"last_sent", w->last_sent},
        {"last_received", w->last_received},
        {"end", w->end},
        {"slowest_cell_id", w->slowest_y * 8 + w->slowest_x},
        {"slowest_clocks", w->slowest_clocks},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "torus_8x8_32_%s", pins[i].name);
        golden_check("tests/golden/phases.txt", name, pins[i].value, "clock", "e2e_phases");
    }
    run_free(&r);
    remove_files(&r);
}

/* `iwarp run --json` carries the account: `phases` with every field, and `phases_sum` adding them up. */
static void test_run_json_carries_the_phases(void **state)
{
    (void)state;
    phase_run_t r;
    write_run(&r, PATTERN_TORUS, 4, 32);
    run(&r, true);
    char cmd[512], *out;
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --json", iwarp, r.run);
    assert_int_equal(command_run(cmd, &out), 0);
    json_error_t jerr;
    json_t *doc = json_loads(out, 0, &jerr);
    if (doc == NULL)
        fail_msg("not JSON (%s):\n%s", jerr.text, out);
    free(out);
    json_t *phases = json_object_get(doc, "phases");
    assert_int_equal(json_array_size(phases), r.nrows);
    static const char *const fields[] = {"other", "sync", "load", "first", "transfer", "drain", "total"};
    uint64_t total = 0;
    for (unsigned k = 0; k < r.nrows; k++) {
        json_t *p = json_array_get(phases, k);
        const phase_row_t *w = &r.rows[k];
        const uint64_t parts[] = {w->other, w->sync, w->load, w->first, w->transfer, w->drain, w->total};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            assert_int_equal(json_integer_value(json_object_get(p, fields[f])), parts[f]);
        assert_int_equal(json_integer_value(json_object_get(p, "phase")), k);
        json_t *ms = json_object_get(p, "milestones");
        assert_int_equal(json_integer_value(json_object_get(ms, "first_received")), w->first_received);
        assert_int_equal(json_integer_value(json_object_get(ms, "end")), w->end);
        json_t *slow = json_object_get(p, "slowest_cell");
        assert_int_equal(json_integer_value(json_object_get(slow, "clocks")), w->slowest_clocks);
        assert_int_equal(json_integer_value(json_object_get(p, "predicted_clocks")), r.plan.phases[k].clocks);
        assert_int_equal(json_integer_value(json_object_get(p, "link_weighted_clocks")), w->link_weighted);
        assert_int_equal(json_integer_value(json_object_get(p, "paper_t_sync")), MODEL_T_SYNC);
        assert_int_equal(json_integer_value(json_object_get(p, "paper_t_phase")), MODEL_T_PHASE);
        total += w->total;
    }
    json_t *sum = json_object_get(doc, "phases_sum");
    assert_int_equal(json_integer_value(json_object_get(sum, "total")), total);
    assert_int_equal(json_integer_value(json_object_get(sum, "phases")), r.nrows);
    json_decref(doc);
    run_free(&r);
    remove_files(&r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_phases IWARP\n");
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alltoall_account_adds_up_and_costs_no_clock),
        cmocka_unit_test(test_watched_account_is_the_hooks),
        cmocka_unit_test(test_torus_account_is_pinned),
        cmocka_unit_test(test_run_json_carries_the_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
