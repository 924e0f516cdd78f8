        .equ WORDS, (end - table) / 4   # a forward reference, resolved in the second pass
        li   r3, WORDS
        li   r4, table + 4 * 2
        li   r5, -1 & 0xff
        li   r6, 'A' + 1
        li   r7, (1 << 12) | 3
        halt
        .data
table:  .word 10, 20, 30
end:
msg:    .ascii "hello"
len = . - msg
        .space len * 2
