/* iwarp traffic: synthetic traffic on the communication agents, one measured point per pattern and rate, as a
 * table, JSON lines and latency-load plots (docs/traffic.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "interrupt.h"
#include "json.h"
#include "plot.h"
#include "traffic.h"
#include "traffic_cli.h"

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
    json_u64(&j, "queue_depth", cfg->machine.agent.queue_depth);
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
    traffic_why_t why;
    traffic_why(cfg, pt, &why);
    json_string(&j, "why", why.why);
    json_string(&j, "change", why.change);
    json_u64(&j, "measured", pt->measured);
    json_u64(&j, "delivered", pt->delivered);
    json_u64(&j, "clocks", pt->clocks);
    json_u64(&j, "errors", pt->errors);
    json_begin_object(&j, "waits");
    for (unsigned k = 1; k < COA_WAIT_COUNT; k++)
        json_u64(&j, coa_wait_name((coa_wait_t)k), pt->waits[k]);
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

static void text_point(const traffic_config_t *cfg, const traffic_point_t *pt)
{
    printf("%7.4f %8.4f %8.4f %9.1f %7.0f %7.0f %8.0f %9.1f %6.3f %6.3f %7u %s%s\n", pt->rate, pt->offered,
           pt->accepted, pt->latency_mean, pt->latency_p50, pt->latency_p99, pt->latency_max, pt->network_latency_mean,
           pt->link_util_mean, pt->link_util_max, pt->samples, pt->saturated ? "saturated" : "",
           pt->converged || pt->saturated ? "" : "not converged");
    traffic_why_t why;
    traffic_why(cfg, pt, &why);
    if (why.why[0] != '\0')
        printf("  %s\n  change: %s\n", why.why, why.change);
    if (pt->errors > 0)
        printf("  %llu errors; the first: %s\n", (unsigned long long)pt->errors, pt->first_error);
}

static int write_plots(const traffic_cli_t *o, plot_t *lat, plot_t *acc, double bound)
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
    plot_log_y_if_decades(lat);
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/latency.svg", o->out_dir);
    int rc = plot_write_all(lat, path, err, sizeof err);
    snprintf(path, sizeof path, "%s/accepted.svg", o->out_dir);
    if (rc == 0)
        rc = plot_write_all(acc, path, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "iwarp traffic: cannot write the plots: %s\n", err);
        return -1;
    }
    printf("plots: %s/latency.svg, %s/accepted.svg\n", o->out_dir, o->out_dir);
    return 0;
}

int cmd_traffic(int argc, char **argv)
{
    traffic_cli_t o;
    int prc = traffic_cli_parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? 0 : 2;
    plot_t lat, acc;
    plot_init(&lat, "latency vs offered load", "offered data words/cell/clock", "mean latency (clocks)", false, false);
    plot_init(&acc, "accepted vs offered load", "offered data words/cell/clock", "accepted data words/cell/clock",
              false, false);
    /* The titles name the configuration; saturated or unconverged points are ringed, not dropped, and kept out
     * of the latency axis's fit so that one saturated latency does not flatten the rest. */
    char sizes[128], config[256];
    sizes_text(&o.cfg, sizes, sizeof sizes);
    snprintf(config, sizeof config, "%ux%u torus, %s, %s injection, %s data words a message", o.cfg.machine.width,
             o.cfg.machine.height,
             o.cfg.routing == TRAFFIC_FIXED ? "fixed pathways" : "routed messages (dimension order)",
             o.cfg.injection == TRAFFIC_ONOFF ? "on/off" : "Bernoulli", sizes);
    for (plot_t *pl = &lat; pl != NULL; pl = pl == &lat ? &acc : NULL) {
        pl->config = config;
        pl->legend_title = "pattern";
        pl->mark_label = "saturated or not converged";
    }
    lat.fit_unmarked = true;
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
            snprintf(what, sizeof what, "traffic: %s at rate %g (%u of %u)", traffic_pattern_name(cfg.pattern),
                     cfg.rate, p * o.nrates + r + 1, o.npatterns * o.nrates);
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
                text_point(&cfg, &pt);
            }
            fflush(stdout);
            if (pt.saturated || !pt.converged) {
                plot_point_marked(ls, pt.offered, pt.latency_mean);
                plot_point_marked(as, pt.offered, pt.accepted);
            } else {
                plot_point(ls, pt.offered, pt.latency_mean);
                plot_point(as, pt.offered, pt.accepted);
            }
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
