        .equ CELL_X, 0x00
        .equ PUTC, 0x10
        ldw  r3, [sp]
        ldw  r4, [sp + 8]
        stw  r4, [sp - 4]
        ldb  r5, [r3 + r4]
        ldw  r6, [table]
        ldd  r8, [table + 8]
        rdcr r7, [CELL_X]
        wrcr r5, [PUTC]
        halt
table:  .word 1, 2, 3, 4
