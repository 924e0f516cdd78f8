/* The communication agent's control registers (word-indexed, read with rdcr and written with wrcr). */
#ifndef COA_CR_H
#define COA_CR_H

/* The agent's control registers: name, number, what it does (docs/network.md). This file's tables give assembly
 * programs their numbers: tests/net/test_coa_inc.c writes runtime/coa.inc from them. */
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

/* The bits of COA_CR_STATUS: X(ID, BIT, DOC). */
#define COA_STATUS_BITS(X)                                                                                             \
    X(ASLEEP, 1u << 0, "the agent sleeps (1 written to SLEEP)")                                                        \
    X(QUIESCENT, 1u << 1, "no word in any channel, no header or spool at work")                                        \
    X(LOADING, 1u << 2, "a forwarding pattern is being loaded (LOAD)")

enum coa_status_bit {
#define X(id, bit, doc) COA_STATUS_##id = (bit),
    COA_STATUS_BITS(X)
#undef X
};

/* The words registers that name a channel read and take besides its number (all ones and the one below: too large
 * for an enum): X(ID, VALUE, DOC). */
#define COA_CR_NONE 0xffffffffu
#define COA_CR_EXPECT 0xfffffffeu
#define COA_CR_VALUES(X)                                                                                               \
    X(NONE, COA_CR_NONE, "no channel (ALLOC, ARRIVAL, unbinding a gate)")                                              \
    X(EXPECT, COA_CR_EXPECT, "bind a gate to the pathway that will end at it")

/* The fields of a spool's registers, COA_CR_SPOOL + spool * 8 + field: X(ID, FIELD, DOC). */
#define COA_SPOOL_FIELDS(X)                                                                                            \
    X(CTRL, 0, "rw: the spool's mode: writing send or receive starts it, stop stops it")                               \
    X(LC, 1, "rw: the channel")                                                                                        \
    X(ADDR, 2, "rw: next address")                                                                                     \
    X(STRIDE, 3, "rw: bytes between words (signed)")                                                                   \
    X(COUNT, 4, "rw: words left")                                                                                      \
    X(TAG_HEAD, 5, "rw: sending: this many leading words go tagged (street signs)")                                    \
    X(TAG_TAIL, 6, "rw: sending: this many trailing words go tagged (the trailer)")                                    \
    X(STATUS, 7, "r: the status bits (done, trailer); w: clears them")

enum coa_spool_field {
#define X(id, field, doc) COA_SPOOL_F_##id = (field),
    COA_SPOOL_FIELDS(X)
#undef X
};

/* The fields of a channel's registers, COA_CR_LC + channel * 8 + field: X(ID, FIELD, DOC). */
#define COA_LC_FIELDS(X)                                                                                               \
    X(STATE, 0, "r: coa_lc_state_t; w 0: empty the channel and free it")                                               \
    X(ROUTE, 1, "rw: kind << 12 | dir << 8 | index (coa_end_t); writing sets state routed")                            \
    X(SOURCE, 2, "rw: same encoding")                                                                                  \
    X(COUNT, 3, "r: words in the queue")                                                                               \
    X(CREDITS, 4, "rw: room downstream")                                                                               \
    X(POOL, 5, "rw: pool of the next dynamically allocated hop")                                                       \
    X(HEAD, 6, "r: the word at the head (0 when empty)")                                                               \
    X(WAIT, 7, "r: coa_wait_t, why it waits now")

enum coa_lc_field {
#define X(id, field, doc) COA_LC_F_##id = (field),
    COA_LC_FIELDS(X)
#undef X
};

#endif
