/* The units of the columns a sweep usually plots, so that an axis reads "latency_mean (clocks)" and a legend
 * "depth (words)": the column's last dotted part (output.latency_mean: latency_mean) looked up by prefix. */
#include "sweep_results.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *prefix, *unit;
} units[] = {
    {"latency", "clocks"},     {"network_latency", "clocks"}, {"clocks", "clocks"},
    {"offered", "data words/cell/clock"}, {"accepted", "data words/cell/clock"}, {"rate", "data words/cell/clock"},
    {"bisection_bound", "data words/cell/clock"}, {"mbps", "MB/s"}, {"depth", "words"}, {"queue_depth", "words"},
    {"size", "words"}, {"words", "words"}, {"link_utilization", "fraction of clocks"},
};

const char *sweep_column_unit(const char *column)
{
    const char *dot = strrchr(column, '.'), *name = dot != NULL ? dot + 1 : column;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strncmp(name, units[i].prefix, strlen(units[i].prefix)) == 0)
            return units[i].unit;
    return NULL;
}

void sweep_column_label(const char *column, char *buf, size_t cap)
{
    const char *unit = sweep_column_unit(column);
    if (unit != NULL)
        snprintf(buf, cap, "%s (%s)", column, unit);
    else
        snprintf(buf, cap, "%s", column);
}
