/* The command line of `iwarp coll`: the pattern, every option against its range, and the case against what the
 * programs can take, before anything runs. */
#include "coll_cli.h"

#include <string.h>

#include "cli_opts.h"
#include "emu.h"

void coll_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp coll PATTERN [options]\n"
            "  PATTERN: bcast, reduce (binomial tree, from or to --root); mbcast-tree, mbcast-ring (spread),\n"
            "           mbcast-pipe (P pipelined broadcasts), mreduce-tree, mreduce-ring (the multi patterns:\n"
            "           P blocks side by side, block r is rank r's); bsend (rank 0 to rank P-1 and back)\n"
            "  --impl I        naive, chunked or conset (default chunked)\n"
            "  --array WxH     the emulated array (default 8x8)\n"
            "  --groups G      rows (1xQ groups, every row at once), columns (Px1), whole (the array as one\n"
            "                  group of W*H ranks, row by row) (default rows)\n"
            "  --block MxN     a block of M rows of N words (fp32) (default 1x1024)\n"
            "  --lda L         words between rows (default the row: N, or P*N for the multi patterns)\n"
            "  --chunk C       words a chunk (chunked; default 1024). Each chunk is a message and pays the\n"
            "                  runtime's costs a message (about 800 clocks): chunks of a few thousand words\n"
            "                  pay best, a quarter of the block or so for trees (docs/collectives.md)\n"
            "  --root R        the root's rank (bcast, reduce; default 0)\n"
            "  --delay D       bsend: clocks the receiver waits before it posts its receive (default 0)\n"
            "  --model         also run one message of the block's size (a broadcast between two\n"
            "                  neighbours) and print the paper's model beside the emulated clocks\n"
            "  --threads N     host threads (results do not depend on it)\n"
            "  --json          one JSON object\n"
            "Prints the clocks from the start barrier to the last cell done, MB/s (what the pattern delivers a\n"
            "cell: the block, or P blocks for the multi patterns, over those clocks at 20 MHz) and whether every\n"
            "word of every cell's matrix, the gaps between rows and the guards around it are what they should be.\n"
            "Exit status: 0 right, 1 a word wrong or the run failed, 2 a bad option or a case the programs\n"
            "cannot take.\n");
}

static int parse_u(const char *opt, const char *s, uint64_t lo, uint64_t hi, unsigned *v)
{
    uint64_t n;
    if (emu_parse_count(s, &n) != 0 || n < lo || n > hi) {
        fprintf(stderr, "iwarp coll: bad value '%s' for --%s (%llu to %llu)\n", s, opt, (unsigned long long)lo,
                (unsigned long long)hi);
        return -1;
    }
    *v = (unsigned)n;
    return 0;
}

static int parse_block(const char *s, unsigned *m, unsigned *n)
{
    unsigned a, b;
    if (emu_parse_pair(s, COLL_MAX_BLOCK_SIDE, &a, &b) != 0) {
        fprintf(stderr, "iwarp coll: bad value '%s' for --block (MxN, each 1 to %u, e.g. 32x64)\n", s,
                COLL_MAX_BLOCK_SIDE);
        return -1;
    }
    *m = a;
    *n = b;
    return 0;
}

int coll_cli_parse(int argc, char **argv, coll_cli_t *o)
{
    enum {
        OPT_IMPL = 256,
        OPT_ARRAY,
        OPT_GROUPS,
        OPT_BLOCK,
        OPT_LDA,
        OPT_CHUNK,
        OPT_ROOT,
        OPT_DELAY,
        OPT_MODEL,
        OPT_THREADS,
        OPT_JSON,
        OPT_HELP
    };
    static const struct option longopts[] = {
        {"impl", required_argument, NULL, OPT_IMPL},
        {"array", required_argument, NULL, OPT_ARRAY},
        {"groups", required_argument, NULL, OPT_GROUPS},
        {"block", required_argument, NULL, OPT_BLOCK},
        {"lda", required_argument, NULL, OPT_LDA},
        {"chunk", required_argument, NULL, OPT_CHUNK},
        {"root", required_argument, NULL, OPT_ROOT},
        {"delay", required_argument, NULL, OPT_DELAY},
        {"model", no_argument, NULL, OPT_MODEL},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    coll_case_t c = {
        .impl = COLL_CHUNKED, .groups = COLL_ROWS, .width = 8, .height = 8, .m = 1, .n = 1024, .chunk = 1024};
    unsigned threads = 1, delay = 0;
    bool json = false, model = false, lda_given = false, root_given = false, chunk_given = false;
    cli_opts_t cli;
    cli_opts_start(&cli, "coll", argc, argv, "h", longopts);
    int opt;
    while ((opt = cli_opts_next(&cli)) != -1) {
        int bad = 0;
        switch (opt) {
        case OPT_IMPL:
            if (coll_impl_parse(optarg, &c.impl) != 0) {
                fprintf(stderr, "iwarp coll: bad value '%s' for --impl (naive, chunked or conset)\n", optarg);
                bad = 1;
            }
            break;
        case OPT_ARRAY:
            if (emu_parse_array_size(optarg, &c.width, &c.height) != 0) {
                fprintf(stderr, "iwarp coll: bad value '%s' for --array (WxH, sides 1 to %d)\n", optarg, EMU_MAX_DIM);
                bad = 1;
            }
            break;
        case OPT_GROUPS:
            if (coll_groups_parse(optarg, &c.groups) != 0) {
                fprintf(stderr, "iwarp coll: bad value '%s' for --groups (rows, columns or whole)\n", optarg);
                bad = 1;
            }
            break;
        case OPT_BLOCK: bad = parse_block(optarg, &c.m, &c.n); break;
        case OPT_LDA:
            bad = parse_u("lda", optarg, 1, 1u << 24, &c.lda);
            lda_given = true;
            break;
        case OPT_CHUNK:
            bad = parse_u("chunk", optarg, 1, 1u << 20, &c.chunk);
            chunk_given = true;
            break;
        case OPT_ROOT:
            bad = parse_u("root", optarg, 0, 1023, &c.root);
            root_given = true;
            break;
        case OPT_DELAY: bad = parse_u("delay", optarg, 0, 1u << 30, &delay); break;
        case OPT_MODEL: model = true; break;
        case OPT_THREADS: bad = parse_u("threads", optarg, 1, 64, &threads); break;
        case OPT_JSON: json = true; break;
        case OPT_HELP:
        case 'h': coll_cli_usage(stdout); return 1;
        default: coll_cli_usage(stderr); return -1;
        }
        if (bad)
            return -1;
    }
    if (optind != argc - 1 || coll_pattern_parse(argv[optind], &c.pattern) != 0) {
        fprintf(stderr,
                optind == argc - 1 ? "iwarp coll: unknown pattern '%s'\n" : "iwarp coll: one PATTERN expected\n",
                optind < argc ? argv[optind] : "");
        coll_cli_usage(stderr);
        return -1;
    }
    c.delay = delay;
    /* Options the case does not use: said, not silently dropped. */
    if (root_given && c.pattern != COLL_BCAST && c.pattern != COLL_REDUCE)
        fprintf(stderr,
                "iwarp coll: note: %s has no root (every rank is one in turn, or rank 0 sends): --root "
                "is not used\n",
                coll_pattern_name(c.pattern));
    if (delay > 0 && c.pattern != COLL_BSEND)
        fprintf(stderr, "iwarp coll: note: --delay is for bsend: not used\n");
    if (chunk_given && c.impl != COLL_CHUNKED)
        fprintf(stderr, "iwarp coll: note: --chunk is for --impl chunked: not used\n");
    if (!lda_given)
        c.lda = coll_is_multi(c.pattern) ? c.n * coll_group_size(&c) : c.n;
    char err[512];
    if (coll_case_check(&c, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp coll: %s\n", err);
        return -1;
    }
    *o = (coll_cli_t){.c = c, .threads = threads, .json = json, .model = model};
    return 0;
}
