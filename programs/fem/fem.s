# One sparse matrix-vector product of the finite element experiment (the ConSet paper, section 5.2) on every
# cell, for `iwarp bench fem` (docs/fem.md): each cell holds its part of a partitioned mesh as an assembled
# matrix in CSR over the nodes of its elements, computes its partial y = A x, and the cells sharing a node add
# each other's partial sums for it. The host lays out the matrix, x, the index arrays and the descriptors
# (tools/fem/fem_kernel.c) and checks y on every cell, bit for bit.
#
#   a0 = style: 0 ConSet: the exchange's phases (at CONSET_TABLES), each word gathered from y through its
#        index straight into the gate and added at the receiver into y2 (programs/copy/exchange.inc)
#
# Layout (the host's): HDR: rows, then ROWPTR (rows + 1 word offsets into COLS and VALS), COLS (the byte
# address of x[col] for each entry), VALS (floats), X, Y (the partial sums), Y2 (y: the partial sums plus what
# the neighbours send). Halts with a0 = clocks of the product, a1 = clocks of the exchange (between the two
# barriers around it), a2 = from the first barrier to the last.
        .include "../copy/exchange.inc"

        .equ HDR,    0x1f0000
        .equ ROWPTR, 0x200000
        .equ COLS,   0x210000
        .equ VALS,   0x250000
        .equ X,      0x290000
        .equ Y,      0x2a0000
        .equ Y2,     0x2b0000

        .text
_start: mov  r100, a0
        call conset_init
        call conset_phases
        mov  r106, a0
        li   r78, 0                  # the exchange streams from and to the descriptors' places
        li   r99, 0
        li   r76, 1                  # and adds what arrives
        call sync_barrier
        rdcr r107, [CR_CLOCK_LO]
        call spmv
        rdcr r108, [CR_CLOCK_LO]
        call sync_barrier
        rdcr r109, [CR_CLOCK_LO]
        call exchange_phases
        call sync_barrier
        rdcr r110, [CR_CLOCK_LO]
        sub  a0, r108, r107
        sub  a1, r110, r109
        sub  a2, r110, r107
        halt

# y = A x on the cell's rows, into Y and Y2. Per entry: its column's address and value load together, then
# x[col], then the product; the sum of the entry before goes beside the next loads.
spmv:   ldw  r60, [HDR]              # rows
        beqz r60, 9f
        li   r61, ROWPTR
        li   r62, Y
        li   r63, Y2
        li   r50, COLS
        li   r51, VALS
1:      ldw  r52, [r61 + 4]          # the row's end
        ldw  r53, [r61]
        sub  r52, r52, r53           # its entries
        li   r43, 0                  # the sum, 0.0
        li   r47, 0                  # the product before, 0.0
        beqz r52, 3f
2:      { ldw r44, [r50] ; ldw r45, [r51] ; add r50, r50, 4 ; add r51, r51, 4 ; fadd.s r43, r43, r47 }
        ldw  r46, [r44]
        { fmul.s r47, r45, r46 ; loop r52, 2b }
3:      fadd.s r43, r43, r47
        { stw r43, [r62] ; stw r43, [r63] ; add r62, r62, 4 ; add r63, r63, 4 }
        add  r61, r61, 4
        loop r60, 1b
9:      ret
