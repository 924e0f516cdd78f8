# The basic communication patterns of seed 004 (section 5.1) under message passing: every cell sends K
# words to each of its partners with msg_isend (in the background), receives one message from each partner
# in the foreground, then waits until its own sends have gone.
#
#   a0 = K, words per message (1..16384)
#   a1 = pattern: 0 torus (the 4 neighbours), 1 butterfly (hypercube partners under a Gray-code mapping;
#        the sides must be powers of two), 2 all-to-all (every other cell, in a random order per cell, as the
#        seed did to spread the congestion)
#   a2 = 1: check every word received (inside the timed part; 0 for timing)
#
# Halts with a0 = clocks from leaving the start barrier to leaving the end barrier (every cell has received
# everything and seen its sends leave). Traps 1 on a wrong word, 2 on a wrong length, 3 on a message from a cell that is not a partner.
        .include "msg.s"
        .include "sync.s"

        .bss
        .align 16
sendbuf: .space 4 * 16384
recvbuf: .space 4 * 16384
partners: .space 4 * 1024
handles: .space 4 * 1024
seen:    .space 4 * 1024                 # messages received from each cell

        .text
_start: mov  r64, a0                     # K
        mov  r65, a1                     # pattern
        mov  r66, a2                     # check
        call msg_init
        call sync_init
        rdcr r67, [CR_CELL_ID]
        rdcr r68, [CR_CELL_X]
        rdcr r69, [CR_CELL_Y]
        rdcr r70, [CR_ARRAY_W]
        rdcr r71, [CR_ARRAY_H]
        sll  r72, r67, 16                # the data: (id << 16) | i
        li   r73, sendbuf
        mov  r74, r64
1:      { stw r72, [r73] ; add r72, r72, 1 ; add r73, r73, 4 ; loop r74, 1b }
        li   r75, 0                      # partners found
        beqz r65, torus
        li   r11, 1
        beq  r65, r11, butterfly

# all-to-all: every other cell, shuffled (Fisher-Yates with a generator seeded by this cell's id)
        mul  r12, r70, r71
        li   r13, 0
2:      beq  r13, r67, 3f
        sll  r14, r75, 2
        stw  r13, [r14 + partners]
        add  r75, r75, 1
3:      add  r13, r13, 1
        bne  r13, r12, 2b
        mul  r15, r67, 2654435761
        add  r15, r15, 12345
        mov  r13, r75
4:      sub  r13, r13, 1
        beqz r13, go
        mul  r15, r15, 1103515245
        add  r15, r15, 12345
        srl  r16, r15, 8
        add  r17, r13, 1
        remu r16, r16, r17               # swap partners[r13] and partners[r16]
        sll  r17, r13, 2
        sll  r18, r16, 2
        ldw  r19, [r17 + partners]
        ldw  r20, [r18 + partners]
        stw  r20, [r17 + partners]
        stw  r19, [r18 + partners]
        jmp  4b

torus:  li   r13, 0                      # +X, -X, +Y, -Y
5:      mov  r14, r68
        mov  r15, r69
        li   r16, 0
        bne  r13, r16, 6f
        add  r14, r14, 1
6:      li   r16, 1
        bne  r13, r16, 7f
        add  r14, r14, r70
        sub  r14, r14, 1
7:      li   r16, 2
        bne  r13, r16, 8f
        add  r15, r15, 1
8:      li   r16, 3
        bne  r13, r16, 9f
        add  r15, r15, r71
        sub  r15, r15, 1
9:      remu r14, r14, r70
        remu r15, r15, r71
        mul  r16, r15, r70
        add  r16, r16, r14
        sll  r17, r75, 2
        stw  r16, [r17 + partners]
        add  r75, r75, 1
        add  r13, r13, 1
        li   r16, 4
        bne  r13, r16, 5b
        jmp  go

# butterfly: label = gray(x) | gray(y) << log2(W); partners differ from it in one bit
butterfly:
        li   r20, 0                      # log2(W)
10:     srl  r21, r70, r20
        li   r22, 1
        beq  r21, r22, 11f
        add  r20, r20, 1
        jmp  10b
11:     mul  r21, r70, r71               # bits: log2(W * H)
        li   r22, 0
12:     srl  r23, r21, r22
        li   r24, 1
        beq  r23, r24, 13f
        add  r22, r22, 1
        jmp  12b
13:     srl  r23, r68, 1                 # this cell's label
        xor  r23, r23, r68
        srl  r24, r69, 1
        xor  r24, r24, r69
        sll  r24, r24, r20
        or   r23, r23, r24
        li   r13, 0                      # dimension
14:     li   r24, 1
        sll  r24, r24, r13
        xor  r24, r23, r24               # the partner's label
        sub  r25, r70, 1
        and  r26, r24, r25               # its x: gray^-1 of the low bits
        srl  r27, r24, r20               # its y: gray^-1 of the high bits
        mov  r28, r26
        srl  r29, r28, 1
        xor  r28, r28, r29
        srl  r29, r28, 2
        xor  r28, r28, r29
        srl  r29, r28, 4
        xor  r28, r28, r29
        mov  r30, r27
        srl  r29, r30, 1
        xor  r30, r30, r29
        srl  r29, r30, 2
        xor  r30, r30, r29
        srl  r29, r30, 4
        xor  r30, r30, r29
        mul  r29, r30, r70
        add  r29, r29, r28
        sll  r26, r75, 2
        stw  r29, [r26 + partners]
        add  r75, r75, 1
        add  r13, r13, 1
        bne  r13, r22, 14b

go:     call sync_barrier
        rdcr r80, [CR_CLOCK_LO]
        li   r81, 0                      # every message out, in the background
15:     sll  r82, r81, 2
        ldw  a0, [r82 + partners]
        li   a1, sendbuf
        mov  a2, r64
        call msg_isend
        sll  r82, r81, 2
        stw  a0, [r82 + handles]
        add  r81, r81, 1
        bne  r81, r75, 15b
        mov  r83, r75                    # one message from each partner
16:     li   a0, recvbuf
        li   a1, 16384
        call msg_receive
        bne  a1, r64, bad_len
        sll  r84, a0, 2                  # count it against its source
        ldw  r85, [r84 + seen]
        add  r85, r85, 1
        stw  r85, [r84 + seen]
        beqz r66, 18f
        sll  r86, a0, 16
        li   r87, recvbuf
        mov  r88, r64
17:     ldw  r89, [r87]
        bne  r89, r86, bad_word
        { add r86, r86, 1 ; add r87, r87, 4 ; loop r88, 17b }
18:     loop r83, 16b
        li   r81, 0                      # and every send gone
19:     sll  r82, r81, 2
        ldw  a0, [r82 + handles]
        call msg_wait
        add  r81, r81, 1
        bne  r81, r75, 19b
        call sync_barrier                # the pattern is over when every cell is done
        rdcr r90, [CR_CLOCK_LO]
        # every partner sent exactly as many messages as it appears among the partners
        li   r81, 0
20:     sll  r82, r81, 2
        ldw  r84, [r82 + partners]
        sll  r84, r84, 2
        ldw  r85, [r84 + seen]
        sub  r85, r85, 1
        stw  r85, [r84 + seen]
        add  r81, r81, 1
        bne  r81, r75, 20b
        li   r81, 0
        mul  r12, r70, r71
21:     sll  r82, r81, 2
        ldw  r85, [r82 + seen]
        bnez r85, stranger
        add  r81, r81, 1
        bne  r81, r12, 21b
        sub  a0, r90, r80
        halt
bad_word: trap 1
bad_len:  trap 2
stranger: trap 3
