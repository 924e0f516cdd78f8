/*
 * A tiny program builder for the core's unit tests: isa_op_t values in, an isa_image_t out, with labels
 * for branch targets and addresses, a data section and source lines. It encodes with isa_encode_bundle
 * and never validates, so a test can also build illegal bundles on purpose. It does not use the
 * assembler, so these tests do not depend on it.
 *
 *     pb_t *p = pb_new();
 *     PB(p, pb_li(3, 100));
 *     pb_label(p, "top");
 *     PB(p, pb_ri(ISA_OP_ADD, 4, 4, 1), pb_loop(3, "top"));   // one bundle of two operations
 *     PB(p, pb_halt());
 *     pb_finish(p, &image, err, sizeof err);
 *
 * Out of memory aborts: this is test code.
 */
#ifndef TESTS_CA_PROG_BUILDER_H
#define TESTS_CA_PROG_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "image.h"
#include "isa.h"

enum {
    PB_TEXT_BASE = 0x1000,  /* the machine's default text_base */
    PB_DATA_BASE = 0x10000, /* the data section, unless pb_set_data_base says otherwise */
};

/* One operation of a bundle being built. When target is not NULL, the extension word becomes the address
 * of that label (text or data) plus ext, resolved by pb_finish. */
typedef struct pb_op {
    isa_op_t op;
    const char *target;
} pb_op_t;

typedef struct pb pb_t;

pb_t *pb_new(void);
void pb_free(pb_t *p);

/* Layout, before anything is emitted. */
void pb_set_text_base(pb_t *p, uint32_t base);
void pb_set_data_base(pb_t *p, uint32_t base);
/* The entry point: a label, or (with label NULL) an absolute address; default the text base. */
void pb_set_entry(pb_t *p, const char *label, uint32_t addr);

/* Text. pb_emit writes one bundle (the C bits chain its operations) and returns its address. */
uint32_t pb_here(const pb_t *p);
void pb_label(pb_t *p, const char *name);
uint32_t pb_emit(pb_t *p, const pb_op_t *ops, unsigned n);
void pb_word(pb_t *p, uint32_t word); /* a raw word in the text (data, garbage, a hand-made encoding) */
/* The source position recorded for the next bundle, for fault reports. */
void pb_line(pb_t *p, const char *file, unsigned line, unsigned col);

/* Data; labels in it may be used as targets too. */
uint32_t pb_data_here(const pb_t *p);
void pb_data_label(pb_t *p, const char *name);
void pb_data_align(pb_t *p, unsigned align);
void pb_data_word(pb_t *p, uint32_t word); /* little-endian */
void pb_data_bytes(pb_t *p, const void *bytes, size_t n);
void pb_bss(pb_t *p, uint32_t bytes);

/* The address of a label defined so far, or UINT32_MAX. */
uint32_t pb_addr(const pb_t *p, const char *label);

/* Resolves the labels and hands over an image the caller owns (isa_image_free). Call it once; afterwards
 * only pb_addr, pb_here and pb_free remain useful. Returns 0, or -1 with a message (an undefined label). */
int pb_finish(pb_t *p, isa_image_t *out, char *err, size_t errlen);

/* Writes a bundle of already resolved operations into an isa_bundle_t (for the encoder tests). */
void pb_to_bundle(const pb_op_t *ops, unsigned n, isa_bundle_t *out);

#define PB_COUNT(...) ((unsigned)(sizeof((const pb_op_t[]){__VA_ARGS__}) / sizeof(pb_op_t)))
/* Emits one bundle: PB(p, op, op, ...). */
#define PB(p, ...) pb_emit((p), (const pb_op_t[]){__VA_ARGS__}, PB_COUNT(__VA_ARGS__))

/* --- operation constructors --- */

static inline pb_op_t pb_raw(unsigned opcode, unsigned rd, unsigned rs1, unsigned rs2, bool has_ext, uint32_t ext)
{
    pb_op_t o = {{(uint8_t)opcode, (uint8_t)rd, (uint8_t)rs1, (uint8_t)rs2, has_ext, has_ext ? ext : 0}, NULL};
    return o;
}

/* Operand 2 a register: RRX (also the double operations), LD and ST with [rs1 + rs2]. */
static inline pb_op_t pb_rr(unsigned opcode, unsigned rd, unsigned rs1, unsigned rs2)
{
    return pb_raw(opcode, rd, rs1, rs2, false, 0);
}

/* Operand 2 an immediate: RRX, LD and ST with [rs1 + imm], rdcr/wrcr. */
static inline pb_op_t pb_ri(unsigned opcode, unsigned rd, unsigned rs1, uint32_t imm)
{
    return pb_raw(opcode, rd, rs1, 0, true, imm);
}

static inline uint32_t pb_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline uint64_t pb_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* A float immediate (fadd.s rd, rs1, 1.5). */
static inline pb_op_t pb_rf(unsigned opcode, unsigned rd, unsigned rs1, float imm)
{
    return pb_ri(opcode, rd, rs1, pb_f32(imm));
}

/* RR format: fneg.s rd, rs1; cvt.*; fmov.d. */
static inline pb_op_t pb_r(unsigned opcode, unsigned rd, unsigned rs1)
{
    return pb_raw(opcode, rd, rs1, 0, false, 0);
}

/* li rd, imm is add rd, zero, imm. */
static inline pb_op_t pb_li(unsigned rd, uint32_t imm)
{
    return pb_ri(ISA_OP_ADD, rd, ISA_REG_ZERO, imm);
}

static inline pb_op_t pb_with_target(pb_op_t o, const char *label)
{
    o.target = label;
    return o;
}

/* la rd, label: the label's address into rd. */
static inline pb_op_t pb_la(unsigned rd, const char *label)
{
    return pb_with_target(pb_li(rd, 0), label);
}

static inline pb_op_t pb_br(unsigned opcode, unsigned rs1, unsigned rs2, const char *label)
{
    return pb_with_target(pb_raw(opcode, 0, rs1, rs2, true, 0), label);
}

static inline pb_op_t pb_loop(unsigned rd, const char *label)
{
    return pb_with_target(pb_raw(ISA_OP_LOOP, rd, 0, 0, true, 0), label);
}

/* jmp or call to a label. */
static inline pb_op_t pb_j(unsigned opcode, const char *label)
{
    return pb_with_target(pb_raw(opcode, 0, 0, 0, true, 0), label);
}

/* jmp, call, branch or loop to an absolute address (for bad targets). */
static inline pb_op_t pb_to(pb_op_t o, uint32_t target)
{
    o.target = NULL;
    o.op.ext = target;
    return o;
}

/* jr or callr. */
static inline pb_op_t pb_jr(unsigned opcode, unsigned rs1)
{
    return pb_raw(opcode, 0, rs1, 0, false, 0);
}

static inline pb_op_t pb_trap(uint32_t code)
{
    return pb_raw(ISA_OP_TRAP, 0, 0, 0, true, code);
}
static inline pb_op_t pb_nop(void)
{
    return pb_raw(ISA_OP_NOP, 0, 0, 0, false, 0);
}
static inline pb_op_t pb_halt(void)
{
    return pb_raw(ISA_OP_HALT, 0, 0, 0, false, 0);
}

#endif
