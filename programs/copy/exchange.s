# A personalized exchange over the whole array under ConSet, for `iwarp bench copy` (docs/copy.md): every
# cell sends each other cell the words its send descriptors say, in the compiler's phases (the connection
# set of the exchange, loaded at CONSET_TABLES), each streamed through the gates. xQy all-to-all, the
# transpose, the sparse gather and the block-cyclic redistribution are all such exchanges; the host lays
# out the memory and the descriptors and checks every word (experiments/copy/copy_exchange.c).
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
        .include "exchange.inc"
        .include "copy.inc"

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
        li   r76, 0                  # words are stored, not added
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
        call exchange_phases
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
5:      call exchange_phases
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

