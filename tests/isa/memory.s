# Loads and stores (docs/isa.md, "Memory"): little-endian, sign and zero extension, pairs, and clocks
# (mem 2, mem_d 4; a bundle takes at least one clock per word access).
        .include "check.inc"
        .macro ld op, off, expect, clocks
        la   r3, mdata
        rdcr r100, [CLOCK_LO]
        \op  r5, [r3 + \off]
        rdcr r101, [CLOCK_LO]
        check r5, \expect
        check_clocks \clocks
        .endm
        ld ldw,  0, 0x80ff7f01, 2
        ld ldh,  0, 0x00007f01, 2
        ld ldh,  2, 0xffff80ff, 2
        ld ldhu, 2, 0x000080ff, 2
        ld ldb,  0, 0x00000001, 2
        ld ldb,  1, 0x0000007f, 2
        ld ldb,  2, 0xffffffff, 2
        ld ldb,  3, 0xffffff80, 2
        ld ldbu, 3, 0x00000080, 2
        # ldd: the low word into the even register
        la   r3, mdata
        rdcr r100, [CLOCK_LO]
        ldd  r16, [r3 + 8]
        rdcr r101, [CLOCK_LO]
        check r16, 0x89abcdef
        check r17, 0x01234567
        check_clocks 4
        # stores, read back
        la   r3, scratch
        li   r4, 0xdeadbeef
        rdcr r100, [CLOCK_LO]
        stw  r4, [r3]
        rdcr r101, [CLOCK_LO]
        check_clocks 2
        ldw  r5, [r3]
        check r5, 0xdeadbeef
        li   r4, 0x12345678
        sth  r4, [r3 + 2]
        ldw  r5, [r3]
        check r5, 0x5678beef
        li   r4, 0xabcd
        stb  r4, [r3 + 1]
        ldw  r5, [r3]
        check r5, 0x5678cdef
        li   r12, 0x11111111
        li   r13, 0x22222222
        rdcr r100, [CLOCK_LO]
        std  r12, [r3 + 8]
        rdcr r101, [CLOCK_LO]
        check_clocks 4
        ldw  r5, [r3 + 8]
        check r5, 0x11111111
        ldw  r5, [r3 + 12]
        check r5, 0x22222222
        # [rs1 + rs2] and an absolute address
        li   r4, 4
        ldw  r5, [r3 + r4]
        check r5, 0                     # scratch + 4, never written
        ldw  r5, [mdata + 4]
        check r5, 0x12345678
        # two memory operations in a bundle: a load and a store take 2 clocks, the load reads the word
        # before the store of the same bundle writes it (every operand is read first)
        li   r4, 7
        rdcr r100, [CLOCK_LO]
        { ldw r5, [r3] ; stw r4, [r3] }
        rdcr r101, [CLOCK_LO]
        check_clocks 2
        check r5, 0x5678cdef
        ldw  r5, [r3]
        check r5, 7
        # a pair and a word: 3 word accesses in the 4 clocks of the ldd
        rdcr r100, [CLOCK_LO]
        { ldd r16, [r3 + 8] ; stw r0, [r3 + 4] }
        rdcr r101, [CLOCK_LO]
        check_clocks 4
        halt

        .data
        .align 8
mdata:  .word 0x80ff7f01, 0x12345678, 0x89abcdef, 0x01234567
scratch: .space 16
