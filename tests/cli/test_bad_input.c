/* Bad input as a person hands it over: a folder, a FIFO, an empty file or a device where a file is expected; a
 * full disk under an output; damaged snapshots and recordings; an array larger than the host. Each is refused
 * with a message that names it and the status --help promises, and no output is left half-written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"

static const char *iwarp;
static char dir[] = "/tmp/iwarp-bad-XXXXXX";

static void expect(const char *args, int status, const char *text)
{
    char cmd[4096], *out;
    snprintf(cmd, sizeof cmd, "{ '%s' %s; } 2>&1", iwarp, args); /* args may send stdout elsewhere */
    int st = command_run(cmd, &out);
    if (st != status || strstr(out, text) == NULL)
        fail_msg("iwarp %s: status %d (wanted %d), output:\n%s\n(wanted it to contain: %s)", args, st, status, out,
                 text);
    free(out);
}

static const char *at(const char *name)
{
    static char path[16][512]; /* the paths one test keeps alive at once */
    static unsigned next;
    char *p = path[next++ % 16];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Copies the first n bytes of src to dst (all when n is SIZE_MAX) and flips byte `flip` (none when SIZE_MAX). */
static void damaged_copy(const char *src, const char *dst, size_t n, size_t flip)
{
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    uint8_t *buf = malloc(64u << 20);
    assert_non_null(buf);
    size_t len = fread(buf, 1, 64u << 20, f);
    fclose(f);
    if (n < len)
        len = n;
    if (flip < len)
        buf[flip] ^= 0x55;
    write_bytes(dst, buf, len);
    free(buf);
}

/* Copies a whole file (a test's input). */
static void copy_file(const char *src, const char *dst)
{
    damaged_copy(src, dst, SIZE_MAX, SIZE_MAX);
}

/* The command is refused (status 2, naming the input it would overwrite) and the input keeps its bytes. */
static void expect_input_kept(const char *args, const char *input)
{
    char before[600], after[1300];
    snprintf(before, sizeof before, "%s.before", input);
    copy_file(input, before);
    expect(args, 2, "it would be overwritten");
    snprintf(after, sizeof after, "cmp -s '%s' '%s'", input, before);
    char *out;
    if (command_run(after, &out) != 0)
        fail_msg("iwarp %s changed %s", args, input);
    free(out);
    unlink(before);
}

/* An output named like one of the command's inputs (the same file under any name) is refused before anything runs:
 * the list, each once. */
static void test_no_output_is_written_over_an_input(void **state)
{
    (void)state;
    char args[2048];
    const char *src = at("compute.s"), *inc = at("compute.inc"), *desc = at("pathway.run"), *prog = at("pathway.s");
    const char *set = at("set.cset"), *rec = at("rec.iwt"), *mesh = at("square.msh"), *sweep = at("demo.sweep");
    const char *link = at("link.img");
    copy_file("programs/bench/compute.s", src);
    copy_file("programs/bench/compute.inc", inc);
    copy_file("programs/net/pathway.run", desc);
    copy_file("programs/net/pathway.s", prog);
    copy_file("fuzz/corpus/cset/ring.cset", set);
    copy_file("fuzz/corpus/gmsh_read/square_ascii41", mesh);
    copy_file("fuzz/corpus/sweep/demo.sweep", sweep);
    assert_int_equal(symlink(src, link), 0);

    snprintf(args, sizeof args, "asm %s -o %s", src, src);
    expect_input_kept(args, src);
    snprintf(args, sizeof args, "asm %s -o %s", src, inc); /* an included file */
    expect_input_kept(args, inc);
    snprintf(args, sizeof args, "asm %s -o %s", src, link); /* another name of it */
    expect_input_kept(args, src);
    snprintf(args, sizeof args, "route %s -o %s", set, set);
    expect_input_kept(args, set);
    snprintf(args, sizeof args, "run %s --record %s", desc, desc);
    expect_input_kept(args, desc);
    snprintf(args, sizeof args, "run %s --record %s", desc, prog); /* the description's program */
    expect_input_kept(args, prog);
    snprintf(args, sizeof args, "fem %s --cset %s", mesh, mesh);
    expect_input_kept(args, mesh);
    snprintf(args, sizeof args, "sweep %s --results %s", sweep, sweep);
    expect_input_kept(args, sweep);
    snprintf(args, sizeof args, "sweep %s --gather --csv %s", sweep, sweep);
    expect_input_kept(args, sweep);

    snprintf(args, sizeof args, "run programs/bench/compute.s --args 1 --record %s > /dev/null", rec);
    expect(args, 0, "");
    snprintf(args, sizeof args, "view %s --screenshot %s", rec, rec);
    expect_input_kept(args, rec);
    snprintf(args, sizeof args, "view %s --animation %s", rec, rec);
    expect_input_kept(args, rec);
}

/* Two outputs of one command on one file, under one name or two: the second would replace the first. Refused
 * before either is written. */
static void test_two_outputs_of_one_command_on_one_file_are_refused(void **state)
{
    (void)state;
    char args[2048];
    const char *set = at("both.cset");
    snprintf(args, sizeof args, "route --pattern torus --words 32 --cset %s -o %s", set, set);
    expect(args, 2, "name one file");
    assert_int_equal(access(set, F_OK), -1); /* nothing written */
    snprintf(args, sizeof args, "route --pattern torus --words 32 --cset %s -o %s/./both.cset", set, dir);
    expect(args, 2, "name one file");
}

/* A size pair is digits, 'x', digits: no sign (which scanf would wrap to 4294967295), no blank, no plus. */
static void test_a_block_size_takes_digits_only(void **state)
{
    (void)state;
    expect("model coll --block -1x5 --per-message 10 --per-word 1", 2, "bad value '-1x5' for --block (MxN, each 1 to ");
    expect("model coll --block 2x+2 --per-message 10 --per-word 1", 2, "bad value '2x+2' for --block");
    expect("coll --block ' 2x4'", 2, "bad value ' 2x4' for --block (MxN, each 1 to ");
}

/* A file far larger than any of its kind can be is refused from its size, before it is read: a sparse gigabyte
 * reads no byte. A cell data file whose cells all point at one blob is refused from the total before any cell's
 * copy is made. */
static void test_oversized_inputs_are_refused_before_reading(void **state)
{
    (void)state;
    char args[1024];
    static const struct {
        const char *name, *before, *after; /* the command: before PATH after */
    } kinds[] = {{"big.img", "run", ""},
                 {"big.cset", "route", ""},
                 {"big.machine", "run programs/bench/compute.s --machine", ""},
                 {"big.sweep", "sweep", "--list"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *path = at(kinds[i].name);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(truncate(path, 1l << 30), 0);
        snprintf(args, sizeof args, "%s %s %s", kinds[i].before, path, kinds[i].after);
        expect(args, 2, "larger than");
        unlink(path);
    }
    /* 32x32 cells, each pointing at the same 260 KB blob: 260 MB once inflated, from a file of 268 KB */
    const char *cdat = at("shared.cdat");
    size_t blob = 260u << 10, n = 32 * 32, len = 16 + 8 * n + blob;
    uint8_t *buf = calloc(1, len);
    assert_non_null(buf);
    memcpy(buf, "IWCDAT01", 8);
    buf[8] = 32;
    buf[12] = 32;
    for (size_t i = 0; i < n; i++) {
        uint32_t off = (uint32_t)(16 + 8 * n), bytes = (uint32_t)blob;
        memcpy(buf + 16 + 8 * i, &off, 4); /* little-endian host, as the test machines are */
        memcpy(buf + 20 + 8 * i, &bytes, 4);
    }
    write_bytes(cdat, buf, len);
    free(buf);
    const char *desc = at("shared.run");
    char text[512];
    snprintf(text, sizeof text,
             "array 32x32\nprogram p %s/programs/bench/compute.s\ncells all p 1\ncelldata %s at 0x40000\n",
             getenv("PWD") ? getenv("PWD") : ".", cdat);
    write_bytes(desc, text, strlen(text));
    snprintf(args, sizeof args, "run %s", desc);
    expect(args, 2, "come to more than");
}

/* Keys that are each in range but not together are refused wherever a machine is read; text_base moves the text. */
static void test_machine_keys_are_checked_together(void **state)
{
    (void)state;
    expect("run programs/bench/compute.s --args 1 --set mem_guard=0x100000", 2,
           "mem_guard 0x100000 leaves nothing of mem_bytes 0x80000");
    expect("traffic --set mem_guard=0x80000", 2, "mem_guard 0x80000 leaves nothing");
    expect("run programs/bench/compute.s --args 1 --set text_base=0x80002", 2, "text_base 0x80002 must be");
    expect("run programs/bench/compute.s --args 1 --set text_base=0x100", 2, "(text 0x100+");
    expect("run programs/bench/compute.s --args 1 --set text_base=0x8000 --json", 0, "\"status\": \"done\"");
    expect("debug programs/bench/compute.s --set text_base=0x8000 -e 'print pc' --batch", 0, "32768 (0x8000) <_start>");
}

/* A sweep whose values repeat would give two cases one key (a row lost, the case rerun at every resume); two sweeps
 * on one results file would both run every missing case. */
static void test_sweeps_refuse_repeated_cases_and_a_second_runner(void **state)
{
    (void)state;
    char args[1024];
    const char *cross = at("cross.sweep"), *zip = at("zip.sweep"), *ok = at("ok.sweep"), *results = at("r.jsonl");
    const char *text1 = "name = d\ncommand = run programs/bench/compute.s --args {n} --json\ncross n = 1, 2, 1\n";
    const char *text2 = "name = d\ncommand = run programs/bench/compute.s --args {a},{b} --json\n"
                        "zip a = 1, 2, 1\nzip b = 3, 4, 3\n";
    const char *text3 = "name = d\ncommand = run programs/bench/compute.s --args {n} --json\ncross n = 1, 2\n";
    write_bytes(cross, text1, strlen(text1));
    write_bytes(zip, text2, strlen(text2));
    write_bytes(ok, text3, strlen(text3));
    snprintf(args, sizeof args, "sweep %s --list", cross);
    expect(args, 2, "cross.sweep:3:17: '1' is already a value of 'n'");
    snprintf(args, sizeof args, "sweep %s --list", zip);
    expect(args, 2, "values 1 and 3 make the same case");
    char lock_path[600];
    snprintf(lock_path, sizeof lock_path, "%s.lock", results);
    int fd = open(lock_path, O_RDWR | O_CREAT, 0644);
    assert_true(fd >= 0);
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    assert_int_equal(fcntl(fd, F_SETLK, &lock), 0); /* as a running sweep holds it */
    snprintf(args, sizeof args, "sweep %s --results %s --quiet", ok, results);
    expect(args, 1, "another sweep is running its cases");
    close(fd);
    expect(args, 0, "");
}

static void test_a_folder_fifo_device_or_empty_file_is_named(void **state)
{
    (void)state;
    char args[1024];
    const char *fifo = at("fifo"), *empty = at("empty.s");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    write_bytes(empty, "", 0);
    snprintf(args, sizeof args, "run %s", dir);
    expect(args, 2, "is a directory");
    snprintf(args, sizeof args, "run %s", fifo);
    expect(args, 2, "fifo: error: cannot open: is not a regular file (a FIFO, device or socket)");
    expect("run /dev/zero", 2, "/dev/zero: error: cannot open: is not a regular file");
    snprintf(args, sizeof args, "run %s", empty);
    expect(args, 2, "empty.s: the program has no instructions");
    snprintf(args, sizeof args, "run programs/bench/compute.s --machine %s", dir);
    expect(args, 2, ": is a directory");
    snprintf(args, sizeof args, "run programs/bench/compute.s --machine %s", fifo);
    expect(args, 2, "fifo: is not a regular file");
    snprintf(args, sizeof args, "run programs/bench/compute.s --machine %s", empty);
    expect(args, 2, "empty.s: an empty file (a machine file has 'key = value' lines)");
    snprintf(args, sizeof args, "route %s", fifo);
    expect(args, 2, "cannot read: is not a regular file");
    snprintf(args, sizeof args, "debug programs/bench/compute.s -x %s", dir);
    expect(args, 2, "cannot read script");
}

/* A machine file line longer than any buffer is one line: its tail is not taken for another `key = value`. */
static void test_a_long_machine_line_is_one_line(void **state)
{
    (void)state;
    const char *path = at("long.machine");
    char text[2048];
    memset(text, ' ', sizeof text);
    memcpy(text, "# ", 2);
    memcpy(text + 600, "width = 7\n", 10);
    write_bytes(path, text, 610);
    char args[1024];
    snprintf(args, sizeof args, "run programs/bench/compute.s --args 3 --machine %s", path);
    expect(args, 0, "on 1x1");
}

static void test_a_full_disk_is_reported_and_fails(void **state)
{
    (void)state;
    expect("asm programs/bench/compute.s -o /dev/full", 1, "cannot write /dev/full: No space left on device");
    expect("run programs/bench/compute.s --args 3 --record /dev/full", 1,
           "--record /dev/full: writing the recording failed: No space left on device");
    expect("route programs/patterns/torus.cset -o /dev/full", 1, "iwarp route: /dev/full: write failed");
    expect("run programs/bench/compute.s --args 3 >/dev/full", 1,
           "iwarp run: writing standard output failed: No space left on device");
    expect("model conset >/dev/full", 1, "iwarp model: writing standard output failed");
}

/* A failed write leaves the file that was there before, not a truncated one. */
static void test_an_output_is_whole_or_untouched(void **state)
{
    (void)state;
    const char *img = at("keep.img");
    write_bytes(img, "old", 3);
    chmod(dir, 0500); /* no temporary file can be made beside it */
    char args[1024];
    snprintf(args, sizeof args, "asm programs/bench/compute.s -o %s", img);
    if (geteuid() != 0) /* root writes anyway */
        expect(args, 1, "cannot write");
    chmod(dir, 0700);
    struct stat st;
    assert_int_equal(stat(img, &st), 0);
    if (geteuid() != 0)
        assert_int_equal(st.st_size, 3);
    expect(args, 0, "");
    assert_int_equal(stat(img, &st), 0);
    assert_true(st.st_size > 3);
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "ls -a %s", dir);
    command_run(cmd, &out);
    assert_null(strstr(out, ".tmp-")); /* nothing left beside it */
    free(out);
}

static void test_damaged_snapshots_are_refused(void **state)
{
    (void)state;
    const char *snap = at("p.snap"), *cut = at("cut.snap"), *bad = at("bad.snap");
    char args[2048];
    snprintf(args, sizeof args, "debug programs/net/pathway.run --batch -e 'continue 300' -e 'snapshot save %s'", snap);
    expect(args, 0, "saved clock 300");
    damaged_copy(snap, cut, 100000, SIZE_MAX);
    damaged_copy(snap, bad, SIZE_MAX, 50000);
    snprintf(args, sizeof args, "debug programs/net/pathway.run --batch -e 'snapshot load %s'", cut);
    expect(args, 1, "cut.snap: truncated snapshot");
    snprintf(args, sizeof args, "debug programs/net/pathway.run --batch -e 'snapshot load %s'", bad);
    expect(args, 1, "bad.snap: damaged snapshot (checksum)");
    snprintf(args, sizeof args, "debug programs/net/pathway.run --batch -e 'snapshot load %s' -e 'print clock'", snap);
    expect(args, 0, "300");
}

static void test_damaged_recordings_play_to_their_last_record_with_a_warning(void **state)
{
    (void)state;
    const char *rec = at("p.iwt"), *cut = at("cut.iwt"), *bad = at("bad.iwt"), *head = at("head.iwt");
    char args[2048];
    snprintf(args, sizeof args, "run programs/net/pathway.run --quiet --record %s", rec);
    expect(args, 0, "");
    struct stat st;
    assert_int_equal(stat(rec, &st), 0);
    size_t size = (size_t)st.st_size;
    damaged_copy(rec, cut, size * 2 / 3, SIZE_MAX);
    damaged_copy(rec, bad, SIZE_MAX, size / 3);
    damaged_copy(rec, head, 20, SIZE_MAX);
    snprintf(args, sizeof args, "view %s --screenshot %s", cut, at("cut.png"));
    expect(args, 1, "cut.iwt: the recording is cut short at byte ");
    snprintf(args, sizeof args, "view %s --screenshot %s", bad, at("bad.png"));
    expect(args, 1, "bad.iwt: the compressed recording is damaged at byte ");
    snprintf(args, sizeof args, "view %s --screenshot %s", head, at("head.png"));
    expect(args, 1, "head.iwt: the recording is empty or cut short before its first keyframe");
    snprintf(args, sizeof args, "view %s --screenshot %s", rec, at("whole.png"));
    expect(args, 0, "");
}

static void test_an_array_larger_than_the_host_is_refused_up_front(void **state)
{
    (void)state;
    /* 32x32 cells of 1 GiB: 1 TiB, more than any machine this runs on has free. */
    expect("run programs/bench/compute.s --array 32x32 --set mem_bytes=1073741824", 2,
           "array 32x32 needs 1024.1 GiB (1024 cells of 1024.0 MiB of memory, plus channels), but this host has");
}

/* A line's books have a bit for each of its slots, 64 at most: a latency that needs more is refused by name. */
static void test_a_hop_latency_beyond_the_links_books_is_refused(void **state)
{
    (void)state;
    expect("run programs/bench/compute.s --array 1x1 --set hop_latency=64", 2,
           "iwarp run: --set hop_latency=64: hop_latency wants a number from 1 to 63, not '64'");
}

/* The soak passes on the cases a seed draws, repeats them for the same seed, and reports what it checked. */
static void test_the_soak_checks_words_and_threads(void **state)
{
    (void)state;
    expect("soak --runs 3 --seed 7 --quiet", 0, "soak: 3 runs, ");
    expect("soak --runs 3 --seed 7", 0, "run    3 ok");
    expect("soak --runs 0", 2, "--runs wants 1..2^64-1, not '0'");
    expect("soak --seed x", 2, "--seed wants 0..2^64-1, not 'x'");
    char *a, *b, cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' soak --runs 2 --seed 11 | grep '^run'", iwarp);
    assert_int_equal(command_run(cmd, &a), 0);
    assert_int_equal(command_run(cmd, &b), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, " words  iwarp run programs/net/"));
    free(a);
    free(b);
    /* Ctrl-C lets the case finish and prints the summary so far. */
    snprintf(cmd, sizeof cmd, "timeout --preserve-status -s INT 2 '%s' soak --seconds 600 --quiet 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &a), 130);
    assert_non_null(strstr(a, ", interrupted"));
    free(a);
}

/* A unit square in gmsh's .geo language, meshed by gmsh into about 240 triangles; `extra` follows it. */
static const char *write_geo(const char *name, const char *extra)
{
    const char *path = at(name);
    char text[2048];
    snprintf(text, sizeof text,
             "Point(1) = {0, 0, 0, 0.1}; Point(2) = {1, 0, 0, 0.1}; Point(3) = {1, 1, 0, 0.1};\n"
             "Point(4) = {0, 1, 0, 0.1};\n"
             "Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};\n"
             "Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};\n%s",
             extra);
    write_bytes(path, text, strlen(text));
    return path;
}

/* A .geo file is a program: a command that runs a program, exits, writes or reads another file is refused by
 * line and column before gmsh sees the file, wherever it stands (a comment too: gmsh's skipping of a block that
 * does not run reads comments differently from its parser). The file itself still meshes. */
static void test_a_geo_file_that_runs_commands_or_exits_is_refused_by_line(void **state)
{
    (void)state;
    char args[2048], extra[600];
    const char *made = at("made-by-geo");
    snprintf(extra, sizeof extra, "SystemCall \"touch %s\";\n", made);
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("sys.geo", extra));
    expect(args, 1, "sys.geo:5:1: 'SystemCall' runs a shell command: iwarp refuses it in a .geo file");
    struct stat st;
    assert_int_not_equal(stat(made, &st), 0);
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("exit.geo", "x = 1;\n  Exit;\n"));
    expect(args, 1, "exit.geo:6:3: 'Exit' exits the process");
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("number.geo", "x = 1e5Exit;\n"));
    expect(args, 1, "number.geo:5:8: 'Exit' exits the process");
    snprintf(args, sizeof args, "fem %s --array 2x2",
             write_geo("hidden.geo", "/* If (0) */ // \nInclude \"o.geo\";\n"));
    expect(args, 1, "hidden.geo:6:1: 'Include' reads another file, which is not checked");
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("abort.geo", "General.AbortOnError = 4;\n"));
    expect(args, 1, "abort.geo:5:1: 'General' sets gmsh's general options");
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("ok.geo", "// a plain square\n"));
    expect(args, 0, "mesh made by gmsh from the .geo, partition into 4");
    write_bytes(at("mesh.txt"), "SystemCall \"true\";\n", 20);
    snprintf(args, sizeof args, "fem %s --array 2x2", at("mesh.txt"));
    expect(args, 1, "mesh.txt: not a .msh or .geo file");
}

/* A .geo file that does not end stops at the CPU limit (set small here), with the file and the limit named. */
static void test_a_geo_file_that_does_not_end_stops_at_the_cpu_limit(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("loop.geo", "For i In {1:1e15}\nEndFor\n"));
    setenv("IWARP_GMSH_CPU_SECONDS", "2", 1);
    expect(args, 1, "loop.geo: gmsh took more than 2 s of CPU (the limit, IWARP_GMSH_CPU_SECONDS)");
    setenv("IWARP_GMSH_CPU_SECONDS", "0", 1);
    expect(args, 1, "IWARP_GMSH_CPU_SECONDS=0: wants a whole number from 1 to 86400");
    unsetenv("IWARP_GMSH_CPU_SECONDS");
    setenv("IWARP_GMSH_WALL_SECONDS", "1", 1);
    snprintf(args, sizeof args, "fem %s --array 2x2", write_geo("sleep.geo", "Sleep 30;\n"));
    expect(args, 1, "sleep.geo: gmsh took more than 1 s (wall clock; the limit, IWARP_GMSH_WALL_SECONDS)");
    unsetenv("IWARP_GMSH_WALL_SECONDS");
}

/* A .msh node tag past what a long holds is refused by line (2^64 - 1 wrapped the reader's array size to 0 and
 * it read past the heap); a large tag that is one (1e9) costs what the mesh costs, not a 4 GB array by tag: under
 * a 3 GB address space it reads. */
static void test_a_msh_file_with_a_huge_node_tag_is_refused_or_read_cheaply(void **state)
{
    (void)state;
    static const char head[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n";
    char text[1024], args[2048];
    snprintf(text, sizeof text,
             "%s18446744073709551615 0 1 0\n$EndNodes\n$Elements\n2\n1 2 0 1 2 3\n"
             "2 2 0 1 3 18446744073709551615\n$EndElements\n",
             head);
    write_bytes(at("huge.msh"), text, strlen(text));
    snprintf(args, sizeof args, "fem %s --array 1x2", at("huge.msh"));
    expect(args, 1, "huge.msh:9: a node tag must be a whole number from 1 to 2147483647");
    snprintf(text, sizeof text,
             "%s1000000000 0 1 0\n$EndNodes\n$Elements\n2\n1 2 0 1 2 3\n"
             "2 2 0 1 3 1000000000\n$EndElements\n",
             head);
    write_bytes(at("big.msh"), text, strlen(text));
    char cmd[2048], *out;
    /* 3 GB of address space would not hold the 4 GB array of tags the old reader made. A sanitizer build reserves
     * terabytes of address space for its shadow memory, so there the read runs without the limit. */
#if defined(__SANITIZE_ADDRESS__)
    const char *limit = "";
#else
    const char *limit = "ulimit -v 3000000; ";
#endif
    snprintf(cmd, sizeof cmd, "%s'%s' fem %s --array 1x2 2>&1", limit, iwarp, at("big.msh"));
    int st = command_run(cmd, &out);
    if (st != 0 || strstr(out, "2 elements, 4 nodes") == NULL)
        fail_msg("%s: status %d, output:\n%s", cmd, st, out);
    free(out);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_bad_input IWARP\n");
        return 2;
    }
    iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_folder_fifo_device_or_empty_file_is_named),
        cmocka_unit_test(test_a_long_machine_line_is_one_line),
        cmocka_unit_test(test_a_full_disk_is_reported_and_fails),
        cmocka_unit_test(test_an_output_is_whole_or_untouched),
        cmocka_unit_test(test_damaged_snapshots_are_refused),
        cmocka_unit_test(test_damaged_recordings_play_to_their_last_record_with_a_warning),
        cmocka_unit_test(test_an_array_larger_than_the_host_is_refused_up_front),
        cmocka_unit_test(test_a_hop_latency_beyond_the_links_books_is_refused),
        cmocka_unit_test(test_the_soak_checks_words_and_threads),
        cmocka_unit_test(test_a_geo_file_that_runs_commands_or_exits_is_refused_by_line),
        cmocka_unit_test(test_a_geo_file_that_does_not_end_stops_at_the_cpu_limit),
        cmocka_unit_test(test_a_msh_file_with_a_huge_node_tag_is_refused_or_read_cheaply),
        cmocka_unit_test(test_no_output_is_written_over_an_input),
        cmocka_unit_test(test_two_outputs_of_one_command_on_one_file_are_refused),
        cmocka_unit_test(test_a_block_size_takes_digits_only),
        cmocka_unit_test(test_oversized_inputs_are_refused_before_reading),
        cmocka_unit_test(test_machine_keys_are_checked_together),
        cmocka_unit_test(test_sweeps_refuse_repeated_cases_and_a_second_runner),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
