#include "net_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "iwarp_config.h"

void net_init(net_t *n, unsigned width, unsigned height)
{
    memset(n, 0, sizeof *n);
    emu_machine_defaults(&n->machine);
    n->machine.width = width;
    n->machine.height = height;
}

void net_set(net_t *n, const char *key, const char *fmt, ...)
{
    char value[64], err[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    if (emu_machine_set(&n->machine, key, value, err, sizeof err) != 0)
        fail_msg("machine key %s = %s refused: %s", key, value, err);
}

void net_create(net_t *n)
{
    char err[256];
    assert_null(n->array);
    if (emu_array_create(&n->array, &n->machine, err, sizeof err) != 0)
        fail_msg("emu_array_create: %s", err);
}

void net_free(net_t *n)
{
    emu_array_free(n->array);
    n->array = NULL;
}

const emu_program_t *net_asm(net_t *n, const char *src)
{
    static const char *const dirs[] = {IWARP_SOURCE_ROOT "/runtime", IWARP_SOURCE_ROOT "/tests/net"};
    asm_options_t o;
    asm_options_init(&o);
    o.include_dirs = dirs;
    o.ninclude_dirs = sizeof dirs / sizeof dirs[0];
    asm_result_t r;
    if (asm_assemble_string("net_test.s", src, strlen(src), &o, &r) != 0) {
        asm_print_diags(&r, stderr);
        fprintf(stderr, "--- source ---\n%s--- end ---\n", src);
        asm_result_free(&r);
        fail_msg("the test program did not assemble");
    }
    char err[256];
    const emu_program_t *p = emu_array_add_program(n->array, &r.image, err, sizeof err);
    asm_result_free(&r);
    if (p == NULL)
        fail_msg("emu_array_add_program: %s", err);
    return p;
}

const emu_program_t *net_asmf(net_t *n, const char *fmt, ...)
{
    net_text_t t;
    net_text_init(&t);
    va_list ap;
    va_start(ap, fmt);
    net_vtextf(&t, fmt, ap);
    va_end(ap);
    const emu_program_t *p = net_asm(n, t.buf);
    net_text_free(&t);
    return p;
}

uint32_t net_symbol(const emu_program_t *p, const char *name)
{
    const isa_symbol_t *s = isa_image_symbol(&p->image, name);
    if (s == NULL)
        fail_msg("the program has no symbol '%s'", name);
    return s->value;
}

void net_load(net_t *n, unsigned x, unsigned y, const emu_program_t *p, const uint32_t *args, unsigned nargs)
{
    char err[256];
    if (emu_array_load(n->array, x, y, p, args, nargs, err, sizeof err) != 0)
        fail_msg("emu_array_load: %s", err);
}

void net_load_all(net_t *n, const emu_program_t *p, const uint32_t *args, unsigned nargs)
{
    for (unsigned y = 0; y < n->machine.height; y++)
        for (unsigned x = 0; x < n->machine.width; x++)
            net_load(n, x, y, p, args, nargs);
}

emu_run_status_t net_run(net_t *n, uint64_t limit)
{
    n->status = emu_array_run(n->array, limit);
    return n->status;
}

bool net_run_until(net_t *n, uint64_t limit, bool (*pred)(const net_t *n, void *user), void *user)
{
    while (!pred(n, user)) {
        uint64_t now = emu_array_clock(n->array);
        if (now >= limit)
            return false;
        if (net_run(n, now + 1) != EMU_RUN_LIMIT)
            return pred(n, user);
    }
    return true;
}

uint64_t net_clock(const net_t *n)
{
    return emu_array_clock(n->array);
}

void net_print_state(const net_t *n)
{
    fprintf(stderr, "run status: %s at clock %" PRIu64 "\n", emu_run_status_name(n->status), net_clock(n));
    for (unsigned y = 0; y < n->machine.height; y++)
        for (unsigned x = 0; x < n->machine.width; x++) {
            const ca_t *ca = net_ca(n, x, y);
            if (ca->s.state == CA_FAULTED) {
                char line[512];
                emu_format_fault(n->array, x, y, line, sizeof line);
                fprintf(stderr, "  %s (a0=0x%x a1=0x%x)\n", line, ca_reg(ca, 3), ca_reg(ca, 4));
            } else if (ca->s.state == CA_WAITING || ca->s.state == CA_RUNNING) {
                fprintf(stderr, "  cell (%u,%u) %s at pc 0x%x\n", x, y, ca_state_name(ca->s.state), ca->s.pc);
            }
        }
    if (n->status == EMU_RUN_DEADLOCK)
        fprintf(stderr, "%s", emu_array_deadlock(n->array));
}

void net_expect_done(const net_t *n)
{
    bool ok = n->status == EMU_RUN_DONE;
    for (unsigned y = 0; ok && y < n->machine.height; y++)
        for (unsigned x = 0; x < n->machine.width; x++) {
            ca_state_t st = net_ca(n, x, y)->s.state;
            ok = ok && (st == CA_HALTED || st == CA_IDLE);
        }
    if (!ok) {
        net_print_state(n);
        fail_msg("the run did not end with every cell halted");
    }
}

void net_expect_fault(const net_t *n, emu_fault_kind_t kind, unsigned *x, unsigned *y, char *text, size_t cap)
{
    if (n->status != EMU_RUN_FAULT || !emu_array_first_fault(n->array, x, y)) {
        net_print_state(n);
        fail_msg("expected a %s, the run ended %s", emu_fault_kind_name(kind), emu_run_status_name(n->status));
    }
    emu_format_fault(n->array, *x, *y, text, cap);
    if (net_ca(n, *x, *y)->s.fault.kind != kind) {
        net_print_state(n);
        fail_msg("expected a %s, got: %s", emu_fault_kind_name(kind), text);
    }
}

const ca_t *net_ca(const net_t *n, unsigned x, unsigned y)
{
    return emu_array_ca(n->array, x, y);
}
const coa_t *net_coa(const net_t *n, unsigned x, unsigned y)
{
    return emu_array_coa(n->array, x, y);
}
uint32_t net_reg(const net_t *n, unsigned x, unsigned y, unsigned r)
{
    return ca_reg(net_ca(n, x, y), r);
}

uint32_t net_mem32(const net_t *n, unsigned x, unsigned y, uint32_t addr)
{
    uint8_t b[4];
    if (ca_mem_read(net_ca(n, x, y), addr, b, 4) != 0)
        fail_msg("cell (%u,%u): address 0x%x is outside memory", x, y, addr);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void net_expect_contains(const char *text, const char *needle)
{
    if (text == NULL || strstr(text, needle) == NULL)
        fail_msg("expected \"%s\" in:\n%s", needle, text ? text : "(null)");
}

/* --- pathways --- */

void net_step(unsigned w, unsigned h, unsigned *x, unsigned *y, coa_dir_t dir)
{
    coa_dir_step(dir, w, h, x, y);
}

/* Whether the link from (x, y) in dir crosses the dateline of its ring. */
static bool crosses_dateline(unsigned w, unsigned h, unsigned x, unsigned y, coa_dir_t dir)
{
    switch (dir) {
    case COA_DIR_PX: return x == w - 1;
    case COA_DIR_MX: return x == 0;
    case COA_DIR_PY: return y == h - 1;
    default: return y == 0;
    }
}

static void add_sign(net_route_t *r, unsigned x, unsigned y, coa_sign_action_t action, unsigned sink, bool set_pool,
                     unsigned pool)
{
    assert_true(r->nsigns < NET_MAX_SIGNS);
    coa_sign_t s = {.x = x, .y = y, .action = action, .sink = sink, .set_pool = set_pool, .pool = pool};
    r->signs[r->nsigns++] = coa_sign_encode(&s);
}

void net_route_walk(net_route_t *r, unsigned w, unsigned h, unsigned sx, unsigned sy, const net_leg_t *legs,
                    unsigned nlegs, coa_sign_action_t action, unsigned sink, bool dateline)
{
    memset(r, 0, sizeof *r);
    r->sx = sx;
    r->sy = sy;
    unsigned x = sx, y = sy;
    for (unsigned l = 0; l < nlegs; l++) {
        coa_dir_t d = legs[l].dir;
        if (legs[l].hops == 0)
            continue;
        if (r->nsigns > 0)
            r->turns++;
        add_sign(r, x, y, (coa_sign_action_t)d, 0, dateline, dateline && crosses_dateline(w, h, x, y, d) ? 1 : 0);
        for (unsigned i = 0; i < legs[l].hops; i++) {
            if (i > 0 && dateline && crosses_dateline(w, h, x, y, d)) {
                add_sign(r, x, y, (coa_sign_action_t)d, 0, true, 1);
                r->turns++; /* a sign consumed on the way costs what a turn costs */
            }
            assert_true(r->hops < NET_MAX_HOPS);
            r->hx[r->hops] = x;
            r->hy[r->hops] = y;
            r->hdir[r->hops] = d;
            r->hops++;
            net_step(w, h, &x, &y, d);
        }
    }
    add_sign(r, x, y, action, sink, false, 0);
    r->dx = x;
    r->dy = y;
}

void net_route_xy(net_route_t *r, unsigned w, unsigned h, unsigned sx, unsigned sy, unsigned dx, unsigned dy,
                  coa_dir_t xdir, coa_dir_t ydir, coa_sign_action_t action, unsigned sink)
{
    net_leg_t legs[2] = {
        {xdir, xdir == COA_DIR_PX ? (dx + w - sx) % w : (sx + w - dx) % w},
        {ydir, ydir == COA_DIR_PY ? (dy + h - sy) % h : (sy + h - dy) % h},
    };
    net_route_walk(r, w, h, sx, sy, legs, 2, action, sink, true);
    assert_int_equal(r->dx, dx);
    assert_int_equal(r->dy, dy);
}

void net_emit_open(net_text_t *t, const net_route_t *r, unsigned gate)
{
    net_textf(t, "        open %u\n", gate);
    net_emit_signs(t, r, gate);
}

const emu_program_t *net_route_sender(net_t *n, const net_route_t *r, unsigned nwords, const char *tail)
{
    net_text_t t;
    net_text_init(&t);
    net_textf(&t, "        .include \"net.inc\"\n"
                  "_start:\n");
    net_emit_open(&t, r, 0);
    net_textf(&t, "        li   r4, 1\n");
    if (nwords > 0)
        net_textf(&t,
                  "        li   r3, %u\n"
                  "1:      { mov go0, r4 ; add r4, r4, 1 ; loop r3, 1b }\n",
                  nwords);
    net_textf(&t, "%s", tail);
    const emu_program_t *p = net_asm(n, t.buf);
    net_text_free(&t);
    return p;
}

void net_emit_signs(net_text_t *t, const net_route_t *r, unsigned gate)
{
    /* Two bundles a sign; r23 gets the clock at which the first sign enters the channel. */
    net_textf(t, "        li   r21, %u\n", 1u << gate);
    for (unsigned i = 0; i < r->nsigns; i++) {
        net_textf(t, "        { wrcr r21, [COA_TAG_NEXT] ; li r22, 0x%08x }\n", r->signs[i]);
        if (i == 0)
            net_textf(t, "        { mov go%u, r22 ; rdcr r23, [CR_CLOCK_LO] }\n", gate);
        else
            net_textf(t, "        mov  go%u, r22\n", gate);
    }
}

/* --- generated program text --- */

void net_text_init(net_text_t *t)
{
    memset(t, 0, sizeof *t);
}

void net_text_free(net_text_t *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

void net_vtextf(net_text_t *t, const char *fmt, va_list ap)
{
    char probe[1];
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(probe, sizeof probe, fmt, ap);
    assert_true(len >= 0);
    if (t->len + (size_t)len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (t->len + (size_t)len + 1 > cap)
            cap *= 2;
        char *grown = realloc(t->buf, cap);
        assert_non_null(grown);
        t->buf = grown;
        t->cap = cap;
    }
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, again);
    va_end(again);
    t->len += (size_t)len;
}

void net_textf(net_text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    net_vtextf(t, fmt, ap);
    va_end(ap);
}

bool net_quick(void)
{
    const char *v = getenv("IWARP_NET_QUICK");
    return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}
