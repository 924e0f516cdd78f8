/* Recordings (docs/trace.md): a replay shows exactly what the live run showed, recording changes no result,
 * seeks agree whatever their order, the end and the marks are kept, damaged files are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace.h"
#include "view_test.h"

/* Slots that depend on the history of the run (events, pathway names, when a wait began), not only on the
 * array's state now. */
static bool history_slot(const view_layout_t *l, size_t i)
{
    unsigned cell, unit, field;
    view_slot_kind_t kind;
    view_slot_where(l, i, &cell, &kind, &unit, &field);
    return (kind == VM_KIND_CELL && (field == VM_MARK || field == VM_MARK_CLOCK || field == VM_SINCE)) ||
           (kind == VM_KIND_LINK && (field == VM_LINK_SENT || field == VM_LINK_LC)) ||
           (kind == VM_KIND_LC && field == VM_LC_PATH);
}

static void assert_models_equal(const view_model_t *a, const view_model_t *b, bool with_history, uint64_t clock)
{
    size_t n = view_model_nslots(a);
    assert_int_equal(n, view_model_nslots(b));
    for (size_t i = 0; i < n; i++) {
        if (!with_history && history_slot(&a->l, i))
            continue;
        if (a->slots[i] != b->slots[i]) {
            unsigned cell, unit, field;
            view_slot_kind_t kind;
            view_slot_where(&a->l, i, &cell, &kind, &unit, &field);
            fail_msg("clock %llu: slot %zu (cell %u, kind %d, unit %u, field %u) is %llu live, %llu replayed",
                     (unsigned long long)clock, i, cell, (int)kind, unit, field, (unsigned long long)a->slots[i],
                     (unsigned long long)b->slots[i]);
        }
    }
}

/* Runs a demo in pieces, as the live viewer does, and at the end of every piece compares the model the
 * recorder keeps (what the live view shows), the model rebuilt from the recording, and the array's state. */
static void replay_matches_live(const char *run)
{
    view_test_run_t r;
    view_test_build(&r, run);
    view_bytes_t bytes = {0};
    char err[256];
    view_recorder_t *rec = view_record_attach_memory(r.a, &bytes, run, err, sizeof err);
    assert_non_null(rec);
    view_trace_t t;
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    view_cursor_t cur;
    view_model_t fresh;
    assert_int_equal(view_cursor_init(&cur, &t), 0);
    assert_int_equal(view_model_init(&fresh, &t.st.l), 0);
    unsigned seed = 12345, checked = 0;
    emu_run_status_t st = EMU_RUN_LIMIT;
    while (st == EMU_RUN_LIMIT) {
        seed = seed * 1103515245u + 12345u;
        uint64_t to = emu_array_clock(r.a) + 1 + (seed >> 16) % 97;
        st = emu_array_run(r.a, to);
        uint64_t now = emu_array_clock(r.a);
        assert_int_equal(view_trace_scan(&t), 0);
        assert_int_equal(view_cursor_seek(&cur, &t, now), 0);
        assert_models_equal(view_record_model(rec), &cur.m, true, now);
        view_model_clear(&fresh);
        view_model_update(&fresh, r.a, now, false, NULL);
        assert_models_equal(&fresh, &cur.m, false, now);
        checked++;
    }
    assert_true(checked > 3);
    assert_int_equal(view_record_finish(rec, st, err, sizeof err), 0);
    assert_int_equal(view_trace_scan(&t), 0);
    assert_true(t.ended);
    assert_int_equal(t.end_status, st);
    assert_int_equal(t.end_clock, emu_array_clock(r.a));
    view_model_free(&fresh);
    view_cursor_free(&cur);
    view_trace_close(&t);
    view_bytes_free(&bytes);
    view_test_free(&r);
}

static void test_replay_matches_live_round_robin(void **state)
{
    (void)state;
    replay_matches_live("programs/demos/roundrobin.run");
}

static void test_replay_matches_live_wormhole(void **state)
{
    (void)state;
    replay_matches_live("programs/demos/wormhole.run");
}

static void test_replay_matches_live_context_switch(void **state)
{
    (void)state;
    replay_matches_live("programs/demos/conset.run");
}

static void test_replay_matches_live_all_to_all(void **state)
{
    (void)state;
    replay_matches_live("programs/demos/alltoall.run");
}

static void record_file(const char *run, const char *path, uint64_t *hash, uint64_t *cycles, emu_run_status_t *st)
{
    view_test_run_t r;
    view_test_build(&r, run);
    char err[256];
    view_recorder_t *rec = path != NULL ? view_record_attach(r.a, path, run, err, sizeof err) : NULL;
    if (path != NULL)
        assert_non_null(rec);
    *st = emu_array_run(r.a, r.desc.max_cycles);
    if (rec != NULL)
        assert_int_equal(view_record_finish(rec, *st, err, sizeof err), 0);
    *hash = emu_array_hash(r.a, true, true);
    *cycles = emu_array_cycles(r.a);
    view_test_free(&r);
}

static void test_recording_changes_no_result(void **state)
{
    (void)state;
    static const char *const runs[] = {"programs/demos/wormhole.run", "programs/demos/conset.run",
                                       "programs/demos/deadlock.run", "programs/net/neighbours.run"};
    char path[] = "/tmp/iwarp-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint64_t h0, h1, c0, c1;
        emu_run_status_t s0, s1;
        record_file(runs[i], NULL, &h0, &c0, &s0);
        record_file(runs[i], path, &h1, &c1, &s1);
        assert_int_equal(s0, s1);
        assert_int_equal(c0, c1);
        assert_int_equal(h0, h1);
    }
    unlink(path);
}

static void test_a_file_holds_what_memory_holds(void **state)
{
    (void)state;
    char path[] = "/tmp/iwarp-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    uint64_t h, c;
    emu_run_status_t st;
    record_file("programs/demos/dateline.run", path, &h, &c, &st);
    view_test_run_t r;
    view_test_build(&r, "programs/demos/dateline.run");
    view_bytes_t bytes = {0};
    char err[256];
    view_recorder_t *rec = view_record_attach_memory(r.a, &bytes, "programs/demos/dateline.run", err, sizeof err);
    assert_non_null(rec);
    assert_int_equal(view_record_finish(rec, emu_array_run(r.a, r.desc.max_cycles), err, sizeof err), 0);
    view_trace_t t;
    assert_true(view_trace_is_recording(path));
    assert_int_equal(view_trace_open_file(&t, path, err, sizeof err), 0);
    assert_int_equal(t.own.len, bytes.len);
    assert_memory_equal(t.own.data, bytes.data, bytes.len);
    assert_true(t.ended);
    assert_int_equal(t.end_status, EMU_RUN_DONE);
    assert_int_equal(t.end_cycles, c);
    view_trace_close(&t);
    view_bytes_free(&bytes);
    view_test_free(&r);
    unlink(path);
}

/* A whole recording in memory, for the tests that only read. */
/* Records a run to its limit (0: the run description's). */
static void record_memory_to(const char *run, view_bytes_t *bytes, uint64_t limit)
{
    view_test_run_t r;
    view_test_build(&r, run);
    char err[256];
    memset(bytes, 0, sizeof *bytes);
    view_recorder_t *rec = view_record_attach_memory(r.a, bytes, run, err, sizeof err);
    assert_non_null(rec);
    emu_run_status_t st = emu_array_run(r.a, limit > 0 ? limit : r.desc.max_cycles);
    assert_int_equal(view_record_finish(rec, st, err, sizeof err), 0);
    view_test_free(&r);
}

static void record_memory(const char *run, view_bytes_t *bytes)
{
    record_memory_to(run, bytes, 0);
}

/* Deltas carry changes: new - old, zigzagged, round trips for any pair of values. */
static void test_changes_round_trip(void **state)
{
    (void)state;
    static const uint64_t values[] = {
        0, 1, 2, 0x7f, 0x80, 1ull << 32, UINT64_MAX, UINT64_MAX - 1, 1ull << 63, (1ull << 63) - 1};
    enum { N = sizeof values / sizeof values[0] };
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < N; k++)
            assert_true(view_unzigzag(values[i], view_zigzag(values[i], values[k])) == values[k]);
    assert_int_equal(view_zigzag(41, 42), 2); /* a step up */
    assert_int_equal(view_zigzag(42, 41), 1); /* a step down */
    assert_int_equal(view_zigzag(5, 5), 0);
}

/* A recording in the first version's format (whole values in deltas) is refused by name, not misread. */
static void test_an_older_version_is_refused(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/roundrobin.run", &bytes);
    /* "IWARPTRC", the header's tag and its length (a varint), then the version */
    size_t at = VIEW_TRACE_MAGIC_LEN + 1;
    while (bytes.data[at] & 0x80)
        at++;
    at++;
    assert_int_equal(bytes.data[at], VIEW_TRACE_VERSION);
    bytes.data[at] = 1;
    view_trace_t t;
    char err[256];
    assert_int_not_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    char want[64];
    snprintf(want, sizeof want, "recording version 1, this viewer reads version %d", VIEW_TRACE_VERSION);
    assert_non_null(strstr(err, want));
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

static void test_seeks_agree_in_any_order(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/alltoall.run", &bytes);
    view_trace_t t;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    view_cursor_t a, b;
    assert_int_equal(view_cursor_init(&a, &t), 0);
    assert_int_equal(view_cursor_init(&b, &t), 0);
    unsigned seed = 99;
    for (int i = 0; i < 200; i++) {
        seed = seed * 1103515245u + 12345u;
        uint64_t clock = (seed >> 8) % (t.end_clock + 50);
        assert_int_equal(view_cursor_seek(&a, &t, clock), 0);
        /* b always starts over from a keyframe */
        b.valid = false;
        assert_int_equal(view_cursor_seek(&b, &t, clock), 0);
        assert_models_equal(&a.m, &b.m, true, clock);
        assert_int_equal(a.m.clock, clock);
    }
    view_cursor_free(&a);
    view_cursor_free(&b);
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

/* The deadlock demo's cycle as the recording keeps it: channel 8 of the four cells of a row, each waiting
 * over its +X link for the next. */
static void expect_row_cycle(const view_trace_t *t)
{
    assert_int_equal(t->ncycle, 4);
    unsigned w = t->st.l.width;
    for (unsigned k = 0; k < t->ncycle; k++) {
        const emu_wait_step_t *s = &t->cycle[k];
        assert_false(s->is_ca);
        assert_int_equal(s->lc, 8);
        assert_int_equal(s->lane_cell, s->cell);
        assert_int_equal(s->lane_dir, COA_DIR_PX);
        assert_int_equal(s->cell / w, t->cycle[0].cell / w);
    }
}

static void test_a_deadlock_keeps_its_cycle(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/deadlock.run", &bytes);
    view_trace_t t;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    assert_true(t.ended);
    assert_int_equal(t.end_status, EMU_RUN_DEADLOCK);
    assert_non_null(t.end_deadlock);
    assert_non_null(strstr(t.end_deadlock, "wait cycle"));
    assert_non_null(strstr(t.end_deadlock, "pool-0 channel"));
    expect_row_cycle(&t);
    /* It closed long before the detector noticed: the viewer draws it from then on. */
    assert_true(t.cycle_closed > 100 && t.cycle_closed + 300 <= t.end_clock);
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

/* A run stopped (here by its clock limit) after the cycle closed and before the detector's window did: the
 * recording keeps the cycle it is caught in, and the report says the run stopped. */
static void test_a_stopped_run_keeps_its_wait_cycle(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory_to("programs/demos/deadlock.run", &bytes, 250);
    view_trace_t t;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    assert_true(t.ended);
    assert_int_equal(t.end_status, EMU_RUN_LIMIT);
    assert_int_equal(t.end_clock, 250);
    expect_row_cycle(&t);
    assert_non_null(strstr(t.end_deadlock, "the run stopped at clock 250"));
    view_trace_close(&t);
    view_bytes_free(&bytes);
    /* Stopped before the headers block: no cycle. */
    record_memory_to("programs/demos/deadlock.run", &bytes, 50);
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    assert_int_equal(t.end_status, EMU_RUN_LIMIT);
    assert_int_equal(t.ncycle, 0);
    assert_string_equal(t.end_deadlock, "");
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

static void test_phase_marks_are_kept(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/conset.run", &bytes);
    view_trace_t t;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    size_t phases = 0;
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; i < t.nmarks; i++)
        if (t.marks[i].mark >> 24 == EMU_MARK_PHASE) {
            phases++;
            if (first == UINT64_MAX)
                first = t.marks[i].clock;
        }
    assert_int_equal(phases, 16 * 3); /* every cell, every phase */
    assert_int_equal(view_trace_phase(&t, first - 1), -1);
    assert_int_equal(view_trace_phase(&t, first), 0); /* runtime/conset.s numbers phases from 0 */
    assert_int_equal(view_trace_phase(&t, t.end_clock), 2);
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

static void test_source_lines_travel_with_the_recording(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/wormhole.run", &bytes);
    view_trace_t t;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&t, &bytes, err, sizeof err), 0);
    view_cursor_t c;
    assert_int_equal(view_cursor_init(&c, &t), 0);
    assert_int_equal(view_cursor_seek(&c, &t, 150), 0);
    /* (1,0) is stuck writing message B into go0: a line of the send loop, whose text the recording holds */
    const uint64_t *cell = view_cell(&c.m, 1, 0);
    assert_int_equal(cell[VM_CA] & 0xff, CA_WAITING);
    const char *file, *text;
    unsigned line;
    size_t n;
    assert_true(view_static_line(&t.st, 1, (uint32_t)cell[VM_PC], &file, &line, &text, &n));
    assert_non_null(strstr(file, "wormhole.s"));
    assert_non_null(text);
    assert_true(n > 0);
    char line_text[256];
    snprintf(line_text, sizeof line_text, "%.*s", (int)(n < 255 ? n : 255), text);
    assert_non_null(strstr(line_text, "gate_message"));
    view_cursor_free(&c);
    view_trace_close(&t);
    view_bytes_free(&bytes);
}

static void test_a_cut_recording_shows_what_it_holds(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/roundrobin.run", &bytes);
    view_trace_t whole;
    char err[256];
    assert_int_equal(view_trace_open_bytes(&whole, &bytes, err, sizeof err), 0);
    for (size_t cut = bytes.len; cut > 0; cut = cut * 7 / 8) {
        view_bytes_t part = {bytes.data, cut, cut, false};
        view_trace_t t;
        if (view_trace_open_bytes(&t, &part, err, sizeof err) != 0) {
            view_trace_close(&t);
            continue; /* cut before the first keyframe: refused with a message */
        }
        assert_false(t.ended && cut < bytes.len);
        assert_true(t.last_clock <= whole.end_clock);
        view_cursor_t c;
        assert_int_equal(view_cursor_init(&c, &t), 0);
        assert_int_equal(view_cursor_seek(&c, &t, t.last_clock), 0);
        view_cursor_free(&c);
        t.bytes = NULL; /* not ours */
        view_trace_close(&t);
    }
    view_trace_close(&whole);
    view_bytes_free(&bytes);
}

static void test_damaged_recordings_are_refused(void **state)
{
    (void)state;
    view_bytes_t bytes;
    record_memory("programs/demos/wormhole.run", &bytes);
    char err[256];
    view_bytes_t junk = {(uint8_t *)"not a recording at all", 22, 22, false};
    view_trace_t t;
    assert_int_not_equal(view_trace_open_bytes(&t, &junk, err, sizeof err), 0);
    assert_non_null(strstr(err, "not a recording"));
    view_trace_close(&t);
    /* Random damage: refused or read, never a crash (the sanitizer build checks the reads). */
    uint8_t *copy = malloc(bytes.len);
    assert_non_null(copy);
    unsigned seed = 7;
    for (int round = 0; round < 300; round++) {
        memcpy(copy, bytes.data, bytes.len);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % bytes.len] ^= (uint8_t)(1u << (seed >> 28 & 7));
        }
        view_bytes_t d = {copy, bytes.len, bytes.len, false};
        if (view_trace_open_bytes(&t, &d, err, sizeof err) == 0) {
            view_cursor_t c;
            assert_int_equal(view_cursor_init(&c, &t), 0);
            for (uint64_t clock = 0; clock <= t.last_clock; clock += 37)
                (void)view_cursor_seek(&c, &t, clock);
            view_cursor_free(&c);
        }
        t.bytes = NULL;
        view_trace_close(&t);
    }
    free(copy);
    view_bytes_free(&bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_matches_live_round_robin),
        cmocka_unit_test(test_replay_matches_live_wormhole),
        cmocka_unit_test(test_replay_matches_live_context_switch),
        cmocka_unit_test(test_replay_matches_live_all_to_all),
        cmocka_unit_test(test_recording_changes_no_result),
        cmocka_unit_test(test_a_file_holds_what_memory_holds),
        cmocka_unit_test(test_changes_round_trip),
        cmocka_unit_test(test_an_older_version_is_refused),
        cmocka_unit_test(test_seeks_agree_in_any_order),
        cmocka_unit_test(test_a_deadlock_keeps_its_cycle),
        cmocka_unit_test(test_a_stopped_run_keeps_its_wait_cycle),
        cmocka_unit_test(test_phase_marks_are_kept),
        cmocka_unit_test(test_source_lines_travel_with_the_recording),
        cmocka_unit_test(test_a_cut_recording_shows_what_it_holds),
        cmocka_unit_test(test_damaged_recordings_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
