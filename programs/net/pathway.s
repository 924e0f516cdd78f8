# A pathway from cell (0,0) to cell (5,3) with two turns, (0,0) -> +X -> (3,0) -> +Y -> (3,3) -> +X ->
# (5,3): eight hops. The source streams N words through go0 with an LIW loop; the destination reads them
# from gi0, checks each (word k is k), and prints the clocks of its first and last read. Once the pathway
# is open, a word arrives every 2 clocks (one link word per 2 clocks, docs/network.md).
#
# a0 = N. Every other cell halts at once. The destination halts with a0 = the clocks between its first
# and last read, 2(N-1); it traps 1 on a wrong word.
        .include "coa.inc"

        .text
_start: rdcr r10, [CR_CELL_X]
        rdcr r11, [CR_CELL_Y]
        or   r12, r10, r11
        beqz r12, source
        li   r12, 5
        bne  r10, r12, idle
        li   r12, 3
        beq  r11, r12, destination
idle:   halt

source: mov  r3, a0
        rdcr r20, [COA_ALLOC]
        wrcr r20, [COA_GATE_OUT0]
        li   r21, 1
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 0, 0, DIR_PX
        mov  go0, r22
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 3, 0, DIR_PY
        mov  go0, r22
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 3, 3, DIR_PX
        mov  go0, r22
        wrcr r21, [COA_TAG_NEXT]
        sign_li r22, 5, 3, SIGN_GATE, 0
        mov  go0, r22
        li   r4, 0
1:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 1b }
        wrcr r21, [COA_TAG_NEXT]
        li   r22, TRAILER_KIND
        mov  go0, r22
        halt

destination:
        mov  r3, a0
        li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN0]
        li   r4, 0
        li   r9, 0
        sub  r3, r3, 1               # words after the first
        # word 0, with the clock of its read in the same bundle
        { sub r8, gi0, r4 ; add r4, r4, 1 ; rdcr r7, [CR_CLOCK_LO] }
        { or r9, r9, r8 ; beq r3, zero, one }
2:      { sub r8, gi0, r4 ; add r4, r4, 1 ; rdcr r10, [CR_CLOCK_LO] }   # two clocks a word,
        { or r9, r9, r8 ; loop r3, 2b }                                  # as fast as the link
        bnez r9, bad                 # any wrong word left a bit in r9
        jmp  done
one:    mov  r10, r7
        bnez r9, bad
done:   sub  a0, r10, r7             # clocks from the first read to the last
        li   r5, 'f'
        wrcr r5, [CR_DEBUG_PUTC]
        li   r5, ' '
        wrcr r5, [CR_DEBUG_PUTC]
        wrcr r7, [CR_DEBUG_PUTI]     # clock of the first read
        li   r5, ' '
        wrcr r5, [CR_DEBUG_PUTC]
        wrcr r10, [CR_DEBUG_PUTI]    # clock of the last read
        li   r5, 10
        wrcr r5, [CR_DEBUG_PUTC]
        halt
bad:    trap 1
