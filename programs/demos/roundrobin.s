# Round robin (teaching demo, programs/demos/roundrobin.txt): cell (0,0) sends four messages to cell
# (3,0), each from its own spool along its own pathway straight along +X. Every link on the way carries
# all four, and its round-robin scheduler serves them in turn. The spools start a few clocks apart, so
# the link is shared by one, two, three, then four pathways.
#
# Halts with a0 = the words received at (3,0) (4 * LEN); traps 1 on a wrong word.
        .include "demo.inc"

        .equ LEN, 40                     # data words per message
        .equ DST_X, 3

# One message as a sending spool reads it: sign (0,0) go +X, sign (DST_X,0) end at spool 4+k, the data
# (k << 16 | i), a trailer.
        .macro message k
        .word SIGN_KIND | (DIR_PX << 15)
        .word SIGN_KIND | (DST_X << 23) | (SIGN_SPOOL << 15) | ((4 + \k) << 12)
        .set i, 0
        .rept LEN
        .word (\k << 16) | i
        .set i, i + 1
        .endr
        .word TRAILER_KIND | \k
        .endm

        .data
msgs:   message 0
        message 1
        message 2
        message 3
        .equ MSG_WORDS, LEN + 3
        .bss
        .align 16
inbox:  .space 4 * 4 * LEN

        .text
_start: rdcr r10, [CR_CELL_X]
        # The default reservation lets a cell take only two pool-0 channels of its +X neighbour (8 and 9);
        # here nothing else travels, so +X hops may take all of pool 0 (channels 8-15).
        li   r11, 0xff00
        wrcr r11, [COA_LINK_POOL + DIR_PX * 8]
        rdcr r12, [COA_REMOTE_FREE + DIR_PX * 2]
        or   r12, r12, r11
        wrcr r12, [COA_REMOTE_FREE + DIR_PX * 2]
        beqz r10, sender
        li   r12, DST_X
        beq  r10, r12, receiver
        halt                             # (1,0) and (2,0): their agents forward, their CAs rest

# Spool s sends message s: its two signs and its trailer tagged.
sender: spool_send 0, msgs + 0 * MSG_WORDS * 4, MSG_WORDS, 2, 1, DST_X
        spool_send 1, msgs + 1 * MSG_WORDS * 4, MSG_WORDS, 2, 1, DST_X
        spool_send 2, msgs + 2 * MSG_WORDS * 4, MSG_WORDS, 2, 1, DST_X
        spool_send 3, msgs + 3 * MSG_WORDS * 4, MSG_WORDS, 2, 1, DST_X
        spool_wait 0
        spool_wait 1
        spool_wait 2
        spool_wait 3
        halt

# Receiving spools 4..7 each take the pathway whose last sign names them.
receiver:
        spool_receive 4, inbox + 0 * LEN * 4, LEN
        spool_receive 5, inbox + 1 * LEN * 4, LEN
        spool_receive 6, inbox + 2 * LEN * 4, LEN
        spool_receive 7, inbox + 3 * LEN * 4, LEN
        .set s, 4
        .rept 4
        spool_wait s
        li   r21, MARK_MSG_RECEIVE       # from (0,0)
        wrcr r21, [CR_MARK]
        .set s, s + 1
        .endr
        # check the last word of each message (k << 16 | LEN - 1): all four arrived whole and in order
        li   r24, inbox + (LEN - 1) * 4
        li   r26, LEN - 1
        li   r3, 4
3:      ldw  r27, [r24]
        bne  r27, r26, bad
        { add r24, r24, LEN * 4 ; add r26, r26, 1 << 16 ; loop r3, 3b }
        li   a0, 4 * LEN
        halt
bad:    trap 1
