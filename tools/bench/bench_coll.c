/*
 * iwarp bench collectives: the collective patterns of the buffered collectives paper (communication patterns
 * with buffered sends on the Fujitsu AP3000) on the emulated array, naive, chunked and under ConSet, beside the paper's relative-cost model
 * (docs/collectives.md):
 *   1. every pattern on a row of 8 cells (the paper's 1xQ on its 8-node machine), block sizes from 16 words to
 *      64K words, contiguous and strided (rows of 64 words: the paper's 256-byte block size);
 *   2. the paper's Table 1 (row multi-broadcast and multi-reduce, tree and ring, on 1xQ for Q = 2, 4, 8);
 *   3. the whole 8x8 array as one group of 64 cells, and its columns;
 *   4. the chunk size.
 * Every run checks every word of every cell's matrix region.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "coll.h"
#include "coll_model.h"
#include "interrupt.h"
#include "plot.h"

/* CHUNK: the paper's c = 32 KB. Each chunk is a message and pays the runtime's overheads a message (about
 * 1000 clocks of o_s and o_r, `iwarp bench logp`): chunks of a few hundred words cost more than they save. */
enum { ROW = 8, CHUNK = 8192, STRIDED_ROW = 64, MAX_JOBS = 512 };

typedef struct coll_job {
    coll_case_t c;
    const char *section;
    bool model; /* also run the model's one message */
    coll_result_t r, one;
    int rc;
    char err[256];
} coll_job_t;

typedef struct job_list {
    coll_job_t *jobs;
    unsigned n;
    unsigned threads;
} job_list_t;

static void run_job(void *arg, unsigned i)
{
    job_list_t *l = arg;
    coll_job_t *j = &l->jobs[i];
    j->rc = coll_run(&j->c, l->threads, &j->r, j->err, sizeof j->err);
    if (j->rc == 0 && j->model) {
        coll_case_t one = coll_model_message(&j->c);
        j->rc = coll_run(&one, l->threads, &j->one, j->err, sizeof j->err);
    }
}

static bool has_conset(coll_pattern_t p)
{
    return p != COLL_MBCAST_TREE && p != COLL_MREDUCE_TREE && p != COLL_BSEND;
}

static coll_job_t *add(job_list_t *l, const char *section, coll_pattern_t p, coll_impl_t impl, coll_groups_t g,
                       unsigned w, unsigned h, unsigned m, unsigned n, unsigned lda_extra, unsigned chunk, bool model)
{
    if (l->n == MAX_JOBS)
        return NULL;
    coll_job_t *j = &l->jobs[l->n++];
    memset(j, 0, sizeof *j);
    j->section = section;
    j->model = model;
    j->rc = -1; /* until it runs: a run Ctrl-C skipped reports so */
    snprintf(j->err, sizeof j->err, "not run (interrupted)");
    j->c = (coll_case_t){.pattern = p, .impl = impl, .groups = g, .width = w, .height = h, .m = m, .n = n,
                         .chunk = chunk};
    j->c.lda = (coll_is_multi(p) ? n * coll_group_size(&j->c) : n) + lda_extra;
    return j;
}

/* The sweep's blocks: contiguous 1 x words, or strided rows of 64 words (fewer for the smallest) with a gap of
 * as many between them (the multi patterns' rows are strided by the other blocks already). */
static void strided_shape(unsigned words, unsigned *m, unsigned *n)
{
    *n = words >= 2 * STRIDED_ROW ? STRIDED_ROW : words > 1 ? words / 2 : 1;
    *m = words / *n;
}

static const unsigned sweep_words[] = {16, 256, 4096, 65536};
static const unsigned sweep_words_quick[] = {16, 1024};

static void case_name(const coll_job_t *j, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s/%s/%s/%ux%u/%ux%u/lda%u", j->section, coll_pattern_name(j->c.pattern),
             coll_impl_name(j->c.impl), coll_groups_name(j->c.groups), j->c.width, j->c.height, j->c.m, j->c.n,
             j->c.lda);
}

static void record(bench_context_t *ctx, const coll_job_t *j, const coll_job_t *naive)
{
    char name[160];
    case_name(j, name, sizeof name);
    bench_record_begin(ctx, "collectives", name);
    bench_string(ctx, "section", j->section);
    bench_string(ctx, "pattern", coll_pattern_name(j->c.pattern));
    bench_string(ctx, "impl", coll_impl_name(j->c.impl));
    bench_string(ctx, "groups", coll_groups_name(j->c.groups));
    bench_u64(ctx, "width", j->c.width);
    bench_u64(ctx, "height", j->c.height);
    bench_u64(ctx, "group_cells", coll_group_size(&j->c));
    bench_u64(ctx, "m", j->c.m);
    bench_u64(ctx, "n", j->c.n);
    bench_u64(ctx, "lda", j->c.lda);
    /* words: the message the pattern is about (the P blocks together for the multi patterns), as the tables */
    bench_u64(ctx, "words", (uint64_t)j->c.m * j->c.n * (coll_is_multi(j->c.pattern) ? coll_group_size(&j->c) : 1));
    bench_u64(ctx, "block_words", (uint64_t)j->c.m * j->c.n);
    bench_u64(ctx, "chunk", j->c.impl == COLL_CHUNKED ? j->c.chunk : 0);
    if (j->rc != 0) {
        bench_string(ctx, "error", j->err);
        bench_record_end(ctx);
        return;
    }
    bench_u64(ctx, "clocks", j->r.clocks);
    bench_u64(ctx, "bytes", j->r.bytes);
    bench_double(ctx, "mbps", coll_mbps(j->r.bytes, j->r.clocks));
    bench_u64(ctx, "wrong", j->r.wrong);
    if (j->c.impl == COLL_CONSET)
        bench_u64(ctx, "phases", j->r.phases);
    if (naive != NULL && naive != j && naive->rc == 0 && j->r.clocks > 0)
        bench_double(ctx, "speedup_over_naive", (double)naive->r.clocks / (double)j->r.clocks);
    if (j->model) {
        coll_factor_t f = coll_model_factor(j->c.pattern, coll_group_size(&j->c));
        bench_u64(ctx, "message_clocks", j->one.clocks);
        bench_double(ctx, "model_clocks_lo", f.lo * (double)j->one.clocks);
        bench_double(ctx, "model_clocks_hi", f.hi * (double)j->one.clocks);
    }
    bench_record_end(ctx);
}

/* Emulated over model: one figure, or the range when the model gives one (a ring's 1 to 2). */
static void model_cell(const coll_job_t *j, char *buf, size_t cap)
{
    if (j == NULL || j->rc != 0 || j->one.clocks == 0) {
        snprintf(buf, cap, "-");
        return;
    }
    coll_factor_t f = coll_model_factor(j->c.pattern, coll_group_size(&j->c));
    double e = (double)j->r.clocks, t = (double)j->one.clocks;
    if (f.lo == f.hi)
        snprintf(buf, cap, "%.2f", e / (f.lo * t));
    else /* in the order of the model's range: its low end first */
        snprintf(buf, cap, "%.2f-%.2f", e / (f.lo * t), e / (f.hi * t));
}

static const char *mbps_cell(const coll_job_t *j, char *buf, size_t cap)
{
    if (j == NULL)
        snprintf(buf, cap, "-");
    else if (j->rc != 0)
        snprintf(buf, cap, strncmp(j->err, "not run", 7) == 0 ? "-" : "error");
    else if (j->r.wrong != 0)
        snprintf(buf, cap, "WRONG");
    else
        snprintf(buf, cap, "%.2f", coll_mbps(j->r.bytes, j->r.clocks));
    return buf;
}

static const char *ratio_cell(const coll_job_t *j, const coll_job_t *naive, char *buf, size_t cap)
{
    if (j == NULL || naive == NULL || j->rc != 0 || naive->rc != 0 || j->r.clocks == 0)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.2f", (double)naive->r.clocks / (double)j->r.clocks);
    return buf;
}

/* Plot titles: short enough for the plot's width. */
static const char *const plot_titles[COLL_PATTERNS] = {
    "Tree broadcast, a row of 8", "Tree reduce, a row of 8", "Multi-broadcast by trees, a row of 8",
    "Spread (ring multi-broadcast), a row of 8", "Pipelined broadcasts, a row of 8",
    "Multi-reduce by trees, a row of 8", "Ring multi-reduce, a row of 8", "Buffered send ping-pong, a row of 8",
};

static const char *const pattern_titles[COLL_PATTERNS] = {
    "binomial-tree broadcast", "binomial-tree reduce (fp32 sum)", "multi-broadcast by P tree broadcasts",
    "multi-broadcast by P-1 ring shifts (spread)", "multi-broadcast by P pipelined broadcasts",
    "multi-reduce by P tree reduces", "multi-reduce by P-1 ring shifts", "buffered send, ping-pong",
};

/* Section 1: jobs [first, first + count) are, for each pattern, size and layout, naive then chunked then
 * (when it has one) ConSet. */
static unsigned add_sweep(job_list_t *l, bool quick)
{
    unsigned first = l->n;
    const unsigned *words = quick ? sweep_words_quick : sweep_words;
    unsigned nwords = quick ? 2 : sizeof sweep_words / sizeof sweep_words[0];
    for (unsigned p = 0; p < COLL_PATTERNS; p++)
        for (unsigned s = 0; s < nwords; s++)
            for (unsigned strided = 0; strided < 2; strided++) {
                bool multi = coll_is_multi((coll_pattern_t)p);
                unsigned block = multi ? words[s] / ROW : words[s]; /* the multi patterns: P blocks in all */
                unsigned m = 1, n = block;
                if (strided)
                    strided_shape(block, &m, &n);
                unsigned extra = strided && !multi ? n : 0;
                for (unsigned impl = 0; impl < COLL_IMPLS; impl++)
                    if (impl != COLL_CONSET || has_conset((coll_pattern_t)p))
                        add(l, "sweep", (coll_pattern_t)p, (coll_impl_t)impl, COLL_ROWS, ROW, 1, m, n, extra, CHUNK,
                            true);
            }
    return l->n - first;
}

static void print_sweep(bench_context_t *ctx, const coll_job_t *jobs, unsigned count)
{
    unsigned i = 0;
    for (unsigned p = 0; p < COLL_PATTERNS; p++) {
        plot_t pl;
        bench_plot_init(ctx, &pl, plot_titles[p], coll_is_multi((coll_pattern_t)p) ? "words of the P blocks" : "words a block",
                        "MB/s a cell", true, true);
        plot_series_t *series[2][COLL_IMPLS] = {{NULL}};
        static const char *const names[2][COLL_IMPLS] = {{"naive", "chunked", "ConSet"},
                                                          {"naive, strided", "chunked, strided", "ConSet, strided"}};
        /* contiguous and strided of one implementation in one hue and marker, the strided ringed */
        for (unsigned impl = 0; impl < COLL_IMPLS; impl++)
            if (impl != COLL_CONSET || has_conset((coll_pattern_t)p)) {
                series[0][impl] = plot_add(&pl, names[0][impl], false);
                series[1][impl] = plot_add_related(&pl, names[1][impl], series[0][impl]);
            }
        char config[96];
        snprintf(config, sizeof config, "a row of %u cells, chunks of %u words", ROW, CHUNK);
        pl.config = config;
        pl.legend_title = "implementation, layout";
        coll_factor_t f = coll_model_factor((coll_pattern_t)p, ROW);
        if (bench_report(ctx)) {
            /* the model on a line of its own: with the title it ran to 152 columns */
            printf("\n%s, a row of %u cells, chunks of %u words%s\nmodel: ", pattern_titles[p], ROW, CHUNK,
                   coll_is_multi((coll_pattern_t)p) ? " (words: the P blocks together)" : "");
            if (f.lo == f.hi)
                printf("%.0f messages of the block\n", f.lo);
            else
                printf("%.0f to %.0f messages of the block\n", f.lo, f.hi);
            printf("%8s %9s | %8s %8s %7s %8s %7s | %-9s %-9s %-9s\n", "words", "block", "naive", "chunked", "x", "ConSet",
                   "x", "naive", "chunked", "ConSet");
            printf("%8s %9s | %8s %8s %7s %8s %7s | %-29s\n", "", "", "MB/s", "MB/s", "naive", "MB/s", "naive",
                   "emulated / model");
        }
        while (i < count && jobs[i].c.pattern == (coll_pattern_t)p) {
            const coll_job_t *naive = &jobs[i], *chunked = &jobs[i + 1];
            const coll_job_t *conset = has_conset((coll_pattern_t)p) ? &jobs[i + 2] : NULL;
            unsigned used = conset != NULL ? 3 : 2;
            bool strided = naive->c.lda > naive->c.n * (coll_is_multi(naive->c.pattern) ? ROW : 1) || naive->c.m > 1;
            uint64_t words = (uint64_t)naive->c.m * naive->c.n * (coll_is_multi(naive->c.pattern) ? ROW : 1);
            for (unsigned k = 0; k < used; k++) {
                const coll_job_t *j = &jobs[i + k];
                record(ctx, j, naive);
                bool good = j->rc == 0 && j->r.wrong == 0; /* a failed run is a gap in its line */
                plot_point(series[strided][k], (double)words, good ? coll_mbps(j->r.bytes, j->r.clocks) : NAN);
            }
            if (bench_report(ctx)) {
                char b[5][32], mc[3][32], shape[32];
                snprintf(shape, sizeof shape, "%ux%u", naive->c.m, naive->c.n);
                for (unsigned k = 0; k < 3; k++)
                    model_cell(k < used ? &jobs[i + k] : NULL, mc[k], sizeof mc[k]);
                printf("%8llu %9s | %8s %8s %7s %8s %7s | %-9s %-9s %-9s\n", (unsigned long long)words, shape,
                       mbps_cell(naive, b[0], sizeof b[0]), mbps_cell(chunked, b[1], sizeof b[1]),
                       ratio_cell(chunked, naive, b[2], sizeof b[2]), mbps_cell(conset, b[3], sizeof b[3]),
                       ratio_cell(conset, naive, b[4], sizeof b[4]), mc[0], mc[1], mc[2]);
            }
            i += used;
        }
        char file[64];
        snprintf(file, sizeof file, "coll_%s.svg", coll_pattern_name((coll_pattern_t)p));
        bench_write_plot(ctx, &pl, "collectives", file);
    }
}

/* The model's unit, one message of a block between two neighbours, as the runtime's costs: clocks = a + b words,
 * fitted (least squares) over the sweep's sizes, for each implementation and layout. */
static void print_message_fit(bench_context_t *ctx, const coll_job_t *jobs, unsigned count)
{
    if (bench_report(ctx))
        printf("\nOne message of a block between two neighbours (the model's unit) as a cost a message and a cost a\n"
               "word, fitted over the sweep's sizes: clocks = a + b words\n%-8s %-11s %10s %8s\n", "impl", "layout",
               "a, clocks", "b");
    for (unsigned impl = 0; impl < COLL_IMPLS; impl++)
        for (unsigned strided = 0; strided < 2; strided++) {
            double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (unsigned i = 0; i < count; i++) {
                const coll_job_t *j = &jobs[i];
                bool js = j->c.m > 1 || j->c.lda > j->c.n;
                if (j->c.pattern != COLL_BCAST || j->c.impl != (coll_impl_t)impl || js != (bool)strided ||
                    j->rc != 0 || j->one.clocks == 0)
                    continue;
                double x = (double)j->c.m * j->c.n, y = (double)j->one.clocks;
                n++;
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
            if (n < 2 || n * sxx == sx * sx)
                continue;
            double b = (n * sxy - sx * sy) / (n * sxx - sx * sx), a = (sy - b * sx) / n;
            const char *layout = strided ? "strided" : "contiguous";
            if (bench_report(ctx))
                printf("%-8s %-11s %10.0f %8.3f\n", coll_impl_name((coll_impl_t)impl), layout, a, b);
            char name[64];
            snprintf(name, sizeof name, "message/%s/%s", coll_impl_name((coll_impl_t)impl), layout);
            bench_record_begin(ctx, "collectives", name);
            bench_string(ctx, "section", "message");
            bench_string(ctx, "impl", coll_impl_name((coll_impl_t)impl));
            bench_string(ctx, "layout", layout);
            bench_double(ctx, "clocks_a_message", a);
            bench_double(ctx, "clocks_a_word", b);
            bench_record_end(ctx);
        }
}

/* The paper's Table 1, MB/s: [reduce][shape][Q = 2, 4, 8][tree A, tree B, ring A, ring B]. */
static const unsigned paper_table1[2][4][3][4] = {
    {{{26, 23, 36, 36}, {11, 14, 19, 20}, {6, 10, 15, 15}},
     {{24, 28, 33, 39}, {10, 15, 19, 23}, {10, 13, 15, 21}},
     {{40, 34, 37, 45}, {15, 20, 24, 29}, {11, 14, 15, 23}},
     {{28, 32, 44, 41}, {19, 22, 25, 28}, {16, 15, 21, 24}}},
    {{{31, 21, 33, 32}, {12, 11, 17, 18}, {7, 7, 14, 14}},
     {{20, 23, 29, 33}, {11, 12, 17, 19}, {8, 8, 15, 17}},
     {{27, 33, 29, 31}, {15, 18, 20, 20}, {9, 9, 15, 19}},
     {{24, 32, 31, 29}, {17, 14, 24, 20}, {11, 10, 21, 18}}},
};
static const unsigned table1_q[3] = {2, 4, 8};

/* The paper's M x N matrix over 1 x Q, column blocks dealt round the cells: a cell's part is N / Q columns of M
 * words, its own among the others' in the replicated matrix: our block of m = N / Q rows of n = M words, row
 * stride Q M (rows and columns swap: the paper's matrices are column-major). */
static void table1_shape(unsigned shape, unsigned q, unsigned *m, unsigned *n)
{
    static const unsigned cols[4] = {0, 0, 32, 32}, rows[4] = {1000, 1000, 1000, 4000};
    unsigned ncols = shape == 0 ? q : shape == 1 ? 2 * q : cols[shape];
    *n = rows[shape];
    *m = ncols / q;
}

static unsigned add_table1(job_list_t *l, bool quick)
{
    unsigned first = l->n;
    static const coll_pattern_t pats[2][2] = {{COLL_MBCAST_TREE, COLL_MBCAST_RING},
                                              {COLL_MREDUCE_TREE, COLL_MREDUCE_RING}};
    for (unsigned red = 0; red < 2; red++)
        for (unsigned shape = 0; shape < (quick ? 2u : 4u); shape++)
            for (unsigned qi = 0; qi < 3; qi++)
                for (unsigned t = 0; t < 2; t++)
                    for (unsigned impl = 0; impl < (t == 1 ? 3u : 2u); impl++) {
                        unsigned m, n;
                        table1_shape(shape, table1_q[qi], &m, &n);
                        add(l, "table1", pats[red][t], (coll_impl_t)impl, COLL_ROWS, table1_q[qi], 1, m, n, 0, CHUNK,
                            false);
                    }
    return l->n - first;
}

/* One Q's block of Table 1 for multi-broadcast or multi-reduce: a row a shape. jobs: the table's jobs as
 * add_table1 made them (shape, then Q, then the five runs). */
static void print_table1_q(const coll_job_t *jobs, unsigned red, unsigned qi, unsigned shapes)
{
    static const char *const shape_names[4] = {"1000xQ", "1000x2Q", "1000x32", "4000x32"};
    printf("Q=%u\n%-8s %9s %5s %5s %5s %8s %5s %5s %5s %5s\n", table1_q[qi], "M x N", "tree A", "B", "B/A", "paper",
           "ring A", "B", "C", "B/A", "paper");
    for (unsigned shape = 0; shape < shapes; shape++) {
        const coll_job_t *j = &jobs[(red * shapes * 3 + shape * 3 + qi) * 5], *tree = &j[0], *ring = &j[2];
        const unsigned *pp = paper_table1[red][shape][qi];
        char a[5][16], r[2][16];
        printf("%-8s %9s %5s %5s %5.2f %8s %5s %5s %5s %5.2f\n", shape_names[shape], mbps_cell(tree, a[0], 16),
               mbps_cell(&j[1], a[1], 16), ratio_cell(&j[1], tree, r[0], 16), (double)pp[1] / pp[0],
               mbps_cell(ring, a[2], 16), mbps_cell(&j[3], a[3], 16), mbps_cell(&j[4], a[4], 16),
               ratio_cell(&j[3], ring, r[1], 16), (double)pp[3] / pp[2]);
    }
}

/* The paper's Table 1 sets its three Q side by side (300 columns here); a block a Q keeps it under 120. */
static void print_table1(bench_context_t *ctx, const coll_job_t *jobs, unsigned count, bool quick)
{
    unsigned shapes = quick ? 2u : 4u;
    for (unsigned i = 0; i + 5 <= count; i += 5)
        for (unsigned k = 0; k < 5; k++)
            record(ctx, &jobs[i + k], k < 2 ? &jobs[i] : &jobs[i + 2]);
    if (!bench_report(ctx))
        return;
    for (unsigned red = 0; red < 2 && (red + 1) * shapes * 3 * 5 <= count; red++) {
        printf("\nRow multi-%s on 1xQ in MB/s a cell, as the buffered collectives paper's Table 1\n(A naive, B chunked, "
               "C ConSet; M x N fp32 words, column blocks dealt round the cells); B/A here and in the paper\n",
               red ? "reduce" : "broadcast");
        for (unsigned qi = 0; qi < 3; qi++)
            print_table1_q(jobs, red, qi, shapes);
    }
}

/* Section 3: every pattern at one size on the whole 8x8 (one group of 64) and on its columns. */
static unsigned add_whole(job_list_t *l, bool quick)
{
    unsigned first = l->n;
    static const coll_groups_t groupings[2] = {COLL_WHOLE, COLL_COLUMNS};
    for (unsigned g = 0; g < 2; g++)
        for (unsigned p = 0; p < COLL_PATTERNS; p++) {
            bool tree_multi = p == COLL_MBCAST_TREE || p == COLL_MREDUCE_TREE;
            if (groupings[g] == COLL_WHOLE && tree_multi && quick)
                continue;
            unsigned words = groupings[g] == COLL_WHOLE ? (tree_multi ? 64 : 256) : 1024;
            for (unsigned impl = 0; impl < COLL_IMPLS; impl++)
                if (impl != COLL_CONSET || has_conset((coll_pattern_t)p))
                    add(l, "array", (coll_pattern_t)p, (coll_impl_t)impl, groupings[g], 8, 8, 1, words, 0, CHUNK,
                        true);
        }
    return l->n - first;
}

static void print_whole(bench_context_t *ctx, const coll_job_t *jobs, unsigned count)
{
    if (bench_report(ctx))
        printf("\nThe 8x8 array as one group of 64 cells, and as 8 columns of 8 at once (words: of a block)\n"
               "%-8s %-13s %6s | %10s %10s %10s | %8s %8s | %-9s %-9s %-9s\n", "groups", "pattern", "words",
               "naive", "chunked", "ConSet", "chunked", "ConSet", "naive", "chunked", "ConSet");
    if (bench_report(ctx))
        printf("%-8s %-13s %6s | %10s %10s %10s | %8s %8s | %-29s\n", "", "", "", "clocks", "clocks", "clocks",
               "x naive", "x naive", "emulated / model");
    for (unsigned i = 0; i < count;) {
        const coll_job_t *naive = &jobs[i];
        unsigned used = has_conset(naive->c.pattern) ? 3 : 2;
        for (unsigned k = 0; k < used; k++)
            record(ctx, &jobs[i + k], naive);
        if (bench_report(ctx)) {
            char c[3][24], r[2][16], mc[3][32];
            for (unsigned k = 0; k < 3; k++) {
                const coll_job_t *j = k < used ? &jobs[i + k] : NULL;
                if (j == NULL)
                    snprintf(c[k], sizeof c[k], "-");
                else if (j->rc != 0 || j->r.wrong != 0)
                    snprintf(c[k], sizeof c[k], j->rc != 0 ? "error" : "WRONG");
                else
                    snprintf(c[k], sizeof c[k], "%llu", (unsigned long long)j->r.clocks);
                model_cell(j, mc[k], sizeof mc[k]);
            }
            printf("%-8s %-13s %6u | %10s %10s %10s | %8s %8s | %-9s %-9s %-9s\n", coll_groups_name(naive->c.groups),
                   coll_pattern_name(naive->c.pattern), naive->c.m * naive->c.n, c[0], c[1], c[2],
                   ratio_cell(&jobs[i + 1], naive, r[0], sizeof r[0]),
                   ratio_cell(used == 3 ? &jobs[i + 2] : NULL, naive, r[1], sizeof r[1]), mc[0], mc[1], mc[2]);
        }
        i += used;
    }
}

/* Section 4: the chunk size, for a large block on a row of 8. */
static const unsigned chunk_sizes[] = {64, 256, 1024, 4096, 16384};

static unsigned add_chunks(job_list_t *l, bool quick)
{
    unsigned first = l->n;
    static const coll_pattern_t pats[3] = {COLL_BCAST, COLL_MBCAST_RING, COLL_MREDUCE_RING};
    unsigned words = quick ? 4096 : 16384;
    for (unsigned p = 0; p < 3; p++) {
        add(l, "chunks", pats[p], COLL_NAIVE, COLL_ROWS, ROW, 1, 1, words, 0, 1, false);
        for (unsigned k = 0; k < sizeof chunk_sizes / sizeof chunk_sizes[0]; k++)
            add(l, "chunks", pats[p], COLL_CHUNKED, COLL_ROWS, ROW, 1, 1, words, 0, chunk_sizes[k], false);
    }
    return l->n - first;
}

static void print_chunks(bench_context_t *ctx, const coll_job_t *jobs, unsigned count)
{
    unsigned nk = sizeof chunk_sizes / sizeof chunk_sizes[0];
    if (bench_report(ctx)) {
        printf("\nThe chunk size: chunked over naive (naive clocks / chunked clocks), a contiguous block of %u "
               "words on a row of %u\n%-13s",
               jobs[0].c.n, ROW, "pattern");
        for (unsigned k = 0; k < nk; k++)
            printf(" %7u", chunk_sizes[k]);
        printf("\n");
    }
    for (unsigned i = 0; i + nk < count; i += nk + 1) {
        const coll_job_t *naive = &jobs[i];
        if (bench_report(ctx))
            printf("%-13s", coll_pattern_name(naive->c.pattern));
        for (unsigned k = 0; k <= nk; k++) {
            record(ctx, &jobs[i + k], naive);
            char r[16];
            if (k > 0 && bench_report(ctx))
                printf(" %7s", ratio_cell(&jobs[i + k], naive, r, sizeof r));
        }
        if (bench_report(ctx))
            printf("\n");
    }
}

int bench_collectives(bench_context_t *ctx)
{
    job_list_t l = {.jobs = calloc(MAX_JOBS, sizeof(coll_job_t)), .threads = ctx->threads};
    if (l.jobs == NULL) {
        fprintf(stderr, "iwarp bench collectives: out of memory\n");
        return 1;
    }
    unsigned sweep = add_sweep(&l, ctx->quick);
    unsigned table1 = add_table1(&l, ctx->quick);
    unsigned whole = add_whole(&l, ctx->quick);
    unsigned chunks = add_chunks(&l, ctx->quick);
    bench_run_jobs(ctx, "bench collectives", l.n, run_job, &l);
    if (bench_report(ctx))
        printf("The collective patterns of the buffered collectives paper (communication patterns with buffered\n"
               "sends on the Fujitsu AP3000) on the emulated array: naive (whole messages, copied to and from\n"
               "buffers), chunked (chunks sent as soon as ready, received from the gate into place) and ConSet (the\n"
               "tree or ring as connections, streamed through the gates). MB/s a cell: what the pattern delivers a\n"
               "cell over the clocks, at 20 MHz.\n"
               "Model: the paper's cost relative to one message, times one message of the block between two\n"
               "neighbours with the same implementation (emulated).\n");
    print_sweep(ctx, l.jobs, sweep);
    print_message_fit(ctx, l.jobs, sweep);
    print_table1(ctx, l.jobs + sweep, table1, ctx->quick);
    print_whole(ctx, l.jobs + sweep + table1, whole);
    print_chunks(ctx, l.jobs + sweep + table1 + whole, chunks);
    int rc = 0;
    for (unsigned i = 0; i < l.n; i++)
        if ((l.jobs[i].rc != 0 && strncmp(l.jobs[i].err, "not run", 7) != 0) || l.jobs[i].r.wrong != 0) {
            char name[160];
            case_name(&l.jobs[i], name, sizeof name);
            fprintf(stderr, "iwarp bench collectives: %s: %s\n", name,
                    l.jobs[i].rc != 0 ? l.jobs[i].err : "words are wrong");
            rc = 1;
        }
    free(l.jobs);
    return rc != 0 || interrupt_requested() ? 1 : 0;
}
