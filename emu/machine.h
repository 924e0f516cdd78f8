/*
 * The machine description: every number that shapes timing or capacity, with defaults from the seeds
 * (see docs/machine.md). A description file holds `key = value` lines; `#` starts a comment. Each key is a row of
 * machine_keys.def (the agent's, of comm_agent/coa_keys.def), from which its parsing, default, range, printing
 * and docs come.
 */
#ifndef EMU_MACHINE_H
#define EMU_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coa.h"
#include "isa.h"

enum {
    EMU_MAX_DIM = 32,
    EMU_CLOCK_HZ = 20000000, /* 20 MHz, one clock = 50 ns (seed 004, section 4.2.1) */
};

typedef struct emu_machine {
    isa_timing_t timing;      /* clocks per timing class */
    uint32_t mem_bytes;       /* memory per cell */
    uint32_t mem_guard;       /* addresses below this fault, so a null pointer is caught */
    uint32_t text_base;       /* where images are expected to start */
    unsigned width, height;   /* torus size, 1..EMU_MAX_DIM each */
    coa_config_t agent;       /* the keys every cell's agent reads (comm_agent/coa_keys.def), given it as they are */
    uint64_t deadlock_clocks; /* clocks with no progress while some cell waits before the run stops */
} emu_machine_t;

void emu_machine_defaults(emu_machine_t *m);
/* Where cell (x, y) of machine m sits on its torus, as its agent is told (coa_init). */
coa_place_t emu_machine_place(const emu_machine_t *m, unsigned x, unsigned y);
/* Whether two machines are the same in every key and timing class (a snapshot restores only onto its own). */
bool emu_machine_same(const emu_machine_t *x, const emu_machine_t *y);

/* Every key within its range (a machine from outside, such as a snapshot's header): 0, or -1 with a message
 * naming the first key that is not. */
int emu_machine_in_range(const emu_machine_t *m, char *err, size_t errlen);

/* The rules between keys, once every key is set: the null page below the memory's end, the text base in memory.
 * Returns 0, or -1 with a message naming the keys. */
int emu_machine_check(const emu_machine_t *m, char *err, size_t errlen);

/* Sets one key from its text value; returns 0, or -1 with a message in err. */
int emu_machine_set(emu_machine_t *m, const char *key, const char *value, char *err, size_t errlen);

/* Parses a count as users write one: decimal, or hex after 0x; no sign, no blanks, no overflow. Returns the
 * characters it took (0: not a number); the caller decides what may follow. */
size_t emu_parse_count_prefix(const char *s, uint64_t *v);
/* The same for a whole string: 0, or -1 when s is not exactly a count. */
int emu_parse_count(const char *s, uint64_t *v);

/* Parses "AxB" with decimal sides 1..max ('X' also separates; no sign, no blanks): 0 and the sides, or -1. */
int emu_parse_pair(const char *s, unsigned max, unsigned *a, unsigned *b);
/* Parses "WxH" (sides 1..EMU_MAX_DIM): 0 and the sides, or -1. */
int emu_parse_array_size(const char *s, unsigned *width, unsigned *height);

/* Host memory an array of this machine takes (cells' memories, queues and bookkeeping), in bytes. */
uint64_t emu_machine_footprint(const emu_machine_t *m);
/* Refuses, with a message giving both figures, an array that needs more memory than the host has available
 * (/proc/meminfo's MemAvailable, else the physical memory): better than the kernel's out-of-memory killer
 * minutes into a run. Returns 0 or -1. */
int emu_machine_check_host(const emu_machine_t *m, char *err, size_t errlen);

/* Reads a description file over the current values; errors are `file:line:col: message`. */
int emu_machine_load(emu_machine_t *m, const char *path, char *err, size_t errlen);

/* Writes every key with its value, in the file format (so the output can be loaded again). */
void emu_machine_print(const emu_machine_t *m, FILE *out);

/* Writes docs/machine.md's table of keys (Markdown, a row per key and one for the timing classes) as the rows of
 * machine_keys.def make it: the test compares the two. */
void emu_machine_doc_table(FILE *out);

#endif
