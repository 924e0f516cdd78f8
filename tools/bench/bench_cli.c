/* The command line of `iwarp bench` and the suite it chooses from: every option checked and every bench named
 * found before anything runs or a folder is made. */
#include "bench_cli.h"

#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "emu.h"
#include "fem_partition.h"

static const bench_t suite[] = {
    {"patterns", bench_patterns, "the ConSet paper's torus, butterfly and all-to-all under ConSet and message passing"},
    {"logp", bench_logp, "LogGP microbenchmarks of message passing: EEL, o_s, o_r, g, G, g/G"},
    {"speed", bench_speed, "emulated bundles (instructions) and cell-clocks per host second"},
    {"traffic", bench_traffic, "network-only clocks per host second: 8x8 uniform traffic from host-side generators"},
    {"caching", bench_caching, "address relation caching: break-even and assembly speedup by n_g, beside the model; HPF array assignments"},
    {"fem", bench_fem, "the finite element meshes (gmsh), partitions (METIS and RCB), patterns and phases: the ConSet paper's Table 4"},
    {"collectives", bench_collectives, "buffered collectives (trees, rings, pipelined broadcast, buffered send): naive, chunked, ConSet"},
    {"copy", bench_copy, "the copy-transfer model's basic transfers on iWarp (local copies, sends, receives, network), by stride"},
};
_Static_assert(sizeof suite / sizeof suite[0] == BENCH_COUNT, "BENCH_COUNT must count the suite's benches");
const bench_t *const bench_suite = suite;

void bench_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp bench [--json | --csv] [--quick] [--out DIR] [--threads N] [--partitioner P]\n"
            "                   [--mesh FILE]... [--booksim PATH] [BENCH...]\n"
            "Runs the named benches (default: all) and prints their report.\n"
            "  --json      one JSON document with a record per measured case, on stdout\n"
            "  --csv       the same records as one CSV table (a column per field), on stdout\n"
            "  --quick     smaller runs (for tests and a first look)\n"
            "  --out DIR   where each report's folder goes (default: out/bench): DATE-ID/ with its plots\n"
            "              and results.csv, and DIR/latest pointing at the newest\n"
            "  --threads N host threads for the emulated runs (default 1; results do not change)\n"
            "  --jobs N    emulated runs at once where a bench has independent ones (default: the cores;\n"
            "              results do not change; the speed bench always runs one at a time)\n"
            "  --quiet     no progress lines on a terminal\n"
            "  --partitioner metis|rcb\n"
            "              fem: the partition its products run on (default metis; Table 4 shows both)\n"
            "  --mesh FILE fem on this mesh instead of the paper's four, without the paper's figures: a gmsh\n"
            "              .msh, or a .geo that gmsh meshes, as iwarp fem reads them (64 elements or more for\n"
            "              the 8x8 array; a built-in name runs that mesh beside the paper); again for more\n"
            "              meshes (up to %d). Only fem takes it: alone, it runs fem only; with benches\n"
            "              named, fem must be one. The files are read before any bench runs\n"
            "  --booksim PATH\n"
            "              traffic: runs this BookSim 2 binary (no shell; not searched in $PATH) on each point\n"
            "              and prints its cycles per host second and the ratio beside iwarp's clocks per\n"
            "              second (docs/traffic.md, \"Speed\", shows the config). Only traffic takes it:\n"
            "              alone, it runs traffic only; with benches named, traffic must be one\n"
            "Ctrl-C stops the bench inside the case being run: the cases that ended are reported; status 130.\n"
            "benches:\n",
            BENCH_FEM_MAX_MESHES);
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        fprintf(out, "  %-10s %s\n", bench_suite[i].name, bench_suite[i].summary);
}

/* A whole number lo..hi, as every command takes counts (emu_parse_count: no sign, no blanks). */
static int count_in(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *v)
{
    uint64_t n;
    if (emu_parse_count(s, &n) != 0 || n < lo || n > hi) {
        fprintf(stderr, "iwarp bench: %s wants %u..%u, not '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *v = (unsigned)n;
    return 0;
}

/* The place in the suite of a bench that is there. */
static unsigned bench_index(const char *name)
{
    unsigned i = 0;
    while (strcmp(bench_suite[i].name, name) != 0)
        i++;
    return i;
}

/* One more --mesh FILE: the records, tables and plots name a mesh by its file's name, so two must differ in it. */
static int add_mesh(bench_cli_t *o, const char *file)
{
    const char *name = bench_fem_mesh_name(file);
    if (name[0] == '\0') {
        fprintf(stderr, "iwarp bench: --mesh wants a mesh file, not '%s'\n", file);
        return -1;
    }
    if (o->fem_nmeshes == BENCH_FEM_MAX_MESHES) {
        fprintf(stderr, "iwarp bench: --mesh at most %d times (the plot of words per connection has a series a mesh)\n",
                BENCH_FEM_MAX_MESHES);
        return -1;
    }
    for (unsigned i = 0; i < o->fem_nmeshes; i++)
        if (strcmp(bench_fem_mesh_name(o->fem_meshes[i]), name) == 0) {
            fprintf(stderr,
                    "iwarp bench: --mesh %s and --mesh %s: both would be %s in the report, which names a mesh "
                    "by its file's name\n",
                    o->fem_meshes[i], file, name);
            return -1;
        }
    o->fem_meshes[o->fem_nmeshes++] = file;
    return 0;
}

int bench_cli_parse(int argc, char **argv, bench_cli_t *o)
{
    enum {
        OPT_JSON = 256,
        OPT_CSV,
        OPT_QUICK,
        OPT_OUT,
        OPT_HELP,
        OPT_THREADS,
        OPT_QUIET,
        OPT_JOBS,
        OPT_PARTITIONER,
        OPT_MESH,
        OPT_BOOKSIM
    };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"csv", no_argument, NULL, OPT_CSV},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"out", required_argument, NULL, OPT_OUT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"partitioner", required_argument, NULL, OPT_PARTITIONER},
        {"mesh", required_argument, NULL, OPT_MESH},
        {"booksim", required_argument, NULL, OPT_BOOKSIM},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (bench_cli_t){.out_dir = "out/bench", .threads = 1,
                       .jobs = cores < 1 ? 1u : cores > BENCH_MAX_JOBS ? BENCH_MAX_JOBS : (unsigned)cores};
    cli_opts_t cli;
    cli_opts_start(&cli, "bench", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case OPT_JSON:
        case OPT_CSV: {
            bench_format_t f = c == OPT_JSON ? BENCH_JSON : BENCH_CSV;
            if (o->format != BENCH_TEXT && o->format != f) {
                fprintf(stderr, "iwarp bench: --json or --csv, not both\n");
                return -1;
            }
            o->format = f;
            break;
        }
        case OPT_QUICK: o->quick = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_OUT: o->out_dir = optarg; break;
        case OPT_JOBS:
            if (count_in("--jobs", optarg, 1, BENCH_MAX_JOBS, &o->jobs) != 0)
                return -1;
            break;
        case OPT_THREADS:
            if (count_in("--threads", optarg, 1, 256, &o->threads) != 0)
                return -1;
            break;
        case OPT_PARTITIONER: {
            fem_partitioner_t how;
            if (fem_partitioner_parse(optarg, &how) != 0) {
                fprintf(stderr, "iwarp bench: --partitioner wants metis or rcb, not '%s'\n", optarg);
                return -1;
            }
            o->fem_partitioner = (unsigned)how;
            break;
        }
        case OPT_MESH:
            if (add_mesh(o, optarg) != 0)
                return -1;
            break;
        case OPT_BOOKSIM: o->booksim = optarg; break;
        case OPT_HELP:
        case 'h': bench_cli_usage(stdout); return 1;
        default: bench_cli_usage(stderr); return -1;
        }
    }
    /* --mesh is fem's and --booksim traffic's: alone, each runs its bench only (the suite would take its hours for
     * benches the option does not concern); beside named benches, its bench must be one of them. */
    bool only = o->fem_nmeshes > 0 || o->booksim != NULL;
    for (unsigned i = 0; i < BENCH_COUNT; i++)
        o->selected[i] = optind == argc && (!only || (o->fem_nmeshes > 0 && i == bench_index("fem")) ||
                                            (o->booksim != NULL && i == bench_index("traffic")));
    for (int k = optind; k < argc; k++) {
        unsigned i = 0;
        while (i < BENCH_COUNT && strcmp(bench_suite[i].name, argv[k]) != 0)
            i++;
        if (i == BENCH_COUNT) {
            fprintf(stderr, "iwarp bench: no bench named '%s'\n", argv[k]);
            bench_cli_usage(stderr);
            return -1;
        }
        o->selected[i] = true;
    }
    if (o->fem_nmeshes > 0 && optind < argc && !o->selected[bench_index("fem")]) {
        fprintf(stderr, "iwarp bench: --mesh is for the fem bench, which is not among the benches named: name fem "
                        "too, or no bench (--mesh alone runs fem)\n");
        return -1;
    }
    if (o->booksim != NULL && optind < argc && !o->selected[bench_index("traffic")]) {
        fprintf(stderr, "iwarp bench: --booksim is for the traffic bench, which is not among the benches named: "
                        "name traffic too, or no bench (--booksim alone runs traffic)\n");
        return -1;
    }
    return 0;
}
