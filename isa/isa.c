/* The operation table expanded into lookups, plus encoding, decoding and the bundle rules. */
#include "isa.h"

#include <stdio.h>
#include <string.h>

static const isa_op_info_t op_table[ISA_OPCODE_LIMIT] = {
#define ISA_OP(id, opc, mn, fmt, unit, timing, faults, flags) \
    [opc] = {mn, ISA_FMT_##fmt, ISA_UNIT_##unit, ISA_T_##timing, ISA_FAULTS_##faults, (flags)},
#include "isa.def"
#undef ISA_OP
};

static const struct {
    const char *key;
    uint16_t clocks;
} timing_table[ISA_T_COUNT] = {
#define ISA_TIMING(id, clocks, key) [ISA_T_##id] = {key, clocks},
#include "timing.def"
#undef ISA_TIMING
};

const isa_op_info_t *isa_op_info(unsigned opcode)
{
    if (opcode >= ISA_OPCODE_LIMIT || op_table[opcode].mnemonic == NULL)
        return NULL;
    return &op_table[opcode];
}

const char *isa_error_string(isa_error_t err)
{
    switch (err) {
    case ISA_OK: return "ok";
    case ISA_ERR_OPCODE: return "illegal opcode";
    case ISA_ERR_FIELDS: return "unused field not zero or wrong extension bit";
    case ISA_ERR_REGISTER: return "register not allowed in this operand";
    case ISA_ERR_TRUNCATED: return "instruction runs past the end of the text";
    case ISA_ERR_BUNDLE_SIZE: return "too many operations in one bundle";
    case ISA_ERR_BUNDLE_UNIT: return "too many operations for one functional unit in a bundle";
    case ISA_ERR_BUNDLE_SYS: return "halt and trap must be alone in their bundle";
    case ISA_ERR_BUNDLE_WRITE: return "two operations of a bundle write the same register";
    case ISA_ERR_BUNDLE_GATE: return "a gate is used twice in one bundle";
    }
    return "unknown error";
}

const char *isa_unit_name(isa_unit_t unit)
{
    static const char *const names[ISA_UNIT_COUNT] = {"none", "alu", "fpa", "fpm", "mem", "ctrl", "cr", "sys"};
    return unit < ISA_UNIT_COUNT ? names[unit] : "?";
}

unsigned isa_unit_limit(isa_unit_t unit)
{
    /* Two integer ALUs and two memory operations (the memory takes a word access per clock, and an LIW
     * instruction keeps it busy on both clocks of its memory operations: seed 004, "LIW coding allows
     * saturating one link sending and another receiving"); one of everything else. */
    switch (unit) {
    case ISA_UNIT_NONE: return ISA_BUNDLE_MAX_OPS;
    case ISA_UNIT_ALU:
    case ISA_UNIT_MEM: return 2;
    default: return 1;
    }
}

const char *isa_timing_key(isa_timing_class_t t) { return t < ISA_T_COUNT ? timing_table[t].key : NULL; }

void isa_timing_defaults(isa_timing_t *timing)
{
    for (unsigned i = 0; i < ISA_T_COUNT; i++)
        timing->clocks[i] = timing_table[i].clocks;
    /* The address relation caching paper (Dinda and O'Hallaron, section 4.1) counts its iWarp loops "dynamically
     * by accounting for bypass stalls"; docs/isa.md gives the rule these two delays make. */
    timing->bypass_load = 1;
    timing->bypass_mem_operand = 1;
}

int isa_timing_lookup(const char *key)
{
    for (unsigned i = 0; i < ISA_T_COUNT; i++)
        if (strcmp(timing_table[i].key, key) == 0)
            return (int)i;
    return -1;
}

int isa_opcode_by_mnemonic(const char *mnemonic, size_t len)
{
    for (unsigned i = 0; i < ISA_OPCODE_LIMIT; i++) {
        const char *m = op_table[i].mnemonic;
        if (m != NULL && strlen(m) == len && strncmp(m, mnemonic, len) == 0)
            return (int)i;
    }
    return -1;
}

bool isa_format_has_rd(isa_format_t f)
{
    return f == ISA_FMT_RRX || f == ISA_FMT_RR || f == ISA_FMT_LD || f == ISA_FMT_ST || f == ISA_FMT_LOOP;
}

bool isa_format_has_rs1(isa_format_t f)
{
    return f == ISA_FMT_RRX || f == ISA_FMT_RR || f == ISA_FMT_LD || f == ISA_FMT_ST || f == ISA_FMT_BR ||
           f == ISA_FMT_JR;
}

bool isa_format_has_operand2(isa_format_t f) { return f == ISA_FMT_RRX || f == ISA_FMT_LD || f == ISA_FMT_ST; }

bool isa_format_has_rs2_reg(isa_format_t f) { return f == ISA_FMT_BR; }

bool isa_format_needs_ext(isa_format_t f)
{
    return f == ISA_FMT_BR || f == ISA_FMT_LOOP || f == ISA_FMT_J || f == ISA_FMT_TRAP;
}

static unsigned push_reg(uint8_t *out, unsigned n, unsigned r, bool pair)
{
    out[n++] = (uint8_t)r;
    if (pair)
        out[n++] = (uint8_t)(r + 1);
    return n;
}

unsigned isa_op_reads(const isa_op_t *op, uint8_t out[4])
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL)
        return 0;
    isa_format_t f = info->format;
    bool rs_pair = (info->flags & ISA_F_RS_PAIR) != 0;
    unsigned n = 0;
    switch (f) {
    case ISA_FMT_RRX:
        n = push_reg(out, n, op->rs1, rs_pair);
        if (!op->has_ext)
            n = push_reg(out, n, op->rs2, rs_pair);
        break;
    case ISA_FMT_RR: n = push_reg(out, n, op->rs1, rs_pair); break;
    case ISA_FMT_LD:
        n = push_reg(out, n, op->rs1, false);
        if (!op->has_ext)
            n = push_reg(out, n, op->rs2, false);
        break;
    case ISA_FMT_ST:
        n = push_reg(out, n, op->rd, (info->flags & ISA_F_RD_PAIR) != 0);
        n = push_reg(out, n, op->rs1, false);
        if (!op->has_ext)
            n = push_reg(out, n, op->rs2, false);
        break;
    case ISA_FMT_BR:
        n = push_reg(out, n, op->rs1, false);
        n = push_reg(out, n, op->rs2, false);
        break;
    case ISA_FMT_LOOP: n = push_reg(out, n, op->rd, false); break;
    case ISA_FMT_JR: n = push_reg(out, n, op->rs1, false); break;
    default: break;
    }
    return n;
}

unsigned isa_op_writes(const isa_op_t *op, uint8_t out[3])
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL)
        return 0;
    unsigned n = 0;
    switch (info->format) {
    case ISA_FMT_RRX:
    case ISA_FMT_RR:
    case ISA_FMT_LD: n = push_reg(out, n, op->rd, (info->flags & ISA_F_RD_PAIR) != 0); break;
    case ISA_FMT_LOOP: n = push_reg(out, n, op->rd, false); break;
    default: break;
    }
    if (info->flags & ISA_F_LINK)
        n = push_reg(out, n, ISA_REG_LINK, false);
    return n;
}

unsigned isa_encode_op(const isa_op_t *op, bool chain, uint32_t out[2])
{
    out[0] = (chain ? 1u : 0u) << ISA_BIT_CHAIN | (op->has_ext ? 1u : 0u) << ISA_BIT_EXT |
             (uint32_t)op->opcode << ISA_SHIFT_OPCODE | (uint32_t)(op->rd & ISA_MASK_REG) << ISA_SHIFT_RD |
             (uint32_t)(op->rs1 & ISA_MASK_REG) << ISA_SHIFT_RS1 | (uint32_t)(op->rs2 & ISA_MASK_REG) << ISA_SHIFT_RS2;
    if (!op->has_ext)
        return 1;
    out[1] = op->ext;
    return 2;
}

size_t isa_encode_bundle(const isa_bundle_t *b, uint32_t *out, size_t out_cap)
{
    size_t n = 0;
    for (unsigned i = 0; i < b->count; i++) {
        uint32_t w[2];
        unsigned k = isa_encode_op(&b->ops[i], i + 1 < b->count, w);
        if (n + k > out_cap)
            return 0;
        for (unsigned j = 0; j < k; j++)
            out[n++] = w[j];
    }
    return n;
}

static bool pair_ok(unsigned r) { return (r & 1u) == 0 && !isa_reg_is_gate(r); }

isa_error_t isa_op_check(const isa_op_t *op)
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL)
        return ISA_ERR_OPCODE;
    isa_format_t f = info->format;
    bool rd_used = isa_format_has_rd(f);
    bool rs1_used = isa_format_has_rs1(f);
    bool rs2_used = isa_format_has_rs2_reg(f) || (isa_format_has_operand2(f) && !op->has_ext);

    if (op->rd > ISA_MASK_REG || op->rs1 > ISA_MASK_REG || op->rs2 > ISA_MASK_REG)
        return ISA_ERR_FIELDS;
    if ((!rd_used && op->rd) || (!rs1_used && op->rs1) || (!rs2_used && op->rs2))
        return ISA_ERR_FIELDS;
    if (isa_format_needs_ext(f) && !op->has_ext)
        return ISA_ERR_FIELDS;
    if (op->has_ext && !isa_format_needs_ext(f) && !(isa_format_has_operand2(f) && !(info->flags & ISA_F_NO_IMM)))
        return ISA_ERR_FIELDS;
    if (!op->has_ext && op->ext != 0)
        return ISA_ERR_FIELDS;

    bool rd_pair = (info->flags & ISA_F_RD_PAIR) != 0;
    bool rs_pair = (info->flags & ISA_F_RS_PAIR) != 0;
    if (rd_used && rd_pair && !pair_ok(op->rd))
        return ISA_ERR_REGISTER;
    if (rs_pair && ((rs1_used && !pair_ok(op->rs1)) || (rs2_used && !pair_ok(op->rs2))))
        return ISA_ERR_REGISTER;

    /* Gate direction: input gates are only read, output gates only written. */
    uint8_t regs[4];
    unsigned nr = isa_op_reads(op, regs);
    for (unsigned i = 0; i < nr; i++)
        if (isa_reg_is_gate_out(regs[i]))
            return ISA_ERR_REGISTER;
    unsigned nw = isa_op_writes(op, regs);
    for (unsigned i = 0; i < nw; i++)
        if (isa_reg_is_gate_in(regs[i]))
            return ISA_ERR_REGISTER;
    if (f == ISA_FMT_LOOP && isa_reg_is_gate(op->rd))
        return ISA_ERR_REGISTER;
    return ISA_OK;
}

isa_error_t isa_bundle_check(const isa_bundle_t *b, unsigned *bad_op)
{
    unsigned unit_count[ISA_UNIT_COUNT] = {0};
    bool written[ISA_NUM_REGS] = {false};
    bool gate_read[ISA_NUM_REGS] = {false};
    unsigned dummy;
    if (bad_op == NULL)
        bad_op = &dummy;
    *bad_op = 0;
    if (b->count > ISA_BUNDLE_MAX_OPS)
        return ISA_ERR_BUNDLE_SIZE;

    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_t *op = &b->ops[i];
        const isa_op_info_t *info = isa_op_info(op->opcode);
        *bad_op = i;
        if (info == NULL)
            return ISA_ERR_OPCODE;
        if (info->unit == ISA_UNIT_SYS && b->count > 1)
            return ISA_ERR_BUNDLE_SYS;
        if (++unit_count[info->unit] > isa_unit_limit(info->unit))
            return ISA_ERR_BUNDLE_UNIT;

        uint8_t regs[4];
        unsigned nr = isa_op_reads(op, regs);
        for (unsigned k = 0; k < nr; k++) {
            if (!isa_reg_is_gate_in(regs[k]))
                continue;
            if (gate_read[regs[k]])
                return ISA_ERR_BUNDLE_GATE;
            gate_read[regs[k]] = true;
        }
        unsigned nw = isa_op_writes(op, regs);
        for (unsigned k = 0; k < nw; k++) {
            if (regs[k] == ISA_REG_ZERO)
                continue;
            if (written[regs[k]])
                return isa_reg_is_gate_out(regs[k]) ? ISA_ERR_BUNDLE_GATE : ISA_ERR_BUNDLE_WRITE;
            written[regs[k]] = true;
        }
    }
    return ISA_OK;
}

isa_error_t isa_decode_bundle(const uint32_t *words, size_t nwords, isa_bundle_t *out, size_t *used)
{
    size_t at = 0;
    out->count = 0;
    *used = 0;
    for (;;) {
        if (at >= nwords)
            return ISA_ERR_TRUNCATED;
        if (out->count == ISA_BUNDLE_MAX_OPS)
            return ISA_ERR_BUNDLE_SIZE;
        uint32_t w = words[at++];
        isa_op_t *op = &out->ops[out->count++];
        op->opcode = (uint8_t)(w >> ISA_SHIFT_OPCODE & ISA_MASK_OPCODE);
        op->rd = (uint8_t)(w >> ISA_SHIFT_RD & ISA_MASK_REG);
        op->rs1 = (uint8_t)(w >> ISA_SHIFT_RS1 & ISA_MASK_REG);
        op->rs2 = (uint8_t)(w >> ISA_SHIFT_RS2 & ISA_MASK_REG);
        op->has_ext = (w >> ISA_BIT_EXT & 1u) != 0;
        op->ext = 0;
        if ((w & 1u) != 0)
            return ISA_ERR_FIELDS;
        if (op->has_ext) {
            if (at >= nwords)
                return ISA_ERR_TRUNCATED;
            op->ext = words[at++];
        }
        isa_error_t e = isa_op_check(op);
        if (e != ISA_OK)
            return e;
        if ((w >> ISA_BIT_CHAIN & 1u) == 0)
            break;
    }
    *used = at;
    return isa_bundle_check(out, NULL);
}

static const isa_reg_alias_t reg_aliases[] = {
    {"zero", ISA_REG_ZERO}, {"ra", ISA_REG_LINK},   {"sp", ISA_REG_SP},     {"a0", ISA_REG_A0},
    {"a1", ISA_REG_A0 + 1}, {"a2", ISA_REG_A0 + 2}, {"a3", ISA_REG_A0 + 3}, {"a4", ISA_REG_A0 + 4},
    {"a5", ISA_REG_A0 + 5}, {"a6", ISA_REG_A0 + 6}, {"a7", ISA_REG_A0 + 7}, {"gi0", ISA_REG_GI0},
    {"gi1", ISA_REG_GI1},   {"go0", ISA_REG_GO0},   {"go1", ISA_REG_GO1},
};
enum { NUM_REG_ALIASES = sizeof reg_aliases / sizeof reg_aliases[0] };

const isa_reg_alias_t *isa_reg_aliases(size_t *n)
{
    *n = NUM_REG_ALIASES;
    return reg_aliases;
}

const char *isa_reg_alias_name(unsigned r, char buf[8])
{
    for (size_t i = 0; i < NUM_REG_ALIASES; i++)
        if (reg_aliases[i].reg == r)
            return reg_aliases[i].name;
    snprintf(buf, 8, "r%u", r & 0x7fu);
    return buf;
}

const char *isa_reg_name(unsigned r, char buf[8])
{
    /* The disassembler writes rN but for the gates, whose names say which way the words go. */
    if (isa_reg_is_gate(r) && r < ISA_NUM_REGS)
        return isa_reg_alias_name(r, buf);
    snprintf(buf, 8, "r%u", r & 0x7fu);
    return buf;
}

int isa_reg_parse(const char *s, size_t len)
{
    for (size_t i = 0; i < NUM_REG_ALIASES; i++)
        if (strlen(reg_aliases[i].name) == len && strncmp(reg_aliases[i].name, s, len) == 0)
            return reg_aliases[i].reg;
    if (len < 2 || len > 4 || s[0] != 'r')
        return -1;
    int v = 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    if ((len > 2 && s[1] == '0') || v >= ISA_NUM_REGS)
        return -1;
    return v;
}

unsigned isa_op_mem_accesses(const isa_op_t *op)
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL || info->unit != ISA_UNIT_MEM)
        return 0;
    return info->timing == ISA_T_MEM_D ? 2u : 1u;
}

unsigned isa_bundle_clocks(const isa_bundle_t *b, const isa_timing_t *t)
{
    unsigned clocks = 1, accesses = 0;
    for (unsigned i = 0; i < b->count; i++) {
        const isa_op_info_t *info = isa_op_info(b->ops[i].opcode);
        if (info != NULL && t->clocks[info->timing] > clocks)
            clocks = t->clocks[info->timing];
        accesses += isa_op_mem_accesses(&b->ops[i]);
    }
    /* The memory performs one word access per clock. */
    return clocks > accesses ? clocks : accesses;
}
