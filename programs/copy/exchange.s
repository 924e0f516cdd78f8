# A personalized exchange over the whole array under ConSet, for `iwarp bench copy` (docs/copy.md): every
# cell sends each other cell the words its send descriptors say, in the compiler's phases (the connection
# set of the exchange, loaded at CONSET_TABLES), each streamed through the gates. xQy all-to-all, the
# transpose, the sparse gather and the block-cyclic redistribution are all such exchanges; the host lays
# out the memory and the descriptors and checks every word (tools/copy/copy_exchange.c).
#
#   a0 = style: 0 buffer packing (gather every block into SENDBUF, stream SENDBUF to RECVBUF contiguously,
#        scatter), 1 chained (stream from the source pattern straight into the destination pattern), 2 the
#        network alone (the same phases and segments, words from a register and into a sum: no memory
#        access, so the schedule and the links set the pace)
#
# A descriptor (16 bytes) for each cell d: the first address of the words for (or from) d, or with stride
# 0 the address of their first index (the index array holds addresses); the stride in bytes; the count;
# the block's offset in SENDBUF (RECVBUF). The cell's own words are a local copy in every style but the
# network alone. Each cell halts with a0 = clocks from the start barrier to the end barrier.
        .include "conset.s"
        .include "copy.inc"

        .equ DESC_SEND, 0x90000
        .equ DESC_RECV, 0x98000
        .equ SENDBUF,   0x100000
        .equ RECVBUF,   0x140000
        .equ D_START, 0
        .equ D_STRIDE, 4
        .equ D_COUNT, 8
        .equ D_OFFSET, 12

        .text
_start: mov  r100, a0                # style
        call conset_init
        rdcr r103, [CR_CELL_ID]
        rdcr r104, [CR_ARRAY_W]
        rdcr r105, [CR_ARRAY_H]
        mul  r97, r104, r105         # P
        call conset_phases
        mov  r106, a0
        seq  r99, r100, 2            # the network alone
        seq  r78, r100, 0            # buffer packing
        call sync_barrier
        rdcr r107, [CR_CLOCK_LO]
        bnez r99, 1f
        sll  r11, r103, 4            # the cell's own words
        add  a0, r11, DESC_SEND
        add  a1, r11, DESC_RECV
        call local_block
1:      beqz r78, 5f

# --- buffer packing: gather, stream contiguously, scatter -------------------------------------------------
        li   r108, 0                 # cell d
1:      beq  r108, r103, 2f
        sll  r11, r108, 4
        add  r11, r11, DESC_SEND
        ldw  r61, [r11 + D_COUNT]
        beqz r61, 2f
        call from_desc
        ldw  r41, [r11 + D_OFFSET]
        add  r41, r41, SENDBUF
        li   r63, 4
        call copy
2:      add  r108, r108, 1
        bne  r108, r97, 1b
        call phases
        li   r108, 0                 # cell s
1:      beq  r108, r103, 2f
        sll  r11, r108, 4
        add  r11, r11, DESC_RECV
        ldw  r61, [r11 + D_COUNT]
        beqz r61, 2f
        call to_desc
        ldw  r40, [r11 + D_OFFSET]
        add  r40, r40, RECVBUF
        li   r62, 4
        call copy
2:      add  r108, r108, 1
        bne  r108, r97, 1b
        jmp  6f

# --- chained, or the network alone ---------------------------------------------------------------------
5:      call phases
6:      call sync_barrier
        rdcr r109, [CR_CLOCK_LO]
        sub  a0, r109, r107
        halt

# local_block(a0 = send descriptor, a1 = receive descriptor): the cell's words to itself, a local copy.
local_block:
        mov  r77, ra
        mov  r11, a0
        ldw  r61, [r11 + D_COUNT]
        beqz r61, 1f
        call from_desc
        mov  r11, a1
        call to_desc
        call copy
1:      jr   r77

# from_desc (r11 = descriptor): copy()'s source: r40 or r42 = its start, r62 = its stride.
from_desc:
        ldw  r62, [r11 + D_STRIDE]
        ldw  r40, [r11 + D_START]
        mov  r42, r40
        ret
# to_desc (r11 = descriptor): copy()'s destination: r41 or r43, r63.
to_desc:
        ldw  r63, [r11 + D_STRIDE]
        ldw  r41, [r11 + D_START]
        mov  r43, r41
        ret

# phases(): every phase of the tables, switched to and streamed.
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

# stream(a0 = phase): the phase's segments, as conset_transfer streams them. A segment names the channel of
# a send and of a receive that start with it (0: the one going goes on); the peer of that channel's entry
# says which descriptor: the send goes on from r16 with stride r91 (0: r16 walks the indices), the receive
# into r17 with r94; buffer packing streams SENDBUF to RECVBUF contiguously.
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
        sll  r11, a0, 4
        add  r11, r11, DESC_SEND
        li   a1, SENDBUF
        call stream_start
        mov  r16, a0
        mov  r91, a1
2:      beqz r87, 3f
        wrcr r87, [COA_GATE_IN0]
        mov  a0, r82
        mov  a1, r83
        mov  a2, r87
        call peer_of
        sll  r11, a0, 4
        add  r11, r11, DESC_RECV
        li   a1, RECVBUF
        call stream_start
        mov  r17, a0
        mov  r94, a1
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

# stream_start(r11 = descriptor, a1 = buffer) -> a0 = where the stream starts, a1 = its stride.
stream_start:
        beqz r78, 1f
        ldw  a0, [r11 + D_OFFSET]
        add  a0, a0, a1
        li   a1, 4
        ret
1:      ldw  a0, [r11 + D_START]
        ldw  a1, [r11 + D_STRIDE]
        ret

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
