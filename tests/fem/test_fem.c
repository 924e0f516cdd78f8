/* The finite element experiment's structure (experiments/fem): gmsh makes the same built-in mesh every time and
 * caches it; METIS's partition is the same every time and cached; the shared-node pattern is symmetric and is
 * what a count from the partition gives; a user's .msh file is read; bad files are refused with the path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "e2e.h"
#include "fem_analysis.h"
#include "fem_kernel.h"
#include "fem_pattern.h"
#include "test_dir.h"
#include "model.h"

static char cache[64];

static int make_cache(void **state)
{
    (void)state;
    return test_dir_make(cache, sizeof cache, "iwarp_fem");
}

static int remove_cache(void **state)
{
    (void)state;
    return test_dir_remove(cache);
}

static void test_a_built_in_mesh_is_made_once_and_the_same_every_time(void **state)
{
    (void)state;
    char err[1024], other[96];
    snprintf(other, sizeof other, "%s/again", cache);
    fem_analysis_t a, b, c;
    assert_int_equal(fem_analyse("g20k", 8, 8, FEM_METIS, cache, &a, err, sizeof err), 0);
    assert_int_equal(a.mesh_made, 1);
    assert_int_equal(a.part_made, 1);
    /* a brick mesh: 40 x 25 x 20 hexahedra */
    assert_int_equal(a.mesh.dim, 3);
    assert_int_equal(a.mesh.nelems, 20000);
    assert_int_equal(a.mesh.nnodes, 41 * 26 * 21);
    assert_int_equal(fem_analyse("g20k", 8, 8, FEM_METIS, cache, &b, err, sizeof err), 0);
    assert_int_equal(b.mesh_made, 0);
    assert_int_equal(b.part_made, 0);
    assert_int_equal(fem_analyse("g20k", 8, 8, FEM_METIS, other, &c, err, sizeof err), 0);
    assert_int_equal(c.mesh_made, 1);
    assert_int_equal(c.part_made, 1);
    assert_string_equal(fem_mesh_origin("g20k", c.mesh_made), "made by gmsh now");
    assert_string_equal(fem_mesh_origin("g20k", b.mesh_made), "from the cache");
    assert_memory_equal(a.part.epart, b.part.epart, a.mesh.nelems * sizeof *a.part.epart);
    assert_memory_equal(a.part.epart, c.part.epart, a.mesh.nelems * sizeof *a.part.epart);
    assert_int_equal(a.phases, c.phases);
    fem_analysis_free(&a);
    fem_analysis_free(&b);
    fem_analysis_free(&c);
}

/* The pattern from a count of its own: for every node, the parts of the elements around it. */
static void test_the_pattern_is_the_shared_nodes(void **state)
{
    (void)state;
    char err[1024];
    fem_analysis_t a;
    assert_int_equal(fem_analyse("m11k", 4, 4, FEM_METIS, cache, &a, err, sizeof err), 0);
    assert_true(a.mesh.nnodes > 10900 && a.mesh.nnodes < 11100);
    unsigned p = a.part.parts;
    uint32_t *want = calloc((size_t)p * p, sizeof *want);
    uint8_t *has = calloc(a.mesh.nnodes * p, 1);
    assert_non_null(want);
    assert_non_null(has);
    for (size_t e = 0; e < a.mesh.nelems; e++) {
        assert_true(a.part.epart[e] < p);
        for (uint32_t i = a.mesh.elem_ptr[e]; i < a.mesh.elem_ptr[e + 1]; i++)
            has[(size_t)a.mesh.elem_nodes[i] * p + a.part.epart[e]] = 1;
    }
    for (size_t n = 0; n < a.mesh.nnodes; n++)
        for (unsigned x = 0; x < p; x++)
            for (unsigned y = 0; y < p; y++)
                if (x != y && has[n * p + x] && has[n * p + y])
                    want[x * p + y]++;
    assert_memory_equal(want, a.part.words, (size_t)p * p * sizeof *want);
    uint64_t comm = 0;
    for (unsigned x = 0; x < p; x++)
        for (unsigned y = 0; y < p; y++)
            comm += want[x * p + y];
    assert_int_equal(comm, a.stats.words);
    /* a connection for each ordered pair with words */
    assert_int_equal(a.set.nconns, a.stats.connections);
    assert_true(a.phases >= 1);
    free(want);
    free(has);
    fem_analysis_free(&a);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A unit square as four triangles around its centre, in gmsh's MSH 2.2 format, split in two. */
static void test_a_users_msh_file_is_read(void **state)
{
    (void)state;
    char path[128], err[1024];
    snprintf(path, sizeof path, "%s/square.msh", cache);
    write_file(path, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"
                     "5 0.5 0.5 0\n$EndNodes\n$Elements\n4\n1 2 2 1 1 1 2 5\n2 2 2 1 1 2 3 5\n3 2 2 1 1 3 4 5\n"
                     "4 2 2 1 1 4 1 5\n$EndElements\n");
    fem_analysis_t a;
    assert_int_equal(fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err), 0);
    assert_int_equal(a.mesh.dim, 2);
    assert_int_equal(a.mesh.nelems, 4);
    assert_int_equal(a.mesh.nnodes, 5);
    assert_int_equal(a.stats.elems_min + a.stats.elems_max, 4);
    assert_string_equal(fem_mesh_origin(path, a.mesh_made), "read from the .msh");
    /* two parts of a fan of four triangles share the centre and two corners, or the centre and one */
    assert_true(a.part.words[1] == a.part.words[2]);
    assert_true(a.part.words[1] >= 2 && a.part.words[1] <= 3);
    /* The mesh read once and analysed from memory (as bench fem --mesh does): the same partition and figures, and
     * the analysis's copy is its own (the mesh read outlives it). */
    fem_mesh_t m;
    int made;
    assert_int_equal(fem_mesh_load(path, cache, &m, &made, err, sizeof err), 0);
    fem_analysis_t b;
    assert_int_equal(fem_analyse_mesh(&m, 2, 1, FEM_METIS, &b, err, sizeof err), 0);
    assert_ptr_not_equal(b.mesh.elem_nodes, m.elem_nodes);
    assert_memory_equal(a.part.epart, b.part.epart, a.mesh.nelems * sizeof *a.part.epart);
    assert_int_equal(a.stats.words, b.stats.words);
    assert_int_equal(a.stats.connections, b.stats.connections);
    assert_int_equal(a.phases, b.phases);
    fem_analysis_free(&b);
    assert_int_equal(m.nelems, 4);
    assert_int_equal(m.elem_nodes[m.elem_ptr[4] - 1], a.mesh.elem_nodes[a.mesh.elem_ptr[4] - 1]);
    fem_mesh_free(&m);
    fem_analysis_free(&a);
}

static void expect_refused(const char *name, const char *text, const char *want)
{
    char path[128], err[1024], expected[256];
    snprintf(path, sizeof path, "%s/%s", cache, name);
    write_file(path, text);
    fem_analysis_t a;
    assert_int_not_equal(fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err), 0);
    snprintf(expected, sizeof expected, "%s:%s", path, want);
    if (strcmp(err, expected) != 0)
        fail_msg("%s:\n  got  %s\n  want %s", name, err, expected);
}

/* Broken files are refused with `file:line: what` (a structural check runs before gmsh, which says where few of
 * its errors are). */
static void test_bad_files_are_refused_with_their_path(void **state)
{
    (void)state;
    char path[128], err[1024];
    fem_analysis_t a;
    snprintf(path, sizeof path, "%s/none.msh", cache);
    assert_int_not_equal(fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err), 0);
    assert_non_null(strstr(err, "none.msh: no such mesh file"));
    const char *head = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
    char text[512];
    snprintf(text, sizeof text, "%s$Nodes\n2\n1 0 0 0\n", head);
    expect_refused("cut.msh", text, "6: the file ends inside $Nodes (expected a node: tag x y z)");
    snprintf(text, sizeof text, "%s$Nodes\n2\n1 0 0 0\n2 1 x 0\n$EndNodes\n", head);
    expect_refused("letter.msh", text, "7: expected a node: tag x y z");
    snprintf(text, sizeof text, "%s$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n1 2 0 1 1\n$EndElements\n", head);
    expect_refused("short.msh", text, "10: an element of type 2 has 3 nodes: expected 6 fields, found 5");
    snprintf(text, sizeof text, "%s$Nodes\n0\n$EndElements\n", head);
    expect_refused("pairing.msh", text, "6: expected $EndNodes");
    expect_refused("garbage.msh", "garbage\n", "1: not a gmsh mesh: it must start with $MeshFormat on its first line");
    expect_refused("version.msh", "$MeshFormat\n9.9 0 8\n$EndMeshFormat\n",
                   "2: MSH version 9.9: gmsh files of version 2 or 4 are read");
    expect_refused("v4.msh", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n2 1 0 2\n1\n2\n0 0 0\n$EndNodes\n",
                   "10: expected a node's coordinates: x y z, found $EndNodes: fewer lines than $Nodes's counts say");
    snprintf(text, sizeof text, "%s$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n1 15 0 9\n$EndElements\n", head);
    expect_refused("undefined.msh", text, "10: an element names node 9, which $Nodes does not define");
    /* well formed, but lines only: nothing to partition */
    snprintf(path, sizeof path, "%s/lines.msh", cache);
    write_file(path, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n2 1 0 0\n$EndNodes\n$Elements\n1\n"
                     "1 1 2 1 1 1 2\n$EndElements\n");
    assert_int_not_equal(fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err), 0);
    assert_non_null(strstr(err, "no triangles"));
}

/* A binary mesh built byte by byte, as gmsh writes one on a little-endian host. */
typedef struct bytes {
    char b[2048];
    size_t n;
} bytes_t;

static void put(bytes_t *o, const void *p, size_t n)
{
    assert_true(o->n + n <= sizeof o->b);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void put_text(bytes_t *o, const char *t) { put(o, t, strlen(t)); }
static void put_i32(bytes_t *o, int32_t v) { put(o, &v, 4); }
static void put_u64(bytes_t *o, uint64_t v) { put(o, &v, 8); }
static void put_f64(bytes_t *o, double v) { put(o, &v, 8); }

static const double square_xy[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}};
static const int32_t square_tris[4][3] = {{1, 2, 5}, {2, 3, 5}, {3, 4, 5}, {4, 1, 5}};

/* The square of test_a_users_msh_file_is_read in binary MSH 2.2; `tags` is the element block's tag count. */
static void square_bin22(bytes_t *o, int32_t tags)
{
    o->n = 0;
    put_text(o, "$MeshFormat\n2.2 1 8\n");
    put_i32(o, 1);
    put_text(o, "\n$EndMeshFormat\n$Nodes\n5\n");
    for (int32_t i = 0; i < 5; i++) {
        put_i32(o, i + 1);
        put_f64(o, square_xy[i][0]);
        put_f64(o, square_xy[i][1]);
        put_f64(o, 0);
    }
    put_text(o, "\n$EndNodes\n$Elements\n4\n");
    put_i32(o, 2); /* triangles */
    put_i32(o, 4);
    put_i32(o, tags);
    for (int32_t e = 0; e < 4; e++) {
        put_i32(o, e + 1);
        put_i32(o, 1); /* physical */
        put_i32(o, 1); /* elementary */
        for (int k = 0; k < 3; k++)
            put_i32(o, square_tris[e][k]);
    }
    put_text(o, "\n$EndElements\n");
}

/* The same in binary MSH 4.1, with the surface it lies on in $Entities; `per_block` the element count. */
static void square_bin41(bytes_t *o, uint64_t per_block)
{
    o->n = 0;
    put_text(o, "$MeshFormat\n4.1 1 8\n");
    put_i32(o, 1);
    put_text(o, "\n$EndMeshFormat\n$Entities\n");
    put_u64(o, 0), put_u64(o, 0), put_u64(o, 1), put_u64(o, 0);
    put_i32(o, 1);
    for (int k = 0; k < 6; k++)
        put_f64(o, k < 3 ? 0 : 1);
    put_u64(o, 0); /* physical tags */
    put_u64(o, 0); /* bounding curves */
    put_text(o, "\n$EndEntities\n$Nodes\n");
    put_u64(o, 1), put_u64(o, 5), put_u64(o, 1), put_u64(o, 5);
    put_i32(o, 2), put_i32(o, 1), put_i32(o, 0), put_u64(o, 5);
    for (uint64_t i = 0; i < 5; i++)
        put_u64(o, i + 1);
    for (int i = 0; i < 5; i++)
        put_f64(o, square_xy[i][0]), put_f64(o, square_xy[i][1]), put_f64(o, 0);
    put_text(o, "\n$EndNodes\n$Elements\n");
    put_u64(o, 1), put_u64(o, 4), put_u64(o, 1), put_u64(o, 4);
    put_i32(o, 2), put_i32(o, 1), put_i32(o, 2), put_u64(o, per_block);
    for (int e = 0; e < 4; e++) {
        put_u64(o, (uint64_t)e + 1);
        for (int k = 0; k < 3; k++)
            put_u64(o, (uint64_t)square_tris[e][k]);
    }
    put_text(o, "\n$EndElements\n");
}

static void write_bytes(const char *name, const bytes_t *o, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", cache, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(o->b, 1, o->n, f), o->n);
    fclose(f);
}

static void expect_bytes_refused(const char *name, const bytes_t *o, const char *want)
{
    char path[128], err[1024];
    write_bytes(name, o, path, sizeof path);
    fem_analysis_t a;
    assert_int_not_equal(fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err), 0);
    if (strstr(err, want) == NULL || strncmp(err, path, strlen(path)) != 0)
        fail_msg("%s:\n  got  %s\n  want %s: ... %s", name, err, path, want);
}

/* Binary meshes are read as their ASCII twins; each count gmsh would size an allocation by is checked against the
 * bytes that follow it first (a 1 kB file whose tag count said 2^29 made gmsh ask for 2 GB). */
static void test_binary_meshes_are_read_and_their_counts_checked(void **state)
{
    (void)state;
    char path[128], err[1024];
    bytes_t o;
    for (int v = 0; v < 2; v++) {
        if (v == 0)
            square_bin22(&o, 2);
        else
            square_bin41(&o, 4);
        write_bytes(v == 0 ? "square22.msh" : "square41.msh", &o, path, sizeof path);
        fem_analysis_t a;
        if (fem_analyse(path, 2, 1, FEM_METIS, cache, &a, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(a.mesh.nelems, 4);
        assert_int_equal(a.mesh.nnodes, 5);
        assert_true(a.part.words[1] == a.part.words[2]);
        fem_analysis_free(&a);
    }
    square_bin22(&o, 1 << 29);
    expect_bytes_refused("tags.msh", &o, ":11: byte 212 in $Elements: 536870912 tags per element: 0 to 64");
    square_bin22(&o, 60);
    expect_bytes_refused("past.msh", &o, "in $Elements: 4 elements of 256 bytes each run past the end of the file");
    square_bin41(&o, 1ull << 60);
    expect_bytes_refused("block.msh", &o, "a block of 1152921504606846976 elements, where 4 of the 4 are left");
    square_bin41(&o, 3);
    expect_bytes_refused("fewer.msh", &o, "in $Elements: the header says 4 elements but its blocks hold 3");
    square_bin41(&o, 4);
    uint64_t far = (1ull << 32) - 2; /* read as an int by gmsh: -2, below its table of nodes */
    memcpy(o.b + o.n - strlen("\n$EndElements\n") - 8, &far, 8);
    expect_bytes_refused("far.msh", &o, "an element names node 4294967294: node tags are 1 to 2147483647");
    square_bin41(&o, 4);
    o.n = 140; /* inside the surface's count of physical tags, in $Entities */
    expect_bytes_refused("cut41.msh", &o,
                         "byte 82 in $Entities: 1 entities of dimension 2 cannot fit in the 58 bytes left");
    square_bin22(&o, 2);
    o.b[20] = 0, o.b[23] = 1; /* the integer 1 as a big-endian host writes it */
    expect_bytes_refused("endian.msh", &o, "written on a big-endian host, which iwarp fem does not read");
    square_bin22(&o, 2);
    put_text(&o, "$Periodic\n");
    put_u64(&o, 1ull << 62);
    expect_bytes_refused("periodic.msh", &o, "'$Periodic': iwarp fem reads only $PhysicalNames, $Nodes and $Elements");
    expect_refused("v40.msh", "$MeshFormat\n4 0 8\n$EndMeshFormat\n",
                   "2: MSH 4: save the mesh as 4.1 or 2.2 (gmsh FILE -save -format msh41)");
    expect_refused("polygon.msh",
                   "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n"
                   "1 30 0 2000000000 1\n$EndElements\n",
                   "10: element type 30: iwarp fem reads gmsh's types 1 to 15");
}

/* A corrupt partition in the cache is made again, not believed. */
static void test_a_corrupt_cached_partition_is_made_again(void **state)
{
    (void)state;
    char err[1024], path[128];
    fem_analysis_t a, b;
    assert_int_equal(fem_analyse("g20k", 4, 2, FEM_METIS, cache, &a, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/g20k.v%d.part8", cache, FEM_MESH_RECIPE);
    write_file(path, "iwarp fem partition 1 20000 8\n9\n");
    assert_int_equal(fem_analyse("g20k", 4, 2, FEM_METIS, cache, &b, err, sizeof err), 0);
    assert_int_equal(b.part_made, 1);
    assert_memory_equal(a.part.epart, b.part.epart, a.mesh.nelems * sizeof *a.part.epart);
    fem_analysis_free(&a);
    fem_analysis_free(&b);
}

/* One product on the emulated array in both styles and both codings, every cell's y right bit for bit, on arrays
 * whose sides are and are not powers of two, with 1 and 2 host threads alike; and clock goldens. The paper's coding
 * runs on tables scheduled on one timeline a cell: with two, a segment would pair a send with a receive and its
 * exchange trap (0x4352). */
static void test_the_product_on_the_cells_is_right(void **state)
{
    (void)state;
    static const struct {
        const char *mesh;
        unsigned w, h;
    } cases[] = {{"m11k", 4, 4}, {"g20k", 4, 4}, {"c10k", 5, 3}};
    static const fem_coding_t codings[2] = {FEM_ONE_OP, FEM_LIW};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[1024];
        fem_analysis_t a;
        assert_int_equal(fem_analyse(cases[i].mesh, cases[i].w, cases[i].h, FEM_METIS, cache, &a, err, sizeof err), 0);
        for (unsigned run = 0; run < 4; run++) {
            fem_style_t style = run % 2 ? FEM_MSGPASS : FEM_CONSET;
            fem_coding_t coding = codings[run / 2];
            fem_run_t r1, r2;
            if (fem_kernel_run(&a, cases[i].w, cases[i].h, style, coding, 1, &r1, err, sizeof err) != 0)
                fail_msg("%s: %s", cases[i].mesh, err);
            assert_int_equal(fem_kernel_run(&a, cases[i].w, cases[i].h, style, coding, 2, &r2, err, sizeof err), 0);
            if (r1.wrong != 0)
                fail_msg("%s on %ux%u, style %u, coding %u: %llu entries of y wrong", cases[i].mesh, cases[i].w,
                         cases[i].h, style, coding, (unsigned long long)r1.wrong);
            assert_int_equal(r2.wrong, 0);
            assert_int_equal(r1.total, r2.total);
            assert_int_equal(r1.exchange, r2.exchange);
            assert_true(r1.compute_min <= r1.compute_max && r1.compute_max < r1.total);
            if (i == 0) {
                const char *prog = style == FEM_CONSET ? "fem.s#conset" : "fem_msg.s#msgpass";
                const char *tag = coding == FEM_ONE_OP ? "-one-op" : "";
                char g[96];
                if (coding == FEM_LIW) { /* the local product is the same in both codings */
                    snprintf(g, sizeof g, "programs/fem/%s-m11k-4x4-compute", prog);
                    e2e_check_golden(g, r1.compute_max);
                }
                snprintf(g, sizeof g, "programs/fem/%s%s-m11k-4x4-exchange", prog, tag);
                e2e_check_golden(g, r1.exchange);
            }
        }
        fem_analysis_free(&a);
    }
}

/* The models count the loops the programs run, bypass stalls included (docs/isa.md). The paper's coding, one
 * operation an instruction: ConSet's send 7 clocks a word (index 2, the word into the gate 2 + a stall, the step,
 * the loop), the receive 13 (index 2, the word 2 + 1, the add 2 + 1, the store 2 + 1, the step, the loop), a
 * connection's word at the slower, 13; message passing's copy into the buffer 11 (2, 2 + 1, 2 + 1, two steps, the
 * loop) and the same receive. Ours: the LIW sum loop 11 for a word out and one in, the gather two words in three
 * bundles of 2 (3 a word), the receive 11. */
static void test_the_models_count_the_programs_loops(void **state)
{
    (void)state;
    fem_model_t m;
    char err[512];
    assert_int_equal(fem_model_loops(FEM_ONE_OP, &m, err, sizeof err), 0);
    assert_true(m.send == 7.0 && m.receive == 13.0 && m.conset_b == 13.0);
    assert_true(m.gather_a == 11.0 && m.receive_a == 13.0);
    assert_int_equal(fem_model_loops(FEM_LIW, &m, err, sizeof err), 0);
    assert_true(m.conset_b == 11.0 && m.send == 0 && m.receive == 0);
    assert_true(m.gather_a == 3.0 && m.receive_a == 11.0);
}

/* The ConSet model schedules the phases as the coding's run does: on one timeline a cell the paper's coding's
 * sends wait for its receives, so its AS clocks are more than ours's at two timelines; goldens pin both models. */
static void test_the_conset_model_schedules_as_the_run(void **state)
{
    (void)state;
    char err[1024];
    fem_analysis_t a;
    assert_int_equal(fem_analyse("m11k", 4, 4, FEM_METIS, cache, &a, err, sizeof err), 0);
    double pred[2], words[2];
    for (unsigned k = 0; k < 2; k++) {
        fem_model_t m;
        assert_int_equal(fem_model_loops(k == 0 ? FEM_ONE_OP : FEM_LIW, &m, err, sizeof err), 0);
        assert_int_equal(fem_predict_conset(&a, &m, &pred[k], err, sizeof err), 0);
        words[k] = (pred[k] - a.phases * (double)MODEL_PER_PHASE) / m.conset_b; /* AS's, a word 1 */
        assert_true(words[k] == (double)(uint64_t)words[k]);
        e2e_check_golden(k == 0 ? "fem-model-conset-one-op-m11k-4x4-words" : "fem-model-conset-liw-m11k-4x4-words",
                         (uint64_t)words[k]);
    }
    assert_true(words[0] > words[1]);
    fem_analysis_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_built_in_mesh_is_made_once_and_the_same_every_time),
        cmocka_unit_test(test_the_pattern_is_the_shared_nodes),
        cmocka_unit_test(test_a_users_msh_file_is_read),
        cmocka_unit_test(test_binary_meshes_are_read_and_their_counts_checked),
        cmocka_unit_test(test_bad_files_are_refused_with_their_path),
        cmocka_unit_test(test_a_corrupt_cached_partition_is_made_again),
        cmocka_unit_test(test_the_product_on_the_cells_is_right),
        cmocka_unit_test(test_the_models_count_the_programs_loops),
        cmocka_unit_test(test_the_conset_model_schedules_as_the_run),
    };
    return cmocka_run_group_tests(tests, make_cache, remove_cache);
}
