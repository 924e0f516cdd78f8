/* The connection-set model: tasks, connections with a hash over their ids, ordering constraints, the writer. */
#include "cset.h"

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
    free(s->hash);
    memset(s, 0, sizeof *s);
}

unsigned cset_task(cset_t *s, const char *name)
{
    for (unsigned i = 0; i < s->ntasks; i++)
        if (strcmp(s->tasks[i], name) == 0)
            return i;
    char **grown = realloc(s->tasks, sizeof *grown * (s->ntasks + 1));
    if (grown == NULL)
        return CSET_NONE;
    s->tasks = grown;
    s->tasks[s->ntasks] = strdup(name);
    if (s->tasks[s->ntasks] == NULL)
        return CSET_NONE;
    return s->ntasks++;
}

/* FNV-1a: ids are short, and the table only has to be deterministic and spread them. */
static uint32_t hash_id(const char *id, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)id[i]) * 16777619u;
    return h;
}

unsigned cset_find(const cset_t *s, const char *id, size_t len)
{
    if (s->hash_cap == 0)
        return CSET_NONE;
    for (uint32_t k = hash_id(id, len) & (s->hash_cap - 1);; k = (k + 1) & (s->hash_cap - 1)) {
        unsigned i = s->hash[k];
        if (i == CSET_NONE)
            return CSET_NONE;
        if (strlen(s->conns[i].id) == len && memcmp(s->conns[i].id, id, len) == 0)
            return i;
    }
}

static void hash_insert(cset_t *s, unsigned i)
{
    const char *id = s->conns[i].id;
    uint32_t k = hash_id(id, strlen(id)) & (s->hash_cap - 1);
    while (s->hash[k] != CSET_NONE)
        k = (k + 1) & (s->hash_cap - 1);
    s->hash[k] = i;
}

/* Keeps the table at most half full. */
static int hash_reserve(cset_t *s, unsigned n)
{
    if (2u * n <= s->hash_cap)
        return 0;
    unsigned cap = s->hash_cap ? s->hash_cap : 64;
    while (cap < 2u * n)
        cap *= 2;
    unsigned *h = malloc(sizeof *h * cap);
    if (h == NULL)
        return -1;
    memset(h, 0xff, sizeof *h * cap);
    free(s->hash);
    s->hash = h;
    s->hash_cap = cap;
    for (unsigned i = 0; i < s->nconns; i++)
        hash_insert(s, i);
    return 0;
}

unsigned cset_add(cset_t *s, const char *id, unsigned src, unsigned dst, uint32_t words, unsigned task)
{
    unsigned cells = s->width * s->height;
    if (src >= cells || dst >= cells || task >= s->ntasks || s->nconns >= CSET_MAX_CONNS ||
        cset_find(s, id, strlen(id)) != CSET_NONE)
        return CSET_NONE;
    if (s->nconns == s->conns_cap) {
        unsigned cap = s->conns_cap ? 2 * s->conns_cap : 64;
        cset_conn_t *grown = realloc(s->conns, sizeof *grown * cap);
        if (grown == NULL)
            return CSET_NONE;
        s->conns = grown;
        s->conns_cap = cap;
    }
    if (hash_reserve(s, s->nconns + 1) != 0)
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
    hash_insert(s, s->nconns);
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
