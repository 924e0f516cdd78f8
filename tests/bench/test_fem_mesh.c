/* iwarp bench fem --mesh as a person runs it (the binary is argv[1]): a user's meshes in place of the paper's four,
 * their records named after the files and the product's y right on every cell; a broken file stops the bench with
 * iwarp fem's message before anything runs; docs/bench.md's example prints what the doc shows. docs/bench.md,
 * docs/fem.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "command.h"
#include "test_dir.h"
#include "iwarp_config.h"

static const char *iwarp;
static char dir[64];

/* The 128 triangles of an 8 x 8 grid of unit squares, each cut along a diagonal, in gmsh's MSH 2.2 format. */
static void write_grid(const char *path)
{
    enum { N = 8 };
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n", (N + 1) * (N + 1));
    for (int j = 0; j <= N; j++)
        for (int i = 0; i <= N; i++)
            fprintf(f, "%d %d %d 0\n", j * (N + 1) + i + 1, i, j);
    fprintf(f, "$EndNodes\n$Elements\n%d\n", 2 * N * N);
    int e = 1;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            int a = j * (N + 1) + i + 1, b = a + 1, c = b + N + 1, d = a + N + 1;
            fprintf(f, "%d 2 2 1 1 %d %d %d\n", e++, a, b, c);
            fprintf(f, "%d 2 2 1 1 %d %d %d\n", e++, a, c, d);
        }
    fprintf(f, "$EndElements\n");
    fclose(f);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int make_dir(void **state)
{
    (void)state;
    return test_dir_make(dir, sizeof dir, "iwarp-bench-mesh");
}

static int remove_dir(void **state)
{
    (void)state;
    return test_dir_remove(dir);
}

/* `iwarp bench --out OUT ARGS`, stdout in *out and stderr in *err; the exit status. */
static int bench(const char *out_dir, const char *args, char **out, char **err)
{
    char cmd[4096], errpath[256];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "'%s' bench --out '%s' %s 2>'%s'", iwarp, out_dir, args, errpath);
    int rc = command_run(cmd, out);
    snprintf(cmd, sizeof cmd, "cat '%s'", errpath);
    assert_int_equal(command_run(cmd, err), 0);
    return rc;
}

/* Two meshes of one's own, a .geo that gmsh meshes and a .msh: each has its Table 4 (METIS and RCB) and a product
 * in each style and coding, named after its file, with its path as given, none of the paper's figures, and y
 * right on every cell (a product with a wrong y is an error, not a record: four records each). */
static void test_a_users_meshes_run_in_place_of_the_papers(void **state)
{
    (void)state;
    char grid[256], out_dir[256], args[1024];
    snprintf(grid, sizeof grid, "%s/grid.msh", dir);
    write_grid(grid);
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    const char *square = IWARP_SOURCE_ROOT "/tests/bench/square.geo";
    snprintf(args, sizeof args, "fem --quick --json --mesh '%s' --mesh '%s'", square, grid);
    char *out, *err;
    int rc = bench(out_dir, args, &out, &err);
    if (rc != 0)
        fail_msg("bench %s: status %d:\n%s", args, rc, err);
    json_error_t jerr;
    json_t *doc = json_loads(out, 0, &jerr);
    if (doc == NULL)
        fail_msg("not JSON: %s", jerr.text);
    static const struct {
        const char *name;
        long long elements;
    } meshes[2] = {{"square.geo", 404}, {"grid.msh", 128}};
    const char *files[2] = {square, grid};
    unsigned structure[2] = {0}, products[2] = {0};
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "records"), i, r)
    {
        assert_string_equal(json_string_value(json_object_get(r, "bench")), "fem");
        const char *name = json_string_value(json_object_get(r, "case"));
        unsigned m = strcmp(name, meshes[0].name) == 0 ? 0 : strcmp(name, meshes[1].name) == 0 ? 1 : 2;
        if (m == 2)
            fail_msg("a record of mesh '%s'", name);
        if (m == 0 && products[1] + structure[1] > 0)
            fail_msg("square.geo's records after grid.msh's: the meshes run in the order given");
        assert_string_equal(json_string_value(json_object_get(r, "mesh_file")), files[m]);
        const char *key;
        json_t *v;
        json_object_foreach(r, key, v)
        {
            if (strncmp(key, "paper_", 6) == 0)
                fail_msg("%s: a field %s", name, key);
        }
        const char *kind = json_string_value(json_object_get(r, "kind"));
        if (strcmp(kind, "structure") == 0) {
            structure[m]++;
            assert_int_equal(json_integer_value(json_object_get(r, "elements")), meshes[m].elements);
            assert_true(json_integer_value(json_object_get(r, "phases")) >= 1);
        } else {
            assert_string_equal(kind, "product");
            products[m]++;
            assert_int_equal(json_integer_value(json_object_get(r, "wrong")), 0);
            assert_true(json_integer_value(json_object_get(r, "exchange_clocks")) > 0);
        }
    }
    for (unsigned m = 0; m < 2; m++)
        if (structure[m] != 2 || products[m] != 4)
            fail_msg("%s: %u structure records (want 2: METIS, RCB) and %u products (want 4)", meshes[m].name,
                     structure[m], products[m]);
    json_decref(doc);
    free(out);
    free(err);
}

/* A broken file, however it is broken, gives the message iwarp fem gives and status 1; nothing runs (nothing on
 * stdout: not even the JSON document's start) and no report folder is made, though a good mesh comes first. */
static void test_a_broken_mesh_stops_the_bench_before_anything_runs(void **state)
{
    (void)state;
    static const struct {
        const char *file, *text, *says;
    } broken[] = {
        {"letter.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n2 1 x 0\n$EndNodes\n",
         ":7: expected a node: tag x y z"},
        {"exit.geo", "x = 1;\n  Exit;\n",
         ":2:3: 'Exit' exits the process: iwarp refuses it in a .geo file (even in a comment or a string)"},
        {"small.msh",
         "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n$Elements\n1\n"
         "1 2 2 1 1 1 2 3\n$EndElements\n",
         ": 1 elements: bench fem cuts a mesh into the 64 cells of 8x8, an element a cell at the least"},
        {"none.msh", NULL, ": no such mesh file"},
    };
    for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++) {
        char path[256], out_dir[256], args[1024], want[512];
        snprintf(path, sizeof path, "%s/%s", dir, broken[k].file);
        if (broken[k].text != NULL)
            write_text(path, broken[k].text);
        snprintf(out_dir, sizeof out_dir, "%s/broken", dir);
        snprintf(args, sizeof args, "--json --mesh '%s/tests/bench/square.geo' --mesh '%s'", IWARP_SOURCE_ROOT, path);
        char *out, *err;
        int rc = bench(out_dir, args, &out, &err);
        snprintf(want, sizeof want, "iwarp bench fem: %s%s", path, broken[k].says);
        if (rc != 1 || strstr(err, want) != err || out[0] != '\0')
            fail_msg("bench %s: status %d (want 1), stdout '%s', stderr:\n%s\n(want it to start: %s)", args, rc, out,
                     err, want);
        free(out);
        free(err);
        char cmd[512], *ls;
        snprintf(cmd, sizeof cmd, "ls -A '%s'", out_dir);
        assert_int_equal(command_run(cmd, &ls), 0);
        if (ls[0] != '\0')
            fail_msg("%s: bench made %s", broken[k].file, ls);
        free(ls);
    }
}

/* The command of the first block after `heading` in doc (a line `build/tools/iwarp ...`, without that) and the
 * lines of the next block, each with its newline. */
static void doc_example(const char *doc, const char *heading, char *command, size_t cap, char *shown, size_t shown_cap)
{
    FILE *f = fopen(doc, "r");
    assert_non_null(f);
    char line[512];
    int stage = 0; /* 0 before the section, 1 in it, 2 in the command's block, 3 after it, 4 in the output's */
    command[0] = shown[0] = '\0';
    while (stage < 5 && fgets(line, sizeof line, f) != NULL) {
        bool fence = strncmp(line, "```", 3) == 0;
        if (stage == 0 && strncmp(line, heading, strlen(heading)) == 0)
            stage = 1;
        else if (fence && stage > 0)
            stage++;
        else if (stage == 2 && command[0] == '\0' && strncmp(line, "build/tools/iwarp ", 18) == 0)
            snprintf(command, cap, "%.*s", (int)strcspn(line + 18, "\n"), line + 18);
        else if (stage == 4 && strlen(shown) + strlen(line) < shown_cap)
            strcat(shown, line);
    }
    fclose(f);
    if (stage != 5 || command[0] == '\0')
        fail_msg("%s: no section '%s' with a command block and an output block", doc, heading);
}

/* docs/bench.md's example of --mesh, run in the source folder (with --out, so that no report lands there): every
 * line the doc shows is a whole line of what it prints, in the doc's order (the doc leaves out the plots' paths,
 * the wall times and the texts around the tables). */
static void test_the_docs_example_prints_what_the_doc_shows(void **state)
{
    (void)state;
    char command[512], shown[4096], cmd[1024], *out;
    doc_example(IWARP_SOURCE_ROOT "/docs/bench.md", "### Your own mesh (`--mesh`)", command, sizeof command, shown,
                sizeof shown);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s --out '%s/doc' 2>&1", IWARP_SOURCE_ROOT, iwarp, command, dir);
    assert_int_equal(command_run(cmd, &out), 0);
    const char *at = out;
    for (char *save, *line = strtok_r(shown, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        const char *p = at;
        size_t n = strlen(line);
        while ((p = strstr(p, line)) != NULL && !((p == out || p[-1] == '\n') && p[n] == '\n'))
            p++;
        if (p == NULL)
            fail_msg("iwarp %s does not print this line (after what came before it in docs/bench.md):\n%s\n"
                     "it printed:\n%s",
                     command, line, out);
        at = p + n;
    }
    free(out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    static char absolute[4096], here[2048]; /* the docs' example runs in the source folder */
    if (argv[1][0] != '/' && getcwd(here, sizeof here) == NULL) {
        perror("getcwd");
        return 2;
    }
    snprintf(absolute, sizeof absolute, "%s%s%s", argv[1][0] == '/' ? "" : here, argv[1][0] == '/' ? "" : "/", argv[1]);
    iwarp = absolute;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_users_meshes_run_in_place_of_the_papers),
        cmocka_unit_test(test_a_broken_mesh_stops_the_bench_before_anything_runs),
        cmocka_unit_test(test_the_docs_example_prints_what_the_doc_shows),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
