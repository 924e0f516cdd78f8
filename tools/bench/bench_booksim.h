/* BookSim 2 run beside bench traffic (--booksim PATH, docs/traffic.md "Speed"): the user's binary, a config of
 * the same point written into a private folder, its cycles per host second read from its own output. BookSim's
 * code is never part of iwarp: the user builds it and names the binary. */
#ifndef TOOLS_BENCH_BENCH_BOOKSIM_H
#define TOOLS_BENCH_BENCH_BOOKSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A run's wall-clock limit, unless IWARP_BOOKSIM_WALL_SECONDS gives another: ten times what a full run of the
 * slower point took on the project's loaded 2-core machine. */
enum { BOOKSIM_WALL_SECONDS = 600 };

/* One point of bench traffic as BookSim is told it. */
typedef struct booksim_point {
    unsigned k;           /* the torus is k x k (n = 2) */
    unsigned packet_size; /* flits a packet: iwarp's data words a message */
    double rate;          /* iwarp's offered load: data words per cell per clock */
    uint64_t cycles;      /* the cycles it injects for: iwarp's network clocks */
} booksim_point_t;

/* What one run of BookSim gave. */
typedef struct booksim_result {
    bool ok;
    uint64_t cycles;     /* its "Time taken is N cycles": the injection cycles and the drain */
    double run_seconds;  /* its "Total run time S": its simulation loop alone, as iwarp's clocks/s times its own */
    double wall_seconds; /* the child's, fork to exit: start-up, config, network built and report besides */
    char why[512];       /* !ok: what went wrong (PATH is named by the caller) */
} booksim_result_t;

/* BookSim's injection_rate (packets per node per cycle) for the point: as many messages as iwarp creates. */
double booksim_injection_rate(const booksim_point_t *p);
/* Writes the config for the point (BookSim's `key = value;` syntax). Returns 0, or -1 when a write failed. */
int booksim_config_write(FILE *f, const booksim_point_t *p);
/* Reads BookSim's output: the last "Time taken is N cycles" and "Total run time S" lines. Returns 0, or -1 with
 * why (what is missing, and the output's last line). */
int booksim_parse(const char *text, uint64_t *cycles, double *seconds, char *why, size_t cap);
/* Whether PATH can be run at all (an existing file, not a folder, executable): 0, or -1 with why. Said before any
 * bench runs, so a mistyped path costs nothing. */
int booksim_check(const char *path, char *why, size_t cap);

/* The wall-clock limit of one run: BOOKSIM_WALL_SECONDS or IWARP_BOOKSIM_WALL_SECONDS (1..86400). Returns 0, or -1
 * with why. */
int booksim_wall_limit(unsigned *seconds, char *why, size_t cap);

/* A private folder for the configs and outputs of one bench (mkdtemp in $TMPDIR or /tmp). */
typedef struct booksim_dir {
    char path[4096];
    bool keep; /* a run failed: its files stay for the user to read */
} booksim_dir_t;

int booksim_dir_open(booksim_dir_t *d, char *why, size_t cap);
/* Removes the folder and what the runs wrote in it, unless a run failed (keep). */
void booksim_dir_close(booksim_dir_t *d);

/* Writes the point's config into d as NAME.cfg (never over an existing file) and gives its path. Returns 0, or -1
 * with why. */
int booksim_config_file(const booksim_dir_t *d, const char *name, const booksim_point_t *p, char *cfg, size_t cap,
                        char *why, size_t why_cap);

/* Runs PATH on the config CFG as a child process (argv {PATH, CFG}, no shell), its stdout and stderr into the
 * new file OUT, and reads its figures from OUT. It is stopped, with every process it started (its process group),
 * after timeout_seconds or on Ctrl-C (*interrupted is then set). A run is ok when PATH exited 0 or 255 (BookSim
 * 2's main returns -1 after a whole run), its output parses, and it ran at least min_cycles. `what` names the
 * run on the progress line. */
void booksim_run(const char *path, const char *cfg, const char *out, uint64_t min_cycles, unsigned timeout_seconds,
                 const char *what, bool quiet, booksim_result_t *r, bool *interrupted);

#endif
