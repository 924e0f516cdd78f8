top: { add r1, r2, r3 ; sub r4, r5, 6 ; fadd.s r7, gi0, 2.5 ; fmul.s go0, r9, r10 ; ldw r11, [r12 + 4] ; wrcr r13, [5] ; beq r14, gi1, top }
{ fadd.d r2, r4, r6 ; fmul.d r8, r10, r12 ; ldd r14, [r16] }
1: { loop r3, 1b ; add go1, gi1, 1 }
 .macro m a, b=2
 .rept \b
 li \a, \@ + .
 .endr
 .endm
 m r5
 .if 1 << 2 == 4
 m r6, 3
 .else
 .error "no"
 .endif
 .data
x: .float nan, %bits(0x7f800001), -1e-3
 .double 1e300
 .asciz "a\x41\101"
 .bss
 .space 12
