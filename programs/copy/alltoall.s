# xQy in all-to-all personalized communication over the whole array (the copy-transfer paper's AAPC, where
# every cell sends and receives at once), under ConSet: the communication compiler's phases for the
# all-to-all pattern (loaded at CONSET_TABLES), each streamed through the gates. For `iwarp bench copy`
# (docs/copy.md); the host lays out the memory and checks every word (tools/copy/copy_alltoall.c).
#
#   a0 = style: 0 buffer packing (gather xC1 of every block into SENDBUF, stream SENDBUF to RECVBUF
#        contiguously, scatter 1Cy), 1 chained (stream from the source with pattern x straight into the
#        destination with pattern y: xS0 || Nd || 0Ry), 2 the network alone (the same phases and segments,
#        words from a register and into a sum: no memory access, so the schedule and the links set the pace)
#   a1 = N words from each cell to each other cell
#   a2 = x, the read stride in words (0: indexed through RIDX), a3 = y, the write stride (0: WIDX)
#
# Layout for P cells, word k (0..N-1) of the block for cell d: with stride S < P the blocks lie one after
# the other (S = 1: contiguous), at SRC + 4 (d N S + k S); with S >= P they interleave (S = P: the cyclic
# layout of a transpose), at SRC + 4 (d + k S); indexed, the address is RIDX[d N + k]. The receiver puts
# word k from cell s at DST (or WIDX[s N + k]) likewise with y. Each cell halts with a0 = clocks from the
# start barrier to the end barrier.
        .include "conset.s"
        .include "copy.inc"

        .equ SRC,     0x100000
        .equ RIDX,    0x140000
        .equ WIDX,    0x180000
        .equ SENDBUF, 0x1c0000
        .equ RECVBUF, 0x200000
        .equ DST,     0x240000

        .text
_start: mov  r100, a0                # style
        mov  r96, a1                 # N
        sll  r101, a2, 2             # x in bytes (0: indexed)
        sll  r102, a3, 2             # y in bytes
        call conset_init
        rdcr r103, [CR_CELL_ID]
        rdcr r104, [CR_ARRAY_W]
        rdcr r105, [CR_ARRAY_H]
        mul  r97, r104, r105         # P
        sll  r98, r96, 2             # a block of N words, in bytes
        call conset_phases
        mov  r106, a0
        seq  r99, r100, 2            # the network alone
        call sync_barrier
        rdcr r107, [CR_CLOCK_LO]
        bnez r100, chained

# --- buffer packing: gather, stream contiguously, scatter -------------------------------------------------
        li   r108, 0                 # cell d
1:      beq  r108, r103, 2f
        mov  r61, r96
        mov  r62, r101
        mov  a0, r108
        mov  a1, r101
        li   a2, SRC
        li   a3, RIDX
        call block_start
        mov  r40, a0
        mov  r42, a0
        li   r63, 4
        mul  r41, r108, r98
        add  r41, r41, SENDBUF
        call copy
2:      add  r108, r108, 1
        bne  r108, r97, 1b
        li   r90, SENDBUF
        li   r91, 4
        li   r93, RECVBUF
        li   r94, 4
        call phases
        li   r108, 0                 # cell s
1:      beq  r108, r103, 2f
        mov  r61, r96
        li   r62, 4
        mul  r40, r108, r98
        add  r40, r40, RECVBUF
        mov  a0, r108
        mov  a1, r102
        li   a2, DST
        li   a3, WIDX
        call block_start
        mov  r41, a0
        mov  r43, a0
        mov  r63, r102
        call copy
2:      add  r108, r108, 1
        bne  r108, r97, 1b
        jmp  done

# --- chained: the patterns straight through the gates -----------------------------------------------------
chained:
        li   r90, SRC
        mov  r91, r101
        li   r93, DST
        mov  r94, r102
        call phases

done:   call sync_barrier
        rdcr r109, [CR_CLOCK_LO]
        sub  a0, r109, r107
        halt

# block_start(a0 = cell, a1 = stride in bytes (0: indexed), a2 = base, a3 = index base) -> a0 = where the
# cell's block starts: its first address, or for an indexed pattern its first index. Uses r11, r12.
block_start:
        bnez a1, 1f
        mul  r11, a0, r98            # indexed: N indices a block
        add  a0, a3, r11
        ret
1:      srl  r12, a1, 2              # the stride in words
        bgeu r12, r97, 2f
        mul  r11, a0, r98            # blocks one after the other: d N S words
        mul  r11, r11, r12
        add  a0, a2, r11
        ret
2:      sll  r11, a0, 2              # interleaved: d words in
        add  a0, a2, r11
        ret

# phases(): every phase of the tables, switched to and streamed, sends with r91 (0: indexed) from r90 (or
# the indices at RIDX), receives with r94 from r93 (or WIDX).
phases:
        mov  r110, ra
        li   r111, 0
        beqz r106, 9f
1:      mov  a0, r111
        call conset_instantiate
        mov  a0, r111
        call stream
        add  r111, r111, 1
        bne  r111, r106, 1b
9:      jr   r110

# stream(a0 = phase): the phase's segments, as conset_transfer streams them, with the patterns of phases().
# A segment names the channel of a send and of a receive that start with it (0: the one going goes on);
# the peer of that channel's entry says which block.
stream:
        mov  r88, ra
        call conset_lists
        { mov r80, a0 ; mov r81, a2 }          # sends, count
        { mov r82, a1 ; mov r83, a3 }          # receives, count
        { mov r84, a4 ; mov r85, a5 }          # segments, count
.seg:   beqz r85, .done
        { ldw r29, [r84 + SEG_CHANNELS] ; ldw r18, [r84 + SEG_WORDS] ; sub r85, r85, 1 }
        { ldw r25, [r84 + SEG_MODE] ; add r84, r84, SEG_SIZE }
        { and r86, r29, 0xff ; srl r87, r29, 8 }
        beqz r86, 2f
        wrcr r86, [COA_GATE_OUT0]
        mov  a0, r80
        mov  a1, r81
        mov  a2, r86
        call peer_of
        mov  a1, r91
        mov  a2, r90
        li   a3, RIDX
        call block_start
        mov  r16, a0
2:      beqz r87, 3f
        wrcr r87, [COA_GATE_IN0]
        mov  a0, r82
        mov  a1, r83
        mov  a2, r87
        call peer_of
        mov  a1, r94
        mov  a2, r93
        li   a3, WIDX
        call block_start
        mov  r17, a0
3:      li   r11, SEG_BOTH
        beq  r25, r11, .both
        li   r11, SEG_SEND
        bne  r25, r11, .recv
        call send_only
        jmp  .seg
.recv:  call recv_only
        jmp  .seg
.both:  # As conset_transfer: the send runs CONSET_LOOKAHEAD words ahead of the receive.
        ldw  r13, [conset_lookahead]
        bleu r13, r18, 1f
        mov  r13, r18
1:      sub  r89, r18, r13           # words sent and received together
        mov  r79, r13                # receives left at the end
        mov  r18, r13
        call send_only
        mov  r18, r89
        call both
        mov  r18, r79
        call recv_only
        jmp  .seg
.done:  li   r11, COA_NONE
        wrcr r11, [COA_GATE_OUT0]
        wrcr r11, [COA_GATE_IN0]
        jr   r88

# peer_of(a0 = entries, a1 = count, a2 = channel) -> a0 = the peer of the entry on that channel.
peer_of:
1:      ldw  r11, [a0 + XE_CHANNEL]
        beq  r11, a2, 2f
        add  a0, a0, XE_SIZE
        loop a1, 1b
        trap 0x4350                  # a segment's channel is in no entry: the tables are wrong
2:      ldw  a0, [a0 + XE_PEER]
        ret

# r18 words (0 is none) out of r16 (stride r91; 0: r16 walks the indices; r99: from a register).
send_only:
        beqz r18, 9f
        bnez r99, 3f
        beqz r91, 1f
2:      { ldw go0, [r16] ; add r16, r16, r91 ; loop r18, 2b }
        ret
1:      { ldw r10, [r16] ; add r16, r16, 4 }
        { ldw go0, [r10] ; loop r18, 1b }
9:      ret
3:      { or go0, r103, zero ; loop r18, 3b }
        ret

# r18 words into r17 (stride r94; 0: r17 walks the indices; r99: into a sum).
recv_only:
        beqz r18, 9f
        bnez r99, 3f
        beqz r94, 1f
2:      { stw gi0, [r17] ; add r17, r17, r94 ; loop r18, 2b }
        ret
1:      { ldw r11, [r17] ; add r17, r17, 4 }
        { stw gi0, [r11] ; loop r18, 1b }
9:      ret
3:      { add r12, r12, gi0 ; loop r18, 3b }
        ret

# r18 words out and r18 in, a word each way a step: memory accesses per pair 2 (strided both), 3 (one side
# indexed: unrolled by two, three bundles of two accesses), 4 (both indexed).
both:   beqz r18, 9f
        bnez r99, 8f
        beqz r91, 5f
        beqz r94, 3f
1:      { ldw go0, [r16] ; stw gi0, [r17] ; add r16, r16, r91 ; add r17, r17, r94 ; loop r18, 1b }
9:      ret
3:      and  r19, r18, 1             # strided out, indexed in
        beqz r19, 4f
        { ldw r10, [r17] ; add r17, r17, 4 }
        { ldw go0, [r16] ; stw gi0, [r10] ; add r16, r16, r91 }
4:      srl  r19, r18, 1
        beqz r19, 9b
2:      { ldw r10, [r17] ; ldw r11, [r17 + 4] ; add r17, r17, 8 }
        { ldw go0, [r16] ; stw gi0, [r10] ; add r16, r16, r91 }
        { ldw go0, [r16] ; stw gi0, [r11] ; add r16, r16, r91 ; loop r19, 2b }
        ret
5:      beqz r94, 7f
        and  r19, r18, 1             # indexed out, strided in
        beqz r19, 6f
        { ldw r10, [r16] ; add r16, r16, 4 }
        { ldw go0, [r10] ; stw gi0, [r17] ; add r17, r17, r94 }
6:      srl  r19, r18, 1
        beqz r19, 9b
2:      { ldw r10, [r16] ; ldw r11, [r16 + 4] ; add r16, r16, 8 }
        { ldw go0, [r10] ; stw gi0, [r17] ; add r17, r17, r94 }
        { ldw go0, [r11] ; stw gi0, [r17] ; add r17, r17, r94 ; loop r19, 2b }
        ret
7:      { ldw r10, [r16] ; ldw r11, [r17] ; add r16, r16, 4 ; add r17, r17, 4 }   # both indexed
        { ldw go0, [r10] ; stw gi0, [r11] ; loop r18, 7b }
        ret
8:      { or go0, r103, zero ; add r12, r12, gi0 ; loop r18, 8b }   # the network alone
        ret
