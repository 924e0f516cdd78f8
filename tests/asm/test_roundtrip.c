/* assemble -> disassemble -> assemble gives the same image: for every operation of the table, for LIW
 * bundles that use every unit and the gates, and for a program that uses every directive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm_test_util.h"

static void every_operation_round_trips(void **state)
{
    (void)state;
    size_t cap = 65536, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    len += (size_t)snprintf(src + len, cap - len, "top:\n");
    for (unsigned op = 0; op < ISA_OPCODE_LIMIT; op++) {
        char operands[64];
        for (unsigned v = 0; isa_op_info(op) != NULL && t_sample_operands(op, v, operands, sizeof operands); v++)
            len += (size_t)snprintf(src + len, cap - len, "    %s %s\n", isa_op_info(op)->mnemonic, operands);
    }
    assert_true(len < cap);
    t_roundtrip(src);
    free(src);
}

static const char *const bundles[] = {
    /* two ALU ops, the adder, the multiplier, memory, a control register and a branch, reading and
     * writing gates */
    "target: { add r1, r2, r3 ; sub r4, r5, 6 ; fadd.s r7, gi0, 2.5 ; fmul.s go0, r9, r10 ; ldw r11, [r12 + 4] ;"
    " wrcr r13, [5] ; beq r14, gi1, target }\n",
    "{ nop ; nop ; add r1, r2, r3 }\n",
    "{ fadd.d r2, r4, r6 ; fmul.d r8, r10, r12 ; ldd r14, [r16] }\n",
    "f: { rdcr r5, [r6 + 3] ; stw gi0, [r2] ; call f }\n",
    "top:\n{\n  loop r3, top\n  add go1, gi1, 1\n  sub go0, r4, r5\n}\n",
    "{ mul r3, r4, r5 ; fabs.s r6, r7 ; or r8, r0, -1 ; and r9, r9, 0xff00ff00 ; std r2, [r4 - 8] ; jr ra }\n",
    "{ cvt.d.w r2, gi0 ; div r4, gi1, 3 ; fmov.d r6, r8 ; sll go0, r1, 2 ; rdcr r9, [r10 + r11] ; jmp 0x1000 }\n",
    "{ feq.s r3, r4, nan ; fmul.s r5, r6, -0.0 ; xor r7, r8, r9 }\n { fsub.s r1, r2, %bits(0x7fc00001) ; fdiv.s r3, "
    "r4, 1e-40 }\n",
};

static void liw_bundles_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bundles / sizeof bundles[0]; i++) {
        t_roundtrip(bundles[i]);
        uint32_t words[32];
        size_t n = t_words(bundles[i], words, 32);
        isa_bundle_t b;
        size_t used;
        assert_int_equal(isa_decode_bundle(words, n, &b, &used), ISA_OK);
        assert_true(b.count >= 3 || i == 7);
    }
}

/* Every directive, data of every width, labels in every section, macros, .rept and conditionals. */
static const char program_template[] = "# a program that uses every directive\n"
                                       "        .textbase 0x2000\n"
                                       "        .equ    COUNT, 4\n"
                                       "        SIZE = COUNT * 4\n"
                                       "        .set    step, 1\n"
                                       "        .global main, helper\n"
                                       "        .globl  table\n"
                                       "        .entry  main\n"
                                       "        .include \"%s\"\n"
                                       "        .macro  push reg, off=0\n"
                                       "        stw     \\reg, [sp + \\off]\n"
                                       "        .endm\n"
                                       "        .text\n"
                                       "main:   li      a0, COUNT\n"
                                       "        la      a1, table\n"
                                       "        push    a0\n"
                                       "        push    a1, 4\n"
                                       ".loop:  ldw     a2, [a1]\n"
                                       "        add     a1, a1, 4\n"
                                       "        { add r20, r20, a2 ; loop a0, .loop }\n"
                                       "        .ifdef  INCLUDED_VALUE\n"
                                       "        li      a3, INCLUDED_VALUE\n"
                                       "        .else\n"
                                       "        .error  \"the include was not read\"\n"
                                       "        .endif\n"
                                       "        .if     COUNT > 10\n"
                                       "        .error  \"not taken\"\n"
                                       "        .elseif COUNT == 4\n"
                                       "        call    helper\n"
                                       "        .else\n"
                                       "        .error  \"not taken either\"\n"
                                       "        .endif\n"
                                       "        .ifndef NOT_DEFINED\n"
                                       "        halt\n"
                                       "        .endif\n"
                                       "helper: fadd.s  r5, r6, 0.1\n"
                                       "        ret\n"
                                       "        .word   0xdeadbeef\n"
                                       "        .align  16\n"
                                       "        .data\n"
                                       "table:  .rept   COUNT\n"
                                       "        .word   step * 100\n"
                                       "        .set    step, step + 1\n"
                                       "        .endr\n"
                                       "halves: .half   1, -2, 0xffff\n"
                                       "bytes:  .byte   1, -1, 255, 'A'\n"
                                       "str:    .ascii  \"ab\\tc\", \"#not a comment\"\n"
                                       "strz:   .asciz  \"z\\n\\x41\\101\\0\"\n"
                                       "        .align  8\n"
                                       "floats: .float  1.5, -0.0, inf, nan, 3, %%bits(0x7f800001)\n"
                                       "doubles: .double 2.5, -1e300\n"
                                       "gap:    .space  5, 0xaa\n"
                                       "last:   .byte   7\n"
                                       "        .bss\n"
                                       "        .align  16\n"
                                       "buf:    .space  SIZE\n"
                                       "buf_end: .space 3\n"
                                       "end:\n";

static void program_with_every_directive_round_trips(void **state)
{
    (void)state;
    char *dir = t_make_tmpdir();
    t_write_file(dir, "inc.s", "INCLUDED_VALUE = 42\n");
    char inc[256];
    snprintf(inc, sizeof inc, "%s/inc.s", dir);
    char src[sizeof program_template + 256];
    snprintf(src, sizeof src, program_template, inc);
    asm_result_t r;
    t_assemble_ok(src, &r);
    assert_int_equal(r.image.text_base, 0x2000);
    assert_true(r.image.bss_bytes >= 19);
    assert_non_null(isa_image_symbol(&r.image, "main.loop"));
    asm_result_free(&r);
    t_roundtrip(src);
    t_remove_tmpdir(dir);
}

/* Images that the assembler would not make still come back: labels inside would-be bundles, words
 * that do not decode, and data labels at odd offsets. */
static void odd_layouts_round_trip(void **state)
{
    (void)state;
    t_roundtrip("a: .word 0x80000000\nb: .word 0x04000000\n.word 0xffffffff\nc:\n");
    t_roundtrip(".data\n.byte 1\nx: .byte 2, 3, 4, 5, 6\ny: .half 7\n.byte 9\nz:\n");
    t_roundtrip(".bss\n.space 1\nq: .space 7\n");
    t_roundtrip(".data\n.byte 1\n.bss\n.space 40\n");
    t_roundtrip("nop\n.entry 0x1004\nnop\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_operation_round_trips),
        cmocka_unit_test(liw_bundles_round_trip),
        cmocka_unit_test(program_with_every_directive_round_trips),
        cmocka_unit_test(odd_layouts_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
