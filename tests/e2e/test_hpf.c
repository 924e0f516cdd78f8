/*
 * HPF array assignment on the emulated cells (programs/hpf/assign.s, runtime/hpf.s, runtime/deposit.s): every
 * destination element equals its source after every assignment, for the paper's cases and for random shapes
 * and distributions (sizes that do not divide evenly, task sizes that are not squares), in both message
 * formats, cached and uncached; guard words around each destination stay intact; the relation is as few
 * blocks as the layouts allow; exact clocks for a few cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "e2e.h"
#include "hpf.h"
#include "splitmix64.h"

static unsigned ext(const hpf_dim_t *d, unsigned n, unsigned q)
{
    unsigned count = 0;
    for (unsigned g = 0; g < n; g++)
        count += (g / d->k) % d->p == q;
    return count;
}

/* Blocks of the relation, counted element by element: going through each source's part in its memory order,
 * an element to destination rank r starts a block unless it follows the previous element to r on both sides. */
static uint64_t blocks_by_elements(const hpf_case_t *c)
{
    uint64_t blocks = 0;
    for (unsigned s = 0; s < c->task; s++)
        for (unsigned r = 0; r < c->task; r++) {
            long last_s = -2, last_r = -2;
            unsigned s0 = s % c->src[0].p, s1 = s / c->src[0].p, r0 = r % c->dst[0].p, r1 = r / c->dst[0].p;
            unsigned ls0 = ext(&c->src[0], c->n0, s0), ld0 = ext(&c->dst[0], c->n0, r0);
            for (unsigned g1 = 0; g1 < c->n1; g1++) {
                if ((g1 / c->src[1].k) % c->src[1].p != s1 || (g1 / c->dst[1].k) % c->dst[1].p != r1)
                    continue;
                for (unsigned g0 = 0; g0 < c->n0; g0++) {
                    if ((g0 / c->src[0].k) % c->src[0].p != s0 || (g0 / c->dst[0].k) % c->dst[0].p != r0)
                        continue;
                    /* local addresses in elements: l0 + l1 * L0 */
                    long as = (long)((g0 / (c->src[0].p * c->src[0].k)) * c->src[0].k + g0 % c->src[0].k) +
                              (long)((g1 / (c->src[1].p * c->src[1].k)) * c->src[1].k + g1 % c->src[1].k) * ls0;
                    long ar = (long)((g0 / (c->dst[0].p * c->dst[0].k)) * c->dst[0].k + g0 % c->dst[0].k) +
                              (long)((g1 / (c->dst[1].p * c->dst[1].k)) * c->dst[1].k + g1 % c->dst[1].k) * ld0;
                    blocks += !(as == last_s + 1 && ar == last_r + 1);
                    last_s = as;
                    last_r = ar;
                }
            }
        }
    return blocks;
}

static void run_case(const hpf_case_t *c, bool cached, hpf_format_t format, unsigned iterations, unsigned w,
                     unsigned h, hpf_result_t *r)
{
    hpf_options_t o = {cached, format, iterations, true, w, h, NULL};
    char err[4096], text[128];
    hpf_case_text(c, text, sizeof text);
    if (hpf_run(c, &o, r, err, sizeof err) != 0)
        fail_msg("%s %ux%u over %u, %s, %s: %s", text, c->n0, c->n1, c->task, cached ? "cached" : "uncached",
                 format == HPF_FORMAT_PAIRS ? "pairs" : "blocks", err);
    if (r->wrong_on_cells != 0 || r->wrong_on_host != 0)
        fail_msg("%s %ux%u over %u, %s, %s: %llu elements wrong by the cells' check, %llu by the host's", text,
                 c->n0, c->n1, c->task, cached ? "cached" : "uncached", format == HPF_FORMAT_PAIRS ? "pairs" : "blocks",
                 (unsigned long long)r->wrong_on_cells, (unsigned long long)r->wrong_on_host);
    uint64_t elements = (uint64_t)c->n0 * c->n1 * iterations, blocks = blocks_by_elements(c);
    /* exactly the words the format needs: a deposit writes what was sent and nothing else */
    uint64_t words = format == HPF_FORMAT_PAIRS ? 2 * elements : elements + 2 * blocks * iterations;
    if (r->words_sent != words)
        fail_msg("%s %ux%u over %u: %llu words sent, %llu expected", text, c->n0, c->n1, c->task,
                 (unsigned long long)r->words_sent, (unsigned long long)words);
    if (cached && r->blocks_cached != blocks)
        fail_msg("%s %ux%u over %u: %llu blocks cached, %llu expected", text, c->n0, c->n1, c->task,
                 (unsigned long long)r->blocks_cached, (unsigned long long)blocks);
}

static void parse(const char *text, unsigned n0, unsigned n1, unsigned task, hpf_case_t *c)
{
    char err[256];
    if (hpf_parse_case(text, n0, n1, task, c, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
}

/* The paper's three cases and more, small, every combination of cache and format. */
static void test_the_papers_cases_assign_every_element(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "S(:,BLOCK) -> D(:,BLOCK)", "S(BLOCK,:) -> D(:,BLOCK)", "S(:,CYCLIC(5)) -> D(:,CYCLIC(20))",
        "S(CYCLIC,:) -> D(BLOCK,:)", "S(BLOCK,BLOCK) -> D(CYCLIC,CYCLIC)", "S(CYCLIC(3),:) -> D(:,CYCLIC(2))",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hpf_case_t c;
        parse(cases[i], 50, 70, 4, &c);
        for (unsigned mode = 0; mode < 4; mode++) {
            hpf_result_t r;
            run_case(&c, mode & 1, (hpf_format_t)(mode >> 1), 3, 4, 2, &r);
        }
    }
}

/* Random shapes: sizes 1..40 (most not multiples of anything), tasks of 1..8 cells, any of ':', BLOCK, CYCLIC,
 * CYCLIC(k) on either dimension. */
static void test_random_distributions_assign_every_element(void **state)
{
    (void)state;
    uint64_t seed = 0x4850465f72616e64ull;
    for (unsigned trial = 0; trial < 160; trial++) {
        unsigned n0 = 1 + (unsigned)(splitmix64_next(&seed) % 40), n1 = 1 + (unsigned)(splitmix64_next(&seed) % 40);
        unsigned task = 1 + (unsigned)(splitmix64_next(&seed) % 8);
        char text[128], dims[4][24];
        for (unsigned d = 0; d < 4; d++) {
            unsigned kind = (unsigned)(splitmix64_next(&seed) % 4), k = 1 + (unsigned)(splitmix64_next(&seed) % 7);
            if (kind == 3)
                snprintf(dims[d], sizeof dims[d], "CYCLIC(%u)", k);
            else
                snprintf(dims[d], sizeof dims[d], "%s", kind == 0 ? ":" : kind == 1 ? "BLOCK" : "CYCLIC");
        }
        /* ':' on both dimensions needs a task of one cell */
        if (task > 1 && strcmp(dims[0], ":") == 0 && strcmp(dims[1], ":") == 0)
            snprintf(dims[1], sizeof dims[1], "BLOCK");
        if (task > 1 && strcmp(dims[2], ":") == 0 && strcmp(dims[3], ":") == 0)
            snprintf(dims[2], sizeof dims[2], "CYCLIC");
        snprintf(text, sizeof text, "A(%s,%s) -> B(%s,%s)", dims[0], dims[1], dims[2], dims[3]);
        hpf_case_t c;
        parse(text, n0, n1, task, &c);
        unsigned mode = (unsigned)(splitmix64_next(&seed) % 4);
        hpf_result_t r;
        run_case(&c, mode & 1, (hpf_format_t)(mode >> 1), 2, 4, 4, &r);
    }
}

/* A destination's guard words are checked by the host in every run above; here a case where a destination
 * holds nothing at all (more cells than columns) and one where a source sends to itself's twin only. */
static void test_empty_parts_and_one_to_one(void **state)
{
    (void)state;
    hpf_case_t c;
    parse("S(:,BLOCK) -> D(:,CYCLIC)", 9, 3, 8, &c);
    hpf_result_t r;
    run_case(&c, true, HPF_FORMAT_BLOCKS, 2, 4, 4, &r);
    parse("S(:,BLOCK) -> D(:,BLOCK)", 16, 64, 8, &c);
    run_case(&c, false, HPF_FORMAT_BLOCKS, 2, 4, 4, &r);
    assert_int_equal(r.words_sent, 2 * (16 * 64 + 2 * 8));
}

static void test_syntax_errors_name_the_column(void **state)
{
    (void)state;
    hpf_case_t c;
    char err[256];
    assert_int_not_equal(hpf_parse_case("S(:,BLOK) -> D(:,BLOCK)", 8, 8, 2, &c, err, sizeof err), 0);
    assert_non_null(strstr(err, "col 5:"));
    assert_int_not_equal(hpf_parse_case("S(:,CYCLIC(0)) -> D(:,BLOCK)", 8, 8, 2, &c, err, sizeof err), 0);
    assert_non_null(strstr(err, "col 12:"));
    assert_int_not_equal(hpf_parse_case("S(:,BLOCK) D(:,BLOCK)", 8, 8, 2, &c, err, sizeof err), 0);
    assert_non_null(strstr(err, "'->' expected"));
    assert_int_not_equal(hpf_parse_case("S(:,:) -> D(:,BLOCK)", 8, 8, 2, &c, err, sizeof err), 0);
    assert_int_equal(hpf_parse_case("S(:, cyclic( 5 )) = D(BLOCK , BLOCK)", 8, 8, 6, &c, err, sizeof err), 0);
    assert_int_equal(c.src[1].k, 5);
    assert_int_equal(c.dst[0].p, 2);
    assert_int_equal(c.dst[1].p, 3);
    char text[128];
    hpf_case_text(&c, text, sizeof text);
    assert_string_equal(text, "S(:,CYCLIC(5)) -> D(BLOCK,BLOCK)");
}

/* Exact clocks of the paper's three cases at 64 x 64 over two tasks of 4 on 4x2, cached and uncached. */
static void test_clock_goldens(void **state)
{
    (void)state;
    static const char *const cases[][2] = {{"S(:,BLOCK) -> D(:,BLOCK)", "block-block"},
                                           {"S(BLOCK,:) -> D(:,BLOCK)", "rows-columns"},
                                           {"S(:,CYCLIC(5)) -> D(:,CYCLIC(20))", "cyclic5-cyclic20"}};
    for (size_t i = 0; i < 3; i++)
        for (unsigned cached = 0; cached < 2; cached++) {
            hpf_case_t c;
            parse(cases[i][0], 64, 64, 4, &c);
            hpf_result_t r;
            run_case(&c, cached, HPF_FORMAT_BLOCKS, 2, 4, 2, &r);
            char name[96];
            snprintf(name, sizeof name, "programs/hpf/assign.s#%s-%s-64x64", cases[i][1], cached ? "cached" : "uncached");
            e2e_check_golden(name, r.cycles);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_errors_name_the_column),
        cmocka_unit_test(test_the_papers_cases_assign_every_element),
        cmocka_unit_test(test_random_distributions_assign_every_element),
        cmocka_unit_test(test_empty_parts_and_one_to_one),
        cmocka_unit_test(test_clock_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
