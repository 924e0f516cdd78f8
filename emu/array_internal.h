/* Internals of the array and its cells, shared by the files of emu/ only. */
#ifndef EMU_ARRAY_INTERNAL_H
#define EMU_ARRAY_INTERNAL_H

#include "coa.h"
#include "emu.h"

enum { EMU_CONSOLE_LINE = 4096 }; /* longer console lines are split */

typedef struct emu_block emu_block_t;
typedef struct emu_watch emu_watch_t;

/* A cell's state besides its CA's and its agent's: a snapshot copies it whole. */
typedef struct emu_cell_saved {
    uint64_t now;                 /* clock of the step in progress, for control-register reads */
    uint64_t moved_seen;          /* coa.moved when the CA last found its gate blocked */
    uint64_t progress_at;         /* last clock at which the CA issued or a word moved here */
    uint64_t awake_bundles;       /* bundles outside handlers since the CA last went to sleep in wfe */
    char console[EMU_CONSOLE_LINE];
    unsigned console_len;
    uint32_t marks[EMU_MAX_MARKS_PER_CLOCK];
    unsigned nmarks;
    uint64_t marks_clock; /* the clock the marks were raised in */
} emu_cell_saved_t;

/* A CA that ran ahead of its cell's clock (cell.c): how it was before, to put back and run again only as far
 * as the array got if the run ends first, and what it did, for the books once the array catches up. */
typedef struct emu_ahead {
    uint64_t last_issue; /* the clock of the last bundle it ran */
    uint64_t until;      /* its ready_at after them: the array has caught up at this clock */
    ca_state_block_t s;  /* the CA before the first */
    ca_undo_t undo;
} emu_ahead_t;

typedef struct emu_cell {
    /* First, at the cell's own address: the step passes it to the core's calls at every clock with no add, and the
     * compiler then keeps no copy of it on the stack. */
    ca_t ca;
    unsigned x, y;
    emu_array_t *array;
    uint8_t *mem;
    coa_t coa;
    coa_line_t out[COA_NUM_DIRS]; /* the links leaving this cell; the neighbours read them */
    emu_cell_saved_t saved;       /* with ca.s and coa (but its wiring), what a snapshot keeps */
    /* Scheduling (schedule.c): a dormant cell is not stepped until a neighbour posts to one of its links
     * (woken) or its timer comes (wake_at). Neighbours on other threads read `dormant` and write `woken`. All
     * a block's scan of its cells reads of each is here, on one cache line. */
    _Alignas(64) _Atomic bool dormant;
    _Atomic bool woken;
    bool napping;       /* dormant with its core busy: it stays in its block's list */
    bool nap_fresh;     /* napping since the last clock: posts of that clock from other threads are not yet seen */
    bool sleep_fresh;   /* asleep (dormant, not napping) since the last clock: the same */
    bool sleep_waiting; /* asleep with its CA waiting (on a gate or in wfe): the run is not done */
    uint8_t cross; /* the directions whose neighbour another thread steps: both lines that way cross */
    uint64_t wake_at;
    emu_block_t *block;
    uint64_t stuck_since; /* dormant with a stuck agent (coa_stuck) from this clock on; 0: not so */
    uint64_t stuck_clocks; /* host statistic: clocks not stepped so (emu_array_stuck_clocks) */
    emu_ahead_t *ahead;    /* made at the CA's first run ahead */
    bool ahead_active;     /* its CA ran ahead and the array has not caught up */
    uint64_t ahead_bundles; /* host statistic: bundles it ran ahead (emu_array_ahead_bundles) */
    uint64_t ahead_diverted; /* host statistic: runs ahead an arrival cut short (emu_array_ahead_diverted) */
    /* A run ahead from this pc issued too few bundles to pay for itself: the next tries there step instead. */
    uint32_t ahead_short_pc;
    unsigned ahead_short_skips;
    emu_watch_t *watch; /* a tool's (emu_array_watch, watch.h); NULL when none */
} emu_cell_t;

/* The cells one thread steps, [first, last), and which of them are awake. Its own cache lines: the blocks of
 * two threads sit side by side. */
struct emu_block {
    _Alignas(64) unsigned first, last;
    emu_cell_t **awake; /* the cells stepped each clock, in index order (pointers: no multiply a cell), then one more */
    unsigned nawake;
    bool dirty;               /* a cell went dormant this clock: confirm it at the next */
    unsigned wakes_seen;
    uint64_t wake_at;         /* the earliest timer among the dormant cells */
    unsigned dormant_waiting; /* dormant cells whose CA waits on a gate or in wfe: the run is not done */
    unsigned *edge;           /* the cells with a link to another block, which the block prefetches */
    unsigned nedge;
    _Alignas(64) _Atomic unsigned wakes; /* bumped by whoever wakes a dormant cell of this block */
};

/* What one clock of a group of cells tells the array. */
typedef struct emu_step_summary {
    uint64_t next;          /* earliest clock at which any of them can change */
    uint64_t progress_at;   /* latest clock with progress */
    /* Bit 1 << ca_state_t of each CA stepped (or of what a dormant one would add): one or for a cell, where
     * three flags took a test each. Read through the three below. */
    uint32_t states;
    bool stop;              /* a stop was requested before this clock ran */
} emu_step_summary_t;
#define EMU_STATE_BIT(st) (1u << (st))
static inline bool emu_summary_faulted(const emu_step_summary_t *s) { return s->states & EMU_STATE_BIT(CA_FAULTED); }
/* Some CA not yet halted or faulted. */
static inline bool emu_summary_running(const emu_step_summary_t *s)
{
    return s->states & (EMU_STATE_BIT(CA_RUNNING) | EMU_STATE_BIT(CA_WAITING));
}
/* Some CA blocked on a gate. */
static inline bool emu_summary_waiting(const emu_step_summary_t *s) { return s->states & EMU_STATE_BIT(CA_WAITING); }
/* What one cell (or block) adds to a clock's summary. */
static inline void emu_summary_add(emu_step_summary_t *s, uint64_t next, uint64_t progress_at, uint32_t states)
{
    if (next < s->next)
        s->next = next;
    if (progress_at > s->progress_at)
        s->progress_at = progress_at;
    s->states |= states;
}

/* The clock state every thread keeps a copy of, changed only by emu_clock_decide. */
typedef struct emu_run_clock {
    uint64_t clock;
    uint64_t last_progress;
} emu_run_clock_t;

struct emu_array {
    emu_machine_t machine;
    unsigned ncells;
    emu_cell_t *cells; /* row-major: index y * width + x */
    emu_program_t **programs;
    unsigned nprograms;
    uint64_t clock;
    uint64_t last_progress; /* last clock at which any cell progressed (deadlock detection) */
    unsigned nthreads;
    volatile bool stop_requested;
    char deadlock[8192];    /* the wait cycle found when the run stopped on a deadlock */
    emu_wait_cycle_t deadlock_cycle; /* ... and its steps (not kept by snapshots: n = 0 after a restore) */
    emu_output_fn output;
    void *output_user;
    emu_hooks_t hooks;
    bool has_hooks;
    emu_driver_t driver; /* clock NULL: the cells' CAs run (drive.c) */
    uint64_t run_limit; /* of the run in progress: no CA runs ahead to it (a run returns with every cell there) */
    uint64_t last_ran; /* the last clock the serial loop executed (marks belong to it) */
    bool ran_any;
    emu_block_t *blocks; /* EMU_MAX_BLOCKS of them, made at the first run */
    unsigned *edge;      /* ncells: the blocks' edge lists */
    emu_cell_t **awake;  /* ncells cells and a sentinel a block: each block's awake list is a slice */
};

static inline emu_cell_t *emu_array_cell(emu_array_t *a, unsigned x, unsigned y)
{
    return &a->cells[y * a->machine.width + x];
}

#endif
