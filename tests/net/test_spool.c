/*
 * Spools (docs/network.md, "Spools"): sending (memory to channel) and receiving (channel to memory) from
 * ADDR, COUNT words, STRIDE bytes apart (contiguous, strided, backwards); TAG_HEAD / TAG_TAIL let one spool
 * send a whole message (signs, data, trailer); STATUS bit 0 done, bit 1 a receive ended early by a trailer;
 * and the memory rule: one word access per clock, the CA first, so two spools on an idle CA sustain a link
 * in and a link out at full rate, and about one link's worth when the CA does nothing but single loads.
 */
#include "net_harness.h"

#include <stdio.h>
#include <stdlib.h>

enum { W = 4, H = 4, AREA_PAD = 32, TRAILER_USER = 9, RECV_SPOOL = 2 };

static uint32_t data_word(unsigned i)
{
    return 0x5000 + i * 3;
}

/* The sender lays the message (its signs, nwords data words, a trailer) out in memory `stride` bytes apart
 * (backwards from the top for a negative stride), then one spool sends it all: the first nsigns words and
 * the last go tagged. */
static const emu_program_t *strided_sender(net_t *n, const net_route_t *r, unsigned nwords, int stride)
{
    unsigned count = r->nsigns + nwords + 1, step = (unsigned)abs(stride);
    net_text_t t;
    net_text_init(&t);
    net_textf(&t,
              "        .include \"net.inc\"\n"
              "        .equ COUNT, %u\n"
              "        .equ BASE, area + %u\n"
              "_start: la   r7, msg\n"
              "        li   r8, BASE\n"
              "        li   r3, COUNT\n"
              "1:      ldw  r6, [r7]\n"
              "        stw  r6, [r8]\n"
              "        { add r7, r7, 4 ; add r8, r8, %d ; loop r3, 1b }\n"
              "        rdcr r20, [COA_ALLOC]\n"
              "        wrcr r20, [COA_SPOOL + SPOOL_LC]\n"
              "        spool_set 0, SPOOL_ADDR, BASE\n"
              "        spool_set 0, SPOOL_STRIDE, %d\n"
              "        spool_set 0, SPOOL_COUNT, COUNT\n"
              "        spool_set 0, SPOOL_TAG_HEAD, %u\n"
              "        spool_set 0, SPOOL_TAG_TAIL, 1\n"
              "        spool_set 0, SPOOL_CTRL, SPOOL_SEND\n"
              "        spool_wait 0, a0\n"
              "        rdcr a1, [COA_SPOOL + SPOOL_COUNT]\n"
              "        halt\n"
              "        .data\n"
              "msg:\n",
              count, AREA_PAD + (stride < 0 ? step * (count - 1) : 0), stride, stride, r->nsigns);
    for (unsigned i = 0; i < r->nsigns; i++)
        net_textf(&t, "        .word 0x%08x\n", r->signs[i]);
    for (unsigned i = 0; i < nwords; i++)
        net_textf(&t, "        .word 0x%x\n", data_word(i));
    net_textf(&t,
              "        .word TRAILER_KIND | %u\n"
              "        .bss\n"
              "area:   .space %u\n",
              (unsigned)TRAILER_USER, step * count + 2 * AREA_PAD);
    const emu_program_t *p = net_asm(n, t.buf);
    net_text_free(&t);
    return p;
}

typedef struct recv_result {
    uint32_t status_running; /* STATUS read right after the start */
    uint32_t status, left, addr;
} recv_result_t;

/* Receives into `area` with a spool that takes the pathway ending at it (LC = ~0). */
static const emu_program_t *strided_receiver(net_t *n, unsigned count, int stride, uint32_t *base_offset,
                                             unsigned *area_bytes)
{
    unsigned step = (unsigned)abs(stride);
    *base_offset = AREA_PAD + (stride < 0 ? step * (count - 1) : 0);
    *area_bytes = step * count + 2 * AREA_PAD;
    return net_asmf(n,
                    "        .include \"net.inc\"\n"
                    "_start: spool_set %u, SPOOL_ADDR, area + %u\n"
                    "        spool_set %u, SPOOL_STRIDE, %d\n"
                    "        spool_set %u, SPOOL_COUNT, %u\n"
                    "        spool_set %u, SPOOL_CTRL, SPOOL_RECEIVE\n"
                    "        rdcr r25, [COA_SPOOL + %u * 8 + SPOOL_STATUS]\n"
                    "        spool_wait %u, a0\n"
                    "        rdcr a1, [COA_SPOOL + %u * 8 + SPOOL_COUNT]\n"
                    "        rdcr a2, [COA_SPOOL + %u * 8 + SPOOL_ADDR]\n"
                    "        halt\n"
                    "        .bss\n"
                    "area:   .space %u\n",
                    RECV_SPOOL, *base_offset, RECV_SPOOL, stride, RECV_SPOOL, count, RECV_SPOOL, RECV_SPOOL, RECV_SPOOL,
                    RECV_SPOOL, RECV_SPOOL, *area_bytes);
}

/* Sends nwords with a send stride into a receive of `count` words with a receive stride; checks every word
 * of the receiving area (data where the stride puts it, zero elsewhere) and the spools' registers. */
static recv_result_t check_transfer(unsigned nwords, int send_stride, unsigned count, int recv_stride)
{
    net_t n;
    net_init(&n, W, H);
    net_create(&n);
    net_route_t r;
    net_leg_t legs[] = {{COA_DIR_PX, 2}, {COA_DIR_PY, 1}};
    net_route_walk(&r, W, H, 0, 0, legs, 2, COA_SIGN_SPOOL, RECV_SPOOL, false);
    uint32_t base_offset;
    unsigned area_bytes;
    const emu_program_t *rp = strided_receiver(&n, count, recv_stride, &base_offset, &area_bytes);
    net_load(&n, r.sx, r.sy, strided_sender(&n, &r, nwords, send_stride), NULL, 0);
    net_load(&n, r.dx, r.dy, rp, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    assert_int_equal(net_a0(&n, r.sx, r.sy), COA_SPOOL_DONE); /* the send finished its count */
    assert_int_equal(net_reg(&n, r.sx, r.sy, 4), 0);

    uint32_t area = net_symbol(rp, "area"), base = area + base_offset;
    for (uint32_t off = 0; off < area_bytes; off += 4) {
        uint32_t addr = area + off, want = 0;
        int64_t delta = (int64_t)addr - base;
        if (delta % recv_stride == 0 && delta / recv_stride >= 0 && delta / recv_stride < nwords)
            want = data_word((unsigned)(delta / recv_stride));
        uint32_t got = net_mem32(&n, r.dx, r.dy, addr);
        if (got != want)
            fail_msg("send stride %d, receive stride %d, %u words into %u: 0x%x holds 0x%x, not 0x%x", send_stride,
                     recv_stride, nwords, count, addr, got, want);
    }
    recv_result_t res = {
        .status_running = net_reg(&n, r.dx, r.dy, 25),
        .status = net_a0(&n, r.dx, r.dy),
        .left = net_reg(&n, r.dx, r.dy, 4),
        .addr = net_reg(&n, r.dx, r.dy, 5),
    };
    assert_int_equal(res.addr, base + (uint32_t)(recv_stride * (int)nwords));
    net_free(&n);
    return res;
}

static void test_contiguous_spool_send_and_receive_land_every_word_in_place(void **state)
{
    (void)state;
    recv_result_t res = check_transfer(50, 4, 50, 4);
    assert_int_equal(res.status_running, 0);
    assert_int_equal(res.status, COA_SPOOL_DONE);
    assert_int_equal(res.left, 0);
}

static void test_strided_sends_and_receives_walk_forwards_and_backwards(void **state)
{
    (void)state;
    static const int strides[][2] = {{12, 4}, {-4, 4}, {-20, 8}, {4, 8}, {4, -4}, {8, -12}, {-8, -16}, {16, 16}};
    for (unsigned i = 0; i < sizeof strides / sizeof strides[0]; i++) {
        recv_result_t res = check_transfer(37, strides[i][0], 37, strides[i][1]);
        assert_int_equal(res.status, COA_SPOOL_DONE);
        assert_int_equal(res.left, 0);
    }
}

static void test_a_trailer_ends_a_receive_early_and_sets_status_bit_1(void **state)
{
    (void)state;
    recv_result_t res = check_transfer(20, 4, 30, 4);
    assert_int_equal(res.status, COA_SPOOL_DONE | COA_SPOOL_TRAILER);
    assert_int_equal(res.left, 10);
    res = check_transfer(20, -8, 25, -4);
    assert_int_equal(res.status, COA_SPOOL_DONE | COA_SPOOL_TRAILER);
    assert_int_equal(res.left, 5);
    /* a message with no data at all */
    res = check_transfer(0, 4, 3, 4);
    assert_int_equal(res.status, COA_SPOOL_DONE | COA_SPOOL_TRAILER);
    assert_int_equal(res.left, 3);
}

/* --- the memory rule --- */

enum { MR_WORDS = 400 };

/* Records the clock at which spool 1 of (1,0) and of (2,0) finished; holds once both have. */
static bool both_receives_done(const net_t *n, void *user)
{
    uint64_t *done = user;
    for (unsigned x = 1; x <= 2; x++)
        if (done[x - 1] == 0 && (net_coa(n, x, 0)->spool[1].status & COA_SPOOL_DONE) != 0)
            done[x - 1] = net_clock(n) - 1;
    return done[0] != 0 && done[1] != 0;
}

/* (0,0) streams MR_WORDS from a spool to (1,0); (1,0) receives them with a spool and at the same time
 * streams MR_WORDS of its own from another spool to (2,0), which receives them. `middle_ca` is what the CA
 * of (1,0) does meanwhile. Returns the clocks each stream took, from its spool's start to the clock its
 * receiving spool finished (b_in: into (1,0), b_out: out of (1,0)). */
static void run_memory_rule(const char *middle_ca, uint64_t *b_in, uint64_t *b_out)
{
    net_t n;
    net_init(&n, 4, 1);
    net_create(&n);
    /* a0 = the clock the send started; spool s sends the message at msg to (dst, 0) spool 1 */
    static const char sender_part[] = "        rdcr r20, [COA_ALLOC]\n"
                                      "        wrcr r20, [COA_SPOOL + 0 * 8 + SPOOL_LC]\n"
                                      "        spool_set 0, SPOOL_ADDR, msg\n"
                                      "        spool_set 0, SPOOL_STRIDE, 4\n"
                                      "        spool_set 0, SPOOL_COUNT, (msg_end - msg) / 4\n"
                                      "        spool_set 0, SPOOL_TAG_HEAD, 2\n"
                                      "        spool_set 0, SPOOL_TAG_TAIL, 1\n"
                                      "        li   r5, SPOOL_SEND\n"
                                      "        { wrcr r5, [COA_SPOOL + 0 * 8 + SPOOL_CTRL] }\n"
                                      "        rdcr r26, [CR_CLOCK_LO]\n";
    static const char receiver_part[] = "        spool_set 1, SPOOL_ADDR, rbuf\n"
                                        "        spool_set 1, SPOOL_STRIDE, 4\n"
                                        "        spool_set 1, SPOOL_COUNT, WORDS\n"
                                        "        spool_set 1, SPOOL_CTRL, SPOOL_RECEIVE\n";
    static const char fmt[] = "        .include \"net.inc\"\n"
                              "        .equ WORDS, %u\n"
                              "_start:\n%s%s%s"
                              "%s"
                              "        halt\n"
                              "        .data\n"
                              "msg:    .word 0x%08x, 0x%08x\n"
                              "        .space WORDS * 4, 0x11\n"
                              "        .word TRAILER_KIND\n"
                              "msg_end:\n"
                              "        .bss\n"
                              "rbuf:   .space WORDS * 4\n";
    static const char wait_in[] = "        spool_wait 1, r5\n";
    static const char wait_out[] = "        spool_wait 0, r5\n";
    /* (0,0): send only; (1,0): receive, send, the CA's work, wait for both; (2,0): receive only */
    net_load(&n, 0, 0,
             net_asmf(&n, fmt, (unsigned)MR_WORDS, "", sender_part, "", wait_out, net_sign(0, 0, COA_SIGN_PX, 0),
                      net_sign(1, 0, COA_SIGN_SPOOL, 1)),
             NULL, 0);
    char middle[1024];
    snprintf(middle, sizeof middle, "%s%s%s", middle_ca, wait_in, wait_out);
    net_load(&n, 1, 0,
             net_asmf(&n, fmt, (unsigned)MR_WORDS, receiver_part, "        delay 30\n", sender_part, middle,
                      net_sign(1, 0, COA_SIGN_PX, 0), net_sign(2, 0, COA_SIGN_SPOOL, 1)),
             NULL, 0);
    net_load(&n, 2, 0,
             net_asmf(&n, fmt, (unsigned)MR_WORDS, receiver_part, "", "", wait_in, net_sign(2, 0, COA_SIGN_PX, 0),
                      net_sign(3, 0, COA_SIGN_SPOOL, 1)),
             NULL, 0);
    uint64_t done[2] = {0, 0};
    assert_true(net_run_until(&n, 100000, both_receives_done, done));
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    *b_in = done[0] - net_reg(&n, 0, 0, 26);
    *b_out = done[1] - net_reg(&n, 1, 0, 26);
    for (unsigned x = 1; x <= 2; x++) {
        uint32_t rbuf = net_symbol(net_ca(&n, x, 0)->prog, "rbuf");
        for (unsigned i = 0; i < MR_WORDS; i += 37)
            assert_int_equal(net_mem32(&n, x, 0, rbuf + 4 * i), 0x11111111);
    }
    net_free(&n);
}

static void test_two_spools_on_an_idle_ca_sustain_a_link_in_and_a_link_out(void **state)
{
    (void)state;
    emu_machine_t m;
    emu_machine_defaults(&m);
    uint64_t b_in, b_out;
    run_memory_rule("", &b_in, &b_out);
    /* A stream at link rate: (words + 3 tagged) * link_clocks, plus the header and a few clocks of polling. */
    uint64_t link_time = (uint64_t)m.agent.link_clocks * (MR_WORDS + 3);
    print_message("into (1,0): %llu clocks, out of (1,0): %llu clocks, link time %llu\n", (unsigned long long)b_in,
                  (unsigned long long)b_out, (unsigned long long)link_time);
    assert_true(b_in <= link_time + 40);
    assert_true(b_out <= link_time + 40);
}

static void test_a_ca_doing_single_loads_leaves_the_spools_about_one_link(void **state)
{
    (void)state;
    emu_machine_t m;
    emu_machine_defaults(&m);
    uint64_t b_in, b_out;
    char ca[256];
    /* back-to-back single loads, for longer than both streams take */
    snprintf(ca, sizeof ca,
             "        li   r3, %u\n"
             "        la   r6, rbuf\n"
             "9:      { ldw r7, [r6] ; loop r3, 9b }\n",
             4u * MR_WORDS);
    run_memory_rule(ca, &b_in, &b_out);
    uint64_t link_time = (uint64_t)m.agent.link_clocks * (MR_WORDS + 3);
    print_message("into (1,0): %llu clocks, out of (1,0): %llu clocks, link time %llu\n", (unsigned long long)b_in,
                  (unsigned long long)b_out, (unsigned long long)link_time);
    /* in and out share one word every other clock: together one link's worth, each about half of it */
    assert_true(b_in + b_out >= 2 * (2 * link_time) * 9 / 10);
    assert_true(b_in + b_out <= 2 * (2 * link_time) * 11 / 10);
}

static void test_a_ca_loading_and_storing_in_every_bundle_leaves_the_spools_nothing(void **state)
{
    (void)state;
    emu_machine_t m;
    emu_machine_defaults(&m);
    enum { LOOPS = 1000 };
    uint64_t b_in, b_out;
    char ca[256];
    snprintf(ca, sizeof ca,
             "        li   r3, %u\n"
             "        la   r6, rbuf\n"
             "9:      { ldw r7, [r6] ; stw r8, [r6 + 4] ; loop r3, 9b }\n",
             (unsigned)LOOPS);
    run_memory_rule(ca, &b_in, &b_out);
    print_message("into (1,0): %llu clocks, out of (1,0): %llu clocks\n", (unsigned long long)b_in,
                  (unsigned long long)b_out);
    /* the load-and-store bundles keep the memory busy on both their clocks: the streams wait for the loop */
    uint64_t loop_clocks = (uint64_t)LOOPS * m.timing.clocks[ISA_T_MEM];
    assert_true(b_in >= loop_clocks);
    assert_true(b_out >= loop_clocks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contiguous_spool_send_and_receive_land_every_word_in_place),
        cmocka_unit_test(test_strided_sends_and_receives_walk_forwards_and_backwards),
        cmocka_unit_test(test_a_trailer_ends_a_receive_early_and_sets_status_bit_1),
        cmocka_unit_test(test_two_spools_on_an_idle_ca_sustain_a_link_in_and_a_link_out),
        cmocka_unit_test(test_a_ca_doing_single_loads_leaves_the_spools_about_one_link),
        cmocka_unit_test(test_a_ca_loading_and_storing_in_every_bundle_leaves_the_spools_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
