/*
 * The per-phase account of a ConSet run (docs/conset.md, "Where a phase's clocks go"): where each phase's
 * clocks went, from what the cells did at the clocks they did it. Nothing is added to the program: a tool
 * watching after every clock (or the cells' own logs, phase_account_watch) sees the clock a cell's pc reaches
 * the labels runtime/conset.s puts at a phase's milestones, the marks it raises (the phase's number) and the
 * cell's gate words while it streams.
 *
 * The k-th switch of every cell is one row: every cell takes part in every switch (its barrier waits for all).
 * Milestones are counted as the clock after the one that did them (the clocks elapsed by then).
 */
#ifndef RUNNER_PHASE_ACCOUNT_H
#define RUNNER_PHASE_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu.h"

/* Per cell, the milestones of one switch. The first five are labels of runtime/conset.s. */
typedef enum phase_milestone {
    PM_SYNC,           /* conset_sync: done with the previous phase, entering the switch's barrier */
    PM_SYNCED,         /* conset_synced: left the barrier (every cell in the same clock, within 2) */
    PM_SWITCHED,       /* conset_switched: the phase's tables loaded, the agent awake */
    PM_STREAM,         /* conset_transfer: starts streaming (its first call after the switch) */
    PM_DONE,           /* conset_transfer_done: its last segment over */
    PM_FIRST_SENT,     /* its first data word written to an output gate while streaming */
    PM_FIRST_RECEIVED, /* its first data word read from an input gate while streaming */
    PM_LAST_SENT,
    PM_LAST_RECEIVED,
    PM_COUNT,
    PM_LABELS = PM_FIRST_SENT,
} phase_milestone_t;

extern const char *const phase_milestone_names[PM_COUNT];

/* One phase of the whole array: the milestones that bound its parts (every one UINT64_MAX until seen), the
 * parts, which add up to its total, and the slowest cell. */
typedef struct phase_row {
    unsigned switch_index; /* 0, 1, ...: the row */
    int phase;             /* the phase the switch instantiated (its mark), -1 until seen */
    bool complete;         /* every cell has ended its transfer */
    uint64_t start;        /* the previous phase's end (for the first, its last cell entering the barrier) */
    uint64_t barrier_in;   /* the last cell entering the barrier */
    uint64_t barrier_out;  /* the last cell leaving it */
    uint64_t loaded;       /* the last cell with its tables loaded */
    uint64_t stream_start; /* the first cell starting to stream */
    uint64_t first_sent, first_received, last_sent, last_received;
    uint64_t end; /* the last cell done */
    /* The parts, each from where the one before ended (a milestone that came sooner than the one before it
     * counts from there: a first word received before the last cell loaded its tables makes `first` 0). */
    uint64_t other;                /* the program between two phases: start -> barrier_in */
    uint64_t sync;                 /* barrier_in -> barrier_out */
    uint64_t load;                 /* barrier_out -> loaded */
    uint64_t first;                /* loaded -> first_received */
    uint64_t transfer;             /* first_received -> last_sent */
    uint64_t drain;                /* last_sent -> end */
    uint64_t total;                /* start -> end */
    uint64_t latency;              /* stream_start -> first_received, not a part: the first word's own latency */
    unsigned slowest_x, slowest_y; /* the cell done last (the lowest id of equals) ... */
    uint64_t slowest_clocks;       /* ... and its clocks from leaving the barrier to done */
    /* The compiler's plan for the phase (0: unknown): AS's length, and its link-weighted length
     * (conset/route_links.h). */
    uint64_t predicted, link_weighted;
} phase_row_t;

typedef struct phase_account phase_account_t;

/* An account of the array's ConSet phases, or NULL when no cell's program has runtime/conset.s's labels
 * (or out of memory). The array must outlive it. */
phase_account_t *phase_account_create(const emu_array_t *a);
void phase_account_free(phase_account_t *pa);

/* Looks at every cell after clock `clock` ran. Call it for every clock that runs (an after_clock hook),
 * in order; clocks the array skipped changed nothing it looks at. */
void phase_account_observe(phase_account_t *pa, uint64_t clock);
/* As an emu_hooks_t after_clock (user = the account); never stops the run. */
bool phase_account_hook(void *user, emu_array_t *a, uint64_t clock);

/* Instead of the hook: the array's watched cells log what the account looks at (emu_array_watch), which it
 * reads when asked for its rows; the array keeps its threads and its run-ahead. 0, or -1 (out of memory:
 * then the hook it must be). */
int phase_account_watch(phase_account_t *pa, emu_array_t *a);

/* Where the tables the account reads are in the cells' memory (CONSET_TABLES of the program). */
uint32_t phase_account_tables(const phase_account_t *pa);
/* Per phase number, the link-weighted length of the compiler's plan, where the caller has the plan. */
int phase_account_set_link_weighted(phase_account_t *pa, const uint64_t *clocks, unsigned nphases);

/* The rows so far (switch order); *rows stays the account's, valid until the next call. */
unsigned phase_account_rows(phase_account_t *pa, const phase_row_t **rows);
/* NULL, or why the account is incomplete ("out of memory while logging cell (x,y); the account is incomplete"):
 * something it should have counted found no memory, so its rows are wrong and must not be shown as the run's.
 * Once set it stays; ask after phase_account_rows, which reads the cells' logs. */
const char *phase_account_error(const phase_account_t *pa);

#endif
