/* Livelock reports (livelock.c). */
#ifndef EMU_LIVELOCK_H
#define EMU_LIVELOCK_H

#include "cell.h"

/* The deadlock window has closed (no progress for deadlock_clocks while some CA waited): whether some CA still
 * runs, or a timer will run it, with no word arriving. If so, writes to a->deadlock which cells still run and
 * where, and when the last word moved, and returns true: the run is a livelock, not a deadlock. */
bool emu_livelock_report(emu_array_t *a);

#endif
