/*
 * Encoding (docs/isa.md, "Encoding" and "Bundles"): every legal operation of every row survives
 * encode -> decode unchanged, distinct operations never share an encoding, random words either fail to
 * decode or re-encode to themselves, unused fields and wrong X bits are illegal, register rules (gate
 * direction, pairs) and the bundle combination rules are enforced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "isa.h"
#include "prog_builder.h"

/* Register values that exercise the field edges, the pair rules and the gates. */
static const uint8_t probe_regs[] = {0, 1, 2, 3, 62, 122, 123, 124, 125, 126, 127};
static const uint32_t probe_exts[] = {0, 1, 0x80000000u, 0xffffffffu};
enum { NPROBE_REGS = sizeof probe_regs / sizeof probe_regs[0], NPROBE_EXTS = sizeof probe_exts / sizeof probe_exts[0] };

typedef void (*op_visit_fn)(void *ctx, const isa_op_t *op);

/* Calls visit for every operation of row opcode, over the probe registers and extension words, that is
 * legal on its own (isa_op_check, and isa_bundle_check as a bundle of one: `add r5, gi0, gi0` reads a
 * gate twice). Returns how many. Unused fields stay zero. */
static unsigned for_each_legal_op(unsigned opcode, op_visit_fn visit, void *ctx)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    isa_format_t f = info->format;
    unsigned nrd = isa_format_has_rd(f) ? NPROBE_REGS : 1;
    unsigned nrs1 = isa_format_has_rs1(f) ? NPROBE_REGS : 1;
    unsigned nrs2 = isa_format_has_operand2(f) || isa_format_has_rs2_reg(f) ? NPROBE_REGS : 1;
    unsigned count = 0;
    for (unsigned x = 0; x < 1 + NPROBE_EXTS; x++) /* x = 0: no extension word */
        for (unsigned i = 0; i < nrd; i++)
            for (unsigned j = 0; j < nrs1; j++)
                for (unsigned k = 0; k < nrs2; k++) {
                    isa_op_t op = {(uint8_t)opcode,
                                   nrd > 1 ? probe_regs[i] : 0,
                                   nrs1 > 1 ? probe_regs[j] : 0,
                                   nrs2 > 1 ? probe_regs[k] : 0,
                                   x > 0,
                                   x > 0 ? probe_exts[x - 1] : 0};
                    if (x > 0 && isa_format_has_operand2(f))
                        op.rs2 = 0; /* the immediate replaces rs2 */
                    if (x > 0 && isa_format_has_operand2(f) && k > 0)
                        continue;
                    isa_bundle_t alone = {.count = 1, .ops = {op}};
                    if (isa_op_check(&op) != ISA_OK || isa_bundle_check(&alone, NULL) != ISA_OK)
                        continue;
                    count++;
                    visit(ctx, &op);
                }
    return count;
}

static bool same_op(const isa_op_t *a, const isa_op_t *b)
{
    return a->opcode == b->opcode && a->rd == b->rd && a->rs1 == b->rs1 && a->rs2 == b->rs2 &&
           a->has_ext == b->has_ext && a->ext == b->ext;
}

typedef struct round_trip {
    unsigned with_ext, without_ext;
} round_trip_t;

static void check_round_trip(void *ctx, const isa_op_t *op)
{
    round_trip_t *rt = ctx;
    /* Alone, and (unless it must be alone) as the first operation of a bundle followed by a nop. */
    isa_bundle_t b = {.count = 2, .ops = {*op, {ISA_OP_NOP, 0, 0, 0, false, 0}}};
    unsigned max_count = isa_op_info(op->opcode)->unit == ISA_UNIT_SYS ? 1 : 2;
    for (unsigned count = 1; count <= max_count; count++) {
        b.count = (uint8_t)count;
        uint32_t words[4];
        size_t n = isa_encode_bundle(&b, words, 4);
        assert_int_equal(n, isa_op_words(op) + count - 1);
        assert_int_equal(words[0] >> ISA_SHIFT_OPCODE & ISA_MASK_OPCODE, op->opcode);
        assert_int_equal(words[0] & 1u, 0);
        isa_bundle_t back;
        size_t used = 0;
        isa_error_t e = isa_decode_bundle(words, n, &back, &used);
        if (e != ISA_OK)
            fail_msg("%s rd %u rs1 %u rs2 %u x %d: decode says %s", isa_op_info(op->opcode)->mnemonic, op->rd, op->rs1,
                     op->rs2, op->has_ext, isa_error_string(e));
        assert_int_equal(used, n);
        assert_int_equal(back.count, count);
        if (!same_op(&back.ops[0], op))
            fail_msg("%s rd %u rs1 %u rs2 %u x %d ext 0x%x did not survive the round trip",
                     isa_op_info(op->opcode)->mnemonic, op->rd, op->rs1, op->rs2, op->has_ext, op->ext);
    }
    if (op->has_ext)
        rt->with_ext++;
    else
        rt->without_ext++;
}

static void test_every_row_round_trips_through_encoder_and_decoder(void **state)
{
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        round_trip_t rt = {0, 0};
        unsigned n = for_each_legal_op(opc, check_round_trip, &rt);
        if (n == 0)
            fail_msg("row %s has no legal encoding", info->mnemonic);
        /* X is mandatory for branches, loop, jumps and trap; optional where operand 2 may be an immediate. */
        bool imm_allowed = isa_format_has_operand2(info->format) && !(info->flags & ISA_F_NO_IMM);
        bool ext_needed = isa_format_needs_ext(info->format);
        assert_int_equal(rt.with_ext > 0, imm_allowed || ext_needed);
        assert_int_equal(rt.without_ext > 0, !ext_needed);
    }
}

typedef struct key_list {
    uint64_t *keys;
    size_t n, cap;
} key_list_t;

static void collect_key(void *ctx, const isa_op_t *op)
{
    key_list_t *kl = ctx;
    uint32_t w[2] = {0, 0};
    isa_encode_op(op, false, w);
    if (kl->n == kl->cap) {
        kl->cap = kl->cap ? kl->cap * 2 : 4096;
        kl->keys = realloc(kl->keys, kl->cap * sizeof *kl->keys);
        assert_non_null(kl->keys);
    }
    kl->keys[kl->n++] = (uint64_t)w[0] << 32 | w[1];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_distinct_operations_encode_to_distinct_words(void **state)
{
    key_list_t kl = {NULL, 0, 0};
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++)
        if (isa_op_info(opc) != NULL)
            for_each_legal_op(opc, collect_key, &kl);
    assert_true(kl.n > 1000);
    qsort(kl.keys, kl.n, sizeof *kl.keys, cmp_u64);
    for (size_t i = 1; i < kl.n; i++)
        if (kl.keys[i] == kl.keys[i - 1]) {
            uint64_t k = kl.keys[i];
            free(kl.keys);
            fail_msg("two operations encode to 0x%08x 0x%08x", (unsigned)(k >> 32), (unsigned)k);
        }
    free(kl.keys);
}

/* xorshift64*: a deterministic stream, state held by the caller. */
static uint32_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Decodes words; when they decode, re-encoding must give the same words. Returns true when they decoded. */
static bool check_decode_reencode(const uint32_t *words, size_t n)
{
    isa_bundle_t b;
    size_t used = 0;
    if (isa_decode_bundle(words, n, &b, &used) != ISA_OK)
        return false;
    assert_true(used >= 1 && used <= n);
    assert_true(b.count >= 1 && b.count <= ISA_BUNDLE_MAX_OPS);
    for (unsigned i = 0; i < b.count; i++)
        assert_int_equal(isa_op_check(&b.ops[i]), ISA_OK);
    assert_int_equal(isa_bundle_check(&b, NULL), ISA_OK);
    uint32_t again[2 * ISA_BUNDLE_MAX_OPS];
    size_t m = isa_encode_bundle(&b, again, 2 * ISA_BUNDLE_MAX_OPS);
    if (m != used || memcmp(again, words, used * sizeof *words) != 0)
        fail_msg("0x%08x 0x%08x ... decoded but re-encoded differently", words[0], used > 1 ? words[1] : 0);
    return true;
}

static void test_random_words_fail_to_decode_or_reencode_identically(void **state)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    enum { ROUNDS = 200000, WORDS = 2 * ISA_BUNDLE_MAX_OPS + 2 };
    unsigned decoded[3] = {0, 0, 0};
    for (unsigned round = 0; round < ROUNDS; round++) {
        uint32_t words[WORDS];
        for (unsigned i = 0; i < WORDS; i++)
            words[i] = next_random(&seed);
        unsigned mode = round % 3;
        if (mode >= 1) {
            /* Assigned opcodes, most fields clear, so that many decode. */
            for (unsigned i = 0; i < WORDS; i++) {
                unsigned opc;
                do
                    opc = next_random(&seed) & ISA_MASK_OPCODE;
                while (isa_op_info(opc) == NULL);
                uint32_t keep = mode == 1 ? 0xffffffffu : next_random(&seed) & next_random(&seed);
                words[i] = (words[i] & keep & ~(ISA_MASK_OPCODE << ISA_SHIFT_OPCODE) & ~1u) | (uint32_t)opc
                                                                                                  << ISA_SHIFT_OPCODE;
                if (next_random(&seed) % 4 != 0)
                    words[i] &= ~(1u << ISA_BIT_CHAIN);
            }
        }
        if (check_decode_reencode(words, WORDS))
            decoded[mode]++;
    }
    /* The structured modes must reach the decoder's acceptance path often enough to mean something. */
    assert_true(decoded[2] > 1000);
}

/* One legal operation of a row with every used field non-zero where the rules allow it. */
static isa_op_t example_op(unsigned opcode, bool with_imm)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    isa_format_t f = info->format;
    isa_op_t op = {(uint8_t)opcode, 0, 0, 0, false, 0};
    if (isa_format_has_rd(f))
        op.rd = 20;
    if (isa_format_has_rs1(f))
        op.rs1 = 22;
    if (isa_format_has_rs2_reg(f) || (isa_format_has_operand2(f) && !with_imm))
        op.rs2 = 24;
    if (isa_format_needs_ext(f) || (isa_format_has_operand2(f) && with_imm)) {
        op.has_ext = true;
        op.ext = 0x1000;
    }
    return op;
}

static isa_error_t decode_word_pair(uint32_t w0, uint32_t w1)
{
    uint32_t words[2] = {w0, w1};
    isa_bundle_t b;
    size_t used;
    return isa_decode_bundle(words, 2, &b, &used);
}

static void test_unused_fields_and_bit0_must_be_zero(void **state)
{
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        isa_format_t f = info->format;
        for (int with_imm = 0; with_imm <= 1; with_imm++) {
            if (with_imm && !(isa_format_has_operand2(f) && !(info->flags & ISA_F_NO_IMM)))
                continue;
            isa_op_t op = example_op(opc, with_imm);
            assert_int_equal(isa_op_check(&op), ISA_OK);
            uint32_t w[2] = {0, 0};
            isa_encode_op(&op, false, w);
            assert_int_equal(decode_word_pair(w[0], w[1]), ISA_OK);
            assert_int_equal(decode_word_pair(w[0] | 1u, w[1]), ISA_ERR_FIELDS);
            bool rs2_used = isa_format_has_rs2_reg(f) || (isa_format_has_operand2(f) && !op.has_ext);
            if (!isa_format_has_rd(f))
                assert_int_equal(decode_word_pair(w[0] | 2u << ISA_SHIFT_RD, w[1]), ISA_ERR_FIELDS);
            if (!isa_format_has_rs1(f))
                assert_int_equal(decode_word_pair(w[0] | 2u << ISA_SHIFT_RS1, w[1]), ISA_ERR_FIELDS);
            if (!rs2_used)
                assert_int_equal(decode_word_pair(w[0] | 2u << ISA_SHIFT_RS2, w[1]), ISA_ERR_FIELDS);
        }
    }
}

static void test_extension_bit_must_match_the_format(void **state)
{
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        isa_format_t f = info->format;
        isa_op_t op = example_op(opc, false);
        uint32_t w[2] = {0, 0};
        isa_encode_op(&op, false, w);
        uint32_t x = 1u << ISA_BIT_EXT;
        if (isa_format_needs_ext(f)) {
            assert_int_equal(decode_word_pair(w[0] & ~x, 0), ISA_ERR_FIELDS);
        } else if (!isa_format_has_operand2(f) || (info->flags & ISA_F_NO_IMM)) {
            /* No immediate form: X = 1 is illegal (rs2 cleared so only X is wrong). */
            uint32_t rs2_field = (uint32_t)ISA_MASK_REG << ISA_SHIFT_RS2;
            assert_int_equal(decode_word_pair((w[0] & ~rs2_field) | x, 0), ISA_ERR_FIELDS);
        } else {
            /* The immediate form leaves rs2 unused: a register in it is illegal. */
            assert_int_equal(decode_word_pair(w[0] | x, 0), ISA_ERR_FIELDS);
        }
    }
}

static void test_unassigned_opcodes_are_illegal(void **state)
{
    unsigned unassigned = 0;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        if (isa_op_info(opc) != NULL)
            continue;
        unassigned++;
        assert_int_equal(decode_word_pair((uint32_t)opc << ISA_SHIFT_OPCODE, 0), ISA_ERR_OPCODE);
        assert_int_equal(decode_word_pair((uint32_t)opc << ISA_SHIFT_OPCODE | 1u << ISA_BIT_EXT, 0), ISA_ERR_OPCODE);
    }
    assert_true(unassigned > 0);
}

static void test_truncated_bundles_are_illegal(void **state)
{
    isa_op_t add = {ISA_OP_ADD, 5, 6, 0, true, 7};
    uint32_t w[2];
    isa_encode_op(&add, false, w);
    isa_bundle_t b;
    size_t used;
    assert_int_equal(isa_decode_bundle(w, 1, &b, &used), ISA_ERR_TRUNCATED); /* extension word missing */
    isa_encode_op(&add, true, w);
    assert_int_equal(isa_decode_bundle(w, 2, &b, &used), ISA_ERR_TRUNCATED); /* chain runs off the end */
}

static isa_error_t check_op(pb_op_t o)
{
    return isa_op_check(&o.op);
}

static void test_input_gates_are_only_read_and_output_gates_only_written(void **state)
{
    assert_int_equal(check_op(pb_rr(ISA_OP_ADD, 5, ISA_REG_GI0, ISA_REG_GI1)), ISA_OK);
    assert_int_equal(check_op(pb_rr(ISA_OP_ADD, ISA_REG_GO0, 5, 6)), ISA_OK);
    assert_int_equal(check_op(pb_rr(ISA_OP_ADD, ISA_REG_GI0, 5, 6)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_ADD, 5, ISA_REG_GO1, 6)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_ADD, 5, 6, ISA_REG_GO0)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_ri(ISA_OP_LDW, ISA_REG_GO0, 5, 0)), ISA_OK);
    assert_int_equal(check_op(pb_ri(ISA_OP_LDW, ISA_REG_GI1, 5, 0)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_ri(ISA_OP_STW, ISA_REG_GI0, 5, 0)), ISA_OK); /* a store reads rd */
    assert_int_equal(check_op(pb_ri(ISA_OP_STW, ISA_REG_GO0, 5, 0)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_to(pb_br(ISA_OP_BEQ, ISA_REG_GI0, ISA_REG_GI1, NULL), 0x1000)), ISA_OK);
    assert_int_equal(check_op(pb_to(pb_br(ISA_OP_BEQ, ISA_REG_GO0, 0, NULL), 0x1000)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_to(pb_loop(ISA_REG_GI0, NULL), 0x1000)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_to(pb_loop(ISA_REG_GO0, NULL), 0x1000)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_jr(ISA_OP_JR, ISA_REG_GO0)), ISA_ERR_REGISTER);
}

static void test_pairs_are_even_and_never_cover_a_gate(void **state)
{
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 20, 22, 122)), ISA_OK);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 21, 22, 24)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 20, 23, 24)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 20, 22, 25)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 124, 22, 24)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 126, 22, 24)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FADD_D, 20, 124, 24)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_rr(ISA_OP_FEQ_D, 5, 22, 24)), ISA_OK); /* integer result in any register */
    assert_int_equal(check_op(pb_r(ISA_OP_CVT_D_W, 7, 5)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_r(ISA_OP_CVT_D_W, 6, 5)), ISA_OK);
    assert_int_equal(check_op(pb_r(ISA_OP_CVT_W_D, 5, 7)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_r(ISA_OP_FMOV_D, 126, 20)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_ri(ISA_OP_LDD, 21, 5, 0)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_ri(ISA_OP_STD, 124, 5, 0)), ISA_ERR_REGISTER);
    assert_int_equal(check_op(pb_ri(ISA_OP_FADD_D, 20, 22, 0)), ISA_ERR_FIELDS); /* register operands only */
}

/* Checks a bundle built from pb ops: the error and, when it fails, the operation that broke the rule. */
static void expect_bundle(const pb_op_t *ops, unsigned n, isa_error_t want, unsigned want_bad)
{
    isa_bundle_t b;
    pb_to_bundle(ops, n, &b);
    for (unsigned i = 0; i < b.count; i++)
        assert_int_equal(isa_op_check(&b.ops[i]), ISA_OK);
    unsigned bad = 99;
    isa_error_t e = isa_bundle_check(&b, &bad);
    if (e != want)
        fail_msg("bundle of %u ops: %s, want %s", n, isa_error_string(e), isa_error_string(want));
    if (want != ISA_OK)
        assert_int_equal(bad, want_bad);
    /* The decoder applies the same rules to the encoded bundle. */
    uint32_t words[2 * ISA_BUNDLE_MAX_OPS];
    size_t nw = isa_encode_bundle(&b, words, 2 * ISA_BUNDLE_MAX_OPS);
    assert_true(nw > 0);
    isa_bundle_t back;
    size_t used;
    assert_int_equal(isa_decode_bundle(words, nw, &back, &used), want);
}
#define EXPECT_BUNDLE(want, bad, ...)                                                                                  \
    expect_bundle((const pb_op_t[]){__VA_ARGS__}, PB_COUNT(__VA_ARGS__), (want), (bad))

static void test_bundle_unit_limits(void **state)
{
    pb_op_t br = pb_to(pb_br(ISA_OP_BEQ, 0, 0, NULL), 0x1000);
    pb_op_t jmp = pb_to(pb_j(ISA_OP_JMP, NULL), 0x1000);
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_SUB, 6, 6, 1));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 2, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_SUB, 6, 6, 1),
                  pb_r(ISA_OP_FMOV_D, 8, 10));
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_ri(ISA_OP_STW, 6, 4, 8));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 2, pb_ri(ISA_OP_LDW, 5, 4, 0), pb_ri(ISA_OP_STW, 6, 4, 8),
                  pb_ri(ISA_OP_LDW, 7, 4, 8));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 1, pb_rr(ISA_OP_FADD_S, 5, 6, 7), pb_r(ISA_OP_CVT_S_W, 8, 9));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 1, pb_rr(ISA_OP_FMUL_S, 5, 6, 7), pb_rr(ISA_OP_MUL, 8, 9, 10));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 1, br, jmp);
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_UNIT, 1, pb_ri(ISA_OP_RDCR, 5, 0, 0), pb_ri(ISA_OP_WRCR, 6, 0, 0x10));
}

static void test_full_bundle_of_eight_operations_is_legal(void **state)
{
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_SUB, 6, 6, 1), pb_rr(ISA_OP_FADD_S, 7, 7, 8),
                  pb_rr(ISA_OP_FMUL_S, 9, 9, 8), pb_ri(ISA_OP_LDW, 10, 4, 0), pb_ri(ISA_OP_RDCR, 11, 0, 0),
                  pb_to(pb_loop(3, NULL), 0x1000), pb_nop());
    EXPECT_BUNDLE(ISA_OK, 0, pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop(), pb_nop());
    /* Nine operations: too many, whatever their units. */
    uint32_t words[9];
    for (unsigned i = 0; i < 9; i++)
        words[i] = (i < 8 ? 1u << ISA_BIT_CHAIN : 0) | (uint32_t)ISA_OP_NOP << ISA_SHIFT_OPCODE;
    isa_bundle_t b;
    size_t used;
    assert_int_equal(isa_decode_bundle(words, 9, &b, &used), ISA_ERR_BUNDLE_SIZE);
}

static void test_halt_and_trap_must_be_alone(void **state)
{
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_SYS, 1, pb_nop(), pb_halt());
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_SYS, 0, pb_halt(), pb_nop());
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_SYS, 0, pb_trap(1), pb_ri(ISA_OP_ADD, 5, 5, 1));
    EXPECT_BUNDLE(ISA_OK, 0, pb_halt());
    EXPECT_BUNDLE(ISA_OK, 0, pb_trap(7));
}

static void test_no_two_operations_write_one_register(void **state)
{
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_WRITE, 1, pb_ri(ISA_OP_ADD, 5, 5, 1), pb_ri(ISA_OP_LDW, 5, 4, 0));
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_ADD, 0, 5, 1), pb_ri(ISA_OP_SUB, 0, 6, 1)); /* r0 excepted */
    /* Pairs count both registers; call writes ra. */
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_WRITE, 1, pb_rr(ISA_OP_FADD_D, 20, 22, 24), pb_ri(ISA_OP_ADD, 21, 5, 1));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_WRITE, 1, pb_ri(ISA_OP_LDD, 20, 4, 0), pb_r(ISA_OP_CVT_D_W, 20, 5));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_WRITE, 1, pb_ri(ISA_OP_ADD, ISA_REG_LINK, 5, 1),
                  pb_to(pb_j(ISA_OP_CALL, NULL), 0x1000));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_WRITE, 1, pb_to(pb_loop(3, NULL), 0x1000), pb_ri(ISA_OP_ADD, 3, 3, 1));
    /* Reading a register another operation writes is fine: reads come first. */
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_ADD, 5, 6, 0), pb_ri(ISA_OP_ADD, 6, 5, 0));
}

static void test_each_gate_used_at_most_once_per_bundle(void **state)
{
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_GATE, 1, pb_ri(ISA_OP_ADD, 5, ISA_REG_GI0, 0), pb_ri(ISA_OP_ADD, 6, ISA_REG_GI0, 0));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_GATE, 0, pb_rr(ISA_OP_ADD, 5, ISA_REG_GI0, ISA_REG_GI0));
    EXPECT_BUNDLE(ISA_ERR_BUNDLE_GATE, 1, pb_ri(ISA_OP_ADD, ISA_REG_GO0, 5, 0), pb_ri(ISA_OP_LDW, ISA_REG_GO0, 4, 0));
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_ADD, ISA_REG_GO0, ISA_REG_GI0, 0),
                  pb_ri(ISA_OP_ADD, ISA_REG_GO1, ISA_REG_GI1, 0));
    /* The documented example: one load to go0, a word from gi0, and a loop, all in one bundle. */
    EXPECT_BUNDLE(ISA_OK, 0, pb_ri(ISA_OP_LDW, ISA_REG_GO0, 4, 0), pb_ri(ISA_OP_ADD, 4, 4, 4),
                  pb_rr(ISA_OP_ADD, 5, 5, ISA_REG_GI0), pb_to(pb_loop(3, NULL), 0x1000));
}

static void test_bundle_clocks_are_the_slowest_operation(void **state)
{
    isa_timing_t t;
    isa_timing_defaults(&t);
    isa_bundle_t b;
    pb_to_bundle(
        (const pb_op_t[]){pb_ri(ISA_OP_LDW, 5, 4, 0), pb_ri(ISA_OP_ADD, 4, 4, 4), pb_to(pb_loop(3, NULL), 0x1000)}, 3,
        &b);
    unsigned want = t.clocks[ISA_T_MEM];
    if (t.clocks[ISA_T_INT] > want)
        want = t.clocks[ISA_T_INT];
    if (t.clocks[ISA_T_BRANCH] > want)
        want = t.clocks[ISA_T_BRANCH];
    assert_int_equal(isa_bundle_clocks(&b, &t), want);
    assert_int_equal(want, 2); /* the documented example: 2 clocks */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_round_trips_through_encoder_and_decoder),
        cmocka_unit_test(test_distinct_operations_encode_to_distinct_words),
        cmocka_unit_test(test_random_words_fail_to_decode_or_reencode_identically),
        cmocka_unit_test(test_unused_fields_and_bit0_must_be_zero),
        cmocka_unit_test(test_extension_bit_must_match_the_format),
        cmocka_unit_test(test_unassigned_opcodes_are_illegal),
        cmocka_unit_test(test_truncated_bundles_are_illegal),
        cmocka_unit_test(test_input_gates_are_only_read_and_output_gates_only_written),
        cmocka_unit_test(test_pairs_are_even_and_never_cover_a_gate),
        cmocka_unit_test(test_bundle_unit_limits),
        cmocka_unit_test(test_full_bundle_of_eight_operations_is_legal),
        cmocka_unit_test(test_halt_and_trap_must_be_alone),
        cmocka_unit_test(test_no_two_operations_write_one_register),
        cmocka_unit_test(test_each_gate_used_at_most_once_per_bundle),
        cmocka_unit_test(test_bundle_clocks_are_the_slowest_operation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
