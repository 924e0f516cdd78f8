# The torus pattern under message passing (seed 004, 5.1.1): every cell sends K words to each of its four
# neighbours and receives K words from each, with the message-passing runtime. Sends go out in the
# background (msg_isend), receives are taken in the foreground, then the cell waits for its sends.
#
# a0 = K. Halts with a0 = the clocks from leaving the start barrier to leaving the end barrier, when every
# cell has received everything and seen its sends leave; a1 = the clock it left the barrier. Traps 1 on a wrong word, 2 on a wrong length.
        .include "msg.s"
        .include "sync.s"

        .bss
        .align 16
sendbuf: .space 4 * 16384
recvbuf: .space 4 * 4 * 16384            # one buffer per message

        .text
_start: mov  r64, a0                     # K
        call msg_init
        call sync_init
        rdcr r65, [CR_CELL_ID]
        # the data: (id << 16) | i
        sll  r66, r65, 16
        li   r67, sendbuf
        mov  r68, r64
1:      { stw r66, [r67] ; add r66, r66, 1 ; add r67, r67, 4 ; loop r68, 1b }
        # the four neighbours' ids
        rdcr r70, [CR_CELL_X]
        rdcr r71, [CR_CELL_Y]
        rdcr r72, [CR_ARRAY_W]
        rdcr r73, [CR_ARRAY_H]
        call sync_barrier
        rdcr r80, [CR_CLOCK_LO]
        li   r81, 0                      # direction
2:      mov  r74, r70
        mov  r75, r71
        li   r76, 0
        bne  r81, r76, 3f
        add  r74, r74, 1
3:      li   r76, 1
        bne  r81, r76, 4f
        add  r74, r74, r72
        sub  r74, r74, 1
4:      li   r76, 2
        bne  r81, r76, 5f
        add  r75, r75, 1
5:      li   r76, 3
        bne  r81, r76, 6f
        add  r75, r75, r73
        sub  r75, r75, 1
6:      remu r74, r74, r72
        remu r75, r75, r73
        mul  a0, r75, r72
        add  a0, a0, r74
        li   a1, sendbuf
        mov  a2, r64
        call msg_isend
        sll  r76, r81, 2
        add  r76, r76, handles
        stw  a0, [r76]
        add  r81, r81, 1
        li   r76, 4
        bne  r81, r76, 2b
        # four receives, each into its own buffer
        li   r82, 0
7:      sll  a0, r82, 16                 # buffer r82 at recvbuf + r82 * 4 * 16384
        add  a0, a0, recvbuf
        li   a1, 16384
        call msg_receive
        bne  a1, r64, bad_len
        sll  r76, r82, 2
        stw  a0, [r76 + sources]
        add  r82, r82, 1
        li   r76, 4
        bne  r82, r76, 7b
        # and the sends gone
        li   r81, 0
9:      sll  r76, r81, 2
        ldw  a0, [r76 + handles]
        call msg_wait
        add  r81, r81, 1
        li   r76, 4
        bne  r81, r76, 9b
        call sync_barrier                # the pattern is over when every cell is done
        rdcr r87, [CR_CLOCK_LO]
        sub  r88, r87, r80
        # the words, checked after the clock stopped
        li   r82, 0
10:     sll  r76, r82, 2
        ldw  r83, [r76 + sources]
        sll  r83, r83, 16
        sll  r84, r82, 16
        add  r84, r84, recvbuf
        mov  r85, r64
8:      ldw  r86, [r84]
        bne  r86, r83, bad_word
        { add r83, r83, 1 ; add r84, r84, 4 ; loop r85, 8b }
        add  r82, r82, 1
        li   r76, 4
        bne  r82, r76, 10b
        mov  a0, r88
        mov  a1, r80
        halt
bad_word: trap 1
bad_len:  trap 2

        .data
handles: .word 0, 0, 0, 0
sources: .word 0, 0, 0, 0
