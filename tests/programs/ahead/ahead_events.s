# CAs that compute with events on (tests/e2e/test_slices.c): in each round every cell sends a message to its +X
# neighbour over a pathway that ends in the neighbour's arrival queue, then runs a loop of loads, stores and
# arithmetic that touches nothing outside its core (its CA may run ahead of the array's clock), then spins until its
# handler has taken the message of the round from its -X neighbour. Arrivals come at clocks no cell foresees, often
# inside a run ahead, and the timer fires every a2 clocks: each event must divert the CA at the clock it would clock
# by clock.
#
# a0 = rounds; a1 = the loop's iterations, plus the cell's id (at most 64 in all); a2 = the timer's period in clocks.
# Halts with a0 = its sum of the words taken, mixed with its loop's results and its count of timer events.
        .include "coa.inc"

        .bss
        .align 16
buf:    .space 4 * 64

        .text
_start: li   r45, handler
        wrcr r45, [CR_EVENT_VECTOR]
        li   r45, EV_TIMER | EV_ARRIVAL
        wrcr r45, [CR_EVENT_MASK]
        rdcr r45, [CR_CLOCK_LO]
        add  r45, r45, a2
        wrcr r45, [CR_TIMER]
        li   r45, 1
        wrcr r45, [CR_EVENT_ENABLE]
        # the two street signs of the pathway to +X: this cell, go +X; the neighbour, end in its arrival queue
        rdcr r46, [CR_CELL_X]
        rdcr r47, [CR_CELL_Y]
        rdcr r48, [CR_ARRAY_W]
        sll  r49, r47, 18
        sll  r24, r46, 23
        or   r24, r24, r49
        li   r50, SIGN_KIND | (DIR_PX << 15)
        or   r24, r24, r50                # first sign
        add  r46, r46, 1
        bne  r46, r48, 1f
        li   r46, 0
1:      sll  r25, r46, 23
        or   r25, r25, r49
        li   r50, SIGN_KIND | (SIGN_QUEUE << 15)
        or   r25, r25, r50                # last sign
        li   r30, 0                       # round
        li   r31, 0                       # the loop's results
        rdcr r26, [CR_CELL_ID]
        mov  r15, r26
round:  add  r30, r30, 1
        rdcr r50, [COA_ALLOC]
        wrcr r50, [COA_GATE_OUT0]
        li   r11, 1
        wrcr r11, [COA_TAG_NEXT]
        mov  go0, r24
        wrcr r11, [COA_TAG_NEXT]
        mov  go0, r25
        add  r12, r30, r26
        mov  go0, r12
        wrcr r11, [COA_TAG_NEXT]
        li   r12, TRAILER_KIND
        mov  go0, r12
        # a stretch the CA may run ahead in, longer on some cells than on others
        add  r13, a1, r26
        li   r14, buf
2:      stw  r15, [r14]                   # alone: a store and a write of its register in one bundle are staged,
        { ldw r16, [r14] ; add r15, r15, r30 } # which a run ahead does not do
        xor  r15, r15, 0x55
        { add r31, r31, r16 ; add r14, r14, 4 ; loop r13, 2b }
3:      bltu r20, r30, 3b                 # the handler counts the messages taken in r20
        bne  r30, a0, round
        add  a0, r22, r31
        add  a0, a0, r21
        halt

handler:
        rdcr r40, [CR_EVENT_PENDING]
        and  r41, r40, EV_TIMER
        beqz r41, 1f
        add  r21, r21, 1                  # timer events
        wrcr r41, [CR_EVENT_PENDING]
        rdcr r42, [CR_CLOCK_LO]
        add  r42, r42, a2
        wrcr r42, [CR_TIMER]              # and the next one
1:      and  r41, r40, EV_ARRIVAL
        beqz r41, 2f
        rdcr r42, [COA_ARRIVAL]           # the level goes down once the queue is empty
        wrcr r42, [COA_GATE_IN0]
        add  r22, r22, gi0                # the message's word; the agent takes its trailer
        add  r20, r20, 1
2:      rfe
