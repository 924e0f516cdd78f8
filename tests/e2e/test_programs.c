/* The programs shipped in programs/ run to the end on their arrays, check their own results (they trap on a
 * wrong word), and take the cycles recorded in tests/golden/cycles.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "iwarp_config.h"

static void test_pathway_with_two_turns_streams_a_word_every_two_clocks(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_file(&r, "programs/net/pathway.run");
    e2e_assert_done(&r);
    uint32_t n = r.desc.rules[0].args[0].value;
    const emu_machine_t *m = emu_array_machine(r.array);
    /* (5,3) reports the clocks between its first and last read: one link word each link_clocks. */
    assert_int_equal(e2e_a0(&r, 5, 3), m->agent.link_clocks * (n - 1));
    e2e_check_golden("programs/net/pathway.run", emu_array_cycles(r.array));
    e2e_free(&r);
}

static void test_every_cell_exchanges_with_its_four_neighbours(void **state)
{
    (void)state;
    e2e_run_t r;
    e2e_run_file(&r, "programs/net/neighbours.run");
    e2e_assert_done(&r);
    uint32_t k = r.desc.rules[0].args[0].value;
    for (unsigned y = 0; y < emu_array_height(r.array); y++)
        for (unsigned x = 0; x < emu_array_width(r.array); x++)
            assert_int_equal(e2e_a0(&r, x, y), 4 * k);
    e2e_check_golden("programs/net/neighbours.run", emu_array_cycles(r.array));
    e2e_free(&r);
}

static void test_neighbour_exchange_works_on_small_and_odd_tori(void **state)
{
    (void)state;
    /* 1-wide and 2-wide tori make a cell its own neighbour, or both neighbours the same cell. */
    static const unsigned sizes[][2] = {{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 5}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        e2e_run_t r;
        uint32_t k = 17;
        e2e_run_program(&r, "programs/net/neighbours.s", sizes[i][0], sizes[i][1], &k, 1);
        e2e_assert_done(&r);
        for (unsigned y = 0; y < sizes[i][1]; y++)
            for (unsigned x = 0; x < sizes[i][0]; x++)
                assert_int_equal(e2e_a0(&r, x, y), 4 * k);
        e2e_free(&r);
    }
}

static void test_streaming_on_every_link_runs_to_the_end(void **state)
{
    (void)state;
    uint32_t n = 500;
    e2e_run_t one, two;
    e2e_run_program(&one, "programs/bench/stream.s", 8, 8, &n, 1);
    e2e_assert_done(&one);
    two = (e2e_run_t){0};
    e2e_run_program(&two, "programs/bench/stream.s", 4, 4, &n, 1);
    e2e_assert_done(&two);
    e2e_free(&two);
    e2e_check_golden("programs/bench/stream.s@8x8,a0=500", emu_array_cycles(one.array));
    e2e_free(&one);
}

/* The .s files of tests/programs check themselves (a trap names the failed check) and halt when all pass. A line
 * "# array: WxH" picks the array (1x1 otherwise). */
static void test_self_checking_test_programs_halt(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/programs", IWARP_SOURCE_ROOT);
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned ran = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".s") != 0)
            continue;
        char rel[512], path[2048], line[256];
        snprintf(rel, sizeof rel, "tests/programs/%s", e->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unsigned w = 1, h = 1;
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        while (fgets(line, sizeof line, f) != NULL)
            if (sscanf(line, "# array: %ux%u", &w, &h) == 2)
                break;
        fclose(f);
        e2e_run_t r;
        e2e_run_program(&r, rel, w, h, NULL, 0);
        if (r.status != EMU_RUN_DONE)
            print_error("%s:\n", rel);
        e2e_assert_done(&r);
        e2e_free(&r);
        ran++;
    }
    closedir(d);
    assert_true(ran >= 1);
}

/* The deposit engine of programs/caching/caching.s writes exactly the words sent, where their addresses say,
 * uncached and cached, for message lengths that are and are not powers of two; clocks pinned for two runs. */
static void test_deposit_messages_write_exactly_the_words_sent(void **state)
{
    (void)state;
    static const uint32_t lengths[] = {1, 7, 64, 255};
    for (unsigned mode = 0; mode < 2; mode++)
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
            uint32_t n = lengths[k], args[3] = {mode, n, 4};
            e2e_run_t r;
            e2e_run_program(&r, "programs/caching/caching.s", 2, 1, args, 3);
            e2e_assert_done(&r);
            const isa_image_t *img = &emu_array_ca(r.array, 1, 0)->prog->image;
            const isa_symbol_t *dst = isa_image_symbol(img, "DST"), *guard = isa_image_symbol(img, "GUARD");
            assert_non_null(dst);
            assert_non_null(guard);
            for (uint32_t w = 0; w < n + 8; w++) {
                /* cell 0 sends word j as 3 j + 1; cell 1 fills four words on either side with the guard */
                uint32_t addr = dst->value - 16 + 4 * w, got = 0;
                uint32_t want = w < 4 || w >= n + 4 ? guard->value : 3 * (w - 4) + 1;
                assert_int_equal(ca_mem_read(emu_array_ca(r.array, 1, 0), addr, &got, 4), 0);
                if (got != want)
                    fail_msg("mode %u, %u words: 0x%x at 0x%x, not 0x%x", mode, n, got, addr, want);
            }
            if (n == 64)
                e2e_check_golden(mode ? "programs/caching/caching.s#cached-64x4"
                                      : "programs/caching/caching.s#uncached-64x4",
                                 emu_array_cycles(r.array));
            e2e_free(&r);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pathway_with_two_turns_streams_a_word_every_two_clocks),
        cmocka_unit_test(test_every_cell_exchanges_with_its_four_neighbours),
        cmocka_unit_test(test_neighbour_exchange_works_on_small_and_odd_tori),
        cmocka_unit_test(test_streaming_on_every_link_runs_to_the_end),
        cmocka_unit_test(test_self_checking_test_programs_halt),
        cmocka_unit_test(test_deposit_messages_write_exactly_the_words_sent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
