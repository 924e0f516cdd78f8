# Address relation caching on two cells, as Dinda and O'Hallaron measured it on iWarp ("The Performance Impact
# of Address Relation Caching", section 4): cell 0 sends N data words to cell 1, I times, as deposit-model
# messages in the address-data pair format over message passing (runtime/msg.s); cell 1 deposits each word
# at its address. The address relation is the identity, computed in NG instructions per tuple: one
# instruction makes the next tuple, NG - 1 nops stand for a costlier relation (-D NG=k; the paper inserted
# nops too). Each loop is one operation per instruction, so its count is the model's.
#
#   a0 = mode: 0 uncached (the relation computed while assembling, every time), 1 cached (computed and stored
#        once, then every message assembled from the cache)
#   a1 = N data words (1..4096), a2 = I messages (1..256)
#
# Cell 0 records per message at RESULTS + 16 i: its clock when it starts the message, the clocks of the
# assembly, and of storing the relation (cached mode, first message; else 0). Cell 1 records the clock at
# which it has deposited message i at RESULTS + 16 i + 12, and acknowledges it, so that messages do not
# overlap: each is timed from the start of its assembly to its last deposit. Both halt with a0 = I.
        .include "msg.s"
        .include "sync.s"

        .ifndef NG
        .equ NG, 1
        .endif
        .equ MAXN, 4096
        .equ SRC, 0x20000              # cell 0: the data sent
        .equ DST, 0x20000              # cell 1: where it goes (the identity relation)
        .equ CACHE, 0x30000            # cell 0: the cached relation, 2 words a tuple
        .equ MSGBUF, 0x40000           # both: the message, 2 words a tuple
        .equ RESULTS, 0x50000
        .equ GUARD, 0x5eedf00d         # cell 1: words around the target, which a deposit must not touch

        .bss
        .align 8
ack:    .space 8

        .text
_start: mov  r60, a0                   # mode
        mov  r61, a1                   # N
        mov  r62, a2                   # I
        call msg_init
        call sync_init
        rdcr r63, [CR_CELL_ID]
        bnez r63, receiver

# --- cell 0 -------------------------------------------------------------------------------------------
        # the data: word k of SRC is k * 3 + 1
        li   r40, SRC
        mov  r43, r61
        li   r45, 1
1:      stw  r45, [r40]
        add  r40, r40, 4
        add  r45, r45, 3
        loop r43, 1b
        call sync_barrier
        li   r64, 0                    # message number
        li   r65, RESULTS
sender: rdcr r50, [CR_CLOCK_LO]
        stw  r50, [r65]
        li   r52, 0                    # store clocks
        beqz r60, uncached
        bnez r64, cached               # the relation is in the cache from the first message on

# The three loops are the paper's: each has its static count of instructions besides the memory accesses
# (n_o 6, n_ac 2, n_au 5; section 4.1) and does the accesses in the order its section 3 gives them. The paper
# does not print its code, so the rest is ours, laid out in statement order as a compiler that schedules
# nothing would: the relation's NG instructions end with the one that makes s (the nops before it), and each
# array element's address is computed where it is used. The bypass stalls (docs/isa.md) then add the clocks
# noted: 2, 1 and 2, which make the paper's dynamic counts (n_o 8, n_ac 3, n_au 7).

# Store the relation in the cache: per tuple NG instructions of relation, then the tuple's two writes.
        li   r40, SRC - 4              # s; r = s (the identity relation, DST = SRC)
        li   r46, 0                    # j: the tuple's first word in the cache
        mov  r43, r61
store:
        .rept NG - 1
        nop
        .endr
        add  r40, r40, 4               # the relation: the next (s, r)
store_body:
        sll  r44, r46, 2               # &cache[j]
        add  r44, r44, CACHE
        stw  r40, [r44]                # cache[j] = s (a stall: its address is one instruction old)
        add  r47, r44, 4               # &cache[j + 1]
        stw  r40, [r47]                # cache[j + 1] = r (a stall, likewise)
        add  r46, r46, 2
        sub  r43, r43, 1
        bnez r43, store
store_end:
        rdcr r51, [CR_CLOCK_LO]
        sub  r52, r51, r50
        mov  r50, r51

# Assembly from the cache: read the tuple, read the data word, write the word and the address.
cached: li   r46, 0                    # i: the tuple's byte offset, in the cache and the message alike
        sll  r53, r61, 3               # its end
        li   r54, CACHE
        li   r55, CACHE + 4
        li   r56, MSGBUF
        li   r57, MSGBUF + 4
cached_loop:
        ldw  r40, [r54 + r46]          # s
        ldw  r41, [r55 + r46]          # r
        ldw  r45, [r40]                # the word
        stw  r45, [r57 + r46]          # (a stall: the word is one instruction old)
        stw  r41, [r56 + r46]
        add  r46, r46, 8
        bne  r46, r53, cached_loop
cached_end:
        jmp  send

# Uncached assembly: per tuple NG instructions of relation, then read the word at s, write r, write the word.
uncached:
        li   r40, SRC - 4              # s; r = s
        li   r46, 0                    # j: the tuple's first word in the message
        mov  r43, r61
uncached_loop:
        .rept NG - 1
        nop
        .endr
        add  r40, r40, 4               # the relation: the next (s, r)
uncached_body:
        ldw  r45, [r40]                # (a stall: s is one instruction old)
        sll  r44, r46, 2               # &msg[j]
        add  r44, r44, MSGBUF
        stw  r40, [r44]                # msg[j] = r (a stall: its address is one instruction old)
        stw  r45, [r44 + 4]            # msg[j + 1] = the word
        add  r46, r46, 2
        sub  r43, r43, 1
        bnez r43, uncached_loop
uncached_end:

send:   rdcr r51, [CR_CLOCK_LO]
        sub  r51, r51, r50
        stw  r51, [r65 + 4]
        stw  r52, [r65 + 8]
        li   a0, 1
        li   a1, MSGBUF
        sll  a2, r61, 1
        call msg_send
        li   a0, ack                   # wait until cell 1 has deposited it
        li   a1, 2
        call msg_receive
        add  r65, r65, 16
        add  r64, r64, 1
        bne  r64, r62, sender
        mov  a0, r62
        halt

# --- cell 1: the deposit engine ------------------------------------------------------------------------
receiver:
        # guard words around the target: a deposit writes exactly the words sent
        li   r40, DST - 16
        sll  r43, r61, 2
        add  r43, r43, 32
        srl  r43, r43, 2
        li   r45, GUARD
1:      stw  r45, [r40]
        add  r40, r40, 4
        loop r43, 1b
        call sync_barrier
        li   r64, 0
        li   r65, RESULTS
2:      li   a0, MSGBUF
        li   a1, 2 * MAXN
        call msg_receive
        li   r42, MSGBUF
        srl  r43, a1, 1
        beqz r43, 4f
deposit:
        ldw  r40, [r42]
        ldw  r45, [r42 + 4]
        stw  r45, [r40]
        add  r42, r42, 8
        loop r43, deposit
deposit_end:
4:      rdcr r51, [CR_CLOCK_LO]
        stw  r51, [r65 + 12]
        li   a0, 0
        li   a1, ack
        li   a2, 1
        call msg_send
        add  r65, r65, 16
        add  r64, r64, 1
        bne  r64, r62, 2b
        mov  a0, r62
        halt
