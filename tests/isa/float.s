# Single-precision operations (docs/isa.md, "Floating point"): round to nearest even, the canonical NaN
# for every NaN result (fneg/fabs excepted), comparisons with a NaN giving 0, and clocks (fadd_s 2,
# fmul_s 2, fdiv_s 15). Values are bit patterns: 1.5 0x3fc00000, 2.5 0x40200000, 1.0 0x3f800000.
        .include "check.inc"
        .equ INF, 0x7f800000
        .equ NINF, 0xff800000
        .equ QNAN, 0x7fc00000
        .equ MAX, 0x7f7fffff
        rrf fadd.s, 0x3fc00000, 0x40200000, 0x40800000, 2      # 1.5 + 2.5 = 4
        rrf fadd.s, INF, NINF, QNAN, 2
        rrf fadd.s, MAX, MAX, INF, 2                            # overflow
        rrf fadd.s, 0x3f800000, 0x7fa00001, QNAN, 2             # a signalling NaN in: the canonical out
        rrf fadd.s, 0xffc00001, 0x3f800000, QNAN, 2
        rrf fadd.s, 0x3f800000, 0x33800000, 0x3f800000, 2       # 1 + 2^-24: a tie, to even
        rrf fadd.s, 0x3f800000, 0x33800001, 0x3f800001, 2       # just above the tie
        rrf fsub.s, 0x3fc00000, 0x40200000, 0xbf800000, 2       # 1.5 - 2.5 = -1
        rrf fsub.s, 0x3f800000, 0x3f800000, 0x00000000, 2       # x - x = +0
        rrf fsub.s, 0x80000000, 0x00000000, 0x80000000, 2       # -0 - 0 = -0
        rrf fmul.s, 0x3fc00000, 0x40200000, 0x40700000, 2       # 3.75
        rrf fmul.s, 0x00000000, INF, QNAN, 2
        rrf fmul.s, MAX, 0x40000000, INF, 2
        rrf fmul.s, 0x00800000, 0x3f000000, 0x00400000, 2       # to a subnormal, exactly
        rrf fdiv.s, 0x3f800000, 0x00000000, INF, 15
        rrf fdiv.s, 0xbf800000, 0x00000000, NINF, 15
        rrf fdiv.s, 0x3f800000, 0x80000000, NINF, 15
        rrf fdiv.s, 0x00000000, 0x00000000, QNAN, 15
        rrf fdiv.s, 0x3f800000, 0x40400000, 0x3eaaaaab, 15      # 1/3 rounds up
        rrf feq.s, 0x3fc00000, 0x3fc00000, 1, 2
        rrf feq.s, QNAN, QNAN, 0, 2
        rrf feq.s, 0x00000000, 0x80000000, 1, 2                 # +0 == -0
        rrf flt.s, 0xbf800000, 0x3f800000, 1, 2
        rrf flt.s, 0x3f800000, 0x3f800000, 0, 2
        rrf flt.s, QNAN, 0x3f800000, 0, 2
        rrf fle.s, 0x3f800000, 0x3f800000, 1, 2
        rrf fle.s, 0x40200000, 0x3f800000, 0, 2
        rrf fle.s, 0x3f800000, QNAN, 0, 2
        rr  fneg.s, 0x3fc00000, 0xbfc00000, 2
        rr  fneg.s, 0x7fa00001, 0xffa00001, 2                   # a NaN keeps its payload
        rr  fabs.s, 0xffc00001, 0x7fc00001, 2
        rr  fabs.s, 0x80000000, 0x00000000, 2
        # a float literal immediate
        li   r3, 0x3fc00000
        fadd.s r5, r3, 2.5
        check r5, 0x40800000
        halt
