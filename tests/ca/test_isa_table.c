/*
 * The operation table (isa/isa.def, isa/timing.def) against docs/isa.md: every row is complete, the
 * rows are exactly the documented operations with the documented format, unit, timing class and register
 * pairs, and the per-class clocks and per-unit bundle limits are the documented ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "isa.h"
#include "machine.h"

/* docs/isa.md, "Operations" with the unit and timing tables: what each mnemonic is. */
typedef struct doc_row {
    const char *mnemonic;
    isa_format_t format;
    isa_unit_t unit;
    isa_timing_class_t timing;
    uint32_t pairs; /* ISA_F_RD_PAIR | ISA_F_RS_PAIR | ISA_F_NO_IMM | ISA_F_LINK as documented */
} doc_row_t;

#define RD ISA_F_RD_PAIR
#define RS ISA_F_RS_PAIR
#define NOIMM ISA_F_NO_IMM
static const doc_row_t documented[] = {
    {"nop", ISA_FMT_NONE, ISA_UNIT_NONE, ISA_T_INT, 0},
    {"halt", ISA_FMT_NONE, ISA_UNIT_SYS, ISA_T_INT, 0},
    {"trap", ISA_FMT_TRAP, ISA_UNIT_SYS, ISA_T_INT, 0},
    {"add", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"sub", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"and", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"or", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"xor", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"nor", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"sll", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"srl", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"sra", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"slt", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"sltu", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"seq", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"sne", ISA_FMT_RRX, ISA_UNIT_ALU, ISA_T_INT, 0},
    {"mul", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IMUL, 0},
    {"mulh", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IMUL, 0},
    {"mulhu", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IMUL, 0},
    {"div", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IDIV, 0},
    {"divu", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IDIV, 0},
    {"rem", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IDIV, 0},
    {"remu", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_IDIV, 0},
    {"fadd.s", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fsub.s", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fmul.s", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_FMUL_S, 0},
    {"fdiv.s", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_FDIV_S, 0},
    {"feq.s", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"flt.s", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fle.s", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fneg.s", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fabs.s", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"fadd.d", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_D, RD | RS | NOIMM},
    {"fsub.d", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_D, RD | RS | NOIMM},
    {"fmul.d", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_FMUL_D, RD | RS | NOIMM},
    {"fdiv.d", ISA_FMT_RRX, ISA_UNIT_FPM, ISA_T_FDIV_D, RD | RS | NOIMM},
    {"feq.d", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_D, RS | NOIMM},
    {"flt.d", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_D, RS | NOIMM},
    {"fle.d", ISA_FMT_RRX, ISA_UNIT_FPA, ISA_T_FADD_D, RS | NOIMM},
    {"fneg.d", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RD | RS},
    {"fabs.d", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RD | RS},
    {"fmov.d", ISA_FMT_RR, ISA_UNIT_ALU, ISA_T_INT, RD | RS},
    {"cvt.s.w", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"cvt.w.s", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_S, 0},
    {"cvt.d.w", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RD},
    {"cvt.w.d", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RS},
    {"cvt.d.s", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RD},
    {"cvt.s.d", ISA_FMT_RR, ISA_UNIT_FPA, ISA_T_FADD_D, RS},
    {"ldw", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"ldh", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"ldhu", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"ldb", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"ldbu", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"ldd", ISA_FMT_LD, ISA_UNIT_MEM, ISA_T_MEM_D, RD},
    {"stw", ISA_FMT_ST, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"sth", ISA_FMT_ST, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"stb", ISA_FMT_ST, ISA_UNIT_MEM, ISA_T_MEM, 0},
    {"std", ISA_FMT_ST, ISA_UNIT_MEM, ISA_T_MEM_D, RD},
    {"beq", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"bne", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"blt", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"bge", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"bltu", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"bgeu", ISA_FMT_BR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"loop", ISA_FMT_LOOP, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"jmp", ISA_FMT_J, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"call", ISA_FMT_J, ISA_UNIT_CTRL, ISA_T_BRANCH, ISA_F_LINK},
    {"jr", ISA_FMT_JR, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"callr", ISA_FMT_JR, ISA_UNIT_CTRL, ISA_T_BRANCH, ISA_F_LINK},
    {"rdcr", ISA_FMT_LD, ISA_UNIT_CR, ISA_T_CR, 0},
    {"rfe", ISA_FMT_NONE, ISA_UNIT_CTRL, ISA_T_BRANCH, 0},
    {"wfe", ISA_FMT_NONE, ISA_UNIT_SYS, ISA_T_INT, 0},
    {"wrcr", ISA_FMT_ST, ISA_UNIT_CR, ISA_T_CR, 0},
};
#undef RD
#undef RS
#undef NOIMM

static void test_every_row_has_mnemonic_format_unit_and_timing_class(void **state)
{
    unsigned rows = 0;
    const uint32_t known_flags = ISA_F_RD_PAIR | ISA_F_RS_PAIR | ISA_F_NO_IMM | ISA_F_FLOAT_IMM | ISA_F_LINK;
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info == NULL)
            continue;
        rows++;
        assert_non_null(info->mnemonic);
        assert_true(strlen(info->mnemonic) > 0);
        assert_true(info->format < ISA_FMT_COUNT);
        assert_true(info->unit < ISA_UNIT_COUNT);
        assert_true(info->timing < ISA_T_COUNT);
        assert_true(info->faults <= ISA_FAULTS_MAY);
        assert_int_equal(info->flags & ~known_flags, 0);
        assert_int_equal(isa_opcode_by_mnemonic(info->mnemonic, strlen(info->mnemonic)), opc);
        const char *key = isa_timing_key(info->timing);
        assert_non_null(key);
        assert_int_equal(isa_timing_lookup(key), info->timing);
        assert_string_not_equal(isa_unit_name(info->unit), "?");
    }
    assert_int_equal(rows, sizeof documented / sizeof documented[0]);
    assert_null(isa_op_info(ISA_OPCODE_LIMIT));
}

static void test_rows_are_the_documented_operations(void **state)
{
    const uint32_t checked = ISA_F_RD_PAIR | ISA_F_RS_PAIR | ISA_F_NO_IMM | ISA_F_LINK;
    for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++) {
        const doc_row_t *d = &documented[i];
        int opc = isa_opcode_by_mnemonic(d->mnemonic, strlen(d->mnemonic));
        if (opc < 0)
            fail_msg("documented operation %s has no row", d->mnemonic);
        const isa_op_info_t *info = isa_op_info((unsigned)opc);
        assert_non_null(info);
        if (info->format != d->format || info->unit != d->unit || info->timing != d->timing ||
            (info->flags & checked) != d->pairs)
            fail_msg("%s: row has format %d unit %s timing %s flags 0x%x; docs/isa.md says format %d unit %s "
                     "timing %s flags 0x%x",
                     d->mnemonic, info->format, isa_unit_name(info->unit), isa_timing_key(info->timing),
                     info->flags & checked, d->format, isa_unit_name(d->unit), isa_timing_key(d->timing), d->pairs);
    }
}

static void test_float_immediates_on_single_arithmetic(void **state)
{
    static const char *const with_float_imm[] = {"fadd.s", "fsub.s", "fmul.s", "fdiv.s"};
    for (size_t i = 0; i < sizeof with_float_imm / sizeof with_float_imm[0]; i++) {
        int opc = isa_opcode_by_mnemonic(with_float_imm[i], strlen(with_float_imm[i]));
        assert_true(opc >= 0);
        assert_true(isa_op_info((unsigned)opc)->flags & ISA_F_FLOAT_IMM);
    }
    /* Integer rows never take float literals. */
    for (unsigned opc = 0; opc < ISA_OPCODE_LIMIT; opc++) {
        const isa_op_info_t *info = isa_op_info(opc);
        if (info != NULL && (info->unit == ISA_UNIT_ALU || info->unit == ISA_UNIT_MEM))
            assert_false(info->flags & ISA_F_FLOAT_IMM);
    }
}

static void test_timing_defaults_match_documented_table(void **state)
{
    static const struct {
        const char *key;
        unsigned clocks;
    } doc[] = {
        {"int", 1},     {"imul", 3},    {"idiv", 31}, {"fadd_s", 2}, {"fadd_d", 4}, {"fmul_s", 2}, {"fmul_d", 4},
        {"fdiv_s", 15}, {"fdiv_d", 31}, {"mem", 2},   {"mem_d", 4},  {"branch", 1}, {"cr", 1},     {"event", 4},
    };
    isa_timing_t t;
    isa_timing_defaults(&t);
    emu_machine_t m;
    emu_machine_defaults(&m);
    assert_int_equal(ISA_T_COUNT, sizeof doc / sizeof doc[0]);
    for (size_t i = 0; i < sizeof doc / sizeof doc[0]; i++) {
        int c = isa_timing_lookup(doc[i].key);
        if (c < 0)
            fail_msg("timing class %s is documented but unknown", doc[i].key);
        assert_int_equal(t.clocks[c], doc[i].clocks);
        assert_int_equal(m.timing.clocks[c], doc[i].clocks);
    }
    assert_int_equal(isa_timing_lookup("nonsense"), -1);
}

static void test_unit_limits_match_documented_bundle_rules(void **state)
{
    assert_int_equal(isa_unit_limit(ISA_UNIT_ALU), 2);
    assert_int_equal(isa_unit_limit(ISA_UNIT_FPA), 1);
    assert_int_equal(isa_unit_limit(ISA_UNIT_FPM), 1);
    assert_int_equal(isa_unit_limit(ISA_UNIT_MEM), 2);
    assert_int_equal(isa_unit_limit(ISA_UNIT_CR), 1);
    assert_int_equal(isa_unit_limit(ISA_UNIT_CTRL), 1);
    assert_true(isa_unit_limit(ISA_UNIT_NONE) >= ISA_BUNDLE_MAX_OPS);
    assert_int_equal(ISA_BUNDLE_MAX_OPS, 8);
}

static void test_timing_keys_are_accepted_by_machine_descriptions(void **state)
{
    for (unsigned t = 0; t < ISA_T_COUNT; t++) {
        emu_machine_t m;
        emu_machine_defaults(&m);
        char key[64], err[200];
        snprintf(key, sizeof key, "timing.%s", isa_timing_key((isa_timing_class_t)t));
        assert_int_equal(emu_machine_set(&m, key, "7", err, sizeof err), 0);
        assert_int_equal(m.timing.clocks[t], 7);
    }
}

static void test_register_names_follow_documented_roles(void **state)
{
    char buf[8];
    assert_int_equal(isa_reg_parse("zero", 4), 0);
    assert_int_equal(isa_reg_parse("ra", 2), ISA_REG_LINK);
    assert_int_equal(isa_reg_parse("sp", 2), ISA_REG_SP);
    assert_int_equal(isa_reg_parse("a0", 2), 3);
    assert_int_equal(isa_reg_parse("a7", 2), 10);
    assert_int_equal(isa_reg_parse("gi0", 3), 124);
    assert_int_equal(isa_reg_parse("gi1", 3), 125);
    assert_int_equal(isa_reg_parse("go0", 3), 126);
    assert_int_equal(isa_reg_parse("go1", 3), 127);
    assert_string_equal(isa_reg_name(124, buf), "gi0");
    assert_string_equal(isa_reg_name(127, buf), "go1");
    assert_string_equal(isa_reg_name(123, buf), "r123");
    assert_true(isa_reg_is_gate_in(124) && isa_reg_is_gate_in(125));
    assert_true(isa_reg_is_gate_out(126) && isa_reg_is_gate_out(127));
    assert_false(isa_reg_is_gate(123));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_has_mnemonic_format_unit_and_timing_class),
        cmocka_unit_test(test_rows_are_the_documented_operations),
        cmocka_unit_test(test_float_immediates_on_single_arithmetic),
        cmocka_unit_test(test_timing_defaults_match_documented_table),
        cmocka_unit_test(test_unit_limits_match_documented_bundle_rules),
        cmocka_unit_test(test_timing_keys_are_accepted_by_machine_descriptions),
        cmocka_unit_test(test_register_names_follow_documented_roles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
