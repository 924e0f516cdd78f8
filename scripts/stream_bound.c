/*
 * A yardstick for speed work, not part of the emulator: the traffic of programs/bench/stream.s on an 8x8 torus,
 * emulated clock by clock under the same rules (queues of queue_depth words, a credit per word returned to the
 * sender over the reverse link, a word per link_clocks on each link after hop_latency clocks, round robin among a
 * link's channels, four spools sharing the memory's one word a clock, the computation agent forwarding the two
 * rings through its gates) and with the same books per channel (words in and out, time-weighted occupancy, a
 * wait reason counted each clock), but written for this one program: the core's bundle is hard-coded, and there
 * are no tags, headers, faults, events, dormant cells or snapshots. It moves exactly the words over links
 * that `iwarp run programs/bench/stream.s --args N` reports, in the same clocks, and so bounds what a per-clock
 * emulator of this design can reach on the host: scripts/stream-bound.sh runs both (CONTRIBUTING.md, speed work).
 *
 * Usage: stream_bound WORDS CLOCKS [RUNS [THREADS]]. Prints one JSON object: clocks, link_words, seconds (the
 * fastest of RUNS runs, 3 by default), cell_clocks_per_second. With THREADS 2, two threads step half the rows each
 * and wait for each other after every clock, as the emulator's threads do (emu/threads.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The agent's keys at the machine's defaults, from their rows (comm_agent/coa_keys.def), on the speed bench's 8x8. */
enum {
#define COA_KEY(field, def, min, max, unit, doc, source) DEFAULT_##field = def,
#include "../comm_agent/coa_keys.def"
#undef COA_KEY
};
enum { WIDTH = 8, HEIGHT = 8, CELLS = WIDTH * HEIGHT };
enum {
    CHANNELS = DEFAULT_channels,
    DEPTH = DEFAULT_queue_depth,
    LINK_CLOCKS = DEFAULT_link_clocks,
    HOP_LATENCY = DEFAULT_hop_latency
};
enum { SLOTS = 4, MAX_CREDITS = 8, RING_WORDS = 4 }; /* slots: a power of two above the latency */
_Static_assert((int)SLOTS > (int)HOP_LATENCY && (SLOTS & (SLOTS - 1)) == 0,
               "SLOTS: a power of two above the hop latency");
enum { DIR_PX, DIR_MX, DIR_PY, DIR_MY, DIRS };
enum { END_NONE, END_LINK, END_GATE, END_SPOOL };
enum { WAIT_NONE, WAIT_NO_DATA, WAIT_NO_SPACE, WAIT_LOST_TURN, WAIT_RECEIVER, WAITS };

/* What crosses a link in one clock: a word for channel lc of the receiver, and credits for its channels. */
typedef struct slot {
    uint32_t word;
    uint8_t has_word, lc, ncredits;
    uint8_t credits[MAX_CREDITS];
} slot_t;

typedef struct line {
    slot_t slot[SLOTS];
} line_t;

typedef struct channel {
    uint16_t head, count, credits;
    uint8_t route, route_dir, route_index, source, source_dir, source_index;
    uint64_t words_in, words_out, occupancy_sum, settled_to, moved_at;
    uint64_t wait_clocks[WAITS];
} channel_t;

typedef struct spool {
    uint8_t lc, sends;
    uint32_t addr, count;
} spool_t;

typedef struct cell {
    channel_t ch[CHANNELS];
    uint32_t queue[CHANNELS][DEPTH];
    line_t *out[DIRS], *in[DIRS];
    uint64_t holding, with_credit, on_link[DIRS];
    uint64_t link_free_at[DIRS], link_words[DIRS];
    uint8_t last_served[DIRS], last_spool;
    spool_t spool[4];
    uint32_t words_left, stalls;
    uint64_t bundles;
    uint32_t mem[64];
} cell_t;

static void settle(channel_t *l, uint64_t now)
{
    uint64_t dt = now - l->settled_to;
    if (dt != 0) {
        l->occupancy_sum += (uint64_t)l->count * dt;
        if (l->count == 0)
            l->wait_clocks[WAIT_NO_DATA] += dt;
        l->settled_to = now;
    }
}

static void push(cell_t *c, unsigned lc, uint32_t word, uint64_t now)
{
    channel_t *l = &c->ch[lc];
    settle(l, now);
    unsigned at = l->head + l->count;
    c->queue[lc][at >= DEPTH ? at - DEPTH : at] = word;
    l->count++;
    l->words_in++;
    c->holding |= 1ull << lc;
}

static slot_t *out_slot(cell_t *c, unsigned dir, uint64_t now)
{
    return &c->out[dir]->slot[(now + HOP_LATENCY) & (SLOTS - 1)];
}

static uint32_t pop(cell_t *c, unsigned lc, uint64_t now)
{
    channel_t *l = &c->ch[lc];
    settle(l, now);
    uint32_t word = c->queue[lc][l->head];
    l->head = l->head + 1 == DEPTH ? 0 : l->head + 1;
    if (--l->count == 0)
        c->holding &= ~(1ull << lc);
    l->words_out++;
    l->moved_at = now;
    if (l->source == END_LINK) {
        slot_t *s = out_slot(c, l->source_dir, now);
        s->credits[s->ncredits++] = l->source_index;
    }
    return word;
}

/* One clock of one cell, in the emulator's order: arrivals, the core, spools, links, waits. */
static void step(cell_t *c, uint64_t now)
{
    for (unsigned d = 0; d < DIRS; d++) {
        slot_t *s = &c->in[d]->slot[now & (SLOTS - 1)];
        if (s->has_word) {
            push(c, s->lc, s->word, now);
            s->has_word = 0;
        }
        for (unsigned i = 0; i < s->ncredits; i++) {
            c->ch[s->credits[i]].credits++;
            c->with_credit |= 1ull << s->credits[i];
        }
        s->ncredits = 0;
    }
    /* { or go0, gi0, zero ; or go1, gi1, zero ; loop r3, 2b } */
    if (c->words_left > 0) {
        if (c->ch[13].count && c->ch[15].count && c->ch[12].count < DEPTH && c->ch[14].count < DEPTH) {
            uint32_t a = pop(c, 13, now), b = pop(c, 15, now);
            push(c, 12, a, now);
            push(c, 14, b, now);
            c->bundles++;
            c->words_left--;
        } else {
            c->stalls++;
        }
    }
    for (unsigned k = 0; k < 4; k++) {
        unsigned s = (c->last_spool + 1u + k) & 3u;
        spool_t *sp = &c->spool[s];
        if (sp->count == 0)
            continue;
        const channel_t *l = &c->ch[sp->lc];
        if (sp->sends ? l->count < DEPTH : l->count > 0) {
            if (sp->sends)
                push(c, sp->lc, c->mem[sp->addr & 63u], now);
            else
                c->mem[sp->addr & 63u] = pop(c, sp->lc, now);
            sp->addr++;
            sp->count--;
            c->last_spool = (uint8_t)s;
            break;
        }
    }
    for (unsigned d = 0; d < DIRS; d++) {
        if (now < c->link_free_at[d])
            continue;
        uint64_t ready = c->holding & c->with_credit & c->on_link[d];
        if (ready == 0)
            continue;
        unsigned from = c->last_served[d] + 1u;
        uint64_t after = from < 64 ? ready & ~((1ull << from) - 1u) : 0;
        unsigned lc = (unsigned)__builtin_ctzll(after != 0 ? after : ready);
        channel_t *l = &c->ch[lc];
        uint32_t word = pop(c, lc, now);
        slot_t *s = out_slot(c, d, now);
        s->has_word = 1;
        s->word = word;
        s->lc = l->route_index;
        if (--l->credits == 0)
            c->with_credit &= ~(1ull << lc);
        c->last_served[d] = (uint8_t)lc;
        c->link_free_at[d] = now + LINK_CLOCKS;
        c->link_words[d]++;
    }
    for (uint64_t m = c->holding; m != 0; m &= m - 1) {
        channel_t *l = &c->ch[__builtin_ctzll(m)];
        unsigned w = l->moved_at == now     ? WAIT_NONE
                     : l->route != END_LINK ? WAIT_RECEIVER
                     : l->credits == 0      ? WAIT_NO_SPACE
                                            : WAIT_LOST_TURN;
        l->wait_clocks[w]++;
    }
}

static unsigned neighbour(unsigned i, unsigned d)
{
    unsigned x = i % WIDTH, y = i / WIDTH;
    switch (d) {
    case DIR_PX: x = (x + 1) % WIDTH; break;
    case DIR_MX: x = (x + WIDTH - 1) % WIDTH; break;
    case DIR_PY: y = (y + 1) % HEIGHT; break;
    default: y = (y + HEIGHT - 1) % HEIGHT; break;
    }
    return y * WIDTH + x;
}

static void route(cell_t *c, unsigned lc, unsigned end, unsigned dir, unsigned index)
{
    c->ch[lc].route = (uint8_t)end;
    c->ch[lc].route_dir = (uint8_t)dir;
    c->ch[lc].route_index = (uint8_t)index;
    if (end == END_LINK) {
        c->on_link[dir] |= 1ull << lc;
        c->ch[lc].credits = DEPTH;
        c->with_credit |= 1ull << lc;
    }
}

static void source(cell_t *c, unsigned lc, unsigned end, unsigned dir, unsigned index)
{
    c->ch[lc].source = (uint8_t)end;
    c->ch[lc].source_dir = (uint8_t)dir;
    c->ch[lc].source_index = (uint8_t)index;
}

/* The pathways of stream.s: the +X and +Y rings through the gates, spools streaming -X and -Y. */
static void set_up(cell_t *cells, line_t *lines, unsigned words)
{
    for (unsigned i = 0; i < CELLS; i++)
        for (unsigned d = 0; d < DIRS; d++) {
            cells[i].out[d] = &lines[i * DIRS + d];
            cells[neighbour(i, d)].in[d ^ 1u] = &lines[i * DIRS + d];
        }
    /* {channel, end, direction, index}: where each channel's words go, and where they come from. */
    static const uint8_t routes[][4] = {
        {12, END_LINK, DIR_PX, 13}, {13, END_GATE, 0, 0},  {14, END_LINK, DIR_PY, 15}, {15, END_GATE, 0, 1},
        {16, END_LINK, DIR_MX, 17}, {17, END_SPOOL, 0, 2}, {18, END_LINK, DIR_MY, 19}, {19, END_SPOOL, 0, 3},
    };
    static const uint8_t sources[][4] = {
        {13, END_LINK, DIR_MX, 12},
        {15, END_LINK, DIR_MY, 14},
        {17, END_LINK, DIR_PX, 16},
        {19, END_LINK, DIR_PY, 18},
    };
    for (unsigned i = 0; i < CELLS; i++) {
        cell_t *c = &cells[i];
        for (size_t k = 0; k < sizeof routes / sizeof routes[0]; k++)
            route(c, routes[k][0], routes[k][1], routes[k][2], routes[k][3]);
        for (size_t k = 0; k < sizeof sources / sizeof sources[0]; k++)
            source(c, sources[k][0], sources[k][1], sources[k][2], sources[k][3]);
        c->spool[0] = (spool_t){16, 1, 0, words / 2};
        c->spool[1] = (spool_t){18, 1, 0, words / 2};
        c->spool[2] = (spool_t){17, 0, 8, words / 2};
        c->spool[3] = (spool_t){19, 0, 8, words / 2};
        for (unsigned k = 0; k < RING_WORDS; k++) {
            push(c, 12, k, 0);
            push(c, 14, k, 0);
        }
        c->words_left = words;
    }
}

/* Two threads, each stepping its half of the rows every clock, then waiting until the other has done that clock:
 * a word posted at a clock arrives hop_latency >= 1 clocks later, so a clock's posts are in place before they are
 * read. Each thread counts the clocks it has done on a cache line of its own. */
typedef struct half {
    _Alignas(64) _Atomic uint64_t done;
    cell_t *cells;
    unsigned first, last;
    uint64_t clocks;
    struct half *other;
} half_t;

static void *run_half(void *arg)
{
    half_t *h = arg;
    for (uint64_t now = 1; now <= h->clocks; now++) {
        for (unsigned i = h->first; i < h->last; i++)
            step(&h->cells[i], now);
        atomic_store_explicit(&h->done, now, memory_order_release);
        while (atomic_load_explicit(&h->other->done, memory_order_acquire) < now)
            ;
    }
    return NULL;
}

static void run_clocks(cell_t *cells, uint64_t clocks, unsigned threads)
{
    if (threads < 2) {
        for (uint64_t now = 1; now <= clocks; now++)
            for (unsigned i = 0; i < CELLS; i++)
                step(&cells[i], now);
        return;
    }
    half_t halves[2]; /* the other thread is joined before they go */
    halves[0] = (half_t){.cells = cells, .first = 0, .last = CELLS / 2, .clocks = clocks, .other = &halves[1]};
    halves[1] = (half_t){.cells = cells, .first = CELLS / 2, .last = CELLS, .clocks = clocks, .other = &halves[0]};
    pthread_t t;
    if (pthread_create(&t, NULL, run_half, &halves[1]) != 0) {
        run_clocks(cells, clocks, 1);
        return;
    }
    run_half(&halves[0]);
    pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s WORDS CLOCKS [RUNS [THREADS]]\n", argv[0]);
        return 2;
    }
    unsigned words = (unsigned)strtoul(argv[1], NULL, 10);
    uint64_t clocks = strtoull(argv[2], NULL, 10);
    unsigned runs = argc >= 4 ? (unsigned)strtoul(argv[3], NULL, 10) : 3u;
    unsigned threads = argc == 5 ? (unsigned)strtoul(argv[4], NULL, 10) : 1u;
    cell_t *cells = calloc(CELLS, sizeof *cells);
    line_t *lines = calloc(CELLS * DIRS, sizeof *lines);
    if (cells == NULL || lines == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    /* The fastest of the runs: a run takes a fraction of a second, which the host's other work can stretch. */
    double seconds = 0;
    for (unsigned run = 0; run < (runs < 1 ? 1u : runs); run++) {
        memset(cells, 0, CELLS * sizeof *cells);
        memset(lines, 0, CELLS * DIRS * sizeof *lines);
        set_up(cells, lines, words);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        run_clocks(cells, clocks, threads);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (run == 0 || s < seconds)
            seconds = s;
    }
    uint64_t link_words = 0;
    for (unsigned i = 0; i < CELLS; i++)
        for (unsigned d = 0; d < DIRS; d++)
            link_words += cells[i].link_words[d];
    printf("{\"clocks\": %llu, \"link_words\": %llu, \"seconds\": %.6f, \"cell_clocks_per_second\": %.6g}\n",
           (unsigned long long)clocks, (unsigned long long)link_words, seconds, (double)clocks * CELLS / seconds);
    free(cells);
    free(lines);
    return 0;
}
