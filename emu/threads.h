/* Runs of the array (threads.c): serial, or blocks on host threads that wait for each other after each clock. */
#ifndef EMU_THREADS_H
#define EMU_THREADS_H

#include "schedule.h"

emu_run_status_t emu_array_run_threads(emu_array_t *a, uint64_t limit);
emu_run_status_t emu_array_run_serial(emu_array_t *a, uint64_t limit);

#endif
