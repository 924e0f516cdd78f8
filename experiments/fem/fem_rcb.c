/* Recursive coordinate bisection (fem_rcb.h). */
#include "fem_rcb.h"

#include <stdlib.h>

typedef struct rcb_item {
    double key; /* the centroid's coordinate on the axis being cut */
    uint32_t elem;
} rcb_item_t;

/* By coordinate, then by element number: a total order, so equal coordinates (a brick mesh has many) split
 * the same way on every machine and qsort. */
static int by_key(const void *a, const void *b)
{
    const rcb_item_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->elem < y->elem ? -1 : x->elem > y->elem ? 1 : 0;
}

/* Cuts items[0 .. n) (elements with their centroids in cen, 3 a element) into `parts` parts numbered from
 * `first`. */
static void bisect(rcb_item_t *items, size_t n, const double *cen, unsigned parts, uint32_t first, uint32_t *epart)
{
    if (parts == 1) {
        for (size_t i = 0; i < n; i++)
            epart[items[i].elem] = first;
        return;
    }
    /* The axis along which these centroids spread furthest (the first of equals). */
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = cen[(size_t)items[0].elem * 3 + k];
    for (size_t i = 1; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double c = cen[(size_t)items[i].elem * 3 + k];
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis])
            axis = k;
    for (size_t i = 0; i < n; i++)
        items[i].key = cen[(size_t)items[i].elem * 3 + axis];
    qsort(items, n, sizeof *items, by_key);
    /* The halves' elements in proportion to their parts (the lower half takes the smaller share when the
     * parts are odd), so every part ends with its share of the elements. */
    unsigned left_parts = parts / 2;
    size_t left = (size_t)((uint64_t)n * left_parts / parts);
    bisect(items, left, cen, left_parts, first, epart);
    bisect(items + left, n - left, cen, parts - left_parts, first + left_parts, epart);
}

int fem_rcb(const fem_mesh_t *m, unsigned parts, uint32_t *epart)
{
    size_t ne = m->nelems;
    double *cen = calloc(ne * 3, sizeof *cen);
    rcb_item_t *items = malloc(ne * sizeof *items);
    /* RCB cuts by position: a mesh without its nodes' coordinates cannot be cut so. */
    int rc = cen != NULL && items != NULL && ne > 0 && m->coords != NULL ? 0 : -1;
    if (rc == 0) {
        /* An element's centroid: the mean of its nodes (z is 0 throughout a 2D mesh, so never cut). */
        for (size_t e = 0; e < ne; e++) {
            uint32_t a = m->elem_ptr[e], b = m->elem_ptr[e + 1];
            for (uint32_t i = a; i < b; i++)
                for (int k = 0; k < 3; k++)
                    cen[e * 3 + k] += m->coords[(size_t)m->elem_nodes[i] * 3 + k];
            for (int k = 0; k < 3; k++)
                cen[e * 3 + k] /= (double)(b - a);
            items[e].elem = (uint32_t)e;
        }
        bisect(items, ne, cen, parts, 0, epart);
    }
    free(cen);
    free(items);
    return rc;
}
