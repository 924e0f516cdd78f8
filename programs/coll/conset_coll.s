# The collectives under ConSet (docs/collectives.md; the buffered collectives paper's patterns): the
# host (experiments/coll/coll_conset.c) compiles every group's tree or ring into one connection set; each cell
# reads its case at COLL_PARAMS, switches to the set's phase and streams its matrix through the gates.
#
# The cell does not know the tree: its sends and receives in the phase's tables are its edges. The host's
# tree (coll_conset.c) is two chains round the ring of ranks from the root, a binary tree whose root alone
# has two children: a broadcast's root sends each word to go0 and go1, every other cell has one receive
# and at most one send; a reduce the other way round. In a ring a cell has one of each. Sends are bound
# to go0 (then go1), receives to gi0 (then gi1).
#
#   bcast        the root sends its block to go0 and go1 from memory; an inner cell takes each word from
#                gi0, stores it and passes it on in the same pass; a leaf stores it.
#   reduce       a cell sends its own word plus the one from gi0 to go0; the root adds the words from gi0
#                and gi1 into its block in place. Other matrices stay as they were.
#   mbcast-ring  P - 1 shifts round the ring: at step s the cell sends block r - s and stores block
#                r - s - 1 as it arrives.
#   mbcast-pipe  P broadcasts along the ring, stage k from rank k: rank k sends block k, the ranks after it
#                store each word and pass it on, rank k - 1 stores it. Stage k + 1 starts at rank k + 1
#                as soon as that cell has passed block k on, so the stages overlap.
#   mreduce-ring P - 1 shifts that add as they pass: at step s the cell sends the partial sum of block
#                r - 1 - s (its own words at step 0) and adds its own block r - s - 2 to the one arriving;
#                partial sums live in two buffers at COLL_WORK, the last step's sum lands in block r.
#
# A block is m rows of n words, rows lda words apart: the loops walk the rows in place (no packing).
# Each cell halts with a0 = clocks from leaving the start barrier to the end of its part.
        .include "layout.inc"
        .include "conset.s"

        .equ TRAP_COLL_PHASES, 0x434c    # the tables have more than one phase (the host asks for one)
        .equ TRAP_COLL_SHAPE, 0x434d     # a cell's sends and receives are not what the pattern needs

        .text
_start: call conset_init
        call conset_phases
        li   r11, 1
        bne  a0, r11, .phases
        li   a0, 0
        call conset_instantiate
        li   a0, 0
        call conset_lists
        { mov r60, a0 ; mov r61, a1 }    # the send and the receive entries
        { mov r62, a2 ; mov r63, a3 }    # their counts
        ldw  r64, [COLL_PARAMS + P_PATTERN]
        ldw  r65, [COLL_PARAMS + P_M]
        ldw  r66, [COLL_PARAMS + P_N]
        ldw  r67, [COLL_PARAMS + P_LDA]
        ldw  r69, [COLL_PARAMS + P_SIZE]
        ldw  r70, [COLL_PARAMS + P_RANK]
        sub  r71, r67, r66
        sll  r71, r71, 2                 # bytes from a row's end to the next row's start
        sll  r72, r66, 2                 # bytes a block's row (block b starts b * r72 into a row)
        ldw  r73, [conset_lookahead]     # words a ring send runs ahead of its receive: at most a row
        bleu r73, r66, 1f
        mov  r73, r66
1:      { mov r45, r71 ; mov r46, r71 }  # row skips of the send, store and own pointers
        mov  r47, r71
        call sync_barrier
        rdcr r90, [CR_CLOCK_LO]
        call bind_gates
        { li r12, 1 ; li r13, 2 }        # constants for the shape checks below
        li   r11, PAT_BCAST
        beq  r64, r11, bcast
        li   r11, PAT_REDUCE
        beq  r64, r11, reduce
        li   r11, PAT_MBCAST_RING
        beq  r64, r11, spread
        li   r11, PAT_MBCAST_PIPE
        beq  r64, r11, pipe
        li   r11, PAT_MREDUCE_RING
        beq  r64, r11, mreduce
        trap TRAP_COLL_SHAPE
.phases:
        trap TRAP_COLL_PHASES

finish: rdcr r91, [CR_CLOCK_LO]
        sub  a0, r91, r90
        halt

# bind_gates(): go0, go1 to the first two sends' channels, gi0, gi1 to the first two receives'.
bind_gates:
        beqz r62, 1f
        ldw  r11, [r60 + XE_CHANNEL]
        wrcr r11, [COA_GATE_OUT0]
        li   r12, 1
        beq  r62, r12, 1f
        ldw  r11, [r60 + XE_SIZE + XE_CHANNEL]
        wrcr r11, [COA_GATE_OUT1]
1:      beqz r63, 2f
        ldw  r11, [r61 + XE_CHANNEL]
        wrcr r11, [COA_GATE_IN0]
        li   r12, 1
        beq  r63, r12, 2f
        ldw  r11, [r61 + XE_SIZE + XE_CHANNEL]
        wrcr r11, [COA_GATE_IN1]
2:      ret

# block(a0 = b mod P, possibly negative down to -P) -> a0 = address of block b of the matrix.
block:  bge  a0, zero, 1f
        add  a0, a0, r69
1:      mul  a0, a0, r72
        add  a0, a0, COLL_MAT
        ret

# --- tree broadcast ------------------------------------------------------------------------------------------
bcast:  li   r40, COLL_MAT
        li   r41, COLL_MAT
        bgtu r62, r13, .shape
        bgtu r63, r12, .shape
        bnez r63, 1f
        li   r44, k_send1                # the root: from memory to its children
        beq  r62, r12, 3f
        li   r44, k_send2
        jmp  3f
1:      bgtu r62, r12, .shape            # only the root has two children
        li   r44, k_recv                 # a leaf
        beqz r62, 3f
        li   r44, k_fwd1
3:      call walk_tree
        jmp  finish
.shape: trap TRAP_COLL_SHAPE

# --- tree reduce ---------------------------------------------------------------------------------------------
reduce: li   r40, COLL_MAT
        li   r41, COLL_MAT
        li   r42, COLL_MAT
        bgtu r62, r12, bcast.shape
        bgtu r63, r13, bcast.shape
        bnez r62, 1f
        beqz r63, bcast.shape            # the root: the sum into its own block
        li   r44, k_add1_store
        beq  r63, r12, 3f
        li   r44, k_add2_store
        jmp  3f
1:      bgtu r63, r12, bcast.shape       # only the root has two children
        li   r44, k_send1                # a leaf sends its own block
        beqz r63, 3f
        li   r44, k_add1_send
3:      call walk_tree
        jmp  finish

# --- ring multi-broadcast (spread) ---------------------------------------------------------------------------
spread: call ring_shape
        li   r74, 0                      # step s
        mov  r75, r70                    # block sent: r - s
1:      sub  a0, r75, 1
        call block
        mov  r41, a0                     # block stored: r - s - 1
        mov  a0, r75
        call block
        mov  r40, a0
        li   r48, k_both
        li   r49, k_recv
        call walk_ring
        sub  r75, r75, 1
        bge  r75, zero, 2f
        add  r75, r75, r69
2:      add  r74, r74, 1
        sub  r11, r69, 1
        bne  r74, r11, 1b
        jmp  finish

# ring_shape(): one send and one receive, or the ring was not compiled as one.
ring_shape:
        bne  r62, r12, bcast.shape
        bne  r63, r12, bcast.shape
        ret

# --- pipelined broadcasts along the ring ----------------------------------------------------------------------
pipe:   call ring_shape
        li   r74, 0                      # stage k
        add  r76, r70, 1                 # the rank whose stage ends here: r + 1 mod P
        bne  r76, r69, 1f
        li   r76, 0
1:      mov  a0, r74
        call block
        { mov r40, a0 ; mov r41, a0 }
        li   r44, k_fwd1
        bne  r74, r70, 2f
        li   r44, k_send1                # this cell's own stage
2:      bne  r74, r76, 3f
        li   r44, k_recv                 # the last of the stage's chain
3:      call walk_tree
        add  r74, r74, 1
        bne  r74, r69, 1b
        jmp  finish

# --- ring multi-reduce (reduce-scatter) ------------------------------------------------------------------------
mreduce:
        call ring_shape
        mul  r77, r65, r72               # a block's bytes, packed
        li   r78, COLL_WORK              # partial sums: step s stores into buffer s % 2
        add  r79, r78, r77
        li   r74, 0                      # step s
        sub  r75, r70, 1                 # the block sent (own words at step 0): r - 1 - s
1:      sub  a0, r75, 1                  # own block added: r - s - 2
        call block
        mov  r42, a0
        mov  r47, r71
        bnez r74, 2f
        mov  a0, r75                     # step 0 sends the cell's own block r - 1
        call block
        mov  r40, a0
        mov  r45, r71
        jmp  3f
2:      and  r11, r74, 1                 # later steps send what the previous step stored
        { mov r40, r78 ; li r45, 0 }
        bnez r11, 3f
        mov  r40, r79
3:      sub  r11, r69, 2
        bne  r74, r11, 4f
        mov  a0, r70                     # the last step: the sum into block r
        call block
        mov  r41, a0
        mov  r46, r71
        jmp  5f
4:      and  r11, r74, 1
        { mov r41, r79 ; li r46, 0 }
        bnez r11, 5f
        mov  r41, r78
5:      li   r48, k_both_add
        li   r49, k_add1_store
        call walk_ring
        sub  r75, r75, 1
        bge  r75, zero, 6f
        add  r75, r75, r69
6:      add  r74, r74, 1
        sub  r11, r69, 1
        bne  r74, r11, 1b
        jmp  finish

# --- walking the rows ------------------------------------------------------------------------------------------
# walk_tree(r44 = kernel): the kernel on each of the m rows of n words; between rows the send (r40),
# store (r41) and own (r42) pointers skip r45, r46, r47 bytes.
walk_tree:
        mov  r80, ra
        mov  r81, r65
1:      mov  r43, r66
        callr r44
        { add r40, r40, r45 ; add r41, r41, r46 }
        { add r42, r42, r47 ; loop r81, 1b }
        jr   r80

# walk_ring(r48 = kernel both ways, r49 = kernel receiving only): a ring step. Every cell of the ring
# sends and receives at once, so the send runs r73 words ahead of the receive (as conset_transfer does:
# a bundle that writes go0 and reads gi0 waits for both, and a circle of cells that all wait for their
# first word would never move). The send side is then r73 words into row i + 1 while the receive side
# finishes row i.
walk_ring:
        mov  r80, ra
        mov  r43, r73
        call k_send1                     # the first r73 words of row 0
        mov  r81, r65                    # rows left
1:      sub  r43, r66, r73
        beqz r43, 2f
        callr r48                        # the rest of row i out, the start of row i in
2:      add  r40, r40, r45
        sub  r81, r81, 1
        mov  r43, r73
        beqz r81, 3f
        callr r48                        # the start of row i + 1 out, the end of row i in
        { add r41, r41, r46 ; add r42, r42, r47 }
        jmp  1b
3:      callr r49                        # the last row's end in
        jr   r80

# --- kernels: r43 >= 1 words; r40 the words to send, r41 where to store, r42 the cell's own words (each
# advances 4 bytes a word); clocks a word from docs/isa.md's rules (a bundle takes its slowest operation,
# 2 for a memory access or an fp32 add, and issues when its gates can go) ----------------------------------

# 2 clocks: from memory to go0.
k_send1:
1:      { ldw go0, [r40] ; add r40, r40, 4 ; loop r43, 1b }
        ret

# 2 clocks: from memory to go0 and go1 (two loads of the same word: two memory accesses).
k_send2:
1:      { ldw go0, [r40] ; ldw go1, [r40] ; add r40, r40, 4 ; loop r43, 1b }
        ret

# 2 clocks: from gi0 to memory.
k_recv:
1:      { stw gi0, [r41] ; add r41, r41, 4 ; loop r43, 1b }
        ret

# 2 clocks: from gi0 to memory, and on to go0 from memory a word later (a load sees the store of the
# bundle before), so one bundle takes a word in and passes the previous one on.
k_fwd1: stw  gi0, [r41]
        sub  r43, r43, 1
        beqz r43, 2f
1:      { stw gi0, [r41 + 4] ; ldw go0, [r41] ; add r41, r41, 4 ; loop r43, 1b }
2:      { ldw go0, [r41] ; add r41, r41, 4 }
        ret

# 2 clocks: a ring shift, a word out of memory and one in, in one bundle.
k_both:
1:      { ldw go0, [r40] ; stw gi0, [r41] ; add r40, r40, 4 ; add r41, r41, 4 ; loop r43, 1b }
        ret

# 2 clocks: own + gi0 to go0. The fp add reads the word loaded by the bundle before.
k_add1_send:
        { ldw r10, [r42] ; add r42, r42, 4 }
        sub  r43, r43, 1
        beqz r43, 2f
1:      { fadd.s go0, r10, gi0 ; ldw r10, [r42] ; add r42, r42, 4 ; loop r43, 1b }
2:      fadd.s go0, r10, gi0
        ret

# 4 clocks: own + gi0 into memory (the store a word behind the add).
k_add1_store:
        { ldw r10, [r42] ; add r42, r42, 4 }
        fadd.s r11, r10, gi0
        sub  r43, r43, 1
        beqz r43, 2f
1:      { ldw r10, [r42] ; stw r11, [r41] ; add r42, r42, 4 ; add r41, r41, 4 }
        { fadd.s r11, r10, gi0 ; loop r43, 1b }
2:      { stw r11, [r41] ; add r41, r41, 4 }
        ret

# 4 clocks: own + gi0 + gi1 into memory.
k_add2_store:
        { ldw r10, [r42] ; add r42, r42, 4 }
        fadd.s r11, r10, gi0
        sub  r43, r43, 1
        beqz r43, 2f
1:      { ldw r10, [r42] ; fadd.s r12, r11, gi1 ; add r42, r42, 4 }
        { fadd.s r11, r10, gi0 ; stw r12, [r41] ; add r41, r41, 4 ; loop r43, 1b }
2:      fadd.s r12, r11, gi1
        { stw r12, [r41] ; add r41, r41, 4 }
        ret

# 4 clocks: a ring step that adds as it passes: a partial sum out of memory to go0, own + gi0 into memory.
# The send and the receive share a bundle, so the send stays exactly r73 words ahead.
k_both_add:
        { ldw r10, [r42] ; add r42, r42, 4 }
        { ldw go0, [r40] ; fadd.s r11, r10, gi0 ; add r40, r40, 4 }
        sub  r43, r43, 1
        beqz r43, 2f
1:      { ldw r10, [r42] ; add r42, r42, 4 }
        { ldw go0, [r40] ; fadd.s r11, r10, gi0 ; stw r11, [r41] ; add r40, r40, 4 ; add r41, r41, 4 ; loop r43, 1b }
2:      { stw r11, [r41] ; add r41, r41, 4 }
        ret
