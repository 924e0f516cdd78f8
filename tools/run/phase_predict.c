#include "phase_predict.h"

#include <stdlib.h>

#include "conset/cset.h"
#include "conset/route.h"
#include "conset/route_links.h"

int phase_predict_attach(phase_account_t *pa, const run_desc_t *d)
{
    for (size_t i = 0; i < d->ncelldata; i++) {
        if (!d->celldata_routed[i] || d->celldata_addr[i] != phase_account_tables(pa))
            continue;
        cset_t set;
        cset_diags_t diags;
        size_t nerr = cset_parse_file(&set, d->celldata[i], &diags);
        cset_diags_free(&diags);
        route_options_t o;
        route_options_init(&o);
        route_plan_t plan;
        char err[256];
        int rc = nerr == 0 ? route_compile(&set, &o, &plan, err, sizeof err) : -1;
        uint64_t *clocks = rc == 0 ? malloc(plan.nphases * sizeof *clocks + 1) : NULL;
        if (clocks != NULL) {
            for (unsigned p = 0; p < plan.nphases; p++)
                clocks[p] = route_phase_link_weighted_clocks(&plan, p);
            phase_account_set_link_weighted(pa, clocks, plan.nphases);
            free(clocks);
        }
        if (rc == 0)
            route_plan_free(&plan);
        cset_free(&set);
        return clocks != NULL ? 0 : -1;
    }
    return 0;
}
