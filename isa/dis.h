/*
 * The disassembler: bundles to assembly text, and whole images to listings that the assembler turns back
 * into the same image (text and data words, bss size, entry point).
 *
 * Only real operations are printed, never pseudo-instructions, so every line reassembles to the very
 * words it came from. Float immediates print as the shortest decimal that converts back to the same
 * bits, or as %bits(0x...) when no decimal does (NaN payloads).
 */
#ifndef ISA_DIS_H
#define ISA_DIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image.h"
#include "isa.h"

enum dis_flags {
    DIS_NO_SYMBOLS = 1u << 0, /* no labels: every address in hex */
    DIS_RAW = 1u << 1,        /* a comment with the address and the words after each line */
    DIS_LINES = 1u << 2,      /* a comment with the source file:line before each bundle that has one */
};

/* One line for a bundle: "add r1, r2, r3" or "{ a ; b ; c }". Branch targets print as the name of a
 * text symbol of img at exactly that address (img may be NULL). Returns the length snprintf would
 * give, or -1 for an operation that is not in the table. */
int dis_bundle_text(const isa_bundle_t *b, const isa_image_t *img, char *buf, size_t cap);

/* A full listing of img on out. Returns 0, or -1 when writing failed. */
int dis_image(const isa_image_t *img, FILE *out, unsigned flags);

/* The float immediate text for a 32-bit pattern ("1.5", "-0.0", "inf", "%bits(0x7fc00001)"). */
int dis_float_text(uint32_t bits, char *buf, size_t cap);

/* Whether a symbol name can be written in a listing (an identifier that is not a register name and
 * does not start with '.'). */
bool dis_symbol_name_ok(const char *name);

#endif
