# Integer ALU, multiply and divide (docs/isa.md, "Integer"): results at the edges and clocks (int 1,
# imul 3, idiv 31).
        .include "check.inc"
        rrr add,   0x7fffffff, 1, 0x80000000, 1
        rrr add,   0xffffffff, 1, 0, 1
        rrr sub,   0, 1, 0xffffffff, 1
        rrr sub,   0x80000000, 1, 0x7fffffff, 1
        rrr and,   0xf0f0f0f0, 0xff00ff00, 0xf000f000, 1
        rrr or,    0xf0f0f0f0, 0xff00ff00, 0xfff0fff0, 1
        rrr xor,   0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0, 1
        rrr nor,   0xf0f0f0f0, 0xff00ff00, 0x000f000f, 1
        rrr sll,   1, 31, 0x80000000, 1
        rrr sll,   0x12345678, 4, 0x23456780, 1
        rrr sll,   1, 32, 0, 1                      # the whole 32-bit count: 32 or more gives 0
        rrr sll,   1, 0x80000001, 0, 1
        rrr srl,   0x80000000, 31, 1, 1
        rrr srl,   0x80000000, 32, 0, 1
        rrr srl,   0xffffffff, 33, 0, 1
        rrr sra,   0x80000000, 4, 0xf8000000, 1
        rrr sra,   0x80000000, 31, 0xffffffff, 1
        rrr sra,   0x80000000, 32, 0xffffffff, 1
        rrr sra,   0x80000000, 0xffffffff, 0xffffffff, 1
        rrr sra,   0x7fffffff, 40, 0, 1
        rrr slt,   0xffffffff, 1, 1, 1
        rrr slt,   1, 0xffffffff, 0, 1
        rrr slt,   5, 5, 0, 1
        rrr sltu,  1, 0xffffffff, 1, 1
        rrr sltu,  0xffffffff, 1, 0, 1
        rrr seq,   5, 5, 1, 1
        rrr seq,   5, 6, 0, 1
        rrr sne,   5, 5, 0, 1
        rrr sne,   0, 0x80000000, 1, 1
        rrr mul,   0x10000, 0x10000, 0, 3
        rrr mul,   0xffffffff, 0xffffffff, 1, 3
        rrr mul,   7, -3, 0xffffffeb, 3
        rrr mulh,  0xffffffff, 0xffffffff, 0, 3
        rrr mulh,  0x80000000, 0x80000000, 0x40000000, 3
        rrr mulh,  -2, 3, 0xffffffff, 3
        rrr mulhu, 0xffffffff, 0xffffffff, 0xfffffffe, 3
        rrr mulhu, 0x80000000, 2, 1, 3
        rrr div,   7, 2, 3, 31
        rrr div,   -7, 2, 0xfffffffd, 31            # toward zero
        rrr div,   7, -2, 0xfffffffd, 31
        rrr div,   0x80000000, -1, 0x80000000, 31
        rrr rem,   -7, 2, 0xffffffff, 31            # the sign of the dividend
        rrr rem,   7, -2, 1, 31
        rrr rem,   0x80000000, -1, 0, 31
        rrr divu,  0xffffffff, 2, 0x7fffffff, 31
        rrr divu,  7, 0xffffffff, 0, 31
        rrr remu,  0xffffffff, 10, 5, 31
        rrr remu,  7, 0xffffffff, 7, 31
        # r0 reads as 0 and drops writes
        li   r3, 5
        add  r0, r3, 1
        add  r5, r0, r3
        check r5, 5
        # a bundle reads every operand before it writes: a swap
        li   r3, 1
        li   r4, 2
        { add r3, r4, 0 ; add r4, r3, 0 }
        check r3, 2
        check r4, 1
        halt
