/* common/cli_opts.h: what every command's parser says about a bad option (its own words, with the command's
 * name, whatever getopt_long found wrong), and that each parse starts afresh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"

#define ARGC(v) ((int)(sizeof(v) / sizeof(v)[0]) - 1)

enum { OPT_QUICK = 256, OPT_QUIET, OPT_OUT, OPT_JSON };

static const struct option longopts[] = {
    {"quick", no_argument, NULL, OPT_QUICK},   {"quiet", no_argument, NULL, OPT_QUIET},
    {"out", required_argument, NULL, OPT_OUT}, {"json", no_argument, NULL, OPT_JSON},
    {"output", required_argument, NULL, 'o'},  {NULL, 0, NULL, 0},
};

/* Parses argv as a command "cmd" with -o VALUE, -q and the long options above, up to the first error. The return
 * is the last code cli_opts_next gave; what went to stderr is in *said (freed by the caller). */
static int parse(int argc, char **argv, char **said)
{
    size_t len = 0;
    FILE *real = stderr, *mem = open_memstream(said, &len);
    assert_non_null(mem);
    stderr = mem;
    cli_opts_t cli;
    cli_opts_start(&cli, "cmd", argc, argv, "o:q", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1 && c != '?' && c != ':')
        ;
    stderr = real;
    fclose(mem);
    return c;
}

static void expect(char **argv, int argc, int code, const char *message)
{
    char *said = NULL;
    assert_int_equal(parse(argc, argv, &said), code);
    assert_string_equal(said, message);
    free(said);
}

static void test_an_unknown_option_is_named_as_typed(void **state)
{
    (void)state;
    char *lng[] = {"cmd", "a", "--bogus=3", NULL};
    expect(lng, ARGC(lng), '?', "iwarp cmd: unknown option '--bogus'\n");
    char *shrt[] = {"cmd", "-qxq", NULL}; /* inside a cluster: the letter, not the element */
    expect(shrt, ARGC(shrt), '?', "iwarp cmd: unknown option '-x'\n");
    char *last[] = {"cmd", "--out=f", "-qx", NULL}; /* the letter ends its element */
    expect(last, ARGC(last), '?', "iwarp cmd: unknown option '-x'\n");
}

/* glibc says "option requires an argument -- 'o'" or "option '--out' requires an argument" after argv[0]. */
static void test_a_missing_value_names_the_option_by_its_full_name(void **state)
{
    (void)state;
    char *shrt[] = {"cmd", "a", "-qo", NULL};
    expect(shrt, ARGC(shrt), ':', "iwarp cmd: -o needs a value\n");
    char *abbrev[] = {"cmd", "--outp", NULL};
    expect(abbrev, ARGC(abbrev), ':', "iwarp cmd: --output needs a value\n");
    char *exact[] = {"cmd", "--out", NULL}; /* also the start of --output: an exact name is that option */
    expect(exact, ARGC(exact), ':', "iwarp cmd: --out needs a value\n");
}

static void test_a_value_given_to_a_flag_is_refused_by_name(void **state)
{
    (void)state;
    char *full[] = {"cmd", "--json=1", NULL};
    expect(full, ARGC(full), '?', "iwarp cmd: --json takes no value\n");
    char *abbrev[] = {"cmd", "--js=", NULL};
    expect(abbrev, ARGC(abbrev), '?', "iwarp cmd: --json takes no value\n");
}

static void test_an_ambiguous_abbreviation_lists_what_it_may_mean(void **state)
{
    (void)state;
    char *qu[] = {"cmd", "--qu=1", NULL};
    expect(qu, ARGC(qu), '?', "iwarp cmd: ambiguous option '--qu' (--quick, --quiet)\n");
    char *quic[] = {"cmd", "--quic", NULL};
    char *said = NULL;
    assert_int_equal(parse(ARGC(quic), quic, &said), -1);
    assert_string_equal(said, "");
    free(said);
}

static void test_an_unexpected_operand_is_named(void **state)
{
    (void)state;
    char *argv[] = {"cmd", "--quick", "extra", NULL};
    char *said = NULL;
    size_t len = 0;
    FILE *real = stderr, *mem = open_memstream(&said, &len);
    assert_non_null(mem);
    stderr = mem;
    cli_opts_t cli;
    cli_opts_start(&cli, "model coll", ARGC(argv), argv, "", longopts);
    int c = cli_opts_next(&cli);
    int end = cli_opts_next(&cli);
    cli_opts_unexpected(&cli, argv[optind]);
    stderr = real;
    fclose(mem);
    assert_int_equal(c, OPT_QUICK);
    assert_int_equal(end, -1);
    assert_string_equal(said, "iwarp model coll: unexpected argument 'extra'\n");
    free(said);
}

/* Operands come out after the options, in their order, wherever they stood; "--" ends the options. */
static void test_operands_keep_their_order_after_the_options(void **state)
{
    (void)state;
    char *argv[] = {"cmd", "a", "-ox", "b", "--quick", "--", "-c", NULL};
    cli_opts_t cli;
    cli_opts_start(&cli, "cmd", ARGC(argv), argv, "o:q", longopts);
    assert_int_equal(cli_opts_next(&cli), 'o');
    assert_string_equal(optarg, "x");
    assert_int_equal(cli_opts_next(&cli), OPT_QUICK);
    assert_int_equal(cli_opts_next(&cli), -1);
    assert_int_equal(ARGC(argv) - optind, 3);
    assert_string_equal(argv[optind], "a");
    assert_string_equal(argv[optind + 1], "b");
    assert_string_equal(argv[optind + 2], "-c");
}

/* A parse that stopped inside a cluster leaves getopt there; the next parse of another vector must not go on
 * from it (glibc's optind = 1 would, reading the old vector). */
static void test_each_parse_starts_afresh(void **state)
{
    (void)state;
    char *first[] = {"cmd", "-qq", NULL};
    cli_opts_t cli;
    cli_opts_start(&cli, "cmd", ARGC(first), first, "o:q", longopts);
    assert_int_equal(cli_opts_next(&cli), 'q');
    char *second[] = {"cmd", "--json", NULL};
    cli_opts_start(&cli, "cmd", ARGC(second), second, "o:q", longopts);
    assert_int_equal(cli_opts_next(&cli), OPT_JSON);
    assert_int_equal(cli_opts_next(&cli), -1);
    char *none[] = {NULL};
    cli_opts_start(&cli, "cmd", 0, none, "o:q", longopts);
    assert_int_equal(cli_opts_next(&cli), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_unknown_option_is_named_as_typed),
        cmocka_unit_test(test_a_missing_value_names_the_option_by_its_full_name),
        cmocka_unit_test(test_a_value_given_to_a_flag_is_refused_by_name),
        cmocka_unit_test(test_an_ambiguous_abbreviation_lists_what_it_may_mean),
        cmocka_unit_test(test_an_unexpected_operand_is_named),
        cmocka_unit_test(test_operands_keep_their_order_after_the_options),
        cmocka_unit_test(test_each_parse_starts_afresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
