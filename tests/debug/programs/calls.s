# A program for the console's tests: nested calls (next, finish), a memory counter (watch, mem), and marks
# (catch phase/send/receive/mark) raised through control register MARK, as the runtimes raise them.
#
# a0 = the number of times _start calls bump (5 if zero). Halts with a0 = the counter: 0 + 1 + ... + (n-1).
        .equ CR_MARK, 0x13
        .equ MARK_SEND, 1 << 24
        .equ MARK_RECEIVE, 2 << 24
        .equ MARK_PHASE, 3 << 24

        .data
counter: .word 0
table:  .word 1, 2, 3, 4

        .text
_start: mov  r21, a0
        bnez r21, 1f
        li   r21, 5
1:      li   r20, 0
        li   r5, MARK_PHASE | 1
        wrcr r5, [CR_MARK]
again:  call bump
        add  r20, r20, 1
        bne  r20, r21, again
        li   r5, MARK_PHASE | 2
        wrcr r5, [CR_MARK]
        li   r5, MARK_SEND | 1          # "sends a message" to cell 1
        wrcr r5, [CR_MARK]
        li   r5, MARK_RECEIVE | 1
        wrcr r5, [CR_MARK]
        li   r5, (7 << 24) | 0x42       # a user mark of kind 7
        wrcr r5, [CR_MARK]
        ldw  a0, [counter]
        halt

# bump: counter += r20, through a call to leaf; keeps ra on the stack.
bump:   sub  sp, sp, 4
        stw  ra, [sp]
        ldw  r6, [counter]
        add  r6, r6, r20
        stw  r6, [counter]
        call leaf
        ldw  ra, [sp]
        add  sp, sp, 4
        ret

leaf:   add  r7, r7, 1
        ret
