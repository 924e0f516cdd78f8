/* The model code reproduces the seed's predicted columns of Tables 1-3 within 1% (every cell). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model.h"
#include "model_caching.h"

static void check(double model, double seed, const char *what, unsigned p, unsigned i)
{
    double dev = fabs(model - seed) / seed;
    if (dev > 0.01)
        fail_msg("%s %s, %u words: model %.0f, seed %.0f (%.2f%%)", what, model_pattern((model_pattern_t)p)->name,
                 model_sizes[i], model, seed, 100 * dev);
}

static void test_conset_model_gives_the_seeds_predicted_columns(void **state)
{
    (void)state;
    for (unsigned p = 0; p < MODEL_PATTERNS; p++) {
        const model_pattern_info_t *info = model_pattern((model_pattern_t)p);
        for (unsigned i = 0; i < MODEL_SIZES; i++)
            check(model_conset(info->conset_phases, (uint64_t)info->connections * model_sizes[i]),
                  model_seed_predicted_conset((model_pattern_t)p, i), "ConSet", p, i);
    }
}

static void test_msgpass_model_gives_the_seeds_predicted_columns(void **state)
{
    (void)state;
    for (unsigned p = 0; p < MODEL_PATTERNS; p++) {
        const model_pattern_info_t *info = model_pattern((model_pattern_t)p);
        for (unsigned i = 0; i < MODEL_SIZES; i++)
            check(model_msgpass(info->messages, model_sizes[i], MODEL_C, MODEL_A),
                  model_seed_predicted_msgpass((model_pattern_t)p, i), "message passing", p, i);
    }
}

static void test_only_table_1_measured_values_are_known(void **state)
{
    (void)state;
    for (unsigned i = 0; i < MODEL_SIZES; i++) {
        assert_true(model_seed_measured_conset(MODEL_TORUS, i) > 0);
        assert_true(model_seed_measured_msgpass(MODEL_TORUS, i) > 0);
        assert_true(model_seed_measured_conset(MODEL_BUTTERFLY, i) == 0);
        assert_true(model_seed_measured_msgpass(MODEL_ALLTOALL, i) == 0);
    }
}

/* Address relation caching (Dinda and O'Hallaron): the break-even columns of the paper's Figures 3(a) and 4(a),
 * Pred-Stat, come out exactly (INF where n_g is the threshold, NONE below it); the speedup columns (3(b), 4(b))
 * within the 0.01 they are printed to. */
static void test_caching_model_gives_the_papers_pred_stat_columns(void **state)
{
    (void)state;
    static const int iwarp_be[] = {0, 12, 7, 5, 4, 4, 3, 3}; /* n_g 1..8; 0: INF */
    static const double iwarp_sp[] = {1.00, 1.09, 1.16, 1.25, 1.33, 1.41, 1.49, 1.59};
    static const int paragon_be[] = {-1, -1, -1, 41, 20, 14, 11, 9, 7, 7, 6, 5}; /* n_g 14..25; -1: NONE */
    static const double paragon_sp[] = {0, 0, 0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09};
    const struct {
        const caching_machine_t *m;
        const caching_loops_t *l;
        unsigned first, n;
        const int *be;
        const double *sp;
    } machines[] = {{&caching_iwarp, &caching_iwarp_static, 1, 8, iwarp_be, iwarp_sp},
                    {&caching_paragon, &caching_paragon_static, 14, 12, paragon_be, paragon_sp}};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < machines[k].n; i++) {
            unsigned ng = machines[k].first + i;
            uint64_t n_i;
            caching_break_even_t be = caching_break_even(machines[k].m, machines[k].l, ng, &n_i);
            int want = machines[k].be[i];
            if (want == 0)
                assert_int_equal(be, CACHING_AT_INFINITY);
            else if (want < 0)
                assert_int_equal(be, CACHING_NEVER);
            else if (be != CACHING_BREAKS_EVEN || n_i != (uint64_t)want)
                fail_msg("%s n_g %u: break-even %llu, the paper %d", machines[k].m->name, ng, (unsigned long long)n_i,
                         want);
            if (want >= 0 && fabs(caching_speedup(machines[k].m, machines[k].l, ng) - machines[k].sp[i]) > 0.0101)
                fail_msg("%s n_g %u: speedup %.4f, the paper %.2f", machines[k].m->name, ng,
                         caching_speedup(machines[k].m, machines[k].l, ng), machines[k].sp[i]);
        }
    /* The thresholds the paper states in words: iWarp's at n_g = 1, the Paragon's between 16 and 17. */
    assert_true(fabs(caching_threshold(&caching_iwarp, &caching_iwarp_static) - 1.0) < 1e-9);
    double p = caching_threshold(&caching_paragon, &caching_paragon_static);
    assert_true(p > 16 && p < 17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conset_model_gives_the_seeds_predicted_columns),
        cmocka_unit_test(test_msgpass_model_gives_the_seeds_predicted_columns),
        cmocka_unit_test(test_only_table_1_measured_values_are_known),
        cmocka_unit_test(test_caching_model_gives_the_papers_pred_stat_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
