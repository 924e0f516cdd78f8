/*
 * Cells driven by a host-side core in place of their CA (emu/drive.h, the way `iwarp traffic` runs): every
 * cell's core is called at every clock, after its arrivals and before its agent's clock, on any number of
 * threads; a fault it leaves raised stops the run on that cell as a CA's network fault does.
 */
#include "net_harness.h"

#include "coa_gate.h"

#include <stdio.h>
#include <string.h>

enum { CELLS = 6, CLOCKS = 100 };

typedef struct watch {
    uint64_t steps[CELLS], afters[CELLS];
    uint64_t step_at[CELLS];
    unsigned out_of_order;
    bool send_bad_sign; /* cell 0 sends a header whose sign ends at a gate cell 1 does not have */
} watch_t;

static void watch_step(void *user, unsigned cell, coa_t *agent, uint64_t now)
{
    watch_t *w = user;
    if (w->steps[cell] != now)
        w->out_of_order++; /* a clock skipped or run twice */
    w->steps[cell]++;
    w->step_at[cell] = now;
    if (w->send_bad_sign && cell == 0 && now == 0) {
        uint32_t lc;
        assert_int_equal(coa_cr_read(agent, COA_CR_ALLOC, &lc, now), 0);
        assert_int_equal(coa_cr_write(agent, COA_CR_GATE_OUT0, lc, now), 0);
        const coa_sign_t turn = {.x = 0, .y = 0, .action = COA_SIGN_PX};
        coa_cr_write(agent, COA_CR_TAG_NEXT, 1u, now);
        coa_gate_out_push(agent, 0, coa_sign_encode(&turn), now);
    } else if (w->send_bad_sign && cell == 0 && now == 1) {
        const coa_sign_t end = {.x = 1, .y = 0, .action = COA_SIGN_GATE, .sink = 7};
        coa_cr_write(agent, COA_CR_TAG_NEXT, 1u, now);
        coa_gate_out_push(agent, 0, coa_sign_encode(&end), now);
    }
}

static void watch_after(void *user, unsigned cell, coa_t *agent, uint64_t now)
{
    (void)agent;
    watch_t *w = user;
    if (w->step_at[cell] != now || w->afters[cell] + 1 != w->steps[cell])
        w->out_of_order++;
    w->afters[cell]++;
}

static void watch_clock(void *user, emu_drive_span_t *span, uint64_t now)
{
    emu_drive_cells(span, now, user, watch_step, watch_after);
}

static emu_run_status_t drive(watch_t *w, unsigned threads, net_t *n)
{
    net_init(n, 3, 2);
    net_create(n);
    emu_array_set_threads(n->array, threads);
    emu_array_set_driver(n->array, &(emu_driver_t){.user = w, .clock = watch_clock});
    return net_run(n, CLOCKS);
}

static void test_every_cell_every_clock(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 3; threads++) {
        watch_t w;
        memset(&w, 0, sizeof w);
        net_t n;
        assert_int_equal(drive(&w, threads, &n), EMU_RUN_LIMIT);
        assert_int_equal(net_clock(&n), CLOCKS);
        for (unsigned i = 0; i < CELLS; i++) {
            assert_int_equal(w.steps[i], CLOCKS);
            assert_int_equal(w.afters[i], CLOCKS);
        }
        assert_int_equal(w.out_of_order, 0);
        net_free(&n);
    }
}

static void test_fault_stops_the_run(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++) {
        watch_t w;
        memset(&w, 0, sizeof w);
        w.send_bad_sign = true;
        net_t n;
        assert_int_equal(drive(&w, threads, &n), EMU_RUN_FAULT);
        unsigned x, y;
        assert_true(emu_array_first_fault(n.array, &x, &y));
        assert_int_equal(x, 1);
        assert_int_equal(y, 0);
        char text[512];
        emu_format_fault(n.array, x, y, text, sizeof text);
        print_message("%s\n", text);
        net_expect_contains(text, "gate 7, which does not exist");
        /* The run stopped at the clock the header reached cell 1, well before its limit. */
        assert_true(w.steps[1] < 20);
        net_free(&n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cell_every_clock),
        cmocka_unit_test(test_fault_stops_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
