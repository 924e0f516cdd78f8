#include "fault.h"

const char *emu_fault_kind_name(emu_fault_kind_t kind)
{
    static const char *const names[EMU_FAULT_COUNT] = {
#define X(id, text) text,
        EMU_FAULT_KINDS(X)
#undef X
    };
    return kind < EMU_FAULT_COUNT ? names[kind] : "unknown fault";
}
