# Conversions (docs/isa.md, "Floating point"): truncation toward zero, NaN to 0, saturation, round to
# nearest even when narrowing, and clocks (cvt.s.w and cvt.w.s fadd_s 2, the ones with a double fadd_d 4).
        .include "check.inc"
        rr cvt.s.w, 0x01000001, 0x4b800000, 2           # 2^24 + 1: a tie, to even (2^24)
        rr cvt.s.w, 0x01000003, 0x4b800002, 2           # 2^24 + 3: a tie, to even (2^24 + 4)
        rr cvt.s.w, 0xffffffff, 0xbf800000, 2           # -1
        rr cvt.s.w, 0x80000000, 0xcf000000, 2           # -2^31
        rr cvt.s.w, 0x7fffffff, 0x4f000000, 2           # 2^31 - 1 rounds to 2^31
        rr cvt.w.s, 0x3fc00000, 1, 2                    # 1.5
        rr cvt.w.s, 0xbfc00000, 0xffffffff, 2           # -1.5 to -1
        rr cvt.w.s, 0x7fc00000, 0, 2                    # NaN
        rr cvt.w.s, 0x7f800000, 0x7fffffff, 2           # inf saturates
        rr cvt.w.s, 0xff800000, 0x80000000, 2
        rr cvt.w.s, 0x4f32d05e, 0x7fffffff, 2           # 3e9
        rr cvt.w.s, 0xcf000000, 0x80000000, 2           # -2^31 exactly
        rr_wd cvt.d.w, 0xffffffff, 0xbff00000, 0, 4     # -1
        rr_wd cvt.d.w, 0x80000000, 0xc1e00000, 0, 4     # -2^31
        rr_wd cvt.d.s, 0x3fc00000, 0x3ff80000, 0, 4     # 1.5
        rr_wd cvt.d.s, 0x7fa00001, 0x7ff80000, 0, 4     # a NaN comes out canonical
        rr_wd cvt.d.s, 0x00000001, 0x36a00000, 0, 4     # the least subnormal, 2^-149
        rr_dw cvt.w.d, 0xc0040000, 0, 0xfffffffe, 4     # -2.5 to -2
        rr_dw cvt.w.d, 0x41dfffff, 0xffe00000, 0x7fffffff, 4   # 2^31 - 0.5
        rr_dw cvt.w.d, 0x41e00000, 0, 0x7fffffff, 4     # 2^31 saturates
        rr_dw cvt.w.d, 0xc1e00000, 0x00200000, 0x80000000, 4   # -2^31 - 1
        rr_dw cvt.w.d, 0x7ff80000, 0, 0, 4              # NaN
        rr_dw cvt.s.d, 0x3fd55555, 0x55555555, 0x3eaaaaab, 4   # 1/3
        rr_dw cvt.s.d, 0x3ff00000, 0x10000000, 0x3f800000, 4   # 1 + 2^-24: a tie, to even
        rr_dw cvt.s.d, 0x7e37e43c, 0x8800759c, 0x7f800000, 4   # 1e300 overflows to inf
        rr_dw cvt.s.d, 0xfff40000, 0, 0x7fc00000, 4     # NaN
        halt
