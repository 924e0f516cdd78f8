/*
 * What a phase's schedule costs once the physical links are counted. The AS scheduler of the ConSet paper
 * (section 4.4.2) looks only at the two ends of a connection, so connections of one phase may cross the same
 * directed link at the same time. A link moves a word per link_clocks (2, docs/machine.md), the rate at which
 * one connection streams, and serves the channels waiting on it round robin: k connections on it at once each
 * move at 1/k of their rate.
 */
#ifndef CONSET_ROUTE_LINKS_H
#define CONSET_ROUTE_LINKS_H

#include <stdint.h>

#include "route.h"

/* The phase's link-weighted length: its AS schedule cut at every start and end of a connection, each stretch
 * of time counted as many times as the most connections active in it share one directed link (at least once,
 * an idle stretch too). The slot length times the link sharing, added up over the slots: equal to the
 * phase's predicted clocks when no two connections overlap on a link (always so for a plan scheduled with the
 * links, route --links), at most predicted clocks times its link_max (route_report.h). Returns 0 when out of
 * memory or for an empty phase. */
uint64_t route_phase_link_weighted_clocks(const route_plan_t *plan, unsigned phase);

#endif
