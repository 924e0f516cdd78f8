/* The generators' routes are the message passing runtime's: runtime/msg.s's msg_init runs on every cell of
 * emulated arrays and the street signs it stores for each destination must be traffic_route's, sign for sign. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "asm.h"
#include "emu.h"
#include "iwarp_config.h"
#include "traffic.h"

static const char program[] = "        .include \"msg.s\"\n"
                              "_start: call msg_init\n"
                              "        halt\n";

static uint32_t word_at(const emu_array_t *a, unsigned x, unsigned y, uint32_t addr)
{
    uint8_t b[4];
    assert_int_equal(ca_mem_read(emu_array_ca(a, x, y), addr, b, 4), 0);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void compare(unsigned w, unsigned h)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = w;
    m.height = h;
    char err[256];
    emu_array_t *a;
    assert_int_equal(emu_array_create(&a, &m, err, sizeof err), 0);
    static const char *const dirs[] = {IWARP_SOURCE_ROOT "/runtime"};
    asm_options_t o;
    asm_options_init(&o);
    o.include_dirs = dirs;
    o.ninclude_dirs = 1;
    asm_result_t r;
    assert_int_equal(asm_assemble_string("routes.s", program, strlen(program), &o, &r), 0);
    const isa_symbol_t *routes = isa_image_symbol(&r.image, "msg_routes");
    assert_non_null(routes);
    uint32_t base = routes->value;
    const emu_program_t *p = emu_array_add_program(a, &r.image, err, sizeof err);
    asm_result_free(&r);
    assert_non_null(p);
    for (unsigned i = 0; i < w * h; i++)
        assert_int_equal(emu_array_load(a, i % w, i / w, p, NULL, 0, err, sizeof err), 0);
    assert_int_equal(emu_array_run(a, 50000000), EMU_RUN_DONE);
    for (unsigned src = 0; src < w * h; src++)
        for (unsigned dst = 0; dst < w * h; dst++) {
            if (dst == src)
                continue;
            traffic_route_t t;
            traffic_route(w, h, src, dst, &t);
            uint32_t entry = base + 32 * dst;
            uint32_t n = word_at(a, src % w, src / w, entry);
            if (n != t.nsigns)
                fail_msg("%ux%u %u -> %u: msg.s has %u signs, traffic_route %u", w, h, src, dst, n, t.nsigns);
            for (unsigned k = 0; k < n; k++) {
                uint32_t s = word_at(a, src % w, src / w, entry + 4 + 4 * k);
                if (s != t.signs[k])
                    fail_msg("%ux%u %u -> %u sign %u: msg.s 0x%08x, traffic_route 0x%08x", w, h, src, dst, k, s,
                             t.signs[k]);
            }
        }
    emu_array_free(a);
}

static void test_routes_are_msg_s_routes_on_8x8(void **state)
{
    (void)state;
    compare(8, 8);
}

static void test_routes_are_msg_s_routes_on_odd_and_thin_arrays(void **state)
{
    (void)state;
    compare(5, 3);
    compare(2, 7);
    compare(6, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_are_msg_s_routes_on_8x8),
        cmocka_unit_test(test_routes_are_msg_s_routes_on_odd_and_thin_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
