/* Inspecting the network: channels (and why each waits), links, pathways across cells, spools, ConSet phases and
 * a map of the array. */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

static unsigned neighbour(const dbg_t *d, unsigned cell, unsigned dir)
{
    unsigned x = dbg_cell_x(d, cell), y = dbg_cell_y(d, cell);
    coa_dir_step((coa_dir_t)dir, d->w, d->h, &x, &y);
    return y * d->w + x;
}

void dbg_end_text(const dbg_t *d, unsigned cell, coa_end_t e, bool route, char *buf, size_t cap)
{
    switch (e.kind) {
    case COA_END_LINK: {
        unsigned n = neighbour(d, cell, e.dir);
        snprintf(buf, cap, "%s (%u,%u) lc %u", coa_dir_name((coa_dir_t)e.dir), dbg_cell_x(d, n), dbg_cell_y(d, n),
                 e.index);
        break;
    }
    case COA_END_GATE: snprintf(buf, cap, "%s%u", route ? "gi" : "go", e.index); break;
    case COA_END_SPOOL: snprintf(buf, cap, "spool %u", e.index); break;
    case COA_END_QUEUE: snprintf(buf, cap, "arrival queue"); break;
    default: snprintf(buf, cap, "-"); break;
    }
}

void dbg_trace_origin(const dbg_t *d, unsigned cell, unsigned lc, unsigned *ocell, unsigned *olc, unsigned *hops)
{
    *hops = 0;
    /* A pathway visits a cell at most once per channel: more steps than that would be a loop. */
    for (unsigned limit = d->ncells * d->nchan; limit > 0; limit--) {
        coa_end_t src = dbg_coa(d, cell)->lc[lc].source;
        if (src.kind != COA_END_LINK)
            break;
        unsigned up = neighbour(d, cell, src.dir);
        const coa_lc_t *u = &dbg_coa(d, up)->lc[src.index % COA_MAX_CHANNELS];
        if (u->route.kind != COA_END_LINK || neighbour(d, up, u->route.dir) != cell || u->route.index != lc)
            break; /* the upstream channel has moved on (drained, reused): the trace ends here */
        cell = up;
        lc = src.index;
        (*hops)++;
    }
    *ocell = cell;
    *olc = lc;
}

static void word_text(uint32_t w, bool tag, char *buf, size_t cap)
{
    coa_sign_t s;
    if (!tag)
        snprintf(buf, cap, "0x%x", w);
    else if (coa_sign_decode(w, &s) && s.action <= COA_SIGN_MY)
        snprintf(buf, cap, "sign(%u,%u %s)", s.x, s.y, coa_dir_name((coa_dir_t)s.action));
    else if (coa_sign_decode(w, &s))
        snprintf(buf, cap, "sign(%u,%u %s%u)", s.x, s.y,
                 s.action == COA_SIGN_GATE    ? "gi"
                 : s.action == COA_SIGN_SPOOL ? "spool "
                                              : "queue",
                 s.sink);
    else if (coa_word_kind(w) == COA_WORD_KIND_TRAILER)
        snprintf(buf, cap, "trailer(%u)", w & 0x0fffffffu);
    else
        snprintf(buf, cap, "tagged(0x%x)", w);
}

static void gate_text(const coa_t *c, unsigned g, bool in, char *buf, size_t cap)
{
    unsigned lc = in ? c->gate_in_lc[g] : c->gate_out_lc[g];
    if (lc == COA_NONE)
        snprintf(buf, cap, "%s%u -", in ? "gi" : "go", g);
    else if (lc == COA_EXPECT)
        snprintf(buf, cap, "%s%u expecting", in ? "gi" : "go", g);
    else
        snprintf(buf, cap, "%s%u lc %u", in ? "gi" : "go", g, lc);
}

int dbg_cmd_channels(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: channels [X,Y]");
    const coa_t *c = dbg_coa(d, cell);
    uint64_t now = emu_array_clock(d->a);
    char g[4][32];
    gate_text(c, 0, true, g[0], sizeof g[0]);
    gate_text(c, 1, true, g[1], sizeof g[1]);
    gate_text(c, 0, false, g[2], sizeof g[2]);
    gate_text(c, 1, false, g[3], sizeof g[3]);
    dbg_printf(d, "channels of (%u,%u) at clock %llu: %s, %s, %s, %s; arrival queue %u%s\n", dbg_cell_x(d, cell),
               dbg_cell_y(d, cell), (unsigned long long)now, g[0], g[1], g[2], g[3], c->narrivals,
               c->asleep ? "; the agent sleeps" : "");
    dbg_printf(d, "%2s %-8s %4s %-17s %-17s %4s %5s %-10s %s\n", "lc", "state", "pool", "route", "source", "cred",
               "words", "wait", "queue (head first)");
    for (unsigned lc = 0; lc < d->nchan; lc++) {
        const coa_lc_t *l = &c->lc[lc];
        char route[48], source[48], queue[512] = "";
        dbg_end_text(d, cell, l->route, true, route, sizeof route);
        dbg_end_text(d, cell, l->source, false, source, sizeof source);
        size_t used = 0;
        for (unsigned k = 0; k < l->count && k < d->show_words && used < sizeof queue - 40; k++) {
            bool tag = false;
            char w[40];
            uint32_t word = coa_lc_peek(c, lc, k, &tag); /* before word_text reads tag */
            word_text(word, tag, w, sizeof w);
            used += (size_t)snprintf(queue + used, sizeof queue - used, "%s%s", k ? " " : "", w);
        }
        if (l->count > d->show_words)
            snprintf(queue + used, sizeof queue - used, " ...");
        coa_wait_t wait = coa_lc_wait(c, lc, now);
        char words[16], line[800];
        snprintf(words, sizeof words, "%u/%u", l->count, c->cfg.queue_depth);
        snprintf(line, sizeof line, "%2u %-8s %4u %-17s %-17s %4u %5s %-10s %s", lc,
                 coa_lc_state_name((coa_lc_state_t)l->state), l->pool, route, source, l->credits, words,
                 wait == COA_WAIT_NONE ? "-" : coa_wait_name(wait), queue);
        dbg_print_line(d, line);
    }
    return 0;
}

int dbg_cmd_links(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: links [X,Y]");
    const coa_t *c = dbg_coa(d, cell);
    uint64_t now = emu_array_clock(d->a);
    dbg_printf(d, "outgoing links of (%u,%u) at clock %llu (a word per %u clocks; round robin over routed channels)\n",
               dbg_cell_x(d, cell), dbg_cell_y(d, cell), (unsigned long long)now, c->cfg.link_clocks);
    dbg_printf(d, "%-3s %-7s %8s %8s %6s %4s %4s  %s\n", "dir", "to", "words", "busy", "util", "rr", "last",
               "routed channels");
    for (unsigned dir = 0; dir < COA_NUM_DIRS; dir++) {
        unsigned n = neighbour(d, cell, dir);
        char to[16], routed[160] = "", last[8];
        snprintf(to, sizeof to, "(%u,%u)", dbg_cell_x(d, n), dbg_cell_y(d, n));
        size_t used = 0;
        for (unsigned lc = 0; lc < d->nchan && used < sizeof routed - 8; lc++)
            if (c->link_lc[dir] >> lc & 1u)
                used += (size_t)snprintf(routed + used, sizeof routed - used, "%s%u", used ? " " : "", lc);
        if (used == 0)
            snprintf(routed, sizeof routed, "-");
        if (c->link_stats[dir].words == 0)
            snprintf(last, sizeof last, "-");
        else
            snprintf(last, sizeof last, "%u", c->link_last_lc[dir]);
        double util = now ? 100.0 * (double)c->link_stats[dir].busy_clocks / (double)now : 0.0;
        dbg_printf(d, "%-3s %-7s %8llu %8llu %5.1f%% %4u %4s  %s%s\n", coa_dir_name((coa_dir_t)dir), to,
                   (unsigned long long)c->link_stats[dir].words, (unsigned long long)c->link_stats[dir].busy_clocks,
                   util, c->rr[dir], last, routed, c->link_free_at[dir] > now ? " (sending a word)" : "");
    }
    return 0;
}

/* One line per hop from the channel (cell, lc) downstream to the sink. Returns the number of hops. */
static unsigned walk_pathway(dbg_t *d, unsigned cell, unsigned lc, bool print, unsigned *words, char *end, size_t cap)
{
    unsigned hops = 0;
    *words = 0;
    snprintf(end, cap, "%s", "");
    for (unsigned limit = d->ncells * d->nchan; limit > 0; limit--) {
        const coa_lc_t *l = &dbg_coa(d, cell)->lc[lc];
        *words += l->count;
        char route[48], source[48];
        dbg_end_text(d, cell, l->route, true, route, sizeof route);
        dbg_end_text(d, cell, l->source, false, source, sizeof source);
        if (print)
            dbg_printf(d, "  (%u,%u) lc %-3u %-8s %u/%u words  from %-17s to %s\n", dbg_cell_x(d, cell),
                       dbg_cell_y(d, cell), lc, coa_lc_state_name((coa_lc_state_t)l->state), l->count,
                       dbg_coa(d, cell)->cfg.queue_depth, source, route);
        if (l->route.kind != COA_END_LINK) {
            if (l->route.kind == COA_END_NONE)
                snprintf(end, cap, "not yet routed at (%u,%u) lc %u (%s)", dbg_cell_x(d, cell), dbg_cell_y(d, cell), lc,
                         coa_lc_state_name((coa_lc_state_t)l->state));
            else
                snprintf(end, cap, "%s of (%u,%u)", route, dbg_cell_x(d, cell), dbg_cell_y(d, cell));
            break;
        }
        cell = neighbour(d, cell, l->route.dir);
        lc = l->route.index % COA_MAX_CHANNELS;
        hops++;
    }
    return hops;
}

int dbg_cmd_pathway(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    char *w = dbg_word(&args);
    uint64_t lc;
    if (w == NULL || dbg_parse_u64(w, &lc) != 0 || lc >= d->nchan || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: pathway [X,Y] LC  (LC is a channel number 0..%u)", d->nchan - 1);
    const coa_lc_t *l = &dbg_coa(d, cell)->lc[lc];
    if (l->state == COA_LC_FREE)
        return dbg_error(d, "channel %llu of (%u,%u) is free: no pathway goes through it", (unsigned long long)lc,
                         dbg_cell_x(d, cell), dbg_cell_y(d, cell));
    unsigned oc, olc, up, words;
    dbg_trace_origin(d, cell, (unsigned)lc, &oc, &olc, &up);
    char from[48], end[128];
    dbg_end_text(d, oc, dbg_coa(d, oc)->lc[olc].source, false, from, sizeof from);
    unsigned hops = walk_pathway(d, oc, olc, false, &words, end, sizeof end);
    dbg_printf(d, "pathway through (%u,%u) lc %llu: from %s of (%u,%u) to %s, %u hop%s, %u word%s in it\n",
               dbg_cell_x(d, cell), dbg_cell_y(d, cell), (unsigned long long)lc, from, dbg_cell_x(d, oc),
               dbg_cell_y(d, oc), end, hops, hops == 1 ? "" : "s", words, words == 1 ? "" : "s");
    walk_pathway(d, oc, olc, true, &words, end, sizeof end);
    return 0;
}

int dbg_cmd_spools(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: spools [X,Y]");
    const coa_t *c = dbg_coa(d, cell);
    dbg_printf(d, "spools of (%u,%u) at clock %llu\n", dbg_cell_x(d, cell), dbg_cell_y(d, cell),
               (unsigned long long)emu_array_clock(d->a));
    dbg_printf(d, "%-2s %-7s %4s %-10s %6s %6s %6s %-12s %s\n", "sp", "mode", "lc", "address", "stride", "left",
               "moved", "status", "total words");
    for (unsigned i = 0; i < c->cfg.spools; i++) {
        const coa_spool_t *s = &c->spool[i];
        static const char *const modes[] = {"idle", "send", "receive"};
        char lc[8], status[16];
        if (s->lc == COA_NONE)
            snprintf(lc, sizeof lc, "%s", s->mode == COA_SPOOL_RECEIVE ? "next" : "-");
        else
            snprintf(lc, sizeof lc, "%u", s->lc);
        snprintf(status, sizeof status, "%s",
                 s->status & COA_SPOOL_TRAILER ? "done(trailer)"
                 : s->status & COA_SPOOL_DONE  ? "done"
                                               : "-");
        dbg_printf(d, "%-2u %-7s %4s 0x%08x %6d %6u %6u %-12s %llu\n", i, modes[s->mode % 3u], lc, s->addr, s->stride,
                   s->count, s->index, status, (unsigned long long)s->words);
    }
    return 0;
}

/* --- phases --- */

int dbg_cmd_phase(dbg_t *d, char *args)
{
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: phase");
    uint64_t now = emu_array_clock(d->a);
    int64_t *phase = malloc(sizeof *phase * d->ncells);
    uint64_t *since = malloc(sizeof *since * d->ncells);
    if (phase == NULL || since == NULL) {
        free(phase);
        free(since);
        return dbg_error(d, "out of memory");
    }
    for (unsigned i = 0; i < d->ncells; i++) {
        phase[i] = -1;
        since[i] = 0;
    }
    for (size_t k = 0; k < d->nmarks && d->marks[k].clock < now; k++)
        if (d->marks[k].value >> 24 == EMU_MARK_PHASE) {
            phase[d->marks[k].cell] = d->marks[k].value & 0xffffff;
            since[d->marks[k].cell] = d->marks[k].clock;
        }
    /* Cells in the same phase, listed together: in a ConSet program they all should be. */
    bool any = false;
    for (unsigned i = 0; i < d->ncells; i++) {
        if (phase[i] < 0)
            continue;
        dbg_cells_t same;
        memset(&same, 0, sizeof same);
        uint64_t first = since[i], last = since[i];
        for (unsigned j = i; j < d->ncells; j++)
            if (phase[j] == phase[i]) {
                dbg_cells_add(&same, j);
                first = since[j] < first ? since[j] : first;
                last = since[j] > last ? since[j] : last;
                if (j != i)
                    phase[j] = -1;
            }
        char cells[64];
        dbg_cells_text(d, &same, cells, sizeof cells);
        dbg_printf(d, "phase %lld on %s, begun at clock %llu", (long long)phase[i], cells, (unsigned long long)first);
        if (last != first)
            dbg_printf(d, " .. %llu", (unsigned long long)last);
        dbg_printf(d, "\n");
        any = true;
    }
    free(phase);
    free(since);
    if (!any)
        dbg_printf(d, "no ConSet phase marked before clock %llu\n", (unsigned long long)now);
    /* The connections in place: every pathway from where words enter (a gate or spool) to where it ends. */
    unsigned n = 0;
    for (unsigned i = 0; i < d->ncells; i++) {
        const coa_t *c = dbg_coa(d, i);
        for (unsigned lc = 0; lc < d->nchan; lc++) {
            const coa_lc_t *l = &c->lc[lc];
            if (l->state == COA_LC_FREE || (l->source.kind != COA_END_GATE && l->source.kind != COA_END_SPOOL))
                continue;
            if (n++ == 0)
                dbg_printf(d, "connections:\n");
            char from[48], end[128];
            unsigned words;
            dbg_end_text(d, i, l->source, false, from, sizeof from);
            unsigned hops = walk_pathway(d, i, lc, false, &words, end, sizeof end);
            dbg_printf(d, "  (%u,%u) %s lc %u -> %s, %u hop%s, %u word%s in it\n", dbg_cell_x(d, i), dbg_cell_y(d, i),
                       from, lc, end, hops, hops == 1 ? "" : "s", words, words == 1 ? "" : "s");
        }
    }
    if (n == 0)
        dbg_printf(d, "no connections: no channel takes words from a gate or spool\n");
    return 0;
}

/* --- the map --- */

static char state_char(const ca_t *ca)
{
    switch (ca->s.state) {
    case CA_IDLE: return '.';
    case CA_RUNNING: return 'R';
    case CA_WAITING: return 'W';
    case CA_HALTED: return 'H';
    case CA_FAULTED: return 'F';
    }
    return '?';
}

static bool link_used(const dbg_t *d, unsigned cell, unsigned dir)
{
    return dbg_coa(d, cell)->link_lc[dir] != 0;
}

/* Markers between two rows: v for +Y of the upper cell, ^ for -Y of the lower one (no line when there are none). */
static void vertical_row(dbg_t *d, unsigned y, dbg_str_t *line)
{
    unsigned below = (y + 1) % d->h;
    bool any = false;
    for (unsigned x = 0; x < d->w; x++)
        any |= link_used(d, y * d->w + x, COA_DIR_PY) || link_used(d, below * d->w + x, COA_DIR_MY);
    if (!any)
        return;
    dbg_str_clear(line);
    dbg_str_printf(line, "   ");
    for (unsigned x = 0; x < d->w; x++) {
        bool down = link_used(d, y * d->w + x, COA_DIR_PY), up = link_used(d, below * d->w + x, COA_DIR_MY);
        dbg_str_printf(line, " %c    ", down && up ? '|' : down ? 'v' : up ? '^' : ' ');
    }
    dbg_print_line(d, line->s);
}

int dbg_cmd_map(dbg_t *d, char *args)
{
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: map");
    dbg_printf(d, "clock %llu, (%u,%u) selected\n", (unsigned long long)emu_array_clock(d->a), dbg_cell_x(d, d->sel),
               dbg_cell_y(d, d->sel));
    dbg_str_t line = {NULL, 0, 0};
    dbg_str_printf(&line, "   ");
    for (unsigned x = 0; x < d->w; x++)
        dbg_str_printf(&line, " %-5u", x);
    dbg_print_line(d, line.s);
    for (unsigned y = 0; y < d->h; y++) {
        if (y == 0)
            vertical_row(d, d->h - 1, &line); /* the wrap-around links between the last row and the first */
        dbg_str_clear(&line);
        dbg_str_printf(&line, "%2u ", y);
        for (unsigned x = 0; x < d->w; x++) {
            unsigned i = y * d->w + x, right = y * d->w + (x + 1) % d->w;
            unsigned words = 0;
            for (unsigned lc = 0; lc < d->nchan; lc++)
                words += dbg_coa(d, i)->lc[lc].count;
            char count[8];
            if (words > 99)
                snprintf(count, sizeof count, "++");
            else
                snprintf(count, sizeof count, "%u", words);
            bool sel = i == d->sel;
            bool l = link_used(d, i, COA_DIR_PX), r = link_used(d, right, COA_DIR_MX);
            dbg_str_printf(&line, "%c%c%-2s%c%c", sel ? '[' : ' ', state_char(dbg_ca(d, i)), count, sel ? ']' : ' ',
                           l && r ? '='
                           : l    ? '>'
                           : r    ? '<'
                                  : ' ');
        }
        dbg_print_line(d, line.s);
        if (y + 1 < d->h)
            vertical_row(d, y, &line);
    }
    dbg_str_free(&line);
    dbg_printf(d, "R running, W waiting, H halted, F faulted, . no program; the number: words queued in the cell; "
                  "> < v ^: links in use (= | both ways)\n");
    return 0;
}
