#include "thread_tuner.h"

void thread_tuner_init(thread_tuner_t *t, unsigned max)
{
    *t = (thread_tuner_t){.max = max < 1 ? 1 : max, .cur = 1, .probe_up = true, .every = THREAD_TUNER_EVERY};
    /* The first try comes after the first measured slice: a short run should not spend its time at a bad count. */
    t->since_probe = THREAD_TUNER_EVERY - 1;
}

/* The neighbouring count the next try takes, or 0 when there is none (max 1). */
static unsigned neighbour(const thread_tuner_t *t)
{
    unsigned up = t->cur * 2 <= t->max ? t->cur * 2 : t->max;
    unsigned down = t->cur / 2;
    if (up == t->cur)
        return down;
    if (down == 0)
        return up;
    return t->probe_up ? up : down;
}

/* A try that was not run, or lost: the other way next time, where there is one, and less often. */
static void lost(thread_tuner_t *t)
{
    t->probe_up = !t->probe_up;
    if (t->every < THREAD_TUNER_EVERY_MAX)
        t->every *= 2;
}

unsigned thread_tuner_next(thread_tuner_t *t, unsigned idle_cores)
{
    t->probe = 0;
    if (t->pending == 0 && t->last_rate > 0 && t->since_probe >= t->every) {
        t->probe = neighbour(t);
        if (t->probe > t->cur && idle_cores != THREAD_TUNER_IDLE_UNKNOWN && idle_cores < t->probe - t->cur) {
            /* No core for the threads it would add: not tried now, and as a lost try. */
            t->probe = 0;
            t->since_probe = 0;
            t->skipped++;
            lost(t);
        }
    }
    return t->probe != 0 ? t->probe : t->cur; /* a check slice (pending) runs at cur */
}

/* A try is over: kept, or lost (tries the other way next time, where there is one, and less often). */
static void tried(thread_tuner_t *t, bool kept, double cur_rate)
{
    t->probes++;
    t->since_probe = 0;
    if (kept) {
        t->left = t->cur;
        t->left_rate = cur_rate;
        t->cur = t->pending;
        t->last_rate = t->pending_rate;
        t->switches++;
        t->every = THREAD_TUNER_EVERY;
    } else {
        lost(t);
    }
    t->pending = 0;
}

void thread_tuner_note(thread_tuner_t *t, uint64_t clocks, double seconds)
{
    if (seconds < THREAD_TUNER_MIN_SECONDS) {
        thread_tuner_skip(t);
        return;
    }
    double rate = (double)clocks / seconds;
    if (t->probe != 0) {
        /* It must beat the slice before; then the slice after, back at cur, must confirm it. */
        t->pending = t->probe;
        t->pending_rate = rate;
        t->probe = 0;
        if (!(rate > t->last_rate * THREAD_TUNER_GAIN))
            tried(t, false, t->last_rate);
        return;
    }
    if (t->pending != 0) {
        bool kept = t->pending_rate > rate * THREAD_TUNER_GAIN;
        if (!kept)
            t->last_rate = rate;
        tried(t, kept, rate);
        return;
    }
    if (t->left != 0 && rate * THREAD_TUNER_GAIN < t->left_rate) {
        /* Clearly slower than the count before the switch was: back to it, and as after a lost try. */
        t->cur = t->left;
        t->last_rate = t->left_rate;
        t->left = 0;
        t->since_probe = 0;
        t->fallbacks++;
        lost(t);
        return;
    }
    t->last_rate = rate;
    t->since_probe++;
}

void thread_tuner_skip(thread_tuner_t *t) { t->probe = 0; }
