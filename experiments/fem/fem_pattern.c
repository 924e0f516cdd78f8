/* A partitioned mesh's connection set and its phases (fem_pattern.h). */
#include "fem_pattern.h"

#include <stdio.h>

#include "conset/route.h"

int fem_pattern_cset(const fem_partition_t *p, unsigned width, unsigned height, cset_t *set, char *err, size_t cap)
{
    if (width * height != p->parts) {
        snprintf(err, cap, "%u parts on a %ux%u array: one part a cell", p->parts, width, height);
        return -1;
    }
    if (cset_init(set, width, height, CSET_DEFAULT_CAPACITY) != 0) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    unsigned task = cset_task(set, "fem");
    for (unsigned a = 0; a < p->parts; a++)
        for (unsigned b = 0; b < p->parts; b++) {
            uint32_t w = p->words[(size_t)a * p->parts + b];
            char id[32];
            snprintf(id, sizeof id, "p%u_%u", a, b);
            if (w > 0 && cset_add(set, id, a, b, w, task) == CSET_NONE) {
                snprintf(err, cap, "cannot add connection %s", id);
                cset_free(set);
                return -1;
            }
        }
    return 0;
}

int fem_pattern_phases(const cset_t *set, unsigned *phases, char *err, size_t cap)
{
    route_options_t o;
    route_options_init(&o);
    route_plan_t plan;
    if (route_compile(set, &o, &plan, err, cap) != 0)
        return -1;
    *phases = plan.nphases;
    route_plan_free(&plan);
    return 0;
}
