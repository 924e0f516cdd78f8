# nop, the control registers of one cell (docs/isa.md, "Control registers"), an event handler's entry
# (timing.event 4) and rfe, and wfe with a masked event pending. halt ends every program here.
        .include "check.inc"
        .equ EVENT_ENABLE, 0x20
        .equ EVENT_MASK, 0x21
        .equ EVENT_PENDING, 0x22
        .equ EVENT_VECTOR, 0x23
        .equ EVENT_EPC, 0x24
        .equ EVENT_RAISE, 0x25
        .equ TIMER, 0x26
        rdcr r100, [CLOCK_LO]
        nop
        rdcr r101, [CLOCK_LO]
        check_clocks 1
        rdcr r5, [0x00]
        check r5, 0                             # CELL_X
        rdcr r5, [0x01]
        check r5, 0                             # CELL_Y
        rdcr r5, [0x02]
        check r5, 1                             # ARRAY_W
        rdcr r5, [0x03]
        check r5, 1                             # ARRAY_H
        rdcr r5, [0x05]
        check r5, 0                             # CLOCK_HI
        rdcr r5, [0x06]
        check r5, 0x80000                       # MEM_BYTES, the default 512K
        rdcr r5, [0x07]
        check r5, 0                             # CELL_ID
        rdcr r5, [0x08]
        check r5, 8                             # QUEUE_DEPTH
        rdcr r5, [0x09]
        check r5, 2                             # HOP_LATENCY
        rdcr r5, [0x0a]
        check r5, 2                             # LINK_CLOCKS
        li   r3, 1
        rdcr r5, [r3 + 1]                       # number rs1 + b: ARRAY_W
        check r5, 1
        li   r4, 0x12340
        rdcr r100, [CLOCK_LO]
        wrcr r4, [TIMER]
        rdcr r101, [CLOCK_LO]
        check_clocks 1
        rdcr r5, [TIMER]
        check r5, 0x12340
        wrcr r0, [TIMER]
        # a software event: entry in 4 clocks, the handler returns with rfe to the bundle after the raise
        la   r4, handler
        wrcr r4, [EVENT_VECTOR]
        li   r4, 1 << 16
        wrcr r4, [EVENT_MASK]
        li   r4, 1
        wrcr r4, [EVENT_ENABLE]
        li   r4, 1 << 16
        li   r20, 0
        rdcr r102, [CLOCK_LO]
        wrcr r4, [EVENT_RAISE]
after:  rdcr r101, [CLOCK_LO]                   # r100: the handler's last clock read before rfe
        check_clocks 1                          # rfe: one clock
        check r20, 1
        sub  r98, r103, r102                    # raise (1) and entry (4) after the read (1)
        check r98, 6
        check r21, after                        # EVENT_EPC
        rdcr r5, [EVENT_ENABLE]
        check r5, 1                             # rfe enabled events again
        # wfe returns at once while a masked event is pending, events off
        wrcr r0, [EVENT_ENABLE]
        wrcr r4, [EVENT_RAISE]
        rdcr r100, [CLOCK_LO]
        wfe
        rdcr r101, [CLOCK_LO]
        check_clocks 1
        halt

handler: rdcr r103, [CLOCK_LO]
        li   r20, 1
        rdcr r21, [EVENT_EPC]
        wrcr r4, [EVENT_PENDING]                # clear the bit
        rdcr r5, [EVENT_ENABLE]
        check r5, 0                             # entry disabled events
        rdcr r100, [CLOCK_LO]
        rfe
