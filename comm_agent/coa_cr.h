/* The communication agent's control registers (word-indexed, read with rdcr and written with wrcr). */
#ifndef COA_CR_H
#define COA_CR_H

/* The agent's control registers: name, number, what it does (docs/network.md). runtime/coa.inc gives the
 * same numbers to assembly programs; tests/net/test_coa_inc.c checks every row against it. */
#define COA_CRS(X)                                                                                                     \
    X(STATUS, COA_CR_BASE, "r: bit 0 asleep, bit 1 quiescent, bit 2 loading a pattern")                                \
    X(SLEEP, 0x101, "rw: 1 puts the agent to sleep (links, headers and spools stop), 0 wakes it")                      \
    X(ALLOC, 0x102, "r: takes a free channel of the local pool (state header); ~0 when none")                          \
    X(RELEASE, 0x103, "w: frees an empty channel")                                                                     \
    X(ARRIVAL, 0x104, "r: pops the arrival queue (oldest pathway that ended here); ~0 when empty")                     \
    X(ARRIVALS, 0x105, "r: pathways waiting in the arrival queue")                                                     \
    X(TAG_NEXT, 0x106, "rw: bit g set: the next word written to go<g> is tagged")                                      \
    X(LOAD, 0x107, "w: loads a forwarding pattern from this address (one word per free memory clock)")                 \
    X(GATE_IN0, 0x108, "rw: channel bound to gi0, ~0 = unbound; binding sets the channel's route")                     \
    X(GATE_IN1, 0x109, "")                                                                                             \
    X(GATE_OUT0, 0x10a, "rw: channel bound to go0, ~0 = unbound; binding sets the channel's source")                   \
    X(GATE_OUT1, 0x10b, "")                                                                                            \
    X(LOCAL_POOL, 0x10c, "rw: channels ALLOC may take, bits 0..31 (0x10d: bits 32..63)")                               \
    X(LOCAL_POOL_HI, 0x10d, "")                                                                                        \
    X(MOVED, 0x10e, "r: words moved by this agent so far, low 32 bits")                                                \
    X(LINK_POOL, 0x110, "rw: + dir * 8 + pool * 2 (+1 for bits 32..63): neighbour channels for a pool")                \
    X(REMOTE_FREE, 0x130, "rw: + dir * 2 (+1 high): which of them are free as far as this cell knows")                 \
    X(LINK_WORDS, 0x138, "r: + dir * 2: words sent on the link; +1: busy clocks (low 32 bits)")                        \
    X(SPOOL, 0x140, "+ spool * 8 + field (COA_SPOOL_F_*)")                                                             \
    X(LC, 0x400, "+ channel * 8 + field (COA_LC_F_*)")

enum coa_cr {
    COA_CR_BASE = 0x100, /* the agent's registers start here; the cell's own are below (emu.h) */
#define X(id, num, doc) COA_CR_##id = (num),
    COA_CRS(X)
#undef X
    COA_CR_END = 0x600,
};

enum coa_spool_field {
    COA_SPOOL_F_CTRL = 0,     /* rw: 0 stop, 1 start sending (memory -> channel), 2 start receiving */
    COA_SPOOL_F_LC = 1,       /* rw: the channel */
    COA_SPOOL_F_ADDR = 2,     /* rw: next address */
    COA_SPOOL_F_STRIDE = 3,   /* rw: bytes between words (signed) */
    COA_SPOOL_F_COUNT = 4,    /* rw: words left */
    COA_SPOOL_F_TAG_HEAD = 5, /* rw: sending: this many leading words go tagged (street signs) */
    COA_SPOOL_F_TAG_TAIL = 6, /* rw: sending: this many trailing words go tagged (the trailer) */
    COA_SPOOL_F_STATUS = 7,   /* r: bit 0 done, bit 1 ended at a trailer before its count; w: clears */
};

enum coa_lc_field {
    COA_LC_F_STATE = 0,   /* r: coa_lc_state_t; w 0: empty the channel and free it */
    COA_LC_F_ROUTE = 1,   /* rw: kind << 12 | dir << 8 | index (coa_end_t); writing sets state routed */
    COA_LC_F_SOURCE = 2,  /* rw: same encoding */
    COA_LC_F_COUNT = 3,   /* r: words in the queue */
    COA_LC_F_CREDITS = 4, /* rw: room downstream */
    COA_LC_F_POOL = 5,    /* rw: pool of the next dynamically allocated hop */
    COA_LC_F_HEAD = 6,    /* r: the word at the head (0 when empty) */
    COA_LC_F_WAIT = 7,    /* r: coa_wait_t, why it waits now */
};

#endif
