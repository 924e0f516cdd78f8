        .data
bytes:  .byte  1, -1, 255, 'z'
halves: .half  0x1234, -2
        .align 4
words:  .word  bytes, 0xdeadbeef
floats: .float 1.5, -0.0, inf
        .double 2.5
text:   .ascii "tab\there", " # not a comment"
        .asciz "line\n"
        .space 8, 0xff
        .bss
        .align 16
buffer: .space 256
