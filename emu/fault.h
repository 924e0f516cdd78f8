/* Faults: why a cell stopped. A fault stops its cell, never the host process. */
#ifndef EMU_FAULT_H
#define EMU_FAULT_H

#include <stdint.h>

#define EMU_FAULT_KINDS(X)                                                                                       \
    X(NONE, "no fault")                                                                                        \
    X(ILLEGAL_INSTRUCTION, "illegal instruction")                                                              \
    X(BAD_PC, "bad program counter")                                                                           \
    X(BAD_ADDRESS, "bad address")                                                                              \
    X(MISALIGNED, "misaligned address")                                                                        \
    X(WRITE_TO_TEXT, "store into the program text")                                                           \
    X(DIVIDE_BY_ZERO, "integer divide by zero")                                                                \
    X(TRAP, "trap")                                                                                            \
    X(UNBOUND_GATE, "gate not bound to a logical channel")                                                     \
    X(BAD_CONTROL_REGISTER, "bad control register")                                                            \
    X(DEADLOCK, "deadlock")                                                                                    \
    X(NETWORK, "network fault")

typedef enum emu_fault_kind {
#define X(id, text) EMU_FAULT_##id,
    EMU_FAULT_KINDS(X)
#undef X
        EMU_FAULT_COUNT
} emu_fault_kind_t;

typedef struct emu_fault {
    emu_fault_kind_t kind;
    uint32_t pc;     /* of the bundle that faulted */
    uint64_t cycle;  /* clock at which it faulted */
    uint32_t addr;   /* the address, target, gate, register or trap code involved */
    char detail[96]; /* the rest of the reason, in words */
} emu_fault_t;

const char *emu_fault_kind_name(emu_fault_kind_t kind);

#endif
