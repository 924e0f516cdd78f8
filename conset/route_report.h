/*
 * The compiler's report (docs/conset.md): phases, each with its connections and AS-predicted clocks;
 * channels used per cell (max, mean) against the capacity; link congestion (most connections on one
 * directed link of a phase). Text for people, JSON (one record per phase plus summary fields) for tools.
 */
#ifndef CONSET_ROUTE_REPORT_H
#define CONSET_ROUTE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "route.h"

typedef struct route_phase_stats {
    uint64_t channel_uses; /* channels taken over all cells */
    unsigned channels_max; /* on the busiest cell */
    double channels_mean;  /* per cell */
    unsigned link_max;     /* connections on the busiest directed link */
} route_phase_stats_t;

void route_phase_stats(const route_plan_t *plan, unsigned phase, route_phase_stats_t *st);
/* The sum of the phases' link-weighted lengths (route_phase_link_weighted_clocks, route_links.h). */
uint64_t route_link_weighted(const route_plan_t *plan);
/* The sum of the phases' predicted clocks (context switches not included). */
uint64_t route_predicted_clocks(const route_plan_t *plan);

/* name: the input's name in the heading. full: every connection of every phase. host_seconds: how long the
 * compiler took, left out when negative (so a report can be compared byte for byte). */
void route_report_text(const route_plan_t *plan, const char *name, bool full, double host_seconds, FILE *out);
void route_report_json(const route_plan_t *plan, const char *name, bool full, double host_seconds, FILE *out);

#endif
