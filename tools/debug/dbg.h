/*
 * The debugger session behind `iwarp debug`: one live array, the selected cell, stop points, the snapshot ring
 * for reverse execution, and the command table. The console (console.c) and scripts (script.c) feed it lines;
 * tests drive it the same way with dbg_execute.
 *
 * A debugger never changes results: the array only ever runs through emu_array_run, with hooks that look and
 * never touch, so a run stopped and resumed any number of times reaches the state of an uninterrupted one.
 */
#ifndef TOOLS_DEBUG_DBG_H
#define TOOLS_DEBUG_DBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu.h"
#include "expr.h"
#include "phase_account.h"

typedef struct dbg dbg_t;

/* No address (a #define: ISO C enumerators must fit an int, and clang's -Wpedantic says so). */
#define DBG_NO_ADDR UINT32_MAX

enum {
    DBG_MAX_CELLS = EMU_MAX_DIM * EMU_MAX_DIM,
    DBG_MAX_SOURCE_DEPTH = 16,
    DBG_MAX_FRAMES = 256, /* backtrace's default is 64 */
};

/* A set of cells as a bitmap over cell indices (y * width + x). */
typedef struct dbg_cells {
    uint64_t bits[DBG_MAX_CELLS / 64];
    bool all; /* written as "all" (for listings) */
} dbg_cells_t;

static inline bool dbg_cells_has(const dbg_cells_t *s, unsigned i)
{
    return (s->bits[i / 64] >> (i % 64)) & 1u;
}
static inline void dbg_cells_add(dbg_cells_t *s, unsigned i)
{
    s->bits[i / 64] |= 1ull << (i % 64);
}

/* A growable string: command output is captured in one so `expect` can check it. */
typedef struct dbg_str {
    char *s;
    size_t len, cap;
} dbg_str_t;

void dbg_str_add(dbg_str_t *b, const char *text, size_t n);
void dbg_str_printf(dbg_str_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_str_clear(dbg_str_t *b);
void dbg_str_free(dbg_str_t *b);

/* --- stop points: breakpoints, watchpoints, catchpoints (one numbering, like gdb) --- */

typedef enum dbg_point_kind {
    DBG_BREAK,       /* before a cell issues the bundle at an address */
    DBG_WATCH,       /* an expression's value changed (registers, memory, anything) */
    DBG_WATCH_CHAN,  /* a logical channel's occupancy changed, or a test on it became true */
    DBG_WATCH_STALL, /* a CA has waited on a gate for some clocks */
    DBG_CATCH,       /* an event: pathway open/close, phase switch, message sent/received, mark */
} dbg_point_kind_t;

typedef enum dbg_catch {
    DBG_CATCH_OPEN,
    DBG_CATCH_CLOSE,
    DBG_CATCH_PHASE,
    DBG_CATCH_SEND,
    DBG_CATCH_RECEIVE,
    DBG_CATCH_MARK,
    DBG_CATCH_COUNT
} dbg_catch_t;

extern const char *const dbg_catch_names[DBG_CATCH_COUNT];

typedef struct dbg_point {
    unsigned id;
    dbg_point_kind_t kind;
    bool enabled;
    bool temporary; /* tbreak: deleted at its first stop */
    dbg_cells_t cells;
    char *text;   /* what was typed, for listings */
    expr_t *cond; /* stop only when it holds on the cell concerned (NULL: always) */
    char *cond_text;
    uint64_t ignore; /* hits still to ignore */
    uint64_t hits;
    bool fired; /* stopped the run in progress (tbreak points go once it is reported) */
    /* DBG_BREAK: per cell, the address in that cell's program (DBG_NO_ADDR: not on that cell) */
    uint32_t *addr;
    /* DBG_WATCH: the expression and, per cell, its last value (valid when have[i]); DBG_WATCH_CHAN: the last
     * occupancy or test result; DBG_WATCH_STALL: the clock the current wait began (-1: none), have: fired */
    expr_t *expr;
    int64_t *old;
    bool *have;
    /* DBG_WATCH_CHAN: channel, optional test (op 0: any change) */
    unsigned lc;
    int op;
    int64_t value;
    /* DBG_WATCH_STALL: gate (-1 any: 0,1 inputs, 2,3 outputs) and the wait length that fires */
    int gate;
    uint64_t min_clocks;
    /* DBG_CATCH */
    dbg_catch_t event;
    int64_t event_arg; /* phase number or mark kind to match, -1 any */
} dbg_point_t;

/* A catchpoint's hit in the stop being reported: a line of dbg_t.stop_msg, which a stop with many hits of one
 * catchpoint sums up in one line (`info catch` lists them all). */
typedef struct dbg_catch_hit {
    unsigned point; /* its id */
    dbg_catch_t event;
    unsigned cell;
    uint32_t value; /* a mark's data: the phase, the other cell of a message */
    uint64_t clock;
    size_t at; /* where its line starts in stop_msg */
} dbg_catch_hit_t;

/* --- running --- */

typedef enum dbg_reason {
    DBG_STOP_NONE,
    DBG_STOP_POINT,     /* a stop point fired (before_clock for breakpoints, after_clock for the rest) */
    DBG_STOP_STEP,      /* the stepped cell issued its bundles */
    DBG_STOP_RETURN,    /* next/finish: the call returned */
    DBG_STOP_UNTIL,     /* the until condition holds */
    DBG_STOP_INTERRUPT, /* Ctrl-C */
    DBG_STOP_LIMIT,     /* the clock target was reached */
    DBG_STOP_EVAL,      /* a condition could not be evaluated */
    DBG_STOP_END,       /* done, fault or deadlock: the run is over */
} dbg_reason_t;

/* What a run command asks the engine for. */
typedef struct dbg_goal {
    uint64_t limit; /* stop when the clock reaches this (UINT64_MAX: no target) */
    int step_cell;  /* >= 0: stop once this cell has issued step_bundles bundles in all */
    uint64_t step_bundles;
    bool ret; /* stop once ret_cell has issued the `ret` that ends the current call (next, finish) */
    unsigned ret_cell;
    int ret_depth;          /* calls open at the start: 0 inside a function (finish), -1 before a call (next) */
    expr_t *until;          /* stop after the first clock at which it holds on the selected cell */
    bool points;            /* stop points may stop the run */
    bool replay;            /* time travel: clocks run before, ignore counts and hit counts untouched */
    uint64_t record_only;   /* count stop events instead of stopping, and stop at this one (0: the first) */
    uint64_t record_before; /* recording: events that stop before this clock count (see qualified_events) */
    int track_cell;         /* >= 0: note the stretches in which this cell issues nothing (dbg_t.gap) */
} dbg_goal_t;

/* step, next and reverse-step cross the clocks of a cell's waits: the longest stretch in which it issued nothing,
 * so that they can say so when it is long (the clocks from `from` to below `to`, and what the cell waited for). */
enum { DBG_LONG_WAIT_CLOCKS = 100 };
typedef struct dbg_gap {
    uint64_t bundles; /* the cell's instructions so far: a change is an instruction issued */
    uint64_t from;    /* the first clock of the stretch in progress */
    char what[512];   /* what the cell waits for in it ("" until seen waiting) */
    uint64_t best_from, best_to;
    char best_what[512];
    unsigned nlong; /* stretches of DBG_LONG_WAIT_CLOCKS or more */
} dbg_gap_t;

typedef struct dbg_snap {
    emu_snapshot_t *snap;
    uint64_t clock;
    uint64_t *bundles; /* per cell: instructions issued, so reverse-step knows where to replay from */
    bool settled;      /* reached by running to a clock limit: every open gate wait is in the statistics */
} dbg_snap_t;

/* The most snapshots the ring keeps (the setting snapshot-keep's maximum). */
enum { DBG_RING_MAX_KEEP = 64 };

/* Snapshots kept for reverse execution: [0] is the start (clock 0) and stays; the rest are every `interval`
 * clocks. When `keep` are held, every other one goes and the interval doubles, so memory stays bounded
 * while the whole history remains reachable. */
typedef struct dbg_ring {
    dbg_snap_t *v;
    unsigned n;
    unsigned keep;
    uint64_t interval;
} dbg_ring_t;

/* Marks raised by programs (messages, phases), logged once per clock as the array first runs it. */
typedef struct dbg_mark {
    uint64_t clock;
    uint32_t cell;
    uint32_t value;
} dbg_mark_t;

struct dbg {
    emu_array_t *a;
    unsigned w, h, ncells, nchan;
    unsigned sel; /* selected cell */
    FILE *out;
    dbg_str_t capture;  /* output of the last command but `expect` (which checks it) */
    size_t expect_len;  /* how much of capture that command printed (expect's own messages follow) */
    char *program_name; /* what was loaded, for `info program` */

    /* stop points */
    dbg_point_t **points;
    unsigned npoints;
    unsigned next_id;

    /* run state */
    emu_run_status_t status; /* of the last emu_array_run */
    bool ended;              /* done, fault or deadlock: only time travel or `run` go on */
    bool settled;            /* the last run ended at a clock limit or at the end (see dbg_snap_t) */
    uint64_t skip_clock;     /* breakpoints do not fire at this clock (the one stopped at) */
    uint64_t max_cycles;     /* from the run description: runs never go past it */
    dbg_str_t stop_msg;      /* why the run stopped, built by the hooks */
    dbg_catch_hit_t *hits;   /* the catchpoint lines of stop_msg, in order */
    size_t nhits, hits_cap;
    dbg_str_t catch_list; /* `info catch`: the catchpoint lines of the last stop that had some */
    uint64_t catch_clock;
    dbg_reason_t reason;
    int stop_cell;          /* cell to select after the stop, -1: keep */
    const dbg_goal_t *goal; /* of the run in progress */
    uint64_t clock_in_progress;
    bool in_clock;     /* between before_clock and after_clock: output belongs to a clock */
    uint64_t ring_due; /* before_clock stops here so the engine can take a ring snapshot */
    bool ring_stop;
    uint64_t output_high;      /* program output of clocks below this has been shown already */
    dbg_str_t *pending;        /* per cell: a partial console line flushed at a clock limit, held back */
    uint64_t events;           /* stop events seen while recording (reverse-continue) */
    bool event_after_pending;  /* the last recorded event fired after a clock; its stop clock is the next one */
    uint64_t qualified_events; /* recording: the number of the last event that stops before record_before */
    uint64_t last_after_clock; /* the clock the last after_clock hook saw */
    dbg_gap_t gap;             /* the goal's track_cell: its waits crossed */
    int call_depth;            /* next/finish: calls the cell has made and not returned from */
    uint32_t track_pc;         /* next/finish: the cell's pc before this clock, to see which bundle issued */
    uint64_t track_bundles;

    /* per-cell state the hooks compare against, armed when a run starts */
    uint8_t *lc_prev; /* per cell and channel: state | route kind << 4 */

    dbg_ring_t ring;
    /* After `set` changed the state, history starts there: replays from earlier snapshots would not have the
     * change. edit_snap is the state just after it (NULL: no change made). */
    emu_snapshot_t *edit_snap;
    uint64_t edit_clock;
    bool edit_settled;
    dbg_mark_t *marks;
    size_t nmarks, marks_cap;
    uint64_t marks_high;     /* clocks below this are in the log */
    phase_account_t *phases; /* a ConSet run's per-phase account (`info phases`); NULL otherwise */
    uint64_t phases_high;    /* clocks below this are in it */

    /* The frame `up`, `down` and `frame N` selected: it holds while the array stays at frame_clock and the
     * selected cell is frame_cell; anything that runs or reselects goes back to frame 0, as in gdb. */
    unsigned frame;
    unsigned frame_cell;
    uint64_t frame_clock;

    /* display: expressions printed at every stop (on the selected cell) */
    char *displays[16];
    unsigned ndisplays;
    char *repeat; /* the console's last command: an empty line runs it again */

    /* settings */
    bool echo;
    unsigned show_words; /* queue words shown per channel */

    /* scripts */
    bool interactive;   /* a person at a terminal (readline) */
    int failures;       /* failed assert/expect and unchecked errors */
    bool error_pending; /* the last command failed; an expect right after may check its message */
    int depth;          /* nested source */
    const char *script; /* the script being read (NULL: typed or standard input) and its line, for errors */
    unsigned script_line;
    bool quit;
};

/* --- session (session.c) --- */

/* Creates a session over an array (the session owns it) and takes the start snapshot. out: where everything is
 * printed. Returns NULL with a message on stderr when memory runs out. */
dbg_t *dbg_create(emu_array_t *a, const char *program_name, uint64_t max_cycles, FILE *out);
void dbg_free(dbg_t *d);
/* Executes one command line; returns 0, or -1 when the command failed (the message is printed). */
int dbg_execute(dbg_t *d, const char *line);

void dbg_printf(dbg_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_write(dbg_t *d, const char *text, size_t n);
/* Prints a line without its trailing blanks (tables padded to columns), and a newline. */
void dbg_print_line(dbg_t *d, const char *line);
/* Prints "error: ..." and returns -1, so handlers can `return dbg_error(...)`. */
int dbg_error(dbg_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline unsigned dbg_cell_x(const dbg_t *d, unsigned i)
{
    return i % d->w;
}
static inline unsigned dbg_cell_y(const dbg_t *d, unsigned i)
{
    return i / d->w;
}
static inline const ca_t *dbg_ca(const dbg_t *d, unsigned i)
{
    return emu_array_ca(d->a, i % d->w, i / d->w);
}
static inline const coa_t *dbg_coa(const dbg_t *d, unsigned i)
{
    return emu_array_coa(d->a, i % d->w, i / d->w);
}

/* "0x1040 <source+4>" for an address of cell i's program. */
void dbg_addr_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap);
/* "pathway.s:21" (file name without folders) or "" when the line is unknown. */
void dbg_line_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap);
/* The bundle at addr as assembly, or false when no bundle starts there. */
bool dbg_bundle_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap);
/* One line: "(0,0) 0x1040 <source> pathway.s:20: mov r3, a0" (or the cell's state when it is not running). */
void dbg_print_where(dbg_t *d, unsigned cell);
/* The source line at pc, as gdb shows it at a stop ("      41          call leaf"); nothing when unknown. */
void dbg_print_source(dbg_t *d, unsigned cell, uint32_t pc);
const char *dbg_state_text(const ca_t *ca);
/* Why a waiting CA waits: "waits for a word on gi0 (channel 9 is empty)". */
void dbg_wait_text(const dbg_t *d, unsigned cell, char *buf, size_t cap);

/* Event bits by name: "spools 0-3 finished, the timer, soft event 0" ("no event" for none). (events.c) */
void dbg_events_text(uint32_t bits, char *buf, size_t cap);

/* --- arguments (args.c) --- */

/* Splits off the next blank-separated word of *p (NUL-terminating it in place); NULL at the end. */
char *dbg_word(char **p);
char *dbg_trim(char *s);
/* Parses an unsigned number (decimal or 0x); returns 0 or -1. */
int dbg_parse_u64(const char *s, uint64_t *v);
/* "X,Y" with numbers, ranges N-M or *, or "all"; the whole array when s is "all". Returns 0, or -1 with a
 * message printed. */
int dbg_parse_cells(dbg_t *d, const char *s, dbg_cells_t *out);
/* One cell "X,Y"; returns its index, or -1 with a message printed. */
int dbg_parse_cell(dbg_t *d, const char *s);
/* An optional cell "X,Y" at the start of *args (a word with a comma) is taken off; else the selected cell. Returns 0,
 * or -1 with a message printed. */
int dbg_cell_arg(dbg_t *d, char **args, unsigned *cell);
/* Cuts " @CELLS" off the end of args when present: returns 1 and fills *cells, 0 when absent, -1 on error. */
int dbg_take_cells(dbg_t *d, char *args, dbg_cells_t *cells);
/* Cuts " if COND" off args; *cond points into args (NULL when absent). */
void dbg_take_cond(char *args, char **cond);
void dbg_cells_text(const dbg_t *d, const dbg_cells_t *s, char *buf, size_t cap);
/* Evaluates an expression on a cell; 0, or -1 with the message printed. */
int dbg_eval_text(dbg_t *d, const char *text, unsigned cell, int64_t *v);
int dbg_eval(dbg_t *d, expr_t *e, unsigned cell, int64_t *v, char *err, size_t errlen);
/* A code location (symbol, symbol+N, address expression, or file.s:LINE) on one cell; DBG_NO_ADDR when it names
 * no instruction there. err gets why. */
uint32_t dbg_resolve_code(dbg_t *d, const char *loc, unsigned cell, char *err, size_t errlen);

/* --- the engine (engine.c) --- */

/* A goal that runs to `limit` and nothing else; callers set what more they want. */
dbg_goal_t dbg_goal(uint64_t limit);
/* Runs the array towards the goal; stops on the goal, a stop point, Ctrl-C or the end of the run. */
dbg_reason_t dbg_run(dbg_t *d, const dbg_goal_t *g);
/* Prints why the run stopped and where the selected cell is. */
void dbg_report_stop(dbg_t *d);
/* Prints the stop's messages (stop_msg), runs of one watchpoint or catchpoint over many cells summed up. */
void dbg_write_stop_messages(dbg_t *d);
/* Forgets the stop's messages. */
void dbg_stop_clear(dbg_t *d);
/* Notes that the line about to be added to stop_msg is a hit of catchpoint p on cell (value: the mark's data). */
void dbg_note_catch(dbg_t *d, const dbg_point_t *p, unsigned cell, uint32_t value, uint64_t clock);
/* `info catch`: the catchpoint hits of the last stop that had some. */
void dbg_info_catch(dbg_t *d);
/* Starts noting the stretches in which `cell` issues nothing, from now on (goals with track_cell = cell). */
void dbg_gap_start(dbg_t *d, unsigned cell);
/* Ends the stretch in progress at the current clock. */
void dbg_gap_end(dbg_t *d);
/* When the longest stretch noted is long, says that the session went `verb` ("back", "on") `clocks` clocks across
 * it, and what the cell waited for. */
void dbg_gap_report(dbg_t *d, unsigned cell, const char *verb, uint64_t clocks);
/* The emu output callback: program console lines, printed once (not again when time travel replays them). */
void dbg_on_output(void *user, unsigned x, unsigned y, const char *text);
/* Makes the run state that of a snapshot (ring or file). */
int dbg_restore(dbg_t *d, const emu_snapshot_t *s, bool settled);
/* Ctrl-C: the console installs the handler; a run in progress stops before its next clock, and at the prompt
 * the flag tells the console to drop the line being typed. */
void dbg_sigint_install(void);
bool dbg_sigint_take(void);

/* --- stop points (breakpoints.c, watch.c) --- */

dbg_point_t *dbg_point_new(dbg_t *d, dbg_point_kind_t kind, const char *text);
void dbg_point_free(dbg_point_t *p);
dbg_point_t *dbg_point_find(dbg_t *d, unsigned id);
void dbg_point_delete(dbg_t *d, unsigned id);
/* Before a clock: breakpoints of cells about to issue. Appends hits to stop_msg; true when the run stops. */
bool dbg_check_breaks(dbg_t *d, uint64_t clock);
/* After a clock: watchpoints and catchpoints. */
bool dbg_check_watches(dbg_t *d, uint64_t clock);
/* Takes the current values as the ones changes are measured from (at the start of each run). */
void dbg_arm_watches(dbg_t *d);
/* Whether any enabled point needs the hooks to look before or after clocks. */
bool dbg_has_breaks(const dbg_t *d);
bool dbg_has_watches(const dbg_t *d);
/* Counts a hit: false while it is still ignored or its condition does not hold. *cond_failed on eval error. */
bool dbg_point_hit(dbg_t *d, dbg_point_t *p, unsigned cell, bool *cond_failed);
void dbg_print_point(dbg_t *d, const dbg_point_t *p);
/* The common tail of break, watch and catch: " @CELLS" (default: all cells, or the selected one) and " if COND"
 * are cut off args. Returns 0, or -1 with the message printed. */
int dbg_point_args(dbg_t *d, char *args, bool all_by_default, dbg_cells_t *cells, char **cond);
/* Finishes a new point: with rc == 0 sets its condition and prints it; otherwise (or when the condition is bad)
 * deletes it and gives its number back. Returns 0 or -1. */
int dbg_point_done(dbg_t *d, dbg_point_t *p, int rc, const char *cond);
/* Sets (or with NULL/empty text removes) a point's condition; 0, or -1 with the message printed. */
int dbg_set_condition(dbg_t *d, dbg_point_t *p, const char *text);
/* Follows a channel upstream to where its words enter the network (a gate or spool, or where the trace ends). */
void dbg_trace_origin(const dbg_t *d, unsigned cell, unsigned lc, unsigned *ocell, unsigned *olc, unsigned *hops);
/* "go0", "gi1", "spool 2", "+X (1,0) lc 9", "arrival queue" for a route or source. */
void dbg_end_text(const dbg_t *d, unsigned cell, coa_end_t e, bool route, char *buf, size_t cap);

/* --- time travel (timetravel.c) --- */

void dbg_ring_init(dbg_t *d);
void dbg_ring_free(dbg_t *d);
/* The clock at which the next ring snapshot is due (UINT64_MAX when none). */
uint64_t dbg_ring_next(const dbg_t *d);
/* Takes a ring snapshot at the current clock if it is new. */
void dbg_ring_take(dbg_t *d);
/* The newest ring snapshot strictly before clock (the start when none). */
const dbg_snap_t *dbg_ring_before(const dbg_t *d, uint64_t clock);
/* Restores the state at `clock` exactly, settled (by replay from a ring snapshot). Returns 0 or -1. */
int dbg_travel_to(dbg_t *d, uint64_t clock);
/* After `set` changed the state: history starts now (see dbg_t.edit_snap). */
void dbg_history_restart(dbg_t *d);
/* The hash `iwarp run --state-hash-at N` prints for the current clock, whatever the way here. */
int dbg_settled_hash(dbg_t *d, uint64_t *hash);

/* --- the marks log (watch.c) --- */

void dbg_log_marks(dbg_t *d, uint64_t clock);

/* --- the command table (commands.c) --- */

typedef int (*dbg_handler_t)(dbg_t *d, char *args);
/* Adds the completions of `text` (the word being completed; `line` is the whole line up to it). */
typedef void (*dbg_completer_t)(dbg_t *d, const char *line, const char *text, dbg_str_t *words);

typedef struct dbg_command {
    const char *name;
    unsigned min_abbrev; /* shortest prefix accepted (prefixes must be unambiguous among these) */
    const char *alias;   /* another name, accepted exactly (NULL: none) */
    dbg_handler_t handler;
    const char *args; /* argument format, for help */
    const char *help; /* first line: summary; then details and an example */
    dbg_completer_t complete;
} dbg_command_t;

const dbg_command_t *dbg_commands(size_t *n);
const dbg_command_t *dbg_command_find(const char *word);
/* Completion candidates for a line; words are NUL-separated in *out. */
void dbg_complete(dbg_t *d, const char *line, const char *text, dbg_str_t *out);
void dbg_words_add(dbg_str_t *words, const char *text, const char *word);
/* Which word of the line `text` is (0: the command). */
unsigned dbg_word_index(const char *line, const char *text);

/* Completers. A command's own words are completed beside the code that reads them, from the same list. */
void dbg_complete_cells(dbg_t *d, const char *line, const char *text, dbg_str_t *words);
void dbg_complete_expr(dbg_t *d, const char *line, const char *text, dbg_str_t *words);
void dbg_complete_commands(dbg_t *d, const char *line, const char *text, dbg_str_t *words);
void dbg_complete_files(dbg_t *d, const char *line, const char *text, dbg_str_t *words);
void dbg_complete_info(dbg_t *d, const char *line, const char *text, dbg_str_t *words);     /* cmd_inspect.c */
void dbg_complete_settings(dbg_t *d, const char *line, const char *text, dbg_str_t *words); /* settings.c */
void dbg_complete_snapshot(dbg_t *d, const char *line, const char *text, dbg_str_t *words); /* timetravel.c */
void dbg_complete_steps(dbg_t *d, const char *line, const char *text, dbg_str_t *words);    /* cmd_exec.c */
void dbg_complete_watch(dbg_t *d, const char *line, const char *text, dbg_str_t *words);    /* watch.c */

/* Whether a word is the unit of `step N clocks` and `reverse-step N clocks` (clocks, or clock). */
bool dbg_is_clocks(const char *word);

/* --- settings (settings.c, one row each in settings.def) --- */

/* set NAME VALUE, with args after `set`; 0, or -1 with the message printed. */
int dbg_set_setting(dbg_t *d, char *args);
/* info settings: every setting and its value, a line each. */
void dbg_info_settings(dbg_t *d);

/* Handlers, by file. */
int dbg_cmd_run(dbg_t *d, char *args);
int dbg_cmd_continue(dbg_t *d, char *args);
int dbg_cmd_step(dbg_t *d, char *args);
int dbg_cmd_next(dbg_t *d, char *args);
int dbg_cmd_until(dbg_t *d, char *args);
int dbg_cmd_finish(dbg_t *d, char *args);
/* Where the function holding pc starts: the nearest `call` target at or below it, or the entry (or, in a
 * handler, the event vector) when that is nearer; labels inside a function are not functions. */
uint32_t dbg_function_start(const ca_t *ca, uint32_t pc);
int dbg_cmd_backtrace(dbg_t *d, char *args);

/* One frame of a cell's call chain (backtrace.c): its pc and registers (expr_frame_t, what expressions read in
 * it), the function, and where its prologue saved registers (entry_sp + slot[r] when saved[r]). */
typedef struct dbg_frame {
    expr_frame_t r;
    uint32_t func;
    uint32_t entry_sp; /* sp when the function was entered (DBG_NO_ADDR: not unwound) */
    bool saved[ISA_NUM_REGS];
    int32_t slot[ISA_NUM_REGS];
    bool by_event;      /* an event handler: it returns with rfe to event_ret */
    uint32_t event_ret;
} dbg_frame_t;
/* Unwinds up to max frames into f; returns how many. *more: max cut it short; why: why the unwinder stopped
 * before the outermost frame ("" when it did not). */
unsigned dbg_unwind(const dbg_t *d, unsigned cell, dbg_frame_t *f, unsigned max, bool *more, char *why, size_t cap);
/* "#1  0x1040 in bump at calls.s:12" */
void dbg_print_frame(dbg_t *d, unsigned cell, const dbg_frame_t *f);
/* The selected frame of the selected cell (0 once the array has moved or another cell is selected). */
unsigned dbg_selected_frame(const dbg_t *d);
int dbg_cmd_up(dbg_t *d, char *args);
int dbg_cmd_down(dbg_t *d, char *args);
int dbg_cmd_frame(dbg_t *d, char *args);
void dbg_info_frame(dbg_t *d);

int dbg_cmd_break(dbg_t *d, char *args);
int dbg_cmd_tbreak(dbg_t *d, char *args);
int dbg_cmd_delete(dbg_t *d, char *args);
int dbg_cmd_enable(dbg_t *d, char *args);
int dbg_cmd_disable(dbg_t *d, char *args);
int dbg_cmd_ignore(dbg_t *d, char *args);
int dbg_cmd_condition(dbg_t *d, char *args);
int dbg_cmd_watch(dbg_t *d, char *args);
int dbg_cmd_catch(dbg_t *d, char *args);

int dbg_cmd_cell(dbg_t *d, char *args);
int dbg_cmd_regs(dbg_t *d, char *args);
int dbg_cmd_mem(dbg_t *d, char *args);
int dbg_cmd_dis(dbg_t *d, char *args);
int dbg_cmd_print(dbg_t *d, char *args);
int dbg_cmd_stats(dbg_t *d, char *args);
int dbg_cmd_hash(dbg_t *d, char *args);
int dbg_cmd_info(dbg_t *d, char *args);

int dbg_cmd_channels(dbg_t *d, char *args);
int dbg_cmd_links(dbg_t *d, char *args);
int dbg_cmd_pathway(dbg_t *d, char *args);
int dbg_cmd_spools(dbg_t *d, char *args);
int dbg_cmd_phase(dbg_t *d, char *args);
int dbg_cmd_map(dbg_t *d, char *args);

int dbg_cmd_snapshot(dbg_t *d, char *args);
int dbg_cmd_reverse_step(dbg_t *d, char *args);
int dbg_cmd_reverse_continue(dbg_t *d, char *args);
int dbg_cmd_goto(dbg_t *d, char *args);

/* Source lines for listings: one file kept in memory at a time, read when a listing first needs it. */
typedef struct dbg_source {
    char *path;
    char **lines;
    size_t n;
} dbg_source_t;
const char *dbg_source_line(dbg_source_t *c, const char *path, unsigned line);
void dbg_source_free(dbg_source_t *c);

/* The program of the cell an optional "X,Y" at the start of *args names (else the selected one); NULL, with the
 * message printed, when there is none. */
const emu_program_t *dbg_cell_program(dbg_t *d, char **args, unsigned *cell);
int dbg_cmd_list(dbg_t *d, char *args);
int dbg_cmd_examine(dbg_t *d, char *args);
int dbg_cmd_display(dbg_t *d, char *args);
int dbg_cmd_undisplay(dbg_t *d, char *args);
/* The `display` expressions, evaluated now (after every stop). */
void dbg_print_displays(dbg_t *d);

int dbg_cmd_source(dbg_t *d, char *args);
int dbg_cmd_expect(dbg_t *d, char *args);
int dbg_cmd_assert(dbg_t *d, char *args);
int dbg_cmd_echo(dbg_t *d, char *args);
int dbg_cmd_set(dbg_t *d, char *args);
int dbg_cmd_help(dbg_t *d, char *args);
int dbg_cmd_quit(dbg_t *d, char *args);

/* Listing helpers shared by info and the point commands. */
void dbg_info_points(dbg_t *d);
void dbg_info_snapshots(dbg_t *d);
void dbg_info_marks(dbg_t *d, uint64_t n);
/* Runs a script file: every line as a command. Returns 0, or -1 when it could not be read. */
int dbg_source_file(dbg_t *d, const char *path);
/* The interactive readline console (console.c). history: the history file (NULL: none). Returns when the user
 * quits. */
int dbg_console(dbg_t *d, const char *history);
/* Reads commands from a stream without readline (a pipe, a script). name: the script's, put before its errors as
 * name:line (NULL: none, as typed). */
int dbg_read_stream(dbg_t *d, FILE *in, const char *name);

#endif
