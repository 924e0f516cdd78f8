/* Snapshots and hooks never change a run: stopping, snapshotting, restoring and going on gives the very state
 * an uninterrupted run reaches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include <string.h>

#include "e2e.h"
#include "snapshot_oracle.h"

static uint64_t run_to_end(emu_array_t *a)
{
    assert_int_equal(emu_array_run(a, UINT64_MAX), EMU_RUN_DONE);
    return emu_array_hash(a, true, true);
}

static void test_restoring_a_snapshot_replays_the_same_run(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_file(&r, "programs/net/neighbours.run");
    uint64_t end = emu_array_cycles(r.array);
    uint64_t want = emu_array_hash(r.array, true, true);
    e2e_free(&r);

    /* The same run, stopped at several clocks on the way. */
    e2e_run_t s;
    e2e_run_file(&s, "programs/net/neighbours.run"); /* for its description; the run below is a new one */
    emu_array_t *a;
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&s.desc, none, 0, none, 0, &a), 0);
    assert_int_equal(emu_array_run(a, end / 3), EMU_RUN_LIMIT);
    emu_snapshot_t *snap = emu_snapshot_take(a);
    assert_non_null(snap);
    assert_int_equal(emu_snapshot_clock(snap), end / 3);
    uint64_t at_snap = emu_array_hash(a, true, true);
    assert_int_equal(run_to_end(a), want);

    char err[200];
    assert_int_equal(emu_snapshot_restore(a, snap, err, sizeof err), 0);
    assert_int_equal(emu_array_hash(a, true, true), at_snap);
    assert_int_equal(run_to_end(a), want);

    /* Through a file as well. */
    char path[] = "/tmp/iwarp-snap-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(emu_snapshot_save(snap, path, err, sizeof err), 0);
    emu_snapshot_t *loaded = emu_snapshot_load(path, err, sizeof err);
    assert_non_null(loaded);
    unlink(path);
    assert_int_equal(emu_snapshot_restore(a, loaded, err, sizeof err), 0);
    assert_int_equal(emu_array_hash(a, true, true), at_snap);
    assert_int_equal(run_to_end(a), want);

    emu_snapshot_free(loaded);
    emu_snapshot_free(snap);
    emu_array_free(a);
    e2e_free(&s);
}

typedef struct stopper {
    uint64_t every;
    unsigned stops;
} stopper_t;

static bool stop_now_and_then(void *user, emu_array_t *a, uint64_t clock)
{
    (void)a;
    stopper_t *st = user;
    return clock % st->every == 0 && clock > 0;
}

static void test_stopping_at_every_hundredth_clock_changes_nothing(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_file(&r, "programs/net/neighbours.run");
    uint64_t want = emu_array_hash(r.array, true, true);

    emu_array_t *a;
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&r.desc, none, 0, none, 0, &a), 0);
    stopper_t st = {100, 0};
    emu_hooks_t hooks = {&st, NULL, stop_now_and_then};
    emu_array_set_hooks(a, &hooks);
    emu_run_status_t rs;
    while ((rs = emu_array_run(a, UINT64_MAX)) == EMU_RUN_STOPPED)
        st.stops++;
    assert_int_equal(rs, EMU_RUN_DONE);
    assert_true(st.stops > 10);
    assert_int_equal(emu_array_hash(a, true, true), want);
    emu_array_free(a);
    e2e_free(&r);
}

/* Saves the snapshot of `m`'s array, lets `edit` change the slot of line 0 of cell 0 for `ahead` clocks after the
 * snapshot's (words in flight arrive 1 .. hop latency - 1 clocks on, or now), sums the file again, and loads it. */
static emu_snapshot_t *load_with_slot_edited(const emu_snapshot_t *snap, const emu_machine_t *m, unsigned ahead,
                                             void (*edit)(coa_slot_t *), char *err, size_t cap)
{
    char path[] = "/tmp/iwarp-snap-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(emu_snapshot_save(snap, path, err, cap), 0);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size_t n = (size_t)ftell(f);
    uint8_t *b = malloc(n);
    assert_non_null(b);
    rewind(f);
    assert_int_equal(fread(b, 1, n, f), n);
    /* The slots, then the sum end the file: every cell's 4 lines of nslots slots. */
    const size_t nslots = snapshot_slots_of_a_line(m->agent.hop_latency),
                 all = (size_t)m->width * m->height * 4 * nslots;
    size_t slots_at = n - 8 - all * sizeof(coa_slot_t);
    coa_slot_t slot;
    size_t k = (size_t)((emu_snapshot_clock(snap) + ahead) % nslots);
    memcpy(&slot, b + slots_at + k * sizeof slot, sizeof slot);
    edit(&slot);
    memcpy(b + slots_at + k * sizeof slot, &slot, sizeof slot);
    uint64_t sum = snapshot_file_sum(b, n - 8);
    memcpy(b + n - 8, &sum, 8);
    rewind(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
    free(b);
    emu_snapshot_t *loaded = emu_snapshot_load(path, err, cap);
    unlink(path);
    return loaded;
}

/* A snapshot of programs/net/neighbours.run at clock 300, words in flight on its links. */
static emu_snapshot_t *neighbours_at_300(e2e_run_t *r, emu_array_t **a)
{
    static const char *const none[1] = {NULL};
    e2e_run_file(r, "programs/net/neighbours.run");
    assert_int_equal(run_desc_build(&r->desc, none, 0, none, 0, a), 0);
    assert_int_equal(emu_array_run(*a, 300), EMU_RUN_LIMIT);
    emu_snapshot_t *snap = emu_snapshot_take(*a);
    assert_non_null(snap);
    return snap;
}

static void leave_slot(coa_slot_t *s) { (void)s; }
static void put_word_in_slot(coa_slot_t *s)
{
    s->has_flit = true;
    s->flit.dst_lc = 0;
}

/* A file that sums right but holds a word in a slot no word in flight can be in (one hop latency or more ahead
 * of its clock) is refused: a sender posts into the slot of that clock without looking at it. */
static void test_a_snapshot_with_a_word_out_of_flight_is_refused(void **state)
{
    (void)state;
    e2e_run_t r;
    emu_array_t *a;
    emu_snapshot_t *snap = neighbours_at_300(&r, &a);
    char err[300];
    const emu_machine_t *m = &r.desc.machine;
    emu_snapshot_t *same = load_with_slot_edited(snap, m, 0, leave_slot, err, sizeof err); /* summed again only */
    if (same == NULL)
        fail_msg("the file summed again was refused: %s", err);
    emu_snapshot_free(same);
    for (unsigned ahead = m->agent.hop_latency; ahead < snapshot_slots_of_a_line(m->agent.hop_latency); ahead++) {
        assert_null(load_with_slot_edited(snap, m, ahead, put_word_in_slot, err, sizeof err));
        assert_non_null(strstr(err, "cell (0,0) line +X slot"));
        assert_non_null(strstr(err, "the hop latency is"));
    }
    emu_snapshot_free(snap);
    emu_array_free(a);
    e2e_free(&r);
}

/* Credits and frees for channels the machine does not have, or counts the receiver would never take: each slot
 * field the agent reads without a check (coa_slot_t) is refused on load, with the field named. */
static void credit_beyond_the_channels(coa_slot_t *s) { s->credit_lc |= 1ull << 40; }
static void free_beyond_the_channels(coa_slot_t *s) { s->free_lc |= 1ull << 63; }
static void more_credits_without_a_first(coa_slot_t *s)
{
    s->credit_lc &= ~(1ull << 3);
    s->more_lc |= 1ull << 3;
    s->more[3] = 2;
}
static void a_count_outside_more_lc(coa_slot_t *s)
{
    s->more_lc &= ~(1ull << 5);
    s->more[5] = 1;
}
static void test_a_snapshot_with_forged_credits_is_refused(void **state)
{
    (void)state;
    static const struct {
        void (*edit)(coa_slot_t *);
        const char *field;
    } cases[] = {
        {credit_beyond_the_channels, "credit_lc is 0x"},
        {free_beyond_the_channels, "free_lc is 0x"},
        {more_credits_without_a_first, "more_lc is 0x"},
        {a_count_outside_more_lc, "more[5] is 1"},
    };
    e2e_run_t r;
    emu_array_t *a;
    emu_snapshot_t *snap = neighbours_at_300(&r, &a);
    char err[300];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_null(load_with_slot_edited(snap, &r.desc.machine, 1, cases[i].edit, err, sizeof err));
        if (strstr(err, cases[i].field) == NULL || strstr(err, "cell (0,0) line +X slot") == NULL)
            fail_msg("case %zu: %s", i, err);
    }
    emu_snapshot_free(snap);
    emu_array_free(a);
    e2e_free(&r);
}

/* A snapshot of one run restores onto the same programs only: under others its registers and memory would
 * be a made-up state (the machines are the same here, 8x8 with the defaults). */
static void test_a_snapshot_refuses_other_programs(void **state)
{
    (void)state;
    static const char *const none[1] = {NULL};
    e2e_run_t p, q;
    e2e_run_file(&p, "programs/net/pathway.run");
    e2e_run_file(&q, "programs/net/neighbours.run");
    emu_array_t *a, *b;
    assert_int_equal(run_desc_build(&p.desc, none, 0, none, 0, &a), 0);
    assert_int_equal(run_desc_build(&q.desc, none, 0, none, 0, &b), 0);
    assert_int_equal(emu_array_run(a, 100), EMU_RUN_LIMIT);
    emu_snapshot_t *snap = emu_snapshot_take(a);
    assert_non_null(snap);
    char err[200];
    assert_int_equal(emu_snapshot_restore(b, snap, err, sizeof err), -1);
    assert_non_null(strstr(err, "other programs"));
    assert_int_equal(emu_snapshot_restore(a, snap, err, sizeof err), 0);
    emu_snapshot_free(snap);
    emu_array_free(a);
    emu_array_free(b);
    e2e_free(&p);
    e2e_free(&q);
}

/* Nor onto a machine that differs in one timing class only: the same program would run to other clocks. */
static void test_a_snapshot_refuses_other_timing(void **state)
{
    (void)state;
    static const char *const none[1] = {NULL};
    e2e_run_t p;
    e2e_run_file(&p, "programs/net/pathway.run");
    emu_array_t *a, *b;
    assert_int_equal(run_desc_build(&p.desc, none, 0, none, 0, &a), 0);
    p.desc.machine.timing.clocks[ISA_T_MEM]++;
    assert_int_equal(run_desc_build(&p.desc, none, 0, none, 0, &b), 0);
    assert_int_equal(emu_array_run(a, 100), EMU_RUN_LIMIT);
    emu_snapshot_t *snap = emu_snapshot_take(a);
    assert_non_null(snap);
    char err[200];
    assert_int_equal(emu_snapshot_restore(b, snap, err, sizeof err), -1);
    assert_non_null(strstr(err, "different machine"));
    emu_snapshot_free(snap);
    emu_array_free(a);
    emu_array_free(b);
    e2e_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restoring_a_snapshot_replays_the_same_run),
        cmocka_unit_test(test_a_snapshot_refuses_other_programs),
        cmocka_unit_test(test_a_snapshot_with_a_word_out_of_flight_is_refused),
        cmocka_unit_test(test_a_snapshot_with_forged_credits_is_refused),
        cmocka_unit_test(test_a_snapshot_refuses_other_timing),
        cmocka_unit_test(test_stopping_at_every_hundredth_clock_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
