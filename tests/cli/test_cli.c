/* iwarp run, asm and view from the command line (run in the source root; the binary is argv[1]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"

static const char *iwarp;

/* Runs `iwarp ARGS 2>&1`; returns the exit status and the output in *out. */
static int tool(char **out, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", iwarp, args);
    return command_run(cmd, out);
}

/* `ENV iwarp ARGS 2>&1` must exit with `status` and say `text` (ENV: variables for the shell to set, or ""). */
static void expect_in(const char *env, const char *args, int status, const char *text)
{
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd, "%s '%s' %s 2>&1", env, iwarp, args);
    int st = command_run(cmd, &out);
    if (st != status || strstr(out, text) == NULL)
        fail_msg("%s iwarp %s: status %d (wanted %d), output:\n%s\n(wanted it to contain: %s)", env, args, st, status,
                 out, text);
    free(out);
}

static void expect(const char *args, int status, const char *text)
{
    expect_in("", args, status, text);
}

/* One program runs on 1x1 unless --array, a machine file or --set say otherwise. */
static void test_the_machine_gives_a_single_program_its_array(void **state)
{
    (void)state;
    char path[] = "/tmp/iwarp-cli-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char machine[] = "width = 4\nheight = 2\n";
    assert_int_equal(write(fd, machine, sizeof machine - 1), (ssize_t)(sizeof machine - 1));
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "run programs/bench/compute.s --args 10 --machine %s", path);
    expect(args, 0, "on 4x2");
    snprintf(args, sizeof args, "run programs/bench/compute.s --args 10 --machine %s --array 2x3", path);
    expect(args, 0, "on 2x3");
    unlink(path);
    expect("run programs/bench/compute.s --args 10 --set width=3", 0, "on 3x1");
    expect("run programs/bench/compute.s --args 10", 0, "on 1x1");
}

/* Counts are decimal or 0x hex, positive, and fit. */
static void test_counts_are_checked(void **state)
{
    (void)state;
    expect("run programs/bench/compute.s --max-cycles -1", 2, "--max-cycles wants 1..2^64-1 cycles, not '-1'");
    expect("run programs/bench/compute.s --max-cycles 99999999999999999999999", 2, "--max-cycles wants 1..2^64-1");
    expect("run programs/bench/compute.s --state-hash-at ' 7'", 2, "--state-hash-at wants a clock 1..2^64-1");
    expect("run programs/bench/compute.s --args 10 --max-cycles 0x100", 1, "cycles   256 ");
    expect("run programs/bench/compute.s --args 1,,2", 2, "--args wants up to 8 comma-separated 32-bit numbers");
    expect("run programs/bench/compute.s --args ''", 2, "--args wants up to 8");
    expect("debug programs/bench/compute.s --batch --args 4294967296", 2, "--args wants up to 8");
    expect("run programs/bench/compute.s --args -2147483648,0x10 --max-cycles 5", 1, "cycles   5 ");
}

/* Everything after the report's host line: what the run's clocks, statistics and network were, never how fast. */
static char *cut_host_lines(char *out)
{
    char *host = strstr(out, "\nhost ");
    if (host != NULL)
        host[1] = '\0';
    return out;
}

/* --threads auto picks a count between slices: the report is the same as on one thread, with a line saying
 * what it ended on; the run description's `threads auto` too; anything else is refused by name. */
static void test_threads_auto_changes_only_the_host_time(void **state)
{
    (void)state;
    /* The first runs long enough for a try on two cores or more (slices grow to a twentieth of a second). */
    static const char *const runs[] = {
        "programs/bench/stream.s --array 8x8 --args 100000",
        "programs/net/neighbours.run",
        "programs/patterns/msgpass.s --array 4x4 --args 512,2,0",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[512], *one, *autos;
        snprintf(args, sizeof args, "run %s --threads 1", runs[i]);
        assert_int_equal(tool(&one, args), 0);
        snprintf(args, sizeof args, "run %s --threads auto", runs[i]);
        assert_int_equal(tool(&autos, args), 0);
        const char *line = strstr(autos, "\nthreads  auto: ended on ");
        unsigned ended, most, tries, kept, back, not_made;
        if (line == NULL ||
            sscanf(line, "\nthreads  auto: ended on %u of up to %u (%u tries, %u kept, %u gone back, %u not made",
                   &ended, &most, &tries, &kept, &back, &not_made) != 6)
            fail_msg("iwarp %s: no line for the thread count:\n%s", args, autos);
        /* A try, or one not made because the host (busy with the other tests) had no core idle for it. */
        if (i == 0 && sysconf(_SC_NPROCESSORS_ONLN) >= 2 && tries + not_made == 0)
            fail_msg("iwarp %s: no try of another thread count on %ld cores:\n%s", args, sysconf(_SC_NPROCESSORS_ONLN),
                     autos);
        assert_string_equal(cut_host_lines(one), cut_host_lines(autos));
        free(one);
        free(autos);
    }
    expect("run programs/bench/compute.s --args 10 --threads auto --json", 0, "\"threads_auto\": {");
    expect("run programs/bench/compute.s --threads 0", 2, "--threads wants 1..256 or auto, not '0'");
    expect("run programs/bench/compute.s --threads automatic", 2, "--threads wants 1..256 or auto, not 'automatic'");
    char path[64];
    snprintf(path, sizeof path, "/tmp/iwarp-cli-%d-threads.run", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("array 2x2\nprogram p /dev/null\nthreads fast\n", f);
    fclose(f);
    char args[256], where[300];
    snprintf(args, sizeof args, "run %s", path);
    snprintf(where, sizeof where, "%s:3:9: 'threads' wants a positive number (up to 256) or auto", path);
    expect(args, 2, where);
    unlink(path);
}

/* A run stopped at the limit says where each cell still running is. */
static void test_the_cycle_limit_says_where_the_cells_are(void **state)
{
    (void)state;
    expect("run programs/bench/compute.s --args 100000 --max-cycles 500 --array 2x1", 1, "at limit cell (0,0) pc 0x");
    expect("run programs/bench/compute.s --args 100000 --max-cycles 500 --array 2x1", 1, "compute.s:");
}

/* Whether this build has the viewer (-Dviewer): without SDL2, view and demo say so and parse nothing. */
static bool viewer_built(void)
{
    char cmd[512], *out;
    snprintf(cmd, sizeof cmd, "'%s' view --help 2>&1", iwarp);
    command_run(cmd, &out);
    bool built = strstr(out, "this build has no viewer") == NULL;
    free(out);
    return built;
}

/* Inputs that cannot be what they claim are refused up front, by name. */
static void test_empty_programs_and_false_recordings_are_refused(void **state)
{
    (void)state;
    char empty[64], fake[64], args[256];
    snprintf(empty, sizeof empty, "/tmp/iwarp-cli-%d-empty.s", (int)getpid());
    snprintf(fake, sizeof fake, "/tmp/iwarp-cli-%d-fake.iwt", (int)getpid());
    FILE *f = fopen(empty, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(args, sizeof args, "run %s", empty);
    expect(args, 2, "the program has no instructions");
    f = fopen(fake, "w");
    assert_non_null(f);
    fputs("not a recording\n", f);
    fclose(f);
    snprintf(args, sizeof args, "view %s --screenshot /tmp/iwarp-cli-never.png", fake);
    char *out;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", iwarp, args);
    int st = command_run(cmd, &out);
    if (strstr(out, "this build has no viewer") == NULL) {
        assert_int_equal(st, 2);
        assert_non_null(strstr(out, "is not a recording"));
    }
    free(out);
    unlink(empty);
    unlink(fake);
}

/* A screenshot writes its picture and nothing else (pathway.run's program prints a line when it is done). */
static void test_a_screenshot_prints_nothing(void **state)
{
    (void)state;
    char *out, cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' view programs/net/pathway.run --screenshot /tmp/iwarp-cli-%d.png --at 200 2>&1",
             iwarp, (int)getpid());
    int st = command_run(cmd, &out);
    if (strstr(out, "this build has no viewer") != NULL) {
        free(out);
        skip();
    }
    assert_int_equal(st, 0);
    assert_string_equal(out, "");
    free(out);
    /* and a cell outside the array is refused, not ignored */
    snprintf(cmd, sizeof cmd,
             "'%s' view programs/net/pathway.run --select 9,9 --screenshot /tmp/iwarp-cli-%d.png --at 200 2>&1", iwarp,
             (int)getpid());
    assert_int_equal(command_run(cmd, &out), 2);
    assert_non_null(strstr(out, "--select 9,9 is outside the 8x8 array"));
    free(out);
    /* so is a narrative paragraph that would turn the panel to such a cell */
    snprintf(cmd, sizeof cmd, "/tmp/iwarp-cli-%d.txt", (int)getpid());
    FILE *f = fopen(cmd, "w");
    assert_non_null(f);
    fputs("The pathway.\n\n@ 100.. select 8,0\nFrom clock 100.\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd,
             "'%s' view programs/net/pathway.run --narrative /tmp/iwarp-cli-%d.txt --screenshot /tmp/iwarp-cli-%d.png "
             "--at 200 2>&1",
             iwarp, (int)getpid(), (int)getpid());
    assert_int_equal(command_run(cmd, &out), 2);
    assert_non_null(strstr(out, "the narrative selects cell 8,0, outside the 8x8 array"));
    free(out);
    snprintf(cmd, sizeof cmd, "/tmp/iwarp-cli-%d.txt", (int)getpid());
    unlink(cmd);
    snprintf(cmd, sizeof cmd, "/tmp/iwarp-cli-%d.png", (int)getpid());
    assert_int_equal(access(cmd, R_OK), 0);
    unlink(cmd);
}

/* iwarp asm finds the runtimes' files as iwarp run does. */
static void test_asm_assembles_the_shipped_programs(void **state)
{
    (void)state;
    char img[64], args[256];
    snprintf(img, sizeof img, "/tmp/iwarp-cli-%d-pathway.img", (int)getpid());
    snprintf(args, sizeof args, "asm programs/net/pathway.s -o %s && echo assembled", img);
    expect(args, 0, "assembled");
    unlink(img);
}

/* --text-base is digits (decimal, 0x hex or 0 octal) from its first character: strtoul read '' as 0, and took
 * ' 4096', '+4096' and '-0' too, where every other number of the command line wants digits only. */
static void test_asm_text_base_wants_digits(void **state)
{
    (void)state;
    static const char *const bad[] = {"''", "' 4096'", "+4096", "-0"};
    char img[64], args[256];
    snprintf(img, sizeof img, "/tmp/iwarp-cli-%d-base.img", (int)getpid());
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "asm programs/bench/compute.s -o %s --text-base %s", img, bad[i]);
        expect(args, 2, "--text-base needs a word-aligned 32-bit address (a multiple of 4, 0..0xfffffffc)");
    }
    snprintf(args, sizeof args, "asm programs/bench/compute.s -o %s --text-base 010 && echo assembled", img);
    expect(args, 0, "assembled");
    unlink(img);
}

/* With no display the viewer says so, rather than run unseen. */
static void test_the_viewer_without_a_display_says_so(void **state)
{
    (void)state;
    char *out;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 60 '%s' view programs/net/pathway.run 2>&1",
             iwarp);
    int st = command_run(cmd, &out);
    if (strstr(out, "this build has no viewer") != NULL) {
        free(out);
        skip();
    }
    if (st != 2 || strstr(out, "no display") == NULL)
        fail_msg("status %d, output:\n%s", st, out);
    free(out);
}

/* An array size is read by one rule on the command line and in a run description: digits, 'x', digits. */
static void test_array_sizes_follow_one_rule(void **state)
{
    (void)state;
    char dir[] = "/tmp/iwarp-cli-array-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.run", dir); /* a run description by its name */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    static const char text[] = "array 2x+2\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "run %s", path);
    expect(args, 2, ":1:7: 'array' wants WxH with sides 1..32");
    expect("run programs/bench/compute.s --array 2x+2", 2, "--array wants WxH with sides 1..32, not '2x+2'");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --size 64x+64", 2, "bad value '64x+64' for --size (N0xN1, each 1 to 65536)");
    unlink(path);
    rmdir(dir);
}

/* iwarp hpf: a run a person would try, its JSON, and the messages of bad usage. */
static void test_hpf_runs_an_assignment_and_refuses_bad_ones(void **state)
{
    (void)state;
    expect("hpf 'S(:,CYCLIC(3)) -> D(BLOCK,:)' --size 30x40 --task 4 --array 4x2 --iterations 3", 0,
           "every destination element checked after the last iteration: right");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --size 64x64 --task 4 --array 4x2 --iterations 2 --only cached", 0,
           "the relation: 1 blocks per source cell");
    char *out;
    assert_int_equal(tool(&out, "hpf 'A(CYCLIC,:) -> B(:,CYCLIC(2))' --size 20x20 --task 2 --array 2x2 --iterations 2 "
                                "--format pairs --check-each --json"),
                     0);
    /* 400 elements as pairs, each iteration, from both modes */
    assert_non_null(strstr(out, "\"uncached_words_sent\": 800"));
    assert_non_null(strstr(out, "\"cached_words_sent\": 800"));
    assert_non_null(strstr(out, "\"iteration\": 2"));
    free(out);
    expect("hpf 'S(:,BLOK) -> D(:,BLOCK)'", 2, "col 5: a distribution");
    /* a value out of range says the range (issue 33) */
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --task 40", 2, "bad value '40' for --task (1 to 32 cells)");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --iterations 65", 2, "bad value '65' for --iterations (1 to 64)");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --array 33x1", 2, "bad value '33x1' for --array (WxH, sides 1 to 32)");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --task 16 --array 4x4", 2,
           "cannot hold two tasks of 16 cells (--task 1 to 8 on it)");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --task 1 --array 1x1", 2, "a 1x1 array cannot hold two tasks");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --format triples", 2, "bad value 'triples' for --format (blocks or pairs)");
    expect("hpf 'S(:,BLOCK) -> D(:,BLOCK)' --only both", 2, "bad value 'both' for --only (uncached or cached)");
    expect("hpf", 2, "one assignment expected");
}

/* The example under `heading` (the whole heading, or its part before a colon) in `doc` (the first `build/tools/iwarp` line of its first code block) prints
 * what the doc's next code block shows, line for line. */
static void doc_example(const char *doc, const char *heading)
{
    FILE *f = fopen(doc, "r");
    assert_non_null(f);
    char line[512], command[512] = "", shown[8192] = "";
    int stage = 0; /* 0 before the section, 1 in it, 2 in the command's block, 3 after it, 4 in the output's */
    while (stage < 5 && fgets(line, sizeof line, f) != NULL) {
        if (stage == 0 && strncmp(line, heading, strlen(heading)) == 0 && strchr("\n:", line[strlen(heading)]))
            stage = 1;
        else if ((stage == 1 || stage == 3) && strncmp(line, "```", 3) == 0)
            stage++;
        else if (stage == 2 && strncmp(line, "```", 3) == 0)
            stage = 3;
        else if (stage == 2 && command[0] == '\0' && strncmp(line, "build/tools/iwarp ", 18) == 0)
            snprintf(command, sizeof command, "%s", line + 18);
        else if (stage == 4 && strncmp(line, "```", 3) == 0)
            stage = 5;
        else if (stage == 4 && strlen(shown) + strlen(line) < sizeof shown)
            strcat(shown, line);
    }
    fclose(f);
    if (stage != 5)
        fail_msg("%s: no section '%s' with a command block and an output block", doc, heading);
    command[strcspn(command, "\n")] = '\0';
    char *out;
    assert_int_equal(tool(&out, command), 0);
    if (strcmp(out, shown) != 0)
        fail_msg("iwarp %s printed\n%s\nbut %s shows\n%s", command, out, doc, shown);
    free(out);
}

static void test_hpf_doc_example_prints_what_the_doc_shows(void **state)
{
    (void)state;
    doc_example("docs/deposit.md", "### `iwarp hpf`");
}

/* docs/conset.md: the per-phase account of all-to-all at 32 words, every phase's clocks as measured. */
static void test_phase_account_doc_example_prints_what_the_doc_shows(void **state)
{
    (void)state;
    doc_example("docs/conset.md", "#### All-to-all at 32 words");
}

/* docs/copy.md: the paper's estimates and an expression with a constraint. */
static void test_copy_model_doc_examples_print_what_the_doc_shows(void **state)
{
    (void)state;
    doc_example("docs/copy.md", "### The paper's estimates");
    doc_example("docs/copy.md", "### An expression");
}

/* docs/fem.md: the structure of the g20k mesh (made by gmsh and partitioned by METIS, or from the cache). */
static void test_fem_doc_example_prints_what_the_doc_shows(void **state)
{
    (void)state;
    doc_example("docs/fem.md", "### `--json`");
    expect("fem nowhere.msh", 1, "nowhere.msh: no such mesh file");
    expect("fem g20k --array 2x+2", 2, "bad value '2x+2' for --array");
}

/* docs/fem.md: --run sets the paper's model of the exchange (bench fem's Table 6) beside the emulated clocks, in
 * the run's style and coding, with the clocks a word the model takes from the loops. */
static void test_fem_run_prints_the_models_prediction(void **state)
{
    (void)state;
    expect("fem g20k --array 4x4 --run", 0,
           "exchange 27698 clocks; y on every cell: right\nthe model's exchange (as bench fem's Table 6): 28028 "
           "clocks, phases x 520 + AS's schedule of each phase at b = 13 a word; emulated/predicted 0.99\n");
    expect("fem g20k --array 4x4 --run --msgpass --liw", 0,
           "the model's exchange (as bench fem's Table 6): 22114 clocks, the most over the cells of 2c + a w a "
           "message, c = 400, a = 3.0 gather + 11 receive; emulated/predicted ");
    expect("fem g20k --array 4x4 --run --json", 0, "\"predicted_exchange_clocks\": 28028,");
}

/* docs/fem.md: --partitioner chooses METIS or RCB, for iwarp fem and for bench fem's products; the report
 * says which, and how far the figures are from the paper's. */
static void test_fem_partitioner_is_chosen_by_name(void **state)
{
    (void)state;
    expect("fem g20k --partitioner rcb", 0, "partition into 64 by RCB");
    expect("fem g20k --partitioner rcb", 0,
           "distance to the paper: 10% (the mean of |here - paper| / paper over words a cell min and max, degree and "
           "phases)");
    expect("fem g20k", 0, "partition into 64 by METIS");
    expect("fem g20k --partitioner metis --json", 0, "\"partitioner\": \"metis\"");
    expect("fem g20k --array 4x4 --partitioner rcb --json", 0, "\"partitioner\": \"rcb\"");
    expect("fem g20k --partitioner kway", 2, "bad value 'kway' for --partitioner (metis or rcb)");
    expect("fem g20k --partitioner RCB", 2, "bad value 'RCB' for --partitioner");
    expect("bench --partitioner rcb1 fem", 2, "--partitioner wants metis or rcb, not 'rcb1'");
}

/* docs/fem.md: gmsh is loaded when a mesh is made or read, never at start (it would cost every run ~90 ms), and
 * a mesh without the library says what to install. The loader's search path puts a broken libgmsh first. */
static void test_gmsh_is_loaded_only_for_a_mesh(void **state)
{
    (void)state;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd, "LD_DEBUG=files '%s' run programs/bench/compute.s --args 10 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 0);
    if (strstr(out, "libgmsh") != NULL)
        fail_msg("a run loaded gmsh:\n%s", out);
    free(out);
    char dir[] = "/tmp/iwarp-cli-gmsh-XXXXXX", env[128], args[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cd '%s' && echo 'not a library' > libgmsh.so.4.8 && cp libgmsh.so.4.8 libgmsh.so"
             " && echo 'Point(1) = {0, 0, 0};' > plate.geo",
             dir);
    assert_int_equal(command_run(cmd, &out), 0);
    free(out);
    snprintf(env, sizeof env, "LD_LIBRARY_PATH='%s'", dir);
    const char *want = "gmsh could not be loaded (";
    snprintf(args, sizeof args, "fem g20k --cache %s/cache", dir); /* a mesh to make */
    expect_in(env, args, 1, want);
    snprintf(args, sizeof args, "fem %s/plate.geo", dir); /* a file to read */
    expect_in(env, args, 1, want);
    expect_in(env, args, 1, "); install libgmsh"); /* its version is the gmshc.h built against */
    expect_in(env, args, 1, " (scripts/setup.sh)");
    snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
    assert_int_equal(command_run(cmd, &out), 0);
    free(out);
}

/* SDL2 is the viewer's alone (tools/view/view_loader.c): a run does not load it, and a binary copied without its
 * viewer module runs, says why it cannot view, and still writes a demo's web page. */
static void test_sdl_is_loaded_only_by_the_viewer(void **state)
{
    (void)state;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd, "LD_DEBUG=files '%s' run programs/bench/compute.s --args 10 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 0);
    if (strstr(out, "libSDL2") != NULL)
        fail_msg("a run loaded SDL2:\n%s", out);
    free(out);
    bool has_viewer = viewer_built();
    if (has_viewer) {
        snprintf(cmd, sizeof cmd, "LD_DEBUG=files '%s' demo wormhole --screenshot /tmp/iwarp-cli-%d.png --at 1 2>&1",
                 iwarp, (int)getpid());
        assert_int_equal(command_run(cmd, &out), 0);
        assert_non_null(strstr(out, "libSDL2"));
        free(out);
    }
    char dir[] = "/tmp/iwarp-cli-alone-XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/iwarp'", iwarp, dir);
    assert_int_equal(command_run(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s/iwarp' run programs/bench/compute.s --args 10 2>&1", dir);
    assert_int_equal(command_run(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s/iwarp' demo wormhole --screenshot '%s/w.png' 2>&1", dir, dir);
    assert_int_equal(command_run(cmd, &out), 2);
    assert_non_null(strstr(out, has_viewer ? "the viewer module could not be loaded: " : "this build has no viewer"));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s/iwarp' demo wormhole --web '%s/page' 2>&1", dir, dir);
    int st = command_run(cmd, &out);
    /* without a built page (scripts/build-web.sh) --web says so; either way it does not need the viewer */
    assert_null(strstr(out, "viewer"));
    assert_true(st == 0 || strstr(out, "build-web") != NULL);
    free(out);
    snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
    assert_int_equal(command_run(cmd, &out), 0);
    free(out);
    snprintf(cmd, sizeof cmd, "/tmp/iwarp-cli-%d.png", (int)getpid());
    unlink(cmd);
}

/* Numbers read with strtod: "nan" passed checks written as "v < 0" (model coll then took it as not given, view
 * as a speed), "inf" made a cost and "" read as 0. Each is refused with what the option takes (issue 33). */
static void test_non_finite_numbers_are_refused_with_the_range(void **state)
{
    (void)state;
    if (viewer_built()) {
        expect("view --speed nan programs/bench/compute.s", 2,
               "--speed wants clocks per second, a finite number 0 or more");
        expect("view --speed '' programs/bench/compute.s", 2, "--speed wants clocks per second");
    }
    expect("model coll --per-message nan --per-word 1", 2,
           "bad value 'nan' for --per-message (a finite number of clocks");
    expect("model coll --per-message 10 --per-word inf", 2,
           "bad value 'inf' for --per-word (a finite number of clocks");
}

/* docs/collectives.md: three runs of `iwarp coll` (message passing and ConSet, the model, a buffered send that
 * returns first), and what it says of cases it cannot run. */
static void test_coll_doc_examples_print_what_the_doc_shows(void **state)
{
    (void)state;
    doc_example("docs/collectives.md", "### A strided broadcast");
    doc_example("docs/collectives.md", "### A spread under ConSet");
    doc_example("docs/collectives.md", "### A buffered send returns first");
    doc_example("docs/collectives.md", "### `iwarp model coll`");
    expect("model coll --per-message 800", 2, "--per-message and --per-word go together");
    expect("model coll --cells 1", 2, "bad value '1' for --cells");
    expect("coll mbcast-ring --block 4x8 --lda 16", 2, "lda 16 is less than the matrix's (P blocks of n) row of 64");
    expect("coll mbcast-tree --impl conset", 2, "mbcast-tree has no ConSet form");
    /* the library from a program of one's own (the doc's example): every cell of a row ends with its row's sum */
    expect("run programs/coll/row_sum.s --array 4x2 --set mem_bytes=8M --args 1,7", 0, "(3,1)    halted   0xa80");
    expect("run programs/coll/row_sum.s --array 4x2 --set mem_bytes=8M --args 0,0", 0, "(2,0)    halted   0x780");
    expect("coll mbcast-ring --root 3 --block 1x8", 0, "note: mbcast-ring has no root");
    expect("coll scatter", 2, "unknown pattern 'scatter'");
    expect("coll bcast --block 4", 2, "bad value '4' for --block (MxN, each 1 to 1048576");
    expect("coll bcast --groups columns --array 8x1", 2, "has one cell");
}

/* A bad expression names its column and points at it; a bad table file its line and column. */
static void test_copy_model_refuses_bad_expressions_and_tables(void **state)
{
    (void)state;
    expect("model copy '1C1 -> (1S0 || Nd ||| 0D1)'", 1,
           "expr:21: expected a transfer, a number or '(' but found '|'\n  1C1 -> (1S0 || Nd ||| 0D1)\n"
           "                      ^");
    expect("model copy --machine cray '1C1'", 2, "no built-in table 'cray'");
    expect("model copy --set Nd@2 '1C1'", 2, "--set wants TRANSFER=MBPS");
    expect("model copy --table docs/copy.md '1C1'", 1, "docs/copy.md:3:10: expected `NAME = VALUE`");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_machine_gives_a_single_program_its_array),
        cmocka_unit_test(test_counts_are_checked),
        cmocka_unit_test(test_threads_auto_changes_only_the_host_time),
        cmocka_unit_test(test_the_cycle_limit_says_where_the_cells_are),
        cmocka_unit_test(test_empty_programs_and_false_recordings_are_refused),
        cmocka_unit_test(test_asm_assembles_the_shipped_programs),
        cmocka_unit_test(test_asm_text_base_wants_digits),
        cmocka_unit_test(test_hpf_runs_an_assignment_and_refuses_bad_ones),
        cmocka_unit_test(test_array_sizes_follow_one_rule),
        cmocka_unit_test(test_hpf_doc_example_prints_what_the_doc_shows),
        cmocka_unit_test(test_copy_model_doc_examples_print_what_the_doc_shows),
        cmocka_unit_test(test_phase_account_doc_example_prints_what_the_doc_shows),
        cmocka_unit_test(test_copy_model_refuses_bad_expressions_and_tables),
        cmocka_unit_test(test_fem_doc_example_prints_what_the_doc_shows),
        cmocka_unit_test(test_fem_partitioner_is_chosen_by_name),
        cmocka_unit_test(test_fem_run_prints_the_models_prediction),
        cmocka_unit_test(test_gmsh_is_loaded_only_for_a_mesh),
        cmocka_unit_test(test_sdl_is_loaded_only_by_the_viewer),
        cmocka_unit_test(test_coll_doc_examples_print_what_the_doc_shows),
        cmocka_unit_test(test_non_finite_numbers_are_refused_with_the_range),
        cmocka_unit_test(test_a_screenshot_prints_nothing),
        cmocka_unit_test(test_the_viewer_without_a_display_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
