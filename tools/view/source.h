/*
 * What the viewer shows comes from a trace, always: a recording file (replay), or the recording the
 * viewer makes in memory of an array it runs (live). So scrubbing back in a live run, replaying a file and
 * the frames of both are the same code, and "replay shows what the live run showed" holds by construction
 * (tests/view checks the models of both against each other at many clocks).
 */
#ifndef VIEW_SOURCE_H
#define VIEW_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "emu.h"
#include "trace.h"

typedef struct view_source {
    emu_array_t *a; /* live only; not owned */
    view_recorder_t *rec;
    view_bytes_t live;
    uint64_t max_cycles;
    bool running; /* the live array may still run */
    view_trace_t trace;
    view_cursor_t cur, past;
} view_source_t;

/* Live: records the array (from its current clock) into memory. Returns 0, or -1 with a message. */
int view_source_live(view_source_t *s, emu_array_t *a, uint64_t max_cycles, const char *title, char *err,
                     size_t errlen);
/* Replay of a recording file. */
int view_source_replay(view_source_t *s, const char *path, char *err, size_t errlen);
void view_source_close(view_source_t *s);

/* Live: runs the array towards `target` for at most `budget_s` seconds of host time (0: no limit).
 * Replay: nothing to do. */
void view_source_advance(view_source_t *s, uint64_t target, double budget_s);
uint64_t view_source_first(const view_source_t *s);
/* The last clock that can be shown now (the live array's clock, or the recording's end). */
uint64_t view_source_head(const view_source_t *s);
/* Whether the head can still move (a live run not over). */
static inline bool view_source_growing(const view_source_t *s)
{
    return s->running;
}
/* Brings both cursors to `clock` (and clock - VIEW_UTIL_WINDOW). Returns 0, or -1 (malformed trace). */
int view_source_seek(view_source_t *s, uint64_t clock, uint64_t util_window);
/* Writes the live recording to a file (iwarp view --record). */
int view_source_save(const view_source_t *s, const char *path, char *err, size_t errlen);

#endif
