/* Every row of the operation table assembles, encodes, decodes and disassembles back to itself, and the
 * encoding is canonical: a word sequence decodes only if re-encoding gives the same words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "asm_test_util.h"

static void assemble_one(unsigned opcode, const char *operands, uint32_t *words, size_t *n)
{
    char src[128];
    snprintf(src, sizeof src, "    %s %s\n", isa_op_info(opcode)->mnemonic, operands);
    *n = t_words(src, words, 4);
}

static void every_row_has_a_unique_mnemonic(void **state)
{
    (void)state;
    unsigned rows = 0;
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++) {
        const isa_op_info_t *info = isa_op_info(op);
        if (info == NULL)
            continue;
        rows++;
        assert_non_null(info->mnemonic);
        assert_int_equal(isa_opcode_by_mnemonic(info->mnemonic, strlen(info->mnemonic)), (int)op);
    }
    assert_true(rows > 50);
}

static void every_row_parses_encodes_and_decodes_back(void **state)
{
    (void)state;
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++) {
        const isa_op_info_t *info = isa_op_info(op);
        char operands[64];
        for (unsigned v = 0; info != NULL && t_sample_operands(op, v, operands, sizeof operands); v++) {
            uint32_t words[4];
            size_t n;
            assemble_one(op, operands, words, &n);
            isa_bundle_t b;
            size_t used;
            assert_int_equal(isa_decode_bundle(words, n, &b, &used), ISA_OK);
            assert_int_equal(used, n);
            assert_int_equal(b.count, 1);
            assert_int_equal(b.ops[0].opcode, op);
            uint32_t again[4];
            assert_int_equal(isa_encode_bundle(&b, again, 4), n);
            assert_memory_equal(again, words, n * sizeof *words);
            if (isa_format_has_rd(info->format) && info->format != ISA_FMT_LOOP)
                assert_int_equal(b.ops[0].rd, 2);
        }
    }
}

static void every_row_disassembles_to_text_that_reassembles(void **state)
{
    (void)state;
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++) {
        char operands[64];
        for (unsigned v = 0; isa_op_info(op) != NULL && t_sample_operands(op, v, operands, sizeof operands); v++) {
            uint32_t words[4], again[4];
            size_t n;
            assemble_one(op, operands, words, &n);
            isa_bundle_t b;
            size_t used;
            assert_int_equal(isa_decode_bundle(words, n, &b, &used), ISA_OK);
            char text[128], src[160];
            assert_true(dis_bundle_text(&b, NULL, text, sizeof text) > 0);
            snprintf(src, sizeof src, "%s\n", text);
            assert_int_equal(t_words(src, again, 4), n);
            assert_memory_equal(again, words, n * sizeof *words);
        }
    }
}

/* Different rows never produce the same words: each sample decodes to its own opcode, and the words
 * of any two samples differ. */
static void no_two_rows_share_an_encoding(void **state)
{
    (void)state;
    static uint32_t seen[ISA_OPCODE_LIMIT * 8];
    static unsigned seen_op[ISA_OPCODE_LIMIT * 8];
    size_t nseen = 0;
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++) {
        char operands[64];
        for (unsigned v = 0; isa_op_info(op) != NULL && t_sample_operands(op, v, operands, sizeof operands); v++) {
            uint32_t words[4];
            size_t n;
            assemble_one(op, operands, words, &n);
            for (size_t k = 0; k < nseen; k++)
                if (seen[k] == words[0])
                    assert_int_equal(seen_op[k], op);
            seen[nseen] = words[0];
            seen_op[nseen++] = op;
        }
    }
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random words either fail to decode or re-encode to exactly the words consumed. Half the words get a
 * valid opcode so that the decoder's field checks are exercised and not just the opcode lookup. */
static void random_words_decode_canonically_or_not_at_all(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15u;
    unsigned decoded = 0;
    for (unsigned iter = 0; iter < 400000; iter++) {
        uint32_t w[ISA_BUNDLE_MAX_OPS * 2 + 2];
        for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
            uint32_t r = (uint32_t)next_random(&s);
            if (k % 2 == 0 || (r & 1)) {
                unsigned op;
                do
                    op = (unsigned)(next_random(&s) & 0xff);
                while (isa_op_info(op) == NULL);
                r = (r & ~(0xffu << ISA_SHIFT_OPCODE)) | op << ISA_SHIFT_OPCODE;
                if ((next_random(&s) & 3) != 0)
                    r &= ~(uint32_t)1 & ~(next_random(&s) & 0x7ffffeu);
                if ((next_random(&s) & 3) != 0)
                    r &= ~(1u << ISA_BIT_CHAIN);
            }
            w[k] = r;
        }
        isa_bundle_t b;
        size_t used;
        if (isa_decode_bundle(w, sizeof w / sizeof w[0], &b, &used) != ISA_OK)
            continue;
        decoded++;
        uint32_t again[sizeof w / sizeof w[0]];
        assert_int_equal(isa_encode_bundle(&b, again, sizeof again / sizeof again[0]), used);
        assert_memory_equal(again, w, used * sizeof *w);
        char text[512], src[600];
        assert_true(dis_bundle_text(&b, NULL, text, sizeof text) > 0);
        if (decoded % 97 == 0) { /* the assembler accepts the text and gives back the same words */
            snprintf(src, sizeof src, "%s\n", text);
            uint32_t words[sizeof w / sizeof w[0]];
            assert_int_equal(t_words(src, words, sizeof words / sizeof words[0]), used);
            assert_memory_equal(words, w, used * sizeof *w);
        }
    }
    assert_true(decoded > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_has_a_unique_mnemonic),
        cmocka_unit_test(every_row_parses_encodes_and_decodes_back),
        cmocka_unit_test(every_row_disassembles_to_text_that_reassembles),
        cmocka_unit_test(no_two_rows_share_an_encoding),
        cmocka_unit_test(random_words_decode_canonically_or_not_at_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
