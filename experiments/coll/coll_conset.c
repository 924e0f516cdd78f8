/* The collectives under ConSet (coll.h; programs/coll/conset_coll.s, docs/collectives.md): every
 * group's tree or ring as connections of one set, compiled by the communication compiler into phases and
 * tables, run on every cell, every word checked. */
#include "coll.h"

#include <stdio.h>
#include <string.h>

#include "celldata.h"
#include "coll_layout.h"
#include "conset/route.h"
#include "conset/route_tables.h"
#include "emu.h"

enum { CAPACITY = 12 }; /* channels a cell gives the connections, as the ConSet paper, section 5 */

static const char PROGRAM[] = "programs/coll/conset_coll.s";

/* What the set is being built for, and the first error. */
typedef struct builder {
    cset_t set;
    const coll_case_t *c;
    unsigned task, group;
    uint32_t words;
    char *err;
    size_t cap;
    int rc;
} builder_t;

/* A connection from rank `from` to rank `to` of the builder's group (ranks relative to rank 0). */
static void connect(builder_t *b, unsigned from, unsigned to)
{
    if (b->rc != 0)
        return;
    char id[48];
    snprintf(id, sizeof id, "g%u_%u_%u", b->group, from, to);
    unsigned src = coll_cell_of(b->c, b->group, from), dst = coll_cell_of(b->c, b->group, to);
    if (cset_add(&b->set, id, src, dst, b->words, b->task) == CSET_NONE) {
        snprintf(b->err, b->cap, "cannot add connection %s (cell %u to %u) to the set", id, src, dst);
        b->rc = -1;
    }
}

/* The tree of a broadcast (a reduce: its edges reversed): the root sends every word to both output gates,
 * one chain round the ring of ranks each way, and every other rank passes it on to the next one; rank
 * root + P / 2 ends the first chain, root + P / 2 + 1 the second. Every edge joins ranks next to each other, a
 * hop on a row or column (two where a whole array's row order wraps to the next row), so no two edges
 * share a link and a word moves at the gates' 2 clocks. A log-depth binary tree (a node's children the next
 * rank and the middle of the rest) measured slower on every size tried but the smallest blocks on 16x16: its
 * long edges share links with the subtrees they pass over, and an inner node with two children takes 3
 * clocks a word (docs/collectives.md). */
static void tree(builder_t *b, bool up)
{
    unsigned p = coll_group_size(b->c), half = p / 2;
    for (unsigned v = 1; v < p; v++) {
        unsigned parent = v <= half ? v - 1 : (v + 1) % p;
        unsigned from = (parent + b->c->root) % p, to = (v + b->c->root) % p;
        if (up)
            connect(b, to, from);
        else
            connect(b, from, to);
    }
}

/* Every group's connections, compiled into tables; *phases the compiler's phases. */
static int tables_for(const coll_case_t *c, celldata_t *tables, unsigned *phases, char *err, size_t cap)
{
    builder_t b = {.c = c, .err = err, .cap = cap};
    if (cset_init(&b.set, c->width, c->height, CAPACITY) != 0) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    unsigned p = coll_group_size(c), groups = c->width * c->height / p;
    b.task = cset_task(&b.set, coll_pattern_name(c->pattern));
    uint32_t block = c->m * c->n;
    /* words a connection carries: a block in a tree, P - 1 blocks on a ring link */
    b.words = coll_is_multi(c->pattern) ? (p - 1) * block : block;
    for (b.group = 0; b.group < groups && b.rc == 0; b.group++) {
        if (c->pattern == COLL_BCAST || c->pattern == COLL_REDUCE)
            tree(&b, c->pattern == COLL_REDUCE);
        else
            for (unsigned r = 0; r < p; r++)
                connect(&b, r, (r + 1) % p);
    }
    route_options_t o;
    route_options_init(&o);
    route_plan_t plan;
    int rc = b.rc;
    if (rc == 0)
        rc = route_compile(&b.set, &o, &plan, err, cap);
    if (rc == 0) {
        *phases = plan.nphases;
        if (plan.nphases != 1) {
            snprintf(err, cap,
                     "the compiler needed %u phases for the %s %s of %ux%u: the streaming program "
                     "(%s) keeps a tree or ring in one phase",
                     plan.nphases, coll_groups_name(c->groups), coll_pattern_name(c->pattern), c->width, c->height,
                     PROGRAM);
            rc = -1;
        }
        if (rc == 0)
            rc = route_tables(&plan, tables, err, cap);
        route_plan_free(&plan);
    }
    cset_free(&b.set);
    return rc;
}

int coll_conset_run(const coll_case_t *c, unsigned threads, coll_result_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (cap > 0)
        err[0] = '\0';
    if (coll_case_check(c, err, cap) != 0)
        return -1;
    if (c->impl != COLL_CONSET) {
        snprintf(err, cap, "coll_conset_run runs the conset implementation, not %s", coll_impl_name(c->impl));
        return -1;
    }
    celldata_t tables;
    if (tables_for(c, &tables, &out->phases, err, cap) != 0)
        return -1;
    emu_array_t *a = coll_array(c, threads, PROGRAM, err, cap);
    int rc = a != NULL ? celldata_load(&tables, a, COLL_TABLES, err, cap) : -1;
    if (rc == 0)
        rc = coll_finish(a, c, out, err, cap);
    if (a != NULL)
        emu_array_free(a);
    celldata_free(&tables);
    return rc;
}
