# Random traffic under message passing: every cell sends M messages of random lengths (1..L words) to
# random cells (itself included), all queued at once with msg_isend, then receives every message sent to
# it and checks it: the right length, every word, and, between each pair of cells, the order in which they
# were sent. Each sender's choices come from a generator seeded with its id, so every receiver can work
# out what it should get, and from whom, in which order.
#
# a0 = M (1..16), a1 = L (1..2048). Halts with a0 = messages received. Traps 1 on a wrong length, 2 on a
# wrong word, 3 on a message nobody sent.
        .include "msg.s"
        .include "sync.s"

        .bss
        .align 16
gen:    .space 4 * 1024                  # per sender: its generator, at the next message for this cell
left:   .space 4 * 1024                  # per sender: messages it has still to generate
recvbuf: .space 4 * 2048
sendbufs: .space 4 * 2048 * 16

        .text
# next(a0 = generator state) -> a0 = new state; destination and length follow from it.
next:   mul  a0, a0, 1103515245
        add  a0, a0, 12345
        ret

_start: mov  r64, a0                     # M
        mov  r65, a1                     # L
        call msg_init
        call sync_init
        rdcr r66, [CR_CELL_ID]
        ldw  r67, [msg_cells]
        # every sender's generator, and how many messages this cell will receive in all
        li   r68, 0                      # sender
        li   r69, 0                      # messages to receive
1:      mul  r70, r68, 7919
        add  r70, r70, 12345
        sll  r71, r68, 2
        stw  r70, [r71 + gen]
        stw  r64, [r71 + left]
        mov  a0, r70
        mov  r72, r64
2:      call next
        srl  r73, a0, 16
        remu r73, r73, r67
        bne  r73, r66, 3f
        add  r69, r69, 1
3:      loop r72, 2b
        add  r68, r68, 1
        bne  r68, r67, 1b
        call sync_barrier
        # send: message j goes to dest with len words (id << 22 | j << 16 | i)
        li   r74, 0                      # j
        mul  a0, r66, 7919
        add  a0, a0, 12345
        mov  r75, a0
4:      mov  a0, r75
        call next
        mov  r75, a0
        srl  r76, a0, 16
        remu r76, r76, r67               # destination
        srl  r77, a0, 4
        remu r77, r77, r65
        add  r77, r77, 1                 # length
        sll  r78, r74, 13                # buffer j: sendbufs + j * 4 * 2048
        add  r78, r78, sendbufs
        sll  r79, r66, 22
        sll  r80, r74, 16
        or   r79, r79, r80
        mov  r81, r78
        mov  r82, r77
5:      { stw r79, [r81] ; add r79, r79, 1 ; add r81, r81, 4 ; loop r82, 5b }
        mov  a0, r76
        mov  a1, r78
        mov  a2, r77
        call msg_isend
        sll  r80, r74, 2
        stw  a0, [r80 + handles]
        add  r74, r74, 1
        bne  r74, r64, 4b
        # receive and check
        mov  r83, r69
        beqz r83, 9f
6:      li   a0, recvbuf
        li   a1, 2048
        call msg_receive
        mov  r84, a0                     # source
        mov  r85, a1                     # length
        # the source's next message to this cell
        sll  r86, r84, 2
        ldw  a0, [r86 + gen]
        ldw  r87, [r86 + left]
7:      beqz r87, nobody
        sub  r87, r87, 1
        call next
        srl  r88, a0, 16
        remu r88, r88, r67
        bne  r88, r66, 7b
        stw  a0, [r86 + gen]
        stw  r87, [r86 + left]
        srl  r89, a0, 4
        remu r89, r89, r65
        add  r89, r89, 1
        bne  r89, r85, bad_len
        sub  r90, r64, r87               # its index j + 1 in the sender's order
        sub  r90, r90, 1
        sll  r91, r84, 22
        sll  r90, r90, 16
        or   r91, r91, r90
        li   r92, recvbuf
8:      ldw  r93, [r92]
        bne  r93, r91, bad_word
        { add r91, r91, 1 ; add r92, r92, 4 ; loop r85, 8b }
        loop r83, 6b
9:      li   r74, 0                      # every send gone
10:     sll  r80, r74, 2
        ldw  a0, [r80 + handles]
        call msg_wait
        add  r74, r74, 1
        bne  r74, r64, 10b
        mov  a0, r69
        halt
bad_len:  trap 1
bad_word: trap 2
nobody:   wrcr r84, [CR_DEBUG_PUTI]      # the unexpected message's source and length
          li   r94, ' '
          wrcr r94, [CR_DEBUG_PUTC]
          wrcr r85, [CR_DEBUG_PUTI]
          li   r94, 10
          wrcr r94, [CR_DEBUG_PUTC]
          trap 3

        .data
handles: .space 4 * 16
