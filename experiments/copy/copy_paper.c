/* The copy-transfer paper's estimates (copy_paper.h). */
#include "copy_paper.h"

#include <string.h>

/* Section 3.4 prints 25.0 MB/s for the transpose with Table 4's Nd = 69 MB/s. Section 5.1's estimates follow
 * Nd = 70 MB/s instead (its chained 1Q'1 = min(1S0, Nd, 0D1) is printed as 70 MB/s, and 27.9, 25.2 and 14.2
 * come out with 70 and not with 69), so those are evaluated with 70. */
const copy_paper_estimate_t copy_paper_estimates[] = {
    {"t3d", "1Q1024", "3.4", "1C1 -> (1S0 || Nd || 0D1) -> 1C1024", 0, 25.0, NULL},
    {"t3d", "1Q1", "5.1.1", "1C1 -> (1S0 || Nd || 0D1) -> 1C1", 70, 27.9, NULL},
    {"t3d", "1Q64", "5.1.1", "1C1 -> (1S0 || Nd || 0D1) -> 1C64", 70, 25.2, NULL},
    {"t3d", "64Q1", "5.1.1", "64C1 -> (1S0 || Nd || 0D1) -> 1C1", 70, 17.1,
     "17.1 needs 64C1 = 29.8 MB/s; Table 1 prints 33.3"},
    {"t3d", "!Q!", "5.1.1", "!C1 -> (1S0 || Nd || 0D1) -> 1C!", 70, 14.2, NULL},
    {"paragon", "1Q64", "5.1.3", "1C1 -> (1F0 || Nd || 0D1) -> 1C64", 0, 16.1, NULL},
    {"paragon", "!Q!", "5.1.3", "!C1 -> (1F0 || Nd || 0D1) -> 1C!", 0, 16.2, NULL},
};
const size_t copy_paper_estimate_count = sizeof copy_paper_estimates / sizeof copy_paper_estimates[0];

int copy_table_builtin(const char *name, copy_table_t *t)
{
    if (strcmp(name, "t3d") == 0)
        copy_table_t3d(t);
    else if (strcmp(name, "paragon") == 0)
        copy_table_paragon(t);
    else
        return -1;
    return 0;
}

int copy_paper_eval(const copy_paper_estimate_t *e, copy_result_t *out, char *err, size_t cap)
{
    copy_table_t t;
    if (copy_table_builtin(e->machine, &t) != 0) {
        snprintf(err, cap, "no built-in table '%s'", e->machine);
        return -1;
    }
    if (e->nd > 0) {
        copy_transfer_t nd = {.kind = COPY_NET_DATA, .congestion = t.congestion};
        copy_table_set(&t, &nd, e->nd);
    }
    return copy_eval(e->expr, &t, out, err, cap);
}
