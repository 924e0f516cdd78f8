/* Inspecting a cell: selection, registers, memory, disassembly with source lines, expressions, statistics,
 * the state hash and `info`. */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "file.h"
#include "phase_report.h"

int dbg_cmd_cell(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    if (w != NULL) {
        if (dbg_word(&args) != NULL)
            return dbg_error(d, "usage: cell [X,Y]");
        int c = dbg_parse_cell(d, w);
        if (c < 0)
            return -1;
        d->sel = (unsigned)c;
    }
    dbg_print_where(d, d->sel);
    return 0;
}

int dbg_cmd_regs(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    char *w = dbg_word(&args);
    bool all = w != NULL && strcmp(w, "all") == 0;
    if ((w != NULL && !all) || dbg_word(&args) != NULL)
        return dbg_error(d, "usage: regs [X,Y] [all]");
    const ca_t *ca = dbg_ca(d, cell);
    char where[160];
    dbg_addr_text(d, cell, ca->s.pc, where, sizeof where);
    dbg_printf(d, "(%u,%u) %s, pc %s, %llu instructions at clock %llu\n", dbg_cell_x(d, cell), dbg_cell_y(d, cell),
               dbg_state_text(ca), where, (unsigned long long)ca->s.stats.bundles,
               (unsigned long long)emu_array_clock(d->a));
    unsigned col = 0;
    dbg_str_t line = {NULL, 0, 0};
    /* ra, sp and the arguments always; other registers when they are not zero (all of them with `all`). */
    for (unsigned r = 1; r < ISA_NUM_REGS; r++) {
        uint32_t v = ca_reg(ca, r);
        if (!all && ((r > ISA_REG_A0 + 7 && v == 0) || isa_reg_is_gate(r)))
            continue;
        char buf[8];
        dbg_str_printf(&line, "%-4s 0x%08x   ", isa_reg_alias_name(r, buf), v);
        if (++col % 4 == 0) {
            dbg_print_line(d, line.s);
            dbg_str_clear(&line);
        }
    }
    if (col % 4 != 0)
        dbg_print_line(d, line.s);
    dbg_str_free(&line);
    return 0;
}

int dbg_cmd_mem(dbg_t *d, char *args)
{
    unsigned cell;
    if (dbg_cell_arg(d, &args, &cell) != 0)
        return -1;
    char *text = dbg_trim(args);
    if (*text == '\0')
        return dbg_error(d, "usage: mem [X,Y] ADDRESS [WORDS]");
    /* The count is the last word when there are two or more: "mem buffer+16 8". */
    uint64_t n = 16;
    char *space = strrchr(text, ' ');
    if (space != NULL && dbg_parse_u64(space + 1, &n) == 0)
        *space = '\0';
    else
        n = 16;
    if (n == 0 || n > 4096)
        return dbg_error(d, "mem shows 1..4096 words");
    int64_t addr;
    if (dbg_eval_text(d, text, cell, &addr) != 0)
        return -1;
    const ca_t *ca = dbg_ca(d, cell);
    uint32_t a = (uint32_t)addr & ~3u;
    if ((uint64_t)a + 4 * n > ca->mem_bytes)
        return dbg_error(d, "0x%x..0x%llx is not inside the memory of (%u,%u) (0..0x%x)", a,
                         (unsigned long long)a + 4 * n - 1, dbg_cell_x(d, cell), dbg_cell_y(d, cell),
                         ca->mem_bytes - 1);
    for (uint64_t i = 0; i < n; i++, a += 4) {
        uint32_t w;
        ca_mem_read(ca, a, &w, 4);
        if (i % 4 == 0) {
            char where[160];
            dbg_addr_text(d, cell, a, where, sizeof where);
            dbg_printf(d, "%-24s", where);
        }
        dbg_printf(d, " 0x%08x%s", w, i % 4 == 3 || i + 1 == n ? "\n" : "");
    }
    return 0;
}

void dbg_source_free(dbg_source_t *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->lines[i]);
    free(c->lines);
    free(c->path);
    memset(c, 0, sizeof *c);
}

const char *dbg_source_line(dbg_source_t *c, const char *path, unsigned line)
{
    if (c->path == NULL || strcmp(c->path, path) != 0) {
        dbg_source_free(c);
        c->path = strdup(path);
        uint8_t *text;
        size_t len;
        char err[512];
        /* A file that cannot be read lists no lines: the listing says where without them. */
        if (file_read_max(path, FILE_MAX_TEXT, &text, &len, err, sizeof err) == 0 && text != NULL) {
            for (char *at = (char *)text, *end = at + len; at < end;) {
                char *nl = memchr(at, '\n', (size_t)(end - at));
                size_t n = (size_t)((nl != NULL ? nl : end) - at);
                char **grown = realloc(c->lines, sizeof *grown * (c->n + 1));
                if (grown == NULL)
                    break;
                c->lines = grown;
                c->lines[c->n] = strndup(at, n > 0 && at[n - 1] == '\r' ? n - 1 : n);
                if (c->lines[c->n] == NULL)
                    break;
                c->n++;
                at += n + 1;
            }
            free(text);
        }
    }
    return line >= 1 && line <= c->n ? c->lines[line - 1] : NULL;
}

static bool has_break(const dbg_t *d, unsigned cell, uint32_t addr)
{
    for (unsigned i = 0; i < d->npoints; i++) {
        const dbg_point_t *p = d->points[i];
        if (p->enabled && p->kind == DBG_BREAK && p->addr[cell] == addr)
            return true;
    }
    return false;
}

const emu_program_t *dbg_cell_program(dbg_t *d, char **args, unsigned *cell)
{
    if (dbg_cell_arg(d, args, cell) != 0)
        return NULL;
    const emu_program_t *p = dbg_ca(d, *cell)->prog;
    if (p == NULL || p->nbundles == 0) {
        dbg_error(d, "(%u,%u) runs no program", dbg_cell_x(d, *cell), dbg_cell_y(d, *cell));
        return NULL;
    }
    return p;
}

int dbg_cmd_dis(dbg_t *d, char *args)
{
    unsigned cell;
    const emu_program_t *p = dbg_cell_program(d, &args, &cell);
    if (p == NULL)
        return -1;
    const ca_t *ca = dbg_ca(d, cell);
    char *text = dbg_trim(args);
    uint64_t n = 10;
    char *space = strrchr(text, ' ');
    if (space != NULL && dbg_parse_u64(space + 1, &n) == 0)
        *space = '\0';
    else
        n = 10;
    text = dbg_trim(text);
    int64_t first;
    if (*text == '\0') {
        /* Around the pc: a few instructions before it, more after. */
        const emu_bundle_t *b = emu_program_bundle(p, ca->s.pc);
        first = b != NULL ? b - p->bundles : 0;
        first = first >= 3 ? first - 3 : 0;
    } else {
        char err[256];
        uint32_t addr = dbg_resolve_code(d, text, cell, err, sizeof err);
        if (addr == DBG_NO_ADDR)
            return dbg_error(d, "%s", err);
        first = emu_program_bundle(p, addr) - p->bundles;
    }
    dbg_source_t cache = {NULL, NULL, 0};
    const isa_line_t *shown = NULL;
    for (uint64_t k = 0; k < n && first + (int64_t)k < (int64_t)p->nbundles; k++) {
        const emu_bundle_t *b = &p->bundles[first + (int64_t)k];
        const isa_line_t *l = isa_image_line(&p->image, b->pc);
        if (l != NULL && l->addr == b->pc && l->file < p->image.nfiles &&
            (shown == NULL || shown->line != l->line || shown->file != l->file)) {
            const char *src = dbg_source_line(&cache, p->image.files[l->file], l->line);
            char where[96];
            dbg_line_text(d, cell, b->pc, where, sizeof where);
            dbg_printf(d, "%18s  %s\n", where, src ? src : "");
            shown = l;
        }
        char where[160], ins[256];
        dbg_addr_text(d, cell, b->pc, where, sizeof where);
        dbg_bundle_text(d, cell, b->pc, ins, sizeof ins);
        const char *mark = b->pc == ca->s.pc && !ca_done(ca) ? "=>" : has_break(d, cell, b->pc) ? " *" : "  ";
        dbg_printf(d, "%s %-24s %s\n", mark, where, ins);
    }
    dbg_source_free(&cache);
    return 0;
}

/* print/FMT as gdb's: one value in one format. Words (what registers and memory hold) print as 32 bits. */
static int print_format(dbg_t *d, char fmt, int64_t v)
{
    bool word = v >= -2147483648LL && v <= 0xffffffffLL;
    uint64_t u = word ? (uint32_t)v : (uint64_t)v;
    switch (fmt) {
    case 'x': dbg_printf(d, "0x%llx\n", (unsigned long long)u); return 0;
    case 'o': dbg_printf(d, "0%llo\n", (unsigned long long)u); return 0;
    case 'd': dbg_printf(d, "%lld\n", (long long)(word ? (int64_t)(int32_t)(uint32_t)v : v)); return 0;
    case 'u': dbg_printf(d, "%llu\n", (unsigned long long)u); return 0;
    case 't': {
        char bits[65];
        int n = 0;
        for (int b = 63; b >= 0; b--)
            if (n > 0 || ((u >> b) & 1u) || b == 0)
                bits[n++] = (char)('0' + ((u >> b) & 1u));
        bits[n] = '\0';
        dbg_printf(d, "%s\n", bits);
        return 0;
    }
    case 'c':
        if (u < 0x20 || u > 0x7e)
            dbg_printf(d, "%llu '\\x%llx'\n", (unsigned long long)u, (unsigned long long)u);
        else
            dbg_printf(d, "%llu '%c'\n", (unsigned long long)u, (char)u);
        return 0;
    case 'a': {
        char where[160];
        dbg_addr_text(d, d->sel, (uint32_t)u, where, sizeof where);
        dbg_printf(d, "%s\n", where);
        return 0;
    }
    default: return dbg_error(d, "print/%c: formats are x (hex), d, u, o, t (binary), c (character), a (address)", fmt);
    }
}

int dbg_cmd_print(dbg_t *d, char *args)
{
    char *text = dbg_trim(args);
    char fmt = 0;
    if (*text == '/') { /* p/x EXPR: the command split the format off its name (dbg_execute) */
        char *f = text + 1;
        text = f + strcspn(f, " \t");
        if (text - f != 1)
            return dbg_error(d, "usage: print/FMT EXPRESSION  (FMT one letter: x d u o t c a)");
        fmt = *f;
        text = dbg_trim(text);
    }
    if (*text == '\0')
        return dbg_error(d, "usage: print[/FMT] EXPRESSION  (help print for the names it knows)");
    int64_t v;
    if (dbg_eval_text(d, text, d->sel, &v) != 0)
        return -1;
    if (fmt != 0)
        return print_format(d, fmt, v);
    char sym[160] = "";
    const emu_program_t *p = dbg_ca(d, d->sel)->prog;
    if (p != NULL && v >= p->text_base && v < p->text_end) {
        char where[160];
        dbg_addr_text(d, d->sel, (uint32_t)v, where, sizeof where);
        const char *lt = strchr(where, '<');
        if (lt != NULL)
            snprintf(sym, sizeof sym, " %s", lt);
    }
    if (v >= 0 && v <= 9)
        dbg_printf(d, "%lld%s\n", (long long)v, sym);
    else if (v >= -2147483648LL && v <= 0xffffffffLL)
        dbg_printf(d, "%lld (0x%x)%s\n", (long long)v, (uint32_t)v, sym);
    else
        dbg_printf(d, "%lld (0x%llx)\n", (long long)v, (unsigned long long)v);
    return 0;
}

static void ca_stats_lines(dbg_t *d, const ca_stats_t *s)
{
    dbg_printf(d,
               "instructions %llu (%llu operations), busy %llu clocks; stalled %llu on bypasses, %llu on empty input "
               "gates, %llu on full output gates, %llu in wfe; %llu events taken\n",
               (unsigned long long)s->bundles, (unsigned long long)s->ops, (unsigned long long)s->busy_clocks,
               (unsigned long long)s->stall_clocks[CA_STALL_BYPASS],
               (unsigned long long)s->stall_clocks[CA_STALL_GATE_IN_EMPTY],
               (unsigned long long)s->stall_clocks[CA_STALL_GATE_OUT_FULL],
               (unsigned long long)s->stall_clocks[CA_STALL_WFE], (unsigned long long)s->events);
    dbg_printf(d,
               "memory %llu reads, %llu writes; gates %llu reads, %llu writes; control registers %llu reads, %llu "
               "writes; %llu branches taken\n",
               (unsigned long long)s->mem_reads, (unsigned long long)s->mem_writes, (unsigned long long)s->gate_reads,
               (unsigned long long)s->gate_writes, (unsigned long long)s->cr_reads, (unsigned long long)s->cr_writes,
               (unsigned long long)s->branches_taken);
}

static void cell_stats(dbg_t *d, unsigned cell)
{
    const ca_t *ca = dbg_ca(d, cell);
    const coa_t *c = dbg_coa(d, cell);
    uint64_t now = emu_array_clock(d->a);
    dbg_printf(d, "(%u,%u) %s at clock %llu\n", dbg_cell_x(d, cell), dbg_cell_y(d, cell), dbg_state_text(ca),
               (unsigned long long)now);
    ca_stats_lines(d, &ca->s.stats);
    for (unsigned dir = 0; dir < COA_NUM_DIRS; dir++)
        if (c->link_stats[dir].words > 0)
            dbg_printf(d, "link %s: %llu words, busy %llu clocks\n", coa_dir_name((coa_dir_t)dir),
                       (unsigned long long)c->link_stats[dir].words,
                       (unsigned long long)c->link_stats[dir].busy_clocks);
    bool header = false;
    for (unsigned lc = 0; lc < d->nchan; lc++) {
        const coa_lc_stats_t *s = &c->lc_stats[lc];
        if (s->words_in == 0 && s->pathways == 0)
            continue;
        if (!header) {
            dbg_printf(d, "%2s %5s %8s %8s %7s %8s %8s %9s %8s %8s\n", "lc", "paths", "in", "out", "max", "no_data",
                       "no_space", "lost_turn", "no_chan", "receiver");
            header = true;
        }
        dbg_printf(d, "%2u %5llu %8llu %8llu %7u %8llu %8llu %9llu %8llu %8llu\n", lc, (unsigned long long)s->pathways,
                   (unsigned long long)s->words_in, (unsigned long long)s->words_out, s->occupancy_max,
                   (unsigned long long)s->wait_clocks[COA_WAIT_NO_DATA],
                   (unsigned long long)s->wait_clocks[COA_WAIT_NO_SPACE],
                   (unsigned long long)s->wait_clocks[COA_WAIT_LOST_TURN],
                   (unsigned long long)s->wait_clocks[COA_WAIT_NO_CHANNEL],
                   (unsigned long long)s->wait_clocks[COA_WAIT_RECEIVER]);
    }
}

int dbg_cmd_stats(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    if (w != NULL) {
        int c = dbg_parse_cell(d, w);
        if (c < 0)
            return -1;
        cell_stats(d, (unsigned)c);
        return 0;
    }
    unsigned count[CA_FAULTED + 1] = {0};
    ca_stats_t sum;
    memset(&sum, 0, sizeof sum);
    uint64_t words = 0, busy = 0, max_busy = 0;
    unsigned busiest = 0, busiest_dir = 0;
    for (unsigned i = 0; i < d->ncells; i++) {
        const ca_t *ca = dbg_ca(d, i);
        const ca_stats_t *s = &ca->s.stats;
        count[ca->s.state]++;
        sum.bundles += s->bundles;
        sum.ops += s->ops;
        sum.busy_clocks += s->busy_clocks;
        for (unsigned k = 0; k < CA_STALL_COUNT; k++)
            sum.stall_clocks[k] += s->stall_clocks[k];
        sum.mem_reads += s->mem_reads;
        sum.mem_writes += s->mem_writes;
        sum.gate_reads += s->gate_reads;
        sum.gate_writes += s->gate_writes;
        sum.cr_reads += s->cr_reads;
        sum.cr_writes += s->cr_writes;
        sum.branches_taken += s->branches_taken;
        sum.events += s->events;
        const coa_t *c = dbg_coa(d, i);
        for (unsigned dir = 0; dir < COA_NUM_DIRS; dir++) {
            words += c->link_stats[dir].words;
            busy += c->link_stats[dir].busy_clocks;
            if (c->link_stats[dir].busy_clocks > max_busy) {
                max_busy = c->link_stats[dir].busy_clocks;
                busiest = i;
                busiest_dir = dir;
            }
        }
    }
    uint64_t now = emu_array_clock(d->a);
    dbg_printf(d,
               "%ux%u array at clock %llu (%s): %u running, %u waiting, %u halted, %u faulted, %u without a program\n",
               d->w, d->h, (unsigned long long)now, d->ended ? emu_run_status_name(d->status) : "stopped",
               count[CA_RUNNING], count[CA_WAITING], count[CA_HALTED], count[CA_FAULTED], count[CA_IDLE]);
    ca_stats_lines(d, &sum);
    if (words > 0)
        dbg_printf(d, "links: %llu words, mean utilization %.1f%%, busiest (%u,%u) %s at %.1f%%\n",
                   (unsigned long long)words, now ? 100.0 * (double)busy / (4.0 * d->ncells * (double)now) : 0.0,
                   dbg_cell_x(d, busiest), dbg_cell_y(d, busiest), coa_dir_name((coa_dir_t)busiest_dir),
                   now ? 100.0 * (double)max_busy / (double)now : 0.0);
    return 0;
}

int dbg_cmd_hash(dbg_t *d, char *args)
{
    if (*dbg_trim(args) != '\0')
        return dbg_error(d, "usage: hash");
    uint64_t h;
    if (dbg_settled_hash(d, &h) != 0)
        return -1;
    dbg_printf(d, "clock %llu hash %016llx\n", (unsigned long long)emu_array_clock(d->a), (unsigned long long)h);
    return 0;
}

static void info_program(dbg_t *d)
{
    dbg_printf(d, "%s on a %ux%u array, clock %llu, %s\n", d->program_name, d->w, d->h,
               (unsigned long long)emu_array_clock(d->a), d->ended ? emu_run_status_name(d->status) : "not ended");
    /* Each program once, with the cells that run it. */
    for (unsigned i = 0; i < d->ncells; i++) {
        const emu_program_t *p = dbg_ca(d, i)->prog;
        bool seen = false;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = dbg_ca(d, j)->prog == p;
        if (p == NULL || seen)
            continue;
        dbg_cells_t cells;
        memset(&cells, 0, sizeof cells);
        for (unsigned j = i; j < d->ncells; j++)
            if (dbg_ca(d, j)->prog == p)
                dbg_cells_add(&cells, j);
        char text[64], entry[160];
        dbg_cells_text(d, &cells, text, sizeof text);
        dbg_addr_text(d, i, p->image.entry, entry, sizeof entry);
        const char *file = p->image.nfiles > 0 ? p->image.files[0] : "(image)";
        const char *slash = strrchr(file, '/');
        dbg_printf(d, "  %s on %s: %u instructions, entry %s, %zu symbols\n", slash ? slash + 1 : file, text,
                   p->nbundles, entry, p->image.nsyms);
    }
}

/* The per-phase account of the clocks run so far (the first time each ran: after going back in time it still
 * holds what came later). */
static int info_phases(dbg_t *d, char *args)
{
    (void)args;
    if (d->phases == NULL) {
        dbg_printf(d, "no ConSet phases: no cell's program has runtime/conset.s's labels\n");
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return dbg_error(d, "out of memory");
    phase_report_text(d->phases, f);
    fclose(f);
    dbg_printf(d, "%s", text);
    free(text);
    return 0;
}

static int info_marks(dbg_t *d, char *args)
{
    uint64_t count = 20;
    char *c = dbg_word(&args);
    if (c != NULL && dbg_parse_u64(c, &count) != 0)
        return dbg_error(d, "usage: info marks [N]");
    dbg_info_marks(d, count);
    return 0;
}

/* The topics of info, in the order a word is tried against them: a prefix of at least `shortest` letters. The
 * command, its usage message and its completion read this one list. */
static const struct info_topic {
    const char *name;
    unsigned shortest;
    const char *args;
    void (*list)(dbg_t *d); /* a topic that takes no arguments */
    dbg_handler_t show;     /* one that does, or may fail */
} topics[] = {
    {"breakpoints", 1, "", dbg_info_points, NULL},  {"watchpoints", 1, "", dbg_info_points, NULL},
    {"catch", 1, "", dbg_info_catch, NULL},         {"snapshots", 1, "", dbg_info_snapshots, NULL},
    {"marks", 2, " [N]", NULL, info_marks},         {"program", 1, "", info_program, NULL},
    {"frame", 1, "", dbg_info_frame, NULL},         {"phases", 2, "", NULL, info_phases},
    {"registers", 1, " [X,Y]", NULL, dbg_cmd_regs}, {"settings", 2, "", dbg_info_settings, NULL},
};
enum { NUM_TOPICS = sizeof topics / sizeof topics[0] };

static int topics_error(dbg_t *d, const char *what)
{
    dbg_str_t list = {NULL, 0, 0};
    for (size_t i = 0; i < NUM_TOPICS; i++)
        dbg_str_printf(&list, "%s%s%s", i ? ", " : "", topics[i].name, topics[i].args);
    int rc = dbg_error(d, "%s%s", what, list.s);
    dbg_str_free(&list);
    return rc;
}

int dbg_cmd_info(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    if (w == NULL)
        return topics_error(d, "usage: info TOPIC, one of ");
    size_t n = strlen(w);
    for (size_t i = 0; i < NUM_TOPICS; i++)
        if (n >= topics[i].shortest && strncmp(w, topics[i].name, n) == 0) {
            if (topics[i].show != NULL)
                return topics[i].show(d, args);
            topics[i].list(d);
            return 0;
        }
    char what[160];
    snprintf(what, sizeof what, "info: unknown topic '%s'; topics: ", w);
    return topics_error(d, what);
}

void dbg_complete_info(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)d;
    (void)line;
    for (size_t i = 0; i < NUM_TOPICS; i++)
        dbg_words_add(words, text, topics[i].name);
}
