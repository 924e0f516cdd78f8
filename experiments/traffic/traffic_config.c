/* The generators' parameters: defaults, checks, patterns and message sizes. */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "traffic_internal.h"

static const struct {
    const char *name, *doc;
} patterns[] = {
#define X(id, name, doc) {name, doc},
    TRAFFIC_PATTERNS(X)
#undef X
};

void traffic_config_defaults(traffic_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    emu_machine_defaults(&cfg->machine);
    cfg->machine.width = cfg->machine.height = 8;
    cfg->pattern = TRAFFIC_UNIFORM;
    cfg->injection = TRAFFIC_BERNOULLI;
    cfg->rate = 0.05;
    cfg->sizes[0] = 16;
    cfg->nsizes = 1;
    cfg->burst = 100;
    cfg->duty = 0.25;
    cfg->hotspot_fraction = 0.1;
    cfg->seed = 1;
    cfg->warmup = 2000;
    cfg->sample = 2000;
    cfg->min_samples = 3;
    cfg->max_samples = 10;
    cfg->tolerance = 0.05;
    cfg->drain_limit = 20000;
    cfg->latency_limit = 2000;
    cfg->threads = 1;
}

const char *traffic_pattern_name(traffic_pattern_t p)
{
    return p < TRAFFIC_NUM_PATTERNS ? patterns[p].name : "?";
}

int traffic_pattern_parse(const char *name, traffic_pattern_t *p)
{
    for (unsigned i = 0; i < TRAFFIC_NUM_PATTERNS; i++)
        if (strcmp(name, patterns[i].name) == 0) {
            *p = (traffic_pattern_t)i;
            return 0;
        }
    return -1;
}

static bool power_of_two(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

double traffic_mean_size(const traffic_config_t *cfg)
{
    if (cfg->nsizes == 0)
        return (cfg->size_lo + cfg->size_hi) / 2.0;
    double sum = 0;
    for (unsigned i = 0; i < cfg->nsizes; i++)
        sum += cfg->sizes[i];
    return sum / cfg->nsizes;
}

static int parse_size(const char *s, const char *end, unsigned *v)
{
    uint64_t x;
    char buf[32];
    size_t len = (size_t)(end - s);
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (emu_parse_count(buf, &x) != 0 || x < 1 || x > TRAFFIC_MAX_WORDS)
        return -1;
    *v = (unsigned)x;
    return 0;
}

int traffic_parse_sizes(const char *text, traffic_config_t *cfg, char *err, size_t errlen)
{
    const char *dash = strchr(text, '-');
    if (dash != NULL) {
        unsigned lo, hi;
        if (parse_size(text, dash, &lo) != 0 || parse_size(dash + 1, dash + 1 + strlen(dash + 1), &hi) != 0 || lo > hi)
            return err_set(err, errlen, "--size A-B wants 1 <= A <= B <= %u, not '%s'", TRAFFIC_MAX_WORDS, text);
        cfg->nsizes = 0;
        cfg->size_lo = lo;
        cfg->size_hi = hi;
        return 0;
    }
    unsigned n = 0;
    for (const char *s = text;;) {
        const char *comma = strchr(s, ',');
        const char *end = comma ? comma : s + strlen(s);
        if (n == TRAFFIC_MAX_SIZES)
            return err_set(err, errlen, "--size takes at most %u sizes, not '%s'", TRAFFIC_MAX_SIZES, text);
        if (parse_size(s, end, &cfg->sizes[n]) != 0)
            return err_set(err, errlen, "--size wants words per message in 1..%u (N, A-B or N,N,...), not '%s'",
                           TRAFFIC_MAX_WORDS, text);
        n++;
        if (comma == NULL)
            break;
        s = comma + 1;
    }
    cfg->nsizes = n;
    return 0;
}

int traffic_config_check(const traffic_config_t *cfg, char *err, size_t errlen)
{
    const emu_machine_t *m = &cfg->machine;
    unsigned w = m->width, h = m->height, n = w * h;
    if (n < 2)
        return err_set(err, errlen, "traffic needs at least 2 cells, not a %ux%u array", w, h);
    if (m->agent.channels < 20)
        return err_set(err, errlen,
                       "the message layer's pools use channels 4..19: channels must be at least 20, not %u",
                       m->agent.channels);
    switch (cfg->pattern) {
    case TRAFFIC_TRANSPOSE:
        if (w != h)
            return err_set(err, errlen, "transpose needs a square array, not %ux%u", w, h);
        break;
    case TRAFFIC_BITREV:
    case TRAFFIC_SHUFFLE:
        if (!power_of_two(n))
            return err_set(err, errlen, "%s needs W*H a power of 2, not %u", traffic_pattern_name(cfg->pattern), n);
        break;
    case TRAFFIC_HOTSPOT:
        if (cfg->hotspot >= n)
            return err_set(err, errlen, "the hotspot cell %u is outside the %ux%u array", cfg->hotspot, w, h);
        break;
    default: break;
    }
    if (cfg->routing == TRAFFIC_FIXED && (cfg->pattern == TRAFFIC_UNIFORM || cfg->pattern == TRAFFIC_HOTSPOT))
        return err_set(err, errlen, "fixed pathways need a pattern where each cell sends to one cell, not %s",
                       traffic_pattern_name(cfg->pattern));
    double size = traffic_mean_size(cfg);
    double on = cfg->injection == TRAFFIC_ONOFF ? cfg->duty : 1.0;
    if (!(cfg->rate >= 0) || cfg->rate / (size * on) > 1.0)
        return err_set(err, errlen,
                       "rate %g is out of range: a cell creates at most one message a clock, %g data words a clock "
                       "with these sizes%s",
                       cfg->rate, size * on, cfg->injection == TRAFFIC_ONOFF ? " and this duty cycle" : "");
    if (cfg->sample == 0 || cfg->min_samples < 1 || cfg->max_samples < cfg->min_samples)
        return err_set(err, errlen, "sample periods: a period of at least 1 clock, 1 <= min <= max samples");
    /* Creation clocks travel as 32-bit words (docs/traffic.md): the whole run must stay below 2^32 clocks. */
    if (cfg->warmup + (uint64_t)cfg->max_samples * cfg->sample + cfg->drain_limit >= (1ull << 31))
        return err_set(err, errlen, "warm-up, samples and drain must stay below 2^31 clocks in all");
    return 0;
}

unsigned tr_size(const traffic_config_t *cfg, uint64_t *rng)
{
    if (cfg->nsizes == 1)
        return cfg->sizes[0];
    if (cfg->nsizes > 1)
        return cfg->sizes[splitmix64_next(rng) % cfg->nsizes];
    return cfg->size_lo + (unsigned)(splitmix64_next(rng) % (cfg->size_hi - cfg->size_lo + 1u));
}

static unsigned bits_of(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

static unsigned uniform_other(unsigned n, unsigned src, uint64_t *rng)
{
    unsigned d = (unsigned)(splitmix64_next(rng) % (n - 1));
    return d + (d >= src);
}

unsigned tr_destination(const traffic_config_t *cfg, unsigned src, uint64_t *rng)
{
    unsigned w = cfg->machine.width, h = cfg->machine.height, n = w * h;
    unsigned x = src % w, y = src / w, b = bits_of(n);
    switch (cfg->pattern) {
    case TRAFFIC_UNIFORM: return uniform_other(n, src, rng);
    case TRAFFIC_TRANSPOSE: return x * w + y;
    case TRAFFIC_BITCOMP: return (h - 1 - y) * w + (w - 1 - x);
    case TRAFFIC_BITREV: {
        unsigned r = 0;
        for (unsigned i = 0; i < b; i++)
            r |= (src >> i & 1u) << (b - 1 - i);
        return r;
    }
    case TRAFFIC_SHUFFLE: return b == 0 ? src : ((src << 1) | (src >> (b - 1))) & (n - 1);
    case TRAFFIC_TORNADO: return (y + (h + 1) / 2 - 1) % h * w + (x + (w + 1) / 2 - 1) % w;
    case TRAFFIC_NEIGHBOUR: return (y + 1) % h * w + (x + 1) % w;
    case TRAFFIC_HOTSPOT: {
        /* Always draw twice, so the stream of draws does not depend on which branch was taken. */
        double u = (double)(splitmix64_next(rng) >> 11) * 0x1.0p-53;
        unsigned other = uniform_other(n, src, rng);
        return u < cfg->hotspot_fraction && src != cfg->hotspot ? cfg->hotspot : other;
    }
    default: return src;
    }
}

unsigned tr_hops(unsigned w, unsigned h, unsigned src, unsigned dst)
{
    unsigned dx = (dst % w + w - src % w) % w, dy = (dst / w + h - src / w) % h;
    return (dx <= w - dx ? dx : w - dx) + (dy <= h - dy ? dy : h - dy);
}
