# Control flow (docs/isa.md, "Control flow"): each branch taken and not, signed and unsigned; loop, jmp,
# call, jr, callr, ret; a branch costs its one clock, taken or not.
        .include "check.inc"
        .macro taken op, a, b
        li   r3, \a
        li   r4, \b
        rdcr r100, [CLOCK_LO]
        \op  r3, r4, t\@
        .set case_no, case_no + 1
        trap case_no
t\@:    rdcr r101, [CLOCK_LO]
        check_clocks 1
        .endm
        .macro not_taken op, a, b
        li   r3, \a
        li   r4, \b
        rdcr r100, [CLOCK_LO]
        \op  r3, r4, f\@
        rdcr r101, [CLOCK_LO]
        check_clocks 1
        jmp  ok\@
f\@:    .set case_no, case_no + 1
        trap case_no
ok\@:
        .endm
        taken     beq,  5, 5
        not_taken beq,  5, 6
        taken     bne,  5, 6
        not_taken bne,  5, 5
        taken     blt,  0xffffffff, 1           # -1 < 1
        not_taken blt,  1, 0xffffffff
        not_taken blt,  3, 3
        taken     bge,  3, 3
        taken     bge,  1, 0xffffffff
        not_taken bge,  0x80000000, 0
        taken     bltu, 1, 0xffffffff
        not_taken bltu, 0xffffffff, 1
        taken     bgeu, 0xffffffff, 1
        taken     bgeu, 0, 0
        not_taken bgeu, 0, 1
        # loop: rd - 1, taken while not 0; five turns of one clock each
        li   r3, 5
        li   r4, 0
        rdcr r100, [CLOCK_LO]
1:      { add r4, r4, 1 ; loop r3, 1b }
        rdcr r101, [CLOCK_LO]
        check_clocks 5
        check r3, 0
        check r4, 5
        li   r3, 1                              # a count of 1 falls through at once
        loop r3, 2f
        jmp  3f
2:      trap 0x100
3:      check r3, 0
        # jmp
        rdcr r100, [CLOCK_LO]
        jmp  4f
        trap 0x101
4:      rdcr r101, [CLOCK_LO]
        check_clocks 1
        # call: ra is the address of the next bundle; ret comes back there
        call leaf
back:   check r6, 1
        la   r7, back
        check r8, back
        # jr and callr
        la   r7, 5f
        jr   r7
        trap 0x102
5:      la   r7, leaf
        li   r6, 0
        callr r7
back2:  check r6, 1
        check r8, back2
        halt

leaf:   mov  r8, ra
        li   r6, 1
        ret
