#include "phase_predict.h"

int phase_predict_attach(phase_account_t *pa, const run_desc_t *d)
{
    for (size_t i = 0; i < d->ncelldata; i++) {
        if (d->celldata_routed[i] && d->celldata_addr[i] == phase_account_tables(pa) &&
            d->celldata_phase_clocks[i] != NULL)
            return phase_account_set_link_weighted(pa, d->celldata_phase_clocks[i], d->celldata_nphases[i]);
    }
    return 0;
}
