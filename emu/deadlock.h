/* Deadlock reports (deadlock.c). */
#ifndef EMU_DEADLOCK_H
#define EMU_DEADLOCK_H

#include "cell.h"

/* Finds the cycle of waiting cells and channels, writes it to a->deadlock and faults the cells on it. */
void emu_deadlock_report(emu_array_t *a);

#endif
