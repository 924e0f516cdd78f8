/*
 * Watching cells without a hook (emu_array_watch) logs what a hook after every clock sees, at the same clocks:
 * the arrivals of each cell's pc at the watched places and the marks it raises, though the array then runs
 * ahead, alone, on two threads and in slices. The places are reached by a fall-through, a return, a taken
 * branch (again and again) and in the clock of a mark; a cell that traps stops the run while the others' CAs
 * have run ahead to a watched place, which they must then take back. (Gate words: tests/e2e/test_phases.c, whose
 * account from the logs is the hook's.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "test_dir.h"

/* Cell 1 computes for a0 rounds and then traps (a1 0) or halts; the others go round their work, which visits
 * the watched labels (named watch_*). */
static const char program[] = "        .equ CR_CELL_ID, 0x07\n"
                              "        .equ CR_MARK, 0x13\n"
                              "        .text\n"
                              "_start: rdcr r10, [CR_CELL_ID]\n"
                              "        li   r9, 1\n"
                              "        bne  r10, r9, worker\n"
                              "2:      sub  a0, a0, 1\n"
                              "        bnez a0, 2b\n"
                              "        bnez a1, 3f\n"
                              "        trap 7\n"
                              "3:      halt\n"
                              "worker: li   r22, 6\n"
                              "watch_round:\n"
                              "        li   r12, 40\n"
                              "work:   add  r11, r11, r12\n"
                              "        xor  r13, r11, r12\n"
                              "        sub  r12, r12, 1\n"
                              "        bnez r12, work\n"
                              "watch_fall:\n"
                              "        add  r14, r14, 1\n"
                              "        call leaf\n"
                              "watch_ret:\n"
                              "        li   r15, 0x3000000\n"
                              "        or   r15, r15, r22\n"
                              "        wrcr r15, [CR_MARK]\n"
                              "watch_mark:\n"
                              "        li   r12, 3\n"
                              "watch_loop:\n"
                              "        add  r11, r11, 1\n"
                              "        sub  r12, r12, 1\n"
                              "        bnez r12, watch_loop\n"
                              "        sub  r22, r22, 1\n"
                              "        bnez r22, watch_round\n"
                              "        halt\n"
                              "leaf:   li   r16, 25\n"
                              "1:      mul  r17, r16, r16\n"
                              "        sub  r16, r16, 1\n"
                              "        bnez r16, 1b\n"
                              "        ret\n";

static const char *const labels[] = {"watch_round", "watch_fall", "watch_ret", "watch_mark", "watch_loop"};
enum { NLABELS = sizeof labels / sizeof labels[0], MAX_CELLS = 4, MAX_SEEN = 4096 };

/* What a cell was seen doing: an arrival (kind EMU_WATCH_ARRIVE, value the label) or a mark. */
typedef struct seen {
    uint64_t clock;
    emu_watch_kind_t kind;
    uint32_t value;
} seen_t;

typedef struct cell_seen {
    seen_t e[MAX_SEEN];
    unsigned n;
    uint32_t last_pc;
    uint64_t cr_writes;
} cell_seen_t;

typedef struct watcher {
    unsigned w, h;
    uint32_t pcs[NLABELS];
    cell_seen_t cells[MAX_CELLS];
} watcher_t;

static void note(cell_seen_t *c, uint64_t clock, emu_watch_kind_t kind, uint32_t value)
{
    assert_true(c->n < MAX_SEEN);
    c->e[c->n++] = (seen_t){clock, kind, value};
}

/* The reference: a hook after every clock. */
static bool look(void *user, emu_array_t *a, uint64_t clock)
{
    watcher_t *wt = user;
    for (unsigned i = 0; i < wt->w * wt->h; i++) {
        cell_seen_t *c = &wt->cells[i];
        const ca_t *ca = emu_array_ca(a, i % wt->w, i / wt->w);
        if (ca->s.pc != c->last_pc) {
            c->last_pc = ca->s.pc;
            for (unsigned k = 0; k < NLABELS; k++)
                if (ca->s.pc == wt->pcs[k])
                    note(c, clock, EMU_WATCH_ARRIVE, k);
        }
        if (ca->s.stats.cr_writes != c->cr_writes) {
            c->cr_writes = ca->s.stats.cr_writes;
            const uint32_t *marks;
            unsigned n = emu_array_marks(a, i % wt->w, i / wt->w, &marks);
            for (unsigned k = 0; k < n; k++)
                note(c, clock, EMU_WATCH_MARK, marks[k]);
        }
    }
    return false;
}

static void take(watcher_t *wt, emu_array_t *a)
{
    for (unsigned i = 0; i < wt->w * wt->h; i++) {
        const emu_watch_event_t *ev;
        unsigned n = emu_array_watch_take(a, i % wt->w, i / wt->w, &ev);
        for (unsigned k = 0; k < n; k++) {
            assert_int_not_equal(ev[k].kind, EMU_WATCH_GATES); /* the program moves no gate word */
            note(&wt->cells[i], ev[k].clock, ev[k].kind, ev[k].kind == EMU_WATCH_ARRIVE ? ev[k].pc : ev[k].mark);
        }
    }
}

/* A clock's arrival and mark in one order: a cell logs its bundle's mark first, a hook sees its pc first. */
static int by_clock(const void *pa, const void *pb)
{
    const seen_t *a = pa, *b = pb;
    if (a->clock != b->clock)
        return a->clock < b->clock ? -1 : 1;
    return (int)a->kind - (int)b->kind;
}

typedef struct outcome {
    emu_run_status_t status;
    uint64_t clock, hash, ahead;
} outcome_t;

/* Runs the program on a w x 1 array (cell 1 stopping after `rounds`, by a trap when `trap`), watched by a hook
 * (hooked) or by the cells (in slices of `slice` clocks, 0: one go, on `threads` threads). */
static outcome_t run(watcher_t *wt, const char *dir, unsigned w, uint32_t rounds, bool trap, bool hooked,
                     uint64_t slice, unsigned threads)
{
    char prog[256], desc[256], text[256];
    snprintf(prog, sizeof prog, "%s/watch.s", dir);
    snprintf(desc, sizeof desc, "%s/watch.run", dir);
    e2e_write_text(prog, program);
    snprintf(text, sizeof text, "array %ux1\nprogram p watch.s\ncells all p %u %u\n", w, rounds, trap ? 0u : 1u);
    e2e_write_text(desc, text);
    emu_machine_t m;
    emu_machine_defaults(&m);
    run_desc_t d;
    assert_int_equal(run_desc_parse_file(desc, &m, &d, stderr), 0);
    emu_array_t *a;
    static const char *const none[1] = {NULL};
    assert_int_equal(run_desc_build(&d, none, 0, none, 0, &a), 0);
    emu_array_set_output(a, NULL, NULL);
    emu_array_set_threads(a, threads);
    memset(wt, 0, sizeof *wt);
    wt->w = w;
    wt->h = 1;
    const ca_t *ca = emu_array_ca(a, 0, 0);
    for (unsigned k = 0; k < NLABELS; k++) {
        const isa_symbol_t *s = isa_image_symbol(&ca->prog->image, labels[k]);
        assert_non_null(s);
        wt->pcs[k] = s->value;
    }
    for (unsigned i = 0; i < w; i++)
        wt->cells[i].last_pc = emu_array_ca(a, i, 0)->s.pc;
    if (hooked)
        emu_array_set_hooks(a, &(emu_hooks_t){wt, NULL, look});
    else
        for (unsigned i = 0; i < w; i++)
            assert_int_equal(emu_array_watch(a, i, 0, wt->pcs, NLABELS), 0);
    emu_run_status_t st;
    do {
        uint64_t to = slice == 0 ? d.max_cycles : emu_array_clock(a) + slice;
        st = emu_array_run(a, to < d.max_cycles ? to : d.max_cycles);
        if (!hooked)
            take(wt, a);
    } while (st == EMU_RUN_LIMIT && emu_array_clock(a) < d.max_cycles);
    for (unsigned i = 0; i < w; i++)
        qsort(wt->cells[i].e, wt->cells[i].n, sizeof wt->cells[i].e[0], by_clock);
    outcome_t o = {st, emu_array_clock(a), emu_array_hash(a, true, true), emu_array_ahead_bundles(a)};
    emu_array_free(a);
    run_desc_free(&d);
    return o;
}

static void test_watch_sees_what_a_hook_sees(void **state)
{
    (void)state;
    char dir[64];
    assert_int_equal(test_dir_make(dir, sizeof dir, "iwarp-watch"), 0);
    static watcher_t hooked, watched;
    static const uint32_t rounds[] = {37, 150, 401, 902, 1333};
    static const struct {
        uint64_t slice;
        unsigned threads;
    } ways[] = {{0, 1}, {0, 2}, {61, 1}, {173, 2}};
    uint64_t ahead = 0;
    unsigned compared = 0;
    for (unsigned w = 2; w <= 3; w++)
        for (size_t r = 0; r < sizeof rounds / sizeof rounds[0]; r++)
            for (int trap = 0; trap <= 1; trap++) {
                outcome_t want = run(&hooked, dir, w, rounds[r], trap, true, 0, 1);
                assert_int_equal(want.status, trap ? EMU_RUN_FAULT : EMU_RUN_DONE);
                for (size_t k = 0; k < sizeof ways / sizeof ways[0]; k++) {
                    outcome_t got = run(&watched, dir, w, rounds[r], trap, false, ways[k].slice, ways[k].threads);
                    assert_int_equal(got.status, want.status);
                    assert_int_equal(got.clock, want.clock);
                    assert_int_equal(got.hash, want.hash);
                    ahead += got.ahead;
                    for (unsigned i = 0; i < w; i++) {
                        const cell_seen_t *h = &hooked.cells[i], *c = &watched.cells[i];
                        if (c->n != h->n || memcmp(c->e, h->e, h->n * sizeof h->e[0]) != 0)
                            fail_msg("%ux1, %u rounds%s, slice %llu on %u threads: cell %u logged %u events, a "
                                     "hook saw %u, or other ones",
                                     w, rounds[r], trap ? " and a trap" : "", (unsigned long long)ways[k].slice,
                                     ways[k].threads, i, c->n, h->n);
                        compared += h->n;
                    }
                }
            }
    assert_true(ahead > 0);
    assert_true(compared > 0);
    assert_int_equal(test_dir_remove(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_sees_what_a_hook_sees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
