#include "phase_report.h"

#include "paper_conset.h"

/* A milestone or a clock count, or "-" while the run has not got there. */
static const char *clock_text(char buf[24], uint64_t v)
{
    if (v == UINT64_MAX)
        return "-";
    snprintf(buf, 24, "%llu", (unsigned long long)v);
    return buf;
}

typedef struct phase_sum {
    unsigned complete;
    uint64_t first_start, last_end;
    uint64_t other, sync, load, first, transfer, drain, total, predicted, link_weighted;
} phase_sum_t;

static void sum_rows(const phase_row_t *rows, unsigned n, phase_sum_t *s)
{
    *s = (phase_sum_t){0};
    for (unsigned k = 0; k < n && rows[k].complete; k++) {
        const phase_row_t *r = &rows[k];
        if (k == 0)
            s->first_start = r->start;
        s->last_end = r->end;
        s->complete++;
        s->other += r->other;
        s->sync += r->sync;
        s->load += r->load;
        s->first += r->first;
        s->transfer += r->transfer;
        s->drain += r->drain;
        s->total += r->total;
        s->predicted += r->predicted;
        s->link_weighted += r->link_weighted;
    }
}

void phase_report_text(phase_account_t *pa, FILE *out)
{
    const phase_row_t *rows;
    unsigned n = phase_account_rows(pa, &rows);
    /* An account with a hole would show wrong clocks as the run's: none is shown, and why. */
    const char *why = phase_account_error(pa);
    if (why != NULL) {
        fprintf(out, "phases   %s\n", why);
        return;
    }
    fprintf(out, "phases   %u switch%s; clocks, each part from where the one before ended (docs/conset.md)\n", n,
            n == 1 ? "" : "es");
    fprintf(out, "%5s %9s %6s %6s %6s %6s %8s %6s %8s %8s %6s %8s %8s\n", "phase", "start", "other", "sync", "load",
            "first", "transfer", "drain", "total", "slowest", "clocks", "AS", "link-wt");
    for (unsigned k = 0; k < n; k++) {
        const phase_row_t *r = &rows[k];
        char ph[16] = "?", st[24], as[24], lw[24];
        if (r->phase >= 0)
            snprintf(ph, sizeof ph, "%d", r->phase);
        clock_text(st, r->start);
        snprintf(as, sizeof as, "%llu", (unsigned long long)r->predicted);
        snprintf(lw, sizeof lw, "%llu", (unsigned long long)r->link_weighted);
        if (!r->complete) {
            fprintf(out, "%5s %9s  (not over)\n", ph, st);
            continue;
        }
        char cell[24];
        snprintf(cell, sizeof cell, "(%u,%u)", r->slowest_x, r->slowest_y);
        fprintf(out, "%5s %9s %6llu %6llu %6llu %6llu %8llu %6llu %8llu %8s %6llu %8s %8s\n", ph, st,
                (unsigned long long)r->other, (unsigned long long)r->sync, (unsigned long long)r->load,
                (unsigned long long)r->first, (unsigned long long)r->transfer, (unsigned long long)r->drain,
                (unsigned long long)r->total, cell, (unsigned long long)r->slowest_clocks, r->predicted ? as : "-",
                r->link_weighted ? lw : "-");
    }
    phase_sum_t s;
    sum_rows(rows, n, &s);
    if (s.complete == 0)
        return;
    fprintf(out, "%5s %9s %6llu %6llu %6llu %6llu %8llu %6llu %8llu %8s %6s %8llu %8llu\n", "sum", "",
            (unsigned long long)s.other, (unsigned long long)s.sync, (unsigned long long)s.load,
            (unsigned long long)s.first, (unsigned long long)s.transfer, (unsigned long long)s.drain,
            (unsigned long long)s.total, "", "", (unsigned long long)s.predicted, (unsigned long long)s.link_weighted);
    fprintf(out,
            "section  clocks %llu..%llu = %llu over %u phase%s; a switch (sync + load) %.0f, the paper's "
            "t_sync + t_phase %d + %d = %d\n",
            (unsigned long long)s.first_start, (unsigned long long)s.last_end,
            (unsigned long long)(s.last_end - s.first_start), s.complete, s.complete == 1 ? "" : "s",
            (double)(s.sync + s.load) / s.complete, MODEL_T_SYNC, MODEL_T_PHASE, MODEL_T_SYNC + MODEL_T_PHASE);
}

static void json_clock(json_writer_t *j, const char *key, uint64_t v)
{
    if (v == UINT64_MAX)
        json_null(j, key);
    else
        json_u64(j, key, v);
}

void phase_report_json(phase_account_t *pa, json_writer_t *j)
{
    const phase_row_t *rows;
    unsigned n = phase_account_rows(pa, &rows);
    const char *why = phase_account_error(pa);
    if (why != NULL) {
        json_null(j, "phases");
        json_null(j, "phases_sum");
        json_string(j, "phases_error", why);
        return;
    }
    json_begin_array(j, "phases");
    for (unsigned k = 0; k < n; k++) {
        const phase_row_t *r = &rows[k];
        json_begin_object(j, NULL);
        json_u64(j, "switch", r->switch_index);
        if (r->phase >= 0)
            json_u64(j, "phase", (uint64_t)r->phase);
        else
            json_null(j, "phase");
        json_bool(j, "complete", r->complete);
        json_begin_object(j, "milestones");
        json_clock(j, "start", r->start);
        json_clock(j, "barrier_in", r->barrier_in);
        json_clock(j, "barrier_out", r->barrier_out);
        json_clock(j, "loaded", r->loaded);
        json_clock(j, "stream_start", r->stream_start);
        json_clock(j, "first_sent", r->first_sent);
        json_clock(j, "first_received", r->first_received);
        json_clock(j, "last_sent", r->last_sent);
        json_clock(j, "last_received", r->last_received);
        json_clock(j, "end", r->end);
        json_end_object(j);
        if (r->complete) {
            json_u64(j, "other", r->other);
            json_u64(j, "sync", r->sync);
            json_u64(j, "load", r->load);
            json_u64(j, "first", r->first);
            json_u64(j, "transfer", r->transfer);
            json_u64(j, "drain", r->drain);
            json_u64(j, "total", r->total);
            json_u64(j, "first_word_latency", r->latency);
            json_begin_object(j, "slowest_cell");
            json_u64(j, "x", r->slowest_x);
            json_u64(j, "y", r->slowest_y);
            json_u64(j, "clocks", r->slowest_clocks);
            json_end_object(j);
        }
        json_u64(j, "predicted_clocks", r->predicted);
        json_u64(j, "link_weighted_clocks", r->link_weighted);
        json_u64(j, "paper_t_sync", MODEL_T_SYNC);
        json_u64(j, "paper_t_phase", MODEL_T_PHASE);
        json_end_object(j);
    }
    json_end_array(j);
    phase_sum_t s;
    sum_rows(rows, n, &s);
    json_begin_object(j, "phases_sum");
    json_u64(j, "phases", s.complete);
    json_u64(j, "start", s.first_start);
    json_u64(j, "end", s.last_end);
    json_u64(j, "other", s.other);
    json_u64(j, "sync", s.sync);
    json_u64(j, "load", s.load);
    json_u64(j, "first", s.first);
    json_u64(j, "transfer", s.transfer);
    json_u64(j, "drain", s.drain);
    json_u64(j, "total", s.total);
    json_u64(j, "predicted_clocks", s.predicted);
    json_u64(j, "link_weighted_clocks", s.link_weighted);
    json_end_object(j);
}
