/* The assembler's memory: one arena per run plus growable arrays, both released in one place. Running
 * out of memory longjmps back to the entry point, which reports it and frees everything. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

enum { ARENA_BLOCK = 64 * 1024 };

_Noreturn void asm_out_of_memory(asm_t *as)
{
    longjmp(as->oom, 1);
}

void *asm_alloc(asm_t *as, size_t n)
{
    size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    asm_arena_block_t *b = as->arena.head;
    if (b == NULL || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (b == NULL)
            asm_out_of_memory(as);
        b->used = 0;
        b->cap = cap;
        if (cap == n && as->arena.head != NULL) {
            /* A large allocation gets a block of its own behind the current one, which stays in use. */
            b->next = as->arena.head->next;
            as->arena.head->next = b;
        } else {
            b->next = as->arena.head;
            as->arena.head = b;
        }
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *asm_strndup(asm_t *as, const char *s, size_t n)
{
    char *p = asm_alloc(as, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *asm_strdup(asm_t *as, const char *s)
{
    return asm_strndup(as, s, strlen(s));
}

char *asm_malloc_strdup(asm_t *as, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p == NULL)
        asm_out_of_memory(as);
    memcpy(p, s, n);
    return p;
}

char *asm_printf(asm_t *as, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return asm_strdup(as, "");
    if ((size_t)n < sizeof small)
        return asm_strndup(as, small, (size_t)n);
    char *p = asm_alloc(as, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void asm_arena_free(asm_arena_t *a)
{
    while (a->head != NULL) {
        asm_arena_block_t *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

void asm_reserve(asm_t *as, void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*ptr, ncap * elem);
    if (p == NULL)
        asm_out_of_memory(as);
    *ptr = p;
    *cap = ncap;
}
