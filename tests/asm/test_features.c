/* The language features one at a time: expressions, local labels, macros, .rept, conditionals, .include
 * with -I, -D, float immediates and %bits, data directives, pseudo-instructions, layout and the image. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm_test_util.h"

/* The value of the first .word of the .data section of src. */
static uint32_t data_word(const char *src, size_t index)
{
    asm_result_t r;
    t_assemble_ok(src, &r);
    assert_true(r.image.data_bytes >= 4 * (index + 1));
    const uint8_t *p = r.image.data + 4 * index;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    asm_result_free(&r);
    return v;
}

static uint32_t expr_value(const char *expr)
{
    char src[256];
    snprintf(src, sizeof src, ".data\n.word %s\n", expr);
    return data_word(src, 0);
}

static void expressions_follow_c_precedence(void **state)
{
    (void)state;
    assert_int_equal(expr_value("1 + 2 * 3"), 7);
    assert_int_equal(expr_value("(1 + 2) * 3"), 9);
    assert_int_equal(expr_value("1 << 4 + 1"), 32);
    assert_int_equal(expr_value("6 & 3 | 8"), 10);
    assert_int_equal(expr_value("1 | 2 ^ 3 & 4"), 1 | (2 ^ (3 & 4)));
    assert_int_equal(expr_value("1 < 2 == 1"), 1);
    assert_int_equal(expr_value("3 > 2 && 0 || 5 >= 5"), 1);
    assert_int_equal(expr_value("-7 / 2"), (uint32_t)-3);
    assert_int_equal(expr_value("-7 % 2"), (uint32_t)-1);
    assert_int_equal(expr_value("~0"), 0xffffffffu);
    assert_int_equal(expr_value("!5 + !0"), 1);
    assert_int_equal(expr_value("0x10 + 0b101 + 0o17 + 'a' + '\\n'"), 16 + 5 + 15 + 97 + 10);
    assert_int_equal(expr_value("0xffffffff"), 0xffffffffu);
    assert_int_equal(expr_value("-0x80000000"), 0x80000000u);
    assert_int_equal(expr_value("(1 << 40) >> 38"), 4);
    assert_int_equal(expr_value("0x1234_5678"), 0x12345678u);
    assert_int_equal(expr_value("2 <= 2 != 0"), 1);
}

static void symbols_and_the_location_counter(void **state)
{
    (void)state;
    uint32_t w[8];
    /* forward references, '.', and .equ defined after use */
    assert_int_equal(t_words("a: jmp b\nb: jmp .\n  jmp c\n.equ c, a + 4\n", w, 8), 6);
    assert_int_equal(w[1], 0x1008);
    assert_int_equal(w[3], 0x1008);
    assert_int_equal(w[5], 0x1004);
    /* '.' in a bundle is the bundle's address */
    assert_int_equal(t_words("nop\n{ add r1, r2, . ; jmp . }\n", w, 8), 5);
    assert_int_equal(w[2], 0x1004);
    assert_int_equal(w[4], 0x1004);
    /* data labels and '.' in .data, text labels absolute */
    assert_int_equal(data_word(".data\nmsg: .ascii \"abcd\"\nlen = . - msg\n.word len, msg, .\n", 1), 4);
    assert_int_equal(data_word(".data\n.word here\nhere:\n", 0), 0x1000 + 4);
    /* .set takes its value at each point */
    assert_int_equal(data_word(".data\n.set v, 1\n.word v\n.set v, v + 1\n.word v\n", 1), 2);
}

static void local_labels_numeric_and_scoped(void **state)
{
    (void)state;
    uint32_t w[16];
    assert_int_equal(t_words("1: nop\n1: jmp 1b\n jmp 1f\n1: jmp 1b\n", w, 16), 7);
    assert_int_equal(w[2], 0x1004);
    assert_int_equal(w[4], 0x1014);
    assert_int_equal(w[6], 0x1014);
    asm_result_t r;
    t_assemble_ok("f: nop\n.l: jmp .l\ng: nop\n.l: jmp .l\n jmp f.l\n", &r);
    const isa_symbol_t *fl = isa_image_symbol(&r.image, "f.l");
    const isa_symbol_t *gl = isa_image_symbol(&r.image, "g.l");
    assert_non_null(fl);
    assert_non_null(gl);
    assert_int_equal(fl->value, 0x1004);
    assert_int_equal(gl->value, 0x1010);
    assert_int_equal(r.image.text[2], 0x1004);
    assert_int_equal(r.image.text[5], 0x1010);
    assert_int_equal(r.image.text[7], 0x1004);
    for (size_t i = 0; i < r.image.nsyms; i++) /* numeric labels are not exported */
        assert_false(r.image.syms[i].name[0] >= '0' && r.image.syms[i].name[0] <= '9');
    asm_result_free(&r);
}

static void macros_with_defaults_keywords_and_unique_labels(void **state)
{
    (void)state;
    static const char src[] = "    .macro addi rd, rs, imm=1\n"
                              "    add \\rd, \\rs, \\imm\n"
                              "    .endm\n"
                              "    .macro spin n\n"
                              "lbl\\@: loop \\n, lbl\\@\n"
                              "    .endm\n"
                              "    .macro twice a\n"
                              "    addi \\a, \\a\n"
                              "    addi \\a, \\a, imm=2\n"
                              "    .endm\n"
                              "    addi r1, r2\n"
                              "    addi r1, r2, 5\n"
                              "    spin r3\n"
                              "    spin r4\n"
                              "    twice r5\n"
                              "    { addi r6, r6 ; nop }\n";
    asm_result_t r;
    t_assemble_ok(src, &r);
    uint32_t expect[32];
    size_t n = t_words("add r1, r2, 1\nadd r1, r2, 5\n0: loop r3, 0b\n0: loop r4, 0b\nadd r5, r5, 1\n"
                       "add r5, r5, 2\n{ add r6, r6, 1 ; nop }\n",
                       expect, 32);
    assert_int_equal(r.image.text_words, n);
    assert_memory_equal(r.image.text, expect, n * 4);
    assert_non_null(isa_image_symbol(&r.image, "lbl2")); /* \\@ counts every expansion: two addi came first */
    assert_non_null(isa_image_symbol(&r.image, "lbl3"));
    /* the line table points at the invocation, not the macro body */
    const isa_line_t *l = isa_image_line(&r.image, 0x1000);
    assert_non_null(l);
    assert_int_equal(l->line, 11);
    l = isa_image_line(&r.image, 0x1000 + 4 * 10);
    assert_int_equal(l->line, 15);
    asm_result_free(&r);
}

static void rept_and_conditionals(void **state)
{
    (void)state;
    uint32_t w[16];
    assert_int_equal(t_words(".rept 3\nnop\n.endr\n.rept 0\nhalt\n.endr\n", w, 16), 3);
    assert_int_equal(data_word(".data\n.set i, 0\n.rept 4\n.word i * i\n.set i, i + 1\n.endr\n", 3), 9);
    assert_int_equal(expr_value("1\n.if 0\n.word 2\n.elseif 1\n.word 3\n.else\n.word 4\n.endif\n.word 5"), 1);
    assert_int_equal(data_word(".data\n.if 0\n.word 2\n.elseif 1\n.word 3\n.else\n.word 4\n.endif\n", 0), 3);
    assert_int_equal(data_word(".data\n.if 0\n.if 1\n.word 1\n.else\n.word 2\n.endif\n.else\n.word 3\n.endif\n", 0), 3);
    assert_int_equal(data_word(".data\nX = 1\n.ifdef X\n.word 7\n.endif\n.ifndef Y\n.word 8\n.endif\n", 1), 8);
    /* a false branch may hold anything, even lines that would not assemble */
    assert_int_equal(data_word(".data\n.if 0\n  this is not assembly @@@ \"\n.endif\n.word 6\n", 0), 6);
}

static void include_searches_the_file_dir_then_include_dirs(void **state)
{
    (void)state;
    char *dir = t_make_tmpdir();
    char sub[400], lib[400], path[512];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(lib, sizeof lib, "%s/lib", dir);
    assert_int_equal(system(NULL) != 0, 1);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s'", sub, lib);
    assert_int_equal(system(cmd), 0);
    t_write_file(sub, "near.s", "    .include \"far.s\"\n    .word NEAR\n");
    t_write_file(lib, "far.s", "FAR = 0x55\n");
    t_write_file(sub, "main.s", ".data\nNEAR = 0x44\n    .include \"near.s\"\n    .word FAR\n");
    snprintf(path, sizeof path, "%s/main.s", sub);
    const char *paths[] = {path};
    const char *incs[] = {lib};
    asm_options_t o;
    asm_options_init(&o);
    asm_result_t r;
    assert_int_equal(asm_assemble_files(paths, 1, &o, &r), -1); /* far.s is only found with -I */
    asm_result_free(&r);
    o.include_dirs = incs;
    o.ninclude_dirs = 1;
    assert_int_equal(asm_assemble_files(paths, 1, &o, &r), 0);
    assert_int_equal(r.image.data_bytes, 8);
    assert_int_equal(r.image.data[0], 0x44);
    assert_int_equal(r.image.data[4], 0x55);
    assert_int_equal(r.image.nfiles, 3);
    asm_result_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", sub, lib);
    assert_int_equal(system(cmd), 0);
    t_remove_tmpdir(dir);
}

static void several_files_share_labels(void **state)
{
    (void)state;
    char *dir = t_make_tmpdir();
    t_write_file(dir, "a.s", "_start: call helper\n halt\n");
    t_write_file(dir, "b.s", "helper: ret\n");
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/a.s", dir);
    snprintf(pb, sizeof pb, "%s/b.s", dir);
    const char *paths[] = {pa, pb};
    asm_result_t r;
    assert_int_equal(asm_assemble_files(paths, 2, NULL, &r), 0);
    assert_int_equal(r.image.text[1], 0x100c);
    assert_int_equal(r.image.nfiles, 2);
    assert_int_equal(r.image.lines[r.image.nlines - 1].file, 1);
    asm_result_free(&r);
    t_remove_tmpdir(dir);
}

static void command_line_defines(void **state)
{
    (void)state;
    const char *defs[] = {"SIZE=4*8", "DEBUG"};
    asm_options_t o;
    asm_options_init(&o);
    o.defines = defs;
    o.ndefines = 2;
    asm_result_t r;
    assert_int_equal(t_assemble(".data\n.word SIZE\n.ifdef DEBUG\n.word DEBUG\n.endif\n", &o, &r), 0);
    assert_int_equal(r.image.data_bytes, 8);
    assert_int_equal(r.image.data[0], 32);
    assert_int_equal(r.image.data[4], 1);
    assert_non_null(isa_image_symbol(&r.image, "SIZE"));
    asm_result_free(&r);
}

static uint32_t float_imm(const char *text)
{
    char src[128];
    uint32_t w[2];
    snprintf(src, sizeof src, "fadd.s r1, r2, %s\n", text);
    assert_int_equal(t_words(src, w, 2), 2);
    return w[1];
}

static void float_immediates_and_bits(void **state)
{
    (void)state;
    assert_int_equal(float_imm("1.5"), 0x3fc00000);
    assert_int_equal(float_imm("-2e-3"), 0xbb03126f);
    assert_int_equal(float_imm("inf"), 0x7f800000);
    assert_int_equal(float_imm("-inf"), 0xff800000);
    assert_int_equal(float_imm("nan"), 0x7fc00000);
    assert_int_equal(float_imm("3"), 0x40400000);
    assert_int_equal(float_imm("-0.0"), 0x80000000);
    assert_int_equal(float_imm(".5"), 0x3f000000);
    assert_int_equal(float_imm("%bits(0x7fc00001)"), 0x7fc00001);
    assert_int_equal(float_imm("0.1"), 0x3dcccccd); /* rounded once, from the decimal text */
    assert_int_equal(float_imm("1e-45"), 0x00000001);
    assert_int_equal(data_word(".data\n.double 1.0\n", 1), 0x3ff00000);
}

/* Every float the disassembler prints converts back to the same bits: a sweep over exponents and
 * random mantissas, plus the special values. */
static void float_text_round_trips_bit_exactly(void **state)
{
    (void)state;
    uint32_t s = 12345;
    for (unsigned i = 0; i < 3000; i++) {
        s = s * 1664525u + 1013904223u;
        uint32_t bits =
            i < 8 ? (uint32_t[]){0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fc00001u, 1, 0x7f7fffffu}[i]
                  : s;
        char text[48], src[96];
        dis_float_text(bits, text, sizeof text);
        snprintf(src, sizeof src, "fmul.s r1, r2, %s\n", text);
        uint32_t w[2];
        assert_int_equal(t_words(src, w, 2), 2);
        if (w[1] != bits)
            fail_msg("0x%08x printed as %s reads back as 0x%08x", bits, text, w[1]);
    }
    char text[48];
    dis_float_text(0x3dcccccd, text, sizeof text);
    assert_string_equal(text, "0.1");
    dis_float_text(0x80000000, text, sizeof text);
    assert_string_equal(text, "-0.0");
    dis_float_text(0x7fc00001, text, sizeof text);
    assert_string_equal(text, "%bits(0x7fc00001)");
}

static void data_directives_lay_out_little_endian(void **state)
{
    (void)state;
    asm_result_t r;
    t_assemble_ok(".data\nb: .byte 1, -1, 255\nh: .half 0x1234, -2\n.align 4\nw: .word 0x11223344\n"
                  "s: .ascii \"a#b\", \"c\"\nz: .asciz \"\\x41\\n\"\n.space 3, 0x7f\n.float 2.0\n",
                  &r);
    static const uint8_t want[] = {1,   0xff, 0xff, 0x34, 0x12, 0xfe, 0xff, 0,    0x44, 0x33, 0x22, 0x11, 'a',
                                   '#', 'b',  'c',  0x41, '\n', 0,    0x7f, 0x7f, 0x7f, 0,    0,    0,    0x40};
    assert_int_equal(r.image.data_bytes, sizeof want);
    assert_memory_equal(r.image.data, want, sizeof want);
    assert_int_equal(isa_image_symbol(&r.image, "w")->value, r.image.data_base + 8);
    assert_int_equal(isa_image_symbol(&r.image, "w")->kind, ISA_SYM_DATA);
    asm_result_free(&r);
}

static void pseudo_instructions_expand_to_one_real_operation(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"mov r3, r4", "or r3, r4, r0"},
        {"li r3, 0x12345", "or r3, r0, 0x12345"},
        {"la a0, x", "or r3, r0, x"},
        {"not r3, r4", "nor r3, r4, r0"},
        {"neg r3, r4", "sub r3, r0, r4"},
        {"ret", "jr r1"},
        {"b x", "jmp x"},
        {"beqz r5, x", "beq r5, r0, x"},
        {"bnez r5, x", "bne r5, r0, x"},
        {"bgt r5, r6, x", "blt r6, r5, x"},
        {"ble r5, r6, x", "bge r6, r5, x"},
        {"bgtu r5, r6, x", "bltu r6, r5, x"},
        {"bleu r5, r6, x", "bgeu r6, r5, x"},
        {"{ mov r7, r8 ; li r9, 1 }", "{ or r7, r8, r0 ; or r9, r0, 1 }"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char a[128], b[128];
        uint32_t wa[8], wb[8];
        snprintf(a, sizeof a, "x: %s\n", pairs[i][0]);
        snprintf(b, sizeof b, "x: %s\n", pairs[i][1]);
        size_t na = t_words(a, wa, 8);
        assert_int_equal(t_words(b, wb, 8), na);
        assert_memory_equal(wa, wb, na * 4);
    }
}

static void register_aliases_and_memory_operands(void **state)
{
    (void)state;
    uint32_t wa[16], wb[16];
    size_t n = t_words("add zero, ra, sp\nadd a0, a7, gi0\nadd go1, gi1, 126\n", wa, 16);
    assert_int_equal(t_words("add r0, r1, r2\nadd r3, r10, r124\nadd r127, r125, 126\n", wb, 16), n);
    assert_memory_equal(wa, wb, n * 4);
    n = t_words("ldw r1, [r2]\nldw r1, [r2 + r3]\nldw r1, [r2 + 8]\nldw r1, [r2 - 8]\nldw r1, [0x40]\n"
                "rdcr r5, [r6 + 3]\nwrcr r5, [CR]\nCR = 7\n",
                wa, 16);
    assert_int_equal(n, 12);
    isa_bundle_t b;
    size_t used;
    assert_int_equal(isa_decode_bundle(wa + 2, 2, &b, &used), ISA_OK);
    assert_int_equal(b.ops[0].rs1, 2);
    assert_int_equal(b.ops[0].ext, 8);
    assert_int_equal(wa[5], (uint32_t)-8);
    assert_int_equal(wa[11], 7);
}

static void layout_and_image_fields(void **state)
{
    (void)state;
    asm_result_t r;
    t_assemble_ok("start: nop\n nop\n nop\n.data\nd: .byte 1\n.bss\nb: .space 8\ne:\n", &r);
    assert_int_equal(r.image.text_base, 0x1000);
    assert_int_equal(r.image.entry, 0x1000);
    assert_int_equal(r.image.data_base, 0x1010);
    assert_int_equal(isa_image_symbol(&r.image, "b")->value, 0x1020);
    assert_int_equal(isa_image_symbol(&r.image, "e")->value, 0x1028);
    assert_int_equal(r.image.bss_bytes, 0x1028 - 0x1011); /* zeroed from the end of .data */
    assert_int_equal(r.image.nlines, 3);
    assert_int_equal(r.image.lines[2].line, 3);
    assert_int_equal(r.image.lines[2].col, 2);
    asm_result_free(&r);

    asm_options_t o;
    asm_options_init(&o);
    o.text_base = 0x4000;
    assert_int_equal(t_assemble("nop\n_start: nop\nstart: nop\n", &o, &r), 0);
    assert_int_equal(r.image.text_base, 0x4000);
    assert_int_equal(r.image.entry, 0x4004);
    asm_result_free(&r);
    t_assemble_ok(".entry 0x1008\n.textbase 0x100\nnop\n", &r);
    assert_int_equal(r.image.text_base, 0x100);
    assert_int_equal(r.image.entry, 0x1008);
    asm_result_free(&r);
}

static void image_file_round_trips_through_the_writer(void **state)
{
    (void)state;
    asm_result_t r;
    t_assemble_ok("main: li r3, msg\n halt\n.data\nmsg: .asciz \"hi\"\n.equ K, 3\n", &r);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(isa_image_write(&r.image, f), 0);
    fclose(f);
    isa_image_t img;
    char err[200];
    assert_int_equal(isa_image_parse((const uint8_t *)buf, len, &img, err, sizeof err), 0);
    assert_true(t_same_image(&img, &r.image));
    assert_int_equal(img.nsyms, r.image.nsyms);
    assert_int_equal(isa_image_symbol(&img, "K")->kind, ISA_SYM_ABS);
    isa_image_free(&img);
    free(buf);
    asm_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(expressions_follow_c_precedence),
        cmocka_unit_test(symbols_and_the_location_counter),
        cmocka_unit_test(local_labels_numeric_and_scoped),
        cmocka_unit_test(macros_with_defaults_keywords_and_unique_labels),
        cmocka_unit_test(rept_and_conditionals),
        cmocka_unit_test(include_searches_the_file_dir_then_include_dirs),
        cmocka_unit_test(several_files_share_labels),
        cmocka_unit_test(command_line_defines),
        cmocka_unit_test(float_immediates_and_bits),
        cmocka_unit_test(float_text_round_trips_bit_exactly),
        cmocka_unit_test(data_directives_lay_out_little_endian),
        cmocka_unit_test(pseudo_instructions_expand_to_one_real_operation),
        cmocka_unit_test(register_aliases_and_memory_operands),
        cmocka_unit_test(layout_and_image_fields),
        cmocka_unit_test(image_file_round_trips_through_the_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
