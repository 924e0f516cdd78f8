/* One cell of the array (cell.c): its CA and agent stepped a clock, put to sleep and woken, wired to its
 * neighbours. The bottom layer of the array: clock.h, schedule.h, threads.h and array.c build on it. */
#ifndef EMU_CELL_H
#define EMU_CELL_H

/* cell_port.c compiled a second time for the agent's default keys (comm_agent/coa.h, COA_KEY_OF) defines its ports
 * under names of their own. */
#ifdef COA_DEFAULT_KEYS
#define emu_cell_port emu_cell_port_default_keys
#define emu_cell_watched_port emu_cell_watched_port_default_keys
#endif

#include "array_internal.h"

/* Up to this many bundles between waking from wfe and sleeping in it again are a program looking whether
 * something came (the wait loops of runtime/msg.s take a dozen), not progress. */
enum { EMU_RECHECK_BUNDLES = 64 };

int emu_cell_init(emu_cell_t *c, emu_array_t *a, unsigned x, unsigned y);
/* Whether a cell's saved state from outside (a snapshot file) is one it can run on (cell_check.c). 0, or -1 with
 * "FIELD is VALUE, ..." in err. */
int emu_cell_saved_check(const emu_cell_saved_t *s, char *err, size_t errlen);
void emu_cell_free(emu_cell_t *c);
/* One clock of the cell, folded into the summary. */
void emu_cell_step(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum);
/* One clock of a cell that runs alone (emu_block_alone has checked that it may), folded into the summary. */
void emu_cell_step_alone(emu_cell_t *c, uint64_t now, emu_step_summary_t *sum);
/* The clocks of a cell that runs alone, from the current one (its CA's ready_at) up to below `horizon`, in one go
 * (ca_run_alone), for as long as each clock would only issue the next bundle: the summary is the one the last
 * of those clocks would have given (its clock in c->saved.now). Returns false, having run nothing, when the
 * bundle at pc cannot run ahead. */
bool emu_cell_run_alone(emu_cell_t *c, uint64_t horizon, emu_step_summary_t *sum);
/* What a cell does after its step (emu_cell_step_next). */
typedef enum emu_cell_next {
    EMU_CELL_AWAKE,  /* it is stepped at the next clock */
    EMU_CELL_SLEEPS, /* stepping it changes nothing until a word is posted to it or its timer comes (c->wake_at,
                      * or UINT64_MAX): it may go dormant. Its agent may be stuck (c->stuck_since): then each
                      * clock would add to its waits, which emu_cell_unstick adds up when it wakes */
    EMU_CELL_NAPS,   /* its next clocks, up to c->wake_at, would each find its core still busy with the bundle
                      * it issued (a load, a multiply) and its agent idle with nothing coming in: it may nap,
                      * staying in its block's list but not stepped until then or until a neighbour posts to it */
} emu_cell_next_t;
/* What emu_cell_step_next may answer besides AWAKE and a sleep with an idle agent. */
enum {
    EMU_MAY_NAP = 1,   /* EMU_CELL_NAPS */
    EMU_MAY_STICK = 2, /* EMU_CELL_SLEEPS with a stuck agent: only where nothing reads the cell mid-run */
};
/* emu_cell_step_next: cell_step.h. */
/* At the end of a run, at `clock` (the clocks below it ran): a CA that ran ahead beyond it is put back and run
 * again up to below it; its bundles count as progress (last_progress) as each would have when it issued. */
void emu_cell_settle_ahead(emu_cell_t *c, uint64_t clock, uint64_t *last_progress);
/* The waits a stuck agent's clocks up to below `now` would have added (as its cell wakes: its block's rebuild, or
 * emu_cell_step; the end of a run, for the cells still stuck). */
void emu_cell_unstick(emu_cell_t *c, uint64_t now);
/* Called by a neighbour that posts to a dormant cell's link (possibly from another thread). */
void emu_cell_wake(void *cell);
/* Wires the links of every cell to its torus neighbours. */
void emu_cell_wire(emu_array_t *a, emu_cell_t *c);
/* Gives the cell watch w (watch.h; NULL: none), freeing the one it had. */
void emu_cell_set_watch(emu_cell_t *c, emu_watch_t *w);
/* The port a cell's CA meets its agent by (cell_port.c): with the watch's logs or without, and compiled with the
 * agent's keys fixed when keys are the defaults. The ports' control registers are cell.c's, the same in all four. */
const ca_port_ops_t *emu_cell_port_ops(const coa_config_t *keys, bool watched);
extern const ca_port_ops_t emu_cell_port, emu_cell_watched_port;
extern const ca_port_ops_t emu_cell_port_default_keys, emu_cell_watched_port_default_keys;
int emu_cell_cr_read(void *ctx, uint32_t index, uint32_t *value);
int emu_cell_cr_write(void *ctx, uint32_t index, uint32_t value);
/* Sends what is left in a cell's console buffer. */
void emu_cell_flush_console(emu_cell_t *c);
/* " (file:line:col)" of pc in the cell's program, or "" when no line is known. */
void emu_source_text(const ca_t *ca, uint32_t pc, char *buf, size_t cap);
/* Whether the cell's CA issues bundles after `now` with no word arriving: it runs, or its timer will wake it from
 * wfe or divert it into a handler (the livelock report). */
bool emu_cell_runs_on(const emu_cell_t *c, uint64_t now);

#endif
