/* The model code reproduces the seed's predicted columns of Tables 1-3 within 1% (every cell). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conset_model_gives_the_seeds_predicted_columns),
        cmocka_unit_test(test_msgpass_model_gives_the_seeds_predicted_columns),
        cmocka_unit_test(test_only_table_1_measured_values_are_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
