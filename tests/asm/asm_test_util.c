#include "asm_test_util.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

int t_assemble(const char *src, const asm_options_t *opt, asm_result_t *r)
{
    return asm_assemble_string("t.s", src, strlen(src), opt, r);
}

static void print_diags(const asm_result_t *r, const char *src)
{
    fprintf(stderr, "---- source ----\n%s\n---- diagnostics ----\n", src);
    asm_print_diags(r, stderr);
}

void t_assemble_ok(const char *src, asm_result_t *r)
{
    if (t_assemble(src, NULL, r) != 0) {
        print_diags(r, src);
        fail_msg("unexpected assembly errors");
    }
}

void t_expect_diag(const asm_result_t *r, const char *prefix, const char *src)
{
    for (size_t i = 0; i < r->ndiags; i++) {
        char buf[2048];
        asm_format_diag(&r->diags[i], buf, sizeof buf);
        if (strncmp(buf, prefix, strlen(prefix)) == 0)
            return;
    }
    print_diags(r, src);
    fail_msg("no diagnostic starting with: %s", prefix);
}

size_t t_words(const char *src, uint32_t *out, size_t cap)
{
    asm_result_t r;
    t_assemble_ok(src, &r);
    size_t n = r.image.text_words < cap ? r.image.text_words : cap;
    memcpy(out, r.image.text, n * sizeof *out);
    asm_result_free(&r);
    return n;
}

char *t_disassemble(const isa_image_t *img, unsigned flags)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(dis_image(img, f, flags), 0);
    fclose(f);
    return text;
}

bool t_same_image(const isa_image_t *a, const isa_image_t *b)
{
    return a->entry == b->entry && a->text_base == b->text_base && a->text_words == b->text_words &&
           a->data_base == b->data_base && a->data_bytes == b->data_bytes && a->bss_bytes == b->bss_bytes &&
           memcmp(a->text, b->text, 4 * (size_t)a->text_words) == 0 && memcmp(a->data, b->data, a->data_bytes) == 0;
}

void t_roundtrip(const char *src)
{
    static const unsigned flag_sets[] = {0, DIS_NO_SYMBOLS, DIS_RAW | DIS_LINES};
    asm_result_t a;
    t_assemble_ok(src, &a);
    for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
        char *listing = t_disassemble(&a.image, flag_sets[k]);
        asm_result_t b;
        if (t_assemble(listing, NULL, &b) != 0 || !t_same_image(&a.image, &b.image)) {
            print_diags(&b, listing);
            fprintf(stderr, "---- original ----\n%s\n", src);
            free(listing);
            asm_result_free(&b);
            asm_result_free(&a);
            fail_msg("the listing (flags %u) does not reassemble to the same image", flag_sets[k]);
        }
        free(listing);
        asm_result_free(&b);
    }
    asm_result_free(&a);
}

/* Registers that suit every row: even (pairs), not gates, distinct. */
bool t_sample_operands(unsigned opcode, unsigned variant, char *buf, size_t cap)
{
    const isa_op_info_t *info = isa_op_info(opcode);
    if (info == NULL)
        return false;
    bool imm_ok = !(info->flags & ISA_F_NO_IMM);
    const char *imm = info->flags & ISA_F_FLOAT_IMM ? "-1.25" : "-123456";
    static const char *const mem[] = {"[r4]", "[r4 + r6]", "[r4 + 8]", "[r4 - 12]", "[0x2000]"};
    switch (info->format) {
    case ISA_FMT_NONE: return variant == 0 && snprintf(buf, cap, "%s", "") >= 0;
    case ISA_FMT_RRX:
        if (variant == 0)
            return snprintf(buf, cap, "r2, r4, r6") > 0;
        return variant == 1 && imm_ok && snprintf(buf, cap, "r2, r4, %s", imm) > 0;
    case ISA_FMT_RR: return variant == 0 && snprintf(buf, cap, "r2, r4") > 0;
    case ISA_FMT_LD:
    case ISA_FMT_ST: return variant < 5 && snprintf(buf, cap, "r2, %s", mem[variant]) > 0;
    case ISA_FMT_BR: return variant == 0 && snprintf(buf, cap, "r4, r6, 0x1000") > 0;
    case ISA_FMT_LOOP: return variant == 0 && snprintf(buf, cap, "r4, 0x1000") > 0;
    case ISA_FMT_J: return variant == 0 && snprintf(buf, cap, "0x1000") > 0;
    case ISA_FMT_JR: return variant == 0 && snprintf(buf, cap, "r4") > 0;
    case ISA_FMT_TRAP: return variant == 0 && snprintf(buf, cap, "7") > 0;
    default: return false;
    }
}

char *t_make_tmpdir(void)
{
    char tmpl[] = "/tmp/asm_test_XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char *dir = strdup(tmpl);
    assert_non_null(dir);
    return dir;
}

void t_write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

void t_remove_tmpdir(char *dir)
{
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}
