# array: 2x1
# A non-blocking send lets the program compute while the message goes out: cell 0 sends 1024 words to
# cell 1 twice, first waiting at once, then computing 1500 clocks between msg_isend and msg_wait. If the
# computation overlaps the transfer, the second send costs less than the first plus the computation.
# Traps 1 if nothing overlaps; halts with a0 = the clocks overlapped.
        .include "msg.s"
        .include "sync.s"
        .equ WORDS, 1024
        .equ COMPUTE, 1500

        .bss
        .align 16
buffer: .space 4 * WORDS

        .text
_start: call msg_init
        call sync_init
        call sync_barrier
        rdcr r64, [CR_CELL_ID]
        bnez r64, receiver
        rdcr r65, [CR_CLOCK_LO]
        li   a0, 1
        li   a1, buffer
        li   a2, WORDS
        call msg_isend
        call msg_wait
        rdcr r66, [CR_CLOCK_LO]
        li   a0, 1
        li   a1, buffer
        li   a2, WORDS
        call msg_isend
        mov  r70, a0
        li   r71, COMPUTE
1:      loop r71, 1b                     # COMPUTE clocks of work
        mov  a0, r70
        call msg_wait
        rdcr r67, [CR_CLOCK_LO]
        sub  r68, r66, r65               # waited at once
        sub  r69, r67, r66               # computed meanwhile
        add  r68, r68, COMPUTE
        sub  a0, r68, r69                # clocks the computation overlapped
        blt  a0, r0, none
        beqz a0, none
        halt
none:   trap 1
receiver:
        li   a0, buffer
        li   a1, WORDS
        call msg_receive
        li   a0, buffer
        li   a1, WORDS
        call msg_receive
        halt
