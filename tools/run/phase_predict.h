/* What the compiler planned for the phases a run description's `route` line compiles: their link-weighted
 * lengths (conset/route_links.h), beside the emulated phases of the account. */
#ifndef TOOLS_PHASE_PREDICT_H
#define TOOLS_PHASE_PREDICT_H

#include "phase_account.h"
#include "run_desc.h"

/* Compiles again the set of the description's `route` line that loads the account's tables (the compiler is
 * deterministic: the same plan as the run's) and gives the account each phase's link-weighted length. Tables
 * loaded with `celldata` have no plan: the account then has none (its AS lengths come from the tables).
 * Returns 0, or -1 when there was a set that did not compile again (out of memory). */
int phase_predict_attach(phase_account_t *pa, const run_desc_t *d);

#endif
