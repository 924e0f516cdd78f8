# array: 5x3
# sync_barrier: cells arrive at very different times, and none leaves before the last one has arrived.
# Each cell waits (x + 1) * (y + 1) * 40 clocks before each of three barriers; after a barrier its clock
# must be at least the latest arrival, which every cell can work out. Traps 1 when one leaves too early.
        .include "sync.s"

        .text
_start: call sync_init
        rdcr r20, [CR_CELL_X]
        rdcr r21, [CR_CELL_Y]
        rdcr r22, [CR_ARRAY_W]
        rdcr r23, [CR_ARRAY_H]
        add  r24, r20, 1
        add  r25, r21, 1
        mul  r24, r24, r25
        mul  r24, r24, 40                # this cell's delay
        mul  r26, r22, r23
        mul  r26, r26, 40                # the largest delay
        call sync_barrier                # all start together
        li   r30, 3
1:      rdcr r27, [CR_CLOCK_LO]
        add  r28, r27, r26               # no one arrives after this
        add  r29, r27, r24
2:      rdcr r31, [CR_CLOCK_LO]
        bltu r31, r29, 2b
        call sync_barrier
        rdcr r31, [CR_CLOCK_LO]
        bltu r31, r28, early
        loop r30, 1b
        halt
early:  trap 1
