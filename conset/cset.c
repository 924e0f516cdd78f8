/* The connection-set model: tasks, connections with a hash over their ids, ordering constraints, the writer. */
#include "cset.h"

#include "fnv.h"
#include "grow.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int cset_init(cset_t *s, unsigned width, unsigned height, unsigned capacity)
{
    memset(s, 0, sizeof *s);
    if (width < 1 || height < 1 || width > CSET_MAX_SIDE || height > CSET_MAX_SIDE || capacity < 1 ||
        capacity > CSET_MAX_CAPACITY)
        return -1;
    s->width = width;
    s->height = height;
    s->capacity = capacity;
    return 0;
}

void cset_free(cset_t *s)
{
    for (unsigned i = 0; i < s->ntasks; i++)
        free(s->tasks[i]);
    free(s->tasks);
    for (unsigned i = 0; i < s->nconns; i++) {
        free(s->conns[i].id);
        free(s->conns[i].after);
    }
    free(s->conns);
    free(s->task_index.slot);
    free(s->conn_index.slot);
    memset(s, 0, sizeof *s);
}

/* FNV-1a: names are short, and the table only has to be deterministic and spread them. */
static uint32_t hash_name(const char *name, size_t len)
{
    return fnv1a32(FNV32_OFFSET, name, len);
}

/* The two indexes differ only in where entry i's name is. */
typedef const char *name_of_t(const cset_t *s, unsigned i);

static const char *conn_name(const cset_t *s, unsigned i)
{
    return s->conns[i].id;
}

static const char *task_name(const cset_t *s, unsigned i)
{
    return s->tasks[i];
}

static unsigned index_find(const cset_t *s, const cset_index_t *x, name_of_t *name, const char *key, size_t len)
{
    if (x->cap == 0)
        return CSET_NONE;
    for (uint32_t k = hash_name(key, len) & (x->cap - 1);; k = (k + 1) & (x->cap - 1)) {
        unsigned i = x->slot[k];
        if (i == CSET_NONE)
            return CSET_NONE;
        const char *n = name(s, i);
        if (strlen(n) == len && memcmp(n, key, len) == 0)
            return i;
    }
}

static void index_insert(const cset_t *s, cset_index_t *x, name_of_t *name, unsigned i)
{
    const char *n = name(s, i);
    uint32_t k = hash_name(n, strlen(n)) & (x->cap - 1);
    while (x->slot[k] != CSET_NONE)
        k = (k + 1) & (x->cap - 1);
    x->slot[k] = i;
}

/* Room for entry n (entries 0..n-1 are in): keeps the table at most half full. */
static int index_reserve(const cset_t *s, cset_index_t *x, name_of_t *name, unsigned n)
{
    if (2u * (n + 1u) <= x->cap)
        return 0;
    unsigned cap = x->cap ? x->cap : 64;
    while (cap < 2u * (n + 1u))
        cap *= 2;
    unsigned *slot = malloc(sizeof *slot * cap);
    if (slot == NULL)
        return -1;
    memset(slot, 0xff, sizeof *slot * cap);
    free(x->slot);
    x->slot = slot;
    x->cap = cap;
    for (unsigned i = 0; i < n; i++)
        index_insert(s, x, name, i);
    return 0;
}

unsigned cset_task(cset_t *s, const char *name)
{
    unsigned t = index_find(s, &s->task_index, task_name, name, strlen(name));
    if (t != CSET_NONE)
        return t;
    char **tasks = grow_double(s->tasks, s->ntasks, &s->tasks_cap, sizeof *tasks, 16, UINT_MAX);
    if (tasks == NULL)
        return CSET_NONE;
    s->tasks = tasks;
    if (index_reserve(s, &s->task_index, task_name, s->ntasks) != 0)
        return CSET_NONE;
    s->tasks[s->ntasks] = strdup(name);
    if (s->tasks[s->ntasks] == NULL)
        return CSET_NONE;
    index_insert(s, &s->task_index, task_name, s->ntasks);
    return s->ntasks++;
}

unsigned cset_find(const cset_t *s, const char *id, size_t len)
{
    return index_find(s, &s->conn_index, conn_name, id, len);
}

unsigned cset_add(cset_t *s, const char *id, unsigned src, unsigned dst, uint32_t words, unsigned task)
{
    unsigned cells = s->width * s->height;
    if (src >= cells || dst >= cells || task >= s->ntasks || s->nconns >= CSET_MAX_CONNS ||
        cset_find(s, id, strlen(id)) != CSET_NONE)
        return CSET_NONE;
    cset_conn_t *conns = grow_double(s->conns, s->nconns, &s->conns_cap, sizeof *conns, 64, UINT_MAX);
    if (conns == NULL)
        return CSET_NONE;
    s->conns = conns;
    if (index_reserve(s, &s->conn_index, conn_name, s->nconns) != 0)
        return CSET_NONE;
    cset_conn_t *c = &s->conns[s->nconns];
    memset(c, 0, sizeof *c);
    c->id = strdup(id);
    if (c->id == NULL)
        return CSET_NONE;
    c->src = src;
    c->dst = dst;
    c->words = words;
    c->task = task;
    index_insert(s, &s->conn_index, conn_name, s->nconns);
    return s->nconns++;
}

int cset_add_after(cset_t *s, unsigned later, unsigned earlier)
{
    cset_conn_t *c = &s->conns[later];
    for (unsigned i = 0; i < c->nafter; i++)
        if (c->after[i] == earlier)
            return 0;
    unsigned *grown = realloc(c->after, sizeof *grown * (c->nafter + 1));
    if (grown == NULL)
        return -1;
    c->after = grown;
    c->after[c->nafter++] = earlier;
    return 0;
}

int cset_write(const cset_t *s, FILE *out)
{
    fprintf(out, "# connection set (docs/conset.md): conn ID SRC DST WORDS [after ID...]\n");
    fprintf(out, "array %ux%u\ncapacity %u\n", s->width, s->height, s->capacity);
    if (s->paper)
        fprintf(out, "compiler paper\n");
    unsigned task = CSET_NONE;
    for (unsigned i = 0; i < s->nconns; i++) {
        const cset_conn_t *c = &s->conns[i];
        if (c->task != task) {
            task = c->task;
            fprintf(out, "task %s\n", s->tasks[task]);
        }
        fprintf(out, "conn %s %u,%u %u,%u %u", c->id, c->src % s->width, c->src / s->width, c->dst % s->width,
                c->dst / s->width, c->words);
        if (c->nafter > 0) {
            fprintf(out, " after");
            for (unsigned k = 0; k < c->nafter; k++)
                fprintf(out, " %s", s->conns[c->after[k]].id);
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
