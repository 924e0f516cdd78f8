# The basic communication patterns of seed 004 (section 5.1) under ConSet: the communication compiler's
# tables (iwarp route, loaded at CONSET_TABLES by the run description's celldata line) give the phases; for
# each phase the cells switch context and stream their connections, one word out and one in each 2 clocks.
#
#   a0 = K, the words of the longest connection (the send buffer holds K words of (id << 16) | i)
#   a1 = 1: check every word received after each phase (inside the timed part; 0 for timing). Each
#        receive of a phase lands in its own slot of K words; without checking they all share one.
#
# Halts with a0 = clocks from leaving the start barrier to leaving the end barrier. Traps 1 on a wrong
# word, 2 when checking and a phase's receives do not fit the receive area (RECV_WORDS words), 3 when K
# is more than the send buffer holds (SEND_WORDS).
        .include "conset.s"

        .bss
        .align 16
        .equ SEND_WORDS, 16384
sendbuf: .space 4 * SEND_WORDS
        .equ RECV_WORDS, 4 * 16384
recvbuf: .space 4 * RECV_WORDS           # e.g. room for four receives of 16384 words in a phase

        .text
_start: mov  r64, a0                     # K
        li   r66, SEND_WORDS
        bgtu r64, r66, too_long
        mov  r65, a1                     # check
        call conset_init
        rdcr r66, [CR_CELL_ID]
        sll  r67, r66, 16
        li   r68, sendbuf
        mov  r69, r64
1:      { stw r67, [r68] ; add r67, r67, 1 ; add r68, r68, 4 ; loop r69, 1b }
        call conset_phases
        mov  r70, a0
        call sync_barrier
        rdcr r80, [CR_CLOCK_LO]
        li   r71, 0                      # phase
        beqz r70, 9f                     # a set with no connections has no phases
3:      mov  a0, r71
        call conset_instantiate
        mov  a0, r71
        li   a1, sendbuf
        li   a2, recvbuf
        li   a3, 0
        beqz r65, 4f
        mov  a0, r71                     # checking: a slot of K words per receive, if they fit
        call conset_lists
        mul  r72, a3, r64
        li   r73, RECV_WORDS
        bgtu r72, r73, too_many
        mov  a0, r71
        li   a1, sendbuf
        li   a2, recvbuf
        sll  a3, r64, 2
4:      call conset_transfer
        beqz r65, 7f
        # check: the i-th receive of the phase came from its source, word j = (source << 16) | j
        mov  a0, r71
        call conset_lists
        mov  r72, a1                     # receive entries
        mov  r73, a3                     # receives
        li   r74, recvbuf
        beqz r73, 7f
5:      ldw  r75, [r72 + XE_PEER]        # source
        sll  r75, r75, 16
        ldw  r76, [r72 + XE_WORDS]
        mov  r77, r74
        beqz r76, 8f
6:      ldw  r78, [r77]
        bne  r78, r75, bad_word
        { add r75, r75, 1 ; add r77, r77, 4 ; loop r76, 6b }
8:      sll  r79, r64, 2
        add  r74, r74, r79
        add  r72, r72, XE_SIZE
        loop r73, 5b
7:      add  r71, r71, 1
        bne  r71, r70, 3b
9:      call sync_barrier                # the pattern is over when every cell is done
        rdcr r81, [CR_CLOCK_LO]
        sub  a0, r81, r80
        halt
bad_word: trap 1
too_many: trap 2
too_long: trap 3
