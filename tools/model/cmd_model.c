/* iwarp model: the analytic models of seed 004, beside the seed's own predictions and, for message passing,
 * beside the same model with c and a fitted to the emulated LogGP microbenchmarks. */
#include <math.h>
#include <stdio.h>

#include "logp.h"
#include "commands.h"
#include "json.h"
#include "model.h"
#include "model_cli.h"
#include "coll_model.h"
#include "model_caching.h"

static int model_conset_cmd(bool json)
{
    json_writer_t j;
    if (json) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_begin_array(&j, "records");
    } else {
        printf("ConSet model: phases x %d clocks (t_sync %d + t_phase %d less 8: what the paper's tables fit)\n"
               "             + %d clocks per word each cell sends\n\n",
               MODEL_PER_PHASE, MODEL_T_SYNC, MODEL_T_PHASE, MODEL_B);
        printf("%-11s %7s %7s %12s %12s %9s\n", "pattern", "phases", "words", "model", "paper pred.", "dev %");
    }
    for (unsigned p = 0; p < MODEL_PATTERNS; p++) {
        const model_pattern_info_t *info = model_pattern((model_pattern_t)p);
        for (unsigned i = 0; i < MODEL_SIZES; i++) {
            double m = model_conset(info->conset_phases, (uint64_t)info->connections * model_sizes[i]);
            double seed = model_seed_predicted_conset((model_pattern_t)p, i);
            double dev = 100.0 * (m - seed) / seed;
            if (json) {
                json_begin_object(&j, NULL);
                json_string(&j, "model", "conset");
                json_string(&j, "pattern", info->name);
                json_u64(&j, "phases", info->conset_phases);
                json_u64(&j, "words", model_sizes[i]);
                json_double(&j, "predicted_clocks", m);
                json_double(&j, "paper_predicted_clocks", seed);
                json_double(&j, "deviation_percent", dev);
                json_end_object(&j);
            } else {
                printf("%-11s %7u %7u %12.0f %12.0f %+9.2f\n", info->name, info->conset_phases, model_sizes[i], m, seed,
                       dev);
            }
        }
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    }
    return 0;
}

/* Least squares of the flood test's time per message against the words per message, at queue depth one. */
static void fit(const logp_result_t *r, double *c, double *a)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (unsigned s = 0; s < r->nsizes; s++) {
        double x = r->sizes_words[s], y = r->per_message[0][s];
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    double n = r->nsizes;
    *a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    *c = (sy - *a * sx) / n;
}

static int model_msgpass_cmd(bool json, bool quick)
{
    logp_setup_t su = {.width = 8, .height = 8, .quick = quick, .runs = 1};
    logp_result_t r;
    if (logp_measure(&su, &r) != 0)
        return 1;
    double c_fit, a_fit;
    fit(&r, &c_fit, &a_fit);
    /* The flood time per message is what one end costs when messages stream: one c and a per word. */
    json_writer_t j;
    if (json) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_double(&j, "paper_c", MODEL_C);
        json_double(&j, "paper_a", MODEL_A);
        json_double(&j, "fitted_c", c_fit);
        json_double(&j, "fitted_a", a_fit);
        json_begin_array(&j, "records");
    } else {
        printf("message passing model: each message costs c clocks at each end, and a clocks per word\n");
        printf("  the ConSet paper (4.3.1):         c = %6.1f   a = %.3f   (header and trailer %d words)\n",
               (double)MODEL_C, (double)MODEL_A, MODEL_HEADER_TRAILER_WORDS);
        printf("  fitted to the emulated flood test: c = %6.1f   a = %.3f   (queue depth 1, %u sizes)\n\n", c_fit,
               a_fit, r.nsizes);
        printf("%-11s %7s %14s %14s %14s\n", "pattern", "words", "paper model", "fitted model", "paper pred.");
    }
    for (unsigned p = 0; p < MODEL_PATTERNS; p++) {
        const model_pattern_info_t *info = model_pattern((model_pattern_t)p);
        for (unsigned i = 0; i < MODEL_SIZES; i++) {
            double seed_model = model_msgpass(info->messages, model_sizes[i], MODEL_C, MODEL_A);
            double fitted = model_msgpass(info->messages, model_sizes[i], c_fit, a_fit);
            double seed = model_seed_predicted_msgpass((model_pattern_t)p, i);
            if (json) {
                json_begin_object(&j, NULL);
                json_string(&j, "model", "msgpass");
                json_string(&j, "pattern", info->name);
                json_u64(&j, "words", model_sizes[i]);
                json_double(&j, "predicted_clocks", seed_model);
                json_double(&j, "fitted_clocks", fitted);
                json_double(&j, "paper_predicted_clocks", seed);
                json_end_object(&j);
            } else {
                printf("%-11s %7u %14.0f %14.0f %14.0f\n", info->name, model_sizes[i], seed_model, fitted, seed);
            }
        }
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    }
    return 0;
}

/* The paper's visible Pred-Stat columns (its Figures 3 and 4): 0 for INF, -1 for NONE. */
typedef struct caching_paper {
    const caching_machine_t *m;
    const caching_loops_t *loops;
    const char *loops_name;
    unsigned first_ng, last_ng; /* the rows we print */
    unsigned paper_first, paper_n;
    int paper_break_even[12];
    double paper_speedup[12];
} caching_paper_t;

static const caching_paper_t caching_tables[] = {
    {&caching_iwarp, &caching_iwarp_static, "static", 1, 16, 1, 8, {0, 12, 7, 5, 4, 4, 3, 3},
     {1.00, 1.09, 1.16, 1.25, 1.33, 1.41, 1.49, 1.59}},
    {&caching_iwarp, &caching_iwarp_dynamic, "dynamic", 1, 16, 0, 0, {0}, {0}},
    {&caching_paragon, &caching_paragon_static, "static", 14, 30, 14, 12, {-1, -1, -1, 41, 20, 14, 11, 9, 7, 7, 6, 5},
     {-1, -1, -1, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09}},
};

static int model_caching_cmd(bool json)
{
    json_writer_t j;
    if (json) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_begin_array(&j, "records");
    }
    for (size_t t = 0; t < sizeof caching_tables / sizeof caching_tables[0]; t++) {
        const caching_paper_t *tb = &caching_tables[t];
        double thr = caching_threshold(tb->m, tb->loops);
        if (!json) {
            printf("%s, %s loop counts (n_au %g, n_o %g, n_ac %g): caching pays for n_g > %.2f\n", tb->m->name,
                   tb->loops_name, tb->loops->n_au, tb->loops->n_o, tb->loops->n_ac, thr);
            printf("%5s %11s %11s %9s %9s\n", "n_g", "break-even", "paper", "speedup", "paper");
        }
        for (unsigned ng = tb->first_ng; ng <= tb->last_ng; ng++) {
            uint64_t n_i;
            caching_break_even_t k = caching_break_even(tb->m, tb->loops, ng, &n_i);
            double sp = caching_speedup(tb->m, tb->loops, ng);
            bool paper = tb->paper_n > 0 && ng >= tb->paper_first && ng < tb->paper_first + tb->paper_n;
            unsigned pi = ng - tb->paper_first;
            char be[24], pbe[24] = "", psp[24] = "";
            caching_break_even_text(k, n_i, be, sizeof be);
            if (paper) {
                int p = tb->paper_break_even[pi];
                caching_break_even_text(p == 0 ? CACHING_AT_INFINITY : p < 0 ? CACHING_NEVER : CACHING_BREAKS_EVEN,
                                        p > 0 ? (uint64_t)p : 0, pbe, sizeof pbe);
                if (tb->paper_speedup[pi] < 0)
                    snprintf(psp, sizeof psp, "NONE");
                else
                    snprintf(psp, sizeof psp, "%.2f", tb->paper_speedup[pi]);
            }
            if (json) {
                json_begin_object(&j, NULL);
                json_string(&j, "model", "caching");
                json_string(&j, "machine", tb->m->name);
                json_string(&j, "loops", tb->loops_name);
                json_u64(&j, "n_g", ng);
                if (k == CACHING_BREAKS_EVEN)
                    json_u64(&j, "break_even", n_i);
                else
                    json_string(&j, "break_even", be);
                json_double(&j, "speedup", sp);
                if (paper) {
                    json_string(&j, "paper_break_even", pbe);
                    json_string(&j, "paper_speedup", psp);
                }
                json_end_object(&j);
            } else {
                /* Below the threshold cached assembly is slower: the paper prints NONE there. */
                char spt[24];
                if (k == CACHING_NEVER)
                    snprintf(spt, sizeof spt, "NONE");
                else
                    snprintf(spt, sizeof spt, "%.3f", sp);
                printf("%5u %11s %11s %9s %9s\n", ng, be, pbe, spt, psp);
            }
        }
        if (!json)
            printf("\n");
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("break-even: the paper's equation 4; speedup: (t_g + t_au) / t_ac from its component times, which its\n"
               "tables follow to within 0.01 (its closed form, equation 5, leaves out the two cache reads of t_ac).\n");
    }
    return 0;
}

int cmd_model(int argc, char **argv)
{
    model_cli_t o;
    int parsed = model_cli_parse(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    switch (o.model) {
    case MODEL_CLI_CONSET: return model_conset_cmd(o.json);
    case MODEL_CLI_MSGPASS: return model_msgpass_cmd(o.json, o.quick);
    case MODEL_CLI_CACHING: return model_caching_cmd(o.json);
    case MODEL_CLI_COPY: return model_copy_cmd(argc - 1, argv + 1);
    case MODEL_CLI_COLL: return model_coll_cmd(argc - 1, argv + 1);
    }
    return 2;
}
