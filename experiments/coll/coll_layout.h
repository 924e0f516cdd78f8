/*
 * Where the collective programs (programs/coll/coll.s, programs/coll/conset_coll.s) find their case and their
 * data in every cell's memory; programs/coll/layout.inc says the same to the assembler.
 */
#ifndef EXPERIMENTS_COLL_LAYOUT_H
#define EXPERIMENTS_COLL_LAYOUT_H

enum {
    COLL_MEM_BYTES = 8u << 20,
    COLL_TABLES = 0x70000,  /* ConSet: the compiled connection set (celldata) */
    COLL_PARAMS = 0xf0000,  /* the parameter block, one word each: */
    COLL_P_PATTERN = 0,
    COLL_P_IMPL = 1,
    COLL_P_GROUPS = 2,
    COLL_P_ROOT = 3,
    COLL_P_M = 4,
    COLL_P_N = 5,
    COLL_P_LDA = 6,
    COLL_P_CHUNK = 7,
    COLL_P_DELAY = 8,
    COLL_P_SIZE = 9,        /* P, cells in the group */
    COLL_P_RANK = 10,       /* this cell's rank */
    COLL_P_BASE = 11,       /* the cell id of rank 0 */
    COLL_P_STEP = 12,       /* cell ids between ranks */
    COLL_P_MAT2 = 13,       /* COLL_BSEND: the second matrix, where the answer lands on rank 0 */
    COLL_P_WORDS = 14,
    COLL_MAT = 0x200000,    /* the matrix (COLL_BSEND: the first of two) */
    COLL_WORK = 0x600000,   /* the runtime's buffers */
    COLL_WORK_END = 0x7f0000,
    COLL_GUARD_BYTES = 64,  /* guard words before and after each matrix */
};

#define COLL_GUARD_WORD 0x5eedf00du

#endif
