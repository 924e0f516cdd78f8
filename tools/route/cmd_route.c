/* iwarp route: the ConSet communication compiler (docs/conset.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "conset/cset.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_report.h"
#include "conset/route_tables.h"
#include "file.h"
#include "route_cli.h"

/* Status 0, or 1 with a message when something written to stdout did not get there (a full disk, a closed
 * pipe): a report that was cut must not look like a success. */
static int stdout_status(void)
{
    int e = fflush(stdout) != 0 ? errno : 0;
    if (e == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "iwarp route: cannot write to standard output: %s\n", strerror(e ? e : EIO));
    return 1;
}

/* The set to compile, from the file or the generator; returns 0, or the exit status. */
static int load_set(const route_cli_t *o, cset_t *set, char *name, size_t cap)
{
    if (o->pattern_given) {
        char err[256];
        unsigned capacity = o->opt.capacity ? o->opt.capacity : CSET_DEFAULT_CAPACITY;
        if (pattern_generate(set, o->pattern, o->width, o->height, o->words, capacity, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: --pattern %s: %s\n", pattern_name(o->pattern), err);
            return 2;
        }
        snprintf(name, cap, "pattern %s %ux%u, %u words", pattern_name(o->pattern), o->width, o->height, o->words);
        set->paper = o->opt.paper; /* the written set says which compiler made the tables */
        if (o->cset_out != NULL) {
            file_out_t out;
            char werr[512];
            int rc = file_out_open(&out, o->cset_out, "w", werr, sizeof werr);
            if (rc == 0 && cset_write(set, out.f) != 0) {
                file_out_abort(&out);
                snprintf(werr, sizeof werr, "%s: write failed", o->cset_out);
                rc = -1;
            } else if (rc == 0) {
                rc = file_out_commit(&out, werr, sizeof werr);
            }
            if (rc != 0) {
                fprintf(stderr, "iwarp route: cannot write %s\n", werr);
                return 1;
            }
        }
        return 0;
    }
    cset_diags_t d;
    size_t errors = cset_parse_file(set, o->file, &d);
    cset_print_diags(&d, o->file, stderr);
    cset_diags_free(&d);
    snprintf(name, cap, "%s", o->file);
    return errors ? 2 : 0;
}

int cmd_route(int argc, char **argv)
{
    route_cli_t o;
    int opts = route_cli_parse(argc, argv, &o);
    if (opts != 0)
        return opts > 0 ? stdout_status() : 2;
    if (file_outs_same(o.cset_out, o.output)) {
        fprintf(stderr, "iwarp route: --cset %s and -o %s name one file: the tables would be written over the set\n",
                o.cset_out, o.output);
        return 2;
    }
    cset_t set;
    char name[512], err[512];
    int rc = load_set(&o, &set, name, sizeof name);
    if (rc == 0 && set.paper && o.opt.link_aware) {
        fprintf(stderr, "iwarp route: %s says `compiler paper`, which does not go with --links\n", name);
        rc = 2;
    }
    if (rc != 0) {
        cset_free(&set);
        return rc;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    route_plan_t plan;
    if (route_compile(&set, &o.opt, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp route: %s: %s\n", name, err);
        cset_free(&set);
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (o.output != NULL && route_tables_check(&plan, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp route: %s: %s\n", name, err); /* the input's fault: nothing is written */
        rc = 2;
    } else if (o.output != NULL) {
        celldata_t cd;
        if (route_tables(&plan, &cd, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: %s: %s\n", o.output, err);
            rc = 1;
        } else if (celldata_write(&cd, o.output, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp route: %s\n", err); /* the message names the file */
            rc = 1;
        }
        celldata_free(&cd);
    }
    if (o.json)
        route_report_json(&plan, name, o.report, seconds, stdout);
    else
        route_report_text(&plan, name, o.report, seconds, stdout);
    if (stdout_status() != 0)
        rc = 1;
    route_plan_free(&plan);
    cset_free(&set);
    return rc;
}
