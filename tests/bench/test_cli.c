/* iwarp bench as a person runs it (the binary is argv[1]): its records as CSV and as JSON, and the emulated
 * clocks they report are the ones the end-to-end tests pin (tests/golden/cycles.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <math.h>
#include <sys/stat.h>

#include "command.h"
#include "iwarp_config.h"
#include "test_dir.h"

static const char *iwarp;
/* The folder of this run of the test (test_dir.h): two runs at once (a suite under valgrind beside another) must not
 * write into each other's. */
static char out_dir[256];

static int bench(char **out, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' bench --out %s %s", iwarp, out_dir, args);
    return command_run(cmd, out);
}

/* The pinned value of NAME in tests/golden/cycles.txt. */
static unsigned long golden(const char *name)
{
    FILE *f = fopen(IWARP_SOURCE_ROOT "/tests/golden/cycles.txt", "r");
    assert_non_null(f);
    char line[512], key[256];
    unsigned long value = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL)
        found = sscanf(line, "%255s %lu", key, &value) == 2 && strcmp(key, name) == 0;
    fclose(f);
    if (!found)
        fail_msg("no golden value %s", name);
    return value;
}

/* Splits one CSV line without quoted fields (the bench's never need quotes) into at most max fields. */
static size_t split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *comma = strchr(p, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static size_t column(char **header, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    fail_msg("no column %s", name);
    return 0;
}

static void test_csv_has_a_row_per_case_with_the_pinned_clocks(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bench(&out, "--quick --csv patterns"), 0);
    enum { MAX_FIELDS = 64 };
    char *header[MAX_FIELDS], *fields[MAX_FIELDS];
    char *save, *line = strtok_r(out, "\r\n", &save);
    while (line != NULL && line[0] == '#') /* the metadata lines before the header */
        line = strtok_r(NULL, "\r\n", &save);
    assert_non_null(line);
    size_t nh = split(line, header, MAX_FIELDS);
    size_t c_case = column(header, nh, "case"), c_emulated = column(header, nh, "emulated_clocks");
    size_t c_min = column(header, nh, "emulated_min_clocks"), c_max = column(header, nh, "emulated_max_clocks"),
           c_median = column(header, nh, "emulated_median_clocks"), c_seeds = column(header, nh, "seeds");
    assert_int_equal(column(header, nh, "bench"), 0);
    unsigned rows = 0, pinned = 0, spreads = 0;
    /* The end-to-end tests compile with our compiler (the default): the bench's conset_ours rows. */
    static const struct {
        const char *name, *golden;
    } pins[] = {{"torus conset_ours 32", "conset_torus_8x8_32"},
                {"butterfly conset_ours 32", "conset_butterfly_8x8_32"},
                {"butterfly conset_links 32", "conset_butterfly_links_8x8_32"}};
    double paper_butterfly_32 = 0, one_transmitter = 0, four_sends = 0;
    while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        size_t n = split(line, fields, MAX_FIELDS);
        assert_int_equal(n, nh);
        assert_string_equal(fields[0], "patterns");
        rows++;
        for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
            if (strcmp(fields[c_case], pins[i].name) == 0) {
                assert_int_equal(strtoul(fields[c_emulated], NULL, 10), golden(pins[i].golden));
                pinned++;
            }
        if (strcmp(fields[c_case], "butterfly conset 32") == 0)
            paper_butterfly_32 = strtod(fields[c_emulated], NULL);
        /* Message passing with the paper's one transmitter, and with four sends at once beside it. */
        if (strcmp(fields[c_case], "torus msgpass 256") == 0)
            one_transmitter = strtod(fields[c_emulated], NULL);
        if (strcmp(fields[c_case], "torus msgpass_lean 256") == 0)
            four_sends = strtod(fields[c_emulated], NULL);
        /* The paper mode's seeds: five runs, ordered figures; seed 1 is the conset row (checked below). */
        if (strstr(fields[c_case], "conset_seeds") != NULL) {
            assert_int_equal(strtoul(fields[c_seeds], NULL, 10), 5);
            double lo = strtod(fields[c_min], NULL), mid = strtod(fields[c_median], NULL),
                   hi = strtod(fields[c_max], NULL);
            assert_true(lo > 0 && lo <= mid && mid <= hi);
            if (strcmp(fields[c_case], "butterfly conset_seeds 32") == 0) {
                assert_true(paper_butterfly_32 >= lo && paper_butterfly_32 <= hi);
            }
            spreads++;
        }
    }
    /* three patterns, two sizes (quick), five models; the seeds of two patterns at both sizes */
    assert_int_equal(rows, 3 * 2 * 5 + 2 * 2);
    assert_int_equal(pinned, 3);
    assert_int_equal(spreads, 2 * 2);
    assert_true(paper_butterfly_32 > 0);
    /* On the torus four sends starve the receive of the memory port (docs/runtime.md): they take longer. */
    assert_true(one_transmitter > 0 && four_sends > one_transmitter);
    free(out);
}

/* bench collectives: every case right (no error, no wrong word), as many rows as --quick has cases, chunked
 * faster than naive for every pattern's 1024-word contiguous message on a row of 8, and a row's clocks the
 * same as `iwarp coll` gives for that case. */
static void test_collectives_records_are_right_and_agree_with_iwarp_coll(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bench(&out, "--quick --csv collectives"), 0);
    enum { MAX_FIELDS = 64 };
    char *header[MAX_FIELDS], *fields[MAX_FIELDS];
    char *save, *line = strtok_r(out, "\r\n", &save);
    while (line != NULL && line[0] == '#')
        line = strtok_r(NULL, "\r\n", &save);
    assert_non_null(line);
    size_t nh = split(line, header, MAX_FIELDS);
    size_t c_error = nh; /* a column only when some case failed */
    for (size_t i = 0; i < nh; i++)
        if (strcmp(header[i], "error") == 0)
            c_error = i;
    size_t c_case = column(header, nh, "case"), c_wrong = column(header, nh, "wrong"),
           c_clocks = column(header, nh, "clocks"), c_speedup = column(header, nh, "speedup_over_naive"),
           c_words = column(header, nh, "words");
    unsigned rows = 0, faster = 0;
    unsigned long pinned = 0;
    while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        size_t n = split(line, fields, MAX_FIELDS);
        assert_int_equal(n, nh);
        rows++;
        if (strncmp(fields[c_case], "message/", 8) == 0)
            continue;
        if ((c_error < nh && fields[c_error][0] != '\0') || strcmp(fields[c_wrong], "0") != 0)
            fail_msg("%s: error '%s', wrong %s", fields[c_case], c_error < nh ? fields[c_error] : "", fields[c_wrong]);
        if (strncmp(fields[c_case], "sweep/", 6) == 0 && strstr(fields[c_case], "/chunked/") != NULL &&
            atof(fields[c_speedup]) > 1.0 && strcmp(fields[c_words], "1024") == 0 &&
            strstr(fields[c_case], "/1x") != NULL)
            faster++;
        if (strcmp(fields[c_case], "sweep/bcast/chunked/rows/8x1/1x1024/lda1024") == 0)
            pinned = strtoul(fields[c_clocks], NULL, 10);
    }
    /* --quick: 8 patterns x 2 sizes x 2 layouts x 2 or 3 implementations, Table 1's two matrices x 3 Q x
     * 2 (bcast, reduce) x 5, the 8x8 array's whole (no tree multi-pattern when quick) and columns, and 3 x 6
     * chunk sizes, and the one-message fits (3 implementations x 2 layouts) */
    assert_int_equal(rows, (5 * 3 + 3 * 2) * 4 + 2 * 3 * 2 * 5 + (5 * 3 + 2) + (5 * 3 + 3 * 2) + 3 * 6 + 6);
    assert_int_equal(faster, 8); /* every pattern's 1024-word contiguous message */
    free(out);
    char *coll;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "'%s' coll bcast --impl chunked --array 8x1 --block 1x1024 --chunk 8192 --json", iwarp);
    assert_int_equal(command_run(cmd, &coll), 0);
    char want[64];
    snprintf(want, sizeof want, "\"clocks\": %lu,", pinned);
    if (pinned == 0 || strstr(coll, want) == NULL)
        fail_msg("bench says %lu clocks, iwarp coll says:\n%s", pinned, coll);
    free(coll);
}

/* The CSV without its "# key: value" metadata lines (they hold the date, which differs between two runs). */
static char *without_metadata(const char *csv)
{
    char *out = malloc(strlen(csv) + 1);
    assert_non_null(out);
    size_t n = 0;
    for (const char *p = csv; *p != '\0';) {
        const char *eol = strchr(p, '\n');
        size_t len = eol != NULL ? (size_t)(eol - p) + 1 : strlen(p);
        if (*p != '#') {
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    out[n] = '\0';
    return out;
}

/* The JSON document read by a JSON library (jansson), record by record against the CSV rows read as CSV: the
 * same records in the same order, every field the same value. */
static void test_json_and_csv_give_the_same_records(void **state)
{
    (void)state;
    char *csv_text, *json_text;
    assert_int_equal(bench(&csv_text, "--quick --csv logp"), 0);
    assert_int_equal(bench(&json_text, "--quick --json logp"), 0);
    json_error_t jerr;
    json_t *doc = json_loads(json_text, 0, &jerr);
    if (doc == NULL)
        fail_msg("the JSON does not parse: %s at line %d", jerr.text, jerr.line);
    json_t *records = json_object_get(doc, "records");
    assert_true(json_is_array(records));
    assert_true(json_array_size(records) > 10);
    char *csv = without_metadata(csv_text);
    enum { MAX_FIELDS = 64 };
    char *header[MAX_FIELDS], *fields[MAX_FIELDS];
    char *save, *line = strtok_r(csv, "\r\n", &save);
    size_t nh = split(line, header, MAX_FIELDS);
    size_t index = 0;
    while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
        size_t n = split(line, fields, MAX_FIELDS);
        assert_int_equal(n, nh);
        json_t *rec = json_array_get(records, index++);
        assert_non_null(rec);
        for (size_t k = 0; k < nh; k++) {
            json_t *v = json_object_get(rec, header[k]);
            if (v == NULL || json_is_null(v)) { /* a field another record has, or a null: empty in the CSV */
                if (fields[k][0] != '\0')
                    fail_msg("record %zu field %s: '%s' in the CSV, absent or null in the JSON", index, header[k],
                             fields[k]);
            } else if (json_is_string(v)) {
                assert_string_equal(json_string_value(v), fields[k]);
            } else if (json_is_number(v)) {
                if (strtod(fields[k], NULL) != json_number_value(v))
                    fail_msg("record %zu field %s: %s in the CSV, %.17g in the JSON", index, header[k], fields[k],
                             json_number_value(v));
            } else {
                fail_msg("record %zu field %s: a JSON value of an unexpected type", index, header[k]);
            }
        }
    }
    assert_int_equal(index, json_array_size(records));
    json_decref(doc);
    free(csv);
    free(csv_text);
    free(json_text);
}

/* Both carry the metadata: product, commit, date, host, options and the machine description. */
static void test_results_carry_their_metadata(void **state)
{
    (void)state;
    char *csv, *json;
    assert_int_equal(bench(&csv, "--quick --csv logp"), 0);
    assert_int_equal(bench(&json, "--quick --json logp"), 0);
    json_t *doc = json_loads(json, 0, NULL);
    assert_non_null(doc);
    json_t *meta = json_object_get(doc, "metadata");
    assert_true(json_is_object(meta));
    assert_string_equal(json_string_value(json_object_get(meta, "product")), "iwarp");
    static const char *const keys[] = {"version", "commit", "date", "host", "options"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = json_string_value(json_object_get(meta, keys[i]));
        if (v == NULL || v[0] == '\0')
            fail_msg("no metadata '%s'", keys[i]);
    }
    assert_non_null(strstr(json_string_value(json_object_get(meta, "options")), "bench --out"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(meta, "machine"), "width")), "8");
    json_decref(doc);
    static const char *const lines[] = {"# product: iwarp\n", "# commit: ", "# date: 20", "# machine.width: 8\n",
                                        "# machine.queue_depth: "};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (strstr(csv, lines[i]) == NULL)
            fail_msg("the CSV has no '%s'", lines[i]);
    free(csv);
    free(json);
}

/* The text report leaves the same table beside its plots, in a folder of its own; a second run leaves the first
 * run's folder as it was; `latest` points at the newest. */
static void test_each_report_keeps_its_own_folder(void **state)
{
    (void)state;
    assert_int_equal(test_dir_remove(out_dir), 0);
    assert_int_equal(mkdir(out_dir, 0700), 0);
    char row_prefix[300];
    snprintf(row_prefix, sizeof row_prefix, "every measured case as a row: %s/", out_dir);
    char *csv, *report, *again;
    assert_int_equal(bench(&csv, "--quick --csv logp"), 0);
    assert_int_equal(bench(&report, "--quick logp"), 0);
    const char *at = strstr(report, row_prefix);
    assert_non_null(at);
    char first[512];
    at += strlen("every measured case as a row: ");
    snprintf(first, sizeof first, "%.*s", (int)strcspn(at, "\n"), at);
    assert_non_null(strstr(first, "-quick/results.csv"));
    char cmd[700], *table;
    snprintf(cmd, sizeof cmd, "cat '%s'", first);
    assert_int_equal(command_run(cmd, &table), 0);
    char *a = without_metadata(table), *b = without_metadata(csv);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(bench(&again, "--quick logp"), 0);
    at = strstr(again, row_prefix);
    assert_non_null(at);
    assert_null(strstr(again, first)); /* a folder of its own */
    char *table2;
    assert_int_equal(command_run(cmd, &table2), 0); /* the first is still there, the same */
    assert_string_equal(table2, table);
    struct stat st;
    char latest[300];
    snprintf(latest, sizeof latest, "%s/latest", out_dir);
    assert_int_equal(lstat(latest, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *ls;
    snprintf(cmd, sizeof cmd, "ls '%s/' | grep -c svg", latest);
    assert_int_equal(command_run(cmd, &ls), 0);
    free(ls);
    /* The newest folder is the one latest names, and it is the second text run's. */
    char *target;
    snprintf(cmd, sizeof cmd, "readlink '%s'", latest);
    assert_int_equal(command_run(cmd, &target), 0);
    target[strcspn(target, "\n")] = '\0';
    assert_non_null(strstr(again, target));
    free(target);
    free(csv);
    free(report);
    free(again);
    free(table);
    free(table2);
}

/* Ctrl-C: the bench stops after the case it is in, reports what ended, keeps its table in its own folder marked
 * partial, leaves `latest` where it was (here: nowhere, no run before it was whole), and exits 130. (Until the
 * test had a folder of its own it read `latest` of an earlier whole run left in a shared /tmp folder.) */
static void test_ctrl_c_keeps_what_ended(void **state)
{
    (void)state;
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd, "timeout --preserve-status -s INT 3 '%s' bench --out '%s/int' patterns 2>&1", iwarp,
             out_dir);
    assert_int_equal(command_run(cmd, &out), 130);
    if (strstr(out, "interrupted") == NULL || strstr(out, "every measured case as a row: ") == NULL)
        fail_msg("no report of the cases that ended:\n%s", out);
    const char *folder = strstr(out, "this run's folder: ");
    if (folder == NULL || strstr(folder, " (partial; ") == NULL)
        fail_msg("the run's folder is not said to be partial:\n%s", out);
    folder += strlen("this run's folder: ");
    char csv[600];
    snprintf(csv, sizeof csv, "%.*s/results.csv", (int)strcspn(folder, " "), folder);
    free(out);
    snprintf(cmd, sizeof cmd, "head -1 '%s'; grep -c '^patterns,' '%s'", csv, csv);
    assert_int_equal(command_run(cmd, &out), 0);
    if (strncmp(out, "# partial: interrupted", 22) != 0)
        fail_msg("%s does not start with its partial mark:\n%s", csv, out);
    assert_true(atoi(strchr(out, '\n') + 1) >= 3); /* at least the first size of the torus, under its three models */
    free(out);
    struct stat st;
    snprintf(cmd, sizeof cmd, "%s/int/latest", out_dir);
    assert_int_equal(lstat(cmd, &st), -1);
}

static void test_one_format_at_a_time(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bench(&out, "--json --csv speed 2>&1"), 2);
    assert_non_null(strstr(out, "--json or --csv, not both"));
    free(out);
    char cmd[256]; /* a folder that cannot be made fails before anything runs */
    snprintf(cmd, sizeof cmd, "'%s' bench --quick --out /proc/iwarp-no logp 2>&1", iwarp);
    assert_int_equal(command_run(cmd, &out), 2);
    assert_non_null(strstr(out, "cannot write into /proc/iwarp-no"));
    free(out);
    assert_int_equal(bench(&out, "--quick nosuchbench 2>&1"), 2);
    assert_non_null(strstr(out, "no bench named 'nosuchbench'"));
    free(out);
}

/* The report of `bench --quick --json NAME`, parsed. */
static json_t *quick_json(const char *name)
{
    char *out, args[128];
    snprintf(args, sizeof args, "--quick --json %s", name);
    assert_int_equal(bench(&out, args), 0);
    json_error_t err;
    json_t *doc = json_loads(out, 0, &err);
    free(out);
    if (doc == NULL)
        fail_msg("not JSON: %s", err.text);
    return doc;
}

/* bench speed: every case ran (emulated clocks and bundles), and the one built from a run description emulated
 * what `iwarp run` of that description does, to the clock. */
static void test_speed_cases_emulate_what_iwarp_run_does(void **state)
{
    (void)state;
    json_t *doc = quick_json("speed");
    size_t i, seen = 0;
    json_int_t alltoall = -1;
    json_t *r;
    json_array_foreach(json_object_get(doc, "records"), i, r)
    {
        if (strcmp(json_string_value(json_object_get(r, "bench")), "speed") != 0)
            continue;
        seen++;
        const char *name = json_string_value(json_object_get(r, "case"));
        if (json_integer_value(json_object_get(r, "emulated_cycles")) <= 0 ||
            json_integer_value(json_object_get(r, "emulated_bundles")) <= 0)
            fail_msg("%s: no clocks or bundles", name);
        if (strcmp(name, "conset all-to-all 8x8") == 0)
            alltoall = json_integer_value(json_object_get(r, "emulated_cycles"));
    }
    json_decref(doc);
    assert_int_equal(seen, 9);
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "'%s' run '%s/programs/patterns/conset_alltoall.run' --json", iwarp, IWARP_SOURCE_ROOT);
    assert_int_equal(command_run(cmd, &out), 0);
    doc = json_loads(out, 0, NULL);
    free(out);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "cycles")), alltoall);
    json_decref(doc);
}

/* bench caching: the emulated break-even and speedup beside the model fed with the clocks per tuple the
 * emulation measured (Pred-Dyn): they agree, and caching never pays below the model's threshold. */
static void test_caching_agrees_with_its_dynamic_model(void **state)
{
    (void)state;
    json_t *doc = quick_json("caching");
    json_t *records = json_object_get(doc, "records");
    size_t i, seen = 0;
    json_t *r;
    json_array_foreach(records, i, r)
    {
        if (strcmp(json_string_value(json_object_get(r, "bench")), "caching") != 0)
            continue;
        seen++;
        double sp = json_number_value(json_object_get(r, "speedup"));
        double dyn = json_number_value(json_object_get(r, "speedup_pred_dyn"));
        if (fabs(sp - dyn) > 0.01 * dyn)
            fail_msg("n_g %lld: speedup %.3f, Pred-Dyn %.3f", (long long)json_integer_value(json_object_get(r, "n_g")),
                     sp, dyn);
        const char *pred = json_string_value(json_object_get(r, "break_even_pred_dyn"));
        json_t *be = json_object_get(r, "break_even");
        if (strcmp(pred, "NONE") == 0 || strcmp(pred, "INF") == 0)
            assert_true(json_is_null(be));
        else if (!json_is_integer(be) || labs((long)json_integer_value(be) - atol(pred)) > 1)
            fail_msg("n_g %lld: break-even %s, Pred-Dyn %s", (long long)json_integer_value(json_object_get(r, "n_g")),
                     json_is_integer(be) ? "a number" : "none", pred);
        /* The leaner CA, without bypass stalls, follows the static model instead: within 1% of its speedup. */
        double lean = json_number_value(json_object_get(r, "speedup_no_stalls"));
        double stat = json_number_value(json_object_get(r, "speedup_pred_stat"));
        if (fabs(lean - stat) > 0.01 * stat)
            fail_msg("n_g %lld: speedup without stalls %.3f, Pred-Stat %.3f",
                     (long long)json_integer_value(json_object_get(r, "n_g")), lean, stat);
    }
    assert_int_equal(seen, 16);
    json_decref(doc);
}

/* bench caching's loops are the address relation caching paper's (section 4.1): written to its static counts, they
 * run at its dynamic counts once the bypass stalls are counted (docs/isa.md). */
static void test_caching_loops_run_at_the_papers_dynamic_counts(void **state)
{
    (void)state;
    json_t *doc = quick_json("caching");
    json_t *records = json_object_get(doc, "records");
    size_t i;
    json_t *r, *loops = NULL;
    json_array_foreach(records, i, r) if (strcmp(json_string_value(json_object_get(r, "bench")), "caching_loops") == 0)
        loops = r;
    assert_non_null(loops);
    static const struct {
        const char *field;
        double paper;
    } want[] = {{"n_au_static", 5}, {"n_o_static", 6}, {"n_ac_static", 2},
                {"n_au_trip", 7},   {"n_o_trip", 8},   {"n_ac_trip", 3}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        if (json_number_value(json_object_get(loops, want[k].field)) != want[k].paper)
            fail_msg("%s is %g, the paper's %g", want[k].field,
                     json_number_value(json_object_get(loops, want[k].field)), want[k].paper);
    json_decref(doc);
}

/* bench caching, HPF part: a record per case and iteration count; the relation is one block per cell where the
 * layouts agree and one per element where every run is one element long, and there caching pays. */
static void test_caching_hpf_records_per_case_and_iteration(void **state)
{
    (void)state;
    json_t *doc = quick_json("caching");
    size_t i, seen = 0;
    json_t *r;
    json_array_foreach(json_object_get(doc, "records"), i, r)
    {
        if (strcmp(json_string_value(json_object_get(r, "bench")), "caching_hpf") != 0)
            continue;
        seen++;
        const char *a = json_string_value(json_object_get(r, "assignment"));
        long long n = json_integer_value(json_object_get(r, "iterations"));
        long long size = json_integer_value(json_object_get(r, "size"));
        double blocks = json_number_value(json_object_get(r, "blocks_per_source"));
        double u = json_number_value(json_object_get(r, "uncached_mean_latency"));
        double c = json_number_value(json_object_get(r, "cached_mean_latency"));
        assert_true(n >= 1 && n <= 4 && u > 0 && c > 0);
        if (strcmp(a, "S(:,BLOCK) -> D(:,BLOCK)") == 0)
            assert_true(blocks == 1);
        if (strcmp(a, "S(CYCLIC,:) -> D(BLOCK,:)") == 0) {
            assert_true(blocks == (double)(size * size / 16));
            if (n == 4 && !(json_integer_value(json_object_get(r, "cached_latency")) <
                            json_integer_value(json_object_get(r, "uncached_latency"))))
                fail_msg("%s: caching does not pay in the steady state", a);
        }
    }
    assert_int_equal(seen, 6 * 4);
    json_decref(doc);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s IWARP\n", argv[0]);
        return 2;
    }
    iwarp = argv[1];
    if (test_dir_make(out_dir, sizeof out_dir, "iwarp-bench-test") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_has_a_row_per_case_with_the_pinned_clocks),
        cmocka_unit_test(test_collectives_records_are_right_and_agree_with_iwarp_coll),
        cmocka_unit_test(test_json_and_csv_give_the_same_records),
        cmocka_unit_test(test_results_carry_their_metadata),
        cmocka_unit_test(test_each_report_keeps_its_own_folder),
        cmocka_unit_test(test_ctrl_c_keeps_what_ended),
        cmocka_unit_test(test_one_format_at_a_time),
        cmocka_unit_test(test_speed_cases_emulate_what_iwarp_run_does),
        cmocka_unit_test(test_caching_agrees_with_its_dynamic_model),
        cmocka_unit_test(test_caching_loops_run_at_the_papers_dynamic_counts),
        cmocka_unit_test(test_caching_hpf_records_per_case_and_iteration),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    test_dir_remove(out_dir);
    return failed;
}
