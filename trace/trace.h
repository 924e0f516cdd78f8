/*
 * Recordings of runs (format in docs/trace.md): a header with what is needed to show the run without its
 * programs (array size, channels, programs with their source text and line tables), then records:
 * keyframes of the whole view model every VIEW_KEY_EVERY clocks, deltas of the slots that changed in a
 * clock, fault texts, and the end of the run. The recorder is an after_clock hook; the reader rebuilds
 * the view model at any clock from the keyframe before it and the deltas after that.
 *
 * No SDL here: `iwarp run --record` builds without the viewer.
 */
#ifndef VIEW_TRACE_H
#define VIEW_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "view_model.h"
#include "util.h"

#define VIEW_TRACE_MAGIC "IWARPTRC"
/* A recording file: this, then zstd frames (each with its checksum) that decompress, one after the other, to the
 * records after VIEW_TRACE_MAGIC (docs/trace.md). In memory (the live viewer) the records stay plain. */
#define VIEW_TRACE_MAGIC_ZSTD "IWARPTRZ"
enum {
    VIEW_TRACE_MAGIC_LEN = 8,
    VIEW_TRACE_VERSION = 4,     /* 2: deltas carry changes, not values; 4: files are zstd frames with checksums */
    VIEW_KEYS_PER_FRAME = 16,   /* keyframe groups in one compressed frame of a file (4,096 clocks) */
    VIEW_KEY_EVERY = 256,       /* clocks between keyframes: a seek applies at most this many deltas */
    VIEW_SOURCE_MAX = 1u << 20, /* source files larger than this are stored without their text */
    VIEW_RECORD_MAX = 1u << 30, /* a larger record is a corrupt file */
};

/* Record tags (one byte, then the payload length as a varint, then the payload). */
enum view_record_tag {
    VIEW_REC_HEADER = 'H',
    VIEW_REC_KEY = 'K',
    VIEW_REC_DELTA = 'D',
    VIEW_REC_FAULT = 'F',
    VIEW_REC_END = 'E',
    VIEW_REC_CYCLE = 'W', /* the wait cycle at the end (before 'E'): a deadlock's, or a stopped run's */
};

/* A source file of a program, with the start of each line (1-based lines). */
typedef struct view_srcfile {
    char *path;
    char *text;
    size_t len;
    size_t *line_at;
    size_t nlines;
} view_srcfile_t;

typedef struct view_program_info {
    char *name;
    view_srcfile_t *files;
    unsigned nfiles;
    isa_line_t *lines; /* sorted by addr */
    size_t nlines;
} view_program_info_t;

/* What does not change during a run. */
typedef struct view_static {
    view_layout_t l;
    uint64_t key_every;
    char *title;
    view_program_info_t *programs;
    unsigned nprograms;
    uint16_t *cell_program; /* per cell: 0 none, else index + 1 */
} view_static_t;

void view_static_free(view_static_t *s);
/* The source position and text of pc on a cell; false when unknown. */
bool view_static_line(const view_static_t *s, unsigned cell, uint32_t pc, const char **file, unsigned *line,
                      const char **text, size_t *text_len);

/* --- recording --- */

typedef struct view_recorder view_recorder_t;

/* Starts recording a run to a file: writes the header and a keyframe of the current state, and installs
 * after_clock hooks (the array then runs on one thread; results are the same). `title` names the run
 * (the program or description path). Returns NULL with a message. */
view_recorder_t *view_record_attach(emu_array_t *a, const char *path, const char *title, char *err, size_t errlen);
/* The same into memory (the live viewer reads it while it grows). */
view_recorder_t *view_record_attach_memory(emu_array_t *a, view_bytes_t *out, const char *title, char *err,
                                           size_t errlen);
/* After the run: records the final state and the end (status, cycles, deadlock cycle), removes the hooks,
 * closes the file and frees the recorder. Returns 0, or -1 with a message when writing failed. */
int view_record_finish(view_recorder_t *r, emu_run_status_t st, char *err, size_t errlen);
/* Removes the hooks and frees the recorder without writing an end (the viewer's live mode on exit). */
void view_record_abandon(view_recorder_t *r);
/* Writes a recording kept in memory (the live viewer's) as a file, compressed as the recorder writes files. */
int view_trace_save(const view_bytes_t *plain, const char *path, char *err, size_t errlen);
/* The model the recorder keeps (the live state as shown). */
const view_model_t *view_record_model(const view_recorder_t *r);

/* --- reading --- */

typedef struct view_mark_event {
    uint64_t clock; /* view clock after the clock that raised it */
    unsigned cell;
    uint32_t mark;
} view_mark_event_t;

typedef struct view_fault_event {
    uint64_t clock;
    unsigned cell;
    char *text;
} view_fault_event_t;

typedef struct view_trace {
    view_bytes_t own;          /* the file's contents (replay) */
    const view_bytes_t *bytes; /* what is read: `own`, or a live recorder's buffer */
    size_t scanned;            /* bytes parsed so far */
    bool header_done;
    view_static_t st;
    struct view_key {
        uint64_t clock;
        size_t off;
    } * keys;
    size_t nkeys, keycap;
    view_mark_event_t *marks;
    size_t nmarks, markcap;
    view_fault_event_t *faults;
    size_t nfaults, faultcap;
    uint32_t *last_mark;       /* per cell, while scanning */
    uint64_t *last_mark_clock; /* per cell, while scanning */
    uint64_t first_clock, last_clock;
    bool ended;
    uint64_t end_clock, end_cycles;
    emu_run_status_t end_status;
    char *end_deadlock;
    /* The wait cycle the run ended in (VIEW_REC_CYCLE): its steps, and the clock it closed at (nothing in it
     * changed from the clock after that to the end). */
    emu_wait_step_t *cycle;
    unsigned ncycle;
    uint64_t cycle_closed;
    char error[256]; /* set when the data is malformed; scanning stops there */
    bool damaged;    /* opened although malformed past last_clock: what precedes plays, `error` says where */
} view_trace_t;

/* Reads a recording file. Returns 0, or -1 with a message. */
int view_trace_open_file(view_trace_t *t, const char *path, char *err, size_t errlen);
/* Reads a recording that is still being written into `bytes` (live): call view_trace_scan to follow it. */
int view_trace_open_bytes(view_trace_t *t, const view_bytes_t *bytes, char *err, size_t errlen);
/* Parses the records appended since the last call. Returns 0, or -1 (message in t->error). */
int view_trace_scan(view_trace_t *t);
void view_trace_close(view_trace_t *t);
/* Whether a file starts like a recording. */
bool view_trace_is_recording(const char *path);
/* The phase last announced (EMU_MARK_PHASE) at or before `clock`; -1 when none. */
long view_trace_phase(const view_trace_t *t, uint64_t clock);

/* A position in a trace with the model there. Two cursors on one trace can sit at different clocks. */
typedef struct view_cursor {
    view_model_t m;
    size_t next; /* offset of the first record not applied */
    bool valid;
} view_cursor_t;

int view_cursor_init(view_cursor_t *c, const view_trace_t *t);
void view_cursor_free(view_cursor_t *c);
/* Rebuilds the model at `clock` (clamped to the recording's first clock). Returns 0 or -1 (malformed). */
int view_cursor_seek(view_cursor_t *c, const view_trace_t *t, uint64_t clock);

#endif
