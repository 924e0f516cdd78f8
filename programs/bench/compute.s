# A compute-bound mix for `iwarp bench speed`: integer, memory, single-precision FP and branches,
# touching no gate, so it measures the core alone.
# a0 = outer iterations; each runs the inner loop over 256 words.
        .equ BUFFER, 0x20000
        .equ WORDS, 256

        .text
_start: li   r20, BUFFER
        mov  r22, a0
        li   r25, 0
outer:  mov  r23, r20
        li   r24, WORDS
inner:  ldw  r26, [r23]
        add  r25, r25, r26
        xor  r26, r26, r25
        stw  r26, [r23]
        { add r23, r23, 4 ; sll r27, r25, 3 ; loop r24, inner }
        fadd.s r28, r28, 1.0
        loop r22, outer
        mov  a0, r25
        halt
