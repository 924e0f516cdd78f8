/*
 * Network words. Every word on a logical channel is 32 data bits plus a tag bit. Untagged words are data;
 * tagged words steer the communication agents (docs/network.md):
 *
 *  street sign (tag = 1)
 *   31    28 27     23 22     18 17    15 14    12 11  10  9   8          0
 *  +--------+---------+---------+--------+--------+------+---+------------+
 *  |  0x1   |    x    |    y    | action |  sink  | pool | P |  0         |
 *  +--------+---------+---------+--------+--------+------+---+------------+
 *   action 0..3: turn (or start) towards +X, -X, +Y, -Y; 4: end at input gate `sink`;
 *   5: end at spool `sink`; 6: end in the arrival queue. P = 1: the following hops take channels from `pool`.
 *   A sign is consumed by the cell it names; every other cell passes the header straight on.
 *
 *  trailer (tag = 1)
 *   31    28 27                                                               0
 *  +--------+------------------------------------------------------------------+
 *  |  0x2   |  free for software (the message layer puts a sequence number)     |
 *  +--------+------------------------------------------------------------------+
 *   Travels behind the data and frees each channel as it leaves it.
 */
#ifndef COA_WORD_H
#define COA_WORD_H

#include <stdbool.h>
#include <stdint.h>

/* The four directions of a cell's links, in the order of street-sign actions 0..3, each with its name and the step
 * to the neighbour it leads to (the torus wraps around): X(ID, NAME, DX, DY). A direction and its opposite differ in
 * the lowest bit. */
#define COA_DIRS(X)                                                                                                    \
    X(PX, "+X", 1, 0)                                                                                                  \
    X(MX, "-X", -1, 0)                                                                                                 \
    X(PY, "+Y", 0, 1)                                                                                                  \
    X(MY, "-Y", 0, -1)

typedef enum coa_dir {
#define X(id, name, dx, dy) COA_DIR_##id,
    COA_DIRS(X)
#undef X
        COA_NUM_DIRS
} coa_dir_t;

static inline coa_dir_t coa_dir_opposite(coa_dir_t d) { return (coa_dir_t)(d ^ 1u); }
const char *coa_dir_name(coa_dir_t d);
/* The neighbour d leads to from (x, y) on a w x h torus. */
void coa_dir_step(coa_dir_t d, unsigned w, unsigned h, unsigned *x, unsigned *y);

/* The kinds of tagged words, in bits 31..28: X(ID, KIND, DOC). */
#define COA_WORD_KINDS(X)                                                                                              \
    X(SIGN, 0x1, "street sign: steers the header of a pathway")                                                        \
    X(TRAILER, 0x2, "ends a pathway: frees each channel as it leaves it")

enum {
#define X(id, kind, doc) COA_WORD_KIND_##id = (kind),
    COA_WORD_KINDS(X)
#undef X
};

enum { COA_NUM_POOLS = 4 };

/* The actions of a street sign after the four turns (COA_DIRS, actions 0..3): where a pathway ends. X(ID, DOC). */
#define COA_SIGN_SINKS(X)                                                                                              \
    X(GATE, "end at input gate `sink`")                                                                                \
    X(SPOOL, "end at spool `sink`")                                                                                    \
    X(QUEUE, "end in the arrival queue")

typedef enum coa_sign_action {
#define X(id, name, dx, dy) COA_SIGN_##id,
    COA_DIRS(X)
#undef X
#define X(id, doc) COA_SIGN_##id,
        COA_SIGN_SINKS(X)
#undef X
} coa_sign_action_t;

typedef struct coa_sign {
    unsigned x, y;
    coa_sign_action_t action;
    unsigned sink;     /* gate or spool number for the sink actions */
    bool set_pool;     /* the following hops use `pool` */
    unsigned pool;
} coa_sign_t;

static inline unsigned coa_word_kind(uint32_t w) { return w >> 28; }

static inline uint32_t coa_sign_encode(const coa_sign_t *s)
{
    return (uint32_t)COA_WORD_KIND_SIGN << 28 | (uint32_t)(s->x & 31u) << 23 | (uint32_t)(s->y & 31u) << 18 |
           (uint32_t)(s->action & 7u) << 15 | (uint32_t)(s->sink & 7u) << 12 | (uint32_t)(s->pool & 3u) << 10 |
           (uint32_t)(s->set_pool ? 1u : 0u) << 9;
}

/* Returns false when the word is not a well-formed sign. */
static inline bool coa_sign_decode(uint32_t w, coa_sign_t *s)
{
    if (coa_word_kind(w) != COA_WORD_KIND_SIGN || (w & 0x1ffu) != 0)
        return false;
    s->x = w >> 23 & 31u;
    s->y = w >> 18 & 31u;
    s->action = (coa_sign_action_t)(w >> 15 & 7u);
    s->sink = w >> 12 & 7u;
    s->pool = w >> 10 & 3u;
    s->set_pool = (w >> 9 & 1u) != 0;
    return s->action <= COA_SIGN_QUEUE;
}

static inline uint32_t coa_trailer_encode(uint32_t user) { return (uint32_t)COA_WORD_KIND_TRAILER << 28 | (user & 0x0fffffffu); }

#endif
