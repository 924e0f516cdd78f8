/*
 * `--threads auto`: a run's host thread count chosen between its slices by what each count achieves. Whether
 * threads pay depends on how many cells are busy, how much each costs and what else the host runs (docs/run.md,
 * "When threads help"), and all three change while a run goes on. So the run goes on at one count and now and
 * then tries a neighbouring one (twice or half as many) for one slice, keeping it when that slice ran clearly
 * faster than both the slice before it and the slice after it (back at the old count: one slice alone may be
 * faster for what it emulates, or what else the host does); tries that lose come more and more rarely. On a
 * shared host the count kept can turn bad when another program starts: a slice clearly slower than the old count
 * ran before the switch goes back to it at once, and no try of more threads is made while the host has no core
 * idle for them (another thread would only take turns with a busy core, and a slice of threads that wait for each
 * other at every clock can run several times slower than one thread).
 * Results never depend on the count (tests/e2e/test_slices.c), only the host time.
 *
 * The tuner only decides; it never looks at a clock of its own. The run loop times the slices and tells it
 * (thread_tuner_note), so the choice can be tested with rates that are given, not measured.
 */
#ifndef RUNNER_THREAD_TUNER_H
#define RUNNER_THREAD_TUNER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct thread_tuner {
    unsigned max;         /* the most threads worth trying: the host's cores, or what the array would use */
    unsigned cur;         /* the count the run goes on with */
    unsigned probe;       /* the count of the slice being run when it is a try; 0 when it runs at cur */
    unsigned pending;     /* a try that beat the slice before it, waiting for the slice after (at cur) to confirm */
    double pending_rate;  /* that try's rate */
    unsigned since_probe; /* slices measured at cur since the last try */
    unsigned every;       /* slices at cur between two tries: doubles after each try lost, back to the least after
                             one kept, so a run where the first choice stays right pays less and less for trying */
    bool probe_up;        /* the next try is twice as many threads, if there are that many (else half) */
    double last_rate;     /* emulated clocks a host second of the last slice measured at cur; 0: none yet */
    unsigned left;        /* the count the last switch left (0: none), and its rate then: a slice at cur clearly */
    double left_rate;     /* slower than that goes back to it */
    unsigned probes, switches;
    unsigned fallbacks; /* went back to the count before the switch, on a slower slice */
    unsigned skipped;   /* tries of more threads not made: no idle core for them */
} thread_tuner_t;

enum {
    THREAD_TUNER_EVERY = 8,       /* slices at the chosen count between two tries, at least... */
    THREAD_TUNER_EVERY_MAX = 128, /* ... and at most */
};
/* A try wins when its slice ran more than this much faster than the slices around it (the noise of a host's
 * timings, and a slice's work differs a little from the next one's). */
#define THREAD_TUNER_GAIN 1.05
/* Slices shorter than this are not compared: timer noise and the threads' start would decide. */
#define THREAD_TUNER_MIN_SECONDS 0.02

/* Starts at one thread; `max` is the most it will try (1: never tries). */
void thread_tuner_init(thread_tuner_t *t, unsigned max);
/* The count to run the next slice with; idle_cores: the host's cores that run nothing now besides this run's
 * threads (THREAD_TUNER_IDLE_UNKNOWN when not known), which a try of more threads needs. */
unsigned thread_tuner_next(thread_tuner_t *t, unsigned idle_cores);
#define THREAD_TUNER_IDLE_UNKNOWN (~0u)
/* What the slice just run (at the count thread_tuner_next gave) did: `clocks` emulated clocks in `seconds`. */
void thread_tuner_note(thread_tuner_t *t, uint64_t clocks, double seconds);
/* The slice thread_tuner_next gave a count for was not measured (it ended the run, or was cut short). */
void thread_tuner_skip(thread_tuner_t *t);

#endif
