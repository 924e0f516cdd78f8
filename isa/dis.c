/* The disassembler. Listings are written so that the assembler reproduces the image exactly; whatever
 * in an image cannot be reproduced (a hand-made layout) is said in a comment. */
#include "dis.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

typedef struct strbuf {
    char *buf;
    size_t cap, len; /* len counts what did not fit too, like snprintf */
} strbuf_t;

static void sb_printf(strbuf_t *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(strbuf_t *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = sb->len < sb->cap ? sb->cap - sb->len : 0;
    int n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb->len += (size_t)n;
}

bool dis_symbol_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 255 || name[0] == '.' ||
        !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_' || name[0] == '$'))
        return false;
    for (size_t i = 1; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '$'))
            return false;
    }
    return isa_reg_parse(name, n) < 0;
}

int dis_float_text(uint32_t bits, char *buf, size_t cap)
{
    float f;
    memcpy(&f, &bits, 4);
    if (isnan(f)) {
        if (bits == 0x7fc00000u || bits == 0xffc00000u)
            return snprintf(buf, cap, "%snan", bits >> 31 ? "-" : "");
        return snprintf(buf, cap, "%%bits(0x%08x)", bits);
    }
    if (isinf(f))
        return snprintf(buf, cap, "%sinf", f < 0 ? "-" : "");
    char tmp[64];
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
        float back = strtof(tmp, NULL);
        uint32_t bb;
        memcpy(&bb, &back, 4);
        if (bb == bits)
            break;
    }
    /* Without a '.' or an exponent the text would read as an integer expression, and -0 as plain 0. */
    if (strpbrk(tmp, ".e") == NULL)
        strcat(tmp, ".0");
    return snprintf(buf, cap, "%s", tmp);
}

/* Whether syms[i] is the first symbol of the image with its name (later ones cannot be defined again). */
static bool first_of_name(const isa_image_t *img, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(img->syms[j].name, img->syms[i].name) == 0)
            return false;
    return true;
}

static const char *target_name(const isa_image_t *img, uint32_t addr)
{
    if (img == NULL)
        return NULL;
    const char *best = NULL;
    for (size_t i = 0; i < img->nsyms; i++) {
        const isa_symbol_t *s = &img->syms[i];
        if (s->kind == ISA_SYM_TEXT && s->value == addr && (best == NULL || strcmp(s->name, best) < 0) &&
            dis_symbol_name_ok(s->name) && first_of_name(img, i))
            best = s->name;
    }
    return best;
}

static void print_value(strbuf_t *sb, uint32_t v)
{
    int32_t s = (int32_t)v;
    if (s >= -65536 && s <= 65535)
        sb_printf(sb, "%d", s);
    else
        sb_printf(sb, "0x%x", v);
}

static void print_target(strbuf_t *sb, const isa_image_t *img, uint32_t addr)
{
    const char *name = target_name(img, addr);
    if (name != NULL)
        sb_printf(sb, "%s", name);
    else
        sb_printf(sb, "0x%x", addr);
}

static void print_mem(strbuf_t *sb, const isa_op_t *op)
{
    char b1[8], b2[8];
    const char *r1 = isa_reg_name(op->rs1, b1);
    if (!op->has_ext) {
        if (op->rs2 == ISA_REG_ZERO)
            sb_printf(sb, "[%s]", r1);
        else
            sb_printf(sb, "[%s + %s]", r1, isa_reg_name(op->rs2, b2));
        return;
    }
    if (op->rs1 == ISA_REG_ZERO) {
        sb_printf(sb, "[");
        print_value(sb, op->ext);
        sb_printf(sb, "]");
        return;
    }
    int32_t s = (int32_t)op->ext;
    if (s < 0 && s >= -65536)
        sb_printf(sb, "[%s - %d]", r1, -s);
    else {
        sb_printf(sb, "[%s + ", r1);
        print_value(sb, op->ext);
        sb_printf(sb, "]");
    }
}

static bool op_text(strbuf_t *sb, const isa_op_t *op, const isa_image_t *img)
{
    const isa_op_info_t *info = isa_op_info(op->opcode);
    if (info == NULL)
        return false;
    char b0[8], b1[8], b2[8], fl[32];
    const char *rd = isa_reg_name(op->rd, b0), *rs1 = isa_reg_name(op->rs1, b1), *rs2 = isa_reg_name(op->rs2, b2);
    sb_printf(sb, "%s", info->mnemonic);
    switch (info->format) {
    case ISA_FMT_NONE: break;
    case ISA_FMT_RRX:
        sb_printf(sb, " %s, %s, ", rd, rs1);
        if (!op->has_ext) {
            sb_printf(sb, "%s", rs2);
        } else if (info->flags & ISA_F_FLOAT_IMM) {
            dis_float_text(op->ext, fl, sizeof fl);
            sb_printf(sb, "%s", fl);
        } else {
            print_value(sb, op->ext);
        }
        break;
    case ISA_FMT_RR: sb_printf(sb, " %s, %s", rd, rs1); break;
    case ISA_FMT_LD:
    case ISA_FMT_ST:
        sb_printf(sb, " %s, ", rd);
        print_mem(sb, op);
        break;
    case ISA_FMT_BR:
        sb_printf(sb, " %s, %s, ", rs1, rs2);
        print_target(sb, img, op->ext);
        break;
    case ISA_FMT_LOOP:
        sb_printf(sb, " %s, ", rd);
        print_target(sb, img, op->ext);
        break;
    case ISA_FMT_J:
        sb_printf(sb, " ");
        print_target(sb, img, op->ext);
        break;
    case ISA_FMT_JR: sb_printf(sb, " %s", rs1); break;
    case ISA_FMT_TRAP:
        sb_printf(sb, " ");
        print_value(sb, op->ext);
        break;
    default: return false;
    }
    return true;
}

int dis_bundle_text(const isa_bundle_t *b, const isa_image_t *img, char *buf, size_t cap)
{
    strbuf_t sb = {buf, cap, 0};
    if (cap > 0)
        buf[0] = '\0';
    if (b->count == 0 || b->count > ISA_BUNDLE_MAX_OPS)
        return -1;
    if (b->count > 1)
        sb_printf(&sb, "{ ");
    for (unsigned i = 0; i < b->count; i++) {
        if (i > 0)
            sb_printf(&sb, " ; ");
        if (!op_text(&sb, &b->ops[i], img))
            return -1;
    }
    if (b->count > 1)
        sb_printf(&sb, " }");
    return (int)sb.len;
}
