/*
 * A program predecoded once from an image and shared by every cell that runs it: each bundle's
 * operations, clocks, gate use and successor, so the core never decodes while it runs.
 */
#ifndef EMU_PROGRAM_H
#define EMU_PROGRAM_H

#include <stdint.h>

#include "image.h"
#include "isa.h"

enum {
    EMU_BUNDLE_ILLEGAL = 1u << 0, /* did not decode: executing it faults */
    EMU_BUNDLE_MEM = 1u << 1,     /* uses the memory port this clock */
    EMU_BUNDLE_SIMPLE = 1u << 2,  /* one operation, no gates: no staging needed */
    EMU_BUNDLE_WFE = 1u << 3,     /* waits for network activity before it issues */
    EMU_BUNDLE_PORT = 1u << 4,    /* touches the agent: a gate, a control register, or wfe */
    EMU_BUNDLE_ALONE = 1u << 5,   /* may run ahead (ca_run_alone): not PORT nor ILLEGAL, no halt, trap or rfe */
    EMU_BUNDLE_TARGETS_OK = 1u << 6, /* every target in its operations starts a bundle: checked once, here */
    EMU_BUNDLE_DIRECT = 1u << 7,  /* its operations may write registers and memory as they go (program.c says when) */
    EMU_BUNDLE_RUN_AHEAD = 1u << 8, /* ALONE and DIRECT: the core's fast loop (run_ahead in ca.c) takes it */
    EMU_BUNDLE_DYN_TARGET = 1u << 9, /* jumps where a register says (jr, callr, rfe): the stall before its target is
                                      * found as it runs (emu_program_stall_to) */
    EMU_BUNDLE_PLAIN = 1u << 10,     /* no system operation nor control register write: ca_ops.inc has every
                                      * handler */
    EMU_BUNDLE_PORT_AHEAD = 1u << 11, /* PLAIN and DIRECT, with gates or a control register read: once ca_step has
                                       * taken its gates, the run-ahead's code runs it (ALONE and RUN_AHEAD but for
                                       * its port); or a RUN_AHEAD bundle that emu_program_stop_ahead keeps from
                                       * running ahead */
    EMU_BUNDLE_CR_WRITE_ALONE = 1u << 12, /* SIMPLE, a wrcr: nothing to stage, so ca_step runs it without issue() */
    EMU_BUNDLE_GATES = 1u << 13, /* gates_in or gates_out: one test where a stepped bundle may take gates */
    EMU_BUNDLE_LONE_CORE = 1u << 14, /* RUN_AHEAD or PORT_AHEAD, one operation with no memory access nor gate: an
                                      * add, sub, and, or, xor or rdcr to a register other than r0, or a beq or bne
                                      * (each bundle of the runtimes' wait loops but their wfe), which ca_step runs
                                      * without run_one */
    EMU_BUNDLE_RUN_ONE = 1u << 15, /* RUN_AHEAD or PORT_AHEAD but not LONE_CORE: ca_step runs it with run_one, one test
                                    * for its common bundles */
};

typedef struct emu_bundle {
    uint32_t pc;
    uint32_t next_pc;
    uint32_t first_op; /* index into emu_program_t.ops */
    uint16_t clocks;
    uint8_t count;
    uint8_t gates_in;  /* bit g set: reads input gate g */
    uint8_t gates_out; /* bit g set: writes output gate g */
    uint16_t flags;
    uint8_t error;        /* isa_error_t when EMU_BUNDLE_ILLEGAL */
    uint8_t mem_accesses; /* memory word accesses: the memory is the CA's for this many clocks from issue */
    uint8_t mem_reads, mem_writes; /* of those, words loaded and stored: the statistics the bundle adds */
    /* Clocks from this bundle's issue to the next one's: its clocks and the bypass stall (docs/isa.md) of the bundle
     * after it in the text, and of its branch target (for EMU_BUNDLE_DYN_TARGET, its clocks alone). */
    uint16_t clocks_fall, clocks_taken;
    uint32_t first_ahead; /* index into emu_program_t.ahead_ops */
} emu_bundle_t;

/* The run-ahead's form of the program (ca_run_ahead.inc, built by program.c): each bundle's operations, then
 * one of these pseudo-operations, which ends the bundle and goes on to the next. Which one is chosen here, once, so
 * that the common bundle pays for none of the tests the others need. X(ID, DOC). */
#define EMU_AHEAD_ENDS(X)                                                                                              \
    X(END, "no branch, no memory access, no write to r0, and the bundle after it runs ahead too")                      \
    X(END_MEM, "as END, with memory accesses")                                                                         \
    X(END_JUMP, "a branch to a target written in it, which runs ahead; no write to r0")                                \
    X(END_ANY, "anything else: the branch taken or not, r0, and whether the bundle it goes to runs ahead")

enum {
#define X(id, doc) EMU_AHEAD_##id,
    EMU_AHEAD_LAST_OPCODE = ISA_OPCODE_LIMIT - 1, /* the endings come after every opcode */
    EMU_AHEAD_ENDS(X)
#undef X
        EMU_AHEAD_OPCODE_LIMIT
};

/* An operation as the run-ahead reads it: the fields of isa_op_t, its second operand found without a test, and the
 * bundle it belongs to; or a bundle's ending, with what it needs to go on to the next bundle. */
typedef struct emu_ahead_op {
    uint16_t opcode; /* an isa opcode or EMU_AHEAD_END... */
    uint16_t clocks; /* an ending's: the bundle's clocks_fall */
    union {
        /* The second operand is regs[v2_reg] + ext: rs2 and 0, or for an immediate r0 and the immediate. r0 holds 0
         * whenever an operation that reads it runs ahead: an immediate's rs2 field is 0 (isa_op_check), which
         * writes_direct (program.c) counts as a read, so no write to r0 comes before it in its bundle. */
        struct {
            uint8_t rd, rs1, rs2, v2_reg;
        };
        struct {
            uint8_t mem_accesses; /* the bundle's memory word accesses */
            bool next_runs;       /* the bundle after it in the text is EMU_BUNDLE_RUN_AHEAD */
            uint16_t clocks_taken;
        };
    };
    union {
        uint32_t ext;
        int32_t jump; /* END_JUMP: its target's first operation, counted from this ending */
    };
    uint32_t bundle; /* index into emu_program_t.bundles */
} emu_ahead_op_t;

/* The statistics bundles 0..k-1 add when each issues once (the bundles themselves, k, are the index): a run of
 * bundles from i to j in text order adds sums[j + 1] - sums[i], so the run-ahead counts at its jumps, not at
 * every bundle. */
typedef struct emu_bundle_sums {
    uint64_t ops, busy_clocks, mem_reads, mem_writes;
} emu_bundle_sums_t;

typedef struct emu_program {
    isa_image_t image;      /* owned */
    isa_timing_t timing;    /* the machine's clocks the program was predecoded with */
    uint32_t text_base;
    uint32_t text_end;      /* byte address after the text */
    int32_t *bundle_at;     /* per text word: index of the bundle starting there, or -1 */
    const emu_bundle_t **bundle_of; /* per text word: the bundle starting there, or NULL (one load a look-up) */
    emu_bundle_t *bundles;  /* nbundles, then a sentinel with no flags: the run-ahead stops at it */
    uint32_t nbundles;
    isa_op_t *ops;
    uint32_t nops;
    uint16_t max_clocks;    /* the longest bundle's clocks, with the bypass stall after it */
    emu_ahead_op_t *ahead_ops; /* nops + nbundles: each bundle's operations and its ending */
    emu_bundle_sums_t *sums;   /* nbundles + 1 */
} emu_program_t;

/* Takes ownership of *image (it is zeroed). Returns 0, or -1 with a message. */
int emu_program_init(emu_program_t *p, isa_image_t *image, const isa_timing_t *timing, char *err, size_t errlen);
void emu_program_free(emu_program_t *p);

/* The bundle at pc runs at its clock from now on, never in a run-ahead (EMU_BUNDLE_ALONE, RUN_AHEAD): a run-ahead
 * stops there, so that the clock the pc got there is known (emu_array_watch). */
void emu_program_stop_ahead(emu_program_t *p, uint32_t pc);

/* The bundle starting at pc, or NULL when pc is not the start of an instruction in the text. */
static inline const emu_bundle_t *emu_program_bundle(const emu_program_t *p, uint32_t pc)
{
    /* One test for all three ways to miss: the word index rotated, so that a pc off a word boundary is as far out
     * of the text as one below it (the offset wraps) or past it. The text does not wrap (emu_program_init). */
    uint32_t off = pc - p->text_base;
    uint32_t word = off >> 2 | off << 30;
    if (word >= p->image.text_words)
        return 0;
    return p->bundle_of[word];
}

/* The bypass stall (docs/isa.md) of bundle `to` issued right after `from`: the clocks it waits, after from's clocks,
 * for a result of from that is not yet where it reads it. */
unsigned emu_program_stall(const emu_program_t *p, const emu_bundle_t *from, const emu_bundle_t *to);
/* The same for the bundle at pc (none there: 0), for jumps whose target a register holds. */
unsigned emu_program_stall_to(const emu_program_t *p, const emu_bundle_t *from, uint32_t pc);
/* Clocks of one trip round the loop whose bundles run from pc `from` up to `to` (its last bundle branches back):
 * each bundle's clocks and the bypass stall before the next, the last one's before its branch target. 0 when
 * from..to is not a run of bundles. */
uint64_t emu_program_loop_clocks(const emu_program_t *p, uint32_t from, uint32_t to);

#endif
