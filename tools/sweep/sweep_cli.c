/* The command line of `iwarp sweep`: every option checked before the sweep file is read. */
#include "sweep_cli.h"

#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "emu.h"
#include "sweep.h"


void sweep_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp sweep FILE [options]\n"
            "Runs every case of a sweep file (docs/sweep.md) that has no record yet, appending one JSON line per\n"
            "case to the results, then gathers them into CSV. Running it again resumes.\n"
            "  --jobs N          cases at once (default: the cores online)\n"
            "  --results FILE    JSON lines (default out/sweep/NAME.jsonl)\n"
            "  --csv FILE        the gathered table (default out/sweep/NAME.csv)\n"
            "  --limit N         run at most N pending cases, then stop\n"
            "  --case K          run case K only (what each Slurm array task does)\n"
            "  --max-output N    stop a case whose standard output passes N bytes (K, M, G: KiB, MiB, GiB;\n"
            "                    default 256M) and keep none of it: its record says so\n"
            "  --list            print the cases and their commands, run nothing\n"
            "  --gather          only write the CSV (and plots) from the results\n"
            "  --plot X:Y[:G]    also a plot (SVG, PNG, PDF) of column Y against column X, a line per value of\n"
            "                    column G (up to 4)\n"
            "  --log-y           the plots' y axes logarithmic (they are anyway where y spans over two decades)\n"
            "  --slurm SCRIPT    write a Slurm job-array script for the pending cases instead of running them\n"
            "  --submit          and submit it with sbatch (--wait: sbatch --wait, then gather)\n"
            "  --sbatch OPTION   an extra #SBATCH line, e.g. --sbatch --partition=debug (up to 16)\n"
            "  --quiet           no progress lines\n");
}

static int count_arg(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (emu_parse_count(s, v) != 0 || *v < lo || *v > hi) {
        fprintf(stderr, "iwarp sweep: %s wants %llu..%llu, not '%s'\n", opt, (unsigned long long)lo,
                (unsigned long long)hi, s);
        return -1;
    }
    return 0;
}

/* A byte count with an optional K, M or G (binary) after it, from 1 byte to 1 TiB. */
static int bytes_arg(const char *opt, const char *s, uint64_t *v)
{
    size_t n = emu_parse_count_prefix(s, v);
    const char *units = "KMG";
    const char *unit = n > 0 && s[n] != '\0' ? strchr(units, s[n] & ~0x20) : NULL;
    unsigned shift = unit != NULL ? 10u * (unsigned)(unit - units + 1) : 0u;
    bool whole = n > 0 && s[n + (unit != NULL)] == '\0' && (s[n] == '\0' || unit != NULL);
    if (!whole || *v == 0 || *v > (1ull << 40) >> shift) {
        fprintf(stderr, "iwarp sweep: %s wants a byte count from 1 to 1T (with K, M or G), not '%s'\n", opt, s);
        return -1;
    }
    *v <<= shift;
    return 0;
}

int sweep_cli_parse(int argc, char **argv, sweep_cli_t *o)
{
    enum {
        OPT_JOBS = 256,
        OPT_RESULTS,
        OPT_CSV,
        OPT_LIMIT,
        OPT_CASE,
        OPT_LIST,
        OPT_GATHER,
        OPT_SLURM,
        OPT_SUBMIT,
        OPT_WAIT,
        OPT_SBATCH,
        OPT_QUIET,
        OPT_PLOT,
        OPT_LOG_Y,
        OPT_MAX_OUTPUT,
        OPT_HELP
    };
    static const struct option longopts[] = {
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"results", required_argument, NULL, OPT_RESULTS},
        {"csv", required_argument, NULL, OPT_CSV},
        {"limit", required_argument, NULL, OPT_LIMIT},
        {"case", required_argument, NULL, OPT_CASE},
        {"list", no_argument, NULL, OPT_LIST},
        {"gather", no_argument, NULL, OPT_GATHER},
        {"slurm", required_argument, NULL, OPT_SLURM},
        {"submit", no_argument, NULL, OPT_SUBMIT},
        {"wait", no_argument, NULL, OPT_WAIT},
        {"sbatch", required_argument, NULL, OPT_SBATCH},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"log-y", no_argument, NULL, OPT_LOG_Y},
        {"max-output", required_argument, NULL, OPT_MAX_OUTPUT},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (unsigned)cores : 1;
    o->only_case = -1;
    o->max_output = SWEEP_DEFAULT_MAX_OUTPUT;
    cli_opts_t cli;
    cli_opts_start(&cli, "sweep", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        uint64_t v;
        switch (c) {
        case OPT_JOBS:
            if (count_arg("--jobs", optarg, 1, 1024, &v) != 0)
                return -1;
            o->jobs = (unsigned)v;
            break;
        case OPT_LIMIT:
            if (count_arg("--limit", optarg, 1, SWEEP_MAX_CASES, &v) != 0)
                return -1;
            o->limit = (unsigned)v;
            break;
        case OPT_CASE:
            if (count_arg("--case", optarg, 0, SWEEP_MAX_CASES - 1, &v) != 0)
                return -1;
            o->only_case = (int)v;
            break;
        case OPT_RESULTS: o->results_arg = optarg; break;
        case OPT_CSV: o->csv_arg = optarg; break;
        case OPT_LIST: o->list = true; break;
        case OPT_GATHER: o->gather = true; break;
        case OPT_SLURM: o->slurm = optarg; break;
        case OPT_SUBMIT: o->submit = true; break;
        case OPT_WAIT: o->wait = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_SBATCH:
            if (o->nsbatch == SWEEP_CLI_MAX_SBATCH || optarg[0] != '-' || strpbrk(optarg, "\n\r") != NULL) {
                fprintf(stderr,
                        "iwarp sweep: --sbatch wants up to %d options of one line each, starting with '-', "
                        "not '%s'\n",
                        SWEEP_CLI_MAX_SBATCH, optarg);
                return -1;
            }
            o->sbatch[o->nsbatch++] = optarg;
            break;
        case OPT_PLOT:
            if (o->nplots == SWEEP_CLI_MAX_PLOTS || strchr(optarg, ':') == NULL || strchr(optarg, '/') != NULL) {
                fprintf(stderr, "iwarp sweep: --plot wants up to %d of X:Y[:GROUP] (column names), not '%s'\n",
                        SWEEP_CLI_MAX_PLOTS, optarg);
                return -1;
            }
            o->plots[o->nplots++] = optarg;
            break;
        case OPT_LOG_Y: o->log_y = true; break;
        case OPT_MAX_OUTPUT:
            if (bytes_arg("--max-output", optarg, &o->max_output) != 0)
                return -1;
            break;
        case OPT_HELP:
        case 'h': sweep_cli_usage(stdout); return 1;
        default: sweep_cli_usage(stderr); return -1;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "iwarp sweep: %s\n", optind == argc ? "which sweep file?" : "one sweep file at a time");
        sweep_cli_usage(stderr);
        return -1;
    }
    o->file = argv[optind];
    if ((o->submit || o->wait || o->nsbatch > 0) && o->slurm == NULL) {
        fprintf(stderr, "iwarp sweep: --submit, --wait and --sbatch go with --slurm SCRIPT\n");
        return -1;
    }
    if (o->wait && !o->submit) {
        fprintf(stderr, "iwarp sweep: --wait goes with --submit\n");
        return -1;
    }
    return 0;
}

