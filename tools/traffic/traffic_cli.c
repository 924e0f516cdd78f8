/* The command line of `iwarp traffic`: every value checked, and every pattern and rate against the array, before
 * the first point runs. */
#include "traffic_cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "emu.h"

void traffic_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: iwarp traffic [options]\n"
            "Drives the communication agents of a torus with host-side traffic generators (no CPU) and measures\n"
            "latency and accepted throughput per pattern and offered load (docs/traffic.md).\n"
            "  --array WxH            torus size (default 8x8; sides 1..32)\n"
            "  --set KEY=VALUE        any machine key (docs/machine.md), as often as needed\n"
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
    return emu_parse_count(s, v) == 0 && *v >= lo && *v <= (1ull << 30) ? 0 : -1;
}

static int parse_rates(const char *s, traffic_cli_t *o)
{
    const char *colon = strchr(s, ':');
    if (colon != NULL) {
        char buf[128];
        if (strlen(s) >= sizeof buf) /* cut short, it could read as another range */
            return -1;
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
            if (o->nrates == TRAFFIC_CLI_MAX_RATES)
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
        if (len >= sizeof buf || o->nrates == TRAFFIC_CLI_MAX_RATES)
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

static int parse_patterns(const char *s, traffic_cli_t *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    o->npatterns = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        if (o->npatterns == TRAFFIC_CLI_MAX_PATTERNS || traffic_pattern_parse(t, &o->patterns[o->npatterns]) != 0)
            return -1;
        o->npatterns++;
    }
    /* strtok_r passes over empty names: ",uniform" and "uniform,,bitrev" are refused like "uniform," */
    return o->npatterns > 0 && strlen(s) < sizeof buf && s[0] != ',' && s[strlen(s) - 1] != ',' &&
                   strstr(s, ",,") == NULL
               ? 0
               : -1;
}

int traffic_cli_parse(int argc, char **argv, traffic_cli_t *o)
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
    cli_opts_t cli;
    cli_opts_start(&cli, "traffic", argc, argv, "h", longopts);
    int c;
    while ((c = cli_opts_next(&cli)) != -1) {
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
                return bad("--hotspot", "X,Y of a cell, each 0..31 (inside the array)", optarg);
            break;
        }
        case OPT_HOTSPOT_FRACTION:
            if (parse_double(optarg, 0, 1, false, &cfg->hotspot_fraction) != 0)
                return bad("--hotspot-fraction", "a fraction in 0..1", optarg);
            break;
        case OPT_SEED:
            if (emu_parse_count(optarg, &cfg->seed) != 0)
                return bad("--seed", "a number 0..2^64-1", optarg);
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
                return bad("--latency-limit", "1..1e12 clocks", optarg);
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
        case 'h': traffic_cli_usage(stdout); return 1;
        default: traffic_cli_usage(stderr); return -1;
        }
    }
    if (optind != argc) {
        cli_opts_unexpected(&cli, argv[optind]);
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
