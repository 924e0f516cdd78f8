# A barrier over reserved synchronization channels (docs/runtime.md; seed 004, section 4.2: ConSet kept
# channels for fast synchronization, and its t_sync grows with the size of the machine).
#
# When the torus has an even side, the barrier is a ring through every cell (a snake along the rows, or
# along the columns): channel 0 of each cell feeds channel 1 of the next cell on the ring, set up once by
# sync_init with no header. Cell 0 sends a token round the ring (when it comes back every cell has
# arrived), then a release (each cell passes it on and goes). A cell forwards through its gates: gi1 reads
# the ring, go0 writes it. When both sides are odd there is no such ring: then channels 0-3 hold a ring
# along each row (0 -> the +X neighbour's 1) and along each column (2 -> the +Y neighbour's 3), and a
# barrier goes round each row, round column 0, back down column 0 and along each row.
# sync_barrier keeps events off while it holds the gates.

        .ifndef SYNC_S
        .equ SYNC_S, 1  # included once, however many files include it

        .include "coa.inc"

        .equ SYNC_X_OUT, 0
        .equ SYNC_X_IN, 1
        .equ SYNC_Y_OUT, 2
        .equ SYNC_Y_IN, 3

        .data
sync_snake:     .word 0                  # 1: the one-ring barrier (an even side), 0: rows and column 0

        # Binds go0 to channel out and gi1 to channel in: a ring of the barrier. Uses r14.
        .macro sync_gates out, in
        li   r14, \out
        wrcr r14, [COA_GATE_OUT0]
        li   r14, \in
        wrcr r14, [COA_GATE_IN1]
        .endm

        .text

# sync_init(): the rings. Every cell calls it before its first barrier.
sync_init:
        rdcr r12, [CR_CELL_X]
        rdcr r13, [CR_CELL_Y]
        rdcr r14, [CR_ARRAY_W]
        rdcr r15, [CR_ARRAY_H]
        sub  r16, r14, 1                 # last x
        sub  r17, r15, 1                 # last y
        and  r18, r15, 1
        beqz r18, .rows                  # even height: snake along the rows
        and  r18, r14, 1
        bnez r18, .grid                  # both odd: no snake ring
        # even width: snake along the columns (the rows' snake with x and y swapped)
        and  r18, r12, 1
        bnez r18, 1f
        li   r19, DIR_PY                 # even column: down, then across at the bottom
        bne  r13, r17, 2f
        li   r19, DIR_PX
2:      li   r20, DIR_MY                 # words come from above, or from the left at the top
        bnez r13, .ring
        li   r20, DIR_MX
        jmp  .ring
1:      li   r19, DIR_MY                 # odd column: up, then across at the top
        bnez r13, 3f
        li   r19, DIR_PX
3:      li   r20, DIR_PY                 # words come from below, or from the left at the bottom
        bne  r13, r17, .ring
        li   r20, DIR_MX
        jmp  .ring
.rows:  and  r18, r13, 1
        bnez r18, 4f
        li   r19, DIR_PX                 # even row: right, then down at the end
        bne  r12, r16, 5f
        li   r19, DIR_PY
5:      li   r20, DIR_MX                 # words come from the left, or from above at the start
        bnez r12, .ring
        li   r20, DIR_MY
        jmp  .ring
4:      li   r19, DIR_MX                 # odd row: left, then down at the start
        bnez r12, 6f
        li   r19, DIR_PY
6:      li   r20, DIR_PX                 # words come from the right, or from above at the end
        bne  r12, r16, .ring
        li   r20, DIR_MY
.ring:  sll  r19, r19, 8                 # channel 0 -> the next cell's channel 1
        or   r19, r19, (END_LINK << 12) | SYNC_X_IN
        wrcr r19, [COA_LC + SYNC_X_OUT * 8 + LC_ROUTE]
        sll  r20, r20, 8
        or   r20, r20, (END_LINK << 12) | SYNC_X_OUT
        wrcr r20, [COA_LC + SYNC_X_IN * 8 + LC_SOURCE]
        li   r11, 1
        stw  r11, [sync_snake]
        li   r11, 0xf0                   # programs' own pathways start on channels 4..7
        wrcr r11, [COA_LOCAL_POOL]
        ret
.grid:  li   r11, (END_LINK << 12) | (DIR_PX << 8) | SYNC_X_IN
        wrcr r11, [COA_LC + SYNC_X_OUT * 8 + LC_ROUTE]
        li   r11, (END_LINK << 12) | (DIR_MX << 8) | SYNC_X_OUT
        wrcr r11, [COA_LC + SYNC_X_IN * 8 + LC_SOURCE]
        li   r11, (END_LINK << 12) | (DIR_PY << 8) | SYNC_Y_IN
        wrcr r11, [COA_LC + SYNC_Y_OUT * 8 + LC_ROUTE]
        li   r11, (END_LINK << 12) | (DIR_MY << 8) | SYNC_Y_OUT
        wrcr r11, [COA_LC + SYNC_Y_IN * 8 + LC_SOURCE]
        li   r11, 0xf0                   # programs' own pathways start on channels 4..7
        wrcr r11, [COA_LOCAL_POOL]
        ret

# sync_barrier(): returns when every cell has called it. Uses r11..r15, go0 and gi1.
sync_barrier:
        rdcr r11, [CR_EVENT_ENABLE]
        wrcr zero, [CR_EVENT_ENABLE]
        ldw  r12, [sync_snake]
        beqz r12, .grid_barrier
        sync_gates SYNC_X_OUT, SYNC_X_IN
        rdcr r12, [CR_CELL_ID]
        bnez r12, 1f
        mov  go0, r12                    # cell 0: the token round the ring ...
        mov  r15, gi1                    # ... back: everyone has arrived
        mov  go0, r12                    # the release ...
        mov  r15, gi1                    # ... back: everyone has left
        jmp  .done
1:      mov  go0, gi1                    # the token: pass it on as it comes
        mov  go0, gi1                    # the release: pass it on and go
        jmp  .done
.grid_barrier:
        rdcr r12, [CR_CELL_X]
        rdcr r13, [CR_CELL_Y]
        sync_gates SYNC_X_OUT, SYNC_X_IN
        bnez r12, .row_cell
        # x = 0: send the row token round, then the column
        mov  go0, r13
        mov  r15, gi1                    # it came back: the whole row has arrived
        sync_gates SYNC_Y_OUT, SYNC_Y_IN
        bnez r13, .column_cell
        mov  go0, r13                    # (0,0): round column 0 ...
        mov  r15, gi1
        mov  go0, r13                    # ... and the release, back down column 0
        mov  r15, gi1
        jmp  .release_row
.column_cell:
        mov  go0, gi1                    # the column token: pass it on
        mov  go0, gi1                    # the release: pass it on, then along the row
.release_row:
        sync_gates SYNC_X_OUT, SYNC_X_IN
        mov  go0, r13
        mov  r15, gi1                    # back round the row: done
        jmp  .done
.row_cell:
        mov  go0, gi1                    # arrival token: pass it on
        mov  go0, gi1                    # release token: pass it on and go
.done:  li   r14, COA_NONE
        wrcr r14, [COA_GATE_OUT0]
        wrcr r14, [COA_GATE_IN1]
        wrcr r11, [CR_EVENT_ENABLE]
        ret

# sync_barrier_aligned(): a barrier that every cell leaves in the same clock (give or take the 2 clocks of
# the waiting loop). The release carries a clock, the cell that started it reads the clock and adds an
# upper bound of the release's way round (sync_release_clock), and each cell, having passed the release on,
# waits for that clock. A ConSet context switch needs it: a cell that left a plain barrier early could
# rewrite its agent and send into a neighbour still running the last phase's forwarding pattern (seed 004
# put up with the risk; on 16x16 it corrupts words).
# Traps TRAP_SYNC_LATE if the release reached a cell more than SYNC_LATE_LIMIT clocks after the clock it
# names (the bound was wrong: something else held the synchronization channels up, such as another
# pathway's words on the same links). Returns a0 = the clock it named. Uses r11..r16, go0 and gi1.
        .equ SYNC_RELEASE_SLACK, 16

        # r16 <- the clock every cell leaves at, for a release that passes r13 cells on its longest way:
        #   now + r13 * (hop_latency + 1) + link_clocks + SYNC_RELEASE_SLACK
        # At each cell the release lands in the queue of gi1's channel, the cell reads it (`mov r16, gi1`,
        # one clock at the default timing.int = 1; a slower int is not covered) and writes it to go0 in the
        # next clock; the agent sends it on the link in that clock if the link is free, and it lands in the
        # next cell's queue hop_latency clocks later (docs/network.md, "Stream timing"). The link is free
        # unless it sent the token less than link_clocks before (a short ring: the release then waits out
        # the rest): all tokens went by before this clock was read, and once the release has waited at one
        # link it is at least link_clocks behind every token, so it waits at most once on its way. The
        # slack covers what is not a hop: the adds here, and on the rows-and-column barrier the rebinding
        # of the gates at column 0 before the row release. Uses r13..r16.
        .macro sync_release_clock
        rdcr r14, [CR_HOP_LATENCY]
        { add r14, r14, 1 ; rdcr r15, [CR_LINK_CLOCKS] }
        { mul r13, r13, r14 ; add r15, r15, SYNC_RELEASE_SLACK }
        rdcr r16, [CR_CLOCK_LO]
        add  r16, r16, r13
        add  r16, r16, r15
        .endm
        .equ SYNC_LATE_LIMIT, 32
        .equ TRAP_SYNC_LATE, 0x5359
sync_barrier_aligned:
        rdcr r11, [CR_EVENT_ENABLE]
        wrcr zero, [CR_EVENT_ENABLE]
        ldw  r12, [sync_snake]
        beqz r12, .grid_aligned
        sync_gates SYNC_X_OUT, SYNC_X_IN
        rdcr r12, [CR_CELL_ID]
        bnez r12, 1f
        mov  go0, r12                    # cell 0: the token round the ring ...
        mov  r15, gi1                    # ... back: everyone has arrived
        rdcr r13, [CR_ARRAY_W]
        rdcr r14, [CR_ARRAY_H]
        mul  r13, r13, r14               # the release passes every other cell once
        sync_release_clock
        mov  go0, r16                    # the release, naming the clock to leave at ...
        mov  r15, gi1                    # ... back: everyone has it
        jmp  .leave_at
1:      mov  go0, gi1                    # the token: pass it on as it comes
        mov  r16, gi1                    # the release: pass it on, then wait for its clock
        mov  go0, r16
        jmp  .leave_at
.grid_aligned:
        rdcr r12, [CR_CELL_X]
        rdcr r13, [CR_CELL_Y]
        sync_gates SYNC_X_OUT, SYNC_X_IN
        bnez r12, .row_cell_aligned
        mov  go0, r13                    # x = 0: the row token round
        mov  r15, gi1                    # it came back: the whole row has arrived
        sync_gates SYNC_Y_OUT, SYNC_Y_IN
        bnez r13, .column_cell_aligned
        mov  go0, r13                    # (0,0): round column 0
        mov  r15, gi1
        rdcr r13, [CR_ARRAY_W]
        rdcr r14, [CR_ARRAY_H]
        add  r13, r13, r14               # down column 0, then along a row
        sync_release_clock
        mov  go0, r16                    # the release down column 0 ...
        mov  r15, gi1
        jmp  .row_release_aligned
.column_cell_aligned:
        mov  go0, gi1                    # the column token: pass it on
        mov  r16, gi1                    # the release: pass it on, then along the row
        mov  go0, r16
.row_release_aligned:
        sync_gates SYNC_X_OUT, SYNC_X_IN
        mov  go0, r16
        mov  r15, gi1                    # back round the row
        jmp  .leave_at
.row_cell_aligned:
        mov  go0, gi1                    # arrival token: pass it on
        mov  r16, gi1                    # release: pass it on, then wait for its clock
        mov  go0, r16
.leave_at:
        li   r14, COA_NONE
        wrcr r14, [COA_GATE_OUT0]
        wrcr r14, [COA_GATE_IN1]
        rdcr r15, [CR_CLOCK_LO]
        sub  r15, r15, r16
        li   r14, SYNC_LATE_LIMIT
        bgt  r15, r14, .late             # (signed: the clock may wrap)
2:      rdcr r15, [CR_CLOCK_LO]
        sub  r15, r15, r16
        blt  r15, zero, 2b
        wrcr r11, [CR_EVENT_ENABLE]
        mov  a0, r16
        ret
.late:  trap TRAP_SYNC_LATE

        .endif
