/* Why a point is saturated or did not converge (traffic_measure.c decides both), and the option to change: a
 * bare "not converged" leaves the reader to guess whether the load, the sample period or the patience is wrong. */
#include <math.h>
#include <stdio.h>

#include "traffic.h"

/* Two periods' mean latencies over n messages each differ by about sqrt(2) sd / sqrt(n); twice that within
 * tolerance t of the mean (most of the time) wants n >= 8 (sd / mean / t)^2 messages a period. */
static uint64_t messages_wanted(const traffic_config_t *cfg, const traffic_point_t *pt)
{
    double cv = pt->latency_sd / pt->latency_mean;
    if (!(cv > 0))
        return 2;
    return (uint64_t)ceil(8 * cv * cv / (cfg->tolerance * cfg->tolerance));
}

void traffic_why(const traffic_config_t *cfg, const traffic_point_t *pt, traffic_why_t *out)
{
    out->why[0] = out->change[0] = '\0';
    if (pt->saturated) {
        if (pt->delivered < pt->measured)
            snprintf(out->why, sizeof out->why,
                     "saturated: %llu of the %llu measured messages were still on the way after --drain %llu",
                     (unsigned long long)(pt->measured - pt->delivered), (unsigned long long)pt->measured,
                     (unsigned long long)cfg->drain_limit);
        else if (pt->latency_mean > cfg->latency_limit)
            snprintf(out->why, sizeof out->why, "saturated: the mean latency %.0f passed --latency-limit %.0f",
                     pt->latency_mean, cfg->latency_limit);
        else
            snprintf(out->why, sizeof out->why, "saturated: accepted %.4f of %.4f offered (under 1 - 2 x --tolerance)",
                     pt->accepted, pt->offered);
        snprintf(out->change, sizeof out->change, "lower --rate: the network does not carry this load");
        return;
    }
    if (pt->converged)
        return;
    uint64_t wanted = messages_wanted(cfg, pt);
    if (pt->sample_delivered < wanted) {
        /* the period that would deliver that many at this load, in whole thousands of clocks */
        double per_clock = (double)(pt->sample_delivered > 0 ? pt->sample_delivered : 1) / (double)cfg->sample;
        unsigned long long longer = (unsigned long long)ceil((double)wanted / per_clock / 1000.0) * 1000;
        snprintf(out->why, sizeof out->why,
                 "not converged: %llu messages in the last --sample %llu, about %llu wanted for the mean latency to "
                 "settle",
                 (unsigned long long)pt->sample_delivered, (unsigned long long)cfg->sample,
                 (unsigned long long)wanted);
        snprintf(out->change, sizeof out->change, "lengthen --sample to about %llu, or loosen --tolerance (%g)",
                 longer, cfg->tolerance);
        return;
    }
    bool latency = !(pt->latency_change <= cfg->tolerance);
    snprintf(out->why, sizeof out->why,
             "not converged: the %s still changed by %.1f%% in the last of %u sample periods (--tolerance %g)",
             latency ? "mean latency" : "accepted rate", 100 * (latency ? pt->latency_change : pt->accepted_change),
             pt->samples, cfg->tolerance);
    snprintf(out->change, sizeof out->change,
             "lengthen --warmup (the queues may still be filling), or raise MAX of --samples MIN:MAX");
}
