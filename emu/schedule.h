/* Blocks of cells stepped by events (schedule.c): dormant cells cost nothing until woken. */
#ifndef EMU_SCHEDULE_H
#define EMU_SCHEDULE_H

/* schedule.c compiled a second time for the agent's default keys (comm_agent/coa.h, COA_KEY_OF) defines its
 * functions under names of their own. */
#ifdef COA_DEFAULT_KEYS
#define emu_blocks_prepare emu_blocks_prepare_default_keys
#define emu_block_step emu_block_step_default_keys
#define emu_block_alone emu_block_alone_default_keys
#endif

#include "cell.h"
#include "clock.h"

/* Splits the cells into n blocks (n <= EMU_MAX_BLOCKS), every cell awake. Returns 0, or -1 when out of memory. */
enum { EMU_MAX_BLOCKS = 256 };
int emu_blocks_prepare(emu_array_t *a, unsigned n);
/* One clock of the awake cells of block b, folded into *sum. */
void emu_block_step(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum);
/* The same, compiled with the agent's keys fixed at their defaults: for an array whose machine has them (threads.c
 * chooses). */
void emu_block_step_default_keys(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum);
/* One clock of every cell of block b driven by the array's driver (drive.c), folded into *sum. */
void emu_block_drive(emu_array_t *a, emu_block_t *b, uint64_t now, emu_step_summary_t *sum);
/* While the block's one awake cell computes alone (serial runs without hooks), runs its clocks in a tight
 * loop: the same steps and the same decisions, without the array's per-clock machinery. Returns true when the
 * run stops (with *st); false when the general loop must take the next clock. */
bool emu_block_alone(emu_array_t *a, emu_block_t *b, emu_run_clock_t *rc, uint64_t limit, emu_run_status_t *st);

#endif
