/*
 * Telling a livelock from a deadlock when the deadlock window closes. Both are a network where no word has moved
 * and no CA has computed (EMU_RECHECK_BUNDLES in emu/cell.h) for deadlock_clocks while some CA waited. In a
 * deadlock nothing more can happen: every CA that has not halted waits on a gate or sleeps in wfe with no timer.
 * In a livelock cores still run: event handlers, the looks of wait loops, timers that wake them, and none of it
 * moves a word. The report says where they run, which is where the person looks.
 */
#include <stdio.h>
#include <string.h>

#include "livelock.h"

enum { SHOWN = 8 }; /* cells listed, as the cycle-limit report of `iwarp run` */

static void append(char *buf, size_t cap, const char *text)
{
    size_t n = strlen(buf);
    if (n + 1 < cap)
        snprintf(buf + n, cap - n, "%s", text);
}

/* The last clock at which a word left a channel's queue anywhere (over a link, to a gate or a spool), or false. */
static bool last_word_moved(const emu_array_t *a, uint64_t *at)
{
    bool any = false;
    *at = 0;
    for (unsigned i = 0; i < a->ncells; i++) {
        const coa_t *c = &a->cells[i].coa;
        for (unsigned lc = 0; lc < c->cfg.channels; lc++)
            if (c->lc[lc].moved_at != UINT64_MAX && (!any || c->lc[lc].moved_at > *at)) {
                *at = c->lc[lc].moved_at;
                any = true;
            }
    }
    return any;
}

bool emu_livelock_report(emu_array_t *a)
{
    unsigned running = 0, waiting = 0;
    for (unsigned i = 0; i < a->ncells; i++) {
        running += emu_cell_runs_on(&a->cells[i], a->clock);
        waiting += a->cells[i].ca.s.state == CA_WAITING && !emu_cell_runs_on(&a->cells[i], a->clock);
    }
    if (running == 0)
        return false;
    char line[1024];
    uint64_t moved;
    a->deadlock[0] = '\0';
    if (last_word_moved(a, &moved))
        snprintf(line, sizeof line, "no word has moved since clock %llu", (unsigned long long)moved);
    else
        snprintf(line, sizeof line, "no word has moved in this run");
    append(a->deadlock, sizeof a->deadlock, line);
    snprintf(line, sizeof line, ", no progress since clock %llu; %u cell%s still run%s, %u wait%s for a word:\n",
             (unsigned long long)a->last_progress, running, running == 1 ? "" : "s", running == 1 ? "s" : "", waiting,
             waiting == 1 ? "s" : "");
    append(a->deadlock, sizeof a->deadlock, line);
    unsigned shown = 0;
    for (unsigned i = 0; i < a->ncells && shown < SHOWN; i++) {
        const emu_cell_t *c = &a->cells[i];
        if (!emu_cell_runs_on(c, a->clock))
            continue;
        char where[400], from[400] = "";
        emu_format_where(a, c->x, c->y, where, sizeof where);
        if (c->ca.s.in_handler) {
            /* The handler runs for the program it diverted: where that was is the loop that spins. */
            char src[160];
            emu_source_text(&c->ca, c->ca.s.epc, src, sizeof src);
            snprintf(from, sizeof from, ", in an event handler from pc 0x%x%s", c->ca.s.epc, src);
        } else if (c->ca.s.state == CA_WAITING) {
            snprintf(from, sizeof from, ", until its timer");
        }
        snprintf(line, sizeof line, "  %s%s\n", where, from);
        append(a->deadlock, sizeof a->deadlock, line);
        shown++;
    }
    if (running > shown) {
        snprintf(line, sizeof line, "  and %u more cell%s\n", running - shown, running - shown == 1 ? "" : "s");
        append(a->deadlock, sizeof a->deadlock, line);
    }
    return true;
}
