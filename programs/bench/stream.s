# Every link of the array busy at once, for `iwarp bench speed`: static pathways set up through the
# channel registers (no headers), with the computation agents forwarding two rings through their gates
# and spools streaming the other two directions from and to memory.
#
#   +X ring: go0 -> channel 12 -> +X neighbour's channel 13 -> its gi0 (the CA forwards gi0 to go0)
#   +Y ring: go1 -> channel 14 -> +Y neighbour's channel 15 -> its gi1
#   -X: spool 0 sends from memory -> channel 16 -> -X neighbour's channel 17 -> its spool 2
#   -Y: spool 1 sends -> channel 18 -> -Y neighbour's channel 19 -> its spool 3
# The four spools share the one memory port (a word per clock), so the -X and -Y links run at half rate.
#
# a0 = N, words each cell forwards on each ring (the spools move N/2 words each).
        .include "coa.inc"
        .equ K, 4                    # words each cell puts on each ring before forwarding

        .macro spool s, ch, addr, count, mode
        li   r20, \ch
        wrcr r20, [COA_SPOOL + (\s) * 8 + SPOOL_LC]
        li   r20, \addr
        wrcr r20, [COA_SPOOL + (\s) * 8 + SPOOL_ADDR]
        wrcr zero, [COA_SPOOL + (\s) * 8 + SPOOL_STRIDE]
        wrcr \count, [COA_SPOOL + (\s) * 8 + SPOOL_COUNT]
        li   r20, \mode
        wrcr r20, [COA_SPOOL + (\s) * 8 + SPOOL_CTRL]
        .endm

        .data
word:   .word 0x5eed
sink:   .word 0

        .text
_start: mov  r3, a0
        srl  r21, a0, 1              # words per spool
        lc_source 12, END_GATE, 0, 0
        lc_route  12, END_LINK, DIR_PX, 13
        lc_source 13, END_LINK, DIR_MX, 12
        lc_route  13, END_GATE, 0, 0
        lc_source 14, END_GATE, 0, 1
        lc_route  14, END_LINK, DIR_PY, 15
        lc_source 15, END_LINK, DIR_MY, 14
        lc_route  15, END_GATE, 0, 1
        lc_route  16, END_LINK, DIR_MX, 17
        lc_source 17, END_LINK, DIR_PX, 16
        lc_route  17, END_SPOOL, 0, 2
        lc_route  18, END_LINK, DIR_MY, 19
        lc_source 19, END_LINK, DIR_PY, 18
        lc_route  19, END_SPOOL, 0, 3
        spool 2, 17, sink, r21, SPOOL_RECEIVE
        spool 3, 19, sink, r21, SPOOL_RECEIVE
        spool 0, 16, word, r21, SPOOL_SEND
        spool 1, 18, word, r21, SPOOL_SEND

        li   r4, K
1:      { mov go0, r4 ; mov go1, r4 ; loop r4, 1b }
2:      { or go0, gi0, zero ; or go1, gi1, zero ; loop r3, 2b }
        li   r4, K
3:      { add r5, r5, gi0 ; add r6, r6, gi1 ; loop r4, 3b }

        li   r7, 0                   # wait for the four spools
4:      sll  r8, r7, 3
        rdcr r9, [r8 + COA_SPOOL + SPOOL_STATUS]
        and  r9, r9, SPOOL_DONE
        beqz r9, 4b
        add  r7, r7, 1
        li   r9, 4
        bne  r7, r9, 4b
        halt
