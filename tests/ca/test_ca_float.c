/*
 * Floating point on the core (docs/isa.md, "Floating point"): IEEE results with round to nearest even,
 * canonical NaNs (0x7fc00000, 0x7ff8000000000000), NaN compares giving 0, division by zero giving inf,
 * signed zeros, fneg/fabs as pure sign-bit operations, float immediates, doubles in even/odd pairs with
 * the low word in the even register, and the conversions (truncating, saturating, NaN -> 0).
 */
#include "harness.h"

/* Single-precision bit patterns. */
#define S_ONE 0x3f800000u
#define S_MONE 0xbf800000u
#define S_TWO 0x40000000u
#define S_ZERO 0x00000000u
#define S_MZERO 0x80000000u
#define S_INF 0x7f800000u
#define S_MINF 0xff800000u
#define S_QNAN 0x7fc00000u /* canonical */
#define S_PNAN 0x7fc12345u /* quiet, with a payload */
#define S_SNAN 0x7f800001u /* signalling */
#define S_NNAN 0xffc00000u /* the x86 default NaN: negative */
#define S_MAX 0x7f7fffffu
#define S_EPS24 0x33800000u /* 2^-24: half an ulp of 1.0 */
/* Double-precision bit patterns. */
#define D_ONE 0x3ff0000000000000ull
#define D_MONE 0xbff0000000000000ull
#define D_ZERO 0x0000000000000000ull
#define D_MZERO 0x8000000000000000ull
#define D_INF 0x7ff0000000000000ull
#define D_MINF 0xfff0000000000000ull
#define D_QNAN 0x7ff8000000000000ull
#define D_PNAN 0x7ff8000012345678ull
#define D_SNAN 0x7ff0000000000001ull
#define D_NNAN 0xfff8000000000000ull
#define D_EPS53 0x3ca0000000000000ull /* 2^-53: half an ulp of 1.0 */

#define INT_MIN_U 0x80000000u
#define INT_MAX_U 0x7fffffffu

static void test_fadd_s_rounds_to_nearest_even(void **state)
{
    static const h_case_t fadd[] = {
        {0x3fc00000u, 0x40100000u, 0x40700000u}, /* 1.5 + 2.25 = 3.75 */
        {S_ONE, S_EPS24, S_ONE},                 /* a tie rounds to the even 1.0 */
        {0x3f800001u, S_EPS24, 0x3f800002u},     /* a tie rounds up to the even neighbour */
        {S_MAX, S_MAX, S_INF},                   /* overflow */
        {S_INF, S_ONE, S_INF},
    };
    H_CHECK_CASES(*state, ISA_OP_FADD_S, fadd);
}

static void test_single_nan_results_are_canonical(void **state)
{
    static const h_case_t fadd[] = {
        {S_PNAN, S_ONE, S_QNAN},
        {S_ONE, S_SNAN, S_QNAN},
        {S_NNAN, S_ONE, S_QNAN},
        {S_INF, S_MINF, S_QNAN},
    };
    static const h_case_t fsub[] = {{S_INF, S_INF, S_QNAN}, {S_PNAN, S_PNAN, S_QNAN}};
    static const h_case_t fmul[] = {{S_ZERO, S_INF, S_QNAN}, {S_SNAN, S_TWO, S_QNAN}, {S_NNAN, S_ZERO, S_QNAN}};
    static const h_case_t fdiv[] = {{S_ZERO, S_ZERO, S_QNAN}, {S_INF, S_MINF, S_QNAN}, {S_PNAN, S_ONE, S_QNAN}};
    H_CHECK_CASES(*state, ISA_OP_FADD_S, fadd);
    H_CHECK_CASES(*state, ISA_OP_FSUB_S, fsub);
    H_CHECK_CASES(*state, ISA_OP_FMUL_S, fmul);
    H_CHECK_CASES(*state, ISA_OP_FDIV_S, fdiv);
}

static void test_single_signed_zeros(void **state)
{
    static const h_case_t fadd[] = {{S_MZERO, S_MZERO, S_MZERO}, {S_MZERO, S_ZERO, S_ZERO}, {S_ONE, S_MONE, S_ZERO}};
    static const h_case_t fsub[] = {{S_ZERO, S_ZERO, S_ZERO}, {S_MZERO, S_ZERO, S_MZERO}, {S_ONE, S_ONE, S_ZERO}};
    static const h_case_t fmul[] = {{S_MONE, S_ZERO, S_MZERO}, {S_MZERO, S_MZERO, S_ZERO}};
    H_CHECK_CASES(*state, ISA_OP_FADD_S, fadd);
    H_CHECK_CASES(*state, ISA_OP_FSUB_S, fsub);
    H_CHECK_CASES(*state, ISA_OP_FMUL_S, fmul);
}

static void test_fmul_s_and_fdiv_s_values(void **state)
{
    static const h_case_t fmul[] = {
        {S_TWO, 0x40600000u, 0x40e00000u},       /* 2 * 3.5 = 7 */
        {0x00800000u, 0x3f000000u, 0x00400000u}, /* 2^-126 * 0.5: a subnormal, not flushed */
        {S_MAX, S_TWO, S_INF},
    };
    static const h_case_t fdiv[] = {
        {0x40e00000u, S_TWO, 0x40600000u}, /* 7 / 2 = 3.5 */
        {S_ONE, 0x40400000u, 0x3eaaaaabu}, /* 1 / 3 rounded to nearest */
    };
    H_CHECK_CASES(*state, ISA_OP_FMUL_S, fmul);
    H_CHECK_CASES(*state, ISA_OP_FDIV_S, fdiv);
}

static void test_single_division_by_zero_gives_infinity(void **state)
{
    static const h_case_t fdiv[] = {
        {S_ONE, S_ZERO, S_INF},
        {S_MONE, S_ZERO, S_MINF},
        {S_ONE, S_MZERO, S_MINF},
        {S_MONE, S_MZERO, S_INF},
    };
    H_CHECK_CASES(*state, ISA_OP_FDIV_S, fdiv);
}

static void test_single_compares_with_nan_give_zero(void **state)
{
    static const h_case_t feq[] = {
        {S_ONE, S_ONE, 1},   {S_ONE, S_TWO, 0},  {S_MZERO, S_ZERO, 1},
        {S_QNAN, S_QNAN, 0}, {S_PNAN, S_ONE, 0}, {S_ONE, S_SNAN, 0},
    };
    static const h_case_t flt[] = {
        {S_ONE, S_TWO, 1},  {S_TWO, S_ONE, 0},  {S_ONE, S_ONE, 0},  {S_MZERO, S_ZERO, 0},
        {S_MINF, S_INF, 1}, {S_QNAN, S_ONE, 0}, {S_ONE, S_QNAN, 0}, {S_MONE, S_ONE, 1},
    };
    static const h_case_t fle[] = {
        {S_ONE, S_ONE, 1},   {S_TWO, S_ONE, 0},  {S_MZERO, S_ZERO, 1},
        {S_QNAN, S_QNAN, 0}, {S_ONE, S_PNAN, 0}, {S_MINF, S_MINF, 1},
    };
    H_CHECK_CASES(*state, ISA_OP_FEQ_S, feq);
    H_CHECK_CASES(*state, ISA_OP_FLT_S, flt);
    H_CHECK_CASES(*state, ISA_OP_FLE_S, fle);
}

static void test_fneg_s_and_fabs_s_touch_only_the_sign_bit(void **state)
{
    static const h_case_t fneg[] = {
        {S_ONE, 0, S_MONE},       {S_ZERO, 0, S_MZERO},     {S_MZERO, 0, S_ZERO},
        {S_PNAN, 0, 0xffc12345u}, {S_SNAN, 0, 0xff800001u}, {S_INF, 0, S_MINF},
    };
    static const h_case_t fabs_[] = {
        {S_MONE, 0, S_ONE}, {S_MZERO, 0, S_ZERO}, {0xffc12345u, 0, S_PNAN}, {0xff800001u, 0, S_SNAN}, {S_ONE, 0, S_ONE},
    };
    H_CHECK_CASES(*state, ISA_OP_FNEG_S, fneg);
    H_CHECK_CASES(*state, ISA_OP_FABS_S, fabs_);
}

static void test_float_immediate_is_the_literal_bits(void **state)
{
    harness_t *h = *state;
    PB(h->p, pb_li(5, pb_f32(3.0f)));
    PB(h->p, pb_rf(ISA_OP_FMUL_S, 6, 5, 0.5f));
    PB(h->p, pb_rf(ISA_OP_FADD_S, 7, 5, -1.25f));
    PB(h->p, pb_rf(ISA_OP_FDIV_S, 8, 5, 0.0f));
    PB(h->p, pb_rf(ISA_OP_FLT_S, 9, 5, 3.5f));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {6, pb_f32(1.5f)}, {7, pb_f32(1.75f)}, {8, S_INF}, {9, 1});
}

static void test_double_arithmetic_rounds_to_nearest_even(void **state)
{
    static const h_case_t fadd[] = {
        {0x3ff8000000000000ull, 0x4002000000000000ull, 0x400e000000000000ull}, /* 1.5 + 2.25 = 3.75 */
        {D_ONE, D_EPS53, D_ONE},
        {0x3ff0000000000001ull, D_EPS53, 0x3ff0000000000002ull},
        {0x7fefffffffffffffull, 0x7fefffffffffffffull, D_INF},
    };
    static const h_case_t fsub[] = {{D_ZERO, D_ZERO, D_ZERO}, {D_MZERO, D_ZERO, D_MZERO}, {D_ONE, D_ONE, D_ZERO}};
    static const h_case_t fmul[] = {{0x4000000000000000ull, 0x400c000000000000ull, 0x401c000000000000ull},
                                    {D_MONE, D_ZERO, D_MZERO}};
    static const h_case_t fdiv[] = {{D_ONE, 0x4008000000000000ull, 0x3fd5555555555555ull}};
    H_CHECK_CASES(*state, ISA_OP_FADD_D, fadd);
    H_CHECK_CASES(*state, ISA_OP_FSUB_D, fsub);
    H_CHECK_CASES(*state, ISA_OP_FMUL_D, fmul);
    H_CHECK_CASES(*state, ISA_OP_FDIV_D, fdiv);
}

static void test_double_nan_results_are_canonical(void **state)
{
    static const h_case_t fadd[] = {
        {D_PNAN, D_ONE, D_QNAN}, {D_ONE, D_SNAN, D_QNAN}, {D_INF, D_MINF, D_QNAN}, {D_NNAN, D_ONE, D_QNAN}};
    static const h_case_t fsub[] = {{D_INF, D_INF, D_QNAN}};
    static const h_case_t fmul[] = {{D_ZERO, D_INF, D_QNAN}, {D_SNAN, D_ONE, D_QNAN}};
    static const h_case_t fdiv[] = {{D_ZERO, D_ZERO, D_QNAN}, {D_INF, D_INF, D_QNAN}};
    H_CHECK_CASES(*state, ISA_OP_FADD_D, fadd);
    H_CHECK_CASES(*state, ISA_OP_FSUB_D, fsub);
    H_CHECK_CASES(*state, ISA_OP_FMUL_D, fmul);
    H_CHECK_CASES(*state, ISA_OP_FDIV_D, fdiv);
}

static void test_double_division_by_zero_gives_infinity(void **state)
{
    static const h_case_t fdiv[] = {{D_ONE, D_ZERO, D_INF}, {D_MONE, D_ZERO, D_MINF}, {D_ONE, D_MZERO, D_MINF}};
    H_CHECK_CASES(*state, ISA_OP_FDIV_D, fdiv);
}

static void test_double_compares_with_nan_give_zero(void **state)
{
    static const h_case_t feq[] = {{D_ONE, D_ONE, 1},
                                   {D_MZERO, D_ZERO, 1},
                                   {D_QNAN, D_QNAN, 0},
                                   {D_ONE, D_PNAN, 0},
                                   {D_ONE, D_ONE | 1, 0}}; /* the low words count */
    static const h_case_t flt[] = {
        {D_MONE, D_ONE, 1}, {D_ONE, D_ONE, 0}, {D_QNAN, D_ONE, 0}, {D_MZERO, D_ZERO, 0}, {D_ONE, D_ONE | 1, 1}};
    static const h_case_t fle[] = {{D_ONE, D_ONE, 1}, {D_ONE, D_MONE, 0}, {D_SNAN, D_SNAN, 0}, {D_MZERO, D_ZERO, 1}};
    H_CHECK_CASES(*state, ISA_OP_FEQ_D, feq);
    H_CHECK_CASES(*state, ISA_OP_FLT_D, flt);
    H_CHECK_CASES(*state, ISA_OP_FLE_D, fle);
}

static void test_fneg_d_fabs_d_and_fmov_d_copy_bits(void **state)
{
    static const h_case_t fneg[] = {{D_ONE, 0, D_MONE},
                                    {D_ZERO, 0, D_MZERO},
                                    {D_SNAN, 0, 0xfff0000000000001ull},
                                    {0x0123456789abcdefull, 0, 0x8123456789abcdefull}};
    static const h_case_t fabs_[] = {{D_MONE, 0, D_ONE}, {D_MZERO, 0, D_ZERO}, {0xfff8000012345678ull, 0, D_PNAN}};
    static const h_case_t fmov[] = {
        {D_SNAN, 0, D_SNAN}, {D_PNAN, 0, D_PNAN}, {0x0123456789abcdefull, 0, 0x0123456789abcdefull}};
    H_CHECK_CASES(*state, ISA_OP_FNEG_D, fneg);
    H_CHECK_CASES(*state, ISA_OP_FABS_D, fabs_);
    H_CHECK_CASES(*state, ISA_OP_FMOV_D, fmov);
}

static void test_double_low_word_lives_in_even_register(void **state)
{
    harness_t *h = *state;
    /* 1 + 2^-52 has a low word of 1: read as a swapped pair it would be a tiny subnormal instead. */
    PB(h->p, pb_li(20, 1), pb_li(21, 0x3ff00000u));
    PB(h->p, pb_rr(ISA_OP_FADD_D, 30, 20, 20)); /* 2 + 2^-51 = 0x4000000000000001 */
    PB(h->p, pb_r(ISA_OP_CVT_D_W, 32, 0));      /* 0.0: both words written */
    PB(h->p, pb_r(ISA_OP_FMOV_D, 34, 20));
    h_run_to_halt(h);
    H_EXPECT_REGS(h, {30, 1}, {31, 0x40000000u}, {32, 0}, {33, 0}, {34, 1}, {35, 0x3ff00000u});
}

static void test_cvt_s_w_rounds_to_nearest_even(void **state)
{
    static const h_case_t cvt[] = {
        {1, 0, S_ONE},
        {0xffffffffu, 0, S_MONE},
        {0, 0, S_ZERO},
        {INT_MIN_U, 0, 0xcf000000u},
        {INT_MAX_U, 0, 0x4f000000u},
        {16777217, 0, 0x4b800000u},
        {16777219, 0, 0x4b800002u},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_S_W, cvt);
}

static void test_cvt_w_s_truncates_saturates_and_maps_nan_to_zero(void **state)
{
    const h_case_t cvt[] = {
        {pb_f32(2.9f), 0, 2},
        {pb_f32(-2.9f), 0, (uint32_t)-2},
        {pb_f32(0.5f), 0, 0},
        {pb_f32(-0.5f), 0, 0},
        {S_MZERO, 0, 0},
        {S_QNAN, 0, 0},
        {S_NNAN, 0, 0},
        {S_SNAN, 0, 0},
        {S_INF, 0, INT_MAX_U},
        {S_MINF, 0, INT_MIN_U},
        {pb_f32(3e9f), 0, INT_MAX_U},
        {pb_f32(-3e9f), 0, INT_MIN_U},
        {pb_f32(2147483520.0f), 0, 2147483520u}, /* the largest float below 2^31 */
        {pb_f32(2147483648.0f), 0, INT_MAX_U},
        {pb_f32(-2147483648.0f), 0, INT_MIN_U},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_W_S, cvt);
}

static void test_cvt_d_w_is_exact(void **state)
{
    static const h_case_t cvt[] = {
        {INT_MIN_U, 0, 0xc1e0000000000000ull},
        {INT_MAX_U, 0, 0x41dfffffffc00000ull},
        {0xffffffffu, 0, D_MONE},
        {0, 0, D_ZERO},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_D_W, cvt);
}

static void test_cvt_w_d_truncates_saturates_and_maps_nan_to_zero(void **state)
{
    const h_case_t cvt[] = {
        {pb_f64(-2.5), 0, (uint32_t)-2},
        {pb_f64(2147483647.9), 0, INT_MAX_U},
        {pb_f64(2147483648.0), 0, INT_MAX_U},
        {pb_f64(-2147483648.9), 0, INT_MIN_U},
        {pb_f64(-2147483649.0), 0, INT_MIN_U},
        {pb_f64(1e300), 0, INT_MAX_U},
        {pb_f64(-1e300), 0, INT_MIN_U},
        {D_INF, 0, INT_MAX_U},
        {D_MINF, 0, INT_MIN_U},
        {D_QNAN, 0, 0},
        {D_NNAN, 0, 0},
        {D_SNAN, 0, 0},
        {D_MZERO, 0, 0},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_W_D, cvt);
}

static void test_cvt_d_s_widens_exactly(void **state)
{
    const h_case_t cvt[] = {
        {pb_f32(1.5f), 0, pb_f64(1.5)},
        {S_MZERO, 0, D_MZERO},
        {S_INF, 0, D_INF},
        {1, 0, 0x36a0000000000000ull}, /* the smallest subnormal single, 2^-149 */
        {S_SNAN, 0, D_QNAN},
        {S_PNAN, 0, D_QNAN},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_D_S, cvt);
}

static void test_cvt_s_d_narrows_to_nearest_even(void **state)
{
    const h_case_t cvt[] = {
        {pb_f64(0.1), 0, 0x3dcccccdu},
        {0x3ff0000010000000ull, 0, S_ONE},       /* 1 + 2^-24: a tie, to the even 1.0 */
        {0x3ff0000030000000ull, 0, 0x3f800002u}, /* 1 + 3 * 2^-24: a tie, to the even 1 + 2^-22 */
        {pb_f64(1e300), 0, S_INF},
        {pb_f64(-1e300), 0, S_MINF},
        {D_PNAN, 0, S_QNAN},
        {D_MZERO, 0, S_MZERO},
    };
    H_CHECK_CASES(*state, ISA_OP_CVT_S_D, cvt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        HTEST(test_fadd_s_rounds_to_nearest_even),
        HTEST(test_single_nan_results_are_canonical),
        HTEST(test_single_signed_zeros),
        HTEST(test_fmul_s_and_fdiv_s_values),
        HTEST(test_single_division_by_zero_gives_infinity),
        HTEST(test_single_compares_with_nan_give_zero),
        HTEST(test_fneg_s_and_fabs_s_touch_only_the_sign_bit),
        HTEST(test_float_immediate_is_the_literal_bits),
        HTEST(test_double_arithmetic_rounds_to_nearest_even),
        HTEST(test_double_nan_results_are_canonical),
        HTEST(test_double_division_by_zero_gives_infinity),
        HTEST(test_double_compares_with_nan_give_zero),
        HTEST(test_fneg_d_fabs_d_and_fmov_d_copy_bits),
        HTEST(test_double_low_word_lives_in_even_register),
        HTEST(test_cvt_s_w_rounds_to_nearest_even),
        HTEST(test_cvt_w_s_truncates_saturates_and_maps_nan_to_zero),
        HTEST(test_cvt_d_w_is_exact),
        HTEST(test_cvt_w_d_truncates_saturates_and_maps_nan_to_zero),
        HTEST(test_cvt_d_s_widens_exactly),
        HTEST(test_cvt_s_d_narrows_to_nearest_even),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
