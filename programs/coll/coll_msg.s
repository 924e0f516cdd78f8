# The collective patterns over message passing (runtime/coll.s), for `iwarp coll` and `iwarp bench collectives`
# (docs/collectives.md). Every cell reads its case from the parameter block the host wrote (programs/coll/
# layout.inc), runs its group's pattern on the matrix at COLL_MAT, and halts with a0 = clocks from the start
# barrier to the end of its part (its sends gone), a1 and a2 (COLL_BSEND) = clocks to the sender's return from
# its first buffered send and to the receiver's first receive.
#
# Run without the host (`iwarp run`, `iwarp debug`), it takes its case from its arguments instead, on every row
# of the array at once: a0 = pattern + 1 (experiments/coll/coll.h's order: 1 bcast .. 8 bsend), a1 = 0 naive or 1
# chunked, a2 = m, a3 = n, a4 = lda, a5 = chunk, a6 = root; the matrices hold what memory holds (zeros).
        .include "coll.s"
        .include "sync.s"
        .include "layout.inc"

        .text
_start: li   r32, COLL_PARAMS
        beqz a0, 1f
        call params_from_args
1:      call msg_init
        call sync_init
        ldw  a0, [r32 + P_IMPL]
        ldw  a1, [r32 + P_CHUNK]
        bnez a0, 1f
        li   a1, 1                       # (naive: a message is the whole block)
1:      li   a2, COLL_WORK
        li   a3, COLL_WORK_END
        call coll_config
        ldw  a0, [r32 + P_BASE]
        ldw  a1, [r32 + P_SIZE]
        ldw  a2, [r32 + P_STEP]
        ldw  a3, [r32 + P_RANK]
        call coll_group
        ldw  a0, [r32 + P_M]
        ldw  a1, [r32 + P_N]
        ldw  a2, [r32 + P_LDA]
        call coll_shape
        ldw  r33, [r32 + P_PATTERN]
        ldw  r34, [r32 + P_SIZE]
        ldw  r35, [r32 + P_RANK]
        ldw  r36, [r32 + P_N]
        sll  r36, r36, 2                 # bytes between two blocks of a multi pattern
        li   r40, 0                      # clocks to the buffered send's return, to the receive
        li   r41, 0
        call sync_barrier
        rdcr r37, [CR_CLOCK_LO]

        li   r11, PAT_BCAST
        bne  r33, r11, 1f
        li   a0, COLL_MAT
        ldw  a1, [r32 + P_ROOT]
        call coll_bcast
        jmp  .done
1:      li   r11, PAT_REDUCE
        bne  r33, r11, 1f
        li   a0, COLL_MAT
        ldw  a1, [r32 + P_ROOT]
        call coll_reduce
        jmp  .done
1:      li   r11, PAT_MBCAST_RING
        bne  r33, r11, 1f
        li   a0, COLL_MAT
        call coll_spread
        jmp  .done
1:      li   r11, PAT_MREDUCE_RING
        bne  r33, r11, 1f
        li   a0, COLL_MAT
        call coll_ring_reduce
        jmp  .done
1:      li   r11, PAT_BSEND
        beq  r33, r11, .bsend
        # the multi patterns by P single ones, root k into block k: trees separated by barriers (their messages
        # come from several cells), pipelined broadcasts one after the other
        li   r38, 0
2:      mul  a0, r38, r36
        add  a0, a0, COLL_MAT
        mov  a1, r38
        li   r11, PAT_MBCAST_TREE
        bne  r33, r11, 3f
        call coll_bcast
        call sync_barrier
        jmp  5f
3:      li   r11, PAT_MREDUCE_TREE
        bne  r33, r11, 4f
        call coll_reduce
        call sync_barrier
        jmp  5f
4:      call coll_pbcast
5:      add  r38, r38, 1
        bne  r38, r34, 2b
        jmp  .done

        # rank 0 sends its block to rank P - 1 and gets it back into the second matrix; P - 1 first waits
.bsend: sub  r39, r34, 1
        beqz r35, 1f
        bne  r35, r39, .done
        ldw  r11, [r32 + P_DELAY]
        beqz r11, 2f
3:      loop r11, 3b
2:      rdcr r41, [CR_CLOCK_LO]
        sub  r41, r41, r37
        ldw  a0, [r32 + P_BASE]
        li   a1, COLL_MAT
        call coll_recv
        ldw  a0, [r32 + P_BASE]
        li   a1, COLL_MAT
        call coll_bsend
        jmp  .done
1:      mov  a0, r39
        ldw  r11, [r32 + P_STEP]
        mul  a0, a0, r11
        ldw  r11, [r32 + P_BASE]
        add  a0, a0, r11
        mov  r42, a0
        li   a1, COLL_MAT
        call coll_bsend
        rdcr r40, [CR_CLOCK_LO]
        sub  r40, r40, r37
        mov  a0, r42
        ldw  a1, [r32 + P_MAT2]
        call coll_recv

.done:  call coll_flush
        rdcr a0, [CR_CLOCK_LO]
        sub  a0, a0, r37
        mov  a1, r40
        mov  a2, r41
        halt

# params_from_args(a0..a6 as above): the parameter block for the rows of the array.
params_from_args:
        sub  a0, a0, 1
        stw  a0, [r32 + P_PATTERN]
        stw  a1, [r32 + P_IMPL]
        stw  zero, [r32 + P_GROUPS]
        stw  a2, [r32 + P_M]
        stw  a3, [r32 + P_N]
        stw  a4, [r32 + P_LDA]
        stw  a5, [r32 + P_CHUNK]
        stw  a6, [r32 + P_ROOT]
        stw  zero, [r32 + P_DELAY]
        rdcr r11, [CR_CELL_ID]
        rdcr r12, [CR_ARRAY_W]
        stw  r12, [r32 + P_SIZE]
        remu r13, r11, r12
        stw  r13, [r32 + P_RANK]
        sub  r13, r11, r13
        stw  r13, [r32 + P_BASE]
        li   r13, 1
        stw  r13, [r32 + P_STEP]
        sub  r13, a2, 1                  # the second matrix: past the first and its guards (coll_case.c)
        mul  r13, r13, a4
        add  r13, r13, a3
        sll  r13, r13, 2
        add  r13, r13, COLL_MAT + 128 + 63
        and  r13, r13, ~63
        stw  r13, [r32 + P_MAT2]
        ret
