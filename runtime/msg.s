# Wormhole message passing on the cells (docs/runtime.md; the ConSet paper, section 4.3).
#
# Sender-buffered, background sends: msg_isend queues a descriptor, raises a software event and returns;
# the event handler is the transmitter that "sends messages as a background task" (the ConSet paper,
# section 4.3). It sends MSG_SENDS messages at once (default 1, the paper's one transmitter), each from its
# own spool on its own pathway, and drives each through spool-done events: the header (street signs
# straight from the route table), then, in the handler of the header's event and while the header holds
# the pathway, the message's own work (taking it off the queue, the info word into the descriptor, the
# spool set up to send it), the info word, the data straight from the caller's buffer, then the trailer.
# Foreground receives:
# msg_receive takes the oldest pathway in the arrival queue and spools its words into the caller's buffer.
#
# Routes are deterministic and dimension-ordered (X, then Y, the shorter way round each ring), written as
# street signs by the sender. Transit hops take channels from pool 0 until the torus dateline of their
# ring, pool 1 after it; the last hop into the destination takes pool 2, so messages waiting to be received
# never hold channels that other traffic needs (seed 004: 12 channels in 3 reservation pools).
#
# A message on the wire: street signs (2 to 5), the info word (source id << 20 | length in words), the
# data, the trailer. Between two cells, messages arrive in the order they were sent.
#
# Calling convention (docs/runtime.md): arguments and results in a0..a7; a0-a7 and r11-r31 are the
# caller's to save, r32-r111 the callee's, r112-r123 belong to the runtimes, ra and sp as usual. The
# program must not use go1, gi0 or spools 0-3 and 7 while it uses message passing.

        .ifndef MSG_S
        .equ MSG_S, 1  # included once, however many files include it

        .include "coa.inc"

        # -D MSG_SENDS=n, 1 to 4: messages the transmitter sends at once, from spools 0..n-1. The ConSet paper
        # (section 4.3) has one transmitter, whose overlap with receiving "can at best reduce the message passing
        # time by one transfer time": 1, the default. 4 lets four sends overlap one another (the runtime before).
        .ifndef MSG_SENDS
        .equ MSG_SENDS, 1
        .endif
        .if MSG_SENDS < 1
        .error "MSG_SENDS must be 1 to 4: spools 0-3 send"
        .endif
        .if MSG_SENDS > 4
        .error "MSG_SENDS must be 1 to 4: spools 0-3 send"
        .endif
        .equ MSG_RECV_SPOOL, 7
        .equ MSG_MAX_DESC,   64          # messages queued or in flight at once
        .equ MSG_DESC_BYTES, 64
        .equ MSG_ROUTE_BYTES, 32         # per destination: sign count, then up to 6 signs (start, X dateline,
                                         # turn, Y dateline, last hop, sink)
        .equ MSG_MAX_LEN,    0xfffff     # words

        # descriptor fields
        .equ D_STATE,   0                # 0 free, 1 queued, 2 sending, 3 done
        .equ D_DEST,    4
        .equ D_BUF,     8
        .equ D_LEN,     12
        .equ D_NEXT,    16
        .equ D_PHASE,   20               # 1 header, 2 info word, 3 data, 4 trailer
        .equ D_INFO,    24               # the info word, spooled from here

        .equ DS_FREE, 0
        .equ DS_QUEUED, 1
        .equ DS_SENDING, 2
        .equ DS_DONE, 3

        # traps (docs/runtime.md)
        .equ TRAP_MSG_DEST,   0x4d01     # destination is not a cell of the array
        .equ TRAP_MSG_BUFFER, 0x4d02     # buffer outside memory or misaligned
        .equ TRAP_MSG_FULL,   0x4d03     # more than MSG_MAX_DESC messages outstanding
        .equ TRAP_MSG_LONG,   0x4d04     # a message longer than the receive buffer
        .equ TRAP_MSG_HANDLE, 0x4d05     # msg_test/msg_wait of a handle that is not a message
        .equ TRAP_MSG_ROUTE,  0x4d06     # array too large for the route table

        .equ MSG_MAX_CELLS, 1024
        .equ MSG_EV_SEND,   EV_SOFT0     # software event: queued messages wait for an idle spool
        # When no channel is free, the timer tries again this much later (long enough for the program to go
        # on between the tries). -D MSG_RETRY_CLOCKS=N changes it: 64 with MSG_SENDS=4 stops the all-to-all at
        # 32 words (the tries take the channels the receives need; docs/runtime.md).
        .ifndef MSG_RETRY_CLOCKS
        .equ MSG_RETRY_CLOCKS, 512
        .endif

        # -D MSG_NO_DATELINE: every transit hop stays in pool 0, so messages can deadlock round a ring (the
        # dateline test shows it). Not for real programs.
        .ifdef MSG_NO_DATELINE
        .equ MSG_DATELINE, 0
        .else
        .equ MSG_DATELINE, 1
        .endif

        .data
        .align 8
msg_free:       .word 0                  # free descriptors (linked by D_NEXT)
msg_qhead:      .word 0                  # queued, oldest first
msg_qtail:      .word 0
msg_active:     .space 4 * MSG_SENDS     # descriptor on each sending spool, 0 when idle
msg_trailer:    .word TRAILER_KIND       # every message's trailer, spooled from here
msg_self:       .word 0                  # this cell's id
msg_cells:      .word 0                  # cells in the array

        .bss
        .align 16
msg_desc:       .space MSG_MAX_DESC * MSG_DESC_BYTES
msg_routes:     .space MSG_MAX_CELLS * MSG_ROUTE_BYTES

# Sleeps (wfe) until a message has arrived, binds gi0 to its channel (`lc`) and reads its info word (`info`,
# source id << 20 | length); `tmp` is clobbered. The receives (here and runtime/deposit.s) start so.
        .macro msg_take_arrival lc, info, tmp
        jmp  97f
96:     wfe                              # sleep until a word moves here
97:     rdcr \lc, [COA_ARRIVAL]
        li   \tmp, COA_NONE
        beq  \lc, \tmp, 96b
        wrcr \lc, [COA_GATE_IN0]
        mov  \info, gi0
        .endm

        .text

# msg_init(): routes to every cell, pools, the descriptor list, the event handler. Call once at start.
msg_init:
        sub  sp, sp, 16
        stw  ra, [sp]
        rdcr r11, [CR_CELL_ID]
        stw  r11, [msg_self]
        rdcr r12, [CR_ARRAY_W]
        rdcr r13, [CR_ARRAY_H]
        mul  r14, r12, r13
        stw  r14, [msg_cells]
        li   r15, MSG_MAX_CELLS
        bgtu r14, r15, .too_big
        # pools: transit 0 (channel 8+d), transit 1 (12+d), delivery 2 (16+d) in every direction
        li   r16, 0
.pools: sll  r17, r16, 3                 # COA_LINK_POOL + d*8 + pool*2
        add  r17, r17, COA_LINK_POOL
        li   r18, 1 << 8
        sll  r18, r18, r16
        wrcr r18, [r17]
        sll  r18, r18, 4
        wrcr r18, [r17 + 2]
        sll  r18, r18, 4
        wrcr r18, [r17 + 4]
        wrcr zero, [r17 + 6]
        add  r16, r16, 1
        li   r15, 4
        bne  r16, r15, .pools
        li   r18, 0xfff00               # channels 8..19 of every neighbour are free
        wrcr r18, [COA_REMOTE_FREE + 0]
        wrcr r18, [COA_REMOTE_FREE + 2]
        wrcr r18, [COA_REMOTE_FREE + 4]
        wrcr r18, [COA_REMOTE_FREE + 6]
        li   r18, 0xf0                   # sources take channels 4..7 (0..3 synchronize: sync.s)
        wrcr r18, [COA_LOCAL_POOL]
        # the descriptors, all free
        li   r16, msg_desc
        stw  r16, [msg_free]
        li   r17, MSG_MAX_DESC - 1
.link:  add  r18, r16, MSG_DESC_BYTES
        stw  r18, [r16 + D_NEXT]
        mov  r16, r18
        loop r17, .link
        stw  zero, [r16 + D_NEXT]
        # a route to every cell
        li   r16, 0
.route: mov  a0, r16
        call msg_route
        add  r16, r16, 1
        bne  r16, r14, .route
        # events: the sending spools
        li   r18, msg_event
        wrcr r18, [CR_EVENT_VECTOR]
        li   r18, ((1 << MSG_SENDS) - 1) | MSG_EV_SEND | EV_TIMER
        wrcr r18, [CR_EVENT_MASK]
        li   r18, 1
        wrcr r18, [CR_EVENT_ENABLE]
        ldw  ra, [sp]
        add  sp, sp, 16
        ret
.too_big:
        trap TRAP_MSG_ROUTE

# msg_route(a0 = destination id): writes the street signs to msg_routes + a0 * MSG_ROUTE_BYTES.
# Uses r11..r31 (msg_init's r14 and r16 are kept).
msg_route:
        sub  sp, sp, 8
        stw  ra, [sp]
        ldw  r11, [msg_self]
        rdcr r12, [CR_ARRAY_W]
        rdcr r13, [CR_ARRAY_H]
        remu r15, r11, r12               # source x, y
        divu r17, r11, r12
        remu r18, a0, r12                # destination x, y
        divu r19, a0, r12
        sll  r20, a0, 5                  # the route entry
        add  r20, r20, msg_routes
        add  r21, r20, 4                 # next sign goes here
        li   r31, MSG_DATELINE
        # X leg: r22 = direction (or -1), r23 = hops
        li   r22, -1
        sub  r23, r18, r15
        add  r23, r23, r12
        remu r23, r23, r12               # hops going +X
        beqz r23, .y_leg
        sll  r24, r23, 1
        li   r22, DIR_PX
        bleu r24, r12, .x_dir            # the shorter way; +X on a tie
        li   r22, DIR_MX
        sub  r23, r12, r23
.x_dir: mov  a1, r15                     # first sign: here, go that way (pool 0)
        mov  a2, r17
        mov  a3, r22
        li   a4, 0
        call msg_sign
        # the dateline of the X ring: the hop from x = W-1 to 0 (+X) or from 0 to W-1 (-X)
        beqz r31, .x_last
        li   r25, DIR_PX
        sub  r26, r12, 1                 # the cell before the wrap
        beq  r22, r25, 1f
        li   r26, 0
1:      sub  r27, r26, r15               # hops from the source to it, along the direction
        beq  r22, r25, 2f
        sub  r27, r15, r26
2:      add  r27, r27, r12
        remu r27, r27, r12
        bgeu r27, r23, .x_last           # the wrap is not crossed
        mov  a1, r26
        mov  a2, r17
        mov  a3, r22
        li   a4, 1
        call msg_sign
.x_last:
        mov  r15, r18                    # the X leg ends in the destination column
        # Y leg
.y_leg: sub  r23, r19, r17
        add  r23, r23, r13
        remu r23, r23, r13               # hops going +Y
        beqz r23, .last_hop
        sll  r24, r23, 1
        li   r22, DIR_PY
        bleu r24, r13, .y_dir
        li   r22, DIR_MY
        sub  r23, r13, r23
.y_dir: mov  a1, r15                     # turn (or start) here: go that way, back to pool 0
        mov  a2, r17
        mov  a3, r22
        li   a4, 0
        call msg_sign
        beqz r31, .last_hop
        li   r25, DIR_PY
        sub  r26, r13, 1
        beq  r22, r25, 1f
        li   r26, 0
1:      sub  r27, r26, r17
        beq  r22, r25, 2f
        sub  r27, r17, r26
2:      add  r27, r27, r13
        remu r27, r27, r13
        bgeu r27, r23, .last_hop
        mov  a1, r15
        mov  a2, r26
        mov  a3, r22
        li   a4, 1
        call msg_sign
        # the last hop into the destination takes a delivery (pool 2) channel
.last_hop:
        beq  r11, a0, .sink              # a message to itself never leaves the cell
        beqz r23, 3f                     # arrived along X: the cell before is one X hop back
        mov  r26, r19                    # along Y: the row before the destination
        li   r25, DIR_PY
        beq  r22, r25, 1f
        add  r26, r26, 2
1:      add  r26, r26, r13
        sub  r26, r26, 1
        remu r26, r26, r13
        mov  a1, r18
        mov  a2, r26
        jmp  4f
3:      mov  r26, r18                    # r22 still holds the X direction
        li   r25, DIR_PX
        beq  r22, r25, 5f
        add  r26, r26, 2
5:      add  r26, r26, r12
        sub  r26, r26, 1
        remu r26, r26, r12
        mov  a1, r26
        mov  a2, r19
4:      mov  a3, r22
        li   a4, 2
        call msg_sign
.sink:  li   r24, SIGN_KIND | (SIGN_QUEUE << 15)
        sll  r25, r18, 23
        or   r24, r24, r25
        sll  r25, r19, 18
        or   r24, r24, r25
        stw  r24, [r21]
        add  r21, r21, 4
        sub  r24, r21, r20               # signs written
        srl  r24, r24, 2
        sub  r24, r24, 1
        stw  r24, [r20]
        ldw  ra, [sp]
        add  sp, sp, 8
        ret

# msg_sign(a1 = x, a2 = y, a3 = direction, a4 = pool): appends a sign to the route at r21. If the last
# sign names the same cell it is replaced (a turn on the dateline or on the last hop's cell).
msg_sign:
        li   r28, SIGN_KIND | (1 << 9)
        sll  r29, a1, 23
        or   r28, r28, r29
        sll  r29, a2, 18
        or   r28, r28, r29
        sll  r29, a3, 15
        or   r28, r28, r29
        sll  r29, a4, 10
        or   r28, r28, r29
        sub  r29, r21, r20
        li   r30, 4
        beq  r29, r30, 1f                # the first sign
        ldw  r29, [r21 - 4]
        xor  r29, r29, r28
        srl  r29, r29, 18                # the same cell?
        bnez r29, 1f
        sub  r21, r21, 4
1:      stw  r28, [r21]
        add  r21, r21, 4
        ret

# msg_isend(a0 = destination id, a1 = buffer, a2 = length in words) -> a0 = handle.
# The buffer must stay as it is until msg_test says the message is gone.
msg_isend:
        ldw  r11, [msg_cells]
        bgeu a0, r11, .bad_dest
        li   r12, MSG_MAX_LEN
        bgtu a2, r12, .bad_buf
        and  r12, a1, 3
        bnez r12, .bad_buf
        rdcr r12, [CR_MEM_BYTES]
        sll  r13, a2, 2
        add  r13, r13, a1
        bgtu r13, r12, .bad_buf
        bltu r13, a1, .bad_buf
        li   r12, 0x1000
        bgtu r12, a1, .bad_buf
        wrcr zero, [CR_EVENT_ENABLE]     # the queues are shared with the event handler
        ldw  r14, [msg_free]
        beqz r14, .full
        ldw  r15, [r14 + D_NEXT]
        stw  r15, [msg_free]
        li   r15, DS_QUEUED
        stw  r15, [r14 + D_STATE]
        stw  a0, [r14 + D_DEST]
        stw  a1, [r14 + D_BUF]
        stw  a2, [r14 + D_LEN]
        stw  zero, [r14 + D_NEXT]
        # to the back of the queue
        ldw  r15, [msg_qtail]
        beqz r15, 2f
        stw  r14, [r15 + D_NEXT]
        jmp  3f
2:      stw  r14, [msg_qhead]
3:      stw  r14, [msg_qtail]
        # the background engine starts it: raise its event (taken as soon as events are back on)
        li   r15, MSG_EV_SEND
        wrcr r15, [CR_EVENT_RAISE]
        li   r15, 1
        wrcr r15, [CR_EVENT_ENABLE]
        mov  a0, r14
        ret
.bad_dest:
        trap TRAP_MSG_DEST
.bad_buf:
        trap TRAP_MSG_BUFFER
.full:  trap TRAP_MSG_FULL

# msg_start_next(a3 = idle spool): starts the oldest queued message whose destination no other spool is
# sending to (so that messages between two cells stay in order): takes a channel and sends the header, and
# nothing else, so that the rest of the message's work is done while the header holds the pathway (the
# ConSet paper, section 4.3; msg_advance). The message stays in the queue until then: the destination check
# keeps the other spools off it. Events are off. Uses r11..r23.
msg_start_next:
        ldw  r12, [msg_qhead]
1:      beqz r12, .nothing
        ldw  r13, [r12 + D_DEST]
        li   r14, 0                      # is that destination being sent to?
2:      sll  r15, r14, 2
        ldw  r15, [r15 + msg_active]
        beqz r15, 3f
        ldw  r16, [r15 + D_DEST]
        beq  r16, r13, .busy
3:      add  r14, r14, 1
        li   r15, MSG_SENDS
        bne  r14, r15, 2b
        # a channel for its pathway; when all are taken (by pathways still draining, or by messages to this
        # cell not yet received), try again a little later: there is no channel-free event
        rdcr r17, [COA_ALLOC]
        li   r18, COA_NONE
        bne  r17, r18, 7f
        rdcr r18, [CR_CLOCK_LO]
        add  r18, r18, MSG_RETRY_CLOCKS
        wrcr r18, [CR_TIMER]
        ret
7:      sll  r15, a3, 2
        stw  r12, [r15 + msg_active]
        li   r15, 1
        stw  r15, [r12 + D_PHASE]
        li   r16, MARK_MSG_SEND
        or   r16, r16, r13
        wrcr r16, [CR_MARK]
        # the header: the route's street signs, all tagged, straight from the route table (msg_route). A
        # header cannot leave before its route is known: this lookup is the one part of the message's work
        # that comes before it.
        sll  r18, a3, 3
        add  r18, r18, COA_SPOOL
        wrcr r17, [r18 + SPOOL_LC]
        sll  r19, r13, 5
        add  r19, r19, msg_routes
        ldw  r20, [r19]                  # the route's signs
        add  r19, r19, 4
        wrcr r19, [r18 + SPOOL_ADDR]
        li   r21, 4
        wrcr r21, [r18 + SPOOL_STRIDE]
        wrcr r20, [r18 + SPOOL_COUNT]
        wrcr r20, [r18 + SPOOL_TAG_HEAD]
        wrcr zero, [r18 + SPOOL_TAG_TAIL]
        li   r21, SPOOL_SEND
        wrcr r21, [r18 + SPOOL_CTRL]
        ret
.busy:  ldw  r12, [r12 + D_NEXT]
        jmp  1b
.nothing:
        ret

# The event handler, the background task. Like any dispatcher that calls handlers written to the calling
# convention, it saves every register a function may change (a0-a7, r11-r31, ra) before calling them, and
# restores them before rfe. It starts queued messages on idle spools, and advances every spool whose
# event is pending: header -> data -> trailer -> done, then the spool's next message.
msg_event:
        sub  sp, sp, 128
        stw  ra, [sp]
        stw  a0, [sp + 4]
        std  r4, [sp + 8]
        std  r6, [sp + 16]
        std  r8, [sp + 24]
        std  r10, [sp + 32]
        std  r12, [sp + 40]
        std  r14, [sp + 48]
        std  r16, [sp + 56]
        std  r18, [sp + 64]
        std  r20, [sp + 72]
        std  r22, [sp + 80]
        std  r24, [sp + 88]
        std  r26, [sp + 96]
        std  r28, [sp + 104]
        std  r30, [sp + 112]
.again: rdcr r11, [CR_EVENT_PENDING]
        and  r12, r11, MSG_EV_SEND | EV_TIMER
        bnez r12, .start
        and  r11, r11, (1 << MSG_SENDS) - 1
        beqz r11, .out
        li   a3, 0                       # the lowest pending spool
1:      srl  r12, r11, a3
        and  r12, r12, 1
        bnez r12, 2f
        add  a3, a3, 1
        jmp  1b
2:      li   r12, 1
        sll  r12, r12, a3
        wrcr r12, [CR_EVENT_PENDING]
        call msg_advance
        jmp  .again
.start: li   r12, MSG_EV_SEND | EV_TIMER  # new messages, or a retry: every idle spool takes one
        wrcr r12, [CR_EVENT_PENDING]
        li   a3, 0
3:      sll  r12, a3, 2
        ldw  r12, [r12 + msg_active]
        bnez r12, 4f
        call msg_start_next
4:      add  a3, a3, 1
        li   r12, MSG_SENDS
        bne  a3, r12, 3b
        jmp  .again
.out:   ldd  r30, [sp + 112]
        ldd  r28, [sp + 104]
        ldd  r26, [sp + 96]
        ldd  r24, [sp + 88]
        ldd  r22, [sp + 80]
        ldd  r20, [sp + 72]
        ldd  r18, [sp + 64]
        ldd  r16, [sp + 56]
        ldd  r14, [sp + 48]
        ldd  r12, [sp + 40]
        ldd  r10, [sp + 32]
        ldd  r8, [sp + 24]
        ldd  r6, [sp + 16]
        ldd  r4, [sp + 8]
        ldw  a0, [sp + 4]
        ldw  ra, [sp]
        add  sp, sp, 128
        rfe

# msg_advance(a3 = spool): the next part of that spool's message. After the header, this runs while the
# header holds the pathway and no data word has followed it: the ConSet paper (section 4.3) makes the
# per-message overhead of "event handlers, queue management, route lookup, and setting up the spooling
# units", and the pathway waits for all of it (iwarp run's "held before data").
msg_advance:
        sll  r12, a3, 2
        ldw  r13, [r12 + msg_active]
        beqz r13, .idle_spool
        sll  r14, a3, 3
        add  r14, r14, COA_SPOOL
        ldw  r15, [r13 + D_PHASE]
        add  r15, r15, 1
        stw  r15, [r13 + D_PHASE]
        li   r16, 2
        bne  r15, r16, 1f
        # the header is out. Queue management: the message leaves the send queue (its predecessor found from
        # the head: with one transmitter it is the head)
        li   r17, 0
        ldw  r18, [msg_qhead]
5:      beq  r18, r13, 6f
        mov  r17, r18
        ldw  r18, [r18 + D_NEXT]
        jmp  5b
6:      ldw  r18, [r13 + D_NEXT]
        beqz r17, 7f
        stw  r18, [r17 + D_NEXT]
        jmp  8f
7:      stw  r18, [msg_qhead]
8:      ldw  r19, [msg_qtail]
        bne  r19, r13, 9f
        stw  r17, [msg_qtail]
9:      li   r19, DS_SENDING
        stw  r19, [r13 + D_STATE]
        # the info word (source id << 20 | length), spooled from the descriptor: the spool, not the handler,
        # waits while the pathway's queue is full (a handler that wrote it through a gate would stall the CA with
        # its events off, and so the receives that free the channels the header waits for)
        ldw  r17, [r13 + D_LEN]
        ldw  r18, [msg_self]
        sll  r18, r18, 20
        or   r18, r18, r17
        stw  r18, [r13 + D_INFO]
        add  r18, r13, D_INFO
        wrcr r18, [r14 + SPOOL_ADDR]
        li   r18, 1
        wrcr r18, [r14 + SPOOL_COUNT]
        wrcr zero, [r14 + SPOOL_TAG_HEAD]
        li   r18, SPOOL_SEND
        wrcr r18, [r14 + SPOOL_CTRL]
        ret
1:      li   r16, 3
        bne  r15, r16, 1f
        # the data, straight from the caller's buffer (an empty message goes on to the trailer)
        ldw  r17, [r13 + D_LEN]
        beqz r17, .trailer
        ldw  r18, [r13 + D_BUF]
        wrcr r18, [r14 + SPOOL_ADDR]
        wrcr r17, [r14 + SPOOL_COUNT]
        wrcr zero, [r14 + SPOOL_TAG_HEAD]
        li   r18, SPOOL_SEND
        wrcr r18, [r14 + SPOOL_CTRL]
        ret
.trailer:
        li   r15, 4
        stw  r15, [r13 + D_PHASE]
1:      li   r16, 4
        bne  r15, r16, 2f
        li   r18, msg_trailer
        wrcr r18, [r14 + SPOOL_ADDR]
        li   r18, 1
        wrcr r18, [r14 + SPOOL_COUNT]
        wrcr r18, [r14 + SPOOL_TAG_TAIL]
        li   r18, SPOOL_SEND
        wrcr r18, [r14 + SPOOL_CTRL]
        ret
        # the trailer is out: the message is done and the spool takes the next one
2:      li   r16, DS_DONE
        stw  r16, [r13 + D_STATE]
        stw  zero, [r12 + msg_active]
        wrcr zero, [r14 + SPOOL_TAG_TAIL]
        jmp  msg_start_next
.idle_spool:
        ret

# msg_test(a0 = handle) -> a0 = 1 when the message has left (its buffer may be used again), else 0.
# A finished handle is freed by the call that reports it done.
msg_test:
        li   r11, msg_desc
        bltu a0, r11, .bad_handle
        li   r12, msg_desc + MSG_MAX_DESC * MSG_DESC_BYTES
        bgeu a0, r12, .bad_handle
        ldw  r12, [a0 + D_STATE]
        li   r13, DS_DONE
        beq  r12, r13, 1f
        beqz r12, .bad_handle
        li   a0, 0
        ret
1:      wrcr zero, [CR_EVENT_ENABLE]
        stw  zero, [a0 + D_STATE]
        ldw  r12, [msg_free]
        stw  r12, [a0 + D_NEXT]
        stw  a0, [msg_free]
        li   r12, 1
        wrcr r12, [CR_EVENT_ENABLE]
        li   a0, 1
        ret
.bad_handle:
        trap TRAP_MSG_HANDLE

# msg_wait(a0 = handle): until the message has left.
msg_wait:
        mov  r20, a0
        mov  r21, ra
        jmp  1f
0:      wfe                              # the sending spools move words, or finish: look again
1:      mov  a0, r20
        call msg_test
        beqz a0, 0b
        jr   r21

# msg_send(a0 = destination, a1 = buffer, a2 = length): msg_isend, then msg_wait.
msg_send:
        mov  r24, ra
        call msg_isend
        call msg_wait
        jr   r24

# msg_receive(a0 = buffer, a1 = its length in words) -> a0 = source id, a1 = length.
# Waits for the oldest message that has arrived and spools it into the buffer.
msg_receive:
        mov  r11, a0
        msg_take_arrival r12, r14, r13
        li   r13, COA_NONE
        wrcr r13, [COA_GATE_IN0]
        srl  r15, r14, 20                # source
        li   r16, MSG_MAX_LEN
        and  r16, r14, r16               # length
        bgtu r16, a1, .too_long
        beqz r16, 3f                     # nothing to spool: the agent frees the channel at the trailer
        spool_in_wait r17, MSG_RECV_SPOOL, r12, r11, r16, r18
3:      li   r18, MARK_MSG_RECEIVE
        or   r18, r18, r15
        wrcr r18, [CR_MARK]
        mov  a0, r15
        mov  a1, r16
        ret
.too_long:
        trap TRAP_MSG_LONG

        .endif
