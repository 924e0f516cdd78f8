# Bypass stalls (docs/isa.md, "Bypass stalls"): each rule of the section, its clocks with the default
# bypass.load = bypass.mem_operand = 1, and with both 0 (the leaner machine, LEAN defined).
# run:
# run: --set bypass.load=0 --set bypass.mem_operand=0 -D LEAN=1
        .include "check.inc"
        .ifdef LEAN
        .equ S, 0
        .else
        .equ S, 1
        .endif
        la   r3, word
        la   r4, word
        # a loaded word, read by the ALU next: a clock more
        rdcr r100, [CLOCK_LO]
        ldw  r5, [r3]
        add  r6, r5, 1
        rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        check r6, word + 1
        # ... by a branch
        rdcr r100, [CLOCK_LO]
        ldw  r5, [r3]
        beq  r5, r5, 1f
1:      rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        # ... as an address: the longer of the two delays, not their sum
        rdcr r100, [CLOCK_LO]
        ldw  r5, [r3]
        ldw  r6, [r5]
        rdcr r101, [CLOCK_LO]
        check_clocks 4 + S
        check r6, word
        # two instructions later: no wait
        rdcr r100, [CLOCK_LO]
        ldw  r5, [r3]
        nop
        add  r6, r5, 1
        rdcr r101, [CLOCK_LO]
        check_clocks 4
        # an ALU result as the next load's address, and as the next store's word
        rdcr r100, [CLOCK_LO]
        add  r7, r3, 0
        ldw  r6, [r7]
        rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        rdcr r100, [CLOCK_LO]
        add  r7, r0, 9
        stw  r7, [r3 + 4]
        rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        # an ALU result to the ALU and to a branch: no wait
        rdcr r100, [CLOCK_LO]
        add  r7, r0, 1
        add  r7, r7, 1
        bne  r7, r0, 2f
2:      rdcr r101, [CLOCK_LO]
        check_clocks 3
        # the wait counts from the end of the operation: the add ends in the ldw's first clock
        rdcr r100, [CLOCK_LO]
        { ldw r5, [r4] ; add r4, r4, 0 }
        ldw  r6, [r4]
        rdcr r101, [CLOCK_LO]
        check_clocks 4
        # a multiply's result to a store: after its 3 clocks, one more
        li   r8, 3
        rdcr r100, [CLOCK_LO]
        mul  r7, r8, r8
        stw  r7, [r3 + 4]
        rdcr r101, [CLOCK_LO]
        check_clocks 5 + S
        # a control register read, stored next
        rdcr r100, [CLOCK_LO]
        rdcr r7, [0x02]
        stw  r7, [r3 + 4]
        rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        # along the path taken: a load before a jump, read at the target
        rdcr r100, [CLOCK_LO]
        { ldw r5, [r3] ; jmp 3f }
        trap 0x200
3:      add  r6, r5, 1
        rdcr r101, [CLOCK_LO]
        check_clocks 3 + S
        # the link register, stored at the call's target
        la   r9, 4f
        rdcr r100, [CLOCK_LO]
        call 5f
4:      rdcr r101, [CLOCK_LO]
        check_clocks 4 + S                      # call 1, stw 2, ret 1
        halt
5:      stw  ra, [r3 + 4]
        ret

        .data
        .align 8
word:   .word word, 0
