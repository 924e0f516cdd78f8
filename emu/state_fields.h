/*
 * The declared state: every field of the structs that hold a cell's emulated state (the computation agent's state
 * block, the communication agent above its wiring, and the structs inside them), each with how the state hash
 * takes it (emu/hash.c). A field missing here is a field the hash cannot see, so scripts/compare-builds.sh could
 * not see a change in it: tests/e2e/test_state_fields.c reads the structs in their headers and fails on a field
 * this table does not name.
 */
#ifndef EMU_STATE_FIELDS_H
#define EMU_STATE_FIELDS_H

#include <stddef.h>

typedef enum state_how {
    STATE_BYTES,     /* its bytes as they are */
    STATE_STATS,     /* its bytes, in a hash with statistics only */
    STATE_TEXT,      /* a string: its bytes up to the NUL (those after it are left from earlier texts) */
    STATE_NESTED,    /* a struct or an array of structs, each element by its own table */
    STATE_BY_HAND,   /* hash.c hashes it with code of its own (see why) */
    STATE_NOT_HASHED /* not emulated state (see why) */
} state_how_t;

typedef struct state_struct state_struct_t;

typedef struct state_field {
    const char *name;
    size_t offset;
    size_t size; /* of the whole field: an array's elements together */
    state_how_t how;
    const state_struct_t *of; /* STATE_NESTED: the element's table */
    const char *why;          /* STATE_BY_HAND, STATE_NOT_HASHED */
} state_field_t;

struct state_struct {
    const char *tag;    /* the struct's tag, as in `typedef struct TAG {` */
    const char *header; /* where it is defined, from the source root */
    size_t size;
    const state_field_t *fields;
    unsigned nfields;
};

/* The tables of the two blocks a cell's state hash starts from. */
const state_struct_t *state_fields_ca(void);  /* ca_state_block_t */
const state_struct_t *state_fields_coa(void); /* coa_t */
/* The statistics the hash settles by hand first (STATE_BY_HAND). */
const state_struct_t *state_fields_ca_stats(void);     /* ca_stats_t */
const state_struct_t *state_fields_coa_lc_stats(void); /* coa_lc_stats_t */
/* Every table, the nested ones too, for the test. */
const state_struct_t *const *state_fields_all(unsigned *n);

#endif
