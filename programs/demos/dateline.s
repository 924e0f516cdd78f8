# Deadlock and the dateline (teaching demos deadlock and dateline, programs/demos/*.txt). On every row
# of the torus, each cell sends a message of LEN words to the cell two hops along +X, through go0; a
# receiving spool takes the message that ends at this cell. Every cell may take one pool-0 channel and
# one pool-1 channel of its +X neighbour (channels 8 and 16).
#
# Without the dateline (DATELINE = 0) every message takes its hops in pool 0: each one holds the channel
# of its first hop and waits for the channel of its second, which the next message holds: round the ring,
# a cycle. Nothing moves; the deadlock detector stops the run and reports the cycle.
# With DATELINE = 1, a message that crosses the wrap-around link from x = W-1 to x = 0 (the dateline)
# carries a sign naming the cell before it that switches the following hops to pool 1: no message then
# waits for a pool-0 channel while holding a pool-1 one, the cycle is broken and everything flows.
#
# Halts with a0 = LEN; traps 1 on a wrong word.
        .include "demo.inc"

        .equ LEN, 24
        .ifndef DATELINE
        .equ DATELINE, 1
        .endif

        .bss
        .align 16
inbox:  .space 4 * LEN

        .text
_start: li   r11, 1 << 8                 # +X hops: pool 0 is channel 8, pool 1 channel 16
        wrcr r11, [COA_LINK_POOL + DIR_PX * 8 + 0]
        li   r11, 1 << 16
        wrcr r11, [COA_LINK_POOL + DIR_PX * 8 + 2]
        rdcr r10, [CR_CELL_X]
        rdcr r11, [CR_CELL_Y]
        rdcr r12, [CR_ARRAY_W]
        rdcr r13, [CR_CELL_ID]

        # receive in the background: spool 4 takes the pathway that ends at it
        spool_receive 4, inbox, LEN

        # the street signs: this cell, go +X ... (the cell before the dateline switches to pool 1) ...
        # the destination two hops on, end at spool 4
        add  r14, r10, 1
        remu r14, r14, r12               # x + 1
        add  r15, r10, 2
        remu r15, r15, r12               # x + 2, the destination
        sll  r16, r10, 23
        sll  r17, r11, 18
        or   r16, r16, r17
        or   r16, r16, SIGN_KIND | (DIR_PX << 15)   # sign 1: (x, y) go +X
        sll  r18, r14, 23
        or   r18, r18, r17
        or   r18, r18, SIGN_KIND | (DIR_PX << 15) | (1 << 10) | (1 << 9)   # (x+1, y) go +X, pool 1 after
        sll  r19, r15, 23
        or   r19, r19, r17
        or   r19, r19, SIGN_KIND | (SIGN_SPOOL << 15) | (4 << 12)   # (x+2, y) end at spool 4
        sub  r22, r12, 1                 # x = W - 1: the last cell before the dateline
        li   r23, DATELINE
        beqz r23, plain
        bne  r10, r22, 1f
        or   r16, r16, (1 << 10) | (1 << 9)          # the source itself is before the dateline: pool 1 at once
        jmp  plain
1:      bne  r14, r22, plain
        li   r24, 1                      # the message crosses the dateline at x + 1: one more sign
        jmp  send
plain:  li   r24, 0

send:   rdcr r20, [COA_ALLOC]
        wrcr r20, [COA_GATE_OUT0]
        li   r21, 1
        wrcr r21, [COA_TAG_NEXT]
        mov  go0, r16
        beqz r24, 2f
        wrcr r21, [COA_TAG_NEXT]
        mov  go0, r18
2:      wrcr r21, [COA_TAG_NEXT]
        mov  go0, r19
        mul  r25, r11, r12
        add  r25, r25, r15
        or   r25, r25, MARK_MSG_SEND
        wrcr r25, [CR_MARK]
        sll  r4, r13, 16                 # words: sender id << 16 | i
        li   r3, LEN
3:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 3b }
        wrcr r21, [COA_TAG_NEXT]
        li   r22, TRAILER_KIND
        mov  go0, r22

        spool_wait 4                     # until the message for this cell is in
        li   r20, MARK_MSG_RECEIVE
        wrcr r20, [CR_MARK]
        # check: from the cell two hops back, id << 16 | i
        add  r26, r10, r12
        sub  r26, r26, 2
        remu r26, r26, r12
        mul  r27, r11, r12
        add  r26, r26, r27
        sll  r26, r26, 16
        li   r24, inbox
        li   r3, LEN
5:      ldw  r27, [r24]
        bne  r27, r26, bad
        { add r24, r24, 4 ; add r26, r26, 1 ; loop r3, 5b }
        li   a0, LEN
        halt
bad:    trap 1
