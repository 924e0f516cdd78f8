#include "model.h"

static const model_pattern_info_t patterns[MODEL_PATTERNS] = {
    [MODEL_TORUS] = {"torus", 1, 4, 4},          /* seed 004, 5.1.1 */
    [MODEL_BUTTERFLY] = {"butterfly", 2, 6, 6},  /* 5.1.2: two phases with 12 channels */
    [MODEL_ALLTOALL] = {"all-to-all", 30, 63, 64}, /* 5.1.3: 30 phases; the message version's table counts 64 */
};

const uint32_t model_sizes[MODEL_SIZES] = {32, 256, 2048, 16384};

/* Seed 004, Tables 1-3 (predicted columns, and Table 1's measured ones). */
static const double seed_predicted_conset[MODEL_PATTERNS][MODEL_SIZES] = {
    {776, 2568, 16909, 131592},
    {1424, 4112, 25616, 197216},
    {19631, 47856, 273648, 2075448},
};
static const double seed_predicted_msgpass[MODEL_PATTERNS][MODEL_SIZES] = {
    {3456, 5248, 19584, 134272},
    {5184, 7872, 29376, 201408},
    {55296, 83968, 313344, 2148352},
};
static const double seed_measured_conset[MODEL_PATTERNS][MODEL_SIZES] = {{1168, 2984, 17408, 132768}};
static const double seed_measured_msgpass[MODEL_PATTERNS][MODEL_SIZES] = {{3760, 5720, 20012, 135224}};

const model_pattern_info_t *model_pattern(model_pattern_t p) { return p < MODEL_PATTERNS ? &patterns[p] : 0; }

double model_conset(unsigned phases, uint64_t words_sent_per_cell)
{
    return (double)phases * MODEL_PER_PHASE + (double)MODEL_B * (double)words_sent_per_cell;
}

double model_msgpass(unsigned messages, uint64_t words_per_message, double c, double a)
{
    return (double)messages * (2.0 * c + a * (double)words_per_message);
}

double model_seed_predicted_conset(model_pattern_t p, unsigned i)
{
    return p < MODEL_PATTERNS && i < MODEL_SIZES ? seed_predicted_conset[p][i] : 0;
}
double model_seed_predicted_msgpass(model_pattern_t p, unsigned i)
{
    return p < MODEL_PATTERNS && i < MODEL_SIZES ? seed_predicted_msgpass[p][i] : 0;
}
double model_seed_measured_conset(model_pattern_t p, unsigned i)
{
    return p < MODEL_PATTERNS && i < MODEL_SIZES ? seed_measured_conset[p][i] : 0;
}
double model_seed_measured_msgpass(model_pattern_t p, unsigned i)
{
    return p < MODEL_PATTERNS && i < MODEL_SIZES ? seed_measured_msgpass[p][i] : 0;
}
