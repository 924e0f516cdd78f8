/*
 * Results do not depend on the number of host threads (docs/network.md, "One clock of a cell"): the same
 * traffic on an 8x8 torus run with 1, 2 and 3 threads ends with the same status, the same cycle count and
 * the same hash of every cell's state, memory and statistics; deadlock reports and faults are the same too.
 */
#include "net_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iwarp_config.h"

enum { SIDE = 8 };

typedef struct outcome {
    emu_run_status_t status;
    uint64_t cycles, clock, hash;
    char report[1024]; /* the deadlock report or the first fault */
} outcome_t;

typedef void (*scenario_fn)(net_t *n, void *ctx);

static outcome_t run_with_threads(const emu_machine_t *m, scenario_fn load, void *ctx, unsigned threads)
{
    net_t n;
    net_init(&n, SIDE, SIDE);
    n.machine = *m;
    net_create(&n);
    emu_array_set_threads(n.array, threads);
    assert_int_equal(emu_array_threads(n.array), threads);
    load(&n, ctx);
    outcome_t o;
    memset(&o, 0, sizeof o);
    o.status = net_run(&n, NET_LIMIT);
    o.cycles = emu_array_cycles(n.array);
    o.clock = net_clock(&n);
    o.hash = emu_array_hash(n.array, true, true);
    unsigned x, y;
    if (o.status == EMU_RUN_DEADLOCK)
        snprintf(o.report, sizeof o.report, "%s", emu_array_deadlock(n.array));
    else if (emu_array_first_fault(n.array, &x, &y))
        emu_format_fault(n.array, x, y, o.report, sizeof o.report);
    net_free(&n);
    return o;
}

/* Runs the scenario with 1, 2 and 3 threads; returns the outcome of the single-threaded run. */
static outcome_t check_same_with_threads(const char *what, const emu_machine_t *m, scenario_fn load, void *ctx)
{
    outcome_t one = run_with_threads(m, load, ctx, 1);
    for (unsigned threads = 2; threads <= 3; threads++) {
        outcome_t many = run_with_threads(m, load, ctx, threads);
        if (many.status != one.status || many.cycles != one.cycles || many.clock != one.clock ||
            many.hash != one.hash || strcmp(many.report, one.report) != 0)
            fail_msg("%s: 1 thread: %s, %llu cycles, clock %llu, hash %016llx; %u threads: %s, %llu cycles, clock "
                     "%llu, hash %016llx\n%s\n---\n%s",
                     what, emu_run_status_name(one.status), (unsigned long long)one.cycles,
                     (unsigned long long)one.clock, (unsigned long long)one.hash, threads,
                     emu_run_status_name(many.status), (unsigned long long)many.cycles, (unsigned long long)many.clock,
                     (unsigned long long)many.hash, one.report, many.report);
    }
    return one;
}

static void load_traffic(net_t *n, void *ctx)
{
    net_traffic_load(ctx, n);
}

static void check_traffic(bool spools)
{
    unsigned nseeds = net_quick() ? 1 : 4, max_words = net_quick() ? 40 : 200;
    for (unsigned k = 0; k < nseeds; k++) {
        net_traffic_t t;
        net_traffic_make(&t, 9000 + k, SIDE, SIDE, spools, max_words);
        net_t n;
        net_traffic_machine(&t, &n);
        char what[64];
        snprintf(what, sizeof what, "random %s traffic, seed %u", spools ? "spool" : "gate", 9000 + k);
        outcome_t o = check_same_with_threads(what, &n.machine, load_traffic, &t);
        assert_int_equal(o.status, EMU_RUN_DONE);
        net_traffic_free(&t);
    }
}

static void test_random_gate_traffic_is_the_same_with_1_2_and_3_threads(void **state)
{
    (void)state;
    check_traffic(false);
}

static void test_random_spool_traffic_is_the_same_with_1_2_and_3_threads(void **state)
{
    (void)state;
    check_traffic(true);
}

/* programs/bench/stream.s: every link of the array busy at once, gates and spools. */
static void load_bench_stream(net_t *n, void *ctx)
{
    (void)ctx;
    static const char path[] = IWARP_SOURCE_ROOT "/programs/bench/stream.s";
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    net_text_t src;
    net_text_init(&src);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
        chunk[got] = '\0';
        net_textf(&src, "%s", chunk);
    }
    fclose(f);
    const emu_program_t *p = net_asm(n, src.buf);
    net_text_free(&src);
    uint32_t words = net_quick() ? 40 : 400;
    net_load_all(n, p, &words, 1);
}

static void test_every_link_streaming_is_the_same_with_1_2_and_3_threads(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, SIDE, SIDE);
    outcome_t o = check_same_with_threads("programs/bench/stream.s", &n.machine, load_bench_stream, NULL);
    assert_int_equal(o.status, EMU_RUN_DONE);
}

/* Rings of four cells streaming to each other without reading, in several places of the array. */
static void load_deadlock(net_t *n, void *ctx)
{
    (void)ctx;
    for (unsigned ring = 0; ring < 3; ring++) {
        unsigned y = 2 * ring + 1;
        for (unsigned x = 0; x < 4; x++) {
            const emu_program_t *p = net_asmf(n,
                                              "        .include \"net.inc\"\n"
                                              "_start: expect 0\n"
                                              "        delay %u\n"
                                              "        open 0\n"
                                              "        sign 0, %u, %u, DIR_PX\n"
                                              "        sign 0, %u, %u, SIGN_GATE, 0\n"
                                              "        li   r3, 100\n"
                                              "1:      { mov go0, r3 ; loop r3, 1b }\n"
                                              "        halt\n",
                                              1 + 17 * ring + 3 * x, 2 * x, y, (2 * x + 2) % SIDE, y);
            net_load(n, 2 * x, y, p, NULL, 0);
        }
    }
}

static void test_a_deadlock_and_its_report_are_the_same_with_1_2_and_3_threads(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, SIDE, SIDE);
    net_set(&n, "queue_depth", "%u", 2);
    net_set(&n, "deadlock_clocks", "%u", 500);
    outcome_t o = check_same_with_threads("rings in deadlock", &n.machine, load_deadlock, NULL);
    assert_int_equal(o.status, EMU_RUN_DEADLOCK);
    net_expect_contains(o.report, "wait cycle:");
}

/* Traffic everywhere, and one cell that sends a data word with no street sign after a while. */
static void load_fault(net_t *n, void *ctx)
{
    load_traffic(n, ctx);
    const emu_program_t *p = net_asm(n, "        .include \"net.inc\"\n"
                                        "_start: delay 150\n"
                                        "        li   r5, 5\n"
                                        "        wrcr r5, [COA_GATE_OUT1]\n"
                                        "        mov  go1, r5\n"
                                        "        delay 100\n"
                                        "        halt\n");
    /* a cell the traffic leaves alone */
    net_traffic_t *t = ctx;
    for (unsigned cell = 0; cell < SIDE * SIDE; cell++)
        if (t->progs[cell] == NULL) {
            net_load(n, cell % SIDE, cell / SIDE, p, NULL, 0);
            return;
        }
    fail_msg("every cell takes part in the traffic");
}

static void test_a_network_fault_is_the_same_with_1_2_and_3_threads(void **state)
{
    (void)state;
    net_traffic_t t;
    net_traffic_make(&t, 77, SIDE, SIDE, false, net_quick() ? 40 : 300);
    net_t n;
    net_traffic_machine(&t, &n);
    outcome_t o = check_same_with_threads("a fault amid traffic", &n.machine, load_fault, &t);
    assert_int_equal(o.status, EMU_RUN_FAULT);
    net_expect_contains(o.report, "missing street sign");
    net_traffic_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_gate_traffic_is_the_same_with_1_2_and_3_threads),
        cmocka_unit_test(test_random_spool_traffic_is_the_same_with_1_2_and_3_threads),
        cmocka_unit_test(test_every_link_streaming_is_the_same_with_1_2_and_3_threads),
        cmocka_unit_test(test_a_deadlock_and_its_report_are_the_same_with_1_2_and_3_threads),
        cmocka_unit_test(test_a_network_fault_is_the_same_with_1_2_and_3_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
