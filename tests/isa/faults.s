# Faults (docs/isa.md, "Faults"): one case per run, chosen with -D CASE=N; run_isa.py checks each case's
# fault and the clock its bundle issued at, as the lines below say.
# case 1: integer divide by zero at cycle 1
# case 2: integer divide by zero at cycle 1
# case 3: integer divide by zero at cycle 1
# case 4: integer divide by zero at cycle 1
# case 5: misaligned address at cycle 0
# case 6: misaligned address at cycle 0
# case 7: misaligned address at cycle 0
# case 8: misaligned address at cycle 0
# case 9: bad address at cycle 0
# case 10: bad address at cycle 0
# case 11: bad address at cycle 0
# case 12: bad address at cycle 0
# case 13: store into the program text at cycle 0
# case 14: store into the program text at cycle 2
# case 15: trap at cycle 0
# case 16: bad control register at cycle 0
# case 17: bad control register at cycle 0
# case 18: bad program counter at cycle 1
# case 19: bad program counter at cycle 1
# case 20: illegal instruction at cycle 0
# case 21: misaligned address at cycle 2
# case 22: gate not bound to a logical channel at cycle 0
# case 23: bad control register at cycle 0
# case 24: bad control register at cycle 0
        .if CASE == 1
        li   r3, 7
        div  r5, r3, r0
        .elseif CASE == 2
        li   r3, 7
        divu r5, r3, 0
        .elseif CASE == 3
        li   r3, 0x80000000
        rem  r5, r3, r0
        .elseif CASE == 4
        li   r3, 7
        { add r6, r3, 1 ; remu r5, r3, r0 }    # nothing of the bundle is committed
        .elseif CASE == 5
        ldw  r5, [mdata + 2]
        .elseif CASE == 6
        ldh  r5, [mdata + 1]
        .elseif CASE == 7
        ldd  r6, [mdata + 4]                    # doubles: 8-aligned
        .elseif CASE == 8
        stw  r0, [mdata + 1]
        .elseif CASE == 9
        ldw  r5, [0]                            # the null page
        .elseif CASE == 10
        ldb  r5, [0xfff]                        # its last byte
        .elseif CASE == 11
        ldw  r5, [0x80000]                      # past the end of the 512K
        .elseif CASE == 12
        std  r6, [0x7fff8 + 8]
        .elseif CASE == 13
        stw  r0, [0x1000]
        .elseif CASE == 14
        la   r3, here
here:   stb  r0, [r3 + 3]                       # this very operation's last byte, after a bypass wait
        .elseif CASE == 15
        trap 0x1234
        .elseif CASE == 16
        rdcr r5, [0x30]
        .elseif CASE == 17
        wrcr r0, [0x0b]
        .elseif CASE == 18
        li   r3, 0x8000
        jr   r3                                 # outside the text
        .elseif CASE == 19
mid:    la   r3, mid + 4                        # the extension word of this very `or`
        jr   r3
        .elseif CASE == 20
        .word 0xffffffff
        .elseif CASE == 21
        add  r3, r0, 0x2001                     # the address waits a clock, then faults
        ldw  r5, [r3]
        .elseif CASE == 22
        add  r5, gi0, 0
        .elseif CASE == 23
        wrcr r0, [0x00]                         # CELL_X is read-only
        .elseif CASE == 24
        rdcr r5, [0x10]                         # DEBUG_PUTC is write-only
        .endif
        halt
        .data
        .align 8
mdata:  .word 1, 2, 3, 4
