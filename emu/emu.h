/*
 * The emulator's public API: what the tools (run, bench, debug, view) use. Nothing outside emu/ reaches
 * into a cell's internals except through these calls and the read-only structs they return.
 */
#ifndef EMU_EMU_H
#define EMU_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"
#include "coa.h"
#include "drive.h"
#include "fault.h"
#include "machine.h"
#include "program.h"

typedef struct emu_array emu_array_t;

#define EMU_RUN_STATUSES(X)                                                                                            \
    X(DONE, "done") /* every loaded cell halted */                                                                     \
    X(FAULT, "fault") /* a cell faulted; emu_array_first_fault says which */                                           \
    X(DEADLOCK, "deadlock") /* nothing moved for deadlock_clocks while some cell waited */                             \
    X(LIMIT, "limit") /* the clock limit was reached */                                                                \
    X(STOPPED, "stopped") /* emu_array_request_stop was called */                                                      \
    X(LIVELOCK, "livelock") /* as DEADLOCK, but some cell still ran (handlers, wait loops, timers) */

typedef enum emu_run_status {
#define X(id, name) EMU_RUN_##id,
    EMU_RUN_STATUSES(X)
#undef X
} emu_run_status_t;

/* Cell-level control registers (the communication agent's start at EMU_CR_COA_BASE; docs/isa.md). */
#define EMU_CELL_CRS(X)                                                                                                \
    X(CELL_X, 0x00, "x coordinate of this cell (read-only)")                                                           \
    X(CELL_Y, 0x01, "y coordinate of this cell (read-only)")                                                           \
    X(ARRAY_W, 0x02, "array width (read-only)")                                                                        \
    X(ARRAY_H, 0x03, "array height (read-only)")                                                                       \
    X(CLOCK_LO, 0x04, "current clock, low word (read-only)")                                                           \
    X(CLOCK_HI, 0x05, "current clock, high word (read-only)")                                                          \
    X(MEM_BYTES, 0x06, "memory size in bytes (read-only)")                                                             \
    X(CELL_ID, 0x07, "y * width + x (read-only)")                                                                      \
    X(QUEUE_DEPTH, 0x08, "words a logical channel's queue holds (read-only)")                                          \
    X(HOP_LATENCY, 0x09, "clocks from a link to the next cell's queue (read-only)")                                    \
    X(LINK_CLOCKS, 0x0a, "clocks per word on a physical link (read-only)")                                             \
    X(DEBUG_PUTC, 0x10, "write: append a character to the cell's console output")                                      \
    X(DEBUG_PUTI, 0x11, "write: append a signed decimal number to the console output")                                 \
    X(DEBUG_PUTX, 0x12, "write: append 0x-prefixed hex to the console output")                                         \
    X(MARK, 0x13, "write: raise an event for tools (kind << 24 | data: message sent, received, phase switch)")         \
    X(EVENT_ENABLE, 0x20, "bit 0: events may interrupt the program (cleared on entry to a handler, set by rfe)")       \
    X(EVENT_MASK, 0x21, "which event bits may interrupt")                                                              \
    X(EVENT_PENDING, 0x22, "pending event bits; writing clears the bits written as 1")                                 \
    X(EVENT_VECTOR, 0x23, "address of the event handler")                                                              \
    X(EVENT_EPC, 0x24, "where rfe returns to")                                                                         \
    X(EVENT_RAISE, 0x25, "write: make the bits written as 1 pending (software events)")                                \
    X(TIMER, 0x26, "clock (low 32 bits) at which the timer event becomes pending; 0 = off")

enum emu_cell_cr {
#define X(id, num, doc) EMU_CR_##id = (num),
    EMU_CELL_CRS(X)
#undef X
        EMU_CR_COA_BASE = COA_CR_BASE,
};

/* Kinds of marks a program raises by writing EMU_CR_MARK (kind << 24 | data). The runtimes raise them, so
 * the debugger can break on them and the viewer show them; they cost the program one clock like any
 * control-register write, with or without a tool watching. */
#define EMU_MARK_KINDS(X)                                                                                              \
    X(USER, 0, "data: the program's")                                                                                  \
    X(MSG_SEND, 1, "data: destination cell id")                                                                        \
    X(MSG_RECEIVE, 2, "data: source cell id")                                                                          \
    X(PHASE, 3, "data: the ConSet phase now active")

typedef enum emu_mark_kind {
#define X(id, kind, doc) EMU_MARK_##id = (kind),
    EMU_MARK_KINDS(X)
#undef X
} emu_mark_kind_t;

enum { EMU_MAX_MARKS_PER_CLOCK = 8 };

/* Tools that watch a run (debugger, recorder) hook into the clock. While hooks are set the array runs on
 * one thread; results are the same. before_clock returning true stops the run before that clock executes
 * (emu_array_run returns EMU_RUN_STOPPED and the clock stays); after_clock returning true stops it after. */
typedef struct emu_hooks {
    void *user;
    bool (*before_clock)(void *user, emu_array_t *a, uint64_t clock);
    bool (*after_clock)(void *user, emu_array_t *a, uint64_t clock);
} emu_hooks_t;

/* A tool may watch cells without a hook (emu_array_watch), so that the array keeps its threads, its sleeping
 * cells and its CAs' run-ahead: each watched cell logs, with the clock of the bundle that did it, the arrivals
 * of its CA's pc at the watched pcs (the clock after which a hook would first have seen pc there), the marks
 * it raises, and between two of those its gate words. Every event is one a hook after every clock would
 * have seen at the same clock; a CA that ran ahead and was put back takes its arrivals back with it. */
typedef enum emu_watch_kind {
    EMU_WATCH_GATES,  /* the first and last clocks of the gate words read and written, UINT64_MAX where none */
    EMU_WATCH_ARRIVE, /* pc: the index of the watched pc reached */
    EMU_WATCH_MARK,   /* mark: the value written to EMU_CR_MARK */
} emu_watch_kind_t;
typedef struct emu_watch_event {
    emu_watch_kind_t kind;
    uint32_t pc, mark;
    uint64_t clock; /* ARRIVE and MARK: the clock of the bundle; GATES: the clock of its first word */
    uint64_t first_read, last_read, first_write, last_write;
} emu_watch_event_t;
/* Watches cell (x, y) at up to 8 pcs of its program (an arrival's pc is the index of its pc in `pcs`); a
 * watch set before replaces it. The bundles at them run at their clocks from now on, never in a run-ahead,
 * on every cell that runs the program (which only costs the host time). No pcs: no watch. 0, or -1 when out
 * of memory or out of range. */
int emu_array_watch(emu_array_t *a, unsigned x, unsigned y, const uint32_t *pcs, unsigned npcs);
/* The events cell (x, y) logged since the last call, in the order it logged them (for one bundle: the words it
 * reads, its mark, the words it writes, then its arrival), or 0. Theirs until the array runs again. */
unsigned emu_array_watch_take(emu_array_t *a, unsigned x, unsigned y, const emu_watch_event_t **events);
/* The events cell (x, y) could not log for want of memory since its watch was set (0: none, or no watch); ask
 * after emu_array_watch_take, which logs the last gate words. The count never goes back: a reader that adds the
 * takes up is wrong from the first loss on. An arrival lost in a run-ahead that was put back counts too, though
 * the rewind would have taken it back: the count errs toward a hole, never away from one. */
unsigned emu_array_watch_lost(emu_array_t *a, unsigned x, unsigned y);

/* Called with each complete line (or the remainder at the end) a cell writes to its console. */
typedef void (*emu_output_fn)(void *user, unsigned x, unsigned y, const char *text);

int emu_array_create(emu_array_t **out, const emu_machine_t *m, char *err, size_t errlen);
void emu_array_free(emu_array_t *a);

const emu_machine_t *emu_array_machine(const emu_array_t *a);
void emu_array_set_output(emu_array_t *a, emu_output_fn fn, void *user);

/* Predecodes an image for this array's timing; the array owns the program and frees it. Returns the
 * program (shared by every cell it is loaded on) or NULL with a message. Takes ownership of *image. */
const emu_program_t *emu_array_add_program(emu_array_t *a, isa_image_t *image, char *err, size_t errlen);

/* Loads a program on cell (x, y) with up to 8 argument words in a0..a7. */
int emu_array_load(emu_array_t *a, unsigned x, unsigned y, const emu_program_t *prog, const uint32_t *args,
                   unsigned nargs, char *err, size_t errlen);

/* Runs until a stop condition or until the clock reaches `limit` (exclusive). */
emu_run_status_t emu_array_run(emu_array_t *a, uint64_t limit);
void emu_array_request_stop(emu_array_t *a);

uint64_t emu_array_clock(const emu_array_t *a);
/* The clock at which the last cell finished its last bundle (the run's length in cycles). */
uint64_t emu_array_cycles(const emu_array_t *a);
unsigned emu_array_width(const emu_array_t *a);
unsigned emu_array_height(const emu_array_t *a);
const ca_t *emu_array_ca(const emu_array_t *a, unsigned x, unsigned y);
const coa_t *emu_array_coa(const emu_array_t *a, unsigned x, unsigned y);
/* Sets a register of a cell between runs (the debugger's `set`); r0 stays 0. Returns 0, or -1 when out of range. */
int emu_array_set_reg(emu_array_t *a, unsigned x, unsigned y, unsigned reg, uint32_t value);
/* Writes bytes into a cell's memory before or between runs (data the run description loads). */
int emu_array_poke(emu_array_t *a, unsigned x, unsigned y, uint32_t addr, const void *bytes, uint32_t len);
/* Host threads used by emu_array_run (1 by default). Results do not depend on it. */
void emu_array_set_threads(emu_array_t *a, unsigned n);
unsigned emu_array_threads(const emu_array_t *a);
/* The most threads a run of the array would use now: one with hooks or a single cell, else one per cell up to
 * the blocks the scheduler makes. */
unsigned emu_array_max_threads(const emu_array_t *a);
void emu_array_set_hooks(emu_array_t *a, const emu_hooks_t *hooks); /* NULL removes them */
void emu_array_set_driver(emu_array_t *a, const emu_driver_t *driver); /* NULL removes it */
/* Cell i's agent (row-major), to set up before a run: its pools, its forwarding entries. */
coa_t *emu_array_agent(emu_array_t *a, unsigned i);
/* How the host got there, not state: the cell-clocks the array did not step because the cell slept with a
 * stuck agent (its waits added up instead), since the array was made. */
uint64_t emu_array_stuck_clocks(const emu_array_t *a);
/* The same for the bundles CAs issued ahead of the array's clock, several in one go while their cells were
 * stepped clock by clock (emu_cell_step_next); those run again after a run ended first count once. */
uint64_t emu_array_ahead_bundles(const emu_array_t *a);
/* Of those runs ahead, the ones an event cut short (an arrival for a CA with events on): the CA was put back, its
 * bundles from the clock after the arrival's on undone, to take the event there as it would clock by clock. */
uint64_t emu_array_ahead_diverted(const emu_array_t *a);
/* Marks the cell raised in the last clock that ran; returns their number and points *marks at them. */
unsigned emu_array_marks(const emu_array_t *a, unsigned x, unsigned y, const uint32_t **marks);

/* Snapshots of the whole array: everything that changes as it runs (registers, memory, channels, links,
 * statistics, the clock), so that restoring one and running on gives exactly what running on from the
 * moment it was taken gives. */
typedef struct emu_snapshot emu_snapshot_t;
emu_snapshot_t *emu_snapshot_take(const emu_array_t *a);
/* Restores into the array it was taken from (or one built the same way). Returns 0, or -1 with a message. */
int emu_snapshot_restore(emu_array_t *a, const emu_snapshot_t *s, char *err, size_t errlen);
void emu_snapshot_free(emu_snapshot_t *s);
size_t emu_snapshot_bytes(const emu_snapshot_t *s);
uint64_t emu_snapshot_clock(const emu_snapshot_t *s);
/* Files, for the same emulator build and machine. */
int emu_snapshot_save(const emu_snapshot_t *s, const char *path, char *err, size_t errlen);
emu_snapshot_t *emu_snapshot_load(const char *path, char *err, size_t errlen);

/* A hash of every cell's architectural state (registers, channels, spools, optionally memory) and,
 * optionally, of all statistics. Equal runs give equal hashes whatever the thread count. */
uint64_t emu_array_hash(const emu_array_t *a, bool with_memory, bool with_stats);
/* After EMU_RUN_DEADLOCK: the cycle of waiting cells and channels, one step per line. After EMU_RUN_LIVELOCK: when
 * the last word moved and where the cells that still run are (docs/run.md). */
const char *emu_array_deadlock(const emu_array_t *a);

/* A wait cycle as steps, for tools that draw it: each step waits for the next, the last for the first. */
enum { EMU_WAIT_CYCLE_MAX = 256 };
typedef struct emu_wait_step {
    unsigned cell;      /* y * width + x */
    unsigned lc;        /* the logical channel, unless is_ca */
    bool is_ca;         /* the cell's computation agent */
    unsigned lane_cell; /* the link between this step and the next, as the outgoing link lane_dir of lane_cell */
    unsigned lane_dir;  /* (the one the words cross, whichever way the wait points); COA_NUM_DIRS: none, same cell */
} emu_wait_step_t;
typedef struct emu_wait_cycle {
    unsigned n;         /* steps; 0: no cycle */
    uint64_t closed_at; /* the last clock anything in it moved (or a waiting header was decoded) */
    emu_wait_step_t step[EMU_WAIT_CYCLE_MAX];
} emu_wait_cycle_t;
/* After EMU_RUN_DEADLOCK: the cycle emu_array_deadlock reports, step by step (n = 0 when the report found only a
 * chain of waits, or after another status). */
const emu_wait_cycle_t *emu_array_deadlock_cycle(const emu_array_t *a);
/* The detector on the array as it stands, for a run stopped before the deadlock window closed (a clock limit, a
 * stop request): fills `out` and writes the report into `report` (may be NULL) when waits close a cycle that
 * nothing on its way can open any more (quiet for longer than a word, credit or header takes), and returns
 * whether they do. Changes nothing in the array. */
bool emu_array_find_wait_cycle(const emu_array_t *a, emu_wait_cycle_t *out, char *report, size_t cap);
/* The first cell to fault in this run, or false. */
bool emu_array_first_fault(const emu_array_t *a, unsigned *x, unsigned *y);

/* One line naming cell, PC, source line, cycle and reason, e.g.
 * "cell (0,0) pc 0x1010 (prog.s:12:5) cycle 37: misaligned address: 4-byte load at 0x1003". */
void emu_format_fault(const emu_array_t *a, unsigned x, unsigned y, char *buf, size_t cap);
/* Where a cell is: "cell (0,0) pc 0x1010 (prog.s:12:5) running" (its computation agent's state last). */
void emu_format_where(const emu_array_t *a, unsigned x, unsigned y, char *buf, size_t cap);

const char *emu_run_status_name(emu_run_status_t st);

#endif
