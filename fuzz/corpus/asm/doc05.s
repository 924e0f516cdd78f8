        fadd.s r3, r4, 1.5
        fmul.s r3, r3, -2e-3
        flt.s  r5, r3, inf
        fsub.s r6, r6, 2                # 2.0
        fadd.s r7, r7, %bits(0x7fc00001) # a NaN with a payload
