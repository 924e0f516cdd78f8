/* The option parsers of traffic, coll, bench, hpf, fem and sweep called in one process, as their fuzz harnesses
 * call them (fuzz/fuzz_cli_*.c): values land in the options, and a parse never inherits the place an earlier
 * vector's getopt stopped at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "bench_cli.h"
#include "coll_cli.h"
#include "fem_cli.h"
#include "hpf_cli.h"
#include "sweep_cli.h"
#include "traffic_cli.h"

#define ARGC(v) ((int)(sizeof(v) / sizeof(v)[0]) - 1)

/* "-hh" stops getopt inside the cluster (help after the first h). traffic and sweep restarted with optind = 1,
 * which glibc reads as "go on": the next parse took the old vector's second 'h' (memory that may be gone by
 * then) and printed the usage again instead of parsing its own options. The fuzzer found it as a use after
 * free; optind = 0 starts afresh. */
static void test_a_parse_after_help_in_a_cluster_reads_its_own_vector(void **state)
{
    (void)state;
    char *help[] = {"x", "-hh", NULL};
    char *traffic[] = {"traffic", "--rate", "0.5", "--warmup", "1073741824", NULL};
    traffic_cli_t t;
    assert_int_equal(traffic_cli_parse(ARGC(help), help, &t), 1);
    assert_int_equal(traffic_cli_parse(ARGC(traffic), traffic, &t), 0);
    assert_int_equal(t.nrates, 1);
    assert_true(t.rates[0] == 0.5);
    assert_int_equal(t.cfg.warmup, 1u << 30); /* the range said is 0..2^30: its top is taken */

    char *sweep[] = {"sweep", "a.sweep", "--jobs", "3", NULL};
    sweep_cli_t s;
    assert_int_equal(sweep_cli_parse(ARGC(help), help, &s), 1);
    assert_int_equal(sweep_cli_parse(ARGC(sweep), sweep, &s), 0);
    assert_string_equal(s.file, "a.sweep");
    assert_int_equal(s.jobs, 3);

    char *bench[] = {"bench", "--jobs", "2", "speed", NULL};
    bench_cli_t b;
    assert_int_equal(bench_cli_parse(ARGC(help), help, &b), 1);
    assert_int_equal(bench_cli_parse(ARGC(bench), bench, &b), 0);
    assert_int_equal(b.jobs, 2);

    char *coll[] = {"coll", "bcast", "--array", "4x4", NULL};
    coll_cli_t c;
    assert_int_equal(coll_cli_parse(ARGC(help), help, &c), 1);
    assert_int_equal(coll_cli_parse(ARGC(coll), coll, &c), 0);
    assert_int_equal(c.c.width, 4);

    char *fem[] = {"fem", "m11k", "--array", "2x1", NULL};
    fem_cli_t f;
    assert_int_equal(fem_cli_parse(ARGC(help), help, &f), 1);
    assert_int_equal(fem_cli_parse(ARGC(fem), fem, &f), 0);
    assert_string_equal(f.mesh, "m11k");
    assert_int_equal(f.width * f.height, 2);
}

/* Each parser fills its options, and refuses what its command refuses, without running anything. */
static void test_each_parser_fills_its_options(void **state)
{
    (void)state;
    char *hpf[] = {"hpf", "S(:,BLOCK) -> D(:,BLOCK)", "--task", "4", "--array", "4x2", "--only", "cached", NULL};
    hpf_cli_t h;
    assert_int_equal(hpf_cli_parse(ARGC(hpf), hpf, &h), 0);
    assert_int_equal(h.task, 4);
    assert_false(h.run[0]);
    assert_true(h.run[1]);
    char *hpf_big[] = {"hpf", "S(:,BLOCK) -> D(:,BLOCK)", "--task", "5", "--array", "4x2", NULL};
    assert_int_equal(hpf_cli_parse(ARGC(hpf_big), hpf_big, &h), -1); /* two tasks of 5 on 8 cells */

    char *traffic[] = {"traffic", "--pattern", "uniform,,bitrev", NULL};
    traffic_cli_t t;
    assert_int_equal(traffic_cli_parse(ARGC(traffic), traffic, &t), -1);

    char *bench[] = {"bench", "--threads", "+5", NULL}; /* counts take digits only, as everywhere else */
    bench_cli_t b;
    assert_int_equal(bench_cli_parse(ARGC(bench), bench, &b), -1);
    char *bench_all[] = {"bench", "--quick", NULL};
    assert_int_equal(bench_cli_parse(ARGC(bench_all), bench_all, &b), 0);
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_true(b.selected[i]);

    char *coll[] = {"coll", "mreduce-ring", "--block", "2x16", NULL};
    coll_cli_t c;
    assert_int_equal(coll_cli_parse(ARGC(coll), coll, &c), 0);
    assert_int_equal(c.c.lda, 16 * 8); /* the row of the multi pattern: P blocks of n */

    char *fem[] = {"fem", "m11k", "--msgpass", NULL};
    fem_cli_t f;
    assert_int_equal(fem_cli_parse(ARGC(fem), fem, &f), -1);

    char *sweep[] = {"sweep", "a.sweep", "--wait", NULL};
    sweep_cli_t s;
    assert_int_equal(sweep_cli_parse(ARGC(sweep), sweep, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_parse_after_help_in_a_cluster_reads_its_own_vector),
        cmocka_unit_test(test_each_parser_fills_its_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
