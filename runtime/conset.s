# ConSet on the cells (docs/conset.md; seed 004, sections 2 and 4.2): phased connection sets, set up by
# a communication context switch, and streamed through the gates.
#
# The communication compiler (iwarp route) writes each cell's phase tables into a cell data file that the
# run description loads at CONSET_TABLES (`celldata FILE at 0x70000`). A phase record holds the forwarding
# entries of every channel this cell uses in the phase, then the cell's sends and receives in the order
# the compiler's scheduler gave them.
#
#   conset_init()                        checks the tables, sets up the synchronization rings
#   conset_instantiate(a0 = phase)       the communication context switch (7 steps of seed 004, 4.2)
#   conset_transfer(a0 = phase, a1 = send buffer, a2 = receive area, a3 = receive stride in bytes)
#                                        streams the phase's connections in the compiler's segments: each
#                                        send from the send buffer, the i-th receive into a2 + i * a3; one
#                                        word out and one in each 2 clocks while both are going
#   conset_send_element / conset_receive_element: bind a gate to a connection's channel for systolic use.
#
# Uses go0 and gi0 for the data and sync.s's rings (go0, gi1) for the synchronization; events are kept off
# while the agent is rewritten. Calling convention as in docs/runtime.md.

        .include "coa.inc"
        .include "sync.s"

        .ifndef CONSET_S
        .equ CONSET_S, 1

        .ifndef CONSET_TABLES
        .equ CONSET_TABLES, 0x70000      # where the run description loads the cell's tables
        .endif
        .equ CONSET_MAGIC, 0x54455343    # 'CSET'
        .equ CONSET_FIRST_CHANNEL, 4     # the user channels (0-3 synchronize)
        .equ CONSET_LAST_CHANNEL, 19
        .equ TRAP_CONSET_TABLES, 0x4353  # no tables at CONSET_TABLES (celldata missing from the run)
        .equ TRAP_CONSET_PHASE, 0x4354   # a phase the tables do not have
        .equ CONSET_TIMED, 1             # flag of the tables: keep to the schedule's clock
        .ifndef CONSET_LOOKAHEAD
        .equ CONSET_LOOKAHEAD, 8         # words a send runs ahead of its receive (conset_init caps it
                                         # at the machine's queue depth)
        .endif
        # From leaving the switch's barrier to the phase's clock 0: steps 3-6 take at most 16 entries x 6
        # clocks, 16 channels x 3 and some 30 more, so every cell is ready by then.
        .equ CONSET_SWITCH_CLOCKS, 192

        # a phase record, after its forwarding entries (n_fwd, then n_fwd x 4 words)
        .equ PR_SEND_COUNT, 0
        .equ PR_RECV_COUNT, 4
        .equ PR_PREDICTED, 8
        .equ PR_SEGMENT_COUNT, 12
        .equ PR_LISTS, 16
        # a send or receive entry of the lists
        .equ XE_CONN, 0
        .equ XE_CHANNEL, 4
        .equ XE_WORDS, 8
        .equ XE_PEER, 12                 # destination cell id of a send, source of a receive
        .equ XE_SIZE, 16
        # a segment, after the lists: the channels of a send and a receive starting with it (out | in << 8;
        # 0: the one going goes on), its words, which of the two are going, its clock in the schedule
        .equ SEG_CHANNELS, 0
        .equ SEG_WORDS, 4
        .equ SEG_MODE, 8
        .equ SEG_START, 12
        .equ SEG_SIZE, 16
        .equ SEG_SEND, 1
        .equ SEG_RECEIVE, 2
        .equ SEG_BOTH, 3

        # Frees user channel ch unless bit ch of r17 says the phase uses it (r15 scratch). Unrolled, the
        # sixteen cost 2-3 clocks each.
        .macro free_unless_used ch
        and  r15, r17, 1 << \ch
        bnez r15, free_skip\@
        wrcr zero, [COA_LC + \ch * 8 + LC_STATE]
free_skip\@:
        .endm

        .data
conset_phase_clock: .word 0              # CR_CLOCK_LO at the current phase's clock 0
conset_lookahead: .word 0                # min(CONSET_LOOKAHEAD, queue depth)

        .text

# conset_init(): the tables are there; the barrier's rings.
conset_init:
        mov  r31, ra
        ldw  r11, [CONSET_TABLES]
        li   r12, CONSET_MAGIC
        bne  r11, r12, .no_tables
        # A send may run ahead only as far as its own channel's queue holds: beyond that it would wait for
        # its receiver before its own receive has begun, and a circle of such cells would never move.
        rdcr r11, [CR_QUEUE_DEPTH]
        li   r12, CONSET_LOOKAHEAD
        bleu r12, r11, 1f
        mov  r12, r11
1:      stw  r12, [conset_lookahead]
        call sync_init
        jr   r31
.no_tables:
        trap TRAP_CONSET_TABLES

# conset_phases() -> a0 = the number of phases.
conset_phases:
        ldw  a0, [CONSET_TABLES + 4]
        ret

# conset_record(a0 = phase) -> a0 = address of the phase record. Uses r11.
conset_record:
        ldw  r11, [CONSET_TABLES + 4]
        bgeu a0, r11, .bad_phase
        sll  r11, a0, 2
        ldw  a0, [r11 + CONSET_TABLES + 16]
        add  a0, a0, CONSET_TABLES
        ret
.bad_phase:
        trap TRAP_CONSET_PHASE

# conset_instantiate(a0 = phase): the communication context switch of seed 004, section 4.2.
conset_instantiate:
        mov  r30, ra
        mov  r29, a0
        # 1. disable events, so that no handler touches the agent during the switch
        rdcr r28, [CR_EVENT_ENABLE]
        wrcr zero, [CR_EVENT_ENABLE]
        # 2. synchronize all cells: every one has finished with the previous phase's connections. All
        #    leave in the same clock, so the phase's clock can start a fixed time later on every cell.
        #    The labels conset_sync, conset_synced, conset_switched, conset_transfer and
        #    conset_transfer_done are the milestones `iwarp run` times a phase by (docs/conset.md, "Where a
        #    phase's clocks go"): it sees the clock a cell's pc reaches each, so they cost no clock.
conset_sync:
        call sync_barrier_aligned
conset_synced:
        add  a0, a0, CONSET_SWITCH_CLOCKS
        stw  a0, [conset_phase_clock]
        # 3. put the communication agent to sleep
        li   r11, 1
        wrcr r11, [COA_SLEEP]
        # 4. write the new forwarding pattern: every user channel (4..19) the phase uses gets its route and
        #    source (a route to a neighbour gives it a full set of credits); every other one is freed, so
        #    no route of the previous phase is left behind. Only channels the phase does not use are
        #    freed: a neighbour that has finished its switch may already send into one it does use.
        mov  a0, r29
        call conset_record
        ldw  r12, [a0]                   # entries
        add  r13, a0, 4
        li   r17, 0                      # channels the phase uses
        li   r20, 1
        beqz r12, 7f
6:      { ldw r14, [r13] ; ldw r15, [r13 + 4] }                 # channel, route
        { ldw r16, [r13 + 8] ; sll r18, r14, 3 ; sll r19, r20, r14 }          # source
        { wrcr r15, [r18 + COA_LC + LC_ROUTE] ; or r17, r17, r19 ; add r13, r13, 16 }
        { wrcr r16, [r18 + COA_LC + LC_SOURCE] ; loop r12, 6b }
7:      free_unless_used 4
        free_unless_used 5
        free_unless_used 6
        free_unless_used 7
        free_unless_used 8
        free_unless_used 9
        free_unless_used 10
        free_unless_used 11
        free_unless_used 12
        free_unless_used 13
        free_unless_used 14
        free_unless_used 15
        free_unless_used 16
        free_unless_used 17
        free_unless_used 18
        free_unless_used 19
        # 5. wake the agent
        wrcr zero, [COA_SLEEP]
        # 6. enable events again (as they were)
        wrcr r28, [CR_EVENT_ENABLE]
        li   r11, MARK_PHASE
        or   r11, r11, r29
        wrcr r11, [CR_MARK]
        # 7. resume in the new context
conset_switched:
        jr   r30

# conset_lists(a0 = phase) -> a0 = first send entry, a1 = first receive entry, a2 = sends, a3 = receives,
# a4 = first segment, a5 = segments. Uses r11..r13.
conset_lists:
        mov  r13, ra
        call conset_record
        ldw  r12, [a0]                   # forwarding entries to skip
        sll  r12, r12, 4
        add  r12, r12, a0
        add  r12, r12, 4                 # the counts
        ldw  a2, [r12 + PR_SEND_COUNT]
        ldw  a3, [r12 + PR_RECV_COUNT]
        ldw  a5, [r12 + PR_SEGMENT_COUNT]
        add  a0, r12, PR_LISTS
        sll  r11, a2, 4                  # XE_SIZE bytes an entry
        add  a1, a0, r11
        sll  r11, a3, 4
        add  a4, a1, r11
        jr   r13

# conset_transfer(a0 = phase, a1 = send buffer, a2 = receive area, a3 = receive stride in bytes).
# Streams the phase's sends and receives by the compiler's segments: in each the same send and the same
# receive are going, and where both are, an LIW bundle moves one word out through go0 and one in through
# gi0 every 2 clocks. The segments follow the schedule's times, which both ends of a connection share, so
# the cell furthest behind can always move (pairing sends and receives by rank alone can wait in a
# circle). Untimed tables order the words only; timed ones (iwarp route --links) also hold each segment
# until its clock in the schedule, counted from the phase's clock 0, so that connections the compiler
# kept off each other's links stay off them.
conset_transfer:
        sub  sp, sp, 16
        stw  ra, [sp]
        mov  r20, a1                     # send buffer
        mov  r21, a2                     # where the next receive goes
        mov  r22, a3                     # receive stride
        call conset_lists
        mov  r23, a4                     # next segment
        mov  r24, a5                     # segments left
        li   r26, SEG_BOTH
        ldw  r27, [CONSET_TABLES + 8]
        and  r27, r27, CONSET_TIMED
        ldw  r28, [conset_phase_clock]
.seg:   beqz r24, conset_transfer_done
        { ldw r29, [r23 + SEG_CHANNELS] ; ldw r18, [r23 + SEG_WORDS] ; sub r24, r24, 1 }
        { ldw r25, [r23 + SEG_MODE] ; ldw r19, [r23 + SEG_START] ; add r23, r23, SEG_SIZE }
        { and r11, r29, 0xff ; srl r12, r29, 8 }
        beqz r27, 1f
        add  r19, r19, r28               # timed: wait for the segment's clock
7:      rdcr r13, [CR_CLOCK_LO]
        sub  r13, r13, r19
        blt  r13, zero, 7b
1:      beqz r11, 1f
        wrcr r11, [COA_GATE_OUT0]        # a send starts: it streams from the start of the send buffer
        { mov r16, r20 ; mov r30, r11 }  # r30, r31: the channels the gates are bound to
1:      beqz r12, 2f
        wrcr r12, [COA_GATE_IN0]         # a receive starts: its own place in the receive area
        { mov r17, r21 ; mov r31, r12 }
        add  r21, r21, r22
2:      beq  r25, r26, .both
        li   r11, SEG_SEND
        bne  r25, r11, .recv
3:      { ldw go0, [r16] ; add r16, r16, 4 ; loop r18, 3b }
        jmp  .seg
.recv:
4:      { stw gi0, [r17] ; add r17, r17, 4 ; loop r18, 4b }
        jmp  .seg
.both:  # The send runs CONSET_LOOKAHEAD words ahead of the receive: a bundle that writes go0 and reads
        # gi0 issues only when both can go, so cells whose pairings close a circle move as many words per
        # round of the circle as they keep ahead. One word ahead is enough not to deadlock, but the
        # circle then moves a word per latency of its connections (a 3-hop pathway: 8-10 clocks), not
        # per 2 clocks. The words ahead always fit: the source's own queue holds them.
        beq  r30, r31, .self
        ldw  r13, [conset_lookahead]
        bleu r13, r18, 1f
        mov  r13, r18
1:      sub  r18, r18, r13               # words sent and received in the same bundle
        mov  r14, r13                    # receives left at the end
2:      { ldw go0, [r16] ; add r16, r16, 4 ; loop r13, 2b }
        beqz r18, 4f
3:      { ldw go0, [r16] ; stw gi0, [r17] ; add r16, r16, 4 ; add r17, r17, 4 ; loop r18, 3b }
4:      { stw gi0, [r17] ; add r17, r17, 4 ; loop r14, 4b }
        jmp  .seg
.self:  # A connection from the cell to itself: one queue between go0 and gi0, which a bundle that writes
        # one and reads the other could fill and then wait on forever. A word at a time.
5:      { ldw go0, [r16] ; add r16, r16, 4 }
        { stw gi0, [r17] ; add r17, r17, 4 ; loop r18, 5b }
        jmp  .seg
conset_transfer_done:
        li   r11, COA_NONE
        wrcr r11, [COA_GATE_OUT0]
        wrcr r11, [COA_GATE_IN0]
        ldw  ra, [sp]
        add  sp, sp, 16
        ret

# conset_send_element(a0 = channel, a1 = gate 0 or 1): the gate now writes to that connection; the program
# sends elements with `mov go0, value` (systolic use). conset_receive_element likewise for an input gate.
conset_send_element:
        add  a1, a1, COA_GATE_OUT0
        wrcr a0, [a1]
        ret
conset_receive_element:
        add  a1, a1, COA_GATE_IN0
        wrcr a0, [a1]
        ret

        .endif
