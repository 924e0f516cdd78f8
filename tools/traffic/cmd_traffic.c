/* iwarp traffic: synthetic traffic on the communication agents, one measured point per pattern and rate, as a
 * table, JSON lines and latency-load plots (docs/traffic.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "interrupt.h"
#include "json.h"
#include "plot.h"
#include "traffic.h"

enum { MAX_PATTERNS = 8, MAX_RATES = PLOT_MAX_POINTS };

typedef struct traffic_options {
    traffic_config_t cfg;
    traffic_pattern_t patterns[MAX_PATTERNS];
    unsigned npatterns;
    double rates[MAX_RATES];
    unsigned nrates;
    const char *sizes_text;
    bool json;
    bool links;
    bool quiet;
    const char *out_dir;
} traffic_options_t;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp traffic [options]\n"
            "Drives the communication agents of a torus with host-side traffic generators (no CPU) and measures\n"
            "latency and accepted throughput per pattern and offered load (docs/traffic.md).\n"
            "  --array WxH            torus size (default 8x8; sides 1..32)\n"
            "  --set KEY=VALUE        a machine key (queue_depth, link_clocks, hop_latency, setup_clocks, channels)\n"
            "  --machine FILE         a machine description\n"
            "  --pattern P[,P...]     uniform transpose bitcomp bitrev shuffle tornado neighbour hotspot\n"
            "  --rate R | A:B:STEP | R,R,...  offered data words per cell per clock (default 0.05)\n"
            "  --size N | A-B | N,N,...      data words per message (default 16; 1..%u)\n"
            "  --routing dor|fixed    msg.s's routed messages (default), or pathways set up once from the\n"
            "                         pattern's connection set compiled by iwarp route (permutation patterns)\n"
            "  --injection bernoulli|onoff    (default bernoulli)\n"
            "  --burst CLOCKS         on/off: mean length of an on period (default 100)\n"
            "  --duty F               on/off: fraction of time on, 0 < F <= 1 (default 0.25)\n"
            "  --hotspot X,Y          the hotspot cell (default 0,0)\n"
            "  --hotspot-fraction F   share of messages sent to it (default 0.1)\n"
            "  --seed N               generators' seed (default 1)\n"
            "  --warmup CLOCKS        before the first sample (default 2000)\n"
            "  --sample CLOCKS        one sample period (default 2000)\n"
            "  --samples MIN:MAX      sample periods (default 3:10)\n"
            "  --tolerance F          convergence: relative change between periods (default 0.05)\n"
            "  --drain CLOCKS         limit for the measured messages to arrive (default 20000)\n"
            "  --latency-limit CLOCKS a mean latency above it is saturation (default 2000)\n"
            "  --threads N            host threads (1..64; results do not change)\n"
            "  --json                 one JSON record per point, one per line\n"
            "  --links                with --json: every link's utilization too\n"
            "  --out DIR              where the plots go when there are several rates (default out/traffic)\n"
            "  --quiet                no progress line on a terminal\n"
            "Ctrl-C ends the run after the points measured so far (reported, with their plots); status 130.\n",
            TRAFFIC_MAX_WORDS);
}

static int bad(const char *opt, const char *want, const char *got)
{
    fprintf(stderr, "iwarp traffic: %s wants %s, not '%s'\n", opt, want, got);
    return -1;
}

static int parse_double(const char *s, double lo, double hi, bool lo_open, double *v)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(x) || x < lo || x > hi || (lo_open && x == lo))
        return -1;
    *v = x;
    return 0;
}

static int parse_clocks(const char *s, uint64_t lo, uint64_t *v)
{
    return emu_parse_count(s, v) == 0 && *v >= lo && *v < (1ull << 30) ? 0 : -1;
}

static int parse_rates(const char *s, traffic_options_t *o)
{
    const char *colon = strchr(s, ':');
    if (colon != NULL) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", s);
        char *b = strchr(buf, ':'), *c = b ? strchr(b + 1, ':') : NULL;
        double lo, hi, step;
        if (c == NULL || strchr(c + 1, ':') != NULL)
            return -1;
        *b = *c = '\0';
        if (parse_double(buf, 0, 1, false, &lo) != 0 || parse_double(b + 1, 0, 1, false, &hi) != 0 ||
            parse_double(c + 1, 0, 1, true, &step) != 0 || hi < lo)
            return -1;
        o->nrates = 0;
        /* Count steps rather than adding them up, so 0.01:0.6:0.01 ends at 0.6 and not just below it. */
        for (unsigned k = 0;; k++) {
            double r = lo + k * step;
            if (r > hi + step * 1e-9)
                break;
            if (o->nrates == MAX_RATES)
                return -1;
            o->rates[o->nrates++] = r;
        }
        return 0;
    }
    o->nrates = 0;
    for (const char *p = s;;) {
        char buf[64];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof buf || o->nrates == MAX_RATES)
            return -1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (parse_double(buf, 0, 1, false, &o->rates[o->nrates++]) != 0)
            return -1;
        if (comma == NULL)
            return 0;
        p = comma + 1;
    }
}

static int parse_patterns(const char *s, traffic_options_t *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    o->npatterns = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        if (o->npatterns == MAX_PATTERNS || traffic_pattern_parse(t, &o->patterns[o->npatterns]) != 0)
            return -1;
        o->npatterns++;
    }
    return o->npatterns > 0 && strlen(s) < sizeof buf && s[strlen(s) - 1] != ',' ? 0 : -1;
}

static int parse_options(int argc, char **argv, traffic_options_t *o)
{
    enum {
        OPT_ARRAY = 256,
        OPT_SET,
        OPT_MACHINE,
        OPT_PATTERN,
        OPT_RATE,
        OPT_SIZE,
        OPT_INJECTION,
        OPT_ROUTING,
        OPT_BURST,
        OPT_DUTY,
        OPT_HOTSPOT,
        OPT_HOTSPOT_FRACTION,
        OPT_SEED,
        OPT_WARMUP,
        OPT_SAMPLE,
        OPT_SAMPLES,
        OPT_TOLERANCE,
        OPT_DRAIN,
        OPT_LATENCY_LIMIT,
        OPT_THREADS,
        OPT_JSON,
        OPT_LINKS,
        OPT_OUT,
        OPT_QUIET,
        OPT_HELP,
    };
    static const struct option longopts[] = {
        {"array", required_argument, NULL, OPT_ARRAY},
        {"set", required_argument, NULL, OPT_SET},
        {"machine", required_argument, NULL, OPT_MACHINE},
        {"pattern", required_argument, NULL, OPT_PATTERN},
        {"rate", required_argument, NULL, OPT_RATE},
        {"size", required_argument, NULL, OPT_SIZE},
        {"injection", required_argument, NULL, OPT_INJECTION},
        {"routing", required_argument, NULL, OPT_ROUTING},
        {"burst", required_argument, NULL, OPT_BURST},
        {"duty", required_argument, NULL, OPT_DUTY},
        {"hotspot", required_argument, NULL, OPT_HOTSPOT},
        {"hotspot-fraction", required_argument, NULL, OPT_HOTSPOT_FRACTION},
        {"seed", required_argument, NULL, OPT_SEED},
        {"warmup", required_argument, NULL, OPT_WARMUP},
        {"sample", required_argument, NULL, OPT_SAMPLE},
        {"samples", required_argument, NULL, OPT_SAMPLES},
        {"tolerance", required_argument, NULL, OPT_TOLERANCE},
        {"drain", required_argument, NULL, OPT_DRAIN},
        {"latency-limit", required_argument, NULL, OPT_LATENCY_LIMIT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"json", no_argument, NULL, OPT_JSON},
        {"links", no_argument, NULL, OPT_LINKS},
        {"out", required_argument, NULL, OPT_OUT},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    traffic_config_t *cfg = &o->cfg;
    memset(o, 0, sizeof *o);
    traffic_config_defaults(cfg);
    o->patterns[0] = TRAFFIC_UNIFORM;
    o->npatterns = 1;
    o->rates[0] = cfg->rate;
    o->nrates = 1;
    o->out_dir = "out/traffic";
    unsigned hx = 0, hy = 0;
    char err[512];
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        uint64_t v;
        switch (c) {
        case OPT_ARRAY:
            if (emu_parse_array_size(optarg, &cfg->machine.width, &cfg->machine.height) != 0)
                return bad("--array", "WxH with sides 1..32", optarg);
            break;
        case OPT_SET: {
            char key[64];
            const char *eq = strchr(optarg, '=');
            if (eq == NULL || eq == optarg || (size_t)(eq - optarg) >= sizeof key)
                return bad("--set", "KEY=VALUE", optarg);
            memcpy(key, optarg, (size_t)(eq - optarg));
            key[eq - optarg] = '\0';
            if (emu_machine_set(&cfg->machine, key, eq + 1, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp traffic: --set %s: %s\n", optarg, err);
                return -1;
            }
            break;
        }
        case OPT_MACHINE:
            if (emu_machine_load(&cfg->machine, optarg, err, sizeof err) != 0) {
                fprintf(stderr, "%s\n", err);
                return -1;
            }
            break;
        case OPT_PATTERN:
            if (parse_patterns(optarg, o) != 0)
                return bad("--pattern",
                           "up to 8 of uniform, transpose, bitcomp, bitrev, shuffle, tornado, "
                           "neighbour, hotspot (comma-separated)",
                           optarg);
            break;
        case OPT_RATE:
            if (parse_rates(optarg, o) != 0)
                return bad("--rate", "a rate in 0..1, A:B:STEP or a comma list (at most 64 points)", optarg);
            break;
        case OPT_SIZE:
            if (traffic_parse_sizes(optarg, cfg, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp traffic: %s\n", err);
                return -1;
            }
            break;
        case OPT_INJECTION:
            if (strcmp(optarg, "bernoulli") == 0)
                cfg->injection = TRAFFIC_BERNOULLI;
            else if (strcmp(optarg, "onoff") == 0)
                cfg->injection = TRAFFIC_ONOFF;
            else
                return bad("--injection", "bernoulli or onoff", optarg);
            break;
        case OPT_ROUTING:
            if (strcmp(optarg, "dor") == 0)
                cfg->routing = TRAFFIC_DOR;
            else if (strcmp(optarg, "fixed") == 0)
                cfg->routing = TRAFFIC_FIXED;
            else
                return bad("--routing", "dor or fixed", optarg);
            break;
        case OPT_BURST:
            if (parse_double(optarg, 1, 1e9, false, &cfg->burst) != 0)
                return bad("--burst", "a mean on period of 1..1e9 clocks", optarg);
            break;
        case OPT_DUTY:
            if (parse_double(optarg, 0, 1, true, &cfg->duty) != 0)
                return bad("--duty", "a fraction 0 < F <= 1", optarg);
            break;
        case OPT_HOTSPOT: {
            char tail;
            if (optarg[0] == '-' || sscanf(optarg, "%u,%u%c", &hx, &hy, &tail) != 2 || hx >= 32 || hy >= 32)
                return bad("--hotspot", "X,Y of a cell", optarg);
            break;
        }
        case OPT_HOTSPOT_FRACTION:
            if (parse_double(optarg, 0, 1, false, &cfg->hotspot_fraction) != 0)
                return bad("--hotspot-fraction", "a fraction in 0..1", optarg);
            break;
        case OPT_SEED:
            if (emu_parse_count(optarg, &cfg->seed) != 0)
                return bad("--seed", "a count", optarg);
            break;
        case OPT_WARMUP:
            if (parse_clocks(optarg, 0, &cfg->warmup) != 0)
                return bad("--warmup", "0..2^30 clocks", optarg);
            break;
        case OPT_SAMPLE:
            if (parse_clocks(optarg, 1, &cfg->sample) != 0)
                return bad("--sample", "1..2^30 clocks", optarg);
            break;
        case OPT_SAMPLES: {
            unsigned lo, hi;
            char tail;
            if (sscanf(optarg, "%u:%u%c", &lo, &hi, &tail) != 2 || lo < 1 || hi < lo || hi > 1000)
                return bad("--samples", "MIN:MAX with 1 <= MIN <= MAX <= 1000", optarg);
            cfg->min_samples = lo;
            cfg->max_samples = hi;
            break;
        }
        case OPT_TOLERANCE:
            if (parse_double(optarg, 0, 1, true, &cfg->tolerance) != 0)
                return bad("--tolerance", "a fraction 0 < F <= 1", optarg);
            break;
        case OPT_DRAIN:
            if (parse_clocks(optarg, 0, &cfg->drain_limit) != 0)
                return bad("--drain", "0..2^30 clocks", optarg);
            break;
        case OPT_LATENCY_LIMIT:
            if (parse_double(optarg, 1, 1e12, false, &cfg->latency_limit) != 0)
                return bad("--latency-limit", "a number of clocks >= 1", optarg);
            break;
        case OPT_THREADS:
            if (emu_parse_count(optarg, &v) != 0 || v < 1 || v > 64)
                return bad("--threads", "1..64", optarg);
            cfg->threads = (unsigned)v;
            break;
        case OPT_JSON: o->json = true; break;
        case OPT_LINKS: o->links = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_OUT: o->out_dir = optarg; break;
        case OPT_HELP:
        case 'h': usage(stdout); return 1;
        default: usage(stderr); return -1;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "iwarp traffic: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (o->links && !o->json) {
        fprintf(stderr, "iwarp traffic: --links goes with --json\n");
        return -1;
    }
    if (emu_machine_check(&cfg->machine, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp traffic: %s\n", err);
        return -1;
    }
    if (hx >= cfg->machine.width || hy >= cfg->machine.height) {
        fprintf(stderr, "iwarp traffic: --hotspot %u,%u is outside the %ux%u array\n", hx, hy, cfg->machine.width,
                cfg->machine.height);
        return -1;
    }
    cfg->hotspot = hy * cfg->machine.width + hx;
    /* Every combination is checked before the first point runs, so a bad one does not waste a long sweep. */
    for (unsigned p = 0; p < o->npatterns; p++)
        for (unsigned r = 0; r < o->nrates; r++) {
            traffic_config_t probe = *cfg;
            probe.pattern = o->patterns[p];
            probe.rate = o->rates[r];
            if (traffic_config_check(&probe, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp traffic: %s\n", err);
                return -1;
            }
        }
    return 0;
}

static void sizes_text(const traffic_config_t *cfg, char *buf, size_t cap)
{
    if (cfg->nsizes == 0) {
        snprintf(buf, cap, "%u-%u", cfg->size_lo, cfg->size_hi);
        return;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < cfg->nsizes && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%u", i ? "," : "", cfg->sizes[i]);
}

/* "(x,y) +X": where a link starts and where it goes. */
static void link_name(const traffic_config_t *cfg, unsigned link, char *buf, size_t cap)
{
    unsigned cell = link / 4, w = cfg->machine.width;
    snprintf(buf, cap, "(%u,%u) %s", cell % w, cell / w, coa_dir_name((coa_dir_t)(link % 4)));
}

static void json_point(const traffic_config_t *cfg, const traffic_point_t *pt, double bound, bool links)
{
    static const char *const wait_keys[COA_WAIT_COUNT] = {"none",       "no_data", "no_space", "lost_turn",
                                                          "no_channel", "setup",   "receiver", "asleep"};
    char array[16], sizes[128];
    snprintf(array, sizeof array, "%ux%u", cfg->machine.width, cfg->machine.height);
    sizes_text(cfg, sizes, sizeof sizes);
    json_writer_t j;
    json_init(&j, stdout, false);
    json_begin_object(&j, NULL);
    json_string(&j, "command", "traffic");
    json_string(&j, "array", array);
    json_string(&j, "pattern", traffic_pattern_name(cfg->pattern));
    json_string(&j, "routing", cfg->routing == TRAFFIC_FIXED ? "fixed" : "dor");
    json_string(&j, "injection", cfg->injection == TRAFFIC_ONOFF ? "onoff" : "bernoulli");
    json_string(&j, "sizes", sizes);
    json_u64(&j, "queue_depth", cfg->machine.queue_depth);
    json_u64(&j, "seed", cfg->seed);
    json_double(&j, "rate", pt->rate);
    json_double(&j, "offered", pt->offered);
    json_double(&j, "accepted", pt->accepted);
    json_double(&j, "latency_mean", pt->latency_mean);
    json_double(&j, "latency_p50", pt->latency_p50);
    json_double(&j, "latency_p90", pt->latency_p90);
    json_double(&j, "latency_p99", pt->latency_p99);
    json_double(&j, "latency_max", pt->latency_max);
    json_double(&j, "network_latency_mean", pt->network_latency_mean);
    json_double(&j, "link_utilization_mean", pt->link_util_mean);
    json_double(&j, "link_utilization_max", pt->link_util_max);
    char busiest[32];
    link_name(cfg, pt->busiest_link, busiest, sizeof busiest);
    json_string(&j, "busiest_link", busiest);
    if (links) {
        /* Four a cell (+X, -X, +Y, -Y), cells in id order (y * W + x). */
        json_begin_array(&j, "link_utilization");
        for (unsigned l = 0; l < 4 * cfg->machine.width * cfg->machine.height; l++)
            json_double(&j, NULL, pt->link_util[l]);
        json_end_array(&j);
    }
    json_double(&j, "bisection_bound", bound);
    json_u64(&j, "samples", pt->samples);
    json_bool(&j, "converged", pt->converged);
    json_bool(&j, "saturated", pt->saturated);
    json_u64(&j, "measured", pt->measured);
    json_u64(&j, "delivered", pt->delivered);
    json_u64(&j, "clocks", pt->clocks);
    json_u64(&j, "errors", pt->errors);
    json_begin_object(&j, "waits");
    for (unsigned k = 1; k < COA_WAIT_COUNT; k++)
        json_u64(&j, wait_keys[k], pt->waits[k]);
    json_end_object(&j);
    json_begin_array(&j, "latency_by_hops");
    for (unsigned h = 0; h < TRAFFIC_MAX_HOP_BINS; h++)
        if (pt->hop_messages[h] > 0) {
            json_begin_object(&j, NULL);
            json_u64(&j, "hops", h);
            json_u64(&j, "messages", pt->hop_messages[h]);
            json_double(&j, "latency_mean", pt->hop_latency_mean[h]);
            json_end_object(&j);
        }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
}

static void text_header(const traffic_config_t *cfg, double bound)
{
    char sizes[128];
    sizes_text(cfg, sizes, sizeof sizes);
    printf("%ux%u torus, %s, %s, %s injection, %s data words a message; bisection bound (uniform) %.4f data "
           "words/cell/clock\n",
           cfg->machine.width, cfg->machine.height, traffic_pattern_name(cfg->pattern),
           cfg->routing == TRAFFIC_FIXED ? "fixed pathways" : "routed messages",
           cfg->injection == TRAFFIC_ONOFF ? "on/off" : "Bernoulli", sizes, bound);
    printf("%7s %8s %8s %9s %7s %7s %8s %9s %6s %6s %7s %s\n", "rate", "offered", "accepted", "latency", "p50", "p99",
           "max", "network", "util", "umax", "samples", "");
}

static void text_point(const traffic_point_t *pt)
{
    printf("%7.4f %8.4f %8.4f %9.1f %7.0f %7.0f %8.0f %9.1f %6.3f %6.3f %7u %s%s\n", pt->rate, pt->offered,
           pt->accepted, pt->latency_mean, pt->latency_p50, pt->latency_p99, pt->latency_max, pt->network_latency_mean,
           pt->link_util_mean, pt->link_util_max, pt->samples, pt->saturated ? "saturated" : "",
           pt->converged || pt->saturated ? "" : "not converged");
    if (pt->errors > 0)
        printf("  %llu errors; the first: %s\n", (unsigned long long)pt->errors, pt->first_error);
}

static int write_plots(const traffic_options_t *o, plot_t *lat, plot_t *acc, double bound)
{
    plot_series_t *b = plot_add(acc, "bisection bound (uniform)", true);
    plot_series_t *diag = plot_add(acc, "accepted = offered", true);
    double top = o->rates[o->nrates - 1];
    if (b != NULL) {
        plot_point(b, 0, bound);
        plot_point(b, top, bound);
    }
    if (diag != NULL) {
        plot_point(diag, 0, 0);
        plot_point(diag, top, top);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/latency.svg", o->out_dir);
    int rc = plot_write_svg(lat, path);
    snprintf(path, sizeof path, "%s/accepted.svg", o->out_dir);
    if (rc == 0)
        rc = plot_write_svg(acc, path);
    if (rc != 0) {
        fprintf(stderr, "iwarp traffic: cannot write the plots into %s\n", o->out_dir);
        return -1;
    }
    printf("plots: %s/latency.svg, %s/accepted.svg\n", o->out_dir, o->out_dir);
    return 0;
}

int cmd_traffic(int argc, char **argv)
{
    traffic_options_t o;
    int prc = parse_options(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    plot_t lat, acc;
    plot_init(&lat, "latency vs offered load", "offered data words/cell/clock", "mean latency (clocks)", false, false);
    plot_init(&acc, "accepted vs offered load", "offered data words/cell/clock", "accepted data words/cell/clock",
              false, false);
    traffic_config_t uniform = o.cfg;
    uniform.pattern = TRAFFIC_UNIFORM;
    double bound = traffic_bisection_bound(&uniform);
    int rc = 0;
    bool interrupted = false;
    interrupt_arm();
    for (unsigned p = 0; p < o.npatterns && !interrupted; p++) {
        traffic_config_t cfg = o.cfg;
        cfg.pattern = o.patterns[p];
        plot_series_t *ls = plot_add(&lat, traffic_pattern_name(cfg.pattern), false);
        plot_series_t *as = plot_add(&acc, traffic_pattern_name(cfg.pattern), false);
        if (!o.json)
            text_header(&cfg, bound);
        for (unsigned r = 0; r < o.nrates; r++) {
            cfg.rate = o.rates[r];
            traffic_point_t pt;
            char err[512], what[96];
            snprintf(what, sizeof what, "traffic: %s at rate %g (%u of %u)", traffic_pattern_name(cfg.pattern), cfg.rate,
                     p * o.nrates + r + 1, o.npatterns * o.nrates);
            traffic_watch_t watch = {what, o.quiet, false};
            if (traffic_measure_watched(&cfg, &pt, &watch, err, sizeof err) != 0) {
                fprintf(stderr, "iwarp traffic: %s\n", err);
                interrupt_disarm();
                return 1;
            }
            if ((interrupted = watch.interrupted))
                break;
            if (pt.errors > 0)
                rc = 1;
            if (o.json) {
                json_point(&cfg, &pt, bound, o.links);
            } else {
                text_point(&pt);
            }
            fflush(stdout);
            if (!pt.saturated && ls != NULL)
                plot_point(ls, pt.offered, pt.latency_mean);
            if (as != NULL)
                plot_point(as, pt.offered, pt.accepted);
        }
    }
    interrupt_disarm();
    if (interrupted) {
        fprintf(stderr, "iwarp traffic: interrupted (Ctrl-C): the points above are those measured to the end\n");
        rc = 130;
    }
    if (!o.json && o.nrates > 1 && write_plots(&o, &lat, &acc, bound) != 0 && rc == 0)
        rc = 1;
    return rc;
}
