/* Helpers shared by the assembler tests: assemble a string, look at its diagnostics and words, and run
 * the assemble -> disassemble -> assemble round trip. */
#ifndef TESTS_ASM_TEST_UTIL_H
#define TESTS_ASM_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm.h"
#include "dis.h"

/* Assembles src as "t.s" with default options (or opt); the result must be freed. */
int t_assemble(const char *src, const asm_options_t *opt, asm_result_t *r);
/* Assembles and fails the test (printing the diagnostics) if there is any error. */
void t_assemble_ok(const char *src, asm_result_t *r);
/* Fails unless some diagnostic, formatted "file:line:col: error: msg", starts with prefix. */
void t_expect_diag(const asm_result_t *r, const char *prefix, const char *src);
/* Assembles src and returns the text words (at most cap); fails on errors. */
size_t t_words(const char *src, uint32_t *out, size_t cap);
/* Disassembles img into a malloc'd string. */
char *t_disassemble(const isa_image_t *img, unsigned flags);
/* True when a and b have the same text words, data bytes, bss size, entry and bases. */
bool t_same_image(const isa_image_t *a, const isa_image_t *b);
/* Assembles src, disassembles it, assembles the listing, and fails unless the two images are the same. */
void t_roundtrip(const char *src);
/* A fresh directory under /tmp (malloc'd path), files in it, and its removal with its files. */
char *t_make_tmpdir(void);
void t_write_file(const char *dir, const char *name, const char *text);
void t_remove_tmpdir(char *dir);
/* Operand text for a sample of the operation (variant 0.. until it returns false), e.g. "r2, r4, r6". */
bool t_sample_operands(unsigned opcode, unsigned variant, char *buf, size_t cap);

#endif
