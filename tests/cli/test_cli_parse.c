/* The option parsers of the commands (traffic, coll, bench, hpf, fem, sweep, run, debug, route, model, soak, asm
 * and dis, all getopt_long through common/cli_opts.h) called in one process, as their fuzz harnesses call them
 * (fuzz/fuzz_cli_*.c): values land in the options, and a parse never inherits the place an earlier vector's
 * getopt stopped at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "asm_cli.h"
#include "bench_cli.h"
#include "coll_cli.h"
#include "dis.h"
#include "dis_cli.h"
#include "fem_cli.h"
#include "hpf_cli.h"
#include "model_cli.h"
#include "route_cli.h"
#include "run_cli.h"
#include "soak_cli.h"
#include "sweep_cli.h"
#include "traffic_cli.h"
#ifdef IWARP_TEST_DEBUG_CLI
#include "debug_cli.h"
#endif

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

    char *run[] = {"run", "--array", "3x2", "-DN=4", "p.s", NULL};
    run_cli_t r;
    assert_int_equal(run_cli_parse(ARGC(help), help, &r), 1);
    assert_int_equal(run_cli_parse(ARGC(run), run, &r), 0);
    assert_string_equal(r.p.file, "p.s");
    assert_int_equal(r.p.width * r.p.height, 6);
    assert_int_equal(r.p.ndefines, 1);

    char *route[] = {"route", "--pattern", "torus", "--words", "8", NULL};
    route_cli_t ro;
    assert_int_equal(route_cli_parse(ARGC(help), help, &ro), 1);
    assert_int_equal(route_cli_parse(ARGC(route), route, &ro), 0);
    assert_int_equal(ro.words, 8);

    char *model[] = {"model", "--json", "caching", NULL};
    model_cli_t m;
    assert_int_equal(model_cli_parse(ARGC(help), help, &m), 1);
    assert_int_equal(model_cli_parse(ARGC(model), model, &m), 0);
    assert_int_equal(m.model, MODEL_CLI_CACHING);
    assert_true(m.json);

    char *soak[] = {"soak", "--runs", "3", NULL};
    soak_cli_t so;
    assert_int_equal(soak_cli_parse(ARGC(help), help, &so), 1);
    assert_int_equal(soak_cli_parse(ARGC(soak), soak, &so), 0);
    assert_int_equal(so.runs, 3);

    char *as[] = {"asm", "-oa.img", "a.s", NULL};
    asm_cli_t a;
    assert_int_equal(asm_cli_parse(ARGC(help), help, &a), 1);
    assert_int_equal(asm_cli_parse(ARGC(as), as, &a), 0);
    assert_string_equal(a.output, "a.img");
    assert_int_equal(a.nfiles, 1);
    asm_cli_free(&a);

    char *dis[] = {"dis", "--lines", "a.img", NULL};
    dis_cli_t di;
    assert_int_equal(dis_cli_parse(ARGC(help), help, &di), 1);
    assert_int_equal(dis_cli_parse(ARGC(dis), dis, &di), 0);
    assert_int_equal(di.flags, DIS_LINES);

#ifdef IWARP_TEST_DEBUG_CLI
    char *debug[] = {"debug", "-eprint pc", "--batch", "p.s", NULL};
    debug_cli_t d;
    assert_int_equal(debug_cli_parse(ARGC(help), help, &d), 1);
    assert_int_equal(debug_cli_parse(ARGC(debug), debug, &d), 0);
    assert_int_equal(d.ncmds, 1);
    assert_string_equal(d.cmds[0], "print pc");
#endif
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

/* run and debug said --help with exit(0) from inside their parsers: a harness (or any caller) never got the parse
 * back. Both return 1 now, as every parser does, and leave the exit to the command. */
static void test_help_returns_from_the_program_commands_parsers(void **state)
{
    (void)state;
    char *run[] = {"run", "--json", "--help", "p.s", NULL};
    run_cli_t r;
    assert_int_equal(run_cli_parse(ARGC(run), run, &r), 1);
#ifdef IWARP_TEST_DEBUG_CLI
    char *debug[] = {"debug", "-h", NULL};
    debug_cli_t d;
    assert_int_equal(debug_cli_parse(ARGC(debug), debug, &d), 1);
#endif
}

/* The parsers of run, debug, route, model, soak, asm and dis fill their options and refuse what their commands
 * refuse, reading no file. */
static void test_the_program_and_tool_parsers_fill_their_options(void **state)
{
    (void)state;
    char *run_phases[] = {"run", "--phases", "--quiet", "a.run", NULL};
    run_cli_t r;
    assert_int_equal(run_cli_parse(ARGC(run_phases), run_phases, &r), -1);
    char *run_two[] = {"run", "a.s", "b.s", NULL};
    assert_int_equal(run_cli_parse(ARGC(run_two), run_two, &r), -1);
    char *run_hash[] = {"run", "a.run", "--state-hash-at", "0x10", "--threads", "auto", NULL};
    assert_int_equal(run_cli_parse(ARGC(run_hash), run_hash, &r), 0);
    assert_int_equal(r.hash_at, 16);
    assert_true(r.p.threads_auto);

    char *route_links[] = {"route", "--paper", "--links", "a.cset", NULL};
    route_cli_t ro;
    assert_int_equal(route_cli_parse(ARGC(route_links), route_links, &ro), -1);
    char *route_words[] = {"route", "--words", "4", "a.cset", NULL}; /* --words goes with --pattern */
    assert_int_equal(route_cli_parse(ARGC(route_words), route_words, &ro), -1);
    char *route_file[] = {"route", "a.cset", "-o", "t.dat", "--capacity", "16", "--seed", "0", NULL};
    assert_int_equal(route_cli_parse(ARGC(route_file), route_file, &ro), 0);
    assert_string_equal(ro.file, "a.cset");
    assert_int_equal(ro.opt.capacity, 16);

    char *model_copy[] = {"model", "copy", "--bogus", NULL}; /* model copy parses its own options */
    model_cli_t m;
    assert_int_equal(model_cli_parse(ARGC(model_copy), model_copy, &m), 0);
    assert_int_equal(m.model, MODEL_CLI_COPY);
    char *model_bad[] = {"model", "cost", NULL};
    assert_int_equal(model_cli_parse(ARGC(model_bad), model_bad, &m), -1);

    char *soak_bad[] = {"soak", "--runs", "0", NULL};
    soak_cli_t so;
    assert_int_equal(soak_cli_parse(ARGC(soak_bad), soak_bad, &so), -1);

    char *as[] = {"asm", "a.s", "-Iinc", "-I", "lib", "-DN=3", "-o", "a.img", "--text-base", "0x100", "b.s", NULL};
    asm_cli_t a;
    assert_int_equal(asm_cli_parse(ARGC(as), as, &a), 0);
    assert_int_equal(a.nfiles, 2); /* files anywhere among the options, in their order */
    assert_string_equal(a.files[0], "a.s");
    assert_string_equal(a.files[1], "b.s");
    assert_int_equal(a.nincludes, 2);
    assert_string_equal(a.includes[0], "inc");
    assert_string_equal(a.defines[0], "N=3");
    assert_string_equal(a.output, "a.img");
    assert_int_equal(a.text_base, 0x100);
    asm_cli_free(&a);
    char *as_base[] = {"asm", "a.s", "--text-base", "0x102", NULL};
    assert_int_equal(asm_cli_parse(ARGC(as_base), as_base, &a), -1);
    char *as_none[] = {"asm", "-o", "a.img", NULL};
    assert_int_equal(asm_cli_parse(ARGC(as_none), as_none, &a), -1);
    char *as_value[] = {"asm", "a.s", "-I", NULL}; /* a missing value is not a file */
    assert_int_equal(asm_cli_parse(ARGC(as_value), as_value, &a), -1);
    char *as_dash[] = {"asm", "-oa.img", "--", "-b.s", NULL}; /* "--" before a file named like an option */
    assert_int_equal(asm_cli_parse(ARGC(as_dash), as_dash, &a), 0);
    assert_int_equal(a.nfiles, 1);
    assert_string_equal(a.files[0], "-b.s");
    assert_string_equal(a.output, "a.img");
    asm_cli_free(&a);
    char *as_empty[] = {NULL};
    assert_int_equal(asm_cli_parse(0, as_empty, &a), -1);

    char *dis[] = {"dis", "--raw", "a.img", "--lines", NULL};
    dis_cli_t di;
    assert_int_equal(dis_cli_parse(ARGC(dis), dis, &di), 0);
    assert_string_equal(di.path, "a.img");
    assert_int_equal(di.flags, DIS_RAW | DIS_LINES);
    char *dis_two[] = {"dis", "a.img", "b.img", NULL};
    assert_int_equal(dis_cli_parse(ARGC(dis_two), dis_two, &di), -1);
    char *dis_value[] = {"dis", "--raw=1", "a.img", NULL};
    assert_int_equal(dis_cli_parse(ARGC(dis_value), dis_value, &di), -1);
    char *dis_empty[] = {NULL};
    assert_int_equal(dis_cli_parse(0, dis_empty, &di), -1);

#ifdef IWARP_TEST_DEBUG_CLI
    char *debug_none[] = {"debug", "-e", "print pc", NULL};
    debug_cli_t d;
    assert_int_equal(debug_cli_parse(ARGC(debug_none), debug_none, &d), -1);
#endif
}

/* bench --mesh is fem's: alone it runs fem only, beside named benches fem must be among them, and two meshes must
 * differ in their files' names (the report names a mesh so). The files are not read here. */
static void test_bench_mesh_runs_fem_alone(void **state)
{
    (void)state;
    bench_cli_t b;
    char *alone[] = {"bench", "--quick", "--mesh", "dir/a.msh", "--mesh", "b.geo", NULL};
    assert_int_equal(bench_cli_parse(ARGC(alone), alone, &b), 0);
    assert_int_equal(b.fem_nmeshes, 2);
    assert_string_equal(b.fem_meshes[0], "dir/a.msh");
    assert_string_equal(b.fem_meshes[1], "b.geo");
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_int_equal(b.selected[i], strcmp(bench_suite[i].name, "fem") == 0);
    char *beside[] = {"bench", "copy", "--mesh", "a.msh", "fem", NULL};
    assert_int_equal(bench_cli_parse(ARGC(beside), beside, &b), 0);
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_int_equal(b.selected[i],
                         strcmp(bench_suite[i].name, "fem") == 0 || strcmp(bench_suite[i].name, "copy") == 0);
    char *without_fem[] = {"bench", "--mesh", "a.msh", "patterns", NULL};
    assert_int_equal(bench_cli_parse(ARGC(without_fem), without_fem, &b), -1);
    char *same_name[] = {"bench", "--mesh", "x/a.msh", "--mesh", "y/a.msh", NULL};
    assert_int_equal(bench_cli_parse(ARGC(same_name), same_name, &b), -1);
    char *folder[] = {"bench", "--mesh", "meshes/", NULL};
    assert_int_equal(bench_cli_parse(ARGC(folder), folder, &b), -1);
    char *many[2 + 2 * (BENCH_FEM_MAX_MESHES + 1)];
    char names[BENCH_FEM_MAX_MESHES + 1][16];
    int n = 0;
    many[n++] = "bench";
    for (int i = 0; i <= BENCH_FEM_MAX_MESHES; i++) {
        snprintf(names[i], sizeof names[i], "m%d.msh", i);
        many[n++] = "--mesh";
        many[n++] = names[i];
    }
    many[n] = NULL;
    assert_int_equal(bench_cli_parse(n - 2, many, &b), 0); /* as many as the plot has series */
    assert_int_equal(b.fem_nmeshes, BENCH_FEM_MAX_MESHES);
    assert_int_equal(bench_cli_parse(n, many, &b), -1); /* one more */
    char *none[] = {"bench", "fem", NULL};
    assert_int_equal(bench_cli_parse(ARGC(none), none, &b), 0);
    assert_int_equal(b.fem_nmeshes, 0);
}

/* bench --booksim is traffic's, as --mesh is fem's: alone it runs traffic only (beside --mesh, fem too), beside named
 * benches traffic must be among them. The binary is not looked at here (cmd_bench checks it before any bench). */
static void test_bench_booksim_runs_traffic_alone(void **state)
{
    (void)state;
    bench_cli_t b;
    char *alone[] = {"bench", "--booksim", "/no/such/booksim", NULL};
    assert_int_equal(bench_cli_parse(ARGC(alone), alone, &b), 0);
    assert_string_equal(b.booksim, "/no/such/booksim");
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_int_equal(b.selected[i], strcmp(bench_suite[i].name, "traffic") == 0);
    char *both[] = {"bench", "--booksim", "bs", "--mesh", "a.msh", NULL};
    assert_int_equal(bench_cli_parse(ARGC(both), both, &b), 0);
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_int_equal(b.selected[i],
                         strcmp(bench_suite[i].name, "traffic") == 0 || strcmp(bench_suite[i].name, "fem") == 0);
    char *beside[] = {"bench", "speed", "--booksim", "bs", "traffic", NULL};
    assert_int_equal(bench_cli_parse(ARGC(beside), beside, &b), 0);
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        assert_int_equal(b.selected[i],
                         strcmp(bench_suite[i].name, "traffic") == 0 || strcmp(bench_suite[i].name, "speed") == 0);
    char *without[] = {"bench", "--booksim", "bs", "speed", NULL};
    assert_int_equal(bench_cli_parse(ARGC(without), without, &b), -1);
    char *none[] = {"bench", "traffic", NULL};
    assert_int_equal(bench_cli_parse(ARGC(none), none, &b), 0);
    assert_null(b.booksim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_parse_after_help_in_a_cluster_reads_its_own_vector),
        cmocka_unit_test(test_each_parser_fills_its_options),
        cmocka_unit_test(test_help_returns_from_the_program_commands_parsers),
        cmocka_unit_test(test_the_program_and_tool_parsers_fill_their_options),
        cmocka_unit_test(test_bench_mesh_runs_fem_alone),
        cmocka_unit_test(test_bench_booksim_runs_traffic_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
