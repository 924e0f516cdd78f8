/* The compiler's report, text and JSON (route_report.h). */
#include "route_report.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "route_links.h"

void route_phase_stats(const route_plan_t *plan, unsigned phase, route_phase_stats_t *st)
{
    memset(st, 0, sizeof *st);
    const torus_t *t = &plan->torus;
    unsigned *uses = calloc(t->n, sizeof *uses), *links = calloc((size_t)t->n * TORUS_DIRS, sizeof *links);
    if (uses == NULL || links == NULL) {
        free(uses);
        free(links);
        return;
    }
    const route_phase_t *ph = &plan->phases[phase];
    for (unsigned k = 0; k < ph->nconns; k++) {
        const route_conn_t *c = &plan->conns[ph->conns[k]];
        for (unsigned j = 0; j < c->ncells; j++) {
            unsigned v = plan->cells[c->first + j];
            uses[v]++;
            st->channel_uses++;
            if (j + 1 < c->ncells)
                links[(size_t)v * TORUS_DIRS + plan->dirs[c->first + j]]++;
        }
    }
    for (unsigned v = 0; v < t->n; v++)
        if (uses[v] > st->channels_max)
            st->channels_max = uses[v];
    for (size_t l = 0; l < (size_t)t->n * TORUS_DIRS; l++)
        if (links[l] > st->link_max)
            st->link_max = links[l];
    st->channels_mean = (double)st->channel_uses / t->n;
    free(uses);
    free(links);
}

uint64_t route_link_weighted(const route_plan_t *plan)
{
    uint64_t sum = 0;
    for (unsigned p = 0; p < plan->nphases; p++)
        sum += route_phase_link_weighted_clocks(plan, p);
    return sum;
}

uint64_t route_predicted_clocks(const route_plan_t *plan)
{
    uint64_t sum = 0;
    for (unsigned p = 0; p < plan->nphases; p++)
        sum += plan->phases[p].clocks;
    return sum;
}

typedef struct summary {
    unsigned channels_max, link_max;
    double channels_mean;
} summary_t;

static void summarize(const route_plan_t *plan, summary_t *s)
{
    memset(s, 0, sizeof *s);
    uint64_t uses = 0;
    for (unsigned p = 0; p < plan->nphases; p++) {
        route_phase_stats_t st;
        route_phase_stats(plan, p, &st);
        uses += st.channel_uses;
        if (st.channels_max > s->channels_max)
            s->channels_max = st.channels_max;
        if (st.link_max > s->link_max)
            s->link_max = st.link_max;
    }
    if (plan->nphases > 0)
        s->channels_mean = (double)uses / ((double)plan->torus.n * plan->nphases);
}

static void cell_text(const route_plan_t *plan, unsigned v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u,%u", v % plan->torus.w, v / plan->torus.w);
}

static void conn_text(const route_plan_t *plan, unsigned ci, FILE *out)
{
    const cset_conn_t *sc = &plan->set->conns[ci];
    const route_conn_t *c = &plan->conns[ci];
    char a[16], b[16];
    cell_text(plan, sc->src, a, sizeof a);
    cell_text(plan, sc->dst, b, sizeof b);
    fprintf(out, "  %-12s %5s -> %-5s %8u words  %7llu..%-7llu  path", sc->id, a, b, sc->words,
            (unsigned long long)c->start, (unsigned long long)c->end);
    for (unsigned j = 0; j < c->ncells; j++) {
        cell_text(plan, plan->cells[c->first + j], a, sizeof a);
        fprintf(out, "%s%s:%u", j ? " " : " ", a, plan->chans[c->first + j]);
    }
    fputc('\n', out);
}

void route_report_text(const route_plan_t *plan, const char *name, bool full, double host_seconds, FILE *out)
{
    const cset_t *set = plan->set;
    summary_t s;
    summarize(plan, &s);
    fprintf(out, "route %s: %u connections, %u task%s, array %ux%u, capacity %u\n", name, set->nconns, set->ntasks,
            set->ntasks == 1 ? "" : "s", plan->torus.w, plan->torus.h, plan->capacity);
    if (plan->paper)
        fprintf(out, "compiler: the ConSet paper's (section 4.4: its router, rip-up rounds and greedy AS only)\n");
    if (plan->one_timeline)
        fprintf(out, "schedule: one timeline a cell, its sends and receives together (code without LIW)\n");
    fprintf(out, "phases: %u (lower bound %u; %u after the sequential pass, then %u rip-up-and-reroute rounds)\n",
            plan->nphases, plan->lower_bound, plan->greedy_phases, plan->rounds);
    fprintf(out, "predicted clocks: %llu (AS%s, the phases added up, without the context switches)\n",
            (unsigned long long)route_predicted_clocks(plan), plan->link_aware ? " with the links" : "");
    fprintf(out, "link-weighted clocks: %llu (each phase's schedule, a stretch counted as often as the most connections "
                 "crossing one link then)\n",
            (unsigned long long)route_link_weighted(plan));
    fprintf(out, "channels per cell: max %u, mean %.2f of %u; link congestion: max %u connections per link\n",
            s.channels_max, s.channels_mean, plan->capacity, s.link_max);
    if (host_seconds >= 0)
        fprintf(out, "compiled in %.3f s\n", host_seconds);
    fputc('\n', out);
    fprintf(out, "phase  task              conns     clocks  ch.max  ch.mean  link.max  link.weighted\n");
    for (unsigned p = 0; p < plan->nphases; p++) {
        const route_phase_t *ph = &plan->phases[p];
        route_phase_stats_t st;
        route_phase_stats(plan, p, &st);
        fprintf(out, "%5u  %-16s %6u %10llu  %6u  %7.2f  %8u  %13llu\n", p, set->tasks[ph->task], ph->nconns,
                (unsigned long long)ph->clocks, st.channels_max, st.channels_mean, st.link_max,
                (unsigned long long)route_phase_link_weighted_clocks(plan, p));
    }
    if (!full)
        return;
    for (unsigned p = 0; p < plan->nphases; p++) {
        const route_phase_t *ph = &plan->phases[p];
        fprintf(out,
                "\nphase %u (task %s): %u connections, %llu clocks; id, source -> destination, words, "
                "start..end, path cell:channel\n",
                p, set->tasks[ph->task], ph->nconns, (unsigned long long)ph->clocks);
        for (unsigned k = 0; k < ph->nconns; k++)
            conn_text(plan, ph->conns[k], out);
    }
}

static void json_cell(json_writer_t *j, const char *key, const route_plan_t *plan, unsigned v)
{
    json_begin_array(j, key);
    json_u64(j, NULL, v % plan->torus.w);
    json_u64(j, NULL, v / plan->torus.w);
    json_end_array(j);
}

static void conn_json(json_writer_t *j, const route_plan_t *plan, unsigned ci)
{
    const cset_conn_t *sc = &plan->set->conns[ci];
    const route_conn_t *c = &plan->conns[ci];
    json_begin_object(j, NULL);
    json_u64(j, "number", ci);
    json_string(j, "id", sc->id);
    json_cell(j, "src", plan, sc->src);
    json_cell(j, "dst", plan, sc->dst);
    json_u64(j, "words", sc->words);
    json_u64(j, "start", c->start);
    json_u64(j, "end", c->end);
    json_begin_array(j, "path");
    for (unsigned k = 0; k < c->ncells; k++)
        json_cell(j, NULL, plan, plan->cells[c->first + k]);
    json_end_array(j);
    json_begin_array(j, "channels");
    for (unsigned k = 0; k < c->ncells; k++)
        json_u64(j, NULL, plan->chans[c->first + k]);
    json_end_array(j);
    json_end_object(j);
}

void route_report_json(const route_plan_t *plan, const char *name, bool full, double host_seconds, FILE *out)
{
    const cset_t *set = plan->set;
    summary_t s;
    summarize(plan, &s);
    json_writer_t j;
    json_init(&j, out, true);
    json_begin_object(&j, NULL);
    json_string(&j, "input", name);
    json_u64(&j, "width", plan->torus.w);
    json_u64(&j, "height", plan->torus.h);
    json_u64(&j, "capacity", plan->capacity);
    json_bool(&j, "link_aware", plan->link_aware);
    json_bool(&j, "paper", plan->paper);
    json_bool(&j, "one_timeline", plan->one_timeline);
    json_u64(&j, "connections", set->nconns);
    json_begin_array(&j, "tasks");
    for (unsigned t = 0; t < set->ntasks; t++)
        json_string(&j, NULL, set->tasks[t]);
    json_end_array(&j);
    json_u64(&j, "phase_count", plan->nphases);
    json_u64(&j, "lower_bound", plan->lower_bound);
    json_u64(&j, "greedy_phases", plan->greedy_phases);
    json_u64(&j, "rounds", plan->rounds);
    json_u64(&j, "predicted_clocks", route_predicted_clocks(plan));
    json_u64(&j, "link_weighted_clocks", route_link_weighted(plan));
    json_u64(&j, "channels_max", s.channels_max);
    json_double(&j, "channels_mean", s.channels_mean);
    json_u64(&j, "link_max", s.link_max);
    if (host_seconds >= 0)
        json_double(&j, "host_seconds", host_seconds);
    json_begin_array(&j, "phases");
    for (unsigned p = 0; p < plan->nphases; p++) {
        const route_phase_t *ph = &plan->phases[p];
        route_phase_stats_t st;
        route_phase_stats(plan, p, &st);
        json_begin_object(&j, NULL);
        json_u64(&j, "phase", p);
        json_string(&j, "task", set->tasks[ph->task]);
        json_u64(&j, "connections", ph->nconns);
        json_u64(&j, "predicted_clocks", ph->clocks);
        json_u64(&j, "channels_max", st.channels_max);
        json_double(&j, "channels_mean", st.channels_mean);
        json_u64(&j, "link_max", st.link_max);
        json_u64(&j, "link_weighted_clocks", route_phase_link_weighted_clocks(plan, p));
        if (full) {
            json_begin_array(&j, "conns");
            for (unsigned k = 0; k < ph->nconns; k++)
                conn_json(&j, plan, ph->conns[k]);
            json_end_array(&j);
        }
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
    json_finish(&j);
}
