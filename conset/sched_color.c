/* Edge colouring of a phase of equal connections (sched_internal.h): each colour is one time slot. */
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

#define NONE 0xffffffffu

typedef struct coloring {
    const sched_input_t *in;
    unsigned colors;
    unsigned *at_send, *at_recv; /* [cell * colors + colour]: the connection of that colour there, or NONE */
    unsigned *color;             /* per connection */
    unsigned *path;              /* an alternating path being recoloured */
} coloring_t;

static unsigned free_color(const unsigned *row, unsigned colors)
{
    for (unsigned k = 0; k < colors; k++)
        if (row[k] == NONE)
            return k;
    return NONE; /* not reached: a cell has at most `colors` connections */
}

static void set_color(coloring_t *g, unsigned c, unsigned k)
{
    g->color[c] = k;
    g->at_send[(size_t)g->in->src[c] * g->colors + k] = c;
    g->at_recv[(size_t)g->in->dst[c] * g->colors + k] = c;
}

static void clear_color(coloring_t *g, unsigned c)
{
    unsigned k = g->color[c];
    g->at_send[(size_t)g->in->src[c] * g->colors + k] = NONE;
    g->at_recv[(size_t)g->in->dst[c] * g->colors + k] = NONE;
}

/* Colours connection c: a colour free at its sender, after swapping colours a and b along the alternating
 * path from its receiver if a is taken there. The path alternates a (into senders) and b (into receivers),
 * so it never reaches c's sender, which has no a: the swap frees a at the receiver and keeps every other
 * cell proper (Konig's edge colouring theorem, constructively). */
static void color_one(coloring_t *g, unsigned c)
{
    const sched_input_t *in = g->in;
    unsigned a = free_color(g->at_send + (size_t)in->src[c] * g->colors, g->colors);
    unsigned b = free_color(g->at_recv + (size_t)in->dst[c] * g->colors, g->colors);
    if (g->at_recv[(size_t)in->dst[c] * g->colors + a] != NONE) {
        unsigned n = 0, cell = in->dst[c];
        for (int on_recv = 1;; on_recv = !on_recv) {
            unsigned e = on_recv ? g->at_recv[(size_t)cell * g->colors + a] : g->at_send[(size_t)cell * g->colors + b];
            if (e == NONE)
                break;
            g->path[n++] = e;
            cell = on_recv ? in->src[e] : in->dst[e];
        }
        for (unsigned i = 0; i < n; i++)
            clear_color(g, g->path[i]);
        for (unsigned i = 0; i < n; i++)
            set_color(g, g->path[i], g->color[g->path[i]] == a ? b : a);
    }
    set_color(g, c, a);
}

int64_t sched_color(const sched_input_t *in, uint64_t *start)
{
    unsigned cells = in->cells, n = in->n;
    if (n == 0)
        return 0;
    unsigned *deg = calloc(2u * cells, sizeof *deg);
    if (deg == NULL)
        return -1;
    unsigned colors = 0;
    for (unsigned c = 0; c < n; c++) {
        if (++deg[in->src[c]] > colors)
            colors = deg[in->src[c]];
        if (++deg[cells + in->dst[c]] > colors)
            colors = deg[cells + in->dst[c]];
    }
    free(deg);
    coloring_t g = {.in = in, .colors = colors};
    g.at_send = malloc(sizeof *g.at_send * cells * colors);
    g.at_recv = malloc(sizeof *g.at_recv * cells * colors);
    g.color = malloc(sizeof *g.color * n);
    g.path = malloc(sizeof *g.path * n);
    int64_t rc = -1;
    if (g.at_send != NULL && g.at_recv != NULL && g.color != NULL && g.path != NULL) {
        memset(g.at_send, 0xff, sizeof *g.at_send * cells * colors);
        memset(g.at_recv, 0xff, sizeof *g.at_recv * cells * colors);
        for (unsigned c = 0; c < n; c++)
            color_one(&g, c);
        for (unsigned c = 0; c < n; c++)
            start[c] = g.color[c] * in->dur[0];
        rc = (int64_t)(colors * in->dur[0]);
    }
    free(g.at_send);
    free(g.at_recv);
    free(g.color);
    free(g.path);
    return rc;
}
