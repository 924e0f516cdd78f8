/* The viewer's source: a recording, or a live array recorded into memory as it runs. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int cursors(view_source_t *s, char *err, size_t errlen)
{
    if (view_cursor_init(&s->cur, &s->trace) != 0 || view_cursor_init(&s->past, &s->trace) != 0)
        return err_set(err, errlen, "out of memory");
    return 0;
}

int view_source_live(view_source_t *s, emu_array_t *a, uint64_t max_cycles, const char *title, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    s->max_cycles = max_cycles;
    s->rec = view_record_attach_memory(a, &s->live, title, err, errlen);
    if (s->rec == NULL)
        return -1;
    s->running = true;
    if (view_trace_open_bytes(&s->trace, &s->live, err, errlen) != 0)
        return -1;
    return cursors(s, err, errlen);
}

int view_source_replay(view_source_t *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (view_trace_open_file(&s->trace, path, err, errlen) != 0)
        return -1;
    return cursors(s, err, errlen);
}

void view_source_close(view_source_t *s)
{
    if (s->rec != NULL)
        view_record_abandon(s->rec);
    view_cursor_free(&s->cur);
    view_cursor_free(&s->past);
    view_trace_close(&s->trace);
    view_bytes_free(&s->live);
    memset(s, 0, sizeof *s);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void view_source_advance(view_source_t *s, uint64_t target, double budget_s)
{
    if (!s->running)
        return;
    if (target > s->max_cycles)
        target = s->max_cycles;
    double t0 = seconds();
    /* In slices sized from the speed of the last one, so that full speed uses the time it is given and no
     * more, whatever the array size and the traffic. */
    uint64_t slice = 16;
    while (s->running && emu_array_clock(s->a) < target) {
        uint64_t now = emu_array_clock(s->a), to = target - now > slice ? now + slice : target;
        double t = seconds();
        emu_run_status_t st = emu_array_run(s->a, to);
        double took = seconds() - t, left = budget_s - (seconds() - t0);
        if (budget_s > 0 && took > 0 && left > 0) {
            double fit = (double)(emu_array_clock(s->a) - now) / took * left;
            slice = fit < 1 ? 1 : fit > 65536 ? 65536 : (uint64_t)fit;
        }
        if (st != EMU_RUN_LIMIT || emu_array_clock(s->a) >= s->max_cycles) {
            char err[200];
            if (view_record_finish(s->rec, st, err, sizeof err) != 0)
                fprintf(stderr, "iwarp view: %s\n", err);
            s->rec = NULL;
            s->running = false;
        }
        if (budget_s > 0 && seconds() - t0 > budget_s)
            break;
    }
    if (view_trace_scan(&s->trace) != 0)
        fprintf(stderr, "iwarp view: %s\n", s->trace.error);
}

uint64_t view_source_first(const view_source_t *s)
{
    return s->trace.first_clock;
}

uint64_t view_source_head(const view_source_t *s)
{
    if (s->a != NULL && s->running)
        return emu_array_clock(s->a);
    if (s->trace.ended)
        return s->trace.end_clock;
    return s->trace.last_clock;
}

int view_source_seek(view_source_t *s, uint64_t clock, uint64_t util_window)
{
    uint64_t first = view_source_first(s);
    uint64_t past = clock >= first + util_window ? clock - util_window : first;
    if (view_cursor_seek(&s->cur, &s->trace, clock) != 0 || view_cursor_seek(&s->past, &s->trace, past) != 0)
        return -1;
    return 0;
}

int view_source_save(const view_source_t *s, const char *path, char *err, size_t errlen)
{
    return view_trace_save(s->trace.bytes, path, err, errlen);
}
