# One sparse matrix-vector product of the finite element experiment (the ConSet paper, section 5.2) on every
# cell, for `iwarp bench fem` (docs/fem.md): each cell holds its part of a partitioned mesh as an assembled
# matrix in CSR over the nodes of its elements, computes its partial y = A x, and the cells sharing a node add
# each other's partial sums for it. The host lays out the matrix, x, the index arrays and the descriptors
# (experiments/fem/fem_kernel.c) and checks y on every cell, bit for bit.
#
#   a0 = style: 0 ConSet: the exchange's phases (at CONSET_TABLES), each word gathered from y through its
#        index straight into the gate and added at the receiver into y2 (programs/copy/exchange.inc)
#
# The matrix, x and y as spmv.inc says. Halts with a0 = clocks of the product, a1 = clocks of the exchange (between the two
# barriers around it), a2 = from the first barrier to the last.
#
# FEM_LIW (default 0): 0 codes the exchange's inner loops as the ConSet paper's were, "written without LIW
# instructions in the inner loops" (section 5), one operation an instruction; the host then schedules the phases
# on one timeline a cell, since such a cell sends or receives, not both. -D FEM_LIW=1: ours, in LIW bundles, a
# word out and a word in together (docs/fem.md).
        .ifndef FEM_LIW
        .equ FEM_LIW, 0
        .endif
        .equ EXCHANGE_ONE_OP, 1 - FEM_LIW
        .include "../copy/exchange.inc"
        .include "spmv.inc"

        .text
_start: mov  r100, a0
        call conset_init
        call conset_phases
        mov  r106, a0
        li   r78, 0                  # the exchange streams from and to the descriptors' places
        li   r99, 0
        li   r76, 1                  # and adds what arrives
        spmv_timed
        call exchange_phases
        call sync_barrier
        spmv_results

