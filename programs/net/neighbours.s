# Every cell exchanges K words with each of its four torus neighbours, all at once, through spools:
# one sending spool per direction (spools 0-3, each sending a whole message: two street signs, K data
# words, a trailer) and one receiving spool per direction (spools 4-7, spool 4+d takes the pathway that
# travelled in direction d). Each data word is (sender id << 16) | index, so the receiver checks it.
#
# a0 = K, words per neighbour (1..16384). Halts with a0 = 4K words received; traps 1 on a wrong word.
        .include "coa.inc"

        .data
dx:     .word 1, -1, 0, 0
dy:     .word 0, 0, 1, -1
        .bss
        .align 16
heap:   .space 4                     # messages and receive buffers start here

        .text
_start: rdcr r10, [CR_CELL_X]
        rdcr r11, [CR_CELL_Y]
        rdcr r12, [CR_ARRAY_W]
        rdcr r13, [CR_ARRAY_H]
        rdcr r14, [CR_CELL_ID]
        mov  r15, a0                 # K
        li   r16, heap               # receive buffer d at r16 + d*4K
        sll  r17, r15, 4
        add  r17, r16, r17           # message d at r17 + d*4(K+3)

# receiving spools 4..7: K words each, from the pathway whose last sign names them
        li   r20, 0                  # d
recv_setup:
        sll  r21, r20, 3             # spool register block: COA_SPOOL + (4 + d) * 8
        add  r21, r21, COA_SPOOL + 4 * 8
        mul  r22, r20, r15
        sll  r22, r22, 2
        add  r22, r22, r16
        wrcr r22, [r21 + SPOOL_ADDR]
        li   r23, 4
        wrcr r23, [r21 + SPOOL_STRIDE]
        wrcr r15, [r21 + SPOOL_COUNT]
        li   r23, SPOOL_RECEIVE
        wrcr r23, [r21 + SPOOL_CTRL]
        add  r20, r20, 1
        li   r23, 4
        bne  r20, r23, recv_setup

# one message per direction: sign(here, turn d), sign(neighbour, spool 4+d), data, trailer
        li   r20, 0
send_setup:
        add  r24, r15, 3             # message words
        mul  r25, r20, r24
        sll  r25, r25, 2
        add  r25, r25, r17           # r25 = message address
        sll  r26, r20, 2
        ldw  r27, [r26 + dx]
        add  r27, r27, r10
        add  r27, r27, r12
        remu r27, r27, r12           # neighbour x
        ldw  r28, [r26 + dy]
        add  r28, r28, r11
        add  r28, r28, r13
        remu r28, r28, r13           # neighbour y
        sll  r29, r10, 23            # first sign: this cell, go d
        sll  r30, r11, 18
        or   r29, r29, r30
        sll  r30, r20, 15
        or   r29, r29, r30
        or   r29, r29, SIGN_KIND
        stw  r29, [r25]
        sll  r29, r27, 23            # second sign: the neighbour, end at spool 4+d
        sll  r30, r28, 18
        or   r29, r29, r30
        or   r29, r29, SIGN_KIND | (SIGN_SPOOL << 15)
        add  r30, r20, 4
        sll  r30, r30, 12
        or   r29, r29, r30
        stw  r29, [r25 + 4]
        sll  r31, r14, 16            # data: (id << 16) | k
        add  r32, r25, 8
        mov  r3, r15
1:      { stw r31, [r32] ; add r31, r31, 1 ; add r32, r32, 4 ; loop r3, 1b }
        li   r29, TRAILER_KIND
        stw  r29, [r32]
        rdcr r33, [COA_ALLOC]        # a channel of the local pool for this pathway
        sll  r21, r20, 3
        add  r21, r21, COA_SPOOL
        wrcr r33, [r21 + SPOOL_LC]
        wrcr r25, [r21 + SPOOL_ADDR]
        li   r23, 4
        wrcr r23, [r21 + SPOOL_STRIDE]
        wrcr r24, [r21 + SPOOL_COUNT]
        li   r23, 2
        wrcr r23, [r21 + SPOOL_TAG_HEAD]
        li   r23, 1
        wrcr r23, [r21 + SPOOL_TAG_TAIL]
        li   r23, SPOOL_SEND
        wrcr r23, [r21 + SPOOL_CTRL]
        add  r20, r20, 1
        li   r23, 4
        bne  r20, r23, send_setup

# wait for all eight spools
        li   r20, 0
wait:   sll  r21, r20, 3
        add  r21, r21, COA_SPOOL
2:      rdcr r22, [r21 + SPOOL_STATUS]
        and  r22, r22, SPOOL_DONE
        beqz r22, 2b
        add  r20, r20, 1
        li   r23, 8
        bne  r20, r23, wait

# check: buffer d holds (id of the neighbour at -d << 16) | k
        li   r20, 0
check:  xor  r26, r20, 1             # the sender sits in the opposite direction
        sll  r26, r26, 2
        ldw  r27, [r26 + dx]
        add  r27, r27, r10
        add  r27, r27, r12
        remu r27, r27, r12
        ldw  r28, [r26 + dy]
        add  r28, r28, r11
        add  r28, r28, r13
        remu r28, r28, r13
        mul  r29, r28, r12
        add  r29, r29, r27           # sender id
        sll  r31, r29, 16
        mul  r32, r20, r15
        sll  r32, r32, 2
        add  r32, r32, r16
        mov  r3, r15
3:      ldw  r34, [r32]
        bne  r34, r31, bad
        { add r31, r31, 1 ; add r32, r32, 4 ; loop r3, 3b }
        add  r20, r20, 1
        li   r23, 4
        bne  r20, r23, check
        sll  a0, r15, 2
        halt
bad:    trap 1
