/* iwarp sweep: the cases of a sweep file, run by local workers or as a Slurm job array, one JSON line each in
 * a results file that a rerun resumes, gathered into CSV (docs/sweep.md). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "file.h"
#include "machine.h"
#include "plot.h"
#include "sweep_results.h"

extern char **environ;

enum { MAX_SBATCH = 16, MAX_PLOTS = 4 };

typedef struct sweep_options {
    const char *file;
    char results[PATH_MAX], csv[PATH_MAX];
    const char *results_arg, *csv_arg, *slurm;
    unsigned jobs, limit;
    int only_case;
    bool list, gather, submit, wait, quiet;
    const char *sbatch[MAX_SBATCH];
    unsigned nsbatch;
    const char *plots[MAX_PLOTS];
    unsigned nplots;
} sweep_options_t;

static void usage(FILE *out)
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
            "  --list            print the cases and their commands, run nothing\n"
            "  --gather          only write the CSV (and plots) from the results\n"
            "  --plot X:Y[:G]    also an SVG of column Y against column X, a line per value of column G (up to 4)\n"
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

static int parse_options(int argc, char **argv, sweep_options_t *o)
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
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (unsigned)cores : 1;
    o->only_case = -1;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
            if (o->nsbatch == MAX_SBATCH || optarg[0] != '-' || strpbrk(optarg, "\n\r") != NULL) {
                fprintf(stderr,
                        "iwarp sweep: --sbatch wants up to %d options of one line each, starting with '-', "
                        "not '%s'\n",
                        MAX_SBATCH, optarg);
                return -1;
            }
            o->sbatch[o->nsbatch++] = optarg;
            break;
        case OPT_PLOT:
            if (o->nplots == MAX_PLOTS || strchr(optarg, ':') == NULL || strchr(optarg, '/') != NULL) {
                fprintf(stderr, "iwarp sweep: --plot wants up to %d of X:Y[:GROUP] (column names), not '%s'\n",
                        MAX_PLOTS, optarg);
                return -1;
            }
            o->plots[o->nplots++] = optarg;
            break;
        case OPT_HELP:
        case 'h': usage(stdout); return 1;
        default: usage(stderr); return -1;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "iwarp sweep: %s\n", optind == argc ? "which sweep file?" : "one sweep file at a time");
        usage(stderr);
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

/* The results' path made absolute (its folder is created), so Slurm tasks started elsewhere find it. */
static int absolute(const char *path, char *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash != NULL)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    char real[PATH_MAX];
    if (*dir == '\0')
        snprintf(dir, sizeof dir, "/");
    if (plot_make_dirs(dir) != 0 || realpath(dir, real) == NULL)
        return -1;
    return snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") == 0 ? "" : real, base) < PATH_MAX ? 0 : -1;
}

static int submit(const char *script, bool wait)
{
    char *argv[] = {"sbatch", wait ? "--wait" : NULL, NULL, NULL};
    argv[wait ? 2 : 1] = (char *)script;
    pid_t pid;
    int rc = posix_spawnp(&pid, "sbatch", NULL, NULL, argv, environ);
    if (rc != 0) {
        fprintf(stderr, "iwarp sweep: cannot run sbatch: %s (is Slurm installed and on PATH?)\n", strerror(rc));
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "iwarp sweep: sbatch failed (status %d)\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return -1;
    }
    return 0;
}

/* The table, and the plots next to it: NAME-Y-vs-X.svg. */
static int gather(const sweep_t *s, const sweep_options_t *o)
{
    char err[PATH_MAX + 512];
    csv_table_t t;
    if (sweep_gather(s, o->results, &t, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp sweep: %s: %s\n", o->results, err);
        csv_free(&t);
        return -1;
    }
    file_out_t out;
    int rc = file_out_open(&out, o->csv, "w", err, sizeof err);
    if (rc == 0 && csv_write(&t, out.f) != 0) {
        int e = errno;
        file_out_abort(&out);
        snprintf(err, sizeof err, "%s: %s", o->csv, e != 0 ? strerror(e) : "a write failed");
        rc = -1;
    } else if (rc == 0) {
        rc = file_out_commit(&out, err, sizeof err);
    }
    if (rc != 0)
        fprintf(stderr, "iwarp sweep: cannot write %s\n", err);
    else if (!o->quiet)
        printf("results: %s\ntable:   %s\n", o->results, o->csv);
    for (unsigned i = 0; rc == 0 && i < o->nplots; i++) {
        char path[PATH_MAX + 600], dir[PATH_MAX], spec[512];
        snprintf(dir, sizeof dir, "%s", o->csv);
        char *slash = strrchr(dir, '/');
        if (slash != NULL)
            *slash = '\0';
        snprintf(spec, sizeof spec, "%s", o->plots[i]);
        char *y = strchr(spec, ':'), *g = y ? strchr(y + 1, ':') : NULL;
        if (g != NULL)
            *g = '\0';
        if (y != NULL)
            *y++ = '\0';
        snprintf(path, sizeof path, "%s/%s-%s-vs-%s.svg", dir, s->name, y ? y : "", spec);
        if (sweep_plot(s, &t, o->plots[i], path, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp sweep: %s\n", err);
            rc = -1;
        } else if (!o->quiet) {
            printf("plot:    %s\n", path);
        }
    }
    csv_free(&t);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_options_t o;
    int prc = parse_options(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    sweep_t s;
    char err[1024];
    if (sweep_load(&s, o.file, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    char dflt[PATH_MAX];
    snprintf(dflt, sizeof dflt, "out/sweep/%s.jsonl", s.name);
    int rc = absolute(o.results_arg ? o.results_arg : dflt, o.results);
    snprintf(dflt, sizeof dflt, "out/sweep/%s.csv", s.name);
    if (rc == 0)
        rc = absolute(o.csv_arg ? o.csv_arg : dflt, o.csv);
    if (rc != 0) {
        fprintf(stderr, "iwarp sweep: cannot make the folder of the results or the table\n");
        sweep_free(&s);
        return 2;
    }
    /* The results are read back (resume, --gather) and the sweep file read first: neither may be written over. */
    const char *sweep_inputs[] = {o.file}, *gather_inputs[] = {o.file, o.results};
    if (file_out_not_input(o.results, sweep_inputs, 1, err, sizeof err) != 0 ||
        file_out_not_input(o.csv, gather_inputs, 2, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp sweep: %s\n", err);
        sweep_free(&s);
        return 2;
    }
    if (o.only_case >= 0 && (unsigned)o.only_case >= s.ncases) {
        fprintf(stderr, "iwarp sweep: --case %d: %s has cases 0..%u\n", o.only_case, o.file, s.ncases - 1);
        sweep_free(&s);
        return 2;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "iwarp sweep: cannot find the iwarp binary (/proc/self/exe)\n");
        sweep_free(&s);
        return 1;
    }
    self[n] = '\0';
    rc = 0;
    if (o.list) {
        for (unsigned k = 0; k < s.ncases; k++) {
            char key[SWEEP_MAX_TEXT], cmd[SWEEP_MAX_TEXT];
            sweep_case_key(&s, k, key, sizeof key);
            sweep_case_command(&s, k, cmd, sizeof cmd);
            printf("%u\t%s\tiwarp %s\n", k, key, cmd);
        }
    } else if (o.gather) {
        rc = gather(&s, &o) == 0 ? 0 : 1;
    } else if (o.slurm != NULL) {
        char script[PATH_MAX], sweep_file[PATH_MAX];
        unsigned pending;
        sweep_slurm_options_t so = {script, sweep_file, o.results, self, o.sbatch, o.nsbatch};
        if (absolute(o.slurm, script) != 0 || realpath(o.file, sweep_file) == NULL) {
            fprintf(stderr, "iwarp sweep: cannot resolve the paths of %s and %s\n", o.slurm, o.file);
            rc = 2;
        } else if (sweep_write_slurm(&s, &so, &pending, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp sweep: %s\n", err);
            rc = 1;
        } else if (pending == 0) {
            printf("every case of %s has a record in %s: no job script\n", s.name, o.results);
        } else {
            printf("job script: %s (%u array tasks)\n", script, pending);
            fflush(stdout);
            if (o.submit && submit(script, o.wait) != 0)
                rc = 1;
            if (rc == 0 && o.wait)
                rc = gather(&s, &o) == 0 ? 0 : 1;
        }
    } else {
        sweep_run_options_t ro = {o.results, self, o.jobs, o.limit, o.only_case, o.quiet};
        rc = sweep_run(&s, &ro, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "iwarp sweep: %s\n", err);
            rc = 1;
        }
        if (o.only_case < 0 && gather(&s, &o) != 0)
            rc = 1;
    }
    sweep_free(&s);
    return rc;
}
