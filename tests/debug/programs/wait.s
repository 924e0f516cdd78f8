# A long wait, for the console's tests and docs: on a 2x1 array cell (1,0) computes for N clocks, then sends
# cell (0,0) a message of four words (runtime/msg.s); meanwhile (0,0) sleeps in msg_receive's wfe. Going back
# or forward over that sleep, the console says which wait it crossed.
#
# a0 = N (30000 if zero). (0,0) halts with a0 = the sum of the words it received (10).
        .include "msg.s"

        .bss
        .align 16
buf:    .space 4 * 4

        .text
_start: mov  r64, a0
        bnez r64, 1f
        li   r64, 30000
1:      call msg_init
        rdcr r65, [CR_CELL_ID]
        bnez r65, sender
        li   a0, buf
        li   a1, 4
        call msg_receive
got:    ldw  r66, [buf]
        ldw  r67, [buf + 4]
        add  r66, r66, r67
        ldw  r67, [buf + 8]
        add  r66, r66, r67
        ldw  r67, [buf + 12]
        add  a0, r66, r67
        halt
sender: loop r64, sender                 # N clocks of work
        li   r66, 1
        stw  r66, [buf]
        li   r66, 2
        stw  r66, [buf + 4]
        li   r66, 3
        stw  r66, [buf + 8]
        li   r66, 4
        stw  r66, [buf + 12]
        li   a0, 0
        li   a1, buf
        li   a2, 4
        call msg_send
        halt
