# The finite element product of programs/fem/fem.s with the exchange by message passing (runtime/msg.s), as the
# ConSet paper's section 5.2 describes it: each cell copies the partial sums of the nodes it shares with a
# neighbour into a buffer (gathered through their indices) and sends it; the receiver adds each word straight
# from the gate into y2 through its own indices, as the ConSet receiver does ("the receiver ends of both
# implementations are identical"). For `iwarp bench fem` (docs/fem.md).
#
# Descriptors as programs/copy/exchange.inc's: at DESC_SEND + 16 d the neighbour d's indices into Y, their
# count and the block's offset in SBUF; at DESC_RECV + 16 s the indices into Y2 of what s sends. Halts with
# a0 = clocks of the product, a1 = of the exchange (between the barriers around it), a2 = from the first barrier
# to the last. Traps 0x4652 when a message's length is not what the descriptor of its source says.
#
# FEM_LIW (default 0), as in fem.s: 0 codes the copy into the buffer and the receive loop one operation an
# instruction, as the ConSet paper's were (section 5: "written without LIW instructions in the inner loops");
# -D FEM_LIW=1 ours, in LIW bundles (programs/copy/copy.inc's indexed copy, two words an iteration).
        .include "msg.s"
        .include "sync.s"
        .include "../copy/copy.inc"
        .include "../copy/scatter_sum.inc"
        .include "spmv.inc"

        .ifndef FEM_LIW
        .equ FEM_LIW, 0
        .endif

        .equ DESC_SEND, 0x90000
        .equ DESC_RECV, 0x98000
        .equ SBUF,      0x100000
        .equ HANDLES,   0x0c0000
        .equ D_START, 0
        .equ D_COUNT, 8
        .equ D_OFFSET, 12

        .text
_start: call msg_init
        call sync_init
        rdcr r103, [CR_CELL_ID]
        rdcr r104, [CR_ARRAY_W]
        rdcr r105, [CR_ARRAY_H]
        mul  r97, r104, r105         # P
        spmv_timed

        # Send: for each neighbour, gather its words into SBUF and send them in the background.
        li   r90, 0                  # cell d
        li   r91, HANDLES
        li   r92, 0                  # messages sent
1:      sll  r93, r90, 4
        add  r93, r93, DESC_SEND
        ldw  r61, [r93 + D_COUNT]
        beqz r61, 2f
        ldw  r42, [r93 + D_START]    # the indices into Y
        ldw  r94, [r93 + D_OFFSET]
        add  r94, r94, SBUF
        mov  r41, r94
        .if FEM_LIW
        li   r62, 0                  # an indexed read
        li   r63, 4                  # into a contiguous buffer
        call copy
        .else
# "In the message passing code the data is copied to a buffer before sending" (section 5.2), one operation an
# instruction in statement order (buf[i] = y[idx[i]]; i++): 11 clocks a word with the two stalls.
gather_one_op:
        ldw  r10, [r42]              # the word's index
        ldw  r12, [r10]              # the word (a stall: its address is one instruction old)
        stw  r12, [r41]              # into the buffer (a stall: the word is one instruction old)
        add  r42, r42, 4
        add  r41, r41, 4
        loop r61, gather_one_op
gather_one_op_end:
        .endif
        mov  a0, r90
        mov  a1, r94
        ldw  a2, [r93 + D_COUNT]
        call msg_isend
        stw  a0, [r91]
        add  r91, r91, 4
        add  r92, r92, 1
2:      add  r90, r90, 1
        bne  r90, r97, 1b

        # Receive: as many messages as neighbours send, in the order they arrive.
        li   r90, 0
        li   r95, 0                  # messages to come
3:      sll  r93, r90, 4
        add  r93, r93, DESC_RECV
        ldw  r96, [r93 + D_COUNT]
        beqz r96, 4f
        add  r95, r95, 1
4:      add  r90, r90, 1
        bne  r90, r97, 3b
        beqz r95, 6f
5:      call receive_sum
        sub  r95, r95, 1
        bnez r95, 5b

        # Wait until this cell's own messages have left.
6:      li   r91, HANDLES
        beqz r92, 8f
7:      ldw  a0, [r91]
        call msg_wait
        add  r91, r91, 4
        sub  r92, r92, 1
        bnez r92, 7b
8:      call sync_barrier
        spmv_results

# receive_sum(): the oldest message that has arrived, each word added from the gate into y2 at its source's
# indices (runtime/deposit.s reads its messages the same way).
receive_sum:
        msg_take_arrival r12, r14, r13
        srl  r15, r14, 20            # source
        li   r16, MSG_MAX_LEN
        and  r16, r14, r16           # words
        sll  r17, r15, 4
        add  r17, r17, DESC_RECV
        ldw  r18, [r17 + D_COUNT]
        bne  r18, r16, 9f
        ldw  r19, [r17 + D_START]    # the indices into Y2
        beqz r16, 2f
        .if FEM_LIW
        scatter_sum_liw receive_sum_liw, r19, r11, r20, r16
        .else
        scatter_sum_one_op receive_sum_one_op, r19, r11, r20, r16
        .endif
2:      li   r13, COA_NONE           # the agent frees the channel at the trailer; the gate lets go of it now
        wrcr r13, [COA_GATE_IN0]
        li   r18, MARK_MSG_RECEIVE
        or   r18, r18, r15
        wrcr r18, [CR_MARK]
        ret
9:
        trap 0x4652
