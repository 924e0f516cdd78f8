# A ConSet communication context switch (teaching demo, programs/demos/conset.txt). The program runs
# three phases, each with its own connection set of static pathways; between two phases every cell
# rewrites its agent directly (seed 004, section 4.2): wait until the network is quiet (a barrier), put
# the agent to sleep, load the next forwarding pattern from memory, wake it, and wait again until every
# cell has its new pathways (a barrier) before any word goes out.
#
#   phase 1: a ring along each row: every cell streams N words to its +X neighbour;
#   phase 2: a ring along each column: to the +Y neighbour;
#   phase 3: to the cell diagonally below right, turning at the +X neighbour (two hops).
#
# The barrier is runtime/sync.s (its token rings use channels 0-3). Halts with a0 = the sum of all words
# received; traps 1 when a phase receives the wrong sum.
        .include "sync.s"

        .equ N, 32                       # words per phase and cell

        .macro lc_link dir, index
        .word (END_LINK << 12) | (\dir << 8) | \index
        .endm
        .equ GATE0, END_GATE << 12

        .data
        .align 4
# Forwarding patterns: a count, then {channel, route, source, pool}; a channel with no route and no source
# is freed. The same pattern serves every cell of the torus.
phase1: .word 2
        .word 8
        lc_link DIR_PX, 9                # 8: from go0 to the +X neighbour's 9
        .word GATE0, 0
        .word 9, GATE0                   # 9: from the -X neighbour's 8 to gi0
        lc_link DIR_MX, 8
        .word 0
phase2: .word 4
        .word 8, 0, 0, 0
        .word 9, 0, 0, 0
        .word 10
        lc_link DIR_PY, 11               # 10: from go0 to the +Y neighbour's 11
        .word GATE0, 0
        .word 11, GATE0                  # 11: from the -Y neighbour's 10 to gi0
        lc_link DIR_MY, 10
        .word 0
phase3: .word 5
        .word 10, 0, 0, 0
        .word 11, 0, 0, 0
        .word 12
        lc_link DIR_PX, 13               # 12: from go0 to the +X neighbour's 13
        .word GATE0, 0
        .word 13
        lc_link DIR_PY, 14               # 13: passing through, from the -X neighbour's 12 to the +Y one's 14
        lc_link DIR_MX, 12
        .word 0
        .word 14, GATE0                  # 14: from the -Y neighbour's 13 to gi0
        lc_link DIR_MY, 13
        .word 0
quiet:  .word 3
        .word 12, 0, 0, 0
        .word 13, 0, 0, 0
        .word 14, 0, 0, 0
# per phase: the pattern, the channel go0 feeds, the channel gi0 reads
phases: .word phase1, 8, 9
        .word phase2, 10, 11
        .word phase3, 12, 14

        .text
_start: call sync_init
        rdcr r40, [CR_CELL_ID]
        li   r41, 0                      # phase - 1
        li   r42, phases
        li   r43, 0                      # sum of everything received
next:   ldw  a0, [r42]
        call switch
        li   r20, MARK_PHASE + 1
        add  r20, r20, r41
        wrcr r20, [CR_MARK]
        call sync_barrier                # every cell has its new pathways: words may go
        ldw  r20, [r42 + 4]
        wrcr r20, [COA_GATE_OUT0]
        ldw  r20, [r42 + 8]
        wrcr r20, [COA_GATE_IN0]
        # stream: send N words (id << 16 | phase << 8 | i), add up the N that arrive
        sll  r4, r40, 16
        sll  r20, r41, 8
        or   r4, r4, r20
        li   r6, 0
        mov  go0, r4                     # one word ahead: a bundle waits for both of its gates, and
        add  r4, r4, 1                   # every cell receives what another sends
        li   r3, N - 1
1:      { mov go0, r4 ; add r6, r6, gi0 }
        { add r4, r4, 1 ; loop r3, 1b }
        add  r6, r6, gi0
        li   r20, COA_NONE
        wrcr r20, [COA_GATE_IN0]
        wrcr r20, [COA_GATE_OUT0]
        # N words from one sender: N * (its id << 16 | phase << 8) + N(N-1)/2, whoever it is
        sll  r21, r41, 8
        li   r22, N
        mul  r21, r21, r22
        sub  r23, r6, r21
        sub  r23, r23, N * (N - 1) / 2
        li   r24, 0xffff
        and  r23, r23, r24
        bnez r23, bad                    # the low half: what every sender's words share
        add  r43, r43, r6
        add  r41, r41, 1
        add  r42, r42, 12
        li   r20, 3
        bne  r41, r20, next
        li   a0, quiet
        call switch                      # leave the agent with no pathway of ours
        mov  a0, r43
        halt

# switch(a0 = pattern): the communication context switch.
switch: sub  sp, sp, 16
        stw  ra, [sp]
        stw  a0, [sp + 4]
        call sync_barrier                # every cell is done with the phase: nothing is in flight
        ldw  r21, [sp + 4]
        li   r20, 1
        wrcr r20, [COA_SLEEP]            # no header, link or spool activity while it changes
        wrcr r21, [COA_LOAD]
2:      rdcr r20, [COA_STATUS]           # the pattern loader reads it, one word per free memory clock
        and  r20, r20, COA_STATUS_LOADING
        bnez r20, 2b
        wrcr zero, [COA_SLEEP]
        ldw  ra, [sp]
        add  sp, sp, 16
        ret
bad:    trap 1
