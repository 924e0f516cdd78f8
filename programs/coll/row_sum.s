# The collectives library (runtime/coll.s) from a program of your own, the example of docs/collectives.md: on
# every row of the array, each cell fills a 3 x 16 block (rows 20 words apart) with small whole numbers, the
# row sums the blocks into rank 0's (coll_reduce), then broadcasts the sum from rank 0 (coll_bcast); every cell
# halts with a0 = the sum of its block's words, the same on every cell of a row. Run it with enough memory
# for the block and the buffers:
#
#   iwarp run programs/coll/row_sum.s --array 4x2 --set mem_bytes=8M --args 1,7
#
# a0 = 0 naive or 1 chunked, a1 = words a chunk.
        .include "coll.s"                # also msg.s
        .include "sync.s"

        .equ BLOCK, 0x200000
        .equ M, 3
        .equ N, 16
        .equ LDA, 20

        .text
_start: mov  r40, a0
        mov  r41, a1
        call msg_init
        call sync_init
        mov  a0, r40                     # naive or chunked, the chunk, the buffers (12 bytes a word of the block)
        mov  a1, r41
        bnez a1, 1f
        li   a1, 1                       # (a chunk of at least one word, even when naive)
1:      li   a2, 0x300000
        li   a3, 0x380000
        call coll_config
        rdcr r11, [CR_CELL_ID]           # my row: rank 0 is its first cell, ranks step by one cell
        rdcr r12, [CR_ARRAY_W]
        remu r13, r11, r12               # x: my rank
        sub  a0, r11, r13                # y W: the row's first cell
        mov  a1, r12
        li   a2, 1
        mov  a3, r13
        mov  r42, r11
        call coll_group
        li   a0, M
        li   a1, N
        li   a2, LDA
        call coll_shape
        # the block: word (i, j) = cell + i + j, as an fp32
        li   r20, BLOCK
        li   r21, 0                      # i
2:      li   r22, 0                      # j
3:      add  r23, r42, r21
        add  r23, r23, r22
        cvt.s.w r23, r23
        sll  r24, r22, 2
        add  r24, r24, r20
        stw  r23, [r24]
        add  r22, r22, 1
        li   r25, N
        bne  r22, r25, 3b
        add  r20, r20, LDA * 4
        add  r21, r21, 1
        li   r25, M
        bne  r21, r25, 2b
        li   a0, BLOCK                   # sum into rank 0's block
        li   a1, 0
        call coll_reduce
        call sync_barrier                # two tree operations: a barrier between them
        li   a0, BLOCK                   # and the sum to every cell of the row
        li   a1, 0
        call coll_bcast
        call coll_flush                  # before halting: no send still under way
        # a0 = the sum of the block's words, as an integer
        li   r30, 0
        li   r20, BLOCK
        li   r21, M
4:      li   r22, N
        mov  r24, r20
5:      ldw  r23, [r24]
        cvt.w.s r23, r23
        add  r30, r30, r23
        add  r24, r24, 4
        loop r22, 5b
        add  r20, r20, LDA * 4
        loop r21, 4b
        mov  a0, r30
        halt
