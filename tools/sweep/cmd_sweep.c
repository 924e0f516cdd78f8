/* iwarp sweep: the cases of a sweep file, run by local workers or as a Slurm job array, one JSON line each in
 * a results file that a rerun resumes, gathered into CSV (docs/sweep.md). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
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
#include "sweep_cli.h"
#include "sweep_results.h"

extern char **environ;

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
static int gather(const sweep_t *s, const sweep_cli_t *o)
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
        if (sweep_plot(s, &t, o->plots[i], o->log_y, path, err, sizeof err) != 0) {
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
    sweep_cli_t o;
    int prc = sweep_cli_parse(argc, argv, &o);
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
        sweep_slurm_options_t so = {script, sweep_file, o.results, self, o.sbatch, o.nsbatch, o.max_output};
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
        sweep_run_options_t ro = {o.results, self, o.jobs, o.limit, o.only_case, o.quiet, o.max_output};
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
