/*
 * Operation dispatch for the core (Lua's vmdispatch idea): a plain switch by default, computed goto
 * when the compiler has it and the `computed_goto` build option is on. Both expand the same handler
 * bodies in ca.c. The goto table is generated from isa.def (CA_JUMP_TABLE_ENTRY), so in that build a
 * table row without a handler does not compile. Handlers sit inside the per-operation loop: CA_NEXT
 * moves on to the bundle's next operation.
 */
#ifndef EMU_CA_DISPATCH_H
#define EMU_CA_DISPATCH_H

#include "iwarp_config.h"

#if IWARP_COMPUTED_GOTO && defined(__GNUC__)
#define CA_USE_JUMP_TABLE 1
/* Label addresses and `goto *` are GNU extensions, hence the local pragma. */
#define CA_JUMP_TABLE_ENTRY(id, opc, mn, fmt, unit, timing, faults, flags) [opc] = &&op_##id,
#define CA_DISPATCH(opcode)                                                                                          \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpedantic\"") goto *ca_jump_table[opcode];   \
    _Pragma("GCC diagnostic pop")
#define CA_LABEL(id) op_##id:
#define CA_DEFAULT op_default: __attribute__((unused));
/* The run-ahead's bundle endings (EMU_AHEAD_ENDS in program.h), past the opcodes in its table. */
#define CA_JUMP_TABLE_END_ENTRY(id, doc) [EMU_AHEAD_##id] = &&end_##id,
#define CA_CASE_END(id) end_##id:
#else
#define CA_USE_JUMP_TABLE 0
#define CA_DISPATCH(opcode) switch (opcode)
#define CA_LABEL(id) case ISA_OP_##id:
#define CA_DEFAULT default:
#define CA_CASE_END(id) case EMU_AHEAD_##id:
#endif
/* A handler's entry: the bare label, which the run-ahead follows with its operand loads. */
#define CA_CASE(id) CA_LABEL(id)
#define CA_NEXT continue

#endif
