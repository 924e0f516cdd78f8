/* The symbol table: labels, .equ/.set constants and the names they are referred to by, including the
 * scoped ".x" labels and the numbered local labels 1: / 1b / 1f. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "fnv.h"

static uint32_t hash_name(const char *s, size_t n)
{
    return fnv1a32(FNV32_OFFSET, s, n);
}

asm_sym_t *asm_sym_lookup(asm_t *as, const char *name, size_t len)
{
    if (as->syms.nbuckets == 0)
        return NULL;
    uint32_t h = hash_name(name, len);
    for (asm_sym_t *s = as->syms.buckets[h & (as->syms.nbuckets - 1)]; s != NULL; s = s->next)
        if (s->hash == h && strlen(s->name) == len && memcmp(s->name, name, len) == 0)
            return s;
    return NULL;
}

static void rehash(asm_t *as)
{
    asm_symtab_t *t = &as->syms;
    size_t nb = t->nbuckets ? t->nbuckets * 2 : 256;
    asm_sym_t **b = asm_alloc(as, nb * sizeof *b);
    for (size_t i = 0; i < t->n; i++) {
        asm_sym_t *s = t->all[i];
        s->next = b[s->hash & (nb - 1)];
        b[s->hash & (nb - 1)] = s;
    }
    t->buckets = b;
    t->nbuckets = nb;
}

asm_sym_t *asm_sym_get(asm_t *as, const char *name, size_t len)
{
    asm_sym_t *s = asm_sym_lookup(as, name, len);
    if (s != NULL)
        return s;
    asm_symtab_t *t = &as->syms;
    if (t->n >= t->nbuckets)
        rehash(as);
    s = asm_alloc(as, sizeof *s);
    s->name = asm_strndup(as, name, len);
    s->hash = hash_name(name, len);
    s->exported = true;
    s->next = t->buckets[s->hash & (t->nbuckets - 1)];
    t->buckets[s->hash & (t->nbuckets - 1)] = s;
    *ASM_PUSH(as, t->all, t->n, t->cap) = s;
    return s;
}

char *asm_sym_scoped_name(asm_t *as, const char *name, size_t len)
{
    if (len > 1 && name[0] == '.' && as->scope != NULL)
        return asm_printf(as, "%s%.*s", as->scope, (int)len, name);
    return asm_strndup(as, name, len);
}

/* Numbered labels get internal names "<n>\x02<k>" for their k-th definition, which no identifier can spell. */
asm_sym_t *asm_local_label(asm_t *as, uint64_t num, char dir, bool def, asm_loc_t loc)
{
    asm_numlabel_t *nl = NULL;
    for (size_t i = 0; i < as->nnumlabels; i++)
        if (as->numlabels[i].num == num)
            nl = &as->numlabels[i];
    if (nl == NULL) {
        nl = ASM_PUSH(as, as->numlabels, as->nnumlabels, as->numlabels_cap);
        *nl = (asm_numlabel_t){num, 0};
    }
    uint32_t k = nl->count;
    if (def)
        k = ++nl->count;
    else if (dir == 'f')
        k++;
    if (k == 0) {
        asm_error(as, loc, "local label %llub is not defined before this point", (unsigned long long)num);
        return NULL;
    }
    char *name = asm_printf(as, "%llu\x02%u", (unsigned long long)num, k);
    asm_sym_t *s = asm_sym_get(as, name, strlen(name));
    s->exported = false;
    return s;
}

bool asm_sym_name_ok(asm_t *as, const char *name, size_t len, asm_loc_t loc)
{
    if (isa_reg_parse(name, len) >= 0) {
        asm_error(as, loc, "'%.*s' is a register name and cannot be a symbol", (int)len, name);
        return false;
    }
    if (len == 1 && name[0] == '.') {
        asm_error(as, loc, "'.' is the current address and cannot be defined");
        return false;
    }
    return true;
}

static bool check_redefinition(asm_t *as, asm_sym_t *s, bool redefinable, asm_loc_t loc)
{
    if (s->kind == SYM_UNDEF || (redefinable && s->kind == SYM_SET))
        return true;
    const char *what = s->kind == SYM_SET ? " with .set" : "";
    asm_error(as, loc, "symbol '%s' is already defined%s (at %s:%u:%u)", s->name, what, asm_file_name(as, s->def.file),
              s->def.line, s->def.col);
    return false;
}

void asm_define_label(asm_t *as, const char *name, size_t len, asm_loc_t loc)
{
    if (!asm_sym_name_ok(as, name, len, loc))
        return;
    char *full = asm_sym_scoped_name(as, name, len);
    asm_sym_t *s = asm_sym_get(as, full, strlen(full));
    if (!check_redefinition(as, s, false, loc))
        return;
    s->kind = SYM_LABEL;
    s->section = as->cur;
    s->value = asm_section_size(as, as->cur);
    s->def = loc;
    if (name[0] != '.')
        as->scope = s->name;
}

void asm_define_equ(asm_t *as, const char *name, size_t len, const asm_expr_t *e, bool redefinable, asm_loc_t loc)
{
    if (!asm_sym_name_ok(as, name, len, loc))
        return;
    char *full = asm_sym_scoped_name(as, name, len);
    asm_sym_t *s = asm_sym_get(as, full, strlen(full));
    if (!check_redefinition(as, s, redefinable, loc))
        return;
    if (redefinable) {
        /* .set takes its value now, so code between two .set lines sees the first value. */
        asm_value_t v;
        if (!asm_eval(as, e, as->final_layout, &v))
            return;
        s->kind = SYM_SET;
        s->value = v.v;
        s->section = v.section;
    } else {
        s->kind = SYM_EQU;
        s->expr = e;
        s->eval_state = 0;
    }
    s->def = loc;
}
