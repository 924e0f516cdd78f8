/* What the compiler planned for the phases a run description's `route` line compiles: their link-weighted
 * lengths (conset/route_links.h), beside the emulated phases of the account. */
#ifndef RUNNER_PHASE_PREDICT_H
#define RUNNER_PHASE_PREDICT_H

#include "phase_account.h"
#include "run_desc.h"

/* Gives the account each phase's link-weighted length, as the build of the description (run_desc_build) kept them
 * from compiling the set of the `route` line that loads the account's tables. Tables loaded with `celldata` have no
 * plan: the account then has none (its AS lengths come from the tables). Returns 0, or -1 when out of memory. */
int phase_predict_attach(phase_account_t *pa, const run_desc_t *d);

#endif
