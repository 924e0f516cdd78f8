# Collective communication over wormhole message passing (docs/collectives.md; the buffered collectives paper,
# on the Fujitsu AP3000): binomial-tree broadcast and reduce, ring multi-broadcast
# (spread) and multi-reduce, the pipelined (increasing ring) broadcast, and a buffered point-to-point send,
# on M x N matrices of fp32 words with a row stride Lda >= N (row-major; not contiguous when Lda > N, M > 1).
#
# Two implementations, chosen by coll_config:
#   naive (0):   the whole message is copied into a buffer and sent as one message; a receiver takes it whole
#                into a buffer, then copies (or adds) it into place.
#   chunked (1): messages of a fixed number of words; each chunk is sent as soon as it is ready (straight from
#                the matrix when the matrix is contiguous, else copied once into the buffer), and received
#                straight from the gate into place (a reduce adds as it reads). A node of a tree or a ring
#                forwards each chunk as soon as it has it.
#
# Usage: msg_init (runtime/msg.s), then coll_config, coll_group, coll_shape, then the operations. Every cell of a
# group calls the same operations in the same order. Messages of one tree operation may come from several
# cells: a program separates two tree operations by a barrier (sync_barrier), so that a message of the next
# does not reach a cell still in this one; ring and pipelined operations follow each other freely (a cell's
# messages all come from its left neighbour, in order). Sends still under way when an operation returns are
# kept by the runtime; coll_flush waits for them (call it before halting).
#
# Calling convention as runtime/msg.s (docs/runtime.md); every function here uses a0-a7 and r10-r31.

        .ifndef COLL_S
        .equ COLL_S, 1

        .include "msg.s"

        .equ COLL_HMAX, 32                # sends kept at once (msg.s allows 64 messages outstanding)
        .equ COLL_MAX_KIDS, 16            # children in a binomial tree of up to 2^16 cells

        # traps (docs/collectives.md)
        .equ TRAP_COLL_SOURCE, 0x4301     # a message from a cell the operation does not expect
        .equ TRAP_COLL_LENGTH, 0x4302     # a message of another length than the chunk it should be
        .equ TRAP_COLL_BUFFER, 0x4303     # the buffers given to coll_config cannot hold what the operation needs
        .equ TRAP_COLL_SHAPE,  0x4304     # a shape or group coll_shape / coll_group cannot take

        .data
        .align 8
coll_mode:      .word 0                   # 0 naive, 1 chunked
coll_chunk:     .word 0                   # words a chunk (chunked)
coll_work:      .word 0                   # the buffers: [coll_work, coll_work_end)
coll_work_end:  .word 0
coll_base:      .word 0                   # the group: cell id of rank 0, cells, id step, this cell's rank
coll_size:      .word 0
coll_step:      .word 0
coll_rank:      .word 0
coll_n:         .word 0                   # the walk's row: n and lda (a contiguous matrix is one long row)
coll_lda:       .word 0
coll_bn:        .word 0                   # the block's n as given (a multi pattern's block b is b n words in)
coll_words:     .word 0                   # m n: words a message of the whole block
coll_contig:    .word 0                   # 1 when the block's words are contiguous
coll_nchunks:   .word 0
coll_msglen:    .word 0                   # words a message (the chunk, or the whole block when naive)
coll_pb_flip:   .word 0                   # coll_pbcast's buffer, alternating call by call
coll_hhead:     .word 0                   # the kept sends: a ring of handles
coll_hcount:    .word 0

        .bss
        .align 8
coll_hbuf:      .space COLL_HMAX * 4
coll_kids:      .space COLL_MAX_KIDS * 4  # the children's cell ids, the largest subtree first
coll_kcount:    .space COLL_MAX_KIDS * 4  # chunks received from each (chunked reduce)

# Saves ra and r32-r55 (the operations keep their state there).
        .macro coll_enter
        sub  sp, sp, 104
        stw  ra, [sp]
        std  r32, [sp + 8]
        std  r34, [sp + 16]
        std  r36, [sp + 24]
        std  r38, [sp + 32]
        std  r40, [sp + 40]
        std  r42, [sp + 48]
        std  r44, [sp + 56]
        std  r46, [sp + 64]
        std  r48, [sp + 72]
        std  r50, [sp + 80]
        std  r52, [sp + 88]
        std  r54, [sp + 96]
        .endm

        .macro coll_leave
        ldd  r54, [sp + 96]
        ldd  r52, [sp + 88]
        ldd  r50, [sp + 80]
        ldd  r48, [sp + 72]
        ldd  r46, [sp + 64]
        ldd  r44, [sp + 56]
        ldd  r42, [sp + 48]
        ldd  r40, [sp + 40]
        ldd  r38, [sp + 32]
        ldd  r36, [sp + 24]
        ldd  r34, [sp + 16]
        ldd  r32, [sp + 8]
        ldw  ra, [sp]
        add  sp, sp, 104
        ret
        .endm

# Chunk k (reg) of the message: first word (first) and words (len). Uses tmp.
        .macro coll_chunk_at k, first, len, tmp
        ldw  \tmp, [coll_msglen]
        mul  \first, \k, \tmp
        ldw  \len, [coll_words]
        sub  \len, \len, \first
        bgeu \tmp, \len, 98f
        mov  \len, \tmp
98:
        .endm

        .text

# coll_config(a0 = 0 naive or 1 chunked, a1 = words a chunk, a2 = buffers' first byte, a3 = past their last).
coll_config:
        stw  a0, [coll_mode]
        stw  a1, [coll_chunk]
        stw  a2, [coll_work]
        stw  a3, [coll_work_end]
        beqz a1, coll_bad_shape
        ret

# coll_group(a0 = cell id of rank 0, a1 = cells, a2 = id step between ranks, a3 = this cell's rank).
coll_group:
        li   r11, 2
        bltu a1, r11, coll_bad_shape
        bgeu a3, a1, coll_bad_shape
        stw  a0, [coll_base]
        stw  a1, [coll_size]
        stw  a2, [coll_step]
        stw  a3, [coll_rank]
        ret

# coll_shape(a0 = m rows, a1 = n words a row, a2 = lda words between rows): the block every operation moves
# (the multi patterns' matrix is P such blocks side by side, block b at b n words from the first).
coll_shape:
        beqz a0, coll_bad_shape
        beqz a1, coll_bad_shape
        bltu a2, a1, coll_bad_shape
        mul  r11, a0, a1
        li   r12, MSG_MAX_LEN
        bgtu r11, r12, coll_bad_shape
        stw  r11, [coll_words]
        stw  a1, [coll_bn]
        stw  a1, [coll_n]
        stw  a2, [coll_lda]
        li   r12, 1
        seq  r13, a0, 1                   # one row, or rows that follow each other: one long row
        seq  r14, a1, a2
        or   r13, r13, r14
        stw  r13, [coll_contig]
        beqz r13, 1f
        stw  r11, [coll_n]
        stw  r11, [coll_lda]
1:      ldw  r14, [coll_mode]             # a naive message is the whole block
        mov  r15, r11
        beqz r14, 2f
        ldw  r15, [coll_chunk]
        bgeu r11, r15, 2f
        mov  r15, r11
2:      stw  r15, [coll_msglen]
        add  r16, r11, r15                # chunks, rounded up
        sub  r16, r16, 1
        divu r16, r16, r15
        stw  r16, [coll_nchunks]
        # the buffers must hold three blocks (the naive ring: two to send, one to receive)
        ldw  r17, [coll_work]
        ldw  r18, [coll_work_end]
        sub  r18, r18, r17
        mul  r19, r11, 12
        bgtu r19, r18, coll_bad_buffer
        ret

# coll_flush(): until every send the runtime keeps has left.
coll_flush:
        li   a0, 0
        jmp  coll_hwait

# --- the kept sends ---------------------------------------------------------------------------------------------

# coll_isend(a0 = cell, a1 = address, a2 = words): msg_isend, the handle kept (when COLL_HMAX are kept, the
# oldest is waited for first). Uses r11-r30.
coll_isend:
        mov  r30, ra
        call msg_isend
        call coll_hpush
        jr   r30

# coll_to_kids(a1 = address, a2 = words, a3 = children): coll_isend to each cell of coll_kids. Uses a0-a7,
# r11-r30.
coll_to_kids:
        mov  a4, ra
        mov  a5, a1
        mov  a6, a2
        li   a7, 0
1:      beq  a7, a3, 2f
        sll  r11, a7, 2
        ldw  a0, [r11 + coll_kids]
        mov  a1, a5
        mov  a2, a6
        call coll_isend
        add  a7, a7, 1
        jmp  1b
2:      jr   a4

# coll_hpush(a0 = handle). Uses r11-r13, r20-r29.
coll_hpush:
        mov  r26, ra
        mov  r27, a0
        ldw  r28, [coll_hcount]
        li   r29, COLL_HMAX
        bne  r28, r29, 1f
        call coll_hpop_wait
1:      ldw  r28, [coll_hcount]
        ldw  r29, [coll_hhead]
        add  r29, r29, r28
        and  r29, r29, COLL_HMAX - 1
        sll  r29, r29, 2
        stw  r27, [r29 + coll_hbuf]
        add  r28, r28, 1
        stw  r28, [coll_hcount]
        jr   r26

# coll_hpop_wait(): waits for the oldest kept send and forgets it. Uses r11-r13, r20-r25.
coll_hpop_wait:
        mov  r25, ra
        ldw  r22, [coll_hhead]
        sll  r23, r22, 2
        ldw  a0, [r23 + coll_hbuf]
        call msg_wait
        ldw  r22, [coll_hhead]
        add  r22, r22, 1
        and  r22, r22, COLL_HMAX - 1
        stw  r22, [coll_hhead]
        ldw  r22, [coll_hcount]
        sub  r22, r22, 1
        stw  r22, [coll_hcount]
        jr   r25

# coll_hwait(a0 = n): until at most n sends are kept (the oldest leave first). Uses r11-r13, r20-r29.
coll_hwait:
        mov  r26, ra
        mov  r27, a0
1:      ldw  r28, [coll_hcount]
        bgeu r27, r28, 2f
        call coll_hpop_wait
        jmp  1b
2:      jr   r26

# --- receiving --------------------------------------------------------------------------------------------------

# coll_take(a0 = the cell it must come from, or -1 for any): waits for the oldest message that has arrived and
# binds gi0 to it, past its info word. a0 = its source, a1 = its words. Uses r12-r16, r22.
coll_take:
        mov  r22, a0
        msg_take_arrival r12, r14, r13
        srl  a0, r14, 20
        li   r16, MSG_MAX_LEN
        and  a1, r14, r16
        li   r15, -1
        beq  r22, r15, 1f
        bne  a0, r22, coll_bad_source
1:      ret

# coll_release(a0 = source): the message's words are all read: the gate lets go of its channel (the agent frees
# the channel at the trailer).
coll_release:
        li   r13, COA_NONE
        wrcr r13, [COA_GATE_IN0]
        li   r13, MARK_MSG_RECEIVE
        or   r13, r13, a0
        wrcr r13, [CR_MARK]
        ret

# coll_receive_whole(a0 = the cell it must come from, or -1 for any, a1 = buffer) -> a0 = source: the naive
# receive of one whole block. Uses r11-r31.
coll_receive_whole:
        mov  r31, ra
        mov  r24, a0
        mov  a0, a1
        ldw  a1, [coll_words]
        mov  r25, a1
        call msg_receive
        bne  a1, r25, coll_bad_length
        li   r26, -1
        beq  r24, r26, 1f
        bne  a0, r24, coll_bad_source
1:      jr   r31

# coll_kid_index(a0 = cell, a1 = children) -> a0 = its index in coll_kids; traps when it is not a child.
coll_kid_index:
        li   r11, 0
1:      beq  r11, a1, coll_bad_source
        sll  r12, r11, 2
        ldw  r12, [r12 + coll_kids]
        beq  r12, a0, 2f
        add  r11, r11, 1
        jmp  1b
2:      mov  a0, r11
        ret

# --- walking a matrix -------------------------------------------------------------------------------------------

# coll_walk(a0 = matrix, a1 = first word, a2 = words, a3 = kernel, a4 = buffer): calls the kernel on each row
# segment of the words first .. first + words - 1 (row-major) of the block at a0, with r20 = the segment's
# address, r21 = its words (at least 1), r22 = the buffer (each kernel leaves it past what it used). Uses
# a1, a2, r11-r29; the kernels use r20-r29 only.
coll_walk:
        beqz a2, 9f
        mov  r16, ra
        ldw  r12, [coll_n]
        ldw  r13, [coll_lda]
        divu r14, a1, r12                 # row
        remu r15, a1, r12                 # column
        mul  r17, r14, r13
        sll  r17, r17, 2
        add  r11, a0, r17                 # the row's first word
        sll  r19, r13, 2
        mov  r22, a4
1:      sll  r20, r15, 2
        add  r20, r20, r11
        sub  r21, r12, r15                # what is left of the row, or of the words
        bgeu a2, r21, 2f
        mov  r21, a2
2:      sub  a2, a2, r21
        callr a3
        add  r11, r11, r19
        li   r15, 0
        bnez a2, 1b
        mov  ra, r16
9:      ret

# The kernels (coll_walk's contract). Loads may read one word past a segment; they never store there.

# k_pack: the segment into the buffer (2 clocks a word, the memory busy on both).
k_pack: sub  r23, r21, 1
        { ldw r24, [r20] ; add r20, r20, 4 }
        beqz r23, 2f
1:      { ldw r24, [r20] ; stw r24, [r22] ; add r20, r20, 4 ; add r22, r22, 4 ; loop r23, 1b }
2:      { stw r24, [r22] ; add r22, r22, 4 }
        ret

# k_unpack: the buffer into the segment.
k_unpack:
        sub  r23, r21, 1
        { ldw r24, [r22] ; add r22, r22, 4 }
        beqz r23, 2f
1:      { ldw r24, [r22] ; stw r24, [r20] ; add r20, r20, 4 ; add r22, r22, 4 ; loop r23, 1b }
2:      stw  r24, [r20]
        ret

# k_gate: words from gi0 into the segment (2 clocks a word, the link's rate; the memory free every other clock).
k_gate:
1:      { stw gi0, [r20] ; add r20, r20, 4 ; loop r21, 1b }
        ret

# k_gate2: words from gi0 into the segment and the buffer (2 clocks a word, the memory busy on both). Two
# words a turn, so that each bundle has room for its pointer's add.
k_gate2:
        and  r23, r21, 1
        beqz r23, 1f
        mov  r24, gi0                     # an odd word first
        { stw r24, [r20] ; stw r24, [r22] ; add r20, r20, 4 ; add r22, r22, 4 }
1:      srl  r23, r21, 1
        beqz r23, 3f
        mov  r24, gi0
        sub  r23, r23, 1
        beqz r23, 4f
2:      { stw r24, [r20] ; stw r24, [r22] ; mov r25, gi0 ; add r20, r20, 8 }
        { stw r25, [r20 - 4] ; stw r25, [r22 + 4] ; mov r24, gi0 ; add r22, r22, 8 ; loop r23, 2b }
4:      { stw r24, [r20] ; stw r24, [r22] ; mov r25, gi0 ; add r20, r20, 8 }
        { stw r25, [r20 - 4] ; stw r25, [r22 + 4] ; add r22, r22, 8 }
3:      ret

# k_gate_add: each word of the segment plus a word from gi0, in place (2 clocks a word).
k_gate_add:
        ldw  r24, [r20]
        { fadd.s r25, r24, gi0 ; ldw r24, [r20 + 4] ; add r20, r20, 4 ; sub r23, r21, 1 }
        beqz r23, 2f
1:      { fadd.s r25, r24, gi0 ; ldw r24, [r20 + 4] ; stw r25, [r20 - 4] ; add r20, r20, 4 ; loop r23, 1b }
2:      stw  r25, [r20 - 4]
        ret

# k_gate_add_buf: each word of the segment plus a word from gi0, into the buffer (2 clocks a word).
k_gate_add_buf:
        ldw  r24, [r20]
        { fadd.s r25, r24, gi0 ; ldw r24, [r20 + 4] ; add r20, r20, 4 ; sub r23, r21, 1 }
        beqz r23, 2f
1:      { fadd.s r25, r24, gi0 ; ldw r24, [r20 + 4] ; stw r25, [r22] ; add r20, r20, 4 ; add r22, r22, 4 ; loop r23, 1b }
2:      { stw r25, [r22] ; add r22, r22, 4 }
        ret

# k_add_buf: the buffer's words added into the segment, word by word (4 clocks a word: two loads, a store).
k_add_buf:
        { ldw r24, [r20] ; ldw r25, [r22] }
1:      { fadd.s r26, r24, r25 ; ldw r24, [r20 + 4] ; ldw r25, [r22 + 4] }
        { stw r26, [r20] ; add r20, r20, 4 ; add r22, r22, 4 ; loop r21, 1b }
        ret

# --- ranks, trees, rings -----------------------------------------------------------------------------------------

# coll_cell(a0 = rank, 0 .. 2P - 1) -> a0 = its cell id. Uses r11-r13.
coll_cell:
        ldw  r11, [coll_size]
        bltu a0, r11, 1f
        sub  a0, a0, r11
1:      ldw  r12, [coll_step]
        mul  a0, a0, r12
        ldw  r13, [coll_base]
        add  a0, a0, r13
        ret

# coll_tree(a0 = root rank) -> a0 = parent's cell id (-1 at the root), a1 = children (their cell ids in
# coll_kids, the largest subtree first). The binomial tree over ranks relative to the root: v's parent is v
# without its highest bit, its children v + 2^k for every 2^k above v's highest bit. Uses r11-r19, r31.
coll_tree:
        mov  r31, ra
        ldw  r17, [coll_size]
        ldw  r18, [coll_rank]
        sub  r18, r18, a0                 # v, the rank relative to the root
        bge  r18, zero, 1f
        add  r18, r18, r17
1:      mov  r19, a0                      # the root
        li   r14, 1                       # the least power of two above v
2:      bgtu r14, r18, 3f
        sll  r14, r14, 1
        jmp  2b
3:      li   a0, -1
        beqz r18, 4f
        srl  r15, r14, 1
        sub  a0, r18, r15                 # the parent, relative
        add  a0, a0, r19
        call coll_cell
4:      mov  r10, a0
        # the children, from the largest subtree (the farthest) to the nearest
        mov  r15, r14                     # the greatest power of two with v + 2^k < P
5:      sll  r16, r15, 1
        add  r16, r16, r18
        bgeu r16, r17, 6f
        sll  r15, r15, 1
        jmp  5b
6:      li   a1, 0
7:      add  r16, r18, r15
        bgeu r16, r17, 8f                 # also ends the walk when v + 2^k is past P
        bltu r15, r14, 8f
        add  a0, r16, r19
        call coll_cell
        sll  r16, a1, 2
        stw  a0, [r16 + coll_kids]
        add  a1, a1, 1
8:      srl  r15, r15, 1
        bgeu r15, r14, 7b
        mov  a0, r10
        jr   r31

# coll_neighbours() -> a0 = the cell on the right (rank + 1), a1 = on the left (rank - 1), around the group.
coll_neighbours:
        mov  r31, ra
        ldw  r17, [coll_rank]
        ldw  r18, [coll_size]
        add  a0, r17, r18
        sub  a0, a0, 1
        call coll_cell
        mov  r10, a0
        add  a0, r17, 1
        call coll_cell
        mov  a1, r10
        jr   r31

# coll_block(a0 = matrix, a1 = block, any integer) -> a0 = the block's first word (block taken modulo P).
coll_block:
        ldw  r11, [coll_size]
1:      bge  a1, zero, 2f
        add  a1, a1, r11
        jmp  1b
2:      bltu a1, r11, 3f
        sub  a1, a1, r11
        jmp  2b
3:      ldw  r12, [coll_bn]
        mul  r12, r12, a1
        sll  r12, r12, 2
        add  a0, a0, r12
        ret

# coll_source(a0 = block, a1 = chunk k, a2 = buffer) -> a0 = where chunk k of the block can be sent from: the
# block itself when it is contiguous, else the buffer at the chunk's place after copying the chunk there;
# a2 = the chunk's words. Uses a1-a7, r11-r29.
coll_source:
        mov  r10, ra
        mov  a4, a2
        coll_chunk_at a1, r11, a2, r12
        mov  a5, a2
        sll  r12, r11, 2
        ldw  r13, [coll_contig]
        beqz r13, 1f
        add  a0, a0, r12
        jr   r10
1:      add  a4, a4, r12                  # the chunk's place in the buffer
        mov  a1, r11
        li   a3, k_pack
        call coll_walk
        mov  a0, a4
        mov  a2, a5
        jr   r10

# --- the operations ------------------------------------------------------------------------------------------

# coll_bcast(a0 = block, a1 = root rank): the root's block into every cell's, along the binomial tree.
coll_bcast:
        coll_enter
        mov  r32, a0
        mov  a0, a1
        call coll_tree
        mov  r36, a0                      # the parent (-1 at the root)
        mov  r37, a1                      # children
        ldw  r38, [coll_work]
        ldw  r34, [coll_nchunks]
        ldw  r33, [coll_words]
        ldw  r11, [coll_mode]
        bnez r11, .coll_bc_chunked
        # naive: the whole block packed (root) or received into the buffer, sent on to each child, copied out
        li   r11, -1
        bne  r36, r11, 1f
        mov  a0, r32
        li   a1, 0
        mov  a2, r33
        li   a3, k_pack
        mov  a4, r38
        call coll_walk
        jmp  2f
1:      mov  a0, r36
        mov  a1, r38
        call coll_receive_whole
2:      mov  a1, r38
        mov  a2, r33
        mov  a3, r37
        call coll_to_kids
        li   r11, -1
        beq  r36, r11, .coll_bc_flush
        mov  a0, r32
        li   a1, 0
        mov  a2, r33
        li   a3, k_unpack
        mov  a4, r38
        call coll_walk
        jmp  .coll_bc_flush
        # chunked: each chunk on to the children as soon as this cell has it
.coll_bc_chunked:
        li   r35, 0                       # chunk k
.coll_bc_next:
        li   r11, -1
        bne  r36, r11, 1f
        mov  a0, r32
        mov  a1, r35
        mov  a2, r38
        call coll_source
        mov  r39, a0
        mov  r40, a2
        jmp  .coll_bc_kids
1:      mov  a0, r36
        call coll_take
        mov  r42, a0
        coll_chunk_at r35, r41, r40, r11
        bne  a1, r40, coll_bad_length
        li   a3, k_gate
        sll  r39, r41, 2                  # forwarded from the block itself when it is contiguous
        add  r39, r39, r32
        beqz r37, 2f                      # a leaf only keeps it
        ldw  r11, [coll_contig]
        bnez r11, 2f
        li   a3, k_gate2                  # else from the buffer, stored there as it is read
        sll  r39, r41, 2
        add  r39, r39, r38
2:      mov  a0, r32
        mov  a1, r41
        mov  a2, r40
        mov  a4, r39
        call coll_walk
        mov  a0, r42
        call coll_release
.coll_bc_kids:
        mov  a1, r39
        mov  a2, r40
        mov  a3, r37
        call coll_to_kids
        add  r35, r35, 1
        bne  r35, r34, .coll_bc_next
.coll_bc_flush:
        li   a0, 0
        call coll_hwait
        coll_leave

# coll_reduce(a0 = block, a1 = root rank): the sum (fp32) of every cell's block into the root's, along the
# binomial tree. The other cells' blocks are left as they were.
coll_reduce:
        coll_enter
        mov  r32, a0
        mov  a0, a1
        call coll_tree
        mov  r36, a0
        mov  r37, a1
        ldw  r38, [coll_work]
        ldw  r34, [coll_nchunks]
        ldw  r33, [coll_words]
        ldw  r11, [coll_mode]
        bnez r11, .coll_rd_chunked
        # naive: the own block packed, each child's whole message added to it, then sent up or copied out
        mov  a0, r32
        li   a1, 0
        mov  a2, r33
        li   a3, k_pack
        mov  a4, r38
        call coll_walk
        sll  r39, r33, 2
        add  r39, r39, r38                # where a child's message lands
        mov  r43, r37
        beqz r43, 2f
1:      li   a0, -1
        mov  a1, r39
        call coll_receive_whole
        mov  a1, r37
        call coll_kid_index
        mov  r20, r38
        mov  r21, r33
        mov  r22, r39
        call k_add_buf
        sub  r43, r43, 1
        bnez r43, 1b
2:      li   r11, -1
        beq  r36, r11, 3f
        mov  a0, r36
        mov  a1, r38
        mov  a2, r33
        call coll_isend
        jmp  .coll_rd_flush
3:      mov  a0, r32
        li   a1, 0
        mov  a2, r33
        li   a3, k_unpack
        mov  a4, r38
        call coll_walk
        jmp  .coll_rd_flush
        # chunked: a leaf sends each chunk as soon as it is ready; the others add each child's chunk from the
        # gate as it arrives (the root into its block, the others into the buffer, over their own chunk) and
        # send a chunk up as soon as every child has given it
.coll_rd_chunked:
        li   r11, -1
        beq  r36, r11, 1f
        bnez r37, 1f
        li   r35, 0
2:      mov  a0, r32
        mov  a1, r35
        mov  a2, r38
        call coll_source
        mov  a1, a0
        mov  a0, r36
        call coll_isend
        add  r35, r35, 1
        bne  r35, r34, 2b
        jmp  .coll_rd_flush
1:      li   r11, 0
3:      beq  r11, r37, 4f
        sll  r12, r11, 2
        stw  zero, [r12 + coll_kcount]
        add  r11, r11, 1
        jmp  3b
4:      li   r39, 0                       # own chunks copied into the buffer
        li   r40, 0                       # chunks sent up
        mul  r41, r37, r34                # chunks still to come
.coll_rd_arrival:
        beqz r41, .coll_rd_flush
        li   a0, -1
        call coll_take
        mov  r42, a0
        mov  r43, a1
        mov  a1, r37
        call coll_kid_index
        sll  r11, a0, 2
        ldw  r44, [r11 + coll_kcount]     # the child's chunk k
        add  r12, r44, 1
        stw  r12, [r11 + coll_kcount]
        coll_chunk_at r44, r45, r46, r11
        bne  r43, r46, coll_bad_length
        li   r11, -1
        bne  r36, r11, 5f
        mov  a0, r32                      # the root adds straight into its block
        mov  a1, r45
        mov  a2, r46
        li   a3, k_gate_add
        call coll_walk
        jmp  7f
5:      bgtu r39, r44, 6f                 # the own chunks up to k first
        coll_chunk_at r39, a1, a2, r12
        mov  a0, r32
        li   a3, k_pack
        sll  a4, a1, 2
        add  a4, a4, r38
        call coll_walk
        add  r39, r39, 1
        jmp  5b
6:      sll  r20, r45, 2
        add  r20, r20, r38
        mov  r21, r46
        call k_gate_add
7:      mov  a0, r42
        call coll_release
        sub  r41, r41, 1
        li   r11, -1
        beq  r36, r11, .coll_rd_arrival
.coll_rd_up:                              # every chunk all children have given goes up
        beq  r40, r34, .coll_rd_arrival
        li   r11, 0
8:      beq  r11, r37, 9f
        sll  r12, r11, 2
        ldw  r12, [r12 + coll_kcount]
        bleu r12, r40, .coll_rd_arrival
        add  r11, r11, 1
        jmp  8b
9:      coll_chunk_at r40, r45, a2, r12
        sll  a1, r45, 2
        add  a1, a1, r38
        mov  a0, r36
        call coll_isend
        add  r40, r40, 1
        jmp  .coll_rd_up
.coll_rd_flush:
        li   a0, 0
        call coll_hwait
        coll_leave

# coll_spread(a0 = matrix): the ring multi-broadcast. The matrix is P blocks side by side (block b at b n
# words); each cell starts with its own block (block = rank) and ends with all of them, after P - 1 shifts to
# the right: at step s a cell sends block rank - s and receives block rank - s - 1.
coll_spread:
        coll_enter
        mov  r32, a0
        li   r50, 0                       # adds nothing
        jmp  coll_ring

# coll_ring_reduce(a0 = matrix): the ring multi-reduce. Each cell starts with P blocks of its own; after P - 1
# shifts to the right that add as they pass, block `rank` of each cell holds the sum of every cell's block
# `rank` (its other blocks are left as they were): at step s a cell sends the partial sum of block
# rank - s - 1 and receives that of block rank - s - 2, to which it adds its own.
coll_ring_reduce:
        coll_enter
        mov  r32, a0
        li   r50, 1
        jmp  coll_ring

# The ring, both patterns (r50 = 1 to add).
coll_ring:
        call coll_neighbours
        mov  r36, a0                      # right
        mov  r37, a1                      # left
        ldw  r38, [coll_work]
        ldw  r33, [coll_words]
        ldw  r34, [coll_nchunks]
        ldw  r39, [coll_rank]
        sub  r51, r39, r50                # the block sent at step 0
        ldw  r40, [coll_size]
        sub  r40, r40, 1                  # steps
        li   r41, 0                       # step s
        sll  r42, r33, 2                  # bytes a block: the buffer's regions
        ldw  r11, [coll_mode]
        bnez r11, .coll_ring_chunked
        # naive: each step packs the whole block into a region of its own, sends it, receives the left's whole
        # into a third region and copies (or adds) it into place
        mov  a0, r32
        mov  a1, r51
        call coll_block
        li   a1, 0
        mov  a2, r33
        li   a3, k_pack
        mov  a4, r38
        call coll_walk
        mov  a0, r36
        mov  a1, r38
        mov  a2, r33
        call coll_isend
.coll_ring_naive:
        sll  r44, r42, 1
        add  r44, r44, r38                # the received block
        mov  a0, r37
        mov  a1, r44
        call coll_receive_whole
        add  r11, r41, 1
        beq  r11, r40, 2f                 # the last step
        li   a0, 1                        # the send two steps ago, from this region, has left
        call coll_hwait
        add  r43, r41, 1
        and  r43, r43, 1
        mul  r43, r43, r42
        add  r43, r43, r38                # the next send's region
        mov  a0, r32
        sub  a1, r51, r41
        sub  a1, a1, 1
        call coll_block                   # the block that comes in at this step
        mov  r45, a0
        beqz r50, 1f
        li   a1, 0                        # reduce: own block packed, the received one added, sent on
        mov  a2, r33
        li   a3, k_pack
        mov  a4, r43
        call coll_walk
        mov  r20, r43
        mov  r21, r33
        mov  r22, r44
        call k_add_buf
        jmp  3f
1:      li   a1, 0                        # spread: into place, then packed again to go on
        mov  a2, r33
        li   a3, k_unpack
        mov  a4, r44
        call coll_walk
        mov  a0, r45
        li   a1, 0
        mov  a2, r33
        li   a3, k_pack
        mov  a4, r43
        call coll_walk
3:      mov  a0, r36
        mov  a1, r43
        mov  a2, r33
        call coll_isend
        add  r41, r41, 1
        jmp  .coll_ring_naive
2:      mov  a0, r32                      # the last step: into place (spread) or added to the own block
        sub  a1, r51, r41
        sub  a1, a1, 1
        call coll_block
        li   a1, 0
        mov  a2, r33
        li   a3, k_unpack
        beqz r50, 4f
        li   a3, k_add_buf
4:      mov  a4, r44
        call coll_walk
        jmp  .coll_ring_flush
        # chunked: chunk by chunk, send then receive, so that no cell runs ahead of the ring
.coll_ring_chunked:
.coll_ring_step:
        li   r35, 0
.coll_ring_chunk:
        # the send: at step 0 the own block (straight, or copied once into region 0); later what came in on
        # the step before (straight from the block when it is contiguous and nothing is added, else from the
        # region it was stored in)
        bnez r41, 1f
        mov  a0, r32
        mov  a1, r51
        call coll_block
        mov  a1, r35
        mov  a2, r38
        call coll_source
        jmp  2f
1:      coll_chunk_at r35, r11, a2, r12
        sll  r11, r11, 2
        and  r13, r41, 1
        mul  r13, r13, r42
        add  r13, r13, r38
        add  r44, r13, r11                # from the region
        ldw  r12, [coll_contig]           # spread of a contiguous matrix: from the block
        xor  r13, r50, 1
        and  r12, r12, r13
        beqz r12, 5f
        mov  r46, a2
        mov  a0, r32
        sub  a1, r51, r41
        call coll_block
        sll  r11, r35, 2
        ldw  r12, [coll_msglen]
        mul  r11, r11, r12
        add  r44, a0, r11                 # from the block
        mov  a2, r46
5:      mov  a0, r44
2:      mov  a1, a0
        mov  a0, r36
        call coll_isend
        # the receive: chunk k of the block one further left
        mov  a0, r37
        call coll_take
        mov  r46, a0
        coll_chunk_at r35, r47, r48, r11
        bne  a1, r48, coll_bad_length
        mov  a0, r32
        sub  a1, r51, r41
        sub  a1, a1, 1
        call coll_block
        mov  r45, a0
        add  r11, r41, 1
        bne  r11, r40, 6f
        li   a3, k_gate                   # the last step keeps it (or adds it to the own block)
        beqz r50, 7f
        li   a3, k_gate_add
        jmp  7f
6:      li   a3, k_gate                   # spread, contiguous: into place, sent on from there
        ldw  r12, [coll_contig]
        xor  r13, r50, 1
        and  r12, r12, r13
        bnez r12, 7f
        mov  a0, r34                      # the send that read this place of the region (a step ago) has left
        call coll_hwait
        add  r13, r41, 1
        and  r13, r13, 1
        mul  r13, r13, r42
        add  r13, r13, r38
        sll  a4, r47, 2
        add  a4, a4, r13
        li   a3, k_gate2
        beqz r50, 7f
        li   a3, k_gate_add_buf
7:      mov  a0, r45
        mov  a1, r47
        mov  a2, r48
        call coll_walk
        mov  a0, r46
        call coll_release
        add  r35, r35, 1
        bne  r35, r34, .coll_ring_chunk
        add  r41, r41, 1
        bne  r41, r40, .coll_ring_step
.coll_ring_flush:
        li   a0, 0
        call coll_hwait
        coll_leave

# coll_pbcast(a0 = block, a1 = root rank): a pipelined (increasing ring) broadcast: the root sends to its
# right, every other cell takes the block from its left and passes it on, but the last (root - 1). It returns
# as soon as its part is done, with its sends still under way: P calls with roots 0, 1, ... overlap, one stage
# a call. The buffers alternate call by call.
coll_pbcast:
        coll_enter
        mov  r32, a0
        mov  r33, a1
        call coll_neighbours
        mov  r36, a0
        mov  r37, a1
        ldw  r38, [coll_work]
        ldw  r34, [coll_nchunks]
        ldw  r39, [coll_rank]
        ldw  r40, [coll_size]
        sub  r41, r39, r33                # v, from the root
        bge  r41, zero, 1f
        add  r41, r41, r40
1:      sub  r40, r40, 1
        seq  r42, r41, r40                # the last keeps what it receives
        ldw  r43, [coll_pb_flip]
        xor  r11, r43, 1
        stw  r11, [coll_pb_flip]
        ldw  r11, [coll_words]
        sll  r11, r11, 2
        mul  r43, r43, r11
        add  r38, r38, r43                # this call's half of the buffer
        ldw  r11, [coll_mode]
        bnez r11, .coll_pb_chunked
        li   a0, 1                        # naive: the send from this half two calls ago has left
        call coll_hwait
        bnez r41, 2f
        mov  a0, r32
        li   a1, 0
        ldw  a2, [coll_words]
        li   a3, k_pack
        mov  a4, r38
        call coll_walk
        mov  a0, r36
        mov  a1, r38
        ldw  a2, [coll_words]
        call coll_isend
        jmp  .coll_pb_done
2:      mov  a0, r37
        mov  a1, r38
        call coll_receive_whole
        bnez r42, 3f
        mov  a0, r36
        mov  a1, r38
        ldw  a2, [coll_words]
        call coll_isend
3:      mov  a0, r32
        li   a1, 0
        ldw  a2, [coll_words]
        li   a3, k_unpack
        mov  a4, r38
        call coll_walk
        jmp  .coll_pb_done
.coll_pb_chunked:
        li   r35, 0
.coll_pb_chunk:
        ldw  r12, [coll_contig]           # a place of this half is about to be written: the send that read it
        bnez r12, 1f                      # two calls ago has left
        bnez r42, 1f
        sub  a0, r34, 1
        call coll_hwait
1:      bnez r41, 4f
        mov  a0, r32
        mov  a1, r35
        mov  a2, r38
        call coll_source
        mov  a1, a0
        mov  a0, r36
        call coll_isend
        jmp  6f
4:      mov  a0, r37
        call coll_take
        mov  r46, a0
        coll_chunk_at r35, r47, r48, r11
        bne  a1, r48, coll_bad_length
        li   a3, k_gate
        sll  r49, r47, 2                  # forwarded from the block when it is contiguous
        add  r49, r49, r32
        bnez r42, 5f
        ldw  r12, [coll_contig]
        bnez r12, 5f
        li   a3, k_gate2
        sll  r49, r47, 2
        add  r49, r49, r38
5:      mov  a0, r32
        mov  a1, r47
        mov  a2, r48
        mov  a4, r49
        call coll_walk
        mov  a0, r46
        call coll_release
        bnez r42, 6f
        mov  a0, r36
        mov  a1, r49
        mov  a2, r48
        call coll_isend
6:      add  r35, r35, 1
        bne  r35, r34, .coll_pb_chunk
.coll_pb_done:
        coll_leave

# coll_bsend(a0 = cell, a1 = block): a buffered send: returns as soon as the block is copied into the buffer
# (chunked: each chunk sent as soon as it is copied), before the receiver need have posted its receive; the
# caller may change the block at once. A second coll_bsend first waits until the first has left.
coll_bsend:
        coll_enter
        mov  r36, a0
        mov  r32, a1
        li   a0, 0
        call coll_hwait
        ldw  r38, [coll_work]
        ldw  r34, [coll_nchunks]
        li   r35, 0
1:      coll_chunk_at r35, r47, r48, r11
        mov  a0, r32
        mov  a1, r47
        mov  a2, r48
        li   a3, k_pack
        sll  a4, r47, 2
        add  a4, a4, r38
        mov  r49, a4
        call coll_walk
        mov  a0, r36
        mov  a1, r49
        mov  a2, r48
        call coll_isend
        add  r35, r35, 1
        bne  r35, r34, 1b
        coll_leave

# coll_recv(a0 = cell, a1 = block): the block a cell sent (coll_bsend), into place: naive, received whole into
# the buffer (past coll_bsend's) and copied out; chunked, each chunk from the gate into place.
coll_recv:
        coll_enter
        mov  r36, a0
        mov  r32, a1
        ldw  r33, [coll_words]
        ldw  r38, [coll_work]
        sll  r11, r33, 2
        add  r38, r38, r11
        ldw  r34, [coll_nchunks]
        ldw  r11, [coll_mode]
        bnez r11, 2f
        mov  a0, r36
        mov  a1, r38
        call coll_receive_whole
        mov  a0, r32
        li   a1, 0
        mov  a2, r33
        li   a3, k_unpack
        mov  a4, r38
        call coll_walk
        jmp  3f
2:      li   r35, 0
4:      mov  a0, r36
        call coll_take
        mov  r46, a0
        coll_chunk_at r35, r47, r48, r11
        bne  a1, r48, coll_bad_length
        mov  a0, r32
        mov  a1, r47
        mov  a2, r48
        li   a3, k_gate
        call coll_walk
        mov  a0, r46
        call coll_release
        add  r35, r35, 1
        bne  r35, r34, 4b
3:      coll_leave

coll_bad_source:
        trap TRAP_COLL_SOURCE
coll_bad_length:
        trap TRAP_COLL_LENGTH
coll_bad_buffer:
        trap TRAP_COLL_BUFFER
coll_bad_shape:
        trap TRAP_COLL_SHAPE

        .endif
