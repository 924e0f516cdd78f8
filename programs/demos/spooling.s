# Streaming and spooling (teaching demo, programs/demos/spooling.txt). Two transfers of N words along a
# row, side by side:
#
#   row 0, streaming: the CA of (0,0) writes every word into go0, the CA of (3,0) reads every word from
#   gi0; both are busy (or stalled on their gate) for the whole transfer;
#   row 1, spooling: the CAs of (0,1) and (3,1) each start a spool with a few control-register writes and
#   go on computing (here: a sum of squares) while the spools move the words between memory and the
#   network in the background, using the memory clocks the CA leaves free.
#
# Both transfers run at the link's speed, one word every 2 clocks. Halts with a0 = the sum of the words
# received (the streaming receiver), the last word (the spooling receiver) or the sum of squares (the
# spooling sender); traps 1 on a wrong word.
        .include "demo.inc"

        .equ N, 96
        .equ WORK, 60                    # sum of squares 1..WORK: the spooling cells' other work

        .data
        .align 16
# the message the spool sends: sign (0,1) go +X, sign (3,1) end at spool 4, N words (i), a trailer
msg:    .word SIGN_KIND | (1 << 18) | (DIR_PX << 15)
        .word SIGN_KIND | (3 << 23) | (1 << 18) | (SIGN_SPOOL << 15) | (4 << 12)
        .set i, 0
        .rept N
        .word i
        .set i, i + 1
        .endr
        .word TRAILER_KIND
        .bss
        .align 16
inbox:  .space 4 * N

        .text
_start: rdcr r10, [CR_CELL_X]
        rdcr r11, [CR_CELL_Y]
        li   r12, 3
        beqz r11, row0
        beqz r10, send_spooled
        beq  r10, r12, recv_spooled
        halt
row0:   beqz r10, stream_send
        beq  r10, r12, stream_recv
        halt

stream_send:
        gate_message SIGN_KIND | (DIR_PX << 15), SIGN_KIND | (3 << 23) | (SIGN_GATE << 15), N, 0, 3
        halt

stream_recv:
        li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN0]
        gate_receive N, 0
        halt

send_spooled:
        spool_send 0, msg, N + 3, 2, 1, 7
        call work                        # meanwhile: something else
        spool_wait 0
        halt

recv_spooled:
        spool_receive 4, inbox, N
        call work
        spool_wait 4
        li   r5, MARK_MSG_RECEIVE
        wrcr r5, [CR_MARK]
        ldw  r7, [inbox + (N - 1) * 4]   # the last word is there, and right
        li   r4, N - 1
        bne  r7, r4, bad
        mov  a0, r7
        halt

# work(): a0 = 1^2 + 2^2 + ... + WORK^2, in registers only (the spools keep the memory port).
work:   li   r3, WORK
        li   r30, 0
6:      mul  r31, r3, r3
        { add r30, r30, r31 ; loop r3, 6b }
        mov  a0, r30
        ret
bad:    trap 1
