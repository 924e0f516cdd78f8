/* METIS's and RCB's partitions and the shared-node pattern (fem_partition.h). */
#include "fem_partition.h"

#include <metis.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fem_rcb.h"
#include "file.h"

const char *const fem_partitioner_names[FEM_PARTITIONERS] = {"metis", "rcb"};

const char *fem_partitioner_label(fem_partitioner_t how)
{
    return how == FEM_RCB ? "RCB" : "METIS";
}

int fem_partitioner_parse(const char *name, fem_partitioner_t *how)
{
    for (unsigned i = 0; i < FEM_PARTITIONERS; i++)
        if (strcmp(name, fem_partitioner_names[i]) == 0) {
            *how = (fem_partitioner_t)i;
            return 0;
        }
    return -1;
}

/* For every node, the parts of its elements; each pair of them shares a word. */
static int shared_words(const fem_mesh_t *m, fem_partition_t *p)
{
    size_t nn = m->nnodes;
    uint32_t *count = calloc(nn + 1, sizeof *count);
    if (count == NULL)
        return -1;
    for (size_t e = 0; e < m->nelems; e++)
        for (uint32_t i = m->elem_ptr[e]; i < m->elem_ptr[e + 1]; i++)
            count[m->elem_nodes[i] + 1]++;
    for (size_t n = 0; n < nn; n++)
        count[n + 1] += count[n];
    uint32_t *fill = malloc(nn * sizeof *fill), *parts = malloc((size_t)count[nn] * sizeof *parts);
    p->words = calloc((size_t)p->parts * p->parts, sizeof *p->words);
    int rc = fill != NULL && parts != NULL && p->words != NULL ? 0 : -1;
    if (rc == 0) {
        memcpy(fill, count, nn * sizeof *fill);
        for (size_t e = 0; e < m->nelems; e++)
            for (uint32_t i = m->elem_ptr[e]; i < m->elem_ptr[e + 1]; i++)
                parts[fill[m->elem_nodes[i]]++] = p->epart[e];
        for (size_t n = 0; n < nn; n++) {
            uint32_t *v = parts + count[n], k = count[n + 1] - count[n], u = 0;
            /* the distinct parts, in place (few: the elements around one node) */
            for (uint32_t i = 0; i < k; i++) {
                bool seen = false;
                for (uint32_t j = 0; j < u && !seen; j++)
                    seen = v[j] == v[i];
                if (!seen)
                    v[u++] = v[i];
            }
            for (uint32_t i = 0; i < u; i++)
                for (uint32_t j = 0; j < u; j++)
                    if (i != j)
                        p->words[(size_t)v[i] * p->parts + v[j]]++;
        }
    }
    free(count);
    free(fill);
    free(parts);
    return rc;
}

/* METIS's parts of m's elements into epart. */
static int metis_parts(const fem_mesh_t *m, unsigned parts, uint32_t *out, char *err, size_t cap)
{
    idx_t ne = (idx_t)m->nelems, nn = (idx_t)m->nnodes, ncommon = (idx_t)m->face_nodes, np = (idx_t)parts, objval;
    idx_t *eptr = malloc((m->nelems + 1) * sizeof *eptr), *eind = malloc(m->elem_ptr[m->nelems] * sizeof *eind);
    idx_t *epart = malloc(m->nelems * sizeof *epart), *npart = malloc(m->nnodes * sizeof *npart);
    int rc = eptr && eind && epart && npart ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "out of memory");
    if (rc == 0) {
        for (size_t e = 0; e <= m->nelems; e++)
            eptr[e] = (idx_t)m->elem_ptr[e];
        for (size_t i = 0; i < m->elem_ptr[m->nelems]; i++)
            eind[i] = (idx_t)m->elem_nodes[i];
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = 1;
        int st = METIS_PartMeshDual(&ne, &nn, eptr, eind, NULL, NULL, &ncommon, &np, NULL, options, &objval, epart,
                                    npart);
        if (st != METIS_OK) {
            snprintf(err, cap, "METIS could not partition the mesh (status %d)", st);
            rc = -1;
        }
    }
    for (size_t e = 0; rc == 0 && e < m->nelems; e++)
        out[e] = (uint32_t)epart[e];
    free(eptr);
    free(eind);
    free(epart);
    free(npart);
    return rc;
}

int fem_partition(const fem_mesh_t *m, unsigned parts, fem_partitioner_t how, fem_partition_t *p, char *err,
                  size_t cap)
{
    memset(p, 0, sizeof *p);
    if (parts < 2 || m->nelems < parts) {
        snprintf(err, cap, "cannot split %zu elements into %u parts", m->nelems, parts);
        return -1;
    }
    p->parts = parts;
    p->nelems = m->nelems;
    p->epart = malloc(m->nelems * sizeof *p->epart);
    int rc = p->epart != NULL ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "out of memory");
    else if (how == FEM_RCB && fem_rcb(m, parts, p->epart) != 0) {
        snprintf(err, cap, m->coords == NULL ? "RCB needs the nodes' coordinates, and the mesh has none" : "out of memory");
        rc = -1;
    } else if (how == FEM_METIS)
        rc = metis_parts(m, parts, p->epart, err, cap);
    if (rc == 0 && shared_words(m, p) != 0) {
        snprintf(err, cap, "out of memory");
        rc = -1;
    }
    if (rc != 0)
        fem_partition_free(p);
    return rc;
}

/* The cache file: a header line, then the part of every element, one a line. One of this mesh is at most that long
 * (a part number has at most 10 digits), so a larger file is refused from its size before it is read. */
static int read_cached(const fem_mesh_t *m, unsigned parts, const char *path, fem_partition_t *p)
{
    uint8_t *data;
    size_t len;
    char err[512];
    if (file_read_max(path, 64 + 11 * m->nelems, &data, &len, err, sizeof err) != 0 || data == NULL)
        return -1;
    const char *s = (const char *)data;
    size_t nelems = 0;
    unsigned np = 0;
    int header = 0;
    bool ours = sscanf(s, "iwarp fem partition 1 %zu %u%n", &nelems, &np, &header) == 2 && nelems == m->nelems;
    int rc = ours && np == parts ? 0 : -1;
    memset(p, 0, sizeof *p);
    p->parts = parts;
    p->nelems = nelems;
    p->epart = rc == 0 ? malloc(nelems * sizeof *p->epart) : NULL;
    s += header;
    for (size_t e = 0; rc == 0 && e < nelems; e++) {
        char *end;
        unsigned long part = strtoul(s, &end, 10);
        if (p->epart == NULL || end == s || part >= parts)
            rc = -1;
        else
            p->epart[e] = (unsigned)part;
        s = end;
    }
    free(data);
    if (rc == 0 && shared_words(m, p) != 0)
        rc = -1;
    if (rc != 0)
        fem_partition_free(p);
    return rc;
}

int fem_partition_cached(const fem_mesh_t *m, unsigned parts, fem_partitioner_t how, const char *path,
                         fem_partition_t *p, int *made, char *err, size_t cap)
{
    *made = 0;
    if (read_cached(m, parts, path, p) == 0)
        return 0;
    if (fem_partition(m, parts, how, p, err, cap) != 0)
        return -1;
    *made = 1;
    /* Written whole or not at all; a cache that cannot be written is no error: the partition stands. */
    file_out_t out;
    char why[512];
    if (file_out_open(&out, path, "w", why, sizeof why) != 0)
        return 0;
    fprintf(out.f, "iwarp fem partition 1 %zu %u\n", p->nelems, parts);
    for (size_t e = 0; e < p->nelems; e++)
        fprintf(out.f, "%u\n", p->epart[e]);
    file_out_commit(&out, why, sizeof why);
    return 0;
}

void fem_partition_free(fem_partition_t *p)
{
    free(p->epart);
    free(p->words);
    memset(p, 0, sizeof *p);
}

void fem_partition_stats(const fem_mesh_t *m, const fem_partition_t *p, fem_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->elements = m->nelems;
    s->nodes = m->nnodes;
    unsigned *elems = calloc(p->parts, sizeof *elems);
    if (elems == NULL)
        return;
    for (size_t e = 0; e < p->nelems; e++)
        elems[p->epart[e]]++;
    s->elems_min = s->comm_min = s->words_min = UINT32_MAX;
    for (unsigned a = 0; a < p->parts; a++) {
        unsigned comm = 0, degree = 0;
        for (unsigned b = 0; b < p->parts; b++) {
            uint32_t w = p->words[(size_t)a * p->parts + b];
            comm += p->words[(size_t)b * p->parts + a]; /* received */
            if (w == 0)
                continue;
            comm += w;
            degree++;
            s->connections++;
            s->words += w;
            s->words_min = w < s->words_min ? w : s->words_min;
            s->words_max = w > s->words_max ? w : s->words_max;
        }
        s->elems_min = elems[a] < s->elems_min ? elems[a] : s->elems_min;
        s->elems_max = elems[a] > s->elems_max ? elems[a] : s->elems_max;
        s->comm_min = comm < s->comm_min ? comm : s->comm_min;
        s->comm_max = comm > s->comm_max ? comm : s->comm_max;
        s->degree_max = degree > s->degree_max ? degree : s->degree_max;
    }
    if (s->connections == 0)
        s->words_min = 0;
    free(elems);
}
