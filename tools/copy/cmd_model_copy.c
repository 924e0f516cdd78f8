/* iwarp model copy: the copy-transfer model (Stricker and Gross) evaluated with a machine's table: the paper's
 * own estimates beside its printed figures, or any expression a user writes. docs/copy.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "commands.h"
#include "copy_expr.h"
#include "copy_paper.h"
#include "json.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp model copy [options] [EXPR]\n"
            "  without EXPR: the copy-transfer paper's estimates (Stricker and Gross) for the T3D and the Paragon,\n"
            "  evaluated with its tables, beside the figures it prints\n"
            "  with EXPR: the expression's throughput with one machine's table, and the basic transfers it used\n"
            "    EXPR: transfers (1C64, !S0, 1F0, 0R1, 0D!, Nd, Nadp@4), names the table gives figures (such as\n"
            "          Nd_exchange) and MB/s numbers joined by '->' (in\n"
            "          sequence: reciprocal sum) and '||' (in parallel: minimum), with '(' ')', then optionally\n"
            "          'where 2 * Q <= 0C1, ...' (resource constraints on the composite Q)\n"
            "  --machine t3d|paragon  the paper's table (default t3d)\n"
            "  --table FILE           a table file instead (such as the one `iwarp bench copy` writes for iWarp)\n"
            "  --set TRANSFER=MBPS    change or add one figure (repeatable)\n"
            "  --print-table          print the table as a table file and stop\n"
            "  --json                 one record per estimate\n");
}

static int set_figure(copy_table_t *t, const char *arg)
{
    const char *eq = strchr(arg, '=');
    copy_transfer_t x;
    char *end;
    double v = eq ? strtod(eq + 1, &end) : 0;
    if (eq == NULL || !copy_transfer_parse(arg, (size_t)(eq - arg), &x) || *end != '\0' || eq[1] == '\0' ||
        !isfinite(v) || !(v > 0)) {
        fprintf(stderr, "iwarp model copy: --set wants TRANSFER=MBPS (such as Nd@2=70), not '%s'\n", arg);
        return -1;
    }
    if (copy_table_set(t, &x, v) != 0) {
        fprintf(stderr, "iwarp model copy: the table is full\n");
        return -1;
    }
    return 0;
}

static void print_terms(const copy_result_t *r)
{
    for (unsigned i = 0; i < r->nterms; i++) {
        char a[COPY_NAME_MAX], u[COPY_NAME_MAX];
        copy_transfer_name(&r->terms[i].asked, a, sizeof a);
        copy_transfer_name(&r->terms[i].used, u, sizeof u);
        if (strcmp(a, u) == 0)
            printf("  %-10s %8.4g MB/s\n", a, r->terms[i].mbps);
        else
            printf("  %-10s %8.4g MB/s  (the table's %s)\n", a, r->terms[i].mbps, u);
    }
}

static int one_expression(const copy_table_t *t, const char *expr, bool json)
{
    copy_result_t r;
    char err[300];
    if (copy_eval(expr, t, &r, err, sizeof err) != 0) {
        /* The expression again with a caret under the column the message names. */
        unsigned col = 0;
        sscanf(err, "expr:%u:", &col);
        fprintf(stderr, "%s\n  %s\n  %*s^\n", err, expr, col > 0 ? (int)col - 1 : 0, "");
        return 1;
    }
    double words = r.mbps * 1e6 / t->word_bytes;
    if (json) {
        json_writer_t j;
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_string(&j, "model", "copy");
        json_string(&j, "machine", t->machine);
        json_string(&j, "expr", expr);
        json_double(&j, "mbps", r.mbps);
        json_double(&j, "words_per_second", words);
        json_u64(&j, "word_bytes", t->word_bytes);
        json_bool(&j, "constrained", r.constrained);
        json_end_object(&j);
        json_finish(&j);
        return 0;
    }
    printf("%s (%u-byte words, network at congestion %u):\n  %s\n", t->machine, t->word_bytes, t->congestion, expr);
    printf("= %.4g MB/s, %.4g M words/s%s\n", r.mbps, words / 1e6,
           r.constrained ? " (lowered by a resource constraint)" : "");
    print_terms(&r);
    return 0;
}

static int paper_estimates(bool json)
{
    json_writer_t j;
    if (json) {
        json_init(&j, stdout, true);
        json_begin_object(&j, NULL);
        json_begin_array(&j, "records");
    } else {
        printf("The copy-transfer paper's estimates (Stricker and Gross), evaluated with its tables 1-4:\n\n");
        printf("%-8s %-7s %-6s %-38s %7s %7s\n", "machine", "xQy", "sect.", "expression", "model", "paper");
    }
    int rc = 0;
    for (size_t i = 0; i < copy_paper_estimate_count; i++) {
        const copy_paper_estimate_t *e = &copy_paper_estimates[i];
        copy_result_t r;
        char err[300];
        if (copy_paper_eval(e, &r, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp model copy: %s: %s\n", e->transfer, err);
            rc = 1;
            continue;
        }
        if (json) {
            json_begin_object(&j, NULL);
            json_string(&j, "model", "copy");
            json_string(&j, "machine", e->machine);
            json_string(&j, "transfer", e->transfer);
            json_string(&j, "expr", e->expr);
            if (e->nd > 0)
                json_double(&j, "nd_mbps", e->nd);
            json_double(&j, "mbps", r.mbps);
            json_double(&j, "paper_mbps", e->paper);
            if (e->note)
                json_string(&j, "note", e->note);
            json_end_object(&j);
        } else {
            printf("%-8s %-7s %-6s %-38s %7.2f %7.1f%s%s%s\n", e->machine, e->transfer, e->section, e->expr, r.mbps,
                   e->paper, e->nd > 0 ? "  (Nd 70)" : "", e->note ? "  " : "", e->note ? e->note : "");
        }
    }
    if (json) {
        json_end_array(&j);
        json_end_object(&j);
        json_finish(&j);
    } else {
        printf("\nNd 70: section 5.1 evaluates with a network of 70 MB/s where Table 4 prints 69 (its chained\n"
               "1Q'1 = min(1S0, Nd, 0D1) is printed as 70 MB/s); section 3.4's 25.0 uses 69.\n");
    }
    return rc;
}

int model_copy_cmd(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_MACHINE, OPT_TABLE, OPT_SET, OPT_PRINT, OPT_HELP };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},         {"machine", required_argument, NULL, OPT_MACHINE},
        {"table", required_argument, NULL, OPT_TABLE}, {"set", required_argument, NULL, OPT_SET},
        {"print-table", no_argument, NULL, OPT_PRINT}, {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    bool json = false, print = false, chose = false;
    copy_table_t t;
    copy_table_t3d(&t);
    /* --set applies after the table is chosen, whatever the order on the line. */
    const char *sets[64];
    unsigned nsets = 0;
    char err[300];
    cli_opts_t cli;
    cli_opts_start(&cli, "model copy", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_PRINT: print = true; break;
        case OPT_MACHINE:
            if (copy_table_builtin(optarg, &t) != 0) {
                fprintf(stderr, "iwarp model copy: no built-in table '%s' (t3d, paragon; --table FILE for others)\n",
                        optarg);
                return 2;
            }
            chose = true;
            break;
        case OPT_TABLE:
            if (copy_table_load(optarg, &t, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp model copy: %s\n", err);
                return 1;
            }
            chose = true;
            break;
        case OPT_SET:
            if (nsets == sizeof sets / sizeof sets[0]) {
                fprintf(stderr, "iwarp model copy: at most 64 --set\n");
                return 2;
            }
            sets[nsets++] = optarg;
            chose = true;
            break;
        case OPT_HELP:
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    for (unsigned i = 0; i < nsets; i++)
        if (set_figure(&t, sets[i]) != 0)
            return 2;
    if (print) {
        copy_table_write(&t, stdout);
        return 0;
    }
    if (optind == argc) {
        if (chose) {
            fprintf(stderr, "iwarp model copy: --machine, --table and --set need an EXPR to evaluate\n");
            return 2;
        }
        return paper_estimates(json);
    }
    if (optind != argc - 1) {
        fprintf(stderr, "iwarp model copy: one EXPR (quote it: it has spaces and '|')\n");
        return 2;
    }
    return one_expression(&t, argv[optind], json);
}
