/* iwarp model coll: the buffered collectives paper's relative costs of the collective patterns for a group of P
 * cells, times one message of the block: given as a cost a message and a cost a word, or emulated (a
 * broadcast between two neighbours, the implementation and chunk given). docs/collectives.md. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_opts.h"
#include "coll.h"
#include "coll_model.h"
#include "emu.h"
#include "json.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp model coll [options]\n"
            "  --cells P         cells in the group (default 8)\n"
            "  --block MxN       the block: M rows of N words (default 1x4096)\n"
            "  --lda L           words between rows (default N)\n"
            "  --per-message A   the message's cost: A clocks a message ...\n"
            "  --per-word B      ... and B clocks a word (both, or neither: then the message is emulated)\n"
            "  --impl I          the emulated message: naive, chunked or conset (default chunked)\n"
            "  --chunk C         its chunk in words (default 1024)\n"
            "  --json            one record a pattern\n"
            "Prints, for each pattern, the messages of the block it costs (the paper, section 3.1: a tree lg2 P, a\n"
            "ring shift 1 to 2, Q pipelined broadcasts 2 Q; the multi patterns over all P blocks) and the clocks and\n"
            "MB/s a cell that makes with the message's cost.\n");
}

static int parse_double(const char *opt, const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    /* nan passed "*v < 0" and then read as "not given" (the message emulated instead); inf made no model */
    if (end == s || *end != '\0' || !isfinite(*v) || *v < 0) {
        fprintf(stderr, "iwarp model coll: bad value '%s' for --%s (a finite number of clocks, 0 or more)\n", s, opt);
        return -1;
    }
    return 0;
}

int model_coll_cmd(int argc, char **argv)
{
    enum { OPT_CELLS = 256, OPT_BLOCK, OPT_LDA, OPT_A, OPT_B, OPT_IMPL, OPT_CHUNK, OPT_JSON, OPT_HELP };
    static const struct option longopts[] = {
        {"cells", required_argument, NULL, OPT_CELLS}, {"block", required_argument, NULL, OPT_BLOCK},
        {"lda", required_argument, NULL, OPT_LDA},     {"per-message", required_argument, NULL, OPT_A},
        {"per-word", required_argument, NULL, OPT_B},  {"impl", required_argument, NULL, OPT_IMPL},
        {"chunk", required_argument, NULL, OPT_CHUNK}, {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, OPT_HELP},         {NULL, 0, NULL, 0},
    };
    unsigned cells = 8, m = 1, n = 4096, lda = 0, chunk = 1024;
    double a = -1, b = -1;
    coll_impl_t impl = COLL_CHUNKED;
    bool json = false;
    cli_opts_t cli;
    cli_opts_start(&cli, "model coll", argc, argv, "h", longopts);
    int o;
    while ((o = cli_opts_next(&cli)) != -1) {
        uint64_t v;
        switch (o) {
        case OPT_CELLS:
            if (emu_parse_count(optarg, &v) != 0 || v < 2 || v > 1024) {
                fprintf(stderr, "iwarp model coll: bad value '%s' for --cells (2 to 1024)\n", optarg);
                return 2;
            }
            cells = (unsigned)v;
            break;
        case OPT_BLOCK:
            if (emu_parse_pair(optarg, COLL_MAX_BLOCK_SIDE, &m, &n) != 0) {
                fprintf(stderr, "iwarp model coll: bad value '%s' for --block (MxN, each 1 to %u, e.g. 32x64)\n",
                        optarg, COLL_MAX_BLOCK_SIDE);
                return 2;
            }
            break;
        case OPT_LDA:
        case OPT_CHUNK:
            if (emu_parse_count(optarg, &v) != 0 || v < 1 || v > (1u << 24)) {
                fprintf(stderr, "iwarp model coll: bad value '%s' for --%s (1 to %u)\n", optarg,
                        o == OPT_LDA ? "lda" : "chunk", 1u << 24);
                return 2;
            }
            *(o == OPT_LDA ? &lda : &chunk) = (unsigned)v;
            break;
        case OPT_A:
            if (parse_double("per-message", optarg, &a) != 0)
                return 2;
            break;
        case OPT_B:
            if (parse_double("per-word", optarg, &b) != 0)
                return 2;
            break;
        case OPT_IMPL:
            if (coll_impl_parse(optarg, &impl) != 0) {
                fprintf(stderr, "iwarp model coll: bad value '%s' for --impl (naive, chunked or conset)\n", optarg);
                return 2;
            }
            break;
        case OPT_JSON: json = true; break;
        case OPT_HELP:
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        cli_opts_unexpected(&cli, argv[optind]);
        return 2;
    }
    if ((a < 0) != (b < 0)) {
        fprintf(stderr, "iwarp model coll: --per-message and --per-word go together\n");
        return 2;
    }
    if (lda == 0)
        lda = n;
    double words = (double)m * n, message;
    const char *source;
    if (a >= 0) {
        message = a + b * words;
        source = "given";
    } else {
        coll_case_t one = {.pattern = COLL_BCAST,
                           .impl = impl,
                           .groups = COLL_ROWS,
                           .width = 2,
                           .height = 1,
                           .m = m,
                           .n = n,
                           .lda = lda,
                           .chunk = chunk};
        coll_result_t r;
        char err[512];
        if (coll_run(&one, 1, &r, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp model coll: the message: %s\n", err);
            return 2;
        }
        message = (double)r.clocks;
        source = coll_impl_name(impl);
    }
    json_writer_t j;
    if (json) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_u64(&j, "cells", cells);
        json_u64(&j, "block_words", (uint64_t)words);
        json_double(&j, "message_clocks", message);
        json_string(&j, "message", source);
        json_begin_array(&j, "records");
    } else {
        printf("One message of a %ux%u block (lda %u): %.0f clocks (%s%s); a group of %u cells\n", m, n, lda, message,
               a >= 0 ? "given: a + b words" : "emulated, ", a >= 0 ? "" : source, cells);
        printf("%-13s %15s %19s %15s\n", "pattern", "messages", "clocks", "MB/s a cell");
    }
    for (unsigned p = 0; p < COLL_PATTERNS; p++) {
        coll_factor_t f = coll_model_factor((coll_pattern_t)p, cells);
        double bytes = 4.0 * words * (coll_is_multi((coll_pattern_t)p) ? cells : p == COLL_BSEND ? 2 : 1);
        double lo = f.lo * message, hi = f.hi * message;
        if (json) {
            json_begin_object(&j, NULL);
            json_string(&j, "pattern", coll_pattern_name((coll_pattern_t)p));
            json_double(&j, "messages_lo", f.lo);
            json_double(&j, "messages_hi", f.hi);
            json_double(&j, "clocks_lo", lo);
            json_double(&j, "clocks_hi", hi);
            json_double(&j, "mbps_lo", bytes * 20.0 / hi);
            json_double(&j, "mbps_hi", bytes * 20.0 / lo);
            json_end_object(&j);
        } else if (f.lo == f.hi) {
            printf("%-13s %15.0f %19.0f %15.2f\n", coll_pattern_name((coll_pattern_t)p), f.lo, lo, bytes * 20.0 / lo);
        } else {
            char mr[32], cr[48], br[32];
            snprintf(mr, sizeof mr, "%.0f to %.0f", f.lo, f.hi);
            snprintf(cr, sizeof cr, "%.0f to %.0f", lo, hi);
            snprintf(br, sizeof br, "%.2f to %.2f", bytes * 20.0 / lo, bytes * 20.0 / hi);
            printf("%-13s %15s %19s %15s\n", coll_pattern_name((coll_pattern_t)p), mr, cr, br);
        }
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    }
    return 0;
}
