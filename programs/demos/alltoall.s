# All-to-all congestion (teaching demo, programs/demos/alltoall.txt): every cell sends a message of L words
# to every other cell, as fast as its spools allow, and receives the messages sent to it. On a 4x4 torus
# that is 240 pathways competing for the same links and the same few channels.
#
# At the hardware level, in one loop per cell: a pathway that ends here waits in the arrival queue until
# one of the receiving spools 4-7 is free to take it (receives come first: a waiting pathway holds channels
# that others need); then up to four messages leave at once on sending spools 0-3, each on a pathway of
# its own, routed X then Y without the wrap-around links, so no cycle of waiting pathways can form.
# Headers wait for channels (no_channel), words for their turn on the links (lost_turn) and for room
# downstream (no_space).
#
# Halts with a0 = the messages received; traps 1 on a wrong word.
        .include "coa.inc"

        .equ L, 24                       # data words per message
        .equ MSG_WORDS, L + 4            # three places for signs, the data, a trailer

        .bss
        .align 16
sbuf:   .space 4 * 4 * MSG_WORDS         # the message being sent, per sending spool
rbuf:   .space 4 * 4 * L                 # the message being received, per receiving spool

        .text
_start: rdcr r40, [CR_CELL_ID]
        rdcr r50, [CR_ARRAY_W]
        rdcr r51, [CR_ARRAY_H]
        rdcr r52, [CR_CELL_X]
        rdcr r53, [CR_CELL_Y]
        mul  r41, r50, r51               # cells
        li   r60, 1                      # messages started + 1
        mov  r73, r52                    # (r73, r74): the last destination, this cell to begin with
        mov  r74, r53
        li   r62, 0                      # messages received
        li   r64, 0                      # spools in use (bit s)
        sub  r65, r41, 1                 # messages to receive
        # The sending buffers: three places for signs, then the data (id << 16 | i) and a trailer, the
        # same for every destination, so they are written once; a message only writes its signs.
        li   r75, sbuf + 12
        li   r20, 4
0:      sll  r81, r40, 16
        li   r3, L
1:      { stw r81, [r75] ; add r81, r81, 1 ; add r75, r75, 4 ; loop r3, 1b }
        li   r81, TRAILER_KIND
        stw  r81, [r75]
        add  r75, r75, 16
        loop r20, 0b

main:   # retire the spools that are done: each latches its bit in EVENT_PENDING when it finishes (events
        # stay disabled; the program only reads the bits)
        rdcr r21, [CR_EVENT_PENDING]
        and  r21, r21, 0xff
        beqz r21, recv
        wrcr r21, [CR_EVENT_PENDING]     # clears them
        xor  r64, r64, r21
        li   r20, 4
2:      srl  r22, r21, r20
        and  r22, r22, 1
        beqz r22, 3f
        call received
3:      add  r20, r20, 1
        li   r24, 8
        bne  r20, r24, 2b

recv:   # receives first: every pathway waiting in the arrival queue that a free spool can take
        rdcr r20, [COA_ARRIVALS]
        beqz r20, send
        call free_spool4
        blt  a0, zero, send
        mov  r70, a0
        rdcr r71, [COA_ARRIVAL]
        sll  r22, r70, 3
        wrcr r71, [r22 + COA_SPOOL + SPOOL_LC]
        sub  r23, r70, 4
        li   r24, L * 4
        mul  r23, r23, r24
        add  r23, r23, rbuf
        wrcr r23, [r22 + COA_SPOOL + SPOOL_ADDR]
        li   r24, 4
        wrcr r24, [r22 + COA_SPOOL + SPOOL_STRIDE]
        li   r24, L
        wrcr r24, [r22 + COA_SPOOL + SPOOL_COUNT]
        li   r24, SPOOL_RECEIVE
        wrcr r24, [r22 + COA_SPOOL + SPOOL_CTRL]
        li   r24, 1
        sll  r24, r24, r70
        or   r64, r64, r24
        jmp  recv

send:   # then a send, if a destination is left, a sending spool free and a channel to be had
        beq  r60, r41, done
        call free_spool0
        blt  a0, zero, done
        mov  r70, a0
        rdcr r71, [COA_ALLOC]
        li   r24, COA_NONE
        beq  r71, r24, done
        call start_send
        add  r60, r60, 1

done:   bne  r60, r41, main
        bne  r62, r65, main
        bnez r64, main
        mov  a0, r62
        halt

# free_spool0() / free_spool4() -> a0 = a sending (0-3) / receiving (4-7) spool not in use, or -1.
free_spool0:
        li   a0, 0
        jmp  4f
free_spool4:
        li   a0, 4
4:      add  r25, a0, 4
5:      srl  r26, r64, a0
        and  r26, r26, 1
        beqz r26, 6f
        add  a0, a0, 1
        bne  a0, r25, 5b
        li   a0, -1
6:      ret

# received(r20 = receiving spool): check the message (from cell s: s << 16 | i) and count it.
received:
        sub  r23, r20, 4
        li   r24, L * 4
        mul  r23, r23, r24
        add  r23, r23, rbuf
        ldw  r25, [r23]                  # s << 16
        ldw  r26, [r23 + (L - 1) * 4]    # s << 16 | L - 1
        sub  r26, r26, r25
        li   r27, L - 1
        bne  r26, r27, bad
        srl  r25, r25, 16
        or   r25, r25, MARK_MSG_RECEIVE
        wrcr r25, [CR_MARK]
        add  r62, r62, 1
        ret

# start_send(r70 = spool, r71 = channel): the message to the cell after (r73, r74) in id order, on spool
# r70. Its signs go just before the data, the last one first.
start_send:
        add  r73, r73, 1                 # the next cell in id order (no divisions: they take 15 clocks)
        bne  r73, r50, 11f
        li   r73, 0
        add  r74, r74, 1
        bne  r74, r51, 11f
        li   r74, 0
11:     mul  r72, r74, r50
        add  r72, r72, r73               # destination id
        sll  r77, r53, 18                # this y << 18
        sll  r78, r73, 23                # the last sign: the destination, into its arrival queue
        sll  r79, r74, 18
        or   r78, r78, r79
        or   r78, r78, SIGN_KIND | (SIGN_QUEUE << 15)
        li   r24, MSG_WORDS * 4
        mul  r75, r70, r24
        add  r75, r75, sbuf + 8
        stw  r78, [r75]
        li   r80, 1                      # signs so far
        sll  r78, r52, 23
        or   r78, r78, r77
        or   r78, r78, SIGN_KIND         # the first sign names this cell
        beq  r73, r52, 9f
        beq  r74, r53, 8f
        sll  r79, r73, 23                # X then Y: turn at (its x, this y)
        or   r79, r79, r77
        li   r24, SIGN_KIND | (DIR_PY << 15)
        bgt  r74, r53, 7f
        li   r24, SIGN_KIND | (DIR_MY << 15)
7:      or   r79, r79, r24
        sub  r75, r75, 4
        stw  r79, [r75]
        add  r80, r80, 1
8:      li   r24, DIR_PX << 15           # first along X, towards the destination's column
        bgt  r73, r52, 10f
        li   r24, DIR_MX << 15
        jmp  10f
9:      li   r24, DIR_PY << 15           # in its column already: along Y
        bgt  r74, r53, 10f
        li   r24, DIR_MY << 15
10:     or   r78, r78, r24
        sub  r75, r75, 4
        stw  r78, [r75]
        add  r80, r80, 1
        sll  r22, r70, 3
        wrcr r71, [r22 + COA_SPOOL + SPOOL_LC]
        wrcr r75, [r22 + COA_SPOOL + SPOOL_ADDR]
        li   r24, 4
        wrcr r24, [r22 + COA_SPOOL + SPOOL_STRIDE]
        add  r24, r80, L + 1
        wrcr r24, [r22 + COA_SPOOL + SPOOL_COUNT]
        wrcr r80, [r22 + COA_SPOOL + SPOOL_TAG_HEAD]
        li   r24, 1
        wrcr r24, [r22 + COA_SPOOL + SPOOL_TAG_TAIL]
        or   r24, r72, MARK_MSG_SEND
        wrcr r24, [CR_MARK]
        li   r24, SPOOL_SEND
        wrcr r24, [r22 + COA_SPOOL + SPOOL_CTRL]
        li   r24, 1
        sll  r24, r24, r70
        or   r64, r64, r24
        ret
bad:    trap 1
