# Cells that compute between words (tests/e2e/test_slices.c): in each round every cell puts a word on a ring
# round +X through its gate, runs a loop of loads, stores and arithmetic that touches nothing outside its core
# (so its CA may run ahead of the array's clock), then takes the word its -X neighbour put there, waiting for
# it if it has not come.
#
# a0 = rounds; a1 = the round in which this cell stores below its memory (a fault), 0 for none;
# a2 = added to the loop's 16 iterations, so that the cells' loops end at different clocks;
# a3 = the round after which this cell writes a line to its console, 0 for none.
# Halts with a0 = the sum of the words it took.
        .include "coa.inc"

        .bss
        .align 16
buf:    .space 4 * 128

        .text
_start: lc_source 12, END_GATE, 0, 0
        lc_route  12, END_LINK, DIR_PX, 13
        lc_source 13, END_LINK, DIR_MX, 12
        lc_route  13, END_GATE, 0, 0
        li   r30, 0                      # round
        li   r31, 0                      # sum of the words taken
        li   r12, 7
round:  add  r30, r30, 1
        mov  go0, r12
        add  r11, a2, 16
        li   r10, buf
1:      beq  r30, a1, bad
        stw  r12, [r10]
        ldw  r13, [r10]
        { mul r12, r13, 3 ; add r10, r10, 4 }
        add  r12, r12, r30
        loop r11, 1b
        add  r31, r31, gi0
        bne  r30, a3, 2f
        li   r14, 10
        wrcr r14, [CR_DEBUG_PUTC]
2:      bne  r30, a0, round
        mov  a0, r31
        halt
bad:    stw  r12, [zero]                 # below the memory guard
        halt
