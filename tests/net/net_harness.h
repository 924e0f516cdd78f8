/*
 * Scaffolding of the network tests (suite 'net'): a torus of W x H cells with machine overrides, programs
 * assembled from C strings (with runtime/ and tests/net/ as include folders, so `.include "net.inc"` gives
 * coa.inc and the tests' macros), loading on some or all cells with arguments, runs, and reads of registers,
 * memory and the agents' state.
 *
 *     net_t n;
 *     net_init(&n, 4, 1);
 *     net_set(&n, "queue_depth", "%u", 2);
 *     net_create(&n);
 *     const emu_program_t *p = net_asm(&n, "        li a0, 7\n        halt\n");
 *     net_load_all(&n, p, NULL, 0);
 *     net_run(&n, NET_LIMIT);
 *     net_expect_done(&n);
 *     assert_int_equal(net_a0(&n, 3, 0), 7);
 *     net_free(&n);
 *
 * Every failure prints what the run left behind (faults with emu_format_fault, the deadlock report).
 */
#ifndef TESTS_NET_HARNESS_H
#define TESTS_NET_HARNESS_H

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "coa_cr.h"
#include "emu.h"
#include "word.h"

enum {
    NET_LIMIT = 2000000, /* default clock limit of a run */
    NET_MAX_SIGNS = 16,  /* street signs of one header */
    NET_MAX_HOPS = 64,
};

typedef struct net {
    emu_machine_t machine; /* defaults with the array size; change with net_set before net_create */
    emu_array_t *array;
    emu_run_status_t status; /* of the last run */
} net_t;

void net_init(net_t *n, unsigned width, unsigned height);
/* Sets a machine key (value formatted like printf); fails the test when the key or value is refused. */
void net_set(net_t *n, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void net_create(net_t *n);
void net_free(net_t *n);

/* Assembles src (the assembly diagnostics are printed and fail the test) and adds it to the array. */
const emu_program_t *net_asm(net_t *n, const char *src);
const emu_program_t *net_asmf(net_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Address of a label of a program (fails when it is missing). */
uint32_t net_symbol(const emu_program_t *p, const char *name);

void net_load(net_t *n, unsigned x, unsigned y, const emu_program_t *p, const uint32_t *args, unsigned nargs);
/* The same program, with the same arguments, on every cell. */
void net_load_all(net_t *n, const emu_program_t *p, const uint32_t *args, unsigned nargs);

/* Runs until the clock reaches limit (exclusive) or the run stops; the status is also kept in n. */
emu_run_status_t net_run(net_t *n, uint64_t limit);
/* Runs one clock at a time until pred(n, user) holds or the clock reaches limit; returns whether it held. */
bool net_run_until(net_t *n, uint64_t limit, bool (*pred)(const net_t *n, void *user), void *user);
uint64_t net_clock(const net_t *n);

/* Status DONE and every loaded cell halted; otherwise prints the faults or the deadlock and fails. */
void net_expect_done(const net_t *n);
/* Status FAULT; returns the first faulting cell and fills text with its emu_format_fault line. */
void net_expect_fault(const net_t *n, emu_fault_kind_t kind, unsigned *x, unsigned *y, char *text, size_t cap);
/* Prints every faulted cell and the deadlock report (for failure messages). */
void net_print_state(const net_t *n);

const ca_t *net_ca(const net_t *n, unsigned x, unsigned y);
const coa_t *net_coa(const net_t *n, unsigned x, unsigned y);
uint32_t net_reg(const net_t *n, unsigned x, unsigned y, unsigned r);
static inline uint32_t net_a0(const net_t *n, unsigned x, unsigned y)
{
    return net_reg(n, x, y, 3);
}
uint32_t net_mem32(const net_t *n, unsigned x, unsigned y, uint32_t addr);

/* Fails the test unless text contains needle (prints both). */
void net_expect_contains(const char *text, const char *needle);

/* --- generated program text --- */

typedef struct net_text {
    char *buf;
    size_t len, cap;
} net_text_t;

void net_text_init(net_text_t *t);
void net_text_free(net_text_t *t);
void net_textf(net_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void net_vtextf(net_text_t *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* --- pathways --- */

/* One straight stretch of a route: `hops` links in direction `dir`. */
typedef struct net_leg {
    coa_dir_t dir;
    unsigned hops;
} net_leg_t;

/* The street signs of a pathway and the cells and links it uses. */
typedef struct net_route {
    unsigned sx, sy, dx, dy;
    unsigned hops;
    unsigned turns; /* signs consumed between the source and the destination: turns and pool switches */
    unsigned nsigns;
    uint32_t signs[NET_MAX_SIGNS];
    /* hop i leaves cell (hx[i], hy[i]) in direction hdir[i]; cell i + 1 is the next one */
    unsigned hx[NET_MAX_HOPS], hy[NET_MAX_HOPS];
    coa_dir_t hdir[NET_MAX_HOPS];
} net_route_t;

/* Builds the signs for a walk from (sx, sy) along legs, ending at `action` (COA_SIGN_GATE, _SPOOL, _QUEUE)
 * with `sink`. With dateline, every leg starts in pool 0 and a sign on the cell before the torus dateline
 * of its ring (x = W-1 going +X, x = 0 going -X, the same in Y) switches the following hops to pool 1,
 * as docs/network.md describes: that keeps any mix of such routes free of cyclic channel waits. */
void net_route_walk(net_route_t *r, unsigned w, unsigned h, unsigned sx, unsigned sy, const net_leg_t *legs,
                    unsigned nlegs, coa_sign_action_t action, unsigned sink, bool dateline);
/* Dimension order: X first in xdir, then Y in ydir (either may go the long way round), with datelines. */
void net_route_xy(net_route_t *r, unsigned w, unsigned h, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
                  coa_dir_t xdir, coa_dir_t ydir, coa_sign_action_t action, unsigned sink);
/* Assembly lines that send the route's signs through go<gate>, two bundles a sign (r21, r22; r23 = the clock
 * at which the first sign is written). net_emit_open first takes a channel (r20) and binds go<gate> to it. */
void net_emit_signs(net_text_t *t, const net_route_t *r, unsigned gate);
void net_emit_open(net_text_t *t, const net_route_t *r, unsigned gate);
/* A program that opens the route on go0 (r20 = its channel, r23 = the clock of its first sign), writes
 * nwords words 1, 2, 3, ... (r4 = the next one), then runs `tail` (assembly lines, with net.inc). */
const emu_program_t *net_route_sender(net_t *n, const net_route_t *r, unsigned nwords, const char *tail);
/* The cell one step from (x, y) in dir on a w x h torus. */
void net_step(unsigned w, unsigned h, unsigned *x, unsigned *y, coa_dir_t dir);
static inline uint32_t net_sign(unsigned x, unsigned y, coa_sign_action_t action, unsigned sink)
{
    coa_sign_t s = {.x = x, .y = y, .action = action, .sink = sink};
    return coa_sign_encode(&s);
}

/* --- randomness and scale --- */

typedef struct net_rng {
    uint64_t s;
} net_rng_t;

static inline uint64_t net_rng_next(net_rng_t *r)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Uniform in lo..hi (inclusive). */
static inline unsigned net_rng_range(net_rng_t *r, unsigned lo, unsigned hi)
{
    return lo + (unsigned)(net_rng_next(r) % (uint64_t)(hi - lo + 1u));
}

/* IWARP_NET_QUICK=1 in the environment (valgrind runs): property tests use fewer seeds and words. */
bool net_quick(void);

#endif
