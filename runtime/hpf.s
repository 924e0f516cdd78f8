# HPF array assignment on the cells (docs/deposit.md): the address relation between two block-cyclic
# distributions of a 2D array, computed by enumerating runs, cached or not, and deposit-model messages
# assembled from it (Dinda and O'Hallaron, "The Performance Impact of Address Relation Caching", section 5).
#
# A distributed array is described by a descriptor of HPF_DESC_BYTES in memory:
#   +0 N0, +4 N1         global extents (dimension 0 is the contiguous one: local parts are column major,
#                        as Fortran stores them)
#   +8 P0, +12 K0        dimension 0 is cut into blocks of K0 dealt round P0 processors (BLOCK: K0 =
#   +16 P1, +20 K1       ceil(N0 / P0); CYCLIC: K0 = 1; CYCLIC(k): K0 = k; ':' (not distributed): P0 = 1, K0 = N0)
#   +24 BASE             byte address of the local part on every cell of the task
#   +28 FIRST            cell id of rank 0; rank q sits on cell FIRST + q, at grid position (q mod P0, q / P0)
# Global element (g0, g1) belongs to the rank at (g0 / K0 mod P0, g1 / K1 mod P1), at local index
# l = (g / (P K)) K + g mod K in each dimension, address BASE + 4 (l0 + l1 L0) with L0 that rank's extent.
#
# The relation from source rank s to destination rank d is computed one dimension at a time as runs of
# indices owned by both (hpf_runs: per block of the source, the blocks of the destination it meets, so the
# work is per run, not per element), then crossed: every column of the dimension-1 runs with every
# dimension-0 run is a block contiguous on both sides, and blocks that continue each other are merged.

        .ifndef HPF_S
        .equ HPF_S, 1

        .include "deposit.s"

        .equ HPF_N0, 0
        .equ HPF_N1, 4
        .equ HPF_P0, 8
        .equ HPF_K0, 12
        .equ HPF_P1, 16
        .equ HPF_K1, 20
        .equ HPF_BASE, 24
        .equ HPF_FIRST, 28
        .equ HPF_DESC_BYTES, 32

        # what hpf_relation and hpf_from_cache write
        .equ HPF_CACHE, 0              # the relation: (source address, receiver address, words) a block
        .equ HPF_PAIRS, 1              # a message in DEP_PAIRS format
        .equ HPF_BLOCKS, 2             # a message in DEP_BLOCKS format

        .text
# hpf_extent(a0 = N, a1 = P, a2 = K, a3 = p) -> a0 = how many of the N indices processor p holds.
hpf_extent:
        mul  r11, a1, a2                 # one cycle of blocks
        divu r12, a0, r11                # whole cycles
        mul  r13, r12, r11
        sub  r13, a0, r13                # indices in the last, partial cycle
        mul  a0, r12, a2
        mul  r14, a3, a2                 # where p's block starts in it
        bgeu r14, r13, 1f
        sub  r13, r13, r14
        bltu r13, a2, 2f
        mov  r13, a2
2:      add  a0, a0, r13
1:      ret

# hpf_local(a0 = descriptor, a1 = rank) -> a0 = L0, a1 = L1: the extents of that rank's local part. (Keeps
# its values in r24..r27 across hpf_extent, which uses r11..r14 only.)
hpf_local:
        sub  sp, sp, 16
        stw  ra, [sp]
        mov  r24, a0
        ldw  r25, [r24 + HPF_P0]
        divu r26, a1, r25                # grid position in dimension 1
        ldw  a0, [r24 + HPF_N0]
        remu a3, a1, r25                 # and in dimension 0
        mov  a1, r25
        ldw  a2, [r24 + HPF_K0]
        call hpf_extent
        mov  r27, a0
        ldw  a0, [r24 + HPF_N1]
        ldw  a1, [r24 + HPF_P1]
        ldw  a2, [r24 + HPF_K1]
        mov  a3, r26
        call hpf_extent
        mov  a1, a0
        mov  a0, r27
        ldw  ra, [sp]
        add  sp, sp, 16
        ret

# hpf_save / hpf_restore: r32..r57 at sp + 8 .. sp + 111, for the functions below that keep their state in
# the callee's registers across calls (their frame: HPF_FRAME bytes, ra at sp).
        .equ HPF_FRAME, 112
hpf_save:
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
        std  r56, [sp + 104]
        ret
hpf_restore:
        ldd  r32, [sp + 8]
        ldd  r34, [sp + 16]
        ldd  r36, [sp + 24]
        ldd  r38, [sp + 32]
        ldd  r40, [sp + 40]
        ldd  r42, [sp + 48]
        ldd  r44, [sp + 56]
        ldd  r46, [sp + 64]
        ldd  r48, [sp + 72]
        ldd  r50, [sp + 80]
        ldd  r52, [sp + 88]
        ldd  r54, [sp + 96]
        ldd  r56, [sp + 104]
        ret

# hpf_runs(a0 = N, a1 = Ps, a2 = Ks, a3 = ps, a4 = Pd, a5 = Kd, a6 = pd, a7 = out) -> a0 = runs.
# The indices of one dimension held by source processor ps and destination processor pd, as runs
# contiguous on both sides: 3 words each at out (source local index, destination local index, length),
# in increasing order, each as long as it can be.
hpf_runs:
        li   r11, 0                      # runs written
        mul  r12, a1, a2                 # source cycle
        mul  r13, a3, a2                 # first index of the source block
        li   r14, 0                      # its local index
        mov  r24, a7
.block: bgeu r13, a0, .end
        add  r17, r13, a2                # the block's end
        bltu r17, a0, 1f
        mov  r17, a0
1:      mov  r18, r13                    # g: the next index to look at
.meet:  bgeu r18, r17, .next
        divu r19, r18, a5                # destination block of g
        remu r20, r19, a4                # and its owner
        sub  r21, a6, r20
        bgeu a6, r20, 2f
        add  r21, r21, a4
2:      add  r19, r19, r21               # pd's next block from there
        mul  r22, r19, a5                # where it starts
        mov  r23, r18
        bgeu r23, r22, 3f
        mov  r23, r22                    # the run starts at the later of the two
3:      bgeu r23, r17, .next             # pd holds nothing more of this source block
        add  r25, r22, a5
        bltu r25, r17, 4f
        mov  r25, r17                    # and ends at the earlier end
4:      sub  r26, r23, r13
        add  r26, r26, r14               # source local index
        divu r27, r19, a4
        mul  r27, r27, a5
        sub  r28, r23, r22
        add  r27, r27, r28               # destination local index
        sub  r29, r25, r23               # length
        beqz r11, 5f
        bne  r26, r30, 5f                # continues the last run on both sides?
        bne  r27, r31, 5f
        add  r16, r16, r29
        sub  r28, r24, 4
        stw  r16, [r28]
        jmp  6f
5:      stw  r26, [r24]
        stw  r27, [r24 + 4]
        stw  r29, [r24 + 8]
        add  r24, r24, 12
        add  r11, r11, 1
        mov  r16, r29                    # the last run's length
        mov  r30, r26
        mov  r31, r27
6:      add  r30, r30, r29               # where the last run ends, both sides
        add  r31, r31, r29
        mov  r18, r25
        jmp  .meet
.next:  add  r13, r13, r12
        add  r14, r14, a2
        jmp  .block
.end:   mov  a0, r11
        ret

# hpf_emit: one block of the relation (r11 = source address, r12 = receiver address, r13 = words) written at
# r15 as r14 says (HPF_CACHE, HPF_PAIRS, HPF_BLOCKS); r15 advances. Uses r16, r17; r11..r13 are consumed.
# One memory operation per instruction, as the paper's loops.
hpf_emit:
        bnez r14, 1f
        stw  r11, [r15]
        stw  r12, [r15 + 4]
        stw  r13, [r15 + 8]
        add  r15, r15, 12
        ret
1:      li   r16, HPF_PAIRS
        bne  r14, r16, 3f
2:      ldw  r17, [r11]
        stw  r12, [r15]
        stw  r17, [r15 + 4]
        { add r11, r11, 4 ; add r12, r12, 4 }
        add  r15, r15, 8
        loop r13, 2b
        ret
3:      stw  r12, [r15]
        stw  r13, [r15 + 4]
        add  r15, r15, 8
4:      ldw  r17, [r11]
        stw  r17, [r15]
        { add r11, r11, 4 ; add r15, r15, 4 ; loop r13, 4b }
        ret

# hpf_from_cache(a0 = cache, a1 = blocks, a2 = HPF_PAIRS or HPF_BLOCKS, a3 = out) -> a0 = words written:
# the message assembled from a relation hpf_relation stored with HPF_CACHE.
hpf_from_cache:
        sub  sp, sp, 8
        stw  ra, [sp]
        mov  r14, a2
        mov  r15, a3
        beqz a1, 2f
        mov  r18, a0
        mov  r19, a1
1:      ldw  r11, [r18]
        ldw  r12, [r18 + 4]
        ldw  r13, [r18 + 8]
        add  r18, r18, 12
        call hpf_emit
        loop r19, 1b
2:      sub  a0, r15, a3
        srl  a0, a0, 2
        ldw  ra, [sp]
        add  sp, sp, 8
        ret

# hpf_relation(a0 = source descriptor, a1 = destination descriptor, a2 = source rank, a3 = destination rank,
# a4 = HPF_CACHE / HPF_PAIRS / HPF_BLOCKS, a5 = out, a6 = scratch of 12 (L0 + L1) bytes, the source's local
# extents) -> a0 = words written at out (3 per block for HPF_CACHE).
hpf_relation:
        sub  sp, sp, HPF_FRAME
        stw  ra, [sp]
        call hpf_save
        mov  r32, a0
        mov  r33, a1
        mov  r34, a4
        mov  r35, a5                     # write pointer
        mov  r37, a5
        mov  r36, a6
        ldw  r11, [r32 + HPF_P0]         # grid positions of both ranks
        remu r38, a2, r11                # sp0
        divu r39, a2, r11                # sp1
        ldw  r11, [r33 + HPF_P0]
        remu r40, a3, r11                # dp0
        divu r41, a3, r11                # dp1
        # dimension 0 runs at scratch
        ldw  a0, [r32 + HPF_N0]
        ldw  a1, [r32 + HPF_P0]
        ldw  a2, [r32 + HPF_K0]
        mov  a3, r38
        ldw  a4, [r33 + HPF_P0]
        ldw  a5, [r33 + HPF_K0]
        mov  a6, r40
        mov  a7, r36
        call hpf_runs
        mov  r42, a0                     # n0
        mul  r43, a0, 12
        add  r43, r43, r36               # dimension 1 runs after them
        ldw  a0, [r32 + HPF_N1]
        ldw  a1, [r32 + HPF_P1]
        ldw  a2, [r32 + HPF_K1]
        mov  a3, r39
        ldw  a4, [r33 + HPF_P1]
        ldw  a5, [r33 + HPF_K1]
        mov  a6, r41
        mov  a7, r43
        call hpf_runs
        mov  r44, a0                     # n1
        ldw  a0, [r32 + HPF_N0]          # column lengths on both sides
        ldw  a1, [r32 + HPF_P0]
        ldw  a2, [r32 + HPF_K0]
        mov  a3, r38
        call hpf_extent
        sll  r45, a0, 2                  # source column, bytes
        ldw  a0, [r33 + HPF_N0]
        ldw  a1, [r33 + HPF_P0]
        ldw  a2, [r33 + HPF_K0]
        mov  a3, r40
        call hpf_extent
        sll  r46, a0, 2                  # destination column, bytes
        li   r47, 0                      # words of the pending block (none)
        mov  r14, r34
        mov  r15, r35
        beqz r42, .done
        beqz r44, .done
.cols:  ldw  r50, [r43]                  # a dimension 1 run: its first column, both sides
        ldw  r51, [r43 + 4]
        ldw  r52, [r43 + 8]              # columns
        add  r43, r43, 12
        mul  r50, r50, r45
        ldw  r11, [r32 + HPF_BASE]
        add  r50, r50, r11               # source column address
        mul  r51, r51, r46
        ldw  r11, [r33 + HPF_BASE]
        add  r51, r51, r11               # destination column address
.col:   mov  r53, r36                    # every dimension 0 run of the column
        mov  r54, r42
.row:   ldw  r55, [r53]
        ldw  r56, [r53 + 4]
        ldw  r57, [r53 + 8]
        add  r53, r53, 12
        sll  r55, r55, 2
        add  r55, r55, r50               # s
        sll  r56, r56, 2
        add  r56, r56, r51               # r
        beqz r47, 1f
        sll  r11, r47, 2
        add  r12, r48, r11
        bne  r12, r55, 2f
        add  r12, r49, r11
        bne  r12, r56, 2f
        add  r47, r47, r57               # continues the pending block on both sides
        jmp  3f
2:      mov  r11, r48
        mov  r12, r49
        mov  r13, r47
        call hpf_emit
1:      mov  r48, r55
        mov  r49, r56
        mov  r47, r57
3:      loop r54, .row
        add  r50, r50, r45
        add  r51, r51, r46
        loop r52, .col
        sub  r44, r44, 1
        bnez r44, .cols
        mov  r11, r48
        mov  r12, r49
        mov  r13, r47
        call hpf_emit
.done:  sub  a0, r15, r37
        srl  a0, a0, 2
        call hpf_restore
        ldw  ra, [sp]
        add  sp, sp, HPF_FRAME
        ret

# hpf_fill(a0 = descriptor, a1 = rank, a2 = salt, a3 = 0 fill / 1 check) -> a0 = elements that differ
# (check): the local part holds, or is checked to hold, element (g0, g1) = g1 N0 + g0 + salt. By blocks of
# dimension 0, so that each element costs a store (or a load and a compare), not a division.
hpf_fill:
        sub  sp, sp, HPF_FRAME
        stw  ra, [sp]
        call hpf_save
        mov  r32, a0
        mov  r33, a2
        mov  r34, a3
        ldw  r11, [r32 + HPF_P0]
        remu r35, a1, r11                # p0
        divu r36, a1, r11                # p1
        mov  a0, r32
        call hpf_local
        mov  r37, a0                     # L0
        mov  r38, a1                     # L1
        li   r39, 0                      # mismatches
        ldw  r40, [r32 + HPF_BASE]       # address
        beqz r37, .done
        beqz r38, .done
        li   r41, 0                      # l1
.col:   ldw  r11, [r32 + HPF_K1]         # g1 of local column l1
        ldw  r12, [r32 + HPF_P1]
        divu r13, r41, r11
        mul  r13, r13, r12
        add  r13, r13, r36
        mul  r13, r13, r11
        remu r14, r41, r11
        add  r13, r13, r14
        ldw  r11, [r32 + HPF_N0]
        mul  r42, r13, r11
        add  r42, r42, r33               # value of (0, g1)
        ldw  r43, [r32 + HPF_K0]
        ldw  r11, [r32 + HPF_P0]
        mul  r44, r11, r43               # dimension 0 cycle
        mul  r45, r35, r43
        add  r45, r45, r42               # value at the start of the first block
        mov  r46, r37                    # elements of the column left
.blk:   mov  r47, r43
        bgeu r46, r47, 1f
        mov  r47, r46
1:      sub  r46, r46, r47
        mov  r11, r45
        bnez r34, 3f
2:      stw  r11, [r40]
        { add r40, r40, 4 ; add r11, r11, 1 ; loop r47, 2b }
        jmp  5f
3:      ldw  r12, [r40]
        beq  r12, r11, 4f
        add  r39, r39, 1
4:      { add r40, r40, 4 ; add r11, r11, 1 ; loop r47, 3b }
5:      add  r45, r45, r44
        bnez r46, .blk
        add  r41, r41, 1
        bne  r41, r38, .col
.done:  mov  a0, r39
        call hpf_restore
        ldw  ra, [sp]
        add  sp, sp, HPF_FRAME
        ret

        .endif
