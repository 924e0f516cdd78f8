# A barrier over reserved synchronization channels (docs/runtime.md; seed 004, section 4.2: ConSet kept
# three channels for fast synchronization). Channels 0-3 of every cell hold two static rings: 0 -> the +X
# neighbour's 1 and 2 -> the +Y neighbour's 3, set up once by sync_init with no header.
#
# A barrier is four ring trips of a token: around each row (every cell has arrived), around column 0
# (every row has), then back down column 0 and along each row (everyone may go). A cell forwards a token
# through its gates: go0 writes to the ring, gi1 reads from it, rebound between the rings as needed.
# sync_barrier keeps events off while it holds the gates.

        .ifndef SYNC_S
        .equ SYNC_S, 1  # included once, however many files include it

        .include "coa.inc"

        .equ SYNC_X_OUT, 0
        .equ SYNC_X_IN, 1
        .equ SYNC_Y_OUT, 2
        .equ SYNC_Y_IN, 3

        .text

# sync_init(): the two rings. Every cell calls it before its first barrier.
sync_init:
        li   r11, (END_LINK << 12) | (DIR_PX << 8) | SYNC_X_IN
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
        rdcr r12, [CR_CELL_X]
        rdcr r13, [CR_CELL_Y]
        li   r14, SYNC_X_OUT
        wrcr r14, [COA_GATE_OUT0]
        li   r14, SYNC_X_IN
        wrcr r14, [COA_GATE_IN1]
        bnez r12, .row_cell
        # x = 0: send the row token round, then the column
        mov  go0, r13
        mov  r15, gi1                    # it came back: the whole row has arrived
        li   r14, SYNC_Y_OUT
        wrcr r14, [COA_GATE_OUT0]
        li   r14, SYNC_Y_IN
        wrcr r14, [COA_GATE_IN1]
        bnez r13, .column_cell
        mov  go0, r13                    # (0,0): round column 0 ...
        mov  r15, gi1
        mov  go0, r13                    # ... and the release, back down column 0
        mov  r15, gi1
        jmp  .release_row
.column_cell:
        mov  r15, gi1                    # the column token: pass it on
        mov  go0, r15
        mov  r15, gi1                    # the release: pass it on, then along the row
        mov  go0, r15
.release_row:
        li   r14, SYNC_X_OUT
        wrcr r14, [COA_GATE_OUT0]
        li   r14, SYNC_X_IN
        wrcr r14, [COA_GATE_IN1]
        mov  go0, r13
        mov  r15, gi1                    # back round the row: done
        jmp  .done
.row_cell:
        mov  r15, gi1                    # arrival token: pass it on
        mov  go0, r15
        mov  r15, gi1                    # release token: pass it on and go
        mov  go0, r15
.done:  li   r14, COA_NONE
        wrcr r14, [COA_GATE_OUT0]
        wrcr r14, [COA_GATE_IN1]
        wrcr r11, [CR_EVENT_ENABLE]
        ret

        .endif
