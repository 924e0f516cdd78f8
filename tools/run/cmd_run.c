/* iwarp run: load a program on an array, run it to the end, report cycles and statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "emu.h"
#include "file.h"
#include "json.h"
#include "phase_account.h"
#include "phase_predict.h"
#include "phase_report.h"
#include "program_load.h"
#include "run_cli.h"
#include "run_desc.h"
#include "run_loop.h"
#include "run_report.h"
#include "state_hash.h"
#include "trace.h"

static void print_output(void *user, unsigned x, unsigned y, const char *text)
{
    FILE *out = user;
    fprintf(out, "[%u,%u] %s\n", x, y, text);
}

int cmd_run(int argc, char **argv)
{
    run_cli_t o;
    int parsed = run_cli_parse(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    emu_machine_t m;
    if (run_machine_of_options(&m, !run_desc_is_path(o.p.file), o.p.machine_file, o.p.sets, o.p.nsets, "run") != 0)
        return 2;

    run_desc_t desc;
    if (run_desc_is_path(o.p.file)) {
        if (o.p.nargs > 0) {
            fprintf(stderr, "iwarp run: --args does not go with a run description (its 'cells' lines give them)\n");
            return 2;
        }
        if (run_desc_parse_file(o.p.file, &m, &desc, stderr) != 0) {
            run_desc_free(&desc);
            return 2;
        }
        if (o.p.array_given) {
            fprintf(stderr, "iwarp run: --array does not go with a run description (its 'array' line gives it)\n");
            run_desc_free(&desc);
            return 2;
        }
    } else {
        if (o.p.array_given) {
            m.width = o.p.width;
            m.height = o.p.height;
        }
        if (run_desc_single(&desc, o.p.file, &m, o.p.args, o.p.nargs) != 0) {
            fprintf(stderr, "iwarp run: out of memory\n");
            run_desc_free(&desc);
            return 2;
        }
    }
    if (o.p.threads) {
        desc.threads = o.p.threads;
        desc.threads_auto = false;
    } else if (o.p.threads_auto) {
        desc.threads = 1;
        desc.threads_auto = true;
    }
    if (o.p.max_given)
        desc.max_cycles = o.p.max_cycles;

    if (o.record != NULL) {
        const char *inputs[2 + RUN_DESC_MAX_LIST * 2 + 2];
        size_t n = run_desc_inputs(&desc, inputs, sizeof inputs / sizeof inputs[0] - 2);
        inputs[n++] = o.p.file;
        inputs[n++] = o.p.machine_file;
        char err[1024];
        if (file_out_not_input(o.record, inputs, n, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp run: --record %s\n", err);
            run_desc_free(&desc);
            return 2;
        }
    }
    emu_array_t *a;
    if (run_desc_build(&desc, o.p.defines, o.p.ndefines, o.p.includes, o.p.nincludes, &a) != 0) {
        run_desc_free(&desc);
        return 2;
    }
    emu_array_set_output(a, print_output, o.json || o.hash_at ? stderr : stdout);
    if (o.hash_at) {
        state_hash_print(stdout, state_hash_at(a, o.hash_at, NULL));
        emu_array_free(a);
        run_desc_free(&desc);
        return 0;
    }
    char rec_err[512];
    view_recorder_t *rec = NULL;
    if (o.record != NULL && (rec = view_record_attach(a, o.record, o.p.file, rec_err, sizeof rec_err)) == NULL) {
        fprintf(stderr, "iwarp run: --record %s\n", rec_err);
        emu_array_free(a);
        run_desc_free(&desc);
        return 2;
    }

    /* A ConSet run's account reads what the cells log (no hook: the run keeps its threads), unless recording
     * does. */
    phase_account_t *phases = NULL;
    if (!o.no_phases && rec == NULL && (phases = phase_account_create(a)) != NULL) {
        if (phase_predict_attach(phases, &desc) != 0)
            fprintf(stderr, "iwarp run: out of memory for the phases' link-weighted lengths\n");
        if (phase_account_watch(phases, a) != 0) {
        emu_hooks_t hooks = {phases, NULL, phase_account_hook};
        emu_array_set_hooks(a, &hooks);
        }
    } else if (o.phases_only) {
        fprintf(stderr, "iwarp run: --phases: %s\n",
                rec != NULL ? "not with --record" : "no cell runs runtime/conset.s's phases");
        emu_array_free(a);
        run_desc_free(&desc);
        return 2;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool interrupted;
    thread_tuner_t tuner, *tune = NULL;
    if (desc.threads_auto) {
        /* Up to the host's cores, and no more than the array would use (one with a recorder's hooks). */
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        unsigned most = emu_array_max_threads(a);
        if (cores < (long)most)
            most = cores < 1 ? 1u : (unsigned)cores;
        thread_tuner_init(&tuner, most);
        tune = &tuner;
    }
    emu_run_status_t st =
        run_loop_tuned(a, desc.max_cycles, o.p.file, o.quiet || o.json || o.phases_only, &interrupted, tune);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    bool rec_failed = rec != NULL && view_record_finish(rec, st, rec_err, sizeof rec_err) != 0;
    if (rec_failed)
        fprintf(stderr, "iwarp run: --record %s: %s\n", o.record, rec_err);
    double host_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

    run_report_t rep = {
        .program = o.p.file, .array = a, .status = st, .host_seconds = host_seconds, .tuner = tune, .phases = phases};
    if (o.json)
        run_report_json(&rep, stdout);
    else if (o.phases_only)
        phase_report_text(phases, stdout);
    else if (!o.quiet)
        run_report_text(&rep, stdout);
    if (o.phases_only && st != EMU_RUN_DONE)
        run_report_problem(&rep, stderr);
    if (o.quiet && st != EMU_RUN_DONE)
        run_report_problem(&rep, stderr);
    /* An account shown as only why it is incomplete is output asked for and not given: as a failed recording, the
     * status says so. */
    const char *phases_why =
        phases != NULL && (o.json || o.phases_only || !o.quiet) ? phase_account_error(phases) : NULL;
    bool phases_failed = phases_why != NULL;
    if (phases_failed)
        fprintf(stderr, "iwarp run: phase account: %s\n", phases_why);
    if (interrupted)
        fprintf(stderr, "iwarp run: interrupted at clock %llu: the report is of the run so far\n",
                (unsigned long long)emu_array_clock(a));
    emu_array_free(a);
    phase_account_free(phases);
    run_desc_free(&desc);
    return interrupted ? 130 : st == EMU_RUN_DONE && !rec_failed && !phases_failed ? 0 : 1;
}
