/*
 * Watchpoints and catchpoints: things seen after a clock by comparing state with the clock before. Values
 * (registers, memory, any expression), a channel's occupancy, a CA stalled on a gate; and events: pathways
 * opening and closing at their sink, ConSet phase switches and messages (marks the runtimes raise).
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

const char *const dbg_catch_names[DBG_CATCH_COUNT] = {"open", "close", "phase", "send", "receive", "mark"};

/* A channel that ends a pathway here: its words go to a gate, a spool or the arrival queue. */
static bool is_sink(uint8_t st)
{
    unsigned state = st & 15u, kind = st >> 4;
    return (state == COA_LC_ROUTED && (kind == COA_END_GATE || kind == COA_END_SPOOL || kind == COA_END_QUEUE)) ||
           state == COA_LC_ARRIVED;
}

static uint8_t lc_code(const coa_t *c, unsigned lc)
{
    return (uint8_t)(c->lc[lc].state | c->lc[lc].route.kind << 4);
}

static bool needs_channels(const dbg_t *d)
{
    for (unsigned i = 0; i < d->npoints; i++) {
        const dbg_point_t *p = d->points[i];
        if (p->enabled && p->kind == DBG_CATCH && (p->event == DBG_CATCH_OPEN || p->event == DBG_CATCH_CLOSE))
            return true;
    }
    return false;
}

bool dbg_has_watches(const dbg_t *d)
{
    for (unsigned i = 0; i < d->npoints; i++)
        if (d->points[i]->enabled && d->points[i]->kind != DBG_BREAK)
            return true;
    return false;
}

/* What a waiting CA waits on: gates 0..3 (gi0 gi1 go0 go1), WAIT_WFE for wfe. */
enum { WAIT_WFE = ISA_NUM_GATES_IN + ISA_NUM_GATES_OUT, WAIT_KINDS };
static int wait_what(const ca_t *ca)
{
    return ca->s.wait_cause == CA_STALL_WFE ? WAIT_WFE : ca->s.wait_gate;
}

/* The name of what a CA waits on, as watch stall takes it: the gate's register name, or wfe. */
static const char *wait_name(unsigned what)
{
    char buf[8];
    return what < WAIT_WFE ? isa_reg_name(ISA_REG_GI0 + what, buf) : "wfe"; /* a gate's name is never buf */
}

static bool test(int64_t a, int op, int64_t b)
{
    switch (op) {
    case '=': return a == b;
    case '!': return a != b;
    case '<': return a < b;
    case 'l': return a <= b;
    case '>': return a > b;
    case 'g': return a >= b;
    }
    return false;
}

static const char *op_text(int op)
{
    switch (op) {
    case '=': return "==";
    case '!': return "!=";
    case '<': return "<";
    case 'l': return "<=";
    case '>': return ">";
    case 'g': return ">=";
    }
    return "?";
}

void dbg_arm_watches(dbg_t *d)
{
    char err[256];
    for (unsigned k = 0; k < d->npoints; k++) {
        dbg_point_t *p = d->points[k];
        if (!p->enabled)
            continue;
        for (unsigned i = 0; i < d->ncells; i++) {
            if (!dbg_cells_has(&p->cells, i))
                continue;
            const coa_t *c = dbg_coa(d, i);
            const ca_t *ca = dbg_ca(d, i);
            switch (p->kind) {
            case DBG_WATCH: p->have[i] = dbg_eval(d, p->expr, i, &p->old[i], err, sizeof err) == 0; break;
            case DBG_WATCH_CHAN:
                p->old[i] = p->op ? test(c->lc[p->lc].count, p->op, p->value) : c->lc[p->lc].count;
                p->have[i] = true;
                break;
            case DBG_WATCH_STALL: {
                /* A wait going on when the run starts counts from when it began. If it is already long enough,
                 * it has been seen: fire on the next one. */
                bool waiting = ca->s.state == CA_WAITING && (p->gate < 0 || wait_what(ca) == p->gate);
                uint64_t now = emu_array_clock(d->a);
                p->old[i] = waiting ? (int64_t)ca->s.wait_began : -1;
                p->have[i] = waiting && now - ca->s.wait_began >= p->min_clocks;
                break;
            }
            case DBG_BREAK:
            case DBG_CATCH: break;
            }
        }
    }
    if (needs_channels(d)) {
        for (unsigned i = 0; i < d->ncells; i++)
            for (unsigned lc = 0; lc < d->nchan; lc++)
                d->lc_prev[i * d->nchan + lc] = lc_code(dbg_coa(d, i), lc);
    }
}

static bool hit(dbg_t *d, dbg_point_t *p, unsigned cell)
{
    bool failed;
    if (!dbg_point_hit(d, p, cell, &failed))
        return false;
    if (failed)
        d->reason = DBG_STOP_EVAL;
    p->fired = true;
    if (d->stop_cell < 0)
        d->stop_cell = (int)cell;
    return true;
}

static void value_text(int64_t v, char *buf, size_t cap)
{
    if (v >= -2147483648LL && v <= 0xffffffffLL && (v < 0 || v > 9))
        snprintf(buf, cap, "%lld (0x%x)", (long long)v, (uint32_t)v);
    else
        snprintf(buf, cap, "%lld", (long long)v);
}

static bool check_value(dbg_t *d, dbg_point_t *p, unsigned i, uint64_t clock)
{
    int64_t v;
    char err[256];
    unsigned x = dbg_cell_x(d, i), y = dbg_cell_y(d, i);
    if (dbg_eval(d, p->expr, i, &v, err, sizeof err) != 0) {
        if (!p->have[i])
            return false; /* it could not be evaluated before either: nothing changed */
        p->have[i] = false;
        dbg_str_printf(&d->stop_msg, "watchpoint %u on (%u,%u) at clock %llu: %s\n", p->id, x, y,
                       (unsigned long long)clock, err);
        d->reason = DBG_STOP_EVAL;
        return true;
    }
    bool changed = !p->have[i] || v != p->old[i];
    int64_t was = p->old[i];
    bool had = p->have[i];
    p->old[i] = v;
    p->have[i] = true;
    if (!changed || !hit(d, p, i))
        return false;
    char a[64], b[64];
    value_text(was, a, sizeof a);
    value_text(v, b, sizeof b);
    dbg_str_printf(&d->stop_msg, "watchpoint %u on (%u,%u) at clock %llu: %s was %s, now %s\n", p->id, x, y,
                   (unsigned long long)clock, p->text, had ? a : "unknown", b);
    return true;
}

static bool check_channel(dbg_t *d, dbg_point_t *p, unsigned i, uint64_t clock)
{
    unsigned count = dbg_coa(d, i)->lc[p->lc].count;
    int64_t now = p->op ? test(count, p->op, p->value) : count;
    int64_t was = p->old[i];
    p->old[i] = now;
    /* With a test, fire when it becomes true; without, on every change of occupancy. */
    bool fire = p->op ? now && !was : now != was;
    if (!fire || !hit(d, p, i))
        return false;
    dbg_str_printf(&d->stop_msg, "watchpoint %u on (%u,%u) at clock %llu: channel %u holds %u word%s", p->id,
                   dbg_cell_x(d, i), dbg_cell_y(d, i), (unsigned long long)clock, p->lc, count, count == 1 ? "" : "s");
    if (p->op)
        dbg_str_printf(&d->stop_msg, " (%s %lld)\n", op_text(p->op), (long long)p->value);
    else
        dbg_str_printf(&d->stop_msg, " (was %lld)\n", (long long)was);
    return true;
}

static bool check_stall(dbg_t *d, dbg_point_t *p, unsigned i, uint64_t clock)
{
    const ca_t *ca = dbg_ca(d, i);
    if (ca->s.state != CA_WAITING || (p->gate >= 0 && wait_what(ca) != p->gate)) {
        p->old[i] = -1;
        p->have[i] = false;
        return false;
    }
    if (p->old[i] < 0) /* a new wait: it began in this clock */
        p->old[i] = (int64_t)clock;
    uint64_t waited = clock + 1 - (uint64_t)p->old[i];
    if (p->have[i] || waited < p->min_clocks)
        return false;
    p->have[i] = true; /* once per wait */
    if (!hit(d, p, i))
        return false;
    dbg_str_printf(&d->stop_msg, "watchpoint %u on (%u,%u) at clock %llu: the CA has waited %llu clock%s on %s\n",
                   p->id, dbg_cell_x(d, i), dbg_cell_y(d, i), (unsigned long long)clock, (unsigned long long)waited,
                   waited == 1 ? "" : "s", wait_name((unsigned)wait_what(ca) % WAIT_KINDS));
    return true;
}

static bool check_marks(dbg_t *d, dbg_point_t *p, unsigned i, uint64_t clock)
{
    const uint32_t *marks;
    unsigned n = emu_array_marks(d->a, dbg_cell_x(d, i), dbg_cell_y(d, i), &marks);
    bool any = false;
    for (unsigned k = 0; k < n; k++) {
        unsigned kind = marks[k] >> 24, data = marks[k] & 0xffffffu;
        bool match = false;
        switch (p->event) {
        case DBG_CATCH_PHASE: match = kind == EMU_MARK_PHASE && (p->event_arg < 0 || data == p->event_arg); break;
        case DBG_CATCH_SEND: match = kind == EMU_MARK_MSG_SEND; break;
        case DBG_CATCH_RECEIVE: match = kind == EMU_MARK_MSG_RECEIVE; break;
        case DBG_CATCH_MARK: match = p->event_arg < 0 || kind == p->event_arg; break;
        default: break;
        }
        if (!match || !hit(d, p, i))
            continue;
        unsigned x = dbg_cell_x(d, i), y = dbg_cell_y(d, i);
        unsigned long long c = clock;
        dbg_note_catch(d, p, i, data, clock);
        if (kind == EMU_MARK_PHASE)
            dbg_str_printf(&d->stop_msg, "catchpoint %u: phase %u begins on (%u,%u) at clock %llu\n", p->id, data, x, y,
                           c);
        else if (kind == EMU_MARK_MSG_SEND || kind == EMU_MARK_MSG_RECEIVE)
            dbg_str_printf(&d->stop_msg, "catchpoint %u: (%u,%u) %s (%u,%u) at clock %llu\n", p->id, x, y,
                           kind == EMU_MARK_MSG_SEND ? "sends a message to" : "receives a message from", data % d->w,
                           data / d->w % d->h, c);
        else
            dbg_str_printf(&d->stop_msg, "catchpoint %u: mark %u:0x%06x on (%u,%u) at clock %llu\n", p->id, kind, data,
                           x, y, c);
        any = true;
    }
    return any;
}

/* Pathways that reached their sink, or left it, in this clock. */
static bool check_channels(dbg_t *d, uint64_t clock)
{
    bool any = false;
    for (unsigned i = 0; i < d->ncells; i++) {
        const coa_t *c = dbg_coa(d, i);
        for (unsigned lc = 0; lc < d->nchan; lc++) {
            uint8_t now = lc_code(c, lc), *prev = &d->lc_prev[i * d->nchan + lc];
            if (now == *prev)
                continue;
            bool opened = is_sink(now) && !is_sink(*prev), closed = is_sink(*prev) && !is_sink(now);
            uint8_t was = *prev;
            *prev = now;
            if (!opened && !closed)
                continue;
            for (unsigned k = 0; k < d->npoints; k++) {
                dbg_point_t *p = d->points[k];
                if (!p->enabled || p->kind != DBG_CATCH || !dbg_cells_has(&p->cells, i) ||
                    p->event != (opened ? DBG_CATCH_OPEN : DBG_CATCH_CLOSE) || !hit(d, p, i))
                    continue;
                char sink[96];
                unsigned x = dbg_cell_x(d, i), y = dbg_cell_y(d, i);
                dbg_note_catch(d, p, i, 0, clock);
                if (opened) {
                    dbg_end_text(d, i, c->lc[lc].route, true, sink, sizeof sink);
                    unsigned oc, olc, hops;
                    dbg_trace_origin(d, i, lc, &oc, &olc, &hops);
                    char from[96];
                    dbg_end_text(d, oc, dbg_coa(d, oc)->lc[olc].source, false, from, sizeof from);
                    dbg_str_printf(&d->stop_msg,
                                   "catchpoint %u: pathway opened at clock %llu: (%u,%u) lc %u (%s) -> %u hop%s -> "
                                   "(%u,%u) lc %u -> %s\n",
                                   p->id, (unsigned long long)clock, dbg_cell_x(d, oc), dbg_cell_y(d, oc), olc, from,
                                   hops, hops == 1 ? "" : "s", x, y, lc, sink);
                } else {
                    dbg_str_printf(&d->stop_msg, "catchpoint %u: pathway closed at clock %llu: (%u,%u) lc %u is %s\n",
                                   p->id, (unsigned long long)clock, x, y, lc,
                                   coa_lc_state_name((coa_lc_state_t)(now & 15u)));
                }
                (void)was;
                any = true;
            }
        }
    }
    return any;
}

bool dbg_check_watches(dbg_t *d, uint64_t clock)
{
    bool any = false;
    for (unsigned k = 0; k < d->npoints; k++) {
        dbg_point_t *p = d->points[k];
        if (!p->enabled || p->kind == DBG_BREAK)
            continue;
        if (p->kind == DBG_CATCH && (p->event == DBG_CATCH_OPEN || p->event == DBG_CATCH_CLOSE))
            continue; /* below, once for every such catchpoint */
        for (unsigned i = 0; i < d->ncells; i++) {
            if (!dbg_cells_has(&p->cells, i))
                continue;
            switch (p->kind) {
            case DBG_WATCH: any |= check_value(d, p, i, clock); break;
            case DBG_WATCH_CHAN: any |= check_channel(d, p, i, clock); break;
            case DBG_WATCH_STALL: any |= check_stall(d, p, i, clock); break;
            case DBG_CATCH: any |= check_marks(d, p, i, clock); break;
            case DBG_BREAK: break;
            }
        }
    }
    if (needs_channels(d))
        any |= check_channels(d, clock);
    return any;
}

/* --- the commands --- */

static int parse_op(const char *s)
{
    static const struct {
        const char *text;
        int op;
    } ops[] = {{"==", '='}, {"!=", '!'}, {"<", '<'}, {"<=", 'l'}, {">", '>'}, {">=", 'g'}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(s, ops[i].text) == 0)
            return ops[i].op;
    return 0;
}

static int watch_channel(dbg_t *d, dbg_point_t *p, char *rest)
{
    char *w = dbg_word(&rest);
    uint64_t lc;
    if (w == NULL || dbg_parse_u64(w, &lc) != 0 || lc >= d->nchan)
        return dbg_error(d, "watch channel LC [OP N]: LC is a channel number 0..%u", d->nchan - 1);
    p->kind = DBG_WATCH_CHAN;
    p->lc = (unsigned)lc;
    char *op = dbg_word(&rest);
    if (op == NULL)
        return 0;
    char *v = dbg_word(&rest);
    uint64_t n;
    p->op = parse_op(op);
    if (p->op == 0 || v == NULL || dbg_parse_u64(v, &n) != 0 || dbg_word(&rest) != NULL)
        return dbg_error(d, "watch channel LC [OP N]: OP is one of == != < <= > >=, N a number of words");
    p->value = (int64_t)n;
    return 0;
}

static int stall_error(dbg_t *d, const char *word)
{
    dbg_str_t names = {NULL, 0, 0};
    for (unsigned w = 0; w < WAIT_KINDS; w++)
        dbg_str_printf(&names, "%s%s", w == 0 ? "" : w + 1 < WAIT_KINDS ? ", " : " or ", wait_name(w));
    int rc = dbg_error(d, "watch stall [GATE] [CLOCKS]: GATE is %s, not '%s'", names.s, word);
    dbg_str_free(&names);
    return rc;
}

static int watch_stall(dbg_t *d, dbg_point_t *p, char *rest)
{
    p->kind = DBG_WATCH_STALL;
    for (char *w = dbg_word(&rest); w != NULL; w = dbg_word(&rest)) {
        int what = 0;
        while (what < WAIT_KINDS && strcmp(w, wait_name((unsigned)what)) != 0)
            what++;
        uint64_t n;
        if (what < WAIT_KINDS)
            p->gate = what;
        else if (dbg_parse_u64(w, &n) == 0)
            p->min_clocks = n;
        else
            return stall_error(d, w);
    }
    return 0;
}

/* The words watch takes before an expression, which its completion offers with the stall's gates. */
enum { WATCH_CHANNEL, WATCH_STALL, WATCH_KINDS };
static const char *const watch_kinds[WATCH_KINDS] = {"channel", "stall"};

void dbg_complete_watch(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    for (unsigned k = 0; k < WATCH_KINDS; k++)
        dbg_words_add(words, text, watch_kinds[k]);
    for (unsigned w = 0; w < WAIT_KINDS; w++)
        dbg_words_add(words, text, wait_name(w));
    dbg_complete_expr(d, line, text, words);
}

int dbg_cmd_watch(dbg_t *d, char *args)
{
    char *cond;
    dbg_cells_t cells;
    /* Data belongs to a cell: the selected one by default. */
    if (dbg_point_args(d, args, false, &cells, &cond) != 0)
        return -1;
    char *text = dbg_trim(args);
    if (*text == '\0')
        return dbg_error(d, "usage: watch EXPRESSION | channel LC [OP N] | stall [GATE] [CLOCKS]  [@CELLS] [if COND]");
    dbg_point_t *p = dbg_point_new(d, DBG_WATCH, text);
    if (p == NULL)
        return dbg_error(d, "out of memory");
    p->cells = cells;
    char *rest = text, *first = dbg_word(&rest);
    int rc = 0;
    if (strcmp(first, watch_kinds[WATCH_CHANNEL]) == 0) {
        rc = watch_channel(d, p, rest);
    } else if (strcmp(first, watch_kinds[WATCH_STALL]) == 0) {
        rc = watch_stall(d, p, rest);
    } else {
        char err[256];
        p->expr = expr_parse(p->text, err, sizeof err);
        if (p->expr == NULL)
            rc = dbg_error(d, "%s", err);
        for (unsigned i = 0; rc == 0 && i < d->ncells; i++)
            if (dbg_cells_has(&cells, i) && dbg_eval(d, p->expr, i, &p->old[i], err, sizeof err) != 0)
                rc = dbg_error(d, "%s", err); /* a watch that cannot be read now would only ever report errors */
    }
    return dbg_point_done(d, p, rc, cond);
}

int dbg_cmd_catch(dbg_t *d, char *args)
{
    char *cond;
    dbg_cells_t cells;
    if (dbg_point_args(d, args, true, &cells, &cond) != 0)
        return -1;
    char *text = dbg_trim(args), *rest = text;
    char *w = dbg_word(&rest);
    int event = -1;
    for (int i = 0; w != NULL && i < DBG_CATCH_COUNT; i++)
        if (strcmp(w, dbg_catch_names[i]) == 0)
            event = i;
    if (event < 0)
        return dbg_error(d, "usage: catch open|close|phase [N]|send|receive|mark [KIND]  [@CELLS] [if COND]");
    int64_t arg = -1;
    char *a = dbg_word(&rest);
    uint64_t n;
    if (a != NULL && ((event != DBG_CATCH_PHASE && event != DBG_CATCH_MARK) || dbg_parse_u64(a, &n) != 0 ||
                      n > 0xffffff || dbg_word(&rest) != NULL))
        return dbg_error(d, "catch %s: unexpected '%s'", w, a);
    if (a != NULL)
        arg = (int64_t)n;
    char desc[64];
    snprintf(desc, sizeof desc, "%s%s%s", w, a ? " " : "", a ? a : "");
    dbg_point_t *p = dbg_point_new(d, DBG_CATCH, desc);
    if (p == NULL)
        return dbg_error(d, "out of memory");
    p->cells = cells;
    p->event = (dbg_catch_t)event;
    p->event_arg = arg;
    return dbg_point_done(d, p, 0, cond);
}

/* --- the marks log --- */

void dbg_log_marks(dbg_t *d, uint64_t clock)
{
    if (clock < d->marks_high)
        return; /* a replayed clock: logged the first time */
    d->marks_high = clock + 1;
    for (unsigned i = 0; i < d->ncells; i++) {
        const uint32_t *m;
        unsigned n = emu_array_marks(d->a, dbg_cell_x(d, i), dbg_cell_y(d, i), &m);
        for (unsigned k = 0; k < n; k++) {
            if (d->nmarks == d->marks_cap) {
                size_t cap = d->marks_cap ? 2 * d->marks_cap : 256;
                dbg_mark_t *grown = realloc(d->marks, cap * sizeof *grown);
                if (grown == NULL)
                    return;
                d->marks = grown;
                d->marks_cap = cap;
            }
            d->marks[d->nmarks++] = (dbg_mark_t){clock, i, m[k]};
        }
    }
}

void dbg_info_marks(dbg_t *d, uint64_t n)
{
    uint64_t now = emu_array_clock(d->a);
    size_t end = 0;
    while (end < d->nmarks && d->marks[end].clock < now)
        end++;
    if (end == 0) {
        dbg_printf(d, "no marks before clock %llu (programs raise them by writing control register MARK)\n",
                   (unsigned long long)now);
        return;
    }
    size_t start = end > n ? end - (size_t)n : 0;
    for (size_t i = start; i < end; i++) {
        const dbg_mark_t *m = &d->marks[i];
        unsigned kind = m->value >> 24, data = m->value & 0xffffffu;
        char what[64];
        switch (kind) {
        case EMU_MARK_MSG_SEND: snprintf(what, sizeof what, "send to (%u,%u)", data % d->w, data / d->w % d->h); break;
        case EMU_MARK_MSG_RECEIVE:
            snprintf(what, sizeof what, "receive from (%u,%u)", data % d->w, data / d->w % d->h);
            break;
        case EMU_MARK_PHASE: snprintf(what, sizeof what, "phase %u", data); break;
        default: snprintf(what, sizeof what, "mark %u:0x%06x", kind, data); break;
        }
        dbg_printf(d, "clock %-8llu (%u,%u) %s\n", (unsigned long long)m->clock, dbg_cell_x(d, m->cell),
                   dbg_cell_y(d, m->cell), what);
    }
}
