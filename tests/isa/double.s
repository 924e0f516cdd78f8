# Double-precision operations on even/odd pairs, low word in the even register (docs/isa.md, "Floating
# point"), and their clocks (fadd_d 4, fmul_d 4, fdiv_d 31, fmov.d 1). Operands are given high word, low
# word: 1.5 is 0x3ff80000, 0.
        .include "check.inc"
        .equ NAN_HI, 0x7ff80000
        ddd fadd.d, 0x3ff80000, 0, 0x40040000, 0, 0x40100000, 0, 4              # 1.5 + 2.5 = 4
        ddd fadd.d, 0x7ff40000, 1, 0x3ff00000, 0, NAN_HI, 0, 4                  # signalling NaN in
        ddd fadd.d, 0x3ff00000, 0, 0x3ca00000, 0, 0x3ff00000, 0, 4              # 1 + 2^-53: tie to even
        ddd fadd.d, 0x7fefffff, 0xffffffff, 0x7fefffff, 0xffffffff, 0x7ff00000, 0, 4  # overflow
        ddd fsub.d, 0x7ff00000, 0, 0x7ff00000, 0, NAN_HI, 0, 4                  # inf - inf
        ddd fsub.d, 0x3ff80000, 0, 0x40040000, 0, 0xbff00000, 0, 4              # -1
        ddd fmul.d, 0x3ff80000, 0, 0x40040000, 0, 0x400e0000, 0, 4              # 3.75
        ddd fmul.d, 0, 0, 0x7ff00000, 0, NAN_HI, 0, 4                           # 0 * inf
        ddd fdiv.d, 0x3ff00000, 0, 0x40080000, 0, 0x3fd55555, 0x55555555, 31    # 1/3
        ddd fdiv.d, 0xbff00000, 0, 0, 0, 0xfff00000, 0, 31                      # -1/0
        ddd fdiv.d, 0, 0, 0, 0, NAN_HI, 0, 31                                   # 0/0
        ddw feq.d, 0x3ff80000, 0, 0x3ff80000, 0, 1, 4
        ddw feq.d, 0x3ff80000, 0, 0x3ff80000, 1, 0, 4                           # the low word counts
        ddw feq.d, NAN_HI, 0, NAN_HI, 0, 0, 4
        ddw flt.d, 0xbff00000, 0, 0x3ff00000, 0, 1, 4
        ddw flt.d, NAN_HI, 0, 0x3ff00000, 0, 0, 4
        ddw fle.d, 0x3ff00000, 0, 0x3ff00000, 0, 1, 4
        ddw fle.d, 0x3ff00000, 0, NAN_HI, 0, 0, 4
        rr_dd fneg.d, 0x3ff80000, 5, 0xbff80000, 5, 4
        rr_dd fneg.d, 0x7ff40000, 1, 0xfff40000, 1, 4                           # no canonical NaN
        rr_dd fabs.d, 0xfff80000, 7, 0x7ff80000, 7, 4
        rr_dd fmov.d, 0x12345678, 0x9abcdef0, 0x12345678, 0x9abcdef0, 1
        halt
