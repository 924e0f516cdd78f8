# Events: a software event, the timer, a spool finishing, a pathway arriving, and an event that takes the CA
# away from a gate it waits on. Each check traps (with its number) on failure; the program halts when all
# pass. Runs on one cell: the pathways loop back to the cell itself.
        .include "coa.inc"

        .text
_start: li   r5, handler
        wrcr r5, [CR_EVENT_VECTOR]
        li   r5, EV_SOFT0 | EV_TIMER | EV_ARRIVAL | (EV_SPOOL0 << 1)
        wrcr r5, [CR_EVENT_MASK]
        li   r5, 1
        wrcr r5, [CR_EVENT_ENABLE]

# 1. a software event is taken before the next bundle, and rfe comes back with events on again
        li   r5, EV_SOFT0
        wrcr r5, [CR_EVENT_RAISE]
        li   r6, 1                   # the handler ran before this bundle
        bne  r20, r6, fail1
        rdcr r5, [CR_EVENT_ENABLE]
        beqz r5, fail1

# 2. the timer: fires at the clock asked for
        rdcr r5, [CR_CLOCK_LO]
        add  r7, r5, 40
        wrcr r7, [CR_TIMER]
1:      beqz r21, 1b                 # the handler stores the clock it saw
        bltu r21, r7, fail2          # not before the timer
        sub  r8, r21, r7
        li   r9, 16                  # the event entry and a few handler bundles after it
        bgeu r8, r9, fail2

# 3. a spool finishing: spool 1 receives 4 words from a pathway this cell opens to itself
        li   r5, 4
        wrcr r5, [COA_SPOOL + 1 * 8 + SPOOL_COUNT]
        li   r5, buffer
        wrcr r5, [COA_SPOOL + 1 * 8 + SPOOL_ADDR]
        li   r5, 4
        wrcr r5, [COA_SPOOL + 1 * 8 + SPOOL_STRIDE]
        li   r5, SPOOL_RECEIVE
        wrcr r5, [COA_SPOOL + 1 * 8 + SPOOL_CTRL]
        rdcr r10, [COA_ALLOC]
        wrcr r10, [COA_GATE_OUT0]
        li   r11, 1
        wrcr r11, [COA_TAG_NEXT]
        sign_li r12, 0, 0, DIR_PX
        mov  go0, r12
        wrcr r11, [COA_TAG_NEXT]
        sign_li r12, 0, 0, SIGN_SPOOL, 1
        mov  go0, r12
        li   r13, 4
2:      mov  go0, r13
        loop r13, 2b
        wrcr r11, [COA_TAG_NEXT]
        li   r12, TRAILER_KIND
        mov  go0, r12
3:      beqz r22, 3b                 # set by the handler on the spool event
        ldw  r5, [buffer + 12]
        li   r6, 1
        bne  r5, r6, fail3

# 4. an arrival while the CA waits on an expecting gate: the handler binds the arrived pathway to gi0
        li   r5, COA_EXPECT
        wrcr r5, [COA_GATE_IN1]      # gi1 waits for a pathway that never comes ...
        rdcr r10, [COA_ALLOC]
        wrcr r10, [COA_GATE_OUT0]
        wrcr r11, [COA_TAG_NEXT]
        sign_li r12, 0, 0, DIR_PY
        mov  go0, r12
        wrcr r11, [COA_TAG_NEXT]
        sign_li r12, 0, 0, SIGN_QUEUE
        mov  go0, r12
        li   r12, 77
        mov  go0, r12
        wrcr r11, [COA_TAG_NEXT]
        li   r12, TRAILER_KIND
        mov  go0, r12
        mov  r14, gi0                # ... and gi0 is unbound until the arrival handler binds it
        li   r6, 77
        bne  r14, r6, fail4
        li   r6, 1
        bne  r23, r6, fail4
        halt

handler:
        rdcr r30, [CR_EVENT_PENDING]
        and  r31, r30, EV_SOFT0
        beqz r31, 1f
        add  r20, r20, 1
        wrcr r31, [CR_EVENT_PENDING]
1:      and  r31, r30, EV_TIMER
        beqz r31, 2f
        rdcr r21, [CR_CLOCK_LO]
        wrcr r31, [CR_EVENT_PENDING]
2:      and  r31, r30, EV_SPOOL0 << 1
        beqz r31, 3f
        li   r22, 1
        wrcr r31, [CR_EVENT_PENDING]
3:      and  r31, r30, EV_ARRIVAL
        beqz r31, 4f
        rdcr r32, [COA_ARRIVAL]      # the level goes down once the queue is empty
        wrcr r32, [COA_GATE_IN0]
        add  r23, r23, 1
4:      rfe

fail1:  trap 1
fail2:  trap 2
fail3:  trap 3
fail4:  trap 4

        .bss
buffer: .space 16
