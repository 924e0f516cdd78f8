/*
 * The assembler's internals, shared by the isa/asm_*.c files. Everything a run needs lives in one asm_t;
 * memory comes from its arena (or from growable arrays it owns), so an error anywhere, including running
 * out of memory (a longjmp back to the entry point), is cleaned up by freeing the asm_t.
 */
#ifndef ISA_ASM_INTERNAL_H
#define ISA_ASM_INTERNAL_H

#include <setjmp.h>
#include <stdarg.h>

#include "asm.h"
#include "isa.h"

#if defined(__GNUC__)
#define ASM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ASM_PRINTF(f, a)
#endif

enum {
    ASM_MAX_INCLUDE_DEPTH = 32,
    ASM_MAX_MACRO_DEPTH = 64,
    ASM_MAX_SECTION_BYTES = 16u << 20,
    ASM_MAX_DIAGS = 1000,
};
#define ASM_FILE_CMDLINE 0xffffffffu /* file index of -D definitions */

typedef struct asm_state asm_t;

/* ---- memory ---- */

typedef struct asm_arena_block {
    struct asm_arena_block *next;
    size_t used, cap;
    max_align_t data[];
} asm_arena_block_t;

typedef struct asm_arena {
    asm_arena_block_t *head;
} asm_arena_t;

void *asm_alloc(asm_t *as, size_t n); /* zeroed; never NULL (longjmps on exhaustion) */
char *asm_strndup(asm_t *as, const char *s, size_t n);
char *asm_strdup(asm_t *as, const char *s);
char *asm_printf(asm_t *as, const char *fmt, ...) ASM_PRINTF(2, 3);
/* A malloc'd copy, for what outlives the run (diagnostics, the image). */
char *asm_malloc_strdup(asm_t *as, const char *s);
void asm_arena_free(asm_arena_t *a);
/* Makes room for need elements in a malloc'd array that the asm_t frees (register it in asm_free_state). */
void asm_reserve(asm_t *as, void **ptr, size_t *cap, size_t need, size_t elem);
#define ASM_PUSH(as, arr, n, cap) (asm_reserve((as), (void **)&(arr), &(cap), (n) + 1, sizeof *(arr)), &(arr)[(n)++])
_Noreturn void asm_out_of_memory(asm_t *as);

/* ---- source positions and diagnostics ---- */

typedef struct asm_expansion asm_expansion_t;

typedef struct asm_loc {
    uint32_t file; /* index into as->files, or ASM_FILE_CMDLINE */
    uint32_t line;
    uint32_t col;
    const asm_expansion_t *exp; /* the macro expansion this line came from, or NULL */
} asm_loc_t;

struct asm_expansion {
    const char *macro;
    asm_loc_t call; /* the invocation */
};

void asm_error(asm_t *as, asm_loc_t loc, const char *fmt, ...) ASM_PRINTF(3, 4);
void asm_warning(asm_t *as, asm_loc_t loc, const char *fmt, ...) ASM_PRINTF(3, 4);
/* The user-visible place of a statement: the outermost macro invocation, or loc itself. */
asm_loc_t asm_loc_outer(asm_loc_t loc);
const char *asm_file_name(const asm_t *as, uint32_t file);
/* The candidate closest to word by edit distance, if at most 2 edits away; NULL otherwise. */
const char *asm_closest(const char *word, size_t len, const char *const *cands, size_t n);

/* ---- lexer ---- */

typedef enum asm_tok_kind {
    TK_EOL,
    TK_IDENT,
    TK_INT,    /* decimal, 0x, 0b, 0o or character literal */
    TK_FLOAT,  /* 1.5, 2e-3, .5 */
    TK_STRING, /* decoded into str/slen */
    TK_LOCAL,  /* 1b / 1f: ival is the label number, dir is 'b' or 'f' */
    TK_PUNCT,
    TK_FUNC, /* %name */
} asm_tok_kind_t;

enum { P_SHL = 256, P_SHR, P_LE, P_GE, P_EQ, P_NE, P_ANDAND, P_OROR };

typedef struct asm_tok {
    asm_tok_kind_t kind;
    int punct;
    uint32_t col;      /* column of the first character */
    uint32_t off, end; /* byte range in the line text */
    const char *text;  /* the raw spelling */
    size_t len;
    uint64_t ival;
    char dir;
    char *str;
    size_t slen;
} asm_tok_t;

typedef struct asm_line {
    const char *text;
    size_t len;
    asm_loc_t loc; /* loc.col is the column of text[0] */
} asm_line_t;

/* Splits a line into as->toks (ending with TK_EOL). Reports and returns false on a bad token. */
bool asm_lex_line(asm_t *as, const asm_line_t *line);
bool asm_is_ident_start(int c);
bool asm_is_ident_char(int c);
bool asm_tok_is(const asm_tok_t *t, const char *ident);
bool asm_tok_punct(const asm_tok_t *t, int p);
/* Short description of a token for messages ("'foo'", "end of line"). */
const char *asm_tok_describe(asm_t *as, const asm_tok_t *t);

/* A range of the current line's tokens being parsed; i never passes end. depth: the levels of the expression
 * being parsed that enclose the cursor (asm_expr.c), 0 outside an expression. */
typedef struct asm_cursor {
    asm_t *as;
    const asm_line_t *line;
    const asm_tok_t *t;
    size_t i, end;
    unsigned depth;
} asm_cursor_t;

/* Parentheses and unary operators an expression may nest: the parser recurses once per level, and so do the
 * evaluator and the passes over the tree, on a stack of a few megabytes (30,000 '(' overflowed it). No
 * expression a person writes comes near. */
enum { ASM_EXPR_MAX_DEPTH = 256 };

const asm_tok_t *asm_cur(const asm_cursor_t *c); /* the token at i; at the end, the token after the range */
bool asm_at_end(const asm_cursor_t *c);
asm_loc_t asm_cur_loc(const asm_cursor_t *c);
asm_loc_t asm_tok_loc(const asm_cursor_t *c, const asm_tok_t *t);
bool asm_accept_punct(asm_cursor_t *c, int p);
/* Moves to the next ',' outside parentheses and brackets, or to the end. */
void asm_skip_to_comma(asm_cursor_t *c);
/* Reports "expected ... before/at X" unless the cursor is at the end; returns false if not. */
bool asm_expect_end(asm_cursor_t *c, const char *what);

/* ---- symbols ---- */

typedef enum asm_section_id { SEC_ABS, SEC_TEXT, SEC_DATA, SEC_BSS, SEC_COUNT } asm_section_id_t;

typedef enum asm_sym_kind { SYM_UNDEF, SYM_LABEL, SYM_EQU, SYM_SET } asm_sym_kind_t;

typedef struct asm_expr asm_expr_t;

typedef struct asm_sym {
    struct asm_sym *next; /* hash chain */
    char *name;
    uint32_t hash;
    asm_sym_kind_t kind;
    bool exported;            /* false for numeric local labels */
    uint8_t eval_state;       /* EQU: 0 not evaluated, 1 being evaluated, 2 value known */
    asm_section_id_t section; /* of value: SEC_ABS or the section a label (or a relative .equ) is in */
    int64_t value;            /* LABEL: offset in section; EQU/SET: value (relative to section start if not ABS) */
    const asm_expr_t *expr;   /* EQU definition */
    asm_loc_t def;
} asm_sym_t;

typedef struct asm_symtab {
    asm_sym_t **buckets;
    size_t nbuckets;
    asm_sym_t **all; /* in creation order */
    size_t n, cap;
} asm_symtab_t;

asm_sym_t *asm_sym_lookup(asm_t *as, const char *name, size_t len); /* NULL if never seen */
asm_sym_t *asm_sym_get(asm_t *as, const char *name, size_t len);    /* creates an SYM_UNDEF entry */
/* The full name of an identifier: ".x" becomes "scope.x" after a label "scope". */
char *asm_sym_scoped_name(asm_t *as, const char *name, size_t len);
/* Symbol for a numeric local label reference (1b / 1f) or definition (def = true). NULL after an error. */
asm_sym_t *asm_local_label(asm_t *as, uint64_t num, char dir, bool def, asm_loc_t loc);
/* Checks a name may be defined (not a register, not "."); reports otherwise. */
bool asm_sym_name_ok(asm_t *as, const char *name, size_t len, asm_loc_t loc);
/* Defines a label at the current position of the current section. */
void asm_define_label(asm_t *as, const char *name, size_t len, asm_loc_t loc);
void asm_define_equ(asm_t *as, const char *name, size_t len, const asm_expr_t *e, bool redefinable, asm_loc_t loc);

/* ---- expressions ---- */

typedef enum asm_expr_kind { EX_NUM, EX_SYM, EX_FLOAT, EX_BITS, EX_UNARY, EX_BINARY } asm_expr_kind_t;

struct asm_expr {
    asm_expr_kind_t kind;
    int op;                   /* EX_UNARY: '-', '~', '!'; EX_BINARY: operator; EX_FLOAT: '-' when negated */
    asm_section_id_t section; /* EX_NUM: a position in a section (from '.') or SEC_ABS */
    int64_t num;
    asm_sym_t *sym;
    const char *ftext; /* EX_FLOAT: "1.5", "inf", "nan" */
    const asm_expr_t *a, *b;
    asm_loc_t loc;
};

typedef struct asm_value {
    int64_t v;
    asm_section_id_t section; /* SEC_ABS, or relative to that section's start (first pass only) */
} asm_value_t;

/* Parses an integer expression at the cursor; NULL after reporting an error. */
const asm_expr_t *asm_parse_expr(asm_cursor_t *c);
/* Parses a float operand: [-]float literal, inf, nan, %bits(expr), or an integer expression. */
const asm_expr_t *asm_parse_float(asm_cursor_t *c);
/* Parses a whole operand (the cursor range must be used up). */
const asm_expr_t *asm_parse_expr_all(asm_cursor_t *c);
/* Evaluates; final = after layout (every address known). Reports errors at the offending node. */
bool asm_eval(asm_t *as, const asm_expr_t *e, bool final, asm_value_t *out);
/* Evaluates to an absolute value in the first pass (for .if, .rept, .space, .align, .set). */
bool asm_eval_now(asm_t *as, const asm_expr_t *e, int64_t *out);
bool asm_eval_float32(asm_t *as, const asm_expr_t *e, uint32_t *bits);
bool asm_eval_float64(asm_t *as, const asm_expr_t *e, uint64_t *bits);
/* The largest and smallest values a 32-bit field takes: -2^31 .. 2^32-1. */
bool asm_fits32(int64_t v);

/* ---- sections, fixups and output ---- */

typedef enum asm_fixup_kind { FX_WORD, FX_HALF, FX_BYTE, FX_TARGET, FX_FLOAT, FX_DOUBLE } asm_fixup_kind_t;

typedef struct asm_fixup {
    asm_fixup_kind_t kind;
    asm_section_id_t section;
    uint32_t offset;
    const asm_expr_t *expr;
} asm_fixup_t;

typedef struct asm_section {
    uint8_t *bytes; /* NULL for .bss */
    size_t size, cap;
} asm_section_t;

/* Appends n bytes (zeros when p is NULL) to the current section; false (after an error) when it would
 * grow past the limit. */
bool asm_emit(asm_t *as, const void *p, size_t n, asm_loc_t loc);
/* Appends a field of the given width left zero, to be filled from e in the second pass. */
bool asm_emit_fixup(asm_t *as, asm_fixup_kind_t kind, const asm_expr_t *e, asm_loc_t loc);
uint32_t asm_section_size(const asm_t *as, asm_section_id_t s);
/* The second pass: places the sections, fills the open fields and the image (empty after errors). */
void asm_finish(asm_t *as);
const char *asm_section_name(asm_section_id_t s);

/* ---- statements ---- */

typedef struct asm_pending_op {
    isa_op_t op;
    asm_loc_t loc;
    const asm_expr_t *ext; /* NULL when the extension word (if any) is known */
    asm_fixup_kind_t ext_kind;
} asm_pending_op_t;

typedef struct asm_bundle {
    bool open;
    asm_loc_t loc; /* of '{' */
    unsigned count;
    bool bad; /* an operation failed; the bundle is dropped at '}' */
    asm_pending_op_t ops[ISA_BUNDLE_MAX_OPS];
} asm_bundle_t;

/* Processes one active line: labels, bundles, directives, macro calls and operations. */
void asm_process_line(asm_t *as, const asm_line_t *line);
/* Parses one operation (tokens of the cursor range, the mnemonic first) into *op; false after an error. */
bool asm_parse_op(asm_t *as, asm_cursor_t *c, asm_pending_op_t *op);
/* Checks and emits a bundle of one or more parsed operations. */
void asm_emit_bundle(asm_t *as, asm_pending_op_t *ops, unsigned count, asm_loc_t loc);
/* Runs a directive (cursor at its name); false if name is not a directive. */
bool asm_directive(asm_t *as, asm_cursor_t *c);
bool asm_is_directive(const char *name, size_t len);
/* Mnemonics, pseudo-instructions and directive names for "did you mean". */
const char *asm_suggest_op(const char *name, size_t len);
const char *asm_suggest_directive(const char *name, size_t len);

/* ---- sources: files, includes, macros, .rept, conditionals ---- */

typedef struct asm_macro {
    char *name;
    size_t nparams;
    char **params;
    char **defaults; /* NULL entries: required */
    asm_line_t *body;
    size_t nbody;
    asm_loc_t def;
} asm_macro_t;

typedef enum asm_src_kind { SRC_FILE, SRC_LINES } asm_src_kind_t;

typedef struct asm_source {
    asm_src_kind_t kind;
    /* SRC_FILE */
    const char *buf;
    size_t len, pos;
    uint32_t file, line;
    /* SRC_LINES: a macro expansion, a .rept body or the rest of a line */
    const asm_line_t *lines;
    size_t nlines, next;
    uint64_t reps_left;
    const asm_macro_t *macro; /* set for an expansion: lines are substituted */
    char **args;
    unsigned long counter; /* \@ */
    const asm_expansion_t *exp;
    size_t cond_base; /* depth of the conditional stack when pushed */
} asm_source_t;

typedef enum asm_cond_state { COND_ACTIVE, COND_SEEKING, COND_DONE, COND_OUTER_OFF } asm_cond_state_t;

typedef struct asm_cond {
    asm_cond_state_t state;
    bool seen_else;
    asm_loc_t loc;
} asm_cond_t;

typedef enum asm_collect_mode { COLLECT_NONE, COLLECT_MACRO, COLLECT_REPT } asm_collect_mode_t;

typedef struct asm_collect {
    asm_collect_mode_t mode;
    unsigned nest;
    size_t src_depth;
    asm_loc_t loc;
    asm_macro_t *macro; /* COLLECT_MACRO */
    uint64_t count;     /* COLLECT_REPT */
    asm_line_t *lines;
    size_t n, cap;
} asm_collect_t;

/* Pushes a source file (resolved relative to from's file, then -I); reports when it cannot be read. */
bool asm_push_file(asm_t *as, const char *path, size_t len, const asm_loc_t *from);
/* Pushes the whole of a string as a file named name. */
void asm_push_string(asm_t *as, const char *name, const char *src, size_t len);
void asm_push_lines(asm_t *as, const asm_line_t *lines, size_t n, uint64_t reps, const asm_expansion_t *exp);
/* Expands a macro call (cursor after the name). */
void asm_call_macro(asm_t *as, const asm_macro_t *m, asm_cursor_t *c, asm_loc_t loc);
const asm_macro_t *asm_macro_lookup(asm_t *as, const char *name, size_t len);
/* Reads and processes lines until every pushed source is finished. */
void asm_run(asm_t *as);
bool asm_cond_skipping(const asm_t *as);
/* Line handlers for .macro / .rept bodies (asm_macro.c). */
void asm_start_macro(asm_t *as, const asm_line_t *line);
void asm_start_rept(asm_t *as, const asm_line_t *line);
void asm_collect_line(asm_t *as, const asm_line_t *line, const char *word);
char *asm_macro_substitute(asm_t *as, const asm_source_t *s, const asm_line_t *line, size_t *len);

/* ---- the run ---- */

typedef struct asm_file {
    char *name;
    char *dir;
} asm_file_t;

typedef struct asm_line_entry {
    uint32_t offset; /* in .text */
    asm_loc_t loc;
} asm_line_entry_t;

typedef struct asm_numlabel {
    uint64_t num;
    uint32_t count;
} asm_numlabel_t;

struct asm_state {
    const asm_options_t *opt;
    asm_result_t *res;
    jmp_buf oom;
    asm_arena_t arena;
    size_t diag_cap;
    bool stop; /* too many errors or lines: read no further */

    asm_file_t *files;
    size_t nfiles, files_cap;

    asm_symtab_t syms;
    asm_macro_t **macros;
    size_t nmacros, macros_cap;
    asm_numlabel_t *numlabels;
    size_t nnumlabels, numlabels_cap;
    const char *scope; /* last non-local label, for .x names */

    asm_section_t sec[SEC_COUNT];
    asm_section_id_t cur;
    asm_section_id_t dot_section; /* '.' of the statement being parsed */
    uint32_t dot_offset;
    uint32_t text_base;
    bool text_base_fixed;     /* something was placed in .text: .textbase comes too late */
    uint32_t base[SEC_COUNT]; /* final section addresses (second pass) */
    bool final_layout;

    asm_fixup_t *fixups;
    size_t nfixups, fixups_cap;
    asm_line_entry_t *lines;
    size_t nlines, lines_cap;
    const asm_expr_t *entry;
    asm_loc_t entry_loc;

    asm_bundle_t bundle;
    asm_tok_t *toks;
    size_t ntoks, toks_cap;

    asm_source_t *srcs;
    size_t nsrcs, srcs_cap;
    unsigned include_depth, macro_depth;
    asm_cond_t *conds;
    size_t nconds, conds_cap;
    asm_collect_t collect;
    uint64_t lines_read, max_lines;
    unsigned long macro_counter;
};

#endif
