/*
 * The view model: everything the viewer shows about an array at one clock, as a flat vector of 64-bit
 * slots per cell. Both sources of the viewer build it the same way: the recorder fills it from a live
 * array (and writes the changes to a trace, docs/trace.md), the trace reader rebuilds it from keyframes
 * and deltas. So "replay shows what the live run showed" is the equality of two slot vectors.
 *
 * "The model at clock N" is the state after clocks 0..N-1 ran (emu_array_clock() == N).
 * No SDL here: `iwarp run --record` builds without the viewer.
 */
#ifndef VIEW_MODEL_H
#define VIEW_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

/* Slots of a cell, before its links, channels, spools and registers. */
/* Clocks over which a link's utilization is measured, by the SDL2 view and the web page alike. */
enum { VIEW_UTIL_WINDOW = 32 };

enum view_cell_slot {
    VM_CA,         /* ca_state_t | wait cause << 8 | wait gate << 16 */
    VM_PC,         /* program counter */
    VM_SINCE,      /* clock the current gate wait began (as first seen), or the halt/fault clock */
    VM_MARK,       /* the last mark the program raised (kind << 24 | data) */
    VM_MARK_CLOCK, /* the clock that mark was raised in, plus one (0: none yet) */
    VM_GATES,      /* gi0 | gi1 << 8 | go0 << 16 | go1 << 24: bound channels (COA_NONE, COA_EXPECT) */
    VM_AGENT,      /* asleep | loading << 1 | arrivals waiting << 8 */
    VM_CELL_SLOTS
};

/* Per outgoing link (4 per cell). */
enum view_link_slot {
    VM_LINK_WORDS, /* words sent so far */
    VM_LINK_BUSY,  /* busy clocks so far */
    VM_LINK_SENT,  /* the clock whose end saw the last word leave (view clock), 0: none yet */
    VM_LINK_LC,    /* the channel that sent it */
    VM_LINK_SLOTS
};

/* Per logical channel. */
enum view_lc_slot {
    VM_LC_A,    /* state | travel_dir << 8 | pool << 16 | wait << 24 | count << 32 | credits << 48 */
    VM_LC_ENDS, /* route (coa_end_encode) | source << 16 | tagged words << 32 */
    VM_LC_HEAD, /* head word | tagged << 32 | present << 33 */
    VM_LC_PATH, /* pathway id: the same along a whole pathway for its life (colours), 0: none */
    VM_LC_SLOTS
};

/* Per spool. */
enum view_spool_slot {
    VM_SP_A,     /* mode | channel << 8 | status << 16 | words left << 32 */
    VM_SP_WORDS, /* words moved so far */
    VM_SP_SLOTS
};

typedef struct view_layout {
    unsigned width, height;
    unsigned channels, spools, queue_depth;
    unsigned link_clocks, hop_latency;
    unsigned link0, lc0, spool0, regs0; /* slot offsets inside a cell */
    unsigned cell_slots;
} view_layout_t;

typedef struct view_model {
    view_layout_t l;
    uint64_t clock;
    uint64_t *slots; /* ncells * cell_slots */
    /* Recorder only (not part of what is shown): the next pathway id to hand out, and per cell the bundles
     * its core had issued at the last update (registers change only when a bundle issues). */
    uint64_t next_path;
    uint64_t *bundles_seen;
} view_model_t;

/* Slot numbers of the changes one update made, in increasing order. */
typedef struct view_changes {
    uint32_t *idx;
    size_t n, cap;
    bool unsorted; /* noted out of order (sorted again before the update returns) */
    bool failed;   /* out of memory */
} view_changes_t;

void view_layout_init(view_layout_t *l, unsigned width, unsigned height, unsigned channels, unsigned spools,
                      unsigned queue_depth, unsigned link_clocks, unsigned hop_latency);
void view_layout_from_machine(view_layout_t *l, const emu_machine_t *m);
/* Whether a layout read from a file is one this build can show (sizes within the emulator's limits). */
bool view_layout_valid(const view_layout_t *l);

int view_model_init(view_model_t *m, const view_layout_t *l);
void view_model_free(view_model_t *m);
/* Back to the state of a fresh model (everything zero, nothing seen). */
void view_model_clear(view_model_t *m);
static inline size_t view_model_nslots(const view_model_t *m)
{
    return (size_t)m->l.width * m->l.height * m->l.cell_slots;
}

/* Brings the model to the array's state at `clock` and lists the slots that changed in `changes` (if not
 * NULL). `ran`: the array has just run clock - 1, so the marks it raised then are new (they are events:
 * pass false when nothing ran since the last update, or they would be taken twice). */
void view_model_update(view_model_t *m, const emu_array_t *a, uint64_t clock, bool ran, view_changes_t *changes);
void view_changes_free(view_changes_t *c);

/* Accessors. */
static inline const uint64_t *view_cell(const view_model_t *m, unsigned x, unsigned y)
{
    return m->slots + ((size_t)y * m->l.width + x) * m->l.cell_slots;
}
static inline const uint64_t *view_link(const view_model_t *m, const uint64_t *cell, unsigned dir)
{
    return cell + m->l.link0 + dir * VM_LINK_SLOTS;
}
static inline const uint64_t *view_lc(const view_model_t *m, const uint64_t *cell, unsigned lc)
{
    return cell + m->l.lc0 + lc * VM_LC_SLOTS;
}
static inline const uint64_t *view_spool(const view_model_t *m, const uint64_t *cell, unsigned s)
{
    return cell + m->l.spool0 + s * VM_SP_SLOTS;
}

/* Unpacked channel fields. */
typedef struct view_lc_info {
    unsigned state, travel_dir, pool, wait, count, credits, ntagged;
    coa_end_t route, source;
    bool has_head, head_tagged;
    uint32_t head;
    uint64_t path;
} view_lc_info_t;

void view_lc_unpack(const view_model_t *m, const uint64_t *cell, unsigned lc, view_lc_info_t *out);

/* Which channels belong to a pathway that carries something: words on the way, or a source (gate, spool) at its
 * start; fed[cell * channels + lc] is 1 for those. The views draw the others (static routes nothing feeds yet: a
 * pattern, a runtime's ring set up in advance) in grey, so the pathways in use stand out. */
void view_model_fed(const view_model_t *m, uint8_t *fed);

/* What a cell's core does, as the cell details say it: "running", "waiting for room on go0 since clock 83",
 * "halted at clock 200", or (no program) that its agent only forwards words. */
const char *view_ca_describe(const uint64_t *cell, bool has_program, char *buf, size_t cap);

/* A channel's route (`route`: where its words go) or source (where they come from) as the cell table writes it:
 * "+X ch8", "gi0" / "go0", "spool 4", "arrivals", "-". The SDL2 panel and the web page's table share it. */
const char *view_end_name(coa_end_t e, bool route, char *buf, size_t cap);

/* The channel feeding channel slot `s` (the slot of its VM_LC_A) over a link, if that channel is in use and
 * routed to it: *up is then its slot. */
bool view_lc_upstream(const view_model_t *m, size_t s, size_t *up);
/* The channel that channel slot `s` feeds over its link, if that one is in use and fed by it: *down is its slot. */
bool view_lc_downstream(const view_model_t *m, size_t s, size_t *down);
/* A pathway hop by hop, from the hop where it starts (fed by a gate, a spool or a pattern, or the first of a
 * ring) to the one its head has reached: channel lc of cell `cell`, each feeding the next over a link. The SDL2 view
 * and the web page trace a pathway with it. */
typedef struct view_hop {
    unsigned cell, lc;
} view_hop_t;
/* The hops of the pathway through channel lc of `cell` (none when that channel is free); returns their count. */
unsigned view_pathway(const view_model_t *m, unsigned cell, unsigned lc, view_hop_t *hops, unsigned cap);

/* The slot of channel lc of cell `cell` (its VM_LC_A). */
static inline size_t view_lc_slot(const view_model_t *m, unsigned cell, unsigned lc)
{
    return (size_t)cell * m->l.cell_slots + m->l.lc0 + (size_t)lc * VM_LC_SLOTS;
}

/* The neighbour of (x, y) in direction d on the torus. */
void view_neighbour(const view_layout_t *l, unsigned x, unsigned y, unsigned d, unsigned *nx, unsigned *ny);

/* Where slot index i lives (for tests and the trace reader's event scan). */
typedef enum view_slot_kind { VM_KIND_CELL, VM_KIND_LINK, VM_KIND_LC, VM_KIND_SPOOL, VM_KIND_REG } view_slot_kind_t;
void view_slot_where(const view_layout_t *l, size_t i, unsigned *cell, view_slot_kind_t *kind, unsigned *unit,
                     unsigned *field);

#endif
