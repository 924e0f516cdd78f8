/*
 * The iWarp-flavoured instruction set: encodings, the operation table and bundle rules.
 *
 * An operation is one 32-bit word, optionally followed by one 32-bit extension word:
 *
 *   31  30  29            22 21        15 14         8 7          1  0
 *  +---+---+----------------+------------+------------+------------+---+
 *  | C | X |  opcode (8)    |   rd (7)   |  rs1 (7)   |  rs2 (7)   | 0 |
 *  +---+---+----------------+------------+------------+------------+---+
 *  [ extension word (32): immediate operand, or branch/jump target, present when X = 1 ]
 *
 *  C   chain: another operation of the same long instruction word (LIW bundle) follows.
 *  X   extension: the next word belongs to this operation. For formats with a second operand
 *      (RRX, LD, ST) it replaces rs2 by a 32-bit immediate; for BR, LOOP, J it is the target address;
 *      for TRAP it is the trap code. Unused register fields and bit 0 must be zero.
 *
 * An instruction is a bundle: the operations up to and including the first one with C = 0. All
 * operations of a bundle read their operands before any of them writes, and the bundle takes as many
 * clocks as its slowest operation (isa_bundle_check lists what may be combined).
 *
 * Registers r0..r127 are 32 bits. r0 reads as zero and ignores writes. r124/r125 are the input gates
 * gi0/gi1 (a read pops a word from the bound logical channel, stalling while it is empty); r126/r127 are
 * the output gates go0/go1 (a write pushes a word, stalling while the channel is full). Doubles live in
 * even/odd pairs, low word in the even register.
 */
#ifndef ISA_ISA_H
#define ISA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    ISA_NUM_REGS = 128,
    ISA_REG_ZERO = 0,
    ISA_REG_LINK = 1,  /* written by call/callr */
    ISA_REG_SP = 2,    /* by convention; set to the top of memory at load */
    ISA_REG_A0 = 3,    /* first argument register; a0..a7 = r3..r10 */
    ISA_REG_GI0 = 124,
    ISA_REG_GI1 = 125,
    ISA_REG_GO0 = 126,
    ISA_REG_GO1 = 127,
    ISA_NUM_GATES_IN = 2,
    ISA_NUM_GATES_OUT = 2,
    ISA_BUNDLE_MAX_OPS = 8,
};

/* Bit positions of the operation word (see the diagram above). */
enum {
    ISA_BIT_CHAIN = 31,
    ISA_BIT_EXT = 30,
    ISA_SHIFT_OPCODE = 22,
    ISA_SHIFT_RD = 15,
    ISA_SHIFT_RS1 = 8,
    ISA_SHIFT_RS2 = 1,
    ISA_MASK_OPCODE = 0xff,
    ISA_MASK_REG = 0x7f,
};

typedef enum isa_format {
    ISA_FMT_NONE, /* op                                  */
    ISA_FMT_RRX,  /* op rd, rs1, rs2|imm                 */
    ISA_FMT_RR,   /* op rd, rs1                          */
    ISA_FMT_LD,   /* op rd, [rs1 + rs2|imm]              */
    ISA_FMT_ST,   /* op rd, [rs1 + rs2|imm]  (rd is read) */
    ISA_FMT_BR,   /* op rs1, rs2, target                 */
    ISA_FMT_LOOP, /* op rd, target                       */
    ISA_FMT_J,    /* op target                           */
    ISA_FMT_JR,   /* op rs1                              */
    ISA_FMT_TRAP, /* op code                             */
    ISA_FMT_COUNT
} isa_format_t;

typedef enum isa_unit {
    ISA_UNIT_NONE, /* nop: any number per bundle */
    ISA_UNIT_ALU,
    ISA_UNIT_FPA,  /* floating-point adder */
    ISA_UNIT_FPM,  /* floating-point multiplier (also integer multiply/divide) */
    ISA_UNIT_MEM,
    ISA_UNIT_CTRL,
    ISA_UNIT_CR,   /* control-register port of the communication agent */
    ISA_UNIT_SYS,  /* halt, trap: alone in their bundle */
    ISA_UNIT_COUNT
} isa_unit_t;

/* Whether an operation's handler can fault (the FAULTS column of isa.def). */
typedef enum isa_faults {
    ISA_FAULTS_NEVER,  /* on no operands */
    ISA_FAULTS_TARGET, /* only by a jump to the target written in the operation */
    ISA_FAULTS_MAY,    /* on some operands' values (a zero divisor, an address, a register) or always (trap) */
} isa_faults_t;

enum isa_flag {
    ISA_F_RD_PAIR = 1u << 0,   /* rd names an even/odd pair */
    ISA_F_RS_PAIR = 1u << 1,   /* rs1 (and rs2) name pairs */
    ISA_F_NO_IMM = 1u << 2,    /* operand 2 must be a register */
    ISA_F_FLOAT_IMM = 1u << 3, /* an immediate operand 2 is written as a float literal */
    ISA_F_LINK = 1u << 4,      /* writes the return address to r1 */
};

typedef enum isa_opcode {
#define ISA_OP(id, opc, mn, fmt, unit, timing, faults, flags) ISA_OP_##id = (opc),
#include "isa.def"
#undef ISA_OP
    ISA_OPCODE_LIMIT = 256
} isa_opcode_t;

typedef enum isa_timing_class {
#define ISA_TIMING(id, clocks, key) ISA_T_##id,
#include "timing.def"
#undef ISA_TIMING
    ISA_T_COUNT
} isa_timing_class_t;

typedef struct isa_op_info {
    const char *mnemonic; /* NULL for an unassigned opcode */
    isa_format_t format;
    isa_unit_t unit;
    isa_timing_class_t timing;
    isa_faults_t faults;
    uint32_t flags;
} isa_op_info_t;

/* One decoded operation. */
typedef struct isa_op {
    uint8_t opcode;
    uint8_t rd, rs1, rs2;
    bool has_ext;
    uint32_t ext; /* immediate, target or trap code when has_ext */
} isa_op_t;

/* One decoded instruction (LIW bundle). */
typedef struct isa_bundle {
    uint8_t count;
    isa_op_t ops[ISA_BUNDLE_MAX_OPS];
} isa_bundle_t;

/* Clocks per timing class, and the bypass delays of the core's pipeline (docs/isa.md, "Bypass stalls"); a machine
 * description may change them. */
typedef struct isa_timing {
    uint16_t clocks[ISA_T_COUNT];
    /* Clocks after a load's access ends before any unit can read the loaded word: a loaded word is not bypassed. */
    unsigned bypass_load;
    /* Clocks after any other result is computed before the memory unit can read it as an address or a word to
     * store: the bypass serves the computing units and branches, the memory unit reads the register file. */
    unsigned bypass_mem_operand;
} isa_timing_t;

/* The largest bypass delay: a delay of at most one clock ends within the next instruction (every instruction takes
 * a clock at least), so a stall depends on the instruction just before alone. */
enum { ISA_BYPASS_MAX = 1 };

typedef enum isa_error {
    ISA_OK = 0,
    ISA_ERR_OPCODE,        /* no operation has this opcode */
    ISA_ERR_FIELDS,        /* a field the format does not use is not zero, or X is wrong */
    ISA_ERR_REGISTER,      /* register not allowed here (gate direction, odd pair, pair over a gate) */
    ISA_ERR_TRUNCATED,     /* the bundle or an extension word runs past the end */
    ISA_ERR_BUNDLE_SIZE,   /* more than ISA_BUNDLE_MAX_OPS operations */
    ISA_ERR_BUNDLE_UNIT,   /* too many operations for one functional unit */
    ISA_ERR_BUNDLE_SYS,    /* halt or trap shares its bundle */
    ISA_ERR_BUNDLE_WRITE,  /* two operations write the same register */
    ISA_ERR_BUNDLE_GATE,   /* a gate is read (or written) more than once */
} isa_error_t;

/* Table lookups. */
const isa_op_info_t *isa_op_info(unsigned opcode); /* NULL when unassigned */
const char *isa_error_string(isa_error_t err);
const char *isa_unit_name(isa_unit_t unit);
unsigned isa_unit_limit(isa_unit_t unit); /* operations of this unit allowed per bundle */
const char *isa_timing_key(isa_timing_class_t t);
void isa_timing_defaults(isa_timing_t *timing);
int isa_timing_lookup(const char *key); /* timing class for a machine-description key, or -1 */

/* Opcode by mnemonic ("fadd.s"); -1 when none. */
int isa_opcode_by_mnemonic(const char *mnemonic, size_t len);

/* Which operand fields an operation uses. */
bool isa_format_has_rd(isa_format_t f);
bool isa_format_has_rs1(isa_format_t f);
bool isa_format_has_operand2(isa_format_t f); /* rs2 or immediate, selected by X */
bool isa_format_has_rs2_reg(isa_format_t f);  /* rs2 always a register (BR) */
bool isa_format_needs_ext(isa_format_t f);    /* X must be 1 */

/* Register roles, for the bundle checks and for the core. */
static inline bool isa_reg_is_gate(unsigned r) { return r >= ISA_REG_GI0; }
static inline bool isa_reg_is_gate_in(unsigned r) { return r == ISA_REG_GI0 || r == ISA_REG_GI1; }
static inline bool isa_reg_is_gate_out(unsigned r) { return r == ISA_REG_GO0 || r == ISA_REG_GO1; }

/* Registers an operation reads and writes (pairs expanded, r0 included, link register included).
 * Returns the count written to out (at most 4 reads / 3 writes). */
unsigned isa_op_reads(const isa_op_t *op, uint8_t out[4]);
unsigned isa_op_writes(const isa_op_t *op, uint8_t out[3]);

/* Number of words (1 or 2) the operation occupies. */
static inline unsigned isa_op_words(const isa_op_t *op) { return op->has_ext ? 2u : 1u; }

/* Encoding. isa_encode_op writes 1 or 2 words; chain sets the C bit. Does not validate. */
unsigned isa_encode_op(const isa_op_t *op, bool chain, uint32_t out[2]);
/* Writes a bundle; returns the number of words, or 0 if out_cap is too small. */
size_t isa_encode_bundle(const isa_bundle_t *b, uint32_t *out, size_t out_cap);

/* Checks one operation's fields against its table row. */
isa_error_t isa_op_check(const isa_op_t *op);
/* Checks the combination rules of a bundle (each op is assumed to pass isa_op_check).
 * On failure *bad_op is the index of the operation that broke the rule. */
isa_error_t isa_bundle_check(const isa_bundle_t *b, unsigned *bad_op);

/* Decodes the bundle starting at words[0]; *used receives the number of words consumed.
 * Fully validates the ops and the bundle rules. */
isa_error_t isa_decode_bundle(const uint32_t *words, size_t nwords, isa_bundle_t *out, size_t *used);

/* The registers' names besides rN, in register order: zero, ra, sp, a0..a7 (the calling convention) and the gates
 * gi0, gi1, go0, go1. The assembler, the disassembler and the debugger read this one list. */
typedef struct isa_reg_alias {
    const char *name;
    uint8_t reg;
} isa_reg_alias_t;
const isa_reg_alias_t *isa_reg_aliases(size_t *n);

/* Register name as the disassembler writes it ("r5", "gi0", "go1"); buf needs 8 bytes. */
const char *isa_reg_name(unsigned r, char buf[8]);
/* The conventional name of a register, as the debugger shows registers: its alias (ra, a0, gi0, ...), else rN. */
const char *isa_reg_alias_name(unsigned r, char buf[8]);
/* Parses a register name (rN or an alias); -1 when not a register. */
int isa_reg_parse(const char *s, size_t len);

/* Word accesses to memory an operation makes (2 for ldd/std, 1 for other loads and stores, else 0). */
unsigned isa_op_mem_accesses(const isa_op_t *op);

/* Clocks a bundle takes when nothing stalls: its slowest operation, and at least one clock per memory word
 * access. */
unsigned isa_bundle_clocks(const isa_bundle_t *b, const isa_timing_t *t);

#endif
