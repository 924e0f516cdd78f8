/* Deadlock reports (deadlock.c). */
#ifndef EMU_DEADLOCK_H
#define EMU_DEADLOCK_H

#include "cell.h"

/* Finds the cycle of waiting cells and channels and writes it to a->deadlock and its steps to a->deadlock_cycle;
 * returns whether one closed (else a->deadlock holds the first chain of waits, or nothing, and no steps). */
bool emu_deadlock_report(emu_array_t *a);

#endif
