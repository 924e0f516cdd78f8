/* A progress line for long work on a terminal: what runs, clocks done, clocks per second, and how far towards
 * a known end. It writes to stderr only when that is a terminal and the user did not ask for quiet; in a pipe
 * or a log it says nothing. */
#ifndef TOOLS_PROGRESS_H
#define TOOLS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
    bool on;
    const char *what;
    double t0, shown;
    uint64_t c0;
    int width; /* of the last line, to blank it */
} progress_t;

/* IWARP_PROGRESS=1 forces the line on (tests drive it through a pseudo-terminal; this is for scripts that
 * want it on a log), =0 off. */
void progress_init(progress_t *p, const char *what, bool quiet);
/* Rewrites the line at most five times a second: the clock now, and `end` when not 0 (a limit or a target). */
void progress_update(progress_t *p, uint64_t clock, uint64_t end);
/* For work made of many short runs: rewrites the line with `what` (the run starting now) and the seconds since
 * progress_init, at most five times a second. */
void progress_step(progress_t *p, const char *what);
/* Blanks the line (the report follows on a clean line). */
void progress_done(progress_t *p);

#endif
