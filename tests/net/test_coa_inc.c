/*
 * runtime/coa.inc gives assembly programs the numbers of emu/emu.h, emu/ca.h, comm_agent/coa_cr.h,
 * comm_agent/coa.h and comm_agent/word.h (and the COA_STATUS bits of docs/network.md). Every constant it defines must
 * equal its C counterpart, every C counterpart listed here must be defined, and its sign macros must build the words
 * coa_sign_encode builds.
 */
#include "net_harness.h"

#include <stdio.h>
#include <string.h>

typedef struct constant {
    const char *name;
    uint32_t value;
} constant_t;

#define C(name, value)                                                                                                 \
    {                                                                                                                  \
#name, (uint32_t)(value)                                                                                       \
    }

static const constant_t expected[] = {
#define X(id, num, doc) {"CR_" #id, (num)},
    EMU_CELL_CRS(X)
#undef X
        C(EV_SPOOL0, CA_EVENT_SPOOL0),
    C(EV_ARRIVAL, CA_EVENT_ARRIVAL),
    C(EV_TIMER, CA_EVENT_TIMER),
    C(EV_SOFT0, CA_EVENT_SOFT0),
    C(MARK_USER, (uint32_t)EMU_MARK_USER << 24),
    C(MARK_MSG_SEND, (uint32_t)EMU_MARK_MSG_SEND << 24),
    C(MARK_MSG_RECEIVE, (uint32_t)EMU_MARK_MSG_RECEIVE << 24),
    C(MARK_PHASE, (uint32_t)EMU_MARK_PHASE << 24),
#define X(id, num, doc) {"COA_" #id, (num)},
    COA_CRS(X)
#undef X
    C(COA_STATUS_ASLEEP, NET_STATUS_ASLEEP),
    C(COA_STATUS_QUIESCENT, NET_STATUS_QUIESCENT),
    C(COA_STATUS_LOADING, NET_STATUS_LOADING),
    C(COA_NONE, ~0u),
    C(COA_EXPECT, ~1u),
    C(SPOOL_CTRL, COA_SPOOL_F_CTRL),
    C(SPOOL_LC, COA_SPOOL_F_LC),
    C(SPOOL_ADDR, COA_SPOOL_F_ADDR),
    C(SPOOL_STRIDE, COA_SPOOL_F_STRIDE),
    C(SPOOL_COUNT, COA_SPOOL_F_COUNT),
    C(SPOOL_TAG_HEAD, COA_SPOOL_F_TAG_HEAD),
    C(SPOOL_TAG_TAIL, COA_SPOOL_F_TAG_TAIL),
    C(SPOOL_STATUS, COA_SPOOL_F_STATUS),
    C(SPOOL_STOP, COA_SPOOL_IDLE),
    C(SPOOL_SEND, COA_SPOOL_SEND),
    C(SPOOL_RECEIVE, COA_SPOOL_RECEIVE),
    C(SPOOL_DONE, COA_SPOOL_DONE),
    C(SPOOL_TRAILER, COA_SPOOL_TRAILER),
    C(LC_STATE, COA_LC_F_STATE),
    C(LC_ROUTE, COA_LC_F_ROUTE),
    C(LC_SOURCE, COA_LC_F_SOURCE),
    C(LC_COUNT, COA_LC_F_COUNT),
    C(LC_CREDITS, COA_LC_F_CREDITS),
    C(LC_POOL, COA_LC_F_POOL),
    C(LC_HEAD, COA_LC_F_HEAD),
    C(LC_WAIT, COA_LC_F_WAIT),
    C(LC_FREE, COA_LC_FREE),
    C(LC_HEADER, COA_LC_HEADER),
    C(LC_ROUTED, COA_LC_ROUTED),
    C(LC_ARRIVED, COA_LC_ARRIVED),
    C(LC_DRAINING, COA_LC_DRAINING),
    C(END_NONE, COA_END_NONE),
    C(END_LINK, COA_END_LINK),
    C(END_GATE, COA_END_GATE),
    C(END_SPOOL, COA_END_SPOOL),
    C(END_QUEUE, COA_END_QUEUE),
    C(DIR_PX, COA_DIR_PX),
    C(DIR_MX, COA_DIR_MX),
    C(DIR_PY, COA_DIR_PY),
    C(DIR_MY, COA_DIR_MY),
    C(SIGN_GATE, COA_SIGN_GATE),
    C(SIGN_SPOOL, COA_SIGN_SPOOL),
    C(SIGN_QUEUE, COA_SIGN_QUEUE),
    C(SIGN_KIND, (uint32_t)COA_WORD_KIND_SIGN << 28),
    C(TRAILER_KIND, (uint32_t)COA_WORD_KIND_TRAILER << 28),
};

enum { NEXPECTED = sizeof expected / sizeof expected[0] };

/* The assembler evaluates coa.inc: its constants are the absolute symbols of a program that only includes it. */
static void test_every_constant_of_coa_inc_equals_its_c_counterpart(void **state)
{
    (void)state;
    net_t n;
    net_init(&n, 1, 1);
    net_create(&n);
    const emu_program_t *p = net_asm(&n, "        .include \"coa.inc\"\n_start: halt\n");
    bool seen[NEXPECTED] = {false};
    for (size_t k = 0; k < p->image.nsyms; k++) {
        const isa_symbol_t *sym = &p->image.syms[k];
        if (sym->kind != ISA_SYM_ABS || strcmp(sym->name, "COA_INC") == 0) /* (the include guard) */
            continue;
        unsigned i = 0;
        while (i < NEXPECTED && strcmp(expected[i].name, sym->name) != 0)
            i++;
        if (i == NEXPECTED)
            fail_msg("coa.inc defines %s, which this test does not know: add its C counterpart", sym->name);
        if (sym->value != expected[i].value)
            fail_msg("coa.inc: %s = 0x%x, the C headers say 0x%x", sym->name, sym->value, expected[i].value);
        seen[i] = true;
    }
    for (unsigned i = 0; i < NEXPECTED; i++)
        if (!seen[i])
            fail_msg("coa.inc does not define %s", expected[i].name);
    net_free(&n);
}

/* sign_li / sign_pool_li from coa.inc and `sign` from tests/net/net.inc build the words of coa_sign_encode. */
static void test_the_sign_macros_build_the_words_of_coa_sign_encode(void **state)
{
    (void)state;
    static const coa_sign_t signs[] = {
        {.x = 0, .y = 0, .action = COA_SIGN_PX},
        {.x = 31, .y = 31, .action = COA_SIGN_QUEUE},
        {.x = 5, .y = 17, .action = COA_SIGN_GATE, .sink = 1},
        {.x = 12, .y = 3, .action = COA_SIGN_SPOOL, .sink = 7},
        {.x = 7, .y = 2, .action = COA_SIGN_MY, .set_pool = true, .pool = 1},
        {.x = 1, .y = 30, .action = COA_SIGN_MX, .set_pool = true, .pool = 3},
    };
    net_t n;
    net_init(&n, 1, 1);
    net_create(&n);
    net_text_t t;
    net_text_init(&t);
    net_textf(&t, "        .include \"net.inc\"\n_start:\n");
    for (unsigned i = 0; i < sizeof signs / sizeof signs[0]; i++) {
        const coa_sign_t *s = &signs[i];
        if (s->set_pool)
            net_textf(&t, "        sign_pool_li r%u, %u, %u, %u, %u\n", 40 + i, s->x, s->y, s->action, s->pool);
        else
            net_textf(&t, "        sign_li r%u, %u, %u, %u, %u\n", 40 + i, s->x, s->y, s->action, s->sink);
    }
    /* `sign` and `trailer` write tagged words to a gate: the agent sleeps, so they stay in the channel */
    net_textf(&t, "        li   r5, 1\n"
                  "        wrcr r5, [COA_SLEEP]\n"
                  "        open 1\n"
                  "        sign 1, 5, 17, SIGN_GATE, 1\n"
                  "        sign 1, 31, 31, SIGN_QUEUE\n"
                  "        sign 1, 0, 0, DIR_PX\n"
                  "        trailer 1, 0x1234567\n"
                  "        halt\n");
    const emu_program_t *p = net_asm(&n, t.buf);
    net_text_free(&t);
    net_load(&n, 0, 0, p, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    for (unsigned i = 0; i < sizeof signs / sizeof signs[0]; i++) {
        coa_sign_t s = signs[i];
        if (!s.set_pool)
            s.pool = 0;
        assert_int_equal(net_reg(&n, 0, 0, 40 + i), coa_sign_encode(&s));
        coa_sign_t back;
        assert_true(coa_sign_decode(net_reg(&n, 0, 0, 40 + i), &back));
        assert_int_equal(back.x, s.x);
        assert_int_equal(back.y, s.y);
        assert_int_equal(back.action, s.action);
    }
    const coa_t *c = net_coa(&n, 0, 0);
    unsigned lc = net_reg(&n, 0, 0, 20);
    const uint32_t words[] = {coa_sign_encode(&signs[2]), coa_sign_encode(&signs[1]), coa_sign_encode(&signs[0]),
                              coa_trailer_encode(0x1234567)};
    assert_int_equal(c->lc[lc].count, 4);
    for (unsigned i = 0; i < 4; i++) {
        bool tag;
        assert_int_equal(coa_lc_peek(c, lc, i, &tag), words[i]);
        assert_true(tag);
    }
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_constant_of_coa_inc_equals_its_c_counterpart),
        cmocka_unit_test(test_the_sign_macros_build_the_words_of_coa_sign_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
