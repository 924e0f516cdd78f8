#include "run_report.h"

#include <string.h>

#include "json.h"
#include "phase_report.h"

void run_report_totals(const emu_array_t *a, ca_stats_t *sum)
{
    memset(sum, 0, sizeof *sum);
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const ca_stats_t *s = &emu_array_ca(a, x, y)->s.stats;
            sum->bundles += s->bundles;
            sum->ops += s->ops;
            sum->busy_clocks += s->busy_clocks;
            for (unsigned c = 0; c < CA_STALL_COUNT; c++)
                sum->stall_clocks[c] += s->stall_clocks[c];
            sum->mem_reads += s->mem_reads;
            sum->mem_writes += s->mem_writes;
            sum->gate_reads += s->gate_reads;
            sum->gate_writes += s->gate_writes;
            sum->cr_reads += s->cr_reads;
            sum->cr_writes += s->cr_writes;
            sum->branches_taken += s->branches_taken;
        }
}

static const char *status_text(emu_run_status_t st)
{
    switch (st) {
    case EMU_RUN_DONE: return "done (every cell halted)";
    case EMU_RUN_FAULT: return "fault";
    case EMU_RUN_DEADLOCK: return "deadlock";
    case EMU_RUN_LIMIT: return "stopped at the cycle limit";
    case EMU_RUN_STOPPED: return "stopped";
    case EMU_RUN_LIVELOCK: return "livelock";
    }
    return "?";
}

static void stats_row(FILE *out, const char *label, const char *state, const char *a0, const ca_stats_t *s)
{
    fprintf(out, "%-8s %-8s %-10s %10llu %10llu %10llu %10llu %10llu %10llu %9llu %9llu\n", label, state, a0,
            (unsigned long long)s->bundles, (unsigned long long)s->ops, (unsigned long long)s->busy_clocks,
            (unsigned long long)s->stall_clocks[CA_STALL_BYPASS],
            (unsigned long long)s->stall_clocks[CA_STALL_GATE_IN_EMPTY],
            (unsigned long long)s->stall_clocks[CA_STALL_GATE_OUT_FULL], (unsigned long long)s->mem_reads,
            (unsigned long long)s->mem_writes);
}

void run_report_problem(const run_report_t *r, FILE *out)
{
    unsigned fx, fy;
    if (emu_array_first_fault(r->array, &fx, &fy)) {
        char line[400];
        emu_format_fault(r->array, fx, fy, line, sizeof line);
        fprintf(out, "fault    %s\n", line);
    }
    if (r->status == EMU_RUN_DEADLOCK)
        fprintf(out, "deadlock %s", emu_array_deadlock(r->array));
    if (r->status == EMU_RUN_LIVELOCK)
        fprintf(out, "livelock %s", emu_array_deadlock(r->array));
    if (r->status == EMU_RUN_LIMIT) {
        /* A program that never ends: say where it goes round (the first few cells that still run). */
        enum { SHOWN = 8 };
        unsigned shown = 0, more = 0;
        for (unsigned y = 0; y < emu_array_height(r->array); y++)
            for (unsigned x = 0; x < emu_array_width(r->array); x++) {
                ca_state_t st = emu_array_ca(r->array, x, y)->s.state;
                if (st != CA_RUNNING && st != CA_WAITING)
                    continue;
                if (shown == SHOWN) {
                    more++;
                    continue;
                }
                char line[400];
                emu_format_where(r->array, x, y, line, sizeof line);
                fprintf(out, "%s %s\n", shown++ == 0 ? "at limit" : "        ", line);
            }
        if (more > 0)
            fprintf(out, "         and %u more cell%s\n", more, more == 1 ? "" : "s");
    }
}

/* Totals over every link of the array, and the busiest link. */
typedef struct link_summary {
    uint64_t words, busy;
    uint64_t max_busy;
    unsigned max_x, max_y, max_dir;
} link_summary_t;

static void link_summary(const emu_array_t *a, link_summary_t *ls)
{
    memset(ls, 0, sizeof *ls);
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const coa_t *c = emu_array_coa(a, x, y);
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                ls->words += c->link_stats[d].words;
                ls->busy += c->link_stats[d].busy_clocks;
                if (c->link_stats[d].busy_clocks > ls->max_busy) {
                    ls->max_busy = c->link_stats[d].busy_clocks;
                    ls->max_x = x;
                    ls->max_y = y;
                    ls->max_dir = d;
                }
            }
        }
}

/* Over every channel where a pathway started: how long each pathway's header held it before its first data
 * word (coa_lc_stats_t.held_*), the per-message work of a sender in between. */
typedef struct held_summary {
    uint64_t pathways, clocks, max;
} held_summary_t;

static void held_summary(const emu_array_t *a, held_summary_t *hs)
{
    memset(hs, 0, sizeof *hs);
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const coa_t *c = emu_array_coa(a, x, y);
            for (unsigned i = 0; i < c->cfg.channels; i++) {
                const coa_lc_stats_t *st = &c->lc_stats[i];
                hs->pathways += st->held_pathways;
                hs->clocks += st->held_clocks;
                if (st->held_max > hs->max)
                    hs->max = st->held_max;
            }
        }
}

static void network_text(const run_report_t *r, FILE *out, uint64_t cycles)
{
    const emu_array_t *a = r->array;
    link_summary_t ls;
    link_summary(a, &ls);
    if (ls.words == 0)
        return;
    double links = 4.0 * emu_array_width(a) * emu_array_height(a);
    fprintf(out, "\nnetwork  %llu words over links, mean link utilization %.1f%%, busiest (%u,%u) %s at %.1f%%\n",
            (unsigned long long)ls.words, cycles ? 100.0 * (double)ls.busy / (links * (double)cycles) : 0.0, ls.max_x,
            ls.max_y, coa_dir_name((coa_dir_t)ls.max_dir), cycles ? 100.0 * (double)ls.max_busy / (double)cycles : 0.0);
    held_summary_t hs;
    held_summary(a, &hs);
    if (hs.pathways > 0)
        fprintf(
            out,
            "held     %llu pathways held by their header before their first data word: mean %.1f, max %llu clocks\n",
            (unsigned long long)hs.pathways, (double)hs.clocks / (double)hs.pathways, (unsigned long long)hs.max);
    if (emu_array_width(a) * emu_array_height(a) > RUN_REPORT_MAX_CELL_ROWS)
        return;
    fprintf(out, "%-8s %-4s %5s %10s %10s %9s %9s %9s %9s %9s %9s\n", "cell", "ch", "paths", "words", "mean occ",
            "max occ", "no_data", "no_space", "lost_turn", "no_chan", "receiver");
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const coa_t *c = emu_array_coa(a, x, y);
            for (unsigned i = 0; i < c->cfg.channels; i++) {
                const coa_lc_stats_t *st = &c->lc_stats[i];
                if (st->words_in == 0 && st->pathways == 0)
                    continue;
                char label[32];
                snprintf(label, sizeof label, "(%u,%u)", x, y);
                fprintf(out, "%-8s %-4u %5llu %10llu %10.2f %9u %9llu %9llu %9llu %9llu %9llu\n", label, i,
                        (unsigned long long)st->pathways, (unsigned long long)st->words_out,
                        cycles ? (double)st->occupancy_sum / (double)cycles : 0.0, st->occupancy_max,
                        (unsigned long long)st->wait_clocks[COA_WAIT_NO_DATA],
                        (unsigned long long)st->wait_clocks[COA_WAIT_NO_SPACE],
                        (unsigned long long)st->wait_clocks[COA_WAIT_LOST_TURN],
                        (unsigned long long)st->wait_clocks[COA_WAIT_NO_CHANNEL],
                        (unsigned long long)st->wait_clocks[COA_WAIT_RECEIVER]);
            }
        }
}

void run_report_text(const run_report_t *r, FILE *out)
{
    const emu_array_t *a = r->array;
    unsigned w = emu_array_width(a), h = emu_array_height(a);
    uint64_t cycles = emu_array_cycles(a);
    fprintf(out, "program  %s on %ux%u\n", r->program, w, h);
    fprintf(out, "status   %s\n", status_text(r->status));
    fprintf(out, "cycles   %llu (%.2f us at 20 MHz)\n", (unsigned long long)cycles, (double)cycles / 20.0);
    run_report_problem(r, out);
    fprintf(out, "\n%-8s %-8s %-10s %10s %10s %10s %10s %10s %10s %9s %9s\n", "cell", "state", "a0", "instr", "ops",
            "busy", "stall:byp", "stall:gi", "stall:go", "mem:rd", "mem:wr");
    if (w * h <= RUN_REPORT_MAX_CELL_ROWS) {
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                const ca_t *ca = emu_array_ca(a, x, y);
                char label[32], a0[16];
                snprintf(label, sizeof label, "(%u,%u)", x, y);
                snprintf(a0, sizeof a0, "0x%x", ca_reg(ca, ISA_REG_A0));
                stats_row(out, label, ca_state_name(ca->s.state), a0, &ca->s.stats);
            }
    }
    ca_stats_t sum;
    run_report_totals(a, &sum);
    stats_row(out, "total", "", "", &sum);
    network_text(r, out, cycles);
    if (r->host_seconds > 0)
        fprintf(out, "\nhost     %.3f s, %.3g emulated instructions/s, %.3g cell-clocks/s\n", r->host_seconds,
                (double)sum.bundles / r->host_seconds, (double)cycles * w * h / r->host_seconds);
    if (r->tuner != NULL)
        fprintf(out,
                "threads  auto: ended on %u of up to %u (%u tries, %u kept, %u gone back, %u not made: no idle "
                "core)\n",
                r->tuner->cur, r->tuner->max, r->tuner->probes, r->tuner->switches, r->tuner->fallbacks,
                r->tuner->skipped);
    if (r->phases != NULL) {
        fprintf(out, "\n");
        phase_report_text(r->phases, out);
    }
}

void run_report_json(const run_report_t *r, FILE *out)
{
    const emu_array_t *a = r->array;
    json_writer_t j;
    json_init(&j, out, true);
    json_begin_object(&j, NULL);
    json_string(&j, "program", r->program);
    json_u64(&j, "width", emu_array_width(a));
    json_u64(&j, "height", emu_array_height(a));
    json_string(&j, "status", emu_run_status_name(r->status));
    json_u64(&j, "cycles", emu_array_cycles(a));
    json_double(&j, "host_seconds", r->host_seconds);
    if (r->tuner != NULL) {
        json_begin_object(&j, "threads_auto");
        json_u64(&j, "threads", r->tuner->cur);
        json_u64(&j, "max", r->tuner->max);
        json_u64(&j, "tries", r->tuner->probes);
        json_u64(&j, "kept", r->tuner->switches);
        json_u64(&j, "gone_back", r->tuner->fallbacks);
        json_u64(&j, "not_made_no_idle_core", r->tuner->skipped);
        json_end_object(&j);
    }
    unsigned fx, fy;
    if (emu_array_first_fault(a, &fx, &fy)) {
        char line[400];
        const ca_t *ca = emu_array_ca(a, fx, fy);
        emu_format_fault(a, fx, fy, line, sizeof line);
        json_begin_object(&j, "fault");
        json_u64(&j, "x", fx);
        json_u64(&j, "y", fy);
        json_u64(&j, "pc", ca->s.fault.pc);
        json_u64(&j, "cycle", ca->s.fault.cycle);
        json_string(&j, "kind", emu_fault_kind_name(ca->s.fault.kind));
        json_string(&j, "message", line);
        json_end_object(&j);
    }
    if (r->status == EMU_RUN_DEADLOCK)
        json_string(&j, "deadlock", emu_array_deadlock(a));
    if (r->status == EMU_RUN_LIVELOCK)
        json_string(&j, "livelock", emu_array_deadlock(a));
    link_summary_t ls;
    link_summary(a, &ls);
    json_u64(&j, "link_words", ls.words);
    json_u64(&j, "link_busy_clocks", ls.busy);
    held_summary_t hs;
    held_summary(a, &hs);
    json_begin_object(&j, "held_before_data");
    json_u64(&j, "pathways", hs.pathways);
    json_u64(&j, "clocks", hs.clocks);
    json_double(&j, "mean_clocks", hs.pathways ? (double)hs.clocks / (double)hs.pathways : 0.0);
    json_u64(&j, "max_clocks", hs.max);
    json_end_object(&j);
    json_begin_array(&j, "cells");
    for (unsigned y = 0; y < emu_array_height(a); y++)
        for (unsigned x = 0; x < emu_array_width(a); x++) {
            const ca_t *ca = emu_array_ca(a, x, y);
            const ca_stats_t *s = &ca->s.stats;
            json_begin_object(&j, NULL);
            json_u64(&j, "x", x);
            json_u64(&j, "y", y);
            json_string(&j, "state", ca_state_name(ca->s.state));
            json_u64(&j, "a0", ca_reg(ca, ISA_REG_A0));
            json_u64(&j, "instructions", s->bundles);
            json_u64(&j, "ops", s->ops);
            json_u64(&j, "busy_clocks", s->busy_clocks);
            json_begin_object(&j, "stall_clocks");
            for (unsigned c = 0; c < CA_STALL_COUNT; c++)
                json_u64(&j, ca_stall_cause_name((ca_stall_cause_t)c), s->stall_clocks[c]);
            json_end_object(&j);
            json_u64(&j, "mem_reads", s->mem_reads);
            json_u64(&j, "mem_writes", s->mem_writes);
            json_u64(&j, "gate_reads", s->gate_reads);
            json_u64(&j, "gate_writes", s->gate_writes);
            json_u64(&j, "cr_reads", s->cr_reads);
            json_u64(&j, "cr_writes", s->cr_writes);
            json_u64(&j, "branches_taken", s->branches_taken);
            const coa_t *c = emu_array_coa(a, x, y);
            json_begin_array(&j, "links");
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                json_begin_object(&j, NULL);
                json_string(&j, "dir", coa_dir_name((coa_dir_t)d));
                json_u64(&j, "words", c->link_stats[d].words);
                json_u64(&j, "busy_clocks", c->link_stats[d].busy_clocks);
                json_double(&j, "utilization",
                            emu_array_cycles(a) ? (double)c->link_stats[d].busy_clocks / (double)emu_array_cycles(a)
                                                : 0.0);
                json_end_object(&j);
            }
            json_end_array(&j);
            json_begin_array(&j, "channels");
            for (unsigned i = 0; i < c->cfg.channels; i++) {
                const coa_lc_stats_t *st = &c->lc_stats[i];
                if (st->words_in == 0 && st->pathways == 0)
                    continue;
                json_begin_object(&j, NULL);
                json_u64(&j, "channel", i);
                json_u64(&j, "pathways", st->pathways);
                json_u64(&j, "words_in", st->words_in);
                json_u64(&j, "words_out", st->words_out);
                json_double(&j, "occupancy_mean",
                            emu_array_cycles(a) ? (double)st->occupancy_sum / (double)emu_array_cycles(a) : 0.0);
                json_u64(&j, "occupancy_max", st->occupancy_max);
                json_begin_object(&j, "wait_clocks");
                for (unsigned k = 1; k < COA_WAIT_COUNT; k++)
                    json_u64(&j, coa_wait_name((coa_wait_t)k), st->wait_clocks[k]);
                json_end_object(&j);
                json_end_object(&j);
            }
            json_end_array(&j);
            json_end_object(&j);
        }
    json_end_array(&j);
    if (r->phases != NULL)
        phase_report_json(r->phases, &j);
    json_end_object(&j);
    json_finish(&j);
}
