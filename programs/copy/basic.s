# The basic transfers of the copy-transfer model (Stricker and Gross, "Optimizing Memory System Performance
# for Communication in Parallel Computers", section 3.2) on two cells, for `iwarp bench copy`
# (docs/copy.md). Cell 0 is the sender (and the only cell of a local copy), cell 1 the receiver, its +X
# neighbour. The host lays out memory before the run (experiments/copy/copy_measure.c): the source words, the
# index arrays (byte addresses, so reading the index is one load), guard words in the destination; and it
# checks every destination word after.
#
#   a0 = transfer: 0 xCy local copy; 1 xS0 load-send through go0 (LIW); 2 xS0 in plain code (one operation
#        an instruction); 3 xF0 fetch-send by a spool; 4 0Ry receive-store from gi0; 5 0Dy receive-deposit
#        by a spool; 6 0D! deposit of address-data pairs (the CA, runtime/deposit.s's loop); 7 Nd data
#        over the network; 8 Nadp address-data pairs over the network; and xQy end to end built from them:
#        9 by buffer packing (xC1, 1F0 || Nd || 0D1, 1Cy), 10 chained (xS0 || Nd || 0Ry, or to an indexed
#        destination xS0 || Nadp || 0D!); 11 0C1, the memory's store rate (a register's word stored N times),
#        12 1C0, its load rate (N words loaded, kept nowhere): the bounds of resource constraints
#   a1 = N words (even, 2 or more)
#   a2 = read stride in bytes (0: indexed through RIDX), or for 7 and 8 the congestion k (1..4 pathways
#        on one link, each moving N words)
#   a3 = write stride in bytes (0: indexed through WIDX)
#
# The loops are the best this machine allows, as the paper asks of its basic transfers ("unrolled and
# optimally scheduled"): the memory makes one access per clock and a bundle with memory operations takes
# 2 clocks, so a word that needs two accesses (a copy, an indexed send) costs 2 clocks, three accesses 3
# clocks (unrolled by two: three bundles of two accesses for two words), four accesses 4.
#
# Cell 0 writes its clock when the transfer starts to RESULTS, the cell that finishes it its clock at the
# end to RESULTS + 4 (the array has one clock: the host subtracts them).
        .include "sync.s"
        .include "copy.inc"

        .equ SRC,     0x010000       # source words (strided reads span up to N * stride bytes)
        .equ RIDX,    0x180000       # read index array: N source addresses
        .equ WIDX,    0x190000       # write index array: N destination addresses
        .equ PAIRS,   0x1a0000       # address-data pairs (transfers 6 and 8): 2N words
        .equ BUF,     0x1c0000       # buffer packing's buffers (both cells): N words
        .equ DST,     0x200000       # destination words
        .equ RESULTS, 0x3f0000
        .equ CH,      12             # the transfers' channels: 12, 13, ... on both cells

        # spool s (a register, 0..7) on channel ch (register) from or to addr, count words stride bytes apart
        .macro spool_go s, ch, addr, stride, count, mode
        sll  r21, \s, 3
        wrcr \ch, [r21 + COA_SPOOL + SPOOL_LC]
        wrcr \addr, [r21 + COA_SPOOL + SPOOL_ADDR]
        wrcr \stride, [r21 + COA_SPOOL + SPOOL_STRIDE]
        wrcr \count, [r21 + COA_SPOOL + SPOOL_COUNT]
        li   r22, \mode
        wrcr r22, [r21 + COA_SPOOL + SPOOL_CTRL]
        .endm

        .text
_start: mov  r60, a0                 # transfer
        mov  r61, a1                 # N
        mov  r62, a2                 # read stride, or k
        mov  r63, a3                 # write stride
        li   r64, RESULTS
        call sync_init
        rdcr r59, [CR_CELL_ID]
        li   r58, 1                  # pathways on the link: k for 7 and 8
        li   r23, 7
        beq  r60, r23, 1f
        li   r23, 8
        bne  r60, r23, 2f
1:      mov  r58, r62
2:      call pathways
        call sync_barrier
        bnez r59, receiver

# --- cell 0 --------------------------------------------------------------------------------------------
        li   r23, CH
        wrcr r23, [COA_GATE_OUT0]
        li   r40, SRC
        li   r41, DST
        li   r42, RIDX
        li   r43, WIDX
        rdcr r50, [CR_CLOCK_LO]
        stw  r50, [r64]
        beqz r60, local_copy
        li   r23, 11
        beq  r60, r23, store_stream
        li   r23, 12
        beq  r60, r23, load_stream
        li   r23, 9
        beq  r60, r23, packing_send
        li   r23, 10
        beq  r60, r23, chained_send
        li   r23, 1
        beq  r60, r23, load_send
        li   r23, 2
        beq  r60, r23, plain_send
        li   r23, 3
        beq  r60, r23, fetch_send
        li   r23, 6
        beq  r60, r23, pairs_send
        li   r23, 8
        beq  r60, r23, pairs_send
        # 4, 5, 7: a contiguous stream from spools, one per pathway
        li   r27, 4
        jmp  spools_send

local_copy:
        call copy
        jmp  finish

# 0C1 and 1C0: two accesses a bundle, a word a clock.
store_stream:
        srl  r30, r61, 1
        li   r12, 0x0c1
1:      { stw r12, [r41] ; stw r12, [r41 + 4] ; add r41, r41, 8 ; loop r30, 1b }
        jmp  finish
load_stream:
        srl  r30, r61, 1
1:      { ldw r10, [r40] ; ldw r11, [r40 + 4] ; add r40, r40, 8 ; loop r30, 1b }
        jmp  finish

# xQy by buffer packing: gather xC1 into BUF, then a spool sends it (1F0).
packing_send:
        li   r41, BUF
        li   r63, 4
        call copy
        li   r24, 0
        li   r25, CH
        li   r40, BUF
        li   r27, 4
        spool_go r24, r25, r40, r27, r61, SPOOL_SEND
        li   r24, 1
        jmp  spools_wait

# xQy chained: xS0 straight from the source; to an indexed destination each word goes after its address
# (address-data pairs: the sender reads the receiver's addresses from WIDX).
chained_send:
        bnez r63, load_send
        mov  r30, r61
        beqz r62, 1f
2:      { ldw go0, [r43] ; add r43, r43, 4 }
        { ldw go0, [r40] ; add r40, r40, r62 ; loop r30, 2b }
        jmp  sent
1:      { ldw r10, [r42] ; add r42, r42, 4 }   # each word's index loads a bundle ahead of its use (docs/isa.md,
2:      { ldw go0, [r43] ; add r43, r43, 4 }   # "Bypass stalls")
        { ldw go0, [r10] ; ldw r10, [r42] ; add r42, r42, 4 ; loop r30, 2b }
        jmp  sent

# xS0: a word to go0 per bundle; indexed: the indices two words on load beside the word.
load_send:
        mov  r30, r61
        beqz r62, 1f
2:      { ldw go0, [r40] ; add r40, r40, r62 ; loop r30, 2b }
        jmp  sent
1:      { ldw r10, [r42] ; ldw r11, [r42 + 4] ; add r42, r42, 8 }   # two indices in flight, each used two
        srl  r30, r61, 1                                             # bundles after its load (docs/isa.md)
        beqz r30, 3f
2:      { ldw go0, [r10] ; ldw r10, [r42] ; add r42, r42, 4 }
        { ldw go0, [r11] ; ldw r11, [r42] ; add r42, r42, 4 ; loop r30, 2b }
3:      and  r30, r61, 1
        beqz r30, sent
        ldw  go0, [r10]
        jmp  sent
plain_send:
        mov  r30, r61
        beqz r62, 1f
2:      ldw  go0, [r40]
        add  r40, r40, r62
        loop r30, 2b
        jmp  sent
1:      ldw  r10, [r42]
        ldw  go0, [r10]
        add  r42, r42, 4
        loop r30, 1b
sent:   jmp  done_sender

# xF0: spool 0 fetches N words r62 bytes apart.
fetch_send:
        li   r24, 0
        li   r25, CH
        spool_go r24, r25, r40, r62, r61, SPOOL_SEND
        li   r24, 1
        jmp  spools_wait

# The pairs of 6 and 8, 2N words per pathway, by spools.
pairs_send:
        li   r40, PAIRS
        sll  r26, r61, 1
        li   r27, 4
        li   r24, 0
1:      add  r25, r24, CH
        spool_go r24, r25, r40, r27, r26, SPOOL_SEND
        add  r24, r24, 1
        bltu r24, r58, 1b
        mov  r24, r58
        jmp  spools_wait

# A contiguous stream of N words on each of the r58 pathways (r27 = 4: the stride).
spools_send:
        li   r24, 0
1:      add  r25, r24, CH
        spool_go r24, r25, r40, r27, r61, SPOOL_SEND
        add  r24, r24, 1
        bltu r24, r58, 1b
        mov  r24, r58
        jmp  spools_wait

spools_wait:
        call wait_spools
done_sender:
        li   r23, 1
        beq  r60, r23, finish_send
        li   r23, 2
        beq  r60, r23, finish_send
        li   r23, 3
        beq  r60, r23, finish_send
        halt                         # the receiver times the others
finish_send:
finish: rdcr r51, [CR_CLOCK_LO]
        stw  r51, [r64 + 4]
        halt

# --- cell 1 --------------------------------------------------------------------------------------------
receiver:
        beqz r60, 9f                 # a local copy: nothing to do here
        li   r23, 11
        bgeu r60, r23, 9f
        li   r23, CH
        wrcr r23, [COA_GATE_IN0]
        li   r41, DST
        li   r43, WIDX
        li   r23, 9
        beq  r60, r23, packing_receive
        li   r23, 10
        beq  r60, r23, chained_receive
        li   r23, 4
        beq  r60, r23, receive_store
        li   r23, 5
        beq  r60, r23, receive_deposit
        li   r23, 6
        beq  r60, r23, pairs_deposit
        li   r23, 7
        bltu r60, r23, drain          # 1, 2, 3: the sender is timed; this cell drains to DST
        # 7 and 8: a spool per pathway stores what arrives (2N words each for pairs)
        mov  r26, r61
        li   r23, 8
        bne  r60, r23, 1f
        sll  r26, r61, 1
1:      li   r27, 4
        li   r24, 0
2:      add  r25, r24, CH
        spool_go r24, r25, r41, r27, r26, SPOOL_RECEIVE
        sll  r28, r26, 2
        add  r41, r41, r28
        add  r24, r24, 1
        bltu r24, r58, 2b
        mov  r24, r58
        jmp  receive_wait
9:      halt

# xQy by buffer packing: a spool receives into BUF (0D1), then the scatter 1Cy.
packing_receive:
        li   r24, 0
        li   r25, CH
        li   r40, BUF
        li   r27, 4
        spool_go r24, r25, r40, r27, r61, SPOOL_RECEIVE
        li   r24, 1
        call wait_spools
        li   r40, BUF
        li   r62, 4
        call copy
        jmp  finish

# xQy chained: 0Ry from the gate, or the pairs' deposit for an indexed destination.
chained_receive:
        bnez r63, receive_store
        jmp  pairs_deposit

# 0Ry: a word from gi0 per bundle; indexed: the addresses two words on load beside the store.
receive_store:
        mov  r30, r61
        beqz r63, 1f
2:      { stw gi0, [r41] ; add r41, r41, r63 ; loop r30, 2b }
        jmp  finish
1:      { ldw r10, [r43] ; ldw r11, [r43 + 4] ; add r43, r43, 8 }   # two addresses in flight, each used two
        srl  r30, r61, 1                                             # bundles after its load (docs/isa.md)
        beqz r30, 3f
2:      { stw gi0, [r10] ; ldw r10, [r43] ; add r43, r43, 4 }
        { stw gi0, [r11] ; ldw r11, [r43] ; add r43, r43, 4 ; loop r30, 2b }
3:      and  r30, r61, 1
        beqz r30, finish
        stw  gi0, [r10]
        jmp  finish

# 0Dy: spool 0 stores N words r63 bytes apart.
receive_deposit:
        li   r24, 0
        li   r25, CH
        spool_go r24, r25, r41, r63, r61, SPOOL_RECEIVE
        li   r24, 1
        jmp  receive_wait

# 0D!: each pair's address, then its word stored there (runtime/deposit.s's pairs loop).
pairs_deposit:
        mov  r30, r61
1:      mov  r19, gi0
        { stw gi0, [r19] ; loop r30, 1b }
        jmp  finish

# The sender is timed: take the words as fast as they come, by spool 0, contiguous.
drain:  li   r24, 0
        li   r25, CH
        li   r27, 4
        spool_go r24, r25, r41, r27, r61, SPOOL_RECEIVE
        li   r24, 1
        call wait_spools
        halt

receive_wait:
        call wait_spools
        jmp  finish

# Waits for spools 0 .. r24 - 1.
wait_spools:
        li   r25, 0
1:      sll  r26, r25, 3
        rdcr r27, [r26 + COA_SPOOL + SPOOL_STATUS]
        and  r27, r27, SPOOL_DONE
        beqz r27, 1b
        add  r25, r25, 1
        bltu r25, r24, 1b
        ret

# Static pathways CH .. CH + r58 - 1 from cell 0 to cell 1 over the +X link: on cell 0 from go0 (transfers
# 1, 2 and 10) or spool j, on cell 1 to gi0 (transfers 4, 6 and 10) or spool j.
pathways:
        li   r57, 0                  # 1: this cell's end is its gate
        li   r23, 1
        beq  r60, r23, 1f
        li   r23, 2
        beq  r60, r23, 1f
        li   r23, 4
        beq  r60, r23, 2f
        li   r23, 6
        beq  r60, r23, 2f
        li   r23, 10
        beq  r60, r23, 3f
        jmp  4f
3:      li   r57, 1                  # both ends
        jmp  4f
1:      seq  r57, r59, 0             # the sender's gate
        jmp  4f
2:      sne  r57, r59, 0             # the receiver's gate
4:      li   r24, 0
5:      add  r25, r24, CH
        sll  r26, r25, 3
        li   r20, END_SPOOL << 12
        or   r20, r20, r24
        beqz r57, 6f
        li   r20, END_GATE << 12
6:      beqz r59, 7f
        wrcr r20, [r26 + COA_LC + LC_ROUTE]
        li   r20, (END_LINK << 12) | (DIR_MX << 8)
        or   r20, r20, r25
        wrcr r20, [r26 + COA_LC + LC_SOURCE]
        jmp  8f
7:      wrcr r20, [r26 + COA_LC + LC_SOURCE]
        li   r20, (END_LINK << 12) | (DIR_PX << 8)
        or   r20, r20, r25
        wrcr r20, [r26 + COA_LC + LC_ROUTE]
8:      add  r24, r24, 1
        bltu r24, r58, 5b
        ret
