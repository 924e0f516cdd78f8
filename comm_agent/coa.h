/*
 * One cell's communication agent (CoA): logical channels with their queues, four outgoing links with
 * round-robin schedulers, street-sign pathway set-up, gates, spools and the control registers
 * (docs/network.md).
 *
 * The agent touches nothing outside its cell but its link lines: a directed link between neighbours is a
 * delay line that the sender writes `hop_latency` clocks ahead and the receiver reads at the current clock.
 * Since the latency is at least one clock, cells can be stepped in any order, or in parallel, within a
 * clock and the result is the same.
 *
 * A clock of a cell runs: coa_deliver (arrivals), then the computation agent (gates, control registers),
 * then coa_after_ca (spools, headers, links).
 */
#ifndef COA_COA_H
#define COA_COA_H

/* The agent's per-clock path compiled a second time with its keys fixed at their defaults (COA_DEFAULT_KEYS, see
 * COA_KEY_OF below): the functions that this second object defines get names of their own, so that both link into
 * one program. Declared before anything names them. */
#ifdef COA_DEFAULT_KEYS
#define coa_line_init coa_line_init_default_keys
#define coa_wire coa_wire_default_keys
#define coa_line_reset_books coa_line_reset_books_default_keys
#define coa_line_free coa_line_free_default_keys
#define coa_deliver_lines coa_deliver_lines_default_keys
#define coa_links_stuck coa_links_stuck_default_keys
#define coa_links_schedule coa_links_schedule_default_keys
#define coa_spools_stuck coa_spools_stuck_default_keys
#define coa_spools coa_spools_default_keys
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coa_cr.h"
#include "word.h"

enum {
    COA_MAX_CHANNELS = 64,
    COA_MAX_SPOOLS = 32,
    COA_NUM_GATES = 2,
    COA_NONE = 0xff,
    COA_EXPECT = 0xfe, /* gate_in_lc: waiting for a pathway to end at this gate */
    COA_CACHE_LINE = 64,
    /* A line's books hold a bit per slot in one word (coa_line_t): its slots are a power of two above the hop
     * latency, hence the latency is at most 63. */
    COA_MAX_SLOTS = 64,
    COA_MAX_HOP_LATENCY = COA_MAX_SLOTS - 1,
};
/* A line's slots less one (coa_line_t's slot_mask) for a latency: its bits smeared down give the power of two above
 * it, less one; at least two slots. A macro, so that the default keys' mask is a constant (COA_IN_MASK). */
#define COA_SLOT_MASK_FOR(latency) ((latency) | (latency) >> 1 | (latency) >> 2 | (latency) >> 4 | (latency) >> 8 | 1u)

/* Where a channel's words go (its route) or come from (its source). Encoded in control registers as
 * kind << 12 | dir << 8 | index. */
#define COA_END_KINDS(X)                                                                                               \
    X(NONE, 0, "")                                                                                                     \
    X(LINK, 1, "route: to channel `index` of the neighbour in `dir`; source: from that neighbour's channel")           \
    X(GATE, 2, "route: input gate `index`; source: output gate `index`")                                               \
    X(SPOOL, 3, "route: receiving spool `index`; source: sending spool `index`")                                       \
    X(QUEUE, 4, "route: arrived, waiting in the arrival queue for the program to bind it")

typedef enum coa_end_kind {
#define X(id, num, doc) COA_END_##id = (num),
    COA_END_KINDS(X)
#undef X
} coa_end_kind_t;

typedef struct coa_end {
    uint8_t kind;
    uint8_t dir;
    uint8_t index;
} coa_end_t;

#define COA_LC_STATES(X)                                                                                               \
    X(FREE, "free")                                                                                                    \
    X(HEADER, "header")     /* allocated; the next word must be a street sign */                                       \
    X(ROUTED, "routed")     /* words flow to its route */                                                              \
    X(ARRIVED, "arrived")   /* the pathway ended here; waiting in the arrival queue */                                 \
    X(DRAINING, "draining") /* the trailer left; waiting for the last credits before it is free */

typedef enum coa_lc_state {
#define X(id, name) COA_LC_##id,
    COA_LC_STATES(X)
#undef X
} coa_lc_state_t;

/* Why a channel holding words did not move one in a clock (counted per clock, see coa_lc_stats_t). */
#define COA_WAITS(X)                                                                                                   \
    X(NONE, "none")                                                                                                    \
    X(NO_DATA, "no_data")       /* routed but empty */                                                                 \
    X(NO_SPACE, "no_space")     /* no credit: the downstream queue is full */                                          \
    X(LOST_TURN, "lost_turn")   /* the link served another channel (or is busy with a word) */                         \
    X(NO_CHANNEL, "no_channel") /* a header waits for a free channel in its pool */                                    \
    X(SETUP, "setup")           /* a header is being decoded */                                                        \
    X(RECEIVER, "receiver")     /* at the sink: the gate or spool is not taking words */                               \
    X(ASLEEP, "asleep")         /* the agent sleeps */

typedef enum coa_wait {
#define X(id, name) COA_WAIT_##id,
    COA_WAITS(X)
#undef X
        COA_WAIT_COUNT
} coa_wait_t;

typedef struct coa_lc_stats {
    uint64_t words_in;
    uint64_t words_out;
    uint64_t occupancy_sum; /* sum over clocks of the queue length: mean = sum / clocks (as of coa_settle) */
    uint32_t occupancy_max;
    uint64_t wait_clocks[COA_WAIT_COUNT];
    uint64_t pathways; /* headers that set this channel up */
    /* Pathways that started here (their words written by a gate or spool), counted at their first data word: the
     * clocks from the header's last street sign entering this channel to the first untagged word entering it,
     * summed and at most. A message layer does its per-message work meanwhile, while the header holds the
     * pathway (the ConSet paper, section 4.3: runtime/msg.s). */
    uint64_t held_pathways;
    uint64_t held_clocks;
    uint64_t held_max;
} coa_lc_stats_t;

typedef struct coa_lc {
    uint8_t state;
    coa_end_t route;
    coa_end_t source;
    uint8_t travel_dir; /* direction the pathway is heading (straight on), COA_NONE before the first turn */
    uint8_t pool;       /* pool for the next dynamically allocated hop */
    bool owned_by_link; /* allocated by the upstream neighbour: freeing it sends FREE upstream */
    bool open_pending;  /* the next word sent carries the set-up of the neighbour's channel */
    bool trailer_sent;
    uint16_t credits; /* room in the downstream queue (route LINK) */
    uint16_t head, count;
    uint16_t ntagged; /* tagged words in the queue */
    bool setup_started;
    bool header_out;      /* a gate or spool wrote a header here and no data word has followed it yet */
    uint8_t last_wait;    /* coa_wait_t of the last clock, for tools */
    uint64_t setup_done;  /* clock at which the header at the head has been decoded */
    uint64_t moved_at;    /* clock of the last word that left it */
    uint64_t header_at;   /* header_out: the clock its last street sign entered */
    /* The time-weighted books, counted at events rather than at every word: the occupancy summed over the clocks
     * up to t is occupancy_base + count * t (mod 2^64: a push at t takes t off, a pop adds it back); the clocks
     * a routed channel stands empty (its no-data wait) are counted when it stops, from stats_since. */
    uint64_t occupancy_base;
    uint64_t stats_since;
    uint64_t frozen_from; /* frozen (coa_t.frozen_lc): the first clock of last_wait not yet in stats */
} coa_lc_t;
/* A channel's fields, its statistics apart (coa_t.lc_stats), are nine words: the address of channel lc, c + 72 * lc,
 * is then two leas, where with them inside (200 bytes) it took three, and the compiler recomputes it rather than hold
 * it in a register, several times for every word a channel moves. (A channel of 64 bytes, its address a shift, with
 * frozen_from apart too, measured 1 to 2% more host instructions in msgpass and stream 8x8.) */
_Static_assert(sizeof(coa_lc_t) == 72, "a channel is 9 words: see coa_t.lc_stats");

/* What a spool does, written to and read from its CTRL field: X(ID, NAME, MODE, DOC), NAME the assembly programs'
 * (SPOOL_NAME, runtime/coa.inc: a program writes SPOOL_STOP to stop a spool). */
#define COA_SPOOL_MODES(X)                                                                                             \
    X(IDLE, STOP, 0, "stopped: moves no words")                                                                        \
    X(SEND, SEND, 1, "memory -> channel")                                                                              \
    X(RECEIVE, RECEIVE, 2, "channel -> memory")

typedef enum coa_spool_mode {
#define X(id, name, mode, doc) COA_SPOOL_##id = (mode),
    COA_SPOOL_MODES(X)
#undef X
} coa_spool_mode_t;

/* The bits of a spool's STATUS field: X(ID, BIT, DOC). */
#define COA_SPOOL_STATUS_BITS(X)                                                                                       \
    X(DONE, 1u << 0, "finished (count reached 0, or ended by a trailer)")                                              \
    X(TRAILER, 1u << 1, "a receive ended at a trailer before its count")

enum {
#define X(id, bit, doc) COA_SPOOL_##id = (bit),
    COA_SPOOL_STATUS_BITS(X)
#undef X
};

typedef struct coa_spool {
    uint8_t mode;
    uint8_t lc;
    uint8_t status;
    uint32_t addr;
    int32_t stride;
    uint32_t count;    /* words left */
    uint32_t tag_head; /* send: this many leading words go tagged */
    uint32_t tag_tail; /* send: this many trailing words go tagged */
    uint32_t index;    /* words moved in the current transfer */
    uint64_t words;    /* moved in total, for statistics */
} coa_spool_t;

/* What crosses a link in one slot: at most one word, plus credits and frees going the other way for channels of
 * the receiving cell. */
typedef struct coa_flit {
    uint32_t word;
    uint8_t tag;
    uint8_t dst_lc; /* channel at the receiving cell */
    uint8_t src_lc; /* channel at the sending cell (for credits) */
    uint8_t open;   /* first word of a dynamic pathway: the receiver sets the channel up */
    /* In coa_lc_t's order, so that a link's send copies the two as one load and store, not two of each. */
    uint8_t travel_dir;
    uint8_t pool;
} coa_flit_t;

/* A clock's worth of a link: at most one word, and what goes back upstream as counts by channel, not as a list of
 * messages, so that sending one is an or and taking them a walk over set bits. A credit says a word left channel lc
 * of the sender's downstream (the receiver's channel lc, which feeds it, may send one more); a free says the
 * sender's channel lc, which the receiver allocated, is free again. A channel pops one word in most clocks, so the
 * first credit of a clock is a bit (credit_lc), and only a header that consumes several street signs in one clock
 * counts the rest in `more` (more_lc says which counts are not zero). The receiver takes credits before frees, in
 * the order of their channels: each changes only its own channel, or adds to a set (remote_free), so the order
 * does not change what they do. */
typedef struct coa_slot {
    _Alignas(COA_CACHE_LINE) bool has_flit; /* with the flit and the masks, the slot's first cache line */
    coa_flit_t flit;
    uint64_t credit_lc;
    uint64_t more_lc;
    uint64_t free_lc;
    uint16_t more[COA_MAX_CHANNELS];
    /* Never written: it makes the slot's size a power of two, so that a slot's address is a shift of its index, not
     * a multiply (every clock's arrivals and posts compute one). */
    uint8_t unused[64];
} coa_slot_t;
_Static_assert((sizeof(coa_slot_t) & (sizeof(coa_slot_t) - 1)) == 0, "a slot's size is a power of two");

/* A directed link: the sender writes slot (t + latency) % nslots, the receiver reads slot t % nslots
 * (nslots is a power of two larger than the latency). */
typedef struct coa_line {
    unsigned nslots;
    unsigned slot_mask; /* nslots - 1: a post's slot is its clock and this, every post computes one */
    coa_slot_t *slots;
    /* Which slots hold what the receiver has not yet taken, a bit per slot, kept as two sets of toggles: the
     * sender flips a slot's bit in *posted when it first posts to it, the receiver in *taken when it empties it,
     * so a slot is full when the two differ and each word has one writer. The receiver keeps both for all four
     * of its lines together (coa_wiring_t), so that a clock with nothing coming in costs it one cache line of its
     * own, not one of each neighbour's, and it never reads a slot whose word is for a later clock. *posted is
     * written by the sender's thread, hence atomic. NULL until coa_wire joins the line to its ends. */
    _Atomic uint64_t *posted;
    uint64_t *taken;
    /* The sender's own books, so that posting never reads the receiver's lines (a read there waits for them,
     * a store does not): its copy of *posted and the clock of its last post (UINT64_MAX: none since the line's
     * slots were last set from outside, coa_line_reset_books). A slot the sender first posts to in a clock is
     * empty: the receiver emptied it when its clock came. */
    uint64_t nposted;
    uint64_t post_clock;
    /* The receiver may sleep while nothing comes (emu/schedule.c): a post finds it dormant and wakes it. A
     * receiver that never sleeps points it at never_dormant, which stays false, so that a post asks no more. */
    _Atomic bool *receiver_dormant;
    _Atomic bool never_dormant;
    void (*wake)(void *receiver);
    void *receiver;
} coa_line_t;

typedef struct coa_link_stats {
    uint64_t words;
    uint64_t busy_clocks;
} coa_link_stats_t;

/* The machine keys the agent reads, one field per row of coa_keys.def: the machine description embeds this
 * struct (emu_machine_t's agent), so a key added there reaches every agent with no copy to keep. */
typedef struct coa_config {
#define COA_KEY(field, def, min, max, unit, doc, source) unsigned field;
#include "coa_keys.def"
#undef COA_KEY
} coa_config_t;

/* The keys' defaults as constants: COA_DEFAULT_queue_depth and so on. */
enum {
#define COA_KEY(field, def, min, max, unit, doc, source) COA_DEFAULT_##field = def,
#include "coa_keys.def"
#undef COA_KEY
};

/* Whether cfg holds every key at its default: then a run may take the per-clock path compiled for them. */
static inline bool coa_keys_default(const coa_config_t *cfg)
{
    return true
#define COA_KEY(field, def, min, max, unit, doc, source) &&cfg->field == (def)
#include "coa_keys.def"
#undef COA_KEY
        ;
}

/* The per-clock path (comm_agent/coa_link.c, coa_spool.c, emu/schedule.c, emu/cell_port.c and what they inline)
 * reads a key of agent c through COA_KEY_OF, and its lines' masks through COA_LINE_MASK and COA_IN_MASK. Compiled as
 * it is, these read the agent's copy; compiled a second time with COA_DEFAULT_KEYS (the meson files), they are the
 * defaults, which the compiler folds into the code: a queue's index a shift, not a multiply by a loaded depth, and a
 * post's slot an add and a mask of constants. Most runs use the defaults, and take that second path (emu/threads.c
 * and emu_cell_port_ops choose it); every other machine runs the first, the same code with other values. */
#ifdef COA_DEFAULT_KEYS
#define COA_KEY_OF(c, field) ((void)(c), (unsigned)COA_DEFAULT_##field)
#define COA_LINE_MASK(line) ((void)(line), (unsigned)COA_SLOT_MASK_FOR(COA_DEFAULT_hop_latency))
#define COA_IN_MASK(c) ((void)(c), (unsigned)COA_SLOT_MASK_FOR(COA_DEFAULT_hop_latency))
#else
#define COA_KEY_OF(c, field) ((c)->cfg.field)
#define COA_LINE_MASK(line) ((line)->slot_mask)
#define COA_IN_MASK(c) ((c)->w.in_mask)
#endif

/* Where the agent's cell sits on the torus (street signs name cells by x and y). */
typedef struct coa_place {
    unsigned x, y, width, height;
} coa_place_t;

typedef struct coa_fault {
    bool raised;
    uint32_t addr;
    char detail[96];
} coa_fault_t;

/* Where an agent's state lives and whom it talks to. */
typedef struct coa_wiring {
    /* The books of the lines coming in (coa_line_t): the posted toggles, which only the senders write, on a cache
     * line of their own but for what this agent only reads, so that a sender on another thread does not steal the
     * line of what this agent writes. Here, not behind a pointer: every clock of the agent reads them (coa_deliver),
     * and its cell's address then gives theirs without a load. */
    _Alignas(COA_CACHE_LINE) _Atomic uint64_t in_posted[COA_NUM_DIRS];
    /* The slots of the lines coming in, written by the neighbour in that direction (their nslots: in_mask + 1).
     * Copied here so that reading them never touches the sender's cache lines. On the posted toggles' line: read
     * when these say a slot is due. */
    coa_slot_t *in_slots[COA_NUM_DIRS];
    _Alignas(COA_CACHE_LINE) uint64_t in_taken[COA_NUM_DIRS];
    unsigned in_mask;
    uint32_t *qdata; /* channels * queue_depth words */
    uint8_t *qtag;
    coa_line_t *out[COA_NUM_DIRS]; /* written by this cell */
    uint8_t *mem; /* memory shared with the computation agent */
    /* The words a spool or the pattern loader may access, from the guard to the last word of memory: first, and
     * last - first, so that a spool's word asks one comparison of its address, not two (coa_mem_ok). */
    uint32_t mem_first;
    uint32_t mem_span;
} coa_wiring_t;

typedef struct coa {
    coa_config_t cfg;
    coa_place_t at;
    coa_lc_t lc[COA_MAX_CHANNELS];
    coa_lc_stats_t lc_stats[COA_MAX_CHANNELS]; /* each channel's, apart from it: see coa_lc_t's size */
    coa_spool_t spool[COA_MAX_SPOOLS];
    uint8_t gate_in_lc[COA_NUM_GATES];
    uint8_t gate_out_lc[COA_NUM_GATES];
    uint8_t tag_next; /* bit g: the next word written to go<g> is tagged */
    bool asleep;
    /* pattern loader */
    bool loading;
    uint32_t load_addr, load_left, load_index;
    uint32_t load_entry[4];
    /* arrival queue of channels, oldest first */
    uint8_t arrivals[COA_MAX_CHANNELS];
    unsigned narrivals;
    /* dynamic allocation */
    uint64_t local_pool;                             /* channels ALLOC may hand out */
    uint64_t link_pool[COA_NUM_DIRS][COA_NUM_POOLS]; /* neighbour's channels this cell may take, per pool */
    uint64_t remote_free[COA_NUM_DIRS];              /* of those, the ones free as far as this cell knows */
    /* Headers that found no free channel: no use trying again before a neighbour's channel may have become
     * free (coa_unblock_headers empties it). */
    uint64_t blocked_lc;
    /* links */
    uint64_t link_free_at[COA_NUM_DIRS];
    uint8_t rr[COA_NUM_DIRS];
    uint8_t link_last_lc[COA_NUM_DIRS];
    coa_link_stats_t link_stats[COA_NUM_DIRS];
    uint8_t spool_rr;
    /* activity */
    uint64_t moved;     /* words moved in total (deadlock detection watches it) */
    uint64_t busy_lc;   /* mask of channels holding words */
    uint64_t tagged_lc; /* channels holding a tagged word */
    uint64_t header_lc; /* channels in state header */
    uint64_t routed_lc; /* channels in state routed */
    uint64_t credit_lc; /* channels with a credit (credits > 0): what a link's scheduler asks with routed_lc */
    /* Channels whose wait is counted lazily: waiting for a credit, a header for a free channel, or a word at its
     * pathway's end for the program to take it, a reason no clock changes until an event on the channel
     * (coa_lc_thaw) does. Under congestion most waiting channels wait so, for hundreds of clocks. */
    uint64_t frozen_lc;
    uint64_t link_lc[COA_NUM_DIRS]; /* channels routed to each outgoing link */
    uint64_t linked_lc;             /* the four together */
    /* The channels coa_headers has work at once they hold words: headers not blocked, and tagged words at a
     * pathway's end (header_lc & ~blocked_lc | tagged_lc & ~linked_lc & ~header_lc). Kept by coa_note_header_work
     * wherever one of the four changes, so that the test every clock of an agent asks (coa_headers_may_act) is one
     * mask's, not five's. */
    uint64_t header_work_lc;
    uint32_t spools_active; /* mask of spools not idle */
    /* Active spools that could not move a word at their last try, and cannot until their channel (stuck_lcs,
     * stuck_on: by channel, the spools waiting on it) or their own set-up changes: coa_spools skips them. Under
     * congestion most tries fail, each a look at a channel. */
    uint32_t spools_stuck;
    /* spools_active & ~spools_stuck, kept by coa_note_spools_ready wherever either changes: what every clock of an
     * agent asks (coa_spools_may_move), one mask's load. */
    uint32_t spools_ready;
    uint64_t stuck_lcs;
    uint32_t stuck_on[COA_MAX_CHANNELS];
    uint32_t spool_events;      /* spools that finished since the CA last looked (its event bits 0..7) */
    uint64_t out_pending_until; /* a word or message sent on a link arrives by this clock */
    coa_fault_t fault;
    /* Wiring, not state: set when the array is built and kept by a snapshot's restore (the live array's
     * queues, lines and memory). Everything above it is state, copied whole (emu/snapshot.c), hence last. */
    coa_wiring_t w;
} coa_t;
_Static_assert(offsetof(coa_t, w) + sizeof(coa_wiring_t) == sizeof(coa_t),
               "the wiring is coa_t's last member: a snapshot copies the state up to it");

/* An agent of machine keys cfg at place `at`, sharing mem with its computation agent. 0, or -1 (a key outside what
 * the agent can hold, or no memory). */
int coa_init(coa_t *c, const coa_config_t *cfg, coa_place_t at, uint8_t *mem, uint32_t mem_bytes, uint32_t mem_guard);
void coa_free(coa_t *c);
/* Back to the state after reset: every channel free and empty, spools idle, gates unbound. */
void coa_reset(coa_t *c);

/* Whether a state from outside (a snapshot file) is one the agent can run on (coa_check.c): its configuration is
 * cfg, that of its machine, its place is `at`, and every index, count, state and mask is in range and in step
 * with its channels; qtag: its queues' tags (channels * queue_depth). 0, or -1 with "FIELD is VALUE, ..." in err. */
int coa_state_check(const coa_t *c, const coa_config_t *cfg, coa_place_t at, const uint8_t *qtag, char *err,
                    size_t errlen);
/* The same for a slot of a line into a cell of `channels` channels. */
int coa_slot_check(const coa_slot_t *s, unsigned channels, char *err, size_t errlen);
/* Whether a slot holds anything: a word, a credit or a free. */
static inline bool coa_slot_full(const coa_slot_t *s)
{
    return s->has_flit || (s->credit_lc | s->free_lc) != 0;
}

int coa_line_init(coa_line_t *l, unsigned latency);
/* Joins `line` from agent `from`, leaving in direction d, to `to`, the neighbour there. */
void coa_wire(coa_t *from, coa_dir_t d, coa_line_t *line, coa_t *to);
void coa_line_free(coa_line_t *l);
/* After the line's slots were set from outside (a snapshot's restore): `full` has the bits of the slots holding
 * something, and the sender's last post is forgotten. */
void coa_line_reset_books(coa_line_t *l, uint64_t full);

/* The slots of the incoming line from direction d that hold what has not been taken: bit k for slot k
 * (coa_line_t). */
static inline uint64_t coa_in_line_full(const coa_t *c, coa_dir_t d)
{
    return atomic_load_explicit(&c->w.in_posted[d], memory_order_relaxed) ^ c->w.in_taken[d];
}
/* The same for the four incoming lines, or'ed together: bit k for slot k of any of them. */
static inline uint64_t coa_in_full(const coa_t *c)
{
    _Static_assert(COA_NUM_DIRS == 4, "the four lines are or'ed together here");
    return coa_in_line_full(c, COA_DIR_PX) | coa_in_line_full(c, COA_DIR_MX) | coa_in_line_full(c, COA_DIR_PY) |
           coa_in_line_full(c, COA_DIR_MY);
}
/* Whether something a neighbour sent is on its way in: posted on a link and not yet delivered. */
static inline bool coa_receiving(const coa_t *c)
{
    return coa_in_full(c) != 0;
}

/* The three parts of a clock (see the top of this file). mem_used: the CA took the memory port. Arrivals are
 * inline up to the test that something is due on one of the four lines: most clocks of most cells nothing is, and
 * then the test is all a clock of arrivals costs, without a call. The call takes the test's four words
 * (coa_in_line_full, in the order of the directions) in registers, rather than load them again: a slot due now is
 * written by no one but this agent until it takes it, so their bits for it are still true. */
void coa_deliver_lines(coa_t *c, uint64_t now, uint64_t full0, uint64_t full1, uint64_t full2, uint64_t full3);
static inline void coa_deliver(coa_t *c, uint64_t now)
{
    _Static_assert(COA_NUM_DIRS == 4, "four words, one a line");
    uint64_t f0 = coa_in_line_full(c, COA_DIR_PX), f1 = coa_in_line_full(c, COA_DIR_MX),
             f2 = coa_in_line_full(c, COA_DIR_PY), f3 = coa_in_line_full(c, COA_DIR_MY);
    if (((f0 | f1 | f2 | f3) >> (now & COA_IN_MASK(c)) & 1u) != 0)
        coa_deliver_lines(c, now, f0, f1, f2, f3);
}
/* The parts of coa_after_ca, each called only when the test before it says it may have something to do. coa_spools
 * goes on to the parts after it, and coa_links_schedule to the waits, as coa_after_ca would: one call, not several,
 * in the clocks of a busy agent, most of which have work for spools, links and waits alike. */
void coa_spools(coa_t *c, uint64_t now); /* the pattern loader, then the spools in turn (coa_spool.c); the rest */
void coa_headers(coa_t *c, uint64_t now); /* street signs decoded, pathways built (coa_header.c) */
/* A word per free link, round robin (coa_link.c), of the channels `sendable` (coa_links_sendable); the waits. */
void coa_links_schedule(coa_t *c, uint64_t now, uint64_t sendable);
void coa_account_waits(coa_t *c, uint64_t now);  /* why each channel holding words did not move one (coa_channel.c) */
/* spools_ready from the two masks it summarizes: after a change of either. */
static inline void coa_note_spools_ready(coa_t *c)
{
    c->spools_ready = c->spools_active & ~c->spools_stuck;
}
/* Whether coa_spools may move a word this clock: the memory port free (mem_used: the CA took it) and the pattern
 * loader running, or an awake agent with an active spool not stuck on its channel. */
static inline bool coa_spools_may_move(const coa_t *c, bool mem_used)
{
    return !mem_used && (c->loading || (!c->asleep && c->spools_ready != 0));
}
/* The headers that may act: holding words, and not waiting for a free channel (blocked_lc). */
static inline uint64_t coa_headers_ready(const coa_t *c)
{
    return c->busy_lc & c->header_lc & ~c->blocked_lc;
}
/* The channels whose tagged words are at a pathway's end, not signs or trailers passing through to a link. */
static inline uint64_t coa_tagged_at_ends(const coa_t *c)
{
    return c->busy_lc & c->tagged_lc & ~c->linked_lc & ~c->header_lc;
}
/* header_work_lc from the four masks it summarizes: after a change of any of them. */
static inline void coa_note_header_work(coa_t *c)
{
    c->header_work_lc = (c->header_lc & ~c->blocked_lc) | (c->tagged_lc & ~c->linked_lc & ~c->header_lc);
}
/* Whether coa_headers may act: a channel holding words where it has work (coa_headers_ready, coa_tagged_at_ends).
 * Most clocks of most agents have none (a stream's words are plain; under congestion the headers are blocked and the
 * tagged words wait at links). */
static inline bool coa_headers_may_act(const coa_t *c)
{
    return (c->busy_lc & c->header_work_lc) != 0;
}
/* The channels a link may send a word of: routed, holding a word, with a credit. Not empty: the links may send, and
 * the scheduler takes the mask from its caller rather than derive it again. */
static inline uint64_t coa_links_sendable(const coa_t *c)
{
    return c->busy_lc & c->routed_lc & c->credit_lc;
}
/* The agent's clock after the CA's: spools, headers, links, waits. Inline, as coa_deliver: the cell's step asks it
 * at every clock of an active agent, and most such clocks have work for one or two of its parts at most. */
static inline void coa_after_ca(coa_t *c, uint64_t now, bool mem_used)
{
    /* Under congestion most clocks of most agents have nothing for any (spools stuck, headers blocked, no
     * credits, waits frozen), and a call that finds so costs more than the test. */
    if (coa_spools_may_move(c, mem_used)) {
        coa_spools(c, now); /* and the parts after it */
        return;
    }
    if (!c->asleep) {
        if (coa_headers_may_act(c))
            coa_headers(c, now);
        uint64_t sendable = coa_links_sendable(c);
        if (sendable != 0) {
            coa_links_schedule(c, now, sendable); /* and the waits */
            return;
        }
    }
    if ((c->busy_lc & ~c->frozen_lc) != 0)
        coa_account_waits(c, now);
}
/* Whether anything can happen without a new arrival or a CA action (lets the array skip idle clocks). */
static inline bool coa_active(const coa_t *c)
{
    return c->busy_lc != 0 || c->loading || c->spools_active != 0;
}
/* Whether an active agent is stuck after clock `now`: no clock from now + 1 on changes anything in it but its
 * waits (each channel's reason the same at each; coa_account_stuck_waits adds them up), until a word or
 * control message arrives or the CA acts. Under congestion most agents spend most clocks so. */
bool coa_stuck(const coa_t *c, uint64_t now);
/* What coa_account_waits would have added over the n clocks from `from` on, in which the agent was stuck. */
void coa_account_stuck_waits(coa_t *c, uint64_t from, uint64_t n);
/* Whether something this agent sent is still on its way to a neighbour. */
static inline bool coa_sending(const coa_t *c, uint64_t now)
{
    return c->out_pending_until > now;
}

/* The computation agent's side (see emu/port.h). Status: 0 ready, 1 wait, 2 unbound. The status checks are
 * inline: the core asks them for every bundle that uses a gate. The words themselves: coa_gate.h. */
static inline int coa_gate_in_status(const coa_t *c, unsigned g)
{
    unsigned lc = c->gate_in_lc[g];
    _Static_assert(COA_NONE == COA_EXPECT + 1 && COA_MAX_CHANNELS < COA_EXPECT, "no channel is either");
    if (lc >= COA_EXPECT) /* one test for both on the way to a channel's status */
        return lc == COA_NONE ? 2 : 1;
    /* A tagged word at the head is the trailer: the agent consumes it, the program never reads it. The masks say
     * whether the channel holds words (busy_lc) and tagged ones (tagged_lc) without computing its address. */
    if (!(c->busy_lc >> lc & 1u))
        return 1;
    return (c->tagged_lc >> lc & 1u) && c->w.qtag[lc * COA_KEY_OF(c, queue_depth) + c->lc[lc].head] ? 1 : 0;
}
static inline int coa_gate_out_status(const coa_t *c, unsigned g)
{
    unsigned lc = c->gate_out_lc[g];
    if (lc == COA_NONE)
        return 2;
    const coa_lc_t *l = &c->lc[lc];
    return l->count >= COA_KEY_OF(c, queue_depth) || l->state == COA_LC_DRAINING ? 1 : 0;
}
int coa_cr_read(coa_t *c, uint32_t index, uint32_t *value, uint64_t now);
/* coa_cr_read for what the runtimes' wait loops read at every trip, an empty arrival queue or a spool's status, with
 * no call: true when it answered, else the caller asks coa_cr_read. Neither read changes the agent. */
static inline bool coa_cr_read_quick(const coa_t *c, uint32_t index, uint32_t *value)
{
    if (index == COA_CR_ARRIVAL && c->narrivals == 0) {
        *value = COA_CR_NONE;
        return true;
    }
    uint32_t k = index - COA_CR_SPOOL; /* wraps for the registers below */
    if (k < 8u * COA_KEY_OF(c, spools) && k % 8u == COA_SPOOL_F_STATUS) {
        *value = c->spool[k / 8u].status;
        return true;
    }
    return false;
}
int coa_cr_write(coa_t *c, uint32_t index, uint32_t value, uint64_t now);

/* Encodings used by the control registers. */
static inline uint32_t coa_end_encode(coa_end_t e)
{
    return (uint32_t)e.kind << 12 | (uint32_t)(e.dir & 15u) << 8 | e.index;
}
static inline coa_end_t coa_end_decode(uint32_t v)
{
    return (coa_end_t){(uint8_t)(v >> 12 & 15u), (uint8_t)(v >> 8 & 15u), (uint8_t)(v & 0xffu)};
}

/* The clocks channel lc has waited, frozen (frozen_lc), for its last_wait and not yet counted, up to below `now`. */
static inline uint64_t coa_lc_frozen_clocks(const coa_t *c, unsigned lc, uint64_t now)
{
    const coa_lc_t *l = &c->lc[lc];
    return (c->frozen_lc >> lc & 1u) && now > l->frozen_from ? now - l->frozen_from : 0;
}
/* The occupancy summed over the clocks before `now`: what coa_settle writes into the statistics. */
static inline uint64_t coa_lc_occupancy_sum(const coa_lc_t *l, uint64_t now)
{
    return l->occupancy_base + (uint64_t)l->count * now;
}
/* Why channel lc waits right now (for tools). */
coa_wait_t coa_lc_wait(const coa_t *c, unsigned lc, uint64_t now);
const char *coa_wait_name(coa_wait_t w);
const char *coa_lc_state_name(coa_lc_state_t s);
/* Word at position i of a channel's queue (0 = head). */
uint32_t coa_lc_peek(const coa_t *c, unsigned lc, unsigned i, bool *tag);
/* Brings the time-weighted statistics (occupancy, no-data time) and the waits counted lazily up to `now`: the
 * end of a run. The run may go on after it. */
void coa_settle(coa_t *c, uint64_t now);
/* Brings only the waits counted lazily (frozen_lc) up to `now`, the clock not yet run: where a run returns. */
void coa_thaw_waits(coa_t *c, uint64_t now);
/* Nothing queued anywhere and no spool running. */
bool coa_quiescent(const coa_t *c);

#endif
