# The LogGP microbenchmarks of seed 001 (section 4) on two cells, over the message-passing runtime:
#
#   a0 = 0  ping-pong: cell 0 sends a message of a1 words to the partner, which sends it back; a2 times.
#           Result: the clocks of the whole exchange (EEL = result / (2 * a2)).
#   a0 = 1  flood: cell 0 keeps a3 sends of a1 words outstanding (it starts a3, waits for a3/2 of them,
#           starts a3/2 more, ...) until a2 messages have gone, then waits for the partner's one-word reply
#           (sent once it has received them all). Result: the clocks from the first send to the reply.
#   a0 = 2  send overlap: a flood with a queue depth of one and a4 clocks of computation between starting
#           each send and waiting for it.
#   a0 = 3  receive overlap: a flood with a queue depth of a3; the partner computes a4 clocks after each
#           receive.
#
# a5 = the partner's cell id. Cell 0 halts with a0 = the result; every other cell takes no part.
        .include "msg.s"
        .include "sync.s"

        .bss
        .align 16
buffer: .space 4 * 32768
handles: .space 4 * 64

        .text
_start: mov  r64, a0                     # test
        mov  r65, a1                     # words per message
        mov  r66, a2                     # messages
        mov  r67, a3                     # queue depth
        mov  r68, a4                     # computation
        mov  r69, a5                     # partner
        call msg_init
        call sync_init
        call sync_barrier
        rdcr r70, [CR_CELL_ID]
        beqz r70, sender
        beq  r70, r69, partner
        halt

# spin(a0 = clocks): a loop of one-clock bundles
spin:   beqz a0, 1f
        loop a0, spin.body
1:      ret
spin.body:
        loop a0, spin.body
        ret

sender: rdcr r80, [CR_CLOCK_LO]
        li   r71, 0
        beq  r64, r71, pingpong
        li   r71, 2
        bne  r64, r71, flood
        li   r67, 1
        jmp  flood

pingpong:
        mov  r72, r66
1:      mov  a0, r69
        li   a1, buffer
        mov  a2, r65
        call msg_send
        li   a0, buffer
        li   a1, 32768
        call msg_receive
        loop r72, 1b
        jmp  done

# flood: r73 = started, r74 = finished, handles in a ring of 64
flood:  li   r73, 0
        li   r74, 0
        srl  r75, r67, 1                 # q/2 (at least 1)
        bnez r75, 2f
        li   r75, 1
2:      # start sends while fewer than q are outstanding and messages remain
3:      beq  r73, r66, 5f
        sub  r76, r73, r74
        bgeu r76, r67, 4f
        mov  a0, r69
        li   a1, buffer
        mov  a2, r65
        call msg_isend
        and  r76, r73, 63
        sll  r76, r76, 2
        stw  a0, [r76 + handles]
        add  r73, r73, 1
        li   r76, 2
        bne  r64, r76, 3b
        mov  a0, r68                     # the send-overlap test computes here
        call spin
        jmp  3b
4:      # wait for q/2 of them (fewer at the end)
        mov  r77, r75
6:      beq  r74, r73, 3b
        and  r76, r74, 63
        sll  r76, r76, 2
        ldw  a0, [r76 + handles]
        call msg_wait
        add  r74, r74, 1
        loop r77, 6b
        jmp  3b
5:      # the last ones, then the reply
7:      beq  r74, r73, 8f
        and  r76, r74, 63
        sll  r76, r76, 2
        ldw  a0, [r76 + handles]
        call msg_wait
        add  r74, r74, 1
        jmp  7b
8:      li   a0, buffer
        li   a1, 32768
        call msg_receive
done:   rdcr r81, [CR_CLOCK_LO]
        sub  a0, r81, r80
        halt

partner:
        li   r71, 0
        bne  r64, r71, sink
        mov  r72, r66
1:      li   a0, buffer
        li   a1, 32768
        call msg_receive
        li   a0, 0
        li   a1, buffer
        mov  a2, r65
        call msg_send
        loop r72, 1b
        halt
sink:   mov  r72, r66
2:      li   a0, buffer
        li   a1, 32768
        call msg_receive
        li   r71, 3
        bne  r64, r71, 3f
        mov  a0, r68                     # the receive-overlap test computes here
        call spin
3:      loop r72, 2b
        li   a0, 0                       # the reply: everything has arrived
        li   a1, buffer
        li   a2, 1
        call msg_send
        halt
