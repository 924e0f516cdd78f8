/*
 * Network faults (docs/network.md, "Faults", and docs/isa.md for gates): a malformed use of the network stops
 * the run with status fault and a report naming the cell, the pc and the channel; the host never crashes.
 */
#include "net_harness.h"

#include <stdio.h>
#include <string.h>

/* Runs src0 on cell (0,0) and src1 on (1,0) of a 2x1 array (NULL: no program); fails with `what` and the
 * state of the run unless it stopped with a fault. Returns the faulting cell's x and its report. */
static unsigned run_to_fault(const char *what, const char *src0, const char *src1, char *text, size_t cap)
{
    net_t n;
    net_init(&n, 2, 1);
    net_create(&n);
    const char *const srcs[2] = {src0, src1};
    const emu_program_t *progs[2] = {NULL, NULL};
    for (unsigned x = 0; x < 2; x++)
        if (srcs[x] != NULL) {
            progs[x] = net_asm(&n, srcs[x]);
            net_load(&n, x, 0, progs[x], NULL, 0);
        }
    net_run(&n, NET_LIMIT);
    unsigned x, y;
    if (n.status != EMU_RUN_FAULT || !emu_array_first_fault(n.array, &x, &y)) {
        const coa_t *c = net_coa(&n, 0, 0);
        net_print_state(&n);
        fail_msg("%s: the run ended %s; (0,0) channel 0 is %s and holds %u words", what, emu_run_status_name(n.status),
                 coa_lc_state_name((coa_lc_state_t)c->lc[0].state), c->lc[0].count);
    }
    emu_format_fault(n.array, x, y, text, cap);
    print_message("%s\n", text);
    /* The report names the cell, and, where the CA ran the program of the faulting cell, a pc between the
     * labels `bad` and `after` (the offending bundle or the next one) with its source line. */
    char cell[32];
    snprintf(cell, sizeof cell, "cell (%u,0) pc 0x", x);
    net_expect_contains(text, cell);
    const emu_program_t *fp = progs[x];
    if (fp != NULL && isa_image_symbol(&fp->image, "bad") != NULL) {
        net_expect_contains(text, "net_test.s:");
        uint32_t pc = net_ca(&n, x, y)->s.fault.pc;
        if (pc < net_symbol(fp, "bad") || pc > net_symbol(fp, "after"))
            fail_msg("the fault names pc 0x%x, not the offending bundle (0x%x) or the next one (0x%x)", pc,
                     net_symbol(fp, "bad"), net_symbol(fp, "after"));
    }
    net_free(&n);
    return x;
}

/* Expects a fault of `kind` at cell (fx, 0) whose report contains each of `needles` (NULL-terminated). */
static void expect_fault(const char *src0, const char *src1, unsigned fx, emu_fault_kind_t kind,
                         const char *const *needles)
{
    char text[512];
    unsigned x = run_to_fault(emu_fault_kind_name(kind), src0, src1, text, sizeof text);
    assert_int_equal(x, fx);
    char kind_text[64];
    snprintf(kind_text, sizeof kind_text, ": %s", emu_fault_kind_name(kind));
    net_expect_contains(text, kind_text);
    for (; *needles != NULL; needles++)
        net_expect_contains(text, *needles);
}

#define NEEDLES(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_data_without_a_street_sign_faults_naming_the_channel(void **state)
{
    (void)state;
    expect_fault("        .include \"net.inc\"\n"
                 "_start: li   r5, 3\n"
                 "        wrcr r5, [COA_GATE_OUT0]\n" /* channel 3, state header */
                 "        li   r6, 0x1234\n"
                 "bad:    mov  go0, r6\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("network fault", "channel 3", "street sign", "0x1234"));
}

static void test_a_tagged_word_that_is_not_a_sign_at_a_header_faults(void **state)
{
    (void)state;
    /* a word of kind 3 */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        li   r21, 1\n"
                 "        wrcr r21, [COA_TAG_NEXT]\n"
                 "        li   r22, 0x30000005\n"
                 "bad:    mov  go0, r22\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("channel 0", "not a street sign", "0x30000005"));
    /* a trailer where the first sign is due */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        li   r21, 1\n"
                 "        wrcr r21, [COA_TAG_NEXT]\n"
                 "        li   r22, TRAILER_KIND\n"
                 "bad:    mov  go0, r22\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("channel 0", "not a street sign"));
    /* a sign with its reserved low bits set */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        li   r21, 1\n"
                 "        wrcr r21, [COA_TAG_NEXT]\n"
                 "        li   r22, SIGN_KIND | (1 << 15) | 1\n"
                 "bad:    mov  go0, r22\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("channel 0", "not a street sign"));
}

static void test_reading_or_writing_an_unbound_gate_faults(void **state)
{
    (void)state;
    expect_fault("        .include \"net.inc\"\n"
                 "_start: nop\n"
                 "bad:    add  r5, r5, gi0\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_UNBOUND_GATE, NEEDLES("gi0"));
    expect_fault("        .include \"net.inc\"\n"
                 "_start: nop\n"
                 "bad:    mov  go1, r5\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_UNBOUND_GATE, NEEDLES("go1"));
    /* unbound again after the trailer: the program may not write on */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        sign 0, 0, 0, DIR_PX\n"
                 "        sign 0, 1, 0, SIGN_GATE, 0\n"
                 "        trailer 0\n"
                 "bad:    mov  go0, r5\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_UNBOUND_GATE, NEEDLES("go0"));
}

/* (1,0) binds gi0 to its channel 2 itself; a pathway whose last sign ends at gi0 arrives there. */
static const char bound_receiver[] = "        .include \"net.inc\"\n"
                                     "_start: li   r5, 2\n"
                                     "        wrcr r5, [COA_GATE_IN0]\n"
                                     "bad:    delay 200\n"
                                     "after:  halt\n";
static const char sender_to_gi0[] = "        .include \"net.inc\"\n"
                                    "_start: open 0\n"
                                    "        sign 0, 0, 0, DIR_PX\n"
                                    "        sign 0, 1, 0, SIGN_GATE, 0\n"
                                    "        mov  go0, r5\n"
                                    "        trailer 0\n"
                                    "        delay 300\n" /* the run goes on while the header arrives */
                                    "        halt\n";

static void test_a_sign_ending_at_a_gate_bound_to_another_channel_faults(void **state)
{
    (void)state;
    expect_fault(sender_to_gi0, bound_receiver, 1, EMU_FAULT_NETWORK,
                 NEEDLES("gi0", "bound to channel 2", "channel 8"));
}

/* The same when the destination's CA has already halted (the run goes on: the sender still runs): the
 * agent still faults the run. */
static void test_a_sign_ending_at_a_bound_gate_faults_even_after_the_cell_halted(void **state)
{
    (void)state;
    expect_fault(sender_to_gi0,
                 "        .include \"net.inc\"\n"
                 "_start: li   r5, 2\n"
                 "        wrcr r5, [COA_GATE_IN0]\n"
                 "        halt\n",
                 1, EMU_FAULT_NETWORK, NEEDLES("bound to channel 2"));
}

/* A pathway to a cell that runs no program, ending at a gate that does not exist (the sender runs on). */
static void test_a_sign_naming_a_missing_gate_faults_at_a_cell_without_a_program(void **state)
{
    (void)state;
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        sign 0, 0, 0, DIR_PX\n"
                 "        sign 0, 1, 0, SIGN_GATE, 5\n"
                 "        trailer 0\n"
                 "        delay 300\n"
                 "        halt\n",
                 NULL, 1, EMU_FAULT_NETWORK, NEEDLES("gate 5"));
}

/* A pathway from a cell to its own gate keeps everything in one queue: a word written after the trailer
 * (through go0 bound again) is behind it when the sink consumes it. */
static void test_words_after_a_trailer_fault(void **state)
{
    (void)state;
    expect_fault("        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        sign 0, 0, 0, SIGN_GATE, 1\n"
                 "        mov  go0, r5\n"
                 "        li   r21, 1\n"
                 "        wrcr r21, [COA_TAG_NEXT]\n"
                 "        li   r22, TRAILER_KIND\n"
                 "        { mov go0, r22 ; mov r23, r20 }\n"
                 "        wrcr r23, [COA_GATE_OUT0]\n"
                 "        mov  go0, r5\n"
                 "bad:    mov  r6, gi1\n"
                 "        delay 20\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("channel 0", "trailer"));
}

/* The same over a link: the word written behind the trailer may not be stranded in a channel that the
 * trailer freed; the run must fault. */
static void test_words_after_a_trailer_over_a_link_fault(void **state)
{
    (void)state;
    char text[512];
    run_to_fault("a data word written behind a trailer",
                 "        .include \"net.inc\"\n"
                 "_start: open 0\n"
                 "        sign 0, 0, 0, DIR_PX\n"
                 "        sign 0, 1, 0, SIGN_GATE, 0\n"
                 "        li   r3, 20\n" /* more than the two queues hold: the trailer waits */
                 "1:      { mov go0, r3 ; loop r3, 1b }\n"
                 "        trailer 0\n"
                 "        wrcr r20, [COA_GATE_OUT0]\n"
                 "        mov  go0, r5\n"
                 "        halt\n",
                 "        .include \"net.inc\"\n"
                 "_start: expect 0\n"
                 "        delay 200\n"
                 "        li   r3, 20\n"
                 "1:      { add r6, r6, gi0 ; loop r3, 1b }\n"
                 "        delay 200\n"
                 "        halt\n",
                 text, sizeof text);
    net_expect_contains(text, "network fault");
    net_expect_contains(text, "trailer");
}

static void test_a_spool_address_outside_memory_faults(void **state)
{
    (void)state;
    /* sending from past the end of memory */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: rdcr r5, [COA_ALLOC]\n"
                 "        wrcr r5, [COA_SPOOL + SPOOL_LC]\n"
                 "        rdcr r6, [CR_MEM_BYTES]\n"
                 "        wrcr r6, [COA_SPOOL + SPOOL_ADDR]\n"
                 "        spool_set 0, SPOOL_STRIDE, 4\n"
                 "        spool_set 0, SPOOL_COUNT, 3\n"
                 "        spool_set 0, SPOOL_CTRL, SPOOL_SEND\n"
                 "bad:    delay 20\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("spool 0", "outside memory"));
    /* receiving into the null page */
    expect_fault("        .include \"net.inc\"\n"
                 "_start: spool_set 4, SPOOL_ADDR, 0x10\n"
                 "        spool_set 4, SPOOL_STRIDE, 4\n"
                 "        spool_set 4, SPOOL_COUNT, 3\n"
                 "        spool_set 4, SPOOL_CTRL, SPOOL_RECEIVE\n"
                 "        open 0\n"
                 "        sign 0, 0, 0, SIGN_SPOOL, 4\n"
                 "        mov  go0, r5\n"
                 "bad:    delay 20\n"
                 "after:  halt\n",
                 NULL, 0, EMU_FAULT_NETWORK, NEEDLES("spool 4", "0x10"));
}

/* A channel's SOURCE naming a neighbour channel that does not exist: the credit its words return must not
 * reach outside the neighbour's channels. Either the write (or the pattern) is refused or the run faults;
 * never a corrupted neighbour. Set through the channel's SOURCE register, then through a loaded pattern. */
static void test_a_source_naming_a_missing_neighbour_channel_cannot_corrupt_the_neighbour(void **state)
{
    (void)state;
    static const unsigned bad_index[] = {200, 64, 63, 20};
    static const char *const ways[] = {
        /* channel 3 -> gi0, go0 -> channel 3, one word in, then SOURCE = link +X channel INDEX */
        "        li   r5, (END_GATE << 12) | 0\n"
        "        wrcr r5, [COA_LC + 3 * 8 + LC_ROUTE]\n"
        "        li   r5, 3\n"
        "        wrcr r5, [COA_GATE_OUT0]\n"
        "        mov  go0, r5\n"
        "        li   r5, (END_LINK << 12) | (DIR_PX << 8) | INDEX\n"
        "        wrcr r5, [COA_LC + 3 * 8 + LC_SOURCE]\n",
        /* the same channel set up by a pattern (route gi0, source link +X channel INDEX), then a word in */
        "        li   r5, pattern\n"
        "        wrcr r5, [COA_LOAD]\n"
        "        delay 10\n"
        "        li   r5, 3\n"
        "        wrcr r5, [COA_GATE_OUT0]\n"
        "        mov  go0, r5\n",
    };
    for (unsigned w = 0; w < sizeof ways / sizeof ways[0]; w++)
        for (unsigned i = 0; i < sizeof bad_index / sizeof bad_index[0]; i++) {
            char src[2048], what[128], text[512];
            snprintf(src, sizeof src,
                     "        .include \"net.inc\"\n"
                     "        .equ INDEX, %u\n"
                     "_start:\n%s"
                     "        mov  r6, gi0\n" /* pops the word: a credit goes to +X */
                     "        delay 10\n"
                     "        halt\n"
                     "        .data\n"
                     "pattern: .word 1, 3, (END_GATE << 12) | 0, (END_LINK << 12) | (DIR_PX << 8) | INDEX, 0\n",
                     bad_index[i], ways[w]);
            snprintf(what, sizeof what, "%s: source = link +X channel %u (the neighbour has fewer)",
                     w == 0 ? "SOURCE register" : "pattern", bad_index[i]);
            run_to_fault(what, src, NULL, text, sizeof text);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_without_a_street_sign_faults_naming_the_channel),
        cmocka_unit_test(test_a_tagged_word_that_is_not_a_sign_at_a_header_faults),
        cmocka_unit_test(test_reading_or_writing_an_unbound_gate_faults),
        cmocka_unit_test(test_a_sign_ending_at_a_gate_bound_to_another_channel_faults),
        cmocka_unit_test(test_a_sign_ending_at_a_bound_gate_faults_even_after_the_cell_halted),
        cmocka_unit_test(test_a_sign_naming_a_missing_gate_faults_at_a_cell_without_a_program),
        cmocka_unit_test(test_words_after_a_trailer_fault),
        cmocka_unit_test(test_words_after_a_trailer_over_a_link_fault),
        cmocka_unit_test(test_a_spool_address_outside_memory_faults),
        cmocka_unit_test(test_a_source_naming_a_missing_neighbour_channel_cannot_corrupt_the_neighbour),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
