/*
 * iwarp bench patterns: the basic communication patterns of seed 004 (section 5.1) on the emulated 8x8
 * array, under ConSet (programs/patterns/conset_pattern.s) and under message passing
 * (programs/patterns/msgpass.s), beside the seed's models: the table of its Tables 1-3, the aggregate
 * bandwidth, and Figures 2-4 as SVG plots. The ConSet columns that reproduce the tables use the phases of the
 * seed's own compiler (`iwarp route --paper`), and its spread over seeds; our compiler's runs (the default,
 * and --links) are printed beside them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "celldata.h"
#include "conset/pattern.h"
#include "conset/route.h"
#include "conset/route_report.h"
#include "conset/route_tables.h"
#include "interrupt.h"
#include "model.h"
#include "plot.h"
#include "program_load.h"
#include "progress.h"
#include "run_loop.h"

/* The seed's array: 64 cells, 8x8 (the machine's default size too). */
enum { CONSET_TABLES = 0x70000, CAPACITY = 12, SIDE = 8, CELLS = SIDE * SIDE };

typedef struct pattern_case {
    model_pattern_t model;
    pattern_kind_t kind;
    uint32_t msgpass_pattern; /* the pattern argument of msgpass.s */
} pattern_case_t;

static const pattern_case_t cases[] = {
    {MODEL_TORUS, PATTERN_TORUS, 0},
    {MODEL_BUTTERFLY, PATTERN_BUTTERFLY, 1},
    {MODEL_ALLTOALL, PATTERN_ALLTOALL, 2},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* The paper-mode compile runs with seeds 1..PAPER_SEEDS for the patterns whose routes the seed moves (the butterfly
 * and all-to-all; the torus's one-hop routes have no choice) at the sizes below SEED_SIZES (32 and 256 words:
 * the seed changes the routes, not how long a word takes, and the larger sizes would take most of the bench's
 * time). */
enum { PAPER_SEEDS = 5, SEED_SIZES = 2 };

/* Message passing as the ConSet paper ran it is msg.s's default, one transmitter (section 4.3); the leaner
 * variant printed beside it lets four sends overlap (docs/runtime.md). */
static const char LEAN_SENDS[] = "MSG_SENDS=4";

typedef struct pattern_result {
    unsigned phases, phases_links, phases_ours; /* phases: the paper mode's (seed 1) */
    uint64_t conset_words_per_cell;             /* the most words any cell sends */
    unsigned messages;                          /* per cell */
    double predicted_conset, predicted_msgpass;
    double predicted_links;                   /* the congestion-aware AS's phases plus a switch each */
    double emulated_conset, emulated_msgpass; /* clocks, 0 when the run failed */
    double emulated_msgpass_lean;             /* message passing with four sends at once (MSG_SENDS=4) */
    double emulated_links;                    /* ConSet with `iwarp route --links` tables */
    double predicted_ours, emulated_ours;     /* ConSet with our compiler (`iwarp route`'s default) */
    uint64_t bytes;                           /* moved by the whole array */
    /* The paper mode with seed k + 1 (k = 0 is emulated_conset's run); 0 where not run or failed. */
    double emulated_seed[PAPER_SEEDS];
    unsigned phases_seed[PAPER_SEEDS];
} pattern_result_t;

/* Loads `program` with args on every cell, and the cell data when given; runs; the slowest cell's a0. */
static double run_pattern(const bench_context_t *ctx, const char *program, const char *define, const uint32_t *args,
                          unsigned nargs, const celldata_t *tables)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = m.height = SIDE;
    char err[512];
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, sizeof err) != 0) {
        fprintf(stderr, "bench patterns: %s\n", err);
        return 0;
    }
    emu_array_set_threads(a, ctx->threads);
    const emu_program_t *p = program_add(a, program, &define, define != NULL ? 1 : 0);
    int rc = p != NULL ? 0 : -1;
    for (unsigned y = 0; rc == 0 && y < m.height; y++)
        for (unsigned x = 0; rc == 0 && x < m.width; x++)
            if (emu_array_load(a, x, y, p, args, nargs, err, sizeof err) != 0) {
                fprintf(stderr, "bench patterns: %s\n", err);
                rc = -1;
            }
    if (rc == 0 && tables != NULL && celldata_load(tables, a, CONSET_TABLES, err, sizeof err) != 0) {
        fprintf(stderr, "bench patterns: %s\n", err);
        rc = -1;
    }
    double clocks = 0;
    if (rc == 0) {
        /* On a worker thread, several at once: the bench shows one progress line for all; Ctrl-C stops the
         * run (and the bench drops it: see bench_patterns). The last runs, the longest (all-to-all's largest
         * messages under message passing), take the cores of the workers that have nothing left to run. */
        bool interrupted;
        emu_run_status_t st = ctx->share != NULL ? run_sliced_shared(a, 4000000000ull, &interrupted, ctx->share)
                                                 : run_sliced(a, 4000000000ull, &interrupted);
        if (interrupted) {
            emu_array_free(a);
            return 0;
        }
        if (st == EMU_RUN_DONE) {
            for (unsigned y = 0; y < m.height; y++)
                for (unsigned x = 0; x < m.width; x++)
                    clocks = fmax(clocks, ca_reg(emu_array_ca(a, x, y), ISA_REG_A0));
        } else {
            unsigned fx = 0, fy = 0;
            err[0] = '\0';
            if (emu_array_first_fault(a, &fx, &fy))
                emu_format_fault(a, fx, fy, err, sizeof err);
            fprintf(stderr, "bench patterns: %s (args %u, %u) ended %s %s\n%s", program, args[0], args[1],
                    emu_run_status_name(st), err, emu_array_deadlock(a));
        }
    }
    emu_array_free(a);
    return clocks;
}

/* How a ConSet run's tables are compiled: as the ConSet paper's compiler (`iwarp route --paper`), which
 * reproduces its Tables 1-3; with ours (the default); or ours with the congestion-aware scheduler (--links). */
typedef enum compiler { COMPILER_PAPER, COMPILER_OURS, COMPILER_LINKS } compiler_t;

/* Compiles the pattern into cell tables. */
static int compile(const pattern_case_t *pc, uint32_t words, compiler_t how, uint64_t seed, cset_t *set,
                   route_plan_t *plan, celldata_t *tables)
{
    char err[512];
    if (pattern_generate(set, pc->kind, SIDE, SIDE, words, CAPACITY, err, sizeof err) != 0) {
        fprintf(stderr, "bench patterns: %s\n", err);
        return -1;
    }
    route_options_t o;
    route_options_init(&o);
    o.paper = how == COMPILER_PAPER;
    o.link_aware = how == COMPILER_LINKS;
    o.seed = seed;
    int rc = route_compile(set, &o, plan, err, sizeof err);
    if (rc == 0) {
        rc = route_tables(plan, tables, err, sizeof err);
        if (rc != 0)
            route_plan_free(plan);
    }
    if (rc != 0) {
        fprintf(stderr, "bench patterns: %s\n", err);
        cset_free(set);
    }
    return rc;
}

/* One emulated run of a pattern at a size, with the compilation and the predictions it needs: independent of
 * every other run, so several go at once. The three kinds of a size write different fields of its result. */
typedef enum job_kind { JOB_MSGPASS, JOB_MSGPASS_LEAN, JOB_CONSET, JOB_OURS, JOB_LINKS, JOB_SEED } job_kind_t;

typedef struct pattern_job {
    unsigned c, i; /* the case (cases[c]) and the size (index in model_sizes) */
    job_kind_t kind;
    unsigned seed; /* JOB_SEED: the paper mode's seed, 2..PAPER_SEEDS */
    pattern_result_t *r;
    bool ok; /* compiled, and the run ended */
} pattern_job_t;

/* The most words any cell sends. */
static uint64_t words_per_cell(const cset_t *set)
{
    uint64_t sent[CELLS] = {0}, most = 0;
    for (unsigned i = 0; i < set->nconns; i++)
        sent[set->conns[i].src] += set->conns[i].words;
    for (unsigned c = 0; c < CELLS; c++)
        if (sent[c] > most)
            most = sent[c];
    return most;
}

static void run_job(const bench_context_t *ctx, pattern_job_t *j)
{
    const pattern_case_t *pc = &cases[j->c];
    uint32_t words = model_sizes[j->i];
    pattern_result_t *r = j->r;
    if (j->kind == JOB_MSGPASS_LEAN) {
        uint32_t args[3] = {words, pc->msgpass_pattern, 0};
        r->emulated_msgpass_lean = run_pattern(ctx, "programs/patterns/msgpass.s", LEAN_SENDS, args, 3, NULL);
        j->ok = r->emulated_msgpass_lean > 0;
        return;
    }
    if (j->kind == JOB_MSGPASS) {
        cset_t set;
        char err[512];
        if (pattern_generate(&set, pc->kind, SIDE, SIDE, words, CAPACITY, err, sizeof err) != 0) {
            fprintf(stderr, "bench patterns: %s\n", err);
            return;
        }
        unsigned messages = set.nconns / CELLS;
        r->predicted_msgpass = model_msgpass(messages, words, MODEL_C, MODEL_A);
        cset_free(&set);
        uint32_t args[3] = {words, pc->msgpass_pattern, 0};
        r->emulated_msgpass = run_pattern(ctx, "programs/patterns/msgpass.s", NULL, args, 3, NULL);
        j->ok = r->emulated_msgpass > 0;
        return;
    }
    compiler_t how = j->kind == JOB_LINKS ? COMPILER_LINKS : j->kind == JOB_OURS ? COMPILER_OURS : COMPILER_PAPER;
    uint64_t seed = j->kind == JOB_SEED ? j->seed : ROUTE_DEFAULT_SEED;
    cset_t set;
    route_plan_t plan;
    celldata_t tables;
    if (compile(pc, words, how, seed, &set, &plan, &tables) != 0)
        return;
    if (j->kind == JOB_LINKS) {
        r->phases_links = plan.nphases;
        r->predicted_links = (double)route_predicted_clocks(&plan) + (double)plan.nphases * MODEL_PER_PHASE;
    } else if (j->kind == JOB_SEED) {
        r->phases_seed[seed - 1] = plan.nphases;
    } else if (j->kind == JOB_OURS) {
        r->phases_ours = plan.nphases;
        r->predicted_ours = model_conset(plan.nphases, words_per_cell(&set));
    } else {
        r->phases = r->phases_seed[0] = plan.nphases;
        for (unsigned i = 0; i < set.nconns; i++)
            r->bytes += 4ull * set.conns[i].words;
        r->conset_words_per_cell = words_per_cell(&set);
        r->messages = set.nconns / CELLS;
        r->predicted_conset = model_conset(r->phases, r->conset_words_per_cell);
    }
    route_plan_free(&plan);
    cset_free(&set);
    uint32_t args[2] = {words, 0};
    double clocks = run_pattern(ctx, "programs/patterns/conset_pattern.s", NULL, args, 2, &tables);
    celldata_free(&tables);
    if (j->kind == JOB_LINKS)
        r->emulated_links = clocks;
    else if (j->kind == JOB_OURS)
        r->emulated_ours = clocks;
    else if (j->kind == JOB_SEED)
        r->emulated_seed[seed - 1] = clocks;
    else
        r->emulated_conset = r->emulated_seed[0] = clocks;
    j->ok = clocks > 0;
}

typedef struct pattern_job_list {
    const bench_context_t *ctx;
    pattern_job_t *jobs;
} pattern_job_list_t;

/* The smallest size of every pattern first, pattern by pattern (seconds: Ctrl-C soon after the start still
 * leaves whole results), then the largest messages first, message passing (the slowest) first, so the last
 * run to start is a short one. */
static int run_order(const void *a, const void *b)
{
    const pattern_job_t *x = a, *y = b;
    if ((x->i == 0) != (y->i == 0))
        return x->i == 0 ? -1 : 1;
    if (x->i == 0 && x->c != y->c) /* the smallest size pattern by pattern: the torus is whole first */
        return (int)x->c - (int)y->c;
    if (x->i != y->i)
        return (int)y->i - (int)x->i;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    if (x->c != y->c)
        return (int)x->c - (int)y->c; /* the patterns in their order */
    return (int)x->seed - (int)y->seed;
}

static void run_pattern_job(void *arg, unsigned i)
{
    pattern_job_list_t *l = arg;
    run_job(l->ctx, &l->jobs[i]);
}

/* Runs every job, `jobs` at once, in run_order. */
static void run_jobs(const bench_context_t *ctx, pattern_job_t *list, unsigned n)
{
    qsort(list, n, sizeof *list, run_order);
    pattern_job_list_t l = {ctx, list};
    bench_run_jobs(ctx, "bench patterns", n, run_pattern_job, &l);
}

/* MB/s of the whole array: bytes over the time at 20 MHz. */
static double mbps(uint64_t bytes, double clocks)
{
    return clocks > 0 ? (double)bytes / (clocks / 20.0) : 0;
}

static double deviation(double emulated, double seed)
{
    return seed > 0 ? 100.0 * (emulated - seed) / seed : NAN;
}

/* compiler: which compiled the ConSet tables ("paper", "ours"), NULL for message passing. */
static void record(bench_context_t *ctx, const char *pattern, const char *model, const char *compiler, uint32_t words,
                   unsigned phases, double predicted, double emulated, double seed_predicted, double seed_measured,
                   uint64_t bytes)
{
    char name[64];
    snprintf(name, sizeof name, "%s %s %u", pattern, model, words);
    bench_record_begin(ctx, "patterns", name);
    bench_string(ctx, "pattern", pattern);
    bench_string(ctx, "model", model);
    if (compiler != NULL)
        bench_string(ctx, "compiler", compiler);
    bench_u64(ctx, "words", words);
    if (phases)
        bench_u64(ctx, "phases", phases);
    bench_double(ctx, "predicted_clocks", predicted);
    bench_double(ctx, "emulated_clocks", emulated);
    bench_double(ctx, "paper_predicted_clocks", seed_predicted);
    if (seed_measured > 0) {
        bench_double(ctx, "paper_measured_clocks", seed_measured);
        bench_double(ctx, "deviation_percent", deviation(emulated, seed_measured));
    } else {
        bench_null(ctx, "paper_measured_clocks");
    }
    bench_double(ctx, "aggregate_mb_per_s", mbps(bytes, emulated));
    bench_double(ctx, "predicted_aggregate_mb_per_s", mbps(bytes, predicted));
    bench_record_end(ctx);
}

/* Whether the paper mode runs with several seeds for this pattern at size index i (PAPER_SEEDS). */
static bool has_seeds(const pattern_case_t *pc, unsigned i)
{
    return pc->kind != PATTERN_TORUS && i < SEED_SIZES;
}

/* The paper mode's emulated clocks over its seeds: the runs that ended. */
typedef struct seed_spread {
    unsigned n;
    double min, median, max, spread_percent; /* spread: (max - min) / median */
    unsigned phases_min, phases_max;
} seed_spread_t;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Fills sp; false when no seed's run ended. */
static bool seed_spread(const pattern_result_t *r, seed_spread_t *sp)
{
    double v[PAPER_SEEDS];
    memset(sp, 0, sizeof *sp);
    for (unsigned k = 0; k < PAPER_SEEDS; k++) {
        if (r->emulated_seed[k] <= 0)
            continue;
        v[sp->n++] = r->emulated_seed[k];
        if (sp->phases_min == 0 || r->phases_seed[k] < sp->phases_min)
            sp->phases_min = r->phases_seed[k];
        if (r->phases_seed[k] > sp->phases_max)
            sp->phases_max = r->phases_seed[k];
    }
    if (sp->n == 0)
        return false;
    qsort(v, sp->n, sizeof *v, cmp_double);
    sp->min = v[0];
    sp->max = v[sp->n - 1];
    /* The middle one, or the mean of the middle two. */
    sp->median = sp->n % 2 ? v[sp->n / 2] : (v[sp->n / 2 - 1] + v[sp->n / 2]) / 2;
    sp->spread_percent = 100.0 * (sp->max - sp->min) / sp->median;
    return true;
}

static void write_plot(const bench_context_t *ctx, const pattern_case_t *pc, const uint32_t *sizes, unsigned nsizes,
                       const pattern_result_t *r)
{
    const model_pattern_info_t *info = model_pattern(pc->model);
    char title[128];
    snprintf(title, sizeof title, "%s pattern on 8x8: aggregate bandwidth", info->name);
    plot_t p;
    bench_plot_init(ctx, &p, title, "words per connection", "MB/s (all cells)", true, false);
    p.legend_title = "scheme (dashed: its model)";
    /* each model in its measurement's colour; the three ConSet schedules in one hue */
    plot_series_t *s[7];
    s[0] = plot_add(&p, "ConSet, the paper's compiler, emulated", false);
    s[1] = plot_add_model(&p, "ConSet, predicted", s[0]);
    s[2] = plot_add(&p, "message passing, emulated", false);
    s[3] = plot_add_model(&p, "message passing, predicted", s[2]);
    s[4] = plot_add_related(&p, "ConSet, congestion-aware schedule, emulated", s[0]);
    s[5] = plot_add_related(&p, "ConSet, our compiler, emulated", s[0]);
    s[6] = plot_add_model(&p, "ConSet, our compiler, predicted", s[5]);
    /* The measurements the paper publishes (Table 1, the torus) as markers where its sizes are ours. */
    plot_series_t *m[2] = {NULL, NULL};
    for (unsigned i = 0; i < nsizes; i++) {
        double mc = model_seed_measured_conset(pc->model, i), mm = model_seed_measured_msgpass(pc->model, i);
        if (mc <= 0 || mm <= 0 || i >= MODEL_SIZES || sizes[i] != model_sizes[i])
            continue;
        if (m[0] == NULL) {
            m[0] = plot_add_points(&p, "ConSet, measured on iWarp (Table 1)");
            m[1] = plot_add_points(&p, "message passing, measured on iWarp (Table 1)");
        }
        plot_point(m[0], sizes[i], mbps(r[i].bytes, mc));
        plot_point(m[1], sizes[i], mbps(r[i].bytes, mm));
    }
    for (unsigned i = 0; i < nsizes; i++) {
        plot_point(s[0], sizes[i], mbps(r[i].bytes, r[i].emulated_conset));
        plot_point(s[1], sizes[i], mbps(r[i].bytes, r[i].predicted_conset));
        plot_point(s[2], sizes[i], mbps(r[i].bytes, r[i].emulated_msgpass));
        plot_point(s[3], sizes[i], mbps(r[i].bytes, r[i].predicted_msgpass));
        plot_point(s[4], sizes[i], mbps(r[i].bytes, r[i].emulated_links));
        plot_point(s[5], sizes[i], mbps(r[i].bytes, r[i].emulated_ours));
        plot_point(s[6], sizes[i], mbps(r[i].bytes, r[i].predicted_ours));
    }
    char file[64];
    snprintf(file, sizeof file, "patterns_%s.svg", pattern_name(pc->kind));
    bench_write_plot(ctx, &p, "patterns", file);
}

/* The three models of each size as records, in every format (the text report's table is results.csv). */
static void record_pattern(bench_context_t *ctx, const pattern_case_t *pc, const uint32_t *sizes, unsigned nsizes,
                           const pattern_result_t *r)
{
    const model_pattern_info_t *info = model_pattern(pc->model);
    for (unsigned i = 0; i < nsizes; i++) {
        double paper = model_seed_predicted_conset(pc->model, i), measured = model_seed_measured_conset(pc->model, i);
        record(ctx, info->name, "conset", "paper", sizes[i], r[i].phases, r[i].predicted_conset, r[i].emulated_conset,
               paper, measured, r[i].bytes);
        record(ctx, info->name, "conset_ours", "ours", sizes[i], r[i].phases_ours, r[i].predicted_ours,
               r[i].emulated_ours, paper, measured, r[i].bytes);
        record(ctx, info->name, "msgpass", NULL, sizes[i], 0, r[i].predicted_msgpass, r[i].emulated_msgpass,
               model_seed_predicted_msgpass(pc->model, i), model_seed_measured_msgpass(pc->model, i), r[i].bytes);
        record(ctx, info->name, "msgpass_lean", NULL, sizes[i], 0, r[i].predicted_msgpass, r[i].emulated_msgpass_lean,
               model_seed_predicted_msgpass(pc->model, i), model_seed_measured_msgpass(pc->model, i), r[i].bytes);
        record(ctx, info->name, "conset_links", "ours", sizes[i], r[i].phases_links, r[i].predicted_links,
               r[i].emulated_links, NAN, 0, r[i].bytes);
        seed_spread_t sp;
        if (has_seeds(pc, i) && seed_spread(&r[i], &sp)) {
            char name[64];
            snprintf(name, sizeof name, "%s conset_seeds %u", info->name, sizes[i]);
            bench_record_begin(ctx, "patterns", name);
            bench_string(ctx, "pattern", info->name);
            bench_string(ctx, "model", "conset_seeds");
            bench_string(ctx, "compiler", "paper");
            bench_u64(ctx, "words", sizes[i]);
            bench_u64(ctx, "seeds", sp.n);
            bench_double(ctx, "emulated_min_clocks", sp.min);
            bench_double(ctx, "emulated_median_clocks", sp.median);
            bench_double(ctx, "emulated_max_clocks", sp.max);
            bench_double(ctx, "spread_percent", sp.spread_percent);
            bench_u64(ctx, "phases_min", sp.phases_min);
            bench_u64(ctx, "phases_max", sp.phases_max);
            bench_record_end(ctx);
        }
    }
}

/* The pattern's tables: emulated against predicted and the paper's, the seeds' spread, the congestion-aware
 * schedule, faithful against lean, and the calibration against the paper's measured Table 1. */
static void print_pattern(const pattern_case_t *pc, const uint32_t *sizes, unsigned nsizes, const pattern_result_t *r)
{
    const model_pattern_info_t *info = model_pattern(pc->model);
    /* Every line under 120 columns: the links columns have lines of their own under the table. */
    printf("\n%s: %u phase%s (the paper's compiler as we run it; as the paper ran it: %u; ours: %u;\n"
           "congestion-aware: %u), %u messages per cell\n",
           info->name, r[0].phases, r[0].phases == 1 ? "" : "s", info->conset_phases, r[0].phases_ours,
           r[0].phases_links, r[0].messages);
    printf("%7s | %10s %10s %10s %10s | %10s %10s %10s | %9s %9s\n", "words", "ConSet", "ConSet", "paper", "ours",
           "MsgPass", "MsgPass", "paper", "ConSet", "MsgPass");
    printf("%7s | %10s %10s %10s %10s | %10s %10s %10s | %9s %9s\n", "", "predicted", "emulated", "predicted",
           "emulated", "predicted", "emulated", "predicted", "MB/s", "MB/s");
    for (unsigned i = 0; i < nsizes; i++)
        printf("%7u | %10.0f %10.0f %10.0f %10.0f | %10.0f %10.0f %10.0f | %9.1f %9.1f\n", sizes[i],
               r[i].predicted_conset, r[i].emulated_conset, model_seed_predicted_conset(pc->model, i),
               r[i].emulated_ours, r[i].predicted_msgpass, r[i].emulated_msgpass,
               model_seed_predicted_msgpass(pc->model, i), mbps(r[i].bytes, r[i].emulated_conset),
               mbps(r[i].bytes, r[i].emulated_msgpass));
    for (unsigned i = 0; i < nsizes; i++) {
        seed_spread_t sp;
        if (!has_seeds(pc, i) || !seed_spread(&r[i], &sp))
            continue;
        printf("%7u | the paper's compiler, %u seeds: emulated min %.0f, median %.0f, max %.0f (spread %.1f%%), "
               "phases %u..%u\n",
               sizes[i], sp.n, sp.min, sp.median, sp.max, sp.spread_percent, sp.phases_min, sp.phases_max);
    }
    printf("ConSet with the congestion-aware schedule (links: its phases, %d clocks a switch), clocks:\n",
           MODEL_PER_PHASE);
    for (unsigned i = 0; i < nsizes; i++)
        printf("%7u |   links predicted %10.0f, emulated %10.0f\n", sizes[i], r[i].predicted_links,
               r[i].emulated_links);
    printf("the paper-faithful runs against the leaner ones (faithful / lean - 1): ConSet, the paper's compiler "
           "against\nours; message passing, one transmitter against four sends (%s)\n",
           LEAN_SENDS);
    for (unsigned i = 0; i < nsizes; i++)
        printf("%7u |   ConSet %8.0f vs %8.0f  %+6.1f%%   |   MsgPass %8.0f vs %8.0f  %+6.1f%%\n", sizes[i],
               r[i].emulated_conset, r[i].emulated_ours, deviation(r[i].emulated_conset, r[i].emulated_ours),
               r[i].emulated_msgpass, r[i].emulated_msgpass_lean,
               deviation(r[i].emulated_msgpass, r[i].emulated_msgpass_lean));
    if (model_seed_measured_conset(pc->model, 0) > 0) {
        printf("calibration against the paper's measured Table 1 (emulated vs measured):\n");
        for (unsigned i = 0; i < nsizes; i++) {
            double mc = model_seed_measured_conset(pc->model, i), mm = model_seed_measured_msgpass(pc->model, i);
            printf("%7u |   ConSet %8.0f vs %8.0f  %+6.1f%%   |   MsgPass %8.0f vs %8.0f  %+6.1f%%\n", sizes[i],
                   r[i].emulated_conset, mc, deviation(r[i].emulated_conset, mc), r[i].emulated_msgpass, mm,
                   deviation(r[i].emulated_msgpass, mm));
        }
    }
}

int bench_patterns(bench_context_t *ctx)
{
    uint32_t sizes[MODEL_SIZES];
    unsigned nsizes = ctx->quick ? 2 : MODEL_SIZES;
    memcpy(sizes, model_sizes, sizeof sizes);
    int rc = 0;
    if (bench_report(ctx))
        printf("The ConSet paper's basic patterns on the emulated 8x8 array, %d channels for connections; clocks at 20 "
               "MHz.\n"
               "ConSet: compiled as the paper's compiler (`iwarp route --paper`: its router, rip-up rounds and greedy\n"
               "AS only); predicted: the paper's models with that compiler's phases; paper: its Tables 1-3.\n"
               "ours: emulated with our compiler's tables (`iwarp route`, the default). links: ours with `--links`\n"
               "(the scheduler keeps connections that share a physical link apart and the cells keep to its clock):\n"
               "predicted = its phases + %d clocks a switch.\n",
               CAPACITY, MODEL_PER_PHASE);
    /* Every run of every pattern at every size is a job; several go at once (--jobs); the report follows in
     * order. */
    pattern_result_t results[NCASES][MODEL_SIZES];
    pattern_job_t jobs[NCASES * MODEL_SIZES * (JOB_SEED + PAPER_SEEDS)];
    unsigned njobs = 0;
    memset(results, 0, sizeof results);
    for (unsigned c = 0; c < NCASES; c++)
        for (unsigned i = 0; i < nsizes; i++) {
            for (unsigned k = JOB_MSGPASS; k < JOB_SEED; k++)
                jobs[njobs++] = (pattern_job_t){c, i, (job_kind_t)k, 0, &results[c][i], false};
            for (unsigned seed = 2; has_seeds(&cases[c], i) && seed <= PAPER_SEEDS; seed++)
                jobs[njobs++] = (pattern_job_t){c, i, JOB_SEED, seed, &results[c][i], false};
        }
    run_jobs(ctx, jobs, njobs);
    bool ok[NCASES][MODEL_SIZES];
    for (unsigned c = 0; c < NCASES; c++)
        for (unsigned i = 0; i < MODEL_SIZES; i++)
            ok[c][i] = true;
    for (unsigned k = 0; k < njobs; k++)
        ok[jobs[k].c][jobs[k].i] &= jobs[k].ok;
    unsigned all_sizes = nsizes;
    for (unsigned c = 0; c < NCASES; c++) {
        const pattern_case_t *pc = &cases[c];
        pattern_result_t *r = results[c];
        /* After Ctrl-C (interrupt.h) only the sizes whose three runs all ended are results. */
        nsizes = 0;
        for (unsigned i = 0; i < all_sizes; i++) {
            bool ended = ok[c][i];
            if (!ended && interrupt_requested())
                break;
            if (!ended)
                rc = -1;
            nsizes++;
        }
        if (nsizes == 0)
            continue;
        record_pattern(ctx, pc, sizes, nsizes, r);
        if (bench_report(ctx))
            print_pattern(pc, sizes, nsizes, r);
        write_plot(ctx, pc, sizes, nsizes, r);
    }
    return rc;
}
