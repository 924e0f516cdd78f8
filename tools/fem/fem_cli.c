/* The command line of `iwarp fem`: every option checked before a mesh is made, read or partitioned. */
#include "fem_cli.h"

#include "cli_opts.h"
#include "emu.h"

void fem_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp fem MESH [options]\n"
            "  MESH: m11k, c10k, c100k, g20k (the ConSet paper's meshes, made by gmsh with fixed seeds and\n"
            "        cached), or a gmsh file (.msh, or a .geo that gmsh meshes)\n"
            "  --array WxH     cells, one part each (default 8x8)\n"
            "  --cache DIR     where meshes and partitions are kept (default out/fem/cache)\n"
            "  --cset FILE     write the pattern as a connection set (for iwarp route)\n"
            "  --run           also run one product y = A x on the emulated array, y checked on every cell\n"
            "  --msgpass       the exchange by message passing (runtime/msg.s) instead of ConSet\n"
            "  --liw           the exchange's loops in LIW bundles (ours) instead of the paper's, one operation\n"
            "                  an instruction on one timeline a cell\n"
            "  --threads N     host threads for that run (results do not depend on it)\n"
            "  --json          the figures as one JSON object\n"
            "  --partitioner P metis (default: METIS_PartMeshDual) or rcb (recursive coordinate bisection of\n"
            "                  the elements' centroids)\n"
            "Prints the paper's Table 4 for the mesh: elements, nodes, elements a cell, words a cell sends and\n"
            "receives, the largest in/out-degree, logical channels and the communication compiler's phases; for\n"
            "the paper's meshes in 64 parts, the distance to its figures.\n");
}

int fem_cli_parse(int argc, char **argv, fem_cli_t *o)
{
    enum { OPT_ARRAY = 256, OPT_CACHE, OPT_CSET, OPT_RUN, OPT_MSGPASS, OPT_LIW, OPT_THREADS, OPT_JSON, OPT_PARTITIONER, OPT_HELP };
    static const struct option longopts[] = {
        {"array", required_argument, NULL, OPT_ARRAY}, {"cache", required_argument, NULL, OPT_CACHE},
        {"cset", required_argument, NULL, OPT_CSET},   {"json", no_argument, NULL, OPT_JSON},
        {"run", no_argument, NULL, OPT_RUN},           {"threads", required_argument, NULL, OPT_THREADS},
        {"msgpass", no_argument, NULL, OPT_MSGPASS},   {"partitioner", required_argument, NULL, OPT_PARTITIONER},
        {"liw", no_argument, NULL, OPT_LIW},           {"help", no_argument, NULL, OPT_HELP},         {NULL, 0, NULL, 0},
    };
    unsigned w = 8, h = 8;
    const char *cache = "out/fem/cache", *cset_path = NULL;
    bool json = false, run = false, msgpass = false, liw = false;
    unsigned threads = 1;
    fem_partitioner_t how = FEM_METIS;
    cli_opts_t cli;
    cli_opts_start(&cli, "fem", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case OPT_ARRAY:
            if (emu_parse_array_size(optarg, &w, &h) != 0 || w * h < 2) {
                fprintf(stderr, "iwarp fem: bad value '%s' for --array (WxH, sides 1 to %d, 2 cells or more)\n",
                        optarg, EMU_MAX_DIM);
                return -1;
            }
            break;
        case OPT_CACHE: cache = optarg; break;
        case OPT_CSET: cset_path = optarg; break;
        case OPT_JSON: json = true; break;
        case OPT_RUN: run = true; break;
        case OPT_MSGPASS: msgpass = true; break;
        case OPT_LIW: liw = true; break;
        case OPT_THREADS: {
            uint64_t n;
            if (emu_parse_count(optarg, &n) != 0 || n < 1 || n > 64) {
                fprintf(stderr, "iwarp fem: bad value '%s' for --threads (1 to 64)\n", optarg);
                return -1;
            }
            threads = (unsigned)n;
            break;
        }
        case OPT_PARTITIONER:
            if (fem_partitioner_parse(optarg, &how) != 0) {
                fprintf(stderr, "iwarp fem: bad value '%s' for --partitioner (metis or rcb)\n", optarg);
                return -1;
            }
            break;
        case OPT_HELP:
        case 'h': fem_cli_usage(stdout); return 1;
        default: fem_cli_usage(stderr); return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "iwarp fem: one MESH expected\n");
        fem_cli_usage(stderr);
        return -1;
    }
    if ((msgpass || liw) && !run) {
        fprintf(stderr, "iwarp fem: --%s chooses how --run exchanges: give --run too\n", msgpass ? "msgpass" : "liw");
        return -1;
    }
    *o = (fem_cli_t){.width = w, .height = h, .threads = threads, .cache = cache, .cset_path = cset_path,
                     .mesh = argv[optind], .json = json, .run = run, .msgpass = msgpass, .liw = liw, .how = how};
    return 0;
}
