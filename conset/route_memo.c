/* Compiled cell tables by connection set and options (route_memo.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conset/route_memo.h"
#include "conset/route_tables.h"

typedef struct memo_entry {
    char *key;
    size_t key_len;
    bool done; /* compiled (rc says how); until then the thread that compiles it holds no lock */
    int rc;
    celldata_t tables;
    unsigned phases;
    char err[256];
} memo_entry_t;

struct route_memo {
    pthread_mutex_t lock;
    pthread_cond_t compiled;
    memo_entry_t **entries; /* entries never move: callers keep pointers to their tables */
    unsigned n, cap;
    unsigned requests;
};

route_memo_t *route_memo_new(void)
{
    route_memo_t *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        free(m);
        return NULL;
    }
    if (pthread_cond_init(&m->compiled, NULL) != 0) {
        pthread_mutex_destroy(&m->lock);
        free(m);
        return NULL;
    }
    return m;
}

void route_memo_free(route_memo_t *m)
{
    if (m == NULL)
        return;
    for (unsigned i = 0; i < m->n; i++) {
        free(m->entries[i]->key);
        celldata_free(&m->entries[i]->tables);
        free(m->entries[i]);
    }
    free(m->entries);
    pthread_cond_destroy(&m->compiled);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* The compiler's whole input as text: the options, then the set as its file would be. */
static char *memo_key(const cset_t *set, const route_options_t *o, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (f == NULL)
        return NULL;
    fprintf(f, "capacity %u iterations %u seed %llu links %d paper %d one_timeline %d\n", o->capacity, o->iterations,
            (unsigned long long)o->seed, o->link_aware ? 1 : 0, o->paper ? 1 : 0, o->one_timeline ? 1 : 0);
    int rc = cset_write(set, f);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static memo_entry_t *find(const route_memo_t *m, const char *key, size_t len)
{
    for (unsigned i = 0; i < m->n; i++)
        if (m->entries[i]->key_len == len && memcmp(m->entries[i]->key, key, len) == 0)
            return m->entries[i];
    return NULL;
}

/* A new entry, not yet compiled, that takes over key; NULL when out of memory. Called with the lock held. */
static memo_entry_t *add(route_memo_t *m, char *key, size_t len)
{
    if (m->n == m->cap) {
        unsigned cap = m->cap ? 2 * m->cap : 16;
        memo_entry_t **grown = realloc(m->entries, sizeof *grown * cap);
        if (grown == NULL)
            return NULL;
        m->entries = grown;
        m->cap = cap;
    }
    memo_entry_t *e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->key = key;
    e->key_len = len;
    m->entries[m->n++] = e;
    return e;
}

static void compile(memo_entry_t *e, const cset_t *set, const route_options_t *o)
{
    route_plan_t plan;
    e->rc = route_compile(set, o, &plan, e->err, sizeof e->err);
    if (e->rc == 0) {
        e->phases = plan.nphases;
        e->rc = route_tables(&plan, &e->tables, e->err, sizeof e->err);
        route_plan_free(&plan);
    }
}

int route_memo_tables(route_memo_t *m, const cset_t *set, const route_options_t *o, const celldata_t **tables,
                      unsigned *phases, char *err, size_t errlen)
{
    size_t len = 0;
    char *key = memo_key(set, o, &len);
    if (key == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pthread_mutex_lock(&m->lock);
    m->requests++;
    memo_entry_t *e = find(m, key, len);
    if (e != NULL) {
        free(key);
        while (!e->done)
            pthread_cond_wait(&m->compiled, &m->lock);
    } else {
        e = add(m, key, len);
        if (e == NULL) {
            pthread_mutex_unlock(&m->lock);
            free(key);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        /* Compiling takes long: the others may look up other sets meanwhile. */
        pthread_mutex_unlock(&m->lock);
        compile(e, set, o);
        pthread_mutex_lock(&m->lock);
        e->done = true;
        pthread_cond_broadcast(&m->compiled);
    }
    pthread_mutex_unlock(&m->lock);
    if (e->rc != 0) {
        snprintf(err, errlen, "%s", e->err);
        return -1;
    }
    *tables = &e->tables;
    *phases = e->phases;
    return 0;
}

void route_memo_counts(route_memo_t *m, unsigned *compiled, unsigned *requests)
{
    pthread_mutex_lock(&m->lock);
    *compiled = m->n;
    *requests = m->requests;
    pthread_mutex_unlock(&m->lock);
}
