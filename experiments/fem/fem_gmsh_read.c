/* A mesh out of gmsh's model (fem_gmsh_read.h). Every count and tag gmsh hands over is checked before it sizes an
 * allocation or indexes one: a .msh file names its own tags, any up to 2^64 - 1. */
#include "fem_gmsh_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nodes per element for gmsh's first-order element types, 0 for those that are not volume or area elements. */
static unsigned type_nodes(int type, unsigned *dim, unsigned *face)
{
    switch (type) {
    case 2: *dim = 2, *face = 2; return 3; /* triangle */
    case 3: *dim = 2, *face = 2; return 4; /* quadrangle */
    case 4: *dim = 3, *face = 3; return 4; /* tetrahedron */
    case 5: *dim = 3, *face = 4; return 8; /* hexahedron */
    case 6: *dim = 3, *face = 3; return 6; /* prism */
    case 7: *dim = 3, *face = 3; return 5; /* pyramid */
    default: return 0;
    }
}

/* Node tag -> node number, numbered in order of first use. A hash table (open addressing, at least twice as many
 * slots as node references) rather than an array indexed by tag: its size follows the mesh, not the largest tag,
 * which a file chooses (a tag of 1e9 cost 4 GB as an array; 2^64 - 1 wrapped the array's size to 0). */
typedef struct renum {
    size_t *tags;
    uint32_t *nums; /* UINT32_MAX: an empty slot */
    size_t mask;
    uint32_t next;
} renum_t;

static int renum_init(renum_t *r, size_t refs)
{
    size_t slots = 16;
    while (slots < 2 * refs)
        slots *= 2; /* refs < 2^32 (checked by the caller): no overflow on a 64-bit size_t */
    r->tags = malloc(slots * sizeof *r->tags);
    r->nums = malloc(slots * sizeof *r->nums);
    r->mask = slots - 1;
    r->next = 0;
    if (r->tags == NULL || r->nums == NULL)
        return -1;
    memset(r->nums, 0xff, slots * sizeof *r->nums);
    return 0;
}

static size_t renum_slot(const renum_t *r, size_t tag)
{
    size_t i = (size_t)(((uint64_t)tag * 0x9e3779b97f4a7c15ull) >> 20) & r->mask;
    while (r->nums[i] != UINT32_MAX && r->tags[i] != tag)
        i = (i + 1) & r->mask;
    return i;
}

/* The number of tag, given it the next one when it is new. */
static uint32_t renum_add(renum_t *r, size_t tag)
{
    size_t i = renum_slot(r, tag);
    if (r->nums[i] == UINT32_MAX) {
        r->tags[i] = tag;
        r->nums[i] = r->next++;
    }
    return r->nums[i];
}

static uint32_t renum_find(const renum_t *r, size_t tag)
{
    return r->nums[renum_slot(r, tag)];
}

static void renum_free(renum_t *r)
{
    free(r->tags);
    free(r->nums);
}

typedef struct elements {
    int *types;
    size_t ntypes, **etags, *etags_n, netags, **ntags, *ntags_n, nntags;
} elements_t;

static void elements_free(const fem_gmsh_t *gmsh, elements_t *e)
{
    for (size_t t = 0; t < e->netags && e->etags != NULL; t++)
        gmsh->Free(e->etags[t]);
    for (size_t t = 0; t < e->nntags && e->ntags != NULL; t++)
        gmsh->Free(e->ntags[t]);
    gmsh->Free(e->types);
    gmsh->Free(e->etags);
    gmsh->Free(e->etags_n);
    gmsh->Free(e->ntags);
    gmsh->Free(e->ntags_n);
}

/* The dimension, face size and total counts of the elements kept; -1 when they do not fit the mesh's 32-bit
 * indices or gmsh's lists disagree. */
static int count(const elements_t *e, unsigned *top, unsigned *face, size_t *nel, size_t *nidx, const char *path,
                 char *err, size_t cap)
{
    if (e->netags != e->ntypes || e->nntags != e->ntypes) {
        snprintf(err, cap, "%s: gmsh's element lists disagree", path);
        return -1;
    }
    *top = 0;
    for (size_t t = 0; t < e->ntypes; t++) {
        unsigned d = 0, f = 0;
        if (type_nodes(e->types[t], &d, &f) && d > *top)
            *top = d;
    }
    *face = 0, *nel = 0, *nidx = 0;
    for (size_t t = 0; t < e->ntypes; t++) {
        unsigned d = 0, f = 0, k = type_nodes(e->types[t], &d, &f);
        if (k == 0 || d != *top)
            continue;
        *face = *face == 0 || f < *face ? f : *face;
        size_t n = e->etags_n[t];
        if (n > UINT32_MAX / k || e->ntags_n[t] != n * k || *nel + n >= UINT32_MAX ||
            *nidx + e->ntags_n[t] >= UINT32_MAX) {
            snprintf(err, cap, "%s: %zu elements of type %d with %zu node references: more than a mesh here holds",
                     path, n, e->types[t], e->ntags_n[t]);
            return -1;
        }
        *nel += n;
        *nidx += e->ntags_n[t];
    }
    if (*nel == 0) {
        snprintf(err, cap,
                 "%s: no triangles, quadrangles, tetrahedra, hexahedra, prisms or pyramids "
                 "(first order) in the mesh",
                 path);
        return -1;
    }
    return 0;
}

/* The elements of the highest dimension the model has, renumbered onto the nodes they use. */
static int extract(const fem_gmsh_t *gmsh, fem_mesh_t *m, const char *path, char *err, size_t cap)
{
    int ierr = 0;
    elements_t e = {0};
    gmsh->ModelMeshGetElements(&e.types, &e.ntypes, &e.etags, &e.etags_n, &e.netags, &e.ntags, &e.ntags_n, &e.nntags,
                               -1, -1, &ierr);
    unsigned top = 0, face = 0;
    size_t nel = 0, nidx = 0;
    int rc = fem_gmsh_failed(gmsh, ierr, path, err, cap);
    if (rc == 0)
        rc = count(&e, &top, &face, &nel, &nidx, path, err, cap);
    renum_t r = {0};
    if (rc == 0) {
        m->elem_ptr = malloc((nel + 1) * sizeof *m->elem_ptr);
        m->elem_nodes = malloc(nidx * sizeof *m->elem_nodes);
        if (renum_init(&r, nidx) != 0 || m->elem_ptr == NULL || m->elem_nodes == NULL) {
            snprintf(err, cap, "%s: out of memory", path);
            rc = -1;
        }
    }
    if (rc == 0) {
        size_t at = 0, el = 0;
        for (size_t t = 0; t < e.ntypes; t++) {
            unsigned d = 0, f = 0, k = type_nodes(e.types[t], &d, &f);
            if (k == 0 || d != top)
                continue;
            for (size_t i = 0; i < e.etags_n[t]; i++) {
                m->elem_ptr[el++] = (uint32_t)at;
                for (unsigned j = 0; j < k; j++)
                    m->elem_nodes[at++] = renum_add(&r, e.ntags[t][i * k + j]);
            }
        }
        m->elem_ptr[el] = (uint32_t)at;
        m->nelems = nel;
        m->nnodes = r.next;
        m->dim = top;
        m->face_nodes = face;
    }
    elements_free(gmsh, &e);
    /* coordinates of the nodes kept */
    size_t *tags = NULL, ntag = 0, ncoord = 0, npar = 0;
    double *coord = NULL, *par = NULL;
    if (rc == 0) {
        gmsh->ModelMeshGetNodes(&tags, &ntag, &coord, &ncoord, &par, &npar, -1, -1, 0, 0, &ierr);
        rc = fem_gmsh_failed(gmsh, ierr, path, err, cap);
    }
    if (rc == 0 && (ntag > SIZE_MAX / 3 || ncoord != 3 * ntag)) {
        snprintf(err, cap, "%s: gmsh gave %zu coordinates for %zu nodes", path, ncoord, ntag);
        rc = -1;
    }
    if (rc == 0) {
        m->coords = calloc(3 * m->nnodes, sizeof *m->coords);
        if (m->coords == NULL) {
            snprintf(err, cap, "%s: out of memory", path);
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < ntag; i++) {
            uint32_t n = renum_find(&r, tags[i]);
            if (n != UINT32_MAX)
                memcpy(&m->coords[3 * (size_t)n], &coord[3 * i], 3 * sizeof *coord);
        }
    }
    gmsh->Free(tags);
    gmsh->Free(coord);
    gmsh->Free(par);
    renum_free(&r);
    return rc;
}

int fem_gmsh_read(const fem_gmsh_t *gmsh, const char *path, fem_mesh_t *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    int ierr = 0;
    fem_gmsh_start(gmsh);
    gmsh->Open(path, &ierr);
    int rc = fem_gmsh_failed(gmsh, ierr, path, err, cap);
    if (rc == 0) {
        /* a geometry without a mesh (.geo): mesh it */
        int *types = NULL;
        size_t ntypes = 0;
        gmsh->ModelMeshGetElementTypes(&types, &ntypes, -1, -1, &ierr);
        if (ierr == 0 && ntypes == 0) {
            int dim = gmsh->ModelGetDimension(&ierr);
            gmsh->ModelMeshGenerate(dim, &ierr);
            rc = fem_gmsh_failed(gmsh, ierr, path, err, cap);
        }
        gmsh->Free(types);
    }
    if (rc == 0)
        rc = extract(gmsh, m, path, err, cap);
    gmsh->Finalize(&ierr);
    if (rc != 0)
        fem_mesh_free(m);
    return rc;
}
