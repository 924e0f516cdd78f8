/* Each kind of error is reported at the right file:line:col with the right message, inside included
 * files and macro expansions too, and every error of a file is reported, not just the first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm_test_util.h"
#include "nesting.h"

typedef struct error_case {
    const char *src;
    const char *diag; /* prefix of the expected diagnostic */
} error_case_t;

static const error_case_t cases[] = {
    /* operations and operands */
    {"    ad r1, r2, r3\n", "t.s:1:5: error: unknown operation 'ad' (did you mean 'add'?)"},
    {"    frobnicate r1\n", "t.s:1:5: error: unknown operation 'frobnicate'\n"},
    {"    add r1, r2\n", "t.s:1:5: error: 'add' takes 3 operands (rd, rs1, rs2|value), not 2"},
    {"    nop r1\n", "t.s:1:5: error: 'nop' takes 0 operands (no operands), not 1"},
    {"    add r1, 5, r2\n", "t.s:1:13: error: operand 2 of 'add' must be a register"},
    {"    jmp r3\n", "t.s:1:9: error: operand 1 of 'jmp' must be a value, not a register"},
    {"    add r1, r2, r3, r4, r5\n", "t.s:1:5: error: too many operands for 'add'"},
    {"    fadd.d r2, r4, 1.5\n", "t.s:1:20: error: 'fadd.d' takes no immediate: operand 3 must be a register pair"},
    {"    fadd.d r3, r4, r6\n", "t.s:1:12: error: 'fadd.d' takes a register pair here: the first register must be "
                                "even, not r3"},
    {"    fmov.d r2, gi0\n", "t.s:1:16: error: 'fmov.d' takes a register pair here, and a pair cannot be a gate (gi0)"},
    {"    ldd r5, [r2]\n", "t.s:1:9: error: 'ldd' takes a register pair here: the first register must be even, not r5"},
    {"    add gi0, r1, r2\n", "t.s:1:9: error: gi0 is an input gate and cannot be written"},
    {"    add r1, go1, r2\n", "t.s:1:13: error: go1 is an output gate and cannot be read"},
    {"    stw go0, [r2]\n", "t.s:1:9: error: go0 is an output gate and cannot be read"},
    {"    loop gi0, 0x1000\n", "t.s:1:10: error: the loop counter cannot be a gate"},
    {"    ldw r1, [r2 - r3]\n", "t.s:1:19: error: an index register can only be added ([rs1 + rs2])"},
    {"    ldw r1, [r2 * 4]\n", "t.s:1:17: error: expected '+', '-' or ']' after the base register, found '*'"},
    {"    ldw r1, [r2\n", "t.s:1:13: error: missing ']' at the end of the memory operand"},
    {"    ldw r1, []\n", "t.s:1:13: error: empty memory operand []"},
    {"    ldw r1, r2\n", "t.s:1:13: error: operand 2 of 'ldw' must be a memory operand in brackets"},
    {"    li r1, r2\n", "t.s:1:12: error: operand 2 of 'li' must be a value, not a register"},
    {"    mov r1\n", "t.s:1:5: error: 'mov' takes 2 operands (mov rd, rs), not 1"},
    {"    li r1, 0x100000000\n", "t.s:1:12: error: value 4294967296 out of range for a 32-bit field"},
    {"    li r1, -0x80000001\n", "t.s:1:12: error: value -2147483649 out of range for a 32-bit field"},
    {"    add r1, r2, r3 + 1\n", "t.s:1:17: error: register 'r3' cannot be used in an expression"},
    /* bundles */
    {"    { ldw r1, [r2] ; stw r3, [r4] ; ldw r5, [r6] }\n",
     "t.s:1:37: error: more than two memory operations in one bundle (at most two)"},
    {"    { add r1, r2, r3 ; add r4, r5, r6 ; sub r7, r8, r9 }\n",
     "t.s:1:41: error: more than two integer ALU operations in one bundle (there are two ALUs)"},
    {"    { fadd.s r1, r2, r3 ; fsub.s r4, r5, r6 }\n",
     "t.s:1:27: error: two floating-point adder operations in one bundle (one adder)"},
    {"    { mul r1, r2, r3 ; fmul.s r4, r5, r6 }\n", "t.s:1:24: error: two floating-point multiplier operations"},
    {"    { jmp 0x1000 ; jr r3 }\n", "t.s:1:20: error: two control-flow operations in one bundle (one branch unit)"},
    {"    { rdcr r1, [1] ; wrcr r2, [2] }\n", "t.s:1:22: error: two control-register operations in one bundle"},
    {"    { halt ; nop }\n", "t.s:1:7: error: halt must be alone in its bundle"},
    {"    { add r1, r2, r3 ; sub r1, r4, r5 }\n",
     "t.s:1:24: error: r1 is written by two operations of one bundle (they would write it in the same clock)"},
    {"    { add r1, gi0, r2 ; add r3, gi0, r4 }\n",
     "t.s:1:25: error: input gate gi0 is read twice in one bundle (each read takes another word)"},
    {"    { add go0, r1, r2 ; add go0, r3, r4 }\n",
     "t.s:1:25: error: output gate go0 is written twice in one bundle (each write sends a word)"},
    {"    { }\n", "t.s:1:5: error: empty bundle: '{ }' needs at least one operation"},
    {"    {\n    nop\n", "t.s:1:5: error: unterminated bundle: '{' has no matching '}'"},
    {"    { nop ; { nop } }\n", "t.s:1:13: error: '{' inside a bundle (bundles do not nest)"},
    {"    nop }\n", "t.s:1:9: error: '}' without '{'"},
    {"    nop ; nop\n", "t.s:1:9: error: ';' separates operations only inside a bundle { ... }"},
    {"    { x: nop }\n", "t.s:1:7: error: a label cannot be inside a bundle (put it before the '{')"},
    {"    { .word 1 }\n", "t.s:1:7: error: directives cannot be inside a bundle"},
    {"    { nop ; nop ; nop ; nop ; nop ; nop ; nop ; nop ; nop }\n",
     "t.s:1:55: error: more than 8 operations in one bundle"},
    /* symbols and expressions */
    {"    jmp nowhere\n", "t.s:1:9: error: undefined symbol 'nowhere'"},
    {"x:  nop\nx:  nop\n", "t.s:2:1: error: symbol 'x' is already defined (at t.s:1:1)"},
    {"r5: nop\n", "t.s:1:1: error: 'r5' is a register name and cannot be a symbol"},
    {"    .equ A, 1\n    .equ A, 2\n", "t.s:2:10: error: symbol 'A' is already defined (at t.s:1:10)"},
    {"    .equ A, B\n    .equ B, A\n    .word A\n", "t.s:1:13: error: symbol 'B' is defined in terms of itself"},
    {"    .word 1/0\n", "t.s:1:12: error: division by zero"},
    {"    .word 5 % (2 - 2)\n", "t.s:1:13: error: remainder by zero"},
    {"    .word 1 << 64\n", "t.s:1:13: error: shift count 64 out of range (0 to 63)"},
    {"    .word (1 + 2\n", "t.s:1:17: error: expected ')' before end of line"},
    {"    .word 1 +\n", "t.s:1:14: error: expected an expression before end of line"},
    {"    .word 1.5\n", "t.s:1:11: error: float literal 1.5 where an integer is needed"},
    {"    .word 12ab\n", "t.s:1:11: error: bad number '12a'"},
    {"    .word 99999999999999999999999\n", "t.s:1:11: error: integer literal too large"},
    {"    beq r1, r2, 1b\n", "t.s:1:17: error: local label 1b is not defined before this point"},
    {"    beq r1, r2, 1f\n", "t.s:1:17: error: local label 1 is not defined after this point"},
    {"    .if later\n    .endif\nlater:\n",
     "t.s:1:9: error: symbol 'later' is not defined yet (the value is needed in the first pass)"},
    {"    .data\nx:  .word 0\n    .space x\n",
     "t.s:3:12: error: this expression uses a .data address, which is not known until the end of the first pass"},
    /* data directives */
    {"    .byte 300\n", "t.s:1:11: error: value 300 out of range for .byte (-128 to 255)"},
    {"    .byte -129\n", "t.s:1:11: error: value -129 out of range for .byte (-128 to 255)"},
    {"    .half 65536\n", "t.s:1:11: error: value 65536 out of range for .half (-32768 to 65535)"},
    {"    .float 1e39\n", "t.s:1:12: error: float literal 1e39 out of range"},
    {"    .bss\n    .word 1\n",
     "t.s:2:5: error: .word cannot be in .bss (it is zero-filled and not stored; use .space)"},
    {"    .bss\n    .space 4, 1\n", "t.s:2:5: error: .space in .bss cannot have a fill byte"},
    {"    .data\n    nop\n", "t.s:2:5: error: operations belong in .text, not .data"},
    {"    .byte 1\n    nop\n", "t.s:2:5: error: operation at .text offset 1, which is not a multiple of 4"},
    {"    .byte 1\n", "t.s: error: .text is 1 bytes, not a whole number of words"},
    {"    .align 3\n", "t.s:1:5: error: .align 3 is not a power of two"},
    {"    .data\n    .align 32\n", "t.s:2:12: error: .align 32 out of range (1 to 16)"},
    {"    .space -1\n", "t.s:1:12: error: .space size -1 out of range"},
    {"    .ascii 5\n", "t.s:1:12: error: .ascii takes strings in double quotes, not '5'"},
    {"    .ascii \"abc\n", "t.s:1:12: error: unterminated string"},
    {"    .ascii \"\\q\"\n", "t.s:1:13: error: unknown escape sequence '\\q'"},
    {"    .word ''\n", "t.s:1:11: error: empty character literal"},
    {"    .wrod 1\n", "t.s:1:5: error: unknown directive '.wrod' (did you mean '.word'?)"},
    {"    .entry 1\n    .entry 2\n", "t.s:2:5: error: .entry given twice (first at line 1)"},
    {"    nop\n    .textbase 0x2000\n", "t.s:2:5: error: .textbase must come before anything is placed in .text"},
    {"    .error \"custom message\"\n", "t.s:1:5: error: custom message"},
    {"    .word 1 @ 2\n", "t.s:1:13: error: unexpected character '@'"},
    {"    .equ X 5\n", "t.s:1:12: error: expected ',' after the name in .equ NAME, value"},
    /* conditionals, macros, .rept, includes */
    {"    .if 1\n    nop\n", "t.s:1:5: error: unterminated conditional (missing .endif)"},
    {"    .endif\n", "t.s:1:5: error: .endif without .if"},
    {"    .else\n", "t.s:1:5: error: .else without .if"},
    {"    .if 0\n    .else\n    .else\n    .endif\n", "t.s:3:5: error: .else after .else (the .if is at line 1)"},
    {"    .macro m\n    nop\n", "t.s:1:5: error: unterminated .macro (missing .endm)"},
    {"    .rept 2\n    nop\n", "t.s:1:5: error: unterminated .rept (missing .endr)"},
    {"    .endm\n", "t.s:1:5: error: .endm without .macro"},
    {"    .rept -1\n    .endr\n", "t.s:1:11: error: .rept count -1 out of range"},
    {"    .macro m a\n    .endm\n    .macro m b\n    .endm\n",
     "t.s:3:12: error: macro 'm' is already defined (at t.s:1:12)"},
    {"    .macro m a\n    .endm\n    m\n", "t.s:3:5: error: macro 'm' needs a value for parameter 'a'"},
    {"    .macro m a\n    .endm\n    m 1, 2\n", "t.s:3:10: error: too many arguments for macro 'm' (it takes 1)"},
    {"    .macro m a\n    add r1, r2, \\a\n    .endm\n    m 1+\n",
     "t.s:2:19: error: expected an expression before end of line (in macro 'm' called at t.s:4:5)"},
    {"    .macro m\n    m\n    .endm\n    m\n",
     "t.s:2:5: error: macro calls nested more than 64 deep (does 'm' call itself?)"},
    {"    .macro inner\n    bogus\n    .endm\n    .macro outer\n    inner\n    .endm\n    outer\n",
     "t.s:2:5: error: unknown operation 'bogus' (in macro 'inner' called at t.s:5:5, from macro 'outer' called at "
     "t.s:7:5)"},
    {"    .include \"no_such_file.s\"\n", "t.s:1:5: error: cannot find include file 'no_such_file.s'"},
    {"    .include no_quotes\n", "t.s:1:5: error: .include needs a file name in double quotes"},
};

/* Whether a diagnostic starts with want (or, exact, is want). */
static bool has_diag(const asm_result_t *r, const char *want, bool exact)
{
    for (size_t k = 0; k < r->ndiags; k++) {
        char buf[1024];
        asm_format_diag(&r->diags[k], buf, sizeof buf);
        if (exact ? strcmp(buf, want) == 0 : strncmp(buf, want, strlen(want)) == 0)
            return true;
    }
    return false;
}

static void each_error_has_its_location_and_message(void **state)
{
    (void)state;
    unsigned failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        asm_result_t r;
        int rc = t_assemble(cases[i].src, NULL, &r);
        char want[512];
        snprintf(want, sizeof want, "%s", cases[i].diag);
        size_t n = strlen(want);
        bool exact = n > 0 && want[n - 1] == '\n'; /* a trailing newline asks for the whole message */
        if (exact)
            want[n - 1] = '\0';
        if (rc == 0 || !has_diag(&r, want, exact) || r.image.text_words != 0) {
            fprintf(stderr, "case %zu:\n%s---- expected ----\n%s\n---- got ----\n", i, cases[i].src, want);
            asm_print_diags(&r, stderr);
            failures++;
        }
        asm_result_free(&r);
    }
    assert_int_equal(failures, 0);
}

static void all_errors_of_a_file_are_reported(void **state)
{
    (void)state;
    asm_result_t r;
    t_assemble("    add r1, r2\n    nop\n    bogus\n    nop\n    .word 1/0\n", NULL, &r);
    assert_int_equal(r.nerrors, 3);
    assert_int_equal(r.ndiags, 3);
    t_expect_diag(&r, "t.s:1:5: error:", "");
    t_expect_diag(&r, "t.s:3:5: error:", "");
    t_expect_diag(&r, "t.s:5:12: error:", "");
    asm_result_free(&r);
}

/* 30,000 '(' overflowed the assembler's stack (it recurses once per level): now one error at the level past the
 * limit, which a parenthesis or a unary operator reaches alike. */
static void deeply_nested_expressions_are_an_error_not_a_crash(void **state)
{
    (void)state;
    static const struct {
        char c;
        const char *after;
    } kinds[] = {{'(', "1\n"}, {'-', "1\n"}, {'~', "1\n"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char *src = nesting_text("    .word ", kinds[k].c, 30000, kinds[k].after);
        asm_result_t r;
        assert_int_equal(t_assemble(src, NULL, &r), -1);
        assert_int_equal(r.nerrors, 1);
        /* The operand starts at column 11: the level past the limit is the 257th. */
        t_expect_diag(&r, "t.s:1:267: error: expression nested too deeply (limit 256)", src);
        asm_result_free(&r);
        free(src);
    }
    /* At the limit it assembles. */
    char *src = nesting_text("    .word ", '-', 255, "1\n");
    asm_result_t r;
    t_assemble_ok(src, &r);
    asm_result_free(&r);
    free(src);
}

static void assembly_stops_after_too_many_errors(void **state)
{
    (void)state;
    char *src = malloc(200 * 8 + 1);
    assert_non_null(src);
    src[0] = '\0';
    for (int i = 0; i < 200; i++)
        strcat(src, "bogus1\n");
    asm_result_t r;
    t_assemble(src, NULL, &r);
    assert_true(r.nerrors <= ASM_MAX_ERRORS + 1);
    t_expect_diag(&r, "t.s:100:1: error: too many errors, stopping", src);
    asm_result_free(&r);
    free(src);
}

static void errors_in_included_files_name_that_file(void **state)
{
    (void)state;
    char *dir = t_make_tmpdir();
    t_write_file(dir, "inner.s", "    nop\n    add r1\n");
    t_write_file(dir, "main.s", "    .include \"inner.s\"\n    bogus\n");
    t_write_file(dir, "self.s", "    .include \"self.s\"\n");
    char path[512], want[600];
    snprintf(path, sizeof path, "%s/main.s", dir);
    const char *paths[] = {path};
    asm_result_t r;
    assert_int_equal(asm_assemble_files(paths, 1, NULL, &r), -1);
    snprintf(want, sizeof want, "%s/inner.s:2:5: error: 'add' takes 3 operands", dir);
    t_expect_diag(&r, want, "");
    snprintf(want, sizeof want, "%s/main.s:2:5: error: unknown operation 'bogus'", dir);
    t_expect_diag(&r, want, "");
    asm_result_free(&r);

    snprintf(path, sizeof path, "%s/self.s", dir);
    assert_int_equal(asm_assemble_files(paths, 1, NULL, &r), -1);
    snprintf(want, sizeof want,
             "%s/self.s:1:5: error: .include nested more than 32 deep (does 'self.s' include itself?)", dir);
    t_expect_diag(&r, want, "");
    asm_result_free(&r);

    snprintf(path, sizeof path, "%s/missing.s", dir);
    assert_int_equal(asm_assemble_files(paths, 1, NULL, &r), -1);
    snprintf(want, sizeof want, "%s/missing.s: error: cannot open: ", dir);
    t_expect_diag(&r, want, "");
    asm_result_free(&r);
    t_remove_tmpdir(dir);
}

static void warnings_do_not_fail_the_assembly(void **state)
{
    (void)state;
    asm_result_t r;
    assert_int_equal(t_assemble("    .warning \"careful\"\n    jmp 0x1002\n", NULL, &r), 0);
    assert_int_equal(r.nerrors, 0);
    t_expect_diag(&r, "t.s:1:5: warning: careful", "");
    t_expect_diag(&r, "t.s:2:9: warning: branch target 0x1002 is not a multiple of 4", "");
    asm_result_free(&r);
}

static void command_line_defines_report_their_errors(void **state)
{
    (void)state;
    const char *defs[] = {"X=1+", "9bad"};
    asm_options_t o;
    asm_options_init(&o);
    o.defines = defs;
    o.ndefines = 2;
    asm_result_t r;
    assert_int_equal(t_assemble("nop\n", &o, &r), -1);
    t_expect_diag(&r, "<command line>:1:", "");
    t_expect_diag(&r, "<command line>:2:1: error: -D needs NAME or NAME=value, not '9bad'", "");
    asm_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_error_has_its_location_and_message),
        cmocka_unit_test(all_errors_of_a_file_are_reported),
        cmocka_unit_test(assembly_stops_after_too_many_errors),
        cmocka_unit_test(errors_in_included_files_name_that_file),
        cmocka_unit_test(warnings_do_not_fail_the_assembly),
        cmocka_unit_test(command_line_defines_report_their_errors),
        cmocka_unit_test(deeply_nested_expressions_are_an_error_not_a_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
