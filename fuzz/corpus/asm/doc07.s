copy:   { ldw go0, [r4] ; add r4, r4, 4 ; add r5, r5, gi0 ; loop r3, copy }
        {
            fmul.s r6, r6, 0.5
            fadd.s r7, r7, gi1
            mov    r8, r9
            mov    r9, r8               # a swap: both read before either writes
        }
        halt
