        fadd.d r3, r4, r6
