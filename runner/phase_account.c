#include "phase_account.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "grow.h"
#include "program.h"

/* Where runtime/conset.s looks for its tables unless the program says otherwise, and the layout it reads
 * (conset/route_tables.h): the phase offsets after a 4-word header, and in a phase record the counts after
 * the forwarding entries. */
enum {
    DEFAULT_TABLES = 0x70000,
    TABLE_MAGIC = 0x54455343,
    TABLE_PHASES = 4,
    TABLE_OFFSETS = 16,
    FWD_BYTES = 16,
    RECORD_PREDICTED = 8, /* after n_fwd and its entries: n_send, n_recv, then the predicted clocks */
    MARK_KIND_SHIFT = 24,
    MARK_DATA = 0xffffff,
};

const char *const phase_milestone_names[PM_COUNT] = {
    "conset_sync", "conset_synced",  "conset_switched", "conset_transfer", "conset_transfer_done",
    "first_sent",  "first_received", "last_sent",       "last_received",
};

typedef struct cell_watch {
    const ca_t *ca;
    unsigned x, y;
    uint32_t label[PM_LABELS];
    uint64_t label_bits; /* bit (pc / 4) % 64 of each label's pc: most new pcs are no label, told by one test */
    uint32_t last_pc;
    int row; /* the switch it is in, -1 before its first */
    bool streaming;
    uint64_t reads, writes; /* its gate words, as last seen */
    uint64_t cr_writes;     /* its control register writes, as last seen: a mark is one */
} cell_watch_t;

static uint64_t label_bit(uint32_t pc)
{
    return 1ull << (pc / 4u % 64u);
}

typedef struct raw_row {
    int phase;
    uint64_t phase_clock; /* the clock and cell of the mark that set it: the last in clock, then cell, order wins */
    unsigned phase_cell;
    uint64_t *at; /* [cell][PM_COUNT], UINT64_MAX until seen */
} raw_row_t;

struct phase_account {
    const emu_array_t *a;
    cell_watch_t *cells; /* the watched ones: those whose program has the labels */
    unsigned ncells, width, height;
    raw_row_t *raw;
    unsigned nraw;
    size_t rawcap;
    phase_row_t *rows; /* computed from raw by phase_account_rows */
    uint64_t *link_weighted;
    unsigned nlink_weighted;
    uint32_t tables; /* where the first watched cell's tables are */
    emu_array_t *watching;     /* the array that logs what its cells do (phase_account_watch); NULL: a hook tells */
    emu_watch_event_t *sorted; /* a cell's events in the order a hook would have seen them */
    unsigned nsorted_cap;
    char error[128]; /* why the account is incomplete (phase_account_error); "" while it is whole */
};

/* The account missed something for want of memory: its rows would be wrong without showing it, so they are
 * refused (phase_account_error). The first failure is told: the ones after may follow from it. */
static void incomplete(phase_account_t *pa, const char *what, const cell_watch_t *c)
{
    if (pa->error[0] != '\0')
        return;
    if (c != NULL)
        snprintf(pa->error, sizeof pa->error, "out of memory %s cell (%u,%u); the account is incomplete", what, c->x,
                 c->y);
    else
        snprintf(pa->error, sizeof pa->error, "out of memory %s; the account is incomplete", what);
}

phase_account_t *phase_account_create(const emu_array_t *a)
{
    unsigned w = emu_array_width(a), h = emu_array_height(a);
    phase_account_t *pa = calloc(1, sizeof *pa);
    if (pa == NULL || (pa->cells = calloc((size_t)w * h, sizeof *pa->cells)) == NULL) {
        free(pa);
        return NULL;
    }
    pa->a = a;
    pa->width = w;
    pa->height = h;
    pa->tables = DEFAULT_TABLES;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const ca_t *ca = emu_array_ca(a, x, y);
            if (ca->prog == NULL)
                continue;
            cell_watch_t *c = &pa->cells[pa->ncells];
            bool all = true;
            c->label_bits = 0; /* the slot may hold a cell that had not every label */
            for (unsigned m = 0; m < PM_LABELS && all; m++) {
                const isa_symbol_t *s = isa_image_symbol(&ca->prog->image, phase_milestone_names[m]);
                all = s != NULL && s->kind == ISA_SYM_TEXT;
                c->label[m] = all ? s->value : 0;
                c->label_bits |= label_bit(c->label[m]);
            }
            if (!all)
                continue;
            if (pa->ncells == 0) {
                const isa_symbol_t *t = isa_image_symbol(&ca->prog->image, "CONSET_TABLES");
                if (t != NULL)
                    pa->tables = t->value;
            }
            c->ca = ca;
            c->x = x;
            c->y = y;
            c->last_pc = ca->s.pc;
            c->row = -1;
            c->reads = ca->s.stats.gate_reads;
            c->writes = ca->s.stats.gate_writes;
            c->cr_writes = ca->s.stats.cr_writes;
            pa->ncells++;
        }
    if (pa->ncells == 0) {
        phase_account_free(pa);
        return NULL;
    }
    return pa;
}

void phase_account_free(phase_account_t *pa)
{
    if (pa == NULL)
        return;
    for (unsigned r = 0; r < pa->nraw; r++)
        free(pa->raw[r].at);
    free(pa->raw);
    free(pa->rows);
    free(pa->cells);
    free(pa->link_weighted);
    free(pa->sorted);
    free(pa);
}

uint32_t phase_account_tables(const phase_account_t *pa)
{
    return pa->tables;
}

int phase_account_set_link_weighted(phase_account_t *pa, const uint64_t *clocks, unsigned nphases)
{
    uint64_t *copy = malloc(nphases * sizeof *copy + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, clocks, nphases * sizeof *copy);
    free(pa->link_weighted);
    pa->link_weighted = copy;
    pa->nlink_weighted = nphases;
    return 0;
}

/* The row of the k-th switch, made when its first cell gets there; NULL when out of memory. */
static raw_row_t *row_at(phase_account_t *pa, unsigned k)
{
    while (pa->nraw <= k) {
        raw_row_t *raw = grow_double(pa->raw, pa->nraw, &pa->rawcap, sizeof *raw, 32, UINT_MAX);
        if (raw == NULL)
            return NULL;
        pa->raw = raw;
        raw_row_t *r = &pa->raw[pa->nraw];
        size_t n = (size_t)pa->ncells * PM_COUNT;
        if ((r->at = malloc(n * sizeof *r->at)) == NULL)
            return NULL;
        for (size_t i = 0; i < n; i++)
            r->at[i] = UINT64_MAX;
        r->phase = -1;
        r->phase_clock = 0;
        r->phase_cell = 0;
        pa->nraw++;
    }
    return &pa->raw[k];
}

static uint64_t *milestones(phase_account_t *pa, unsigned cell)
{
    const cell_watch_t *c = &pa->cells[cell];
    return c->row < 0 ? NULL : &pa->raw[c->row].at[(size_t)cell * PM_COUNT];
}

static void reached(phase_account_t *pa, unsigned cell, phase_milestone_t m, uint64_t by)
{
    cell_watch_t *c = &pa->cells[cell];
    if (m == PM_SYNC) {
        /* Its switches so far tell which row: the k-th switch of every cell is the same barrier. */
        unsigned k = (unsigned)(c->row + 1);
        if (row_at(pa, k) == NULL) {
            incomplete(pa, "for a switch's row, at", c);
            return;
        }
        c->row = (int)k;
        c->streaming = false;
    }
    uint64_t *at = milestones(pa, cell);
    if (at == NULL)
        return;
    if (m == PM_STREAM) {
        c->streaming = true;
        if (at[m] != UINT64_MAX)
            return; /* a second transfer in the same phase goes on streaming */
    }
    if (m == PM_DONE)
        c->streaming = false;
    at[m] = by;
}

/* Cell `cell` wrote (read) gate words from clock `first` to `last` (UINT64_MAX: none), all in one stretch
 * of its streaming or of its not streaming. */
static void gates_moved(phase_account_t *pa, unsigned cell, bool write, uint64_t first, uint64_t last)
{
    uint64_t *at = pa->cells[cell].streaming ? milestones(pa, cell) : NULL;
    if (at == NULL || first == UINT64_MAX)
        return;
    phase_milestone_t f = write ? PM_FIRST_SENT : PM_FIRST_RECEIVED, l = write ? PM_LAST_SENT : PM_LAST_RECEIVED;
    if (at[f] == UINT64_MAX)
        at[f] = first + 1;
    at[l] = last + 1;
}

static void pc_at(phase_account_t *pa, unsigned cell, uint32_t pc, uint64_t clock)
{
    cell_watch_t *c = &pa->cells[cell];
    for (unsigned m = 0; m < PM_LABELS && (c->label_bits & label_bit(pc)) != 0; m++)
        if (pc == c->label[m])
            reached(pa, cell, (phase_milestone_t)m, clock + 1);
}

static void marked(phase_account_t *pa, unsigned cell, uint32_t mark, uint64_t clock)
{
    const cell_watch_t *c = &pa->cells[cell];
    if (c->row < 0 || mark >> MARK_KIND_SHIFT != EMU_MARK_PHASE)
        return;
    raw_row_t *r = &pa->raw[c->row];
    if (r->phase >= 0 && (clock < r->phase_clock || (clock == r->phase_clock && cell < r->phase_cell)))
        return;
    r->phase = (int)(mark & MARK_DATA);
    r->phase_clock = clock;
    r->phase_cell = cell;
}

void phase_account_observe(phase_account_t *pa, uint64_t clock)
{
    for (unsigned i = 0; i < pa->ncells; i++) {
        cell_watch_t *c = &pa->cells[i];
        const ca_t *ca = c->ca;
        if (ca->s.stats.gate_writes != c->writes || ca->s.stats.gate_reads != c->reads) {
            if (ca->s.stats.gate_writes != c->writes)
                gates_moved(pa, i, true, clock, clock);
            if (ca->s.stats.gate_reads != c->reads)
                gates_moved(pa, i, false, clock, clock);
            c->writes = ca->s.stats.gate_writes;
            c->reads = ca->s.stats.gate_reads;
        }
        if (ca->s.pc != c->last_pc) {
            c->last_pc = ca->s.pc;
            pc_at(pa, i, ca->s.pc, clock);
        }
        /* Marks are written to a control register: a clock with none written has none to look for. */
        if (ca->s.stats.cr_writes == c->cr_writes)
            continue;
        c->cr_writes = ca->s.stats.cr_writes;
        const uint32_t *marks;
        unsigned n = emu_array_marks(pa->a, c->x, c->y, &marks);
        for (unsigned k = 0; k < n; k++)
            marked(pa, i, marks[k], clock);
    }
}

bool phase_account_hook(void *user, emu_array_t *a, uint64_t clock)
{
    (void)a;
    phase_account_observe(user, clock);
    return false;
}

int phase_account_watch(phase_account_t *pa, emu_array_t *a)
{
    unsigned i = 0;
    for (; i < pa->ncells; i++)
        if (emu_array_watch(a, pa->cells[i].x, pa->cells[i].y, pa->cells[i].label, PM_LABELS) != 0)
            break;
    if (i == pa->ncells) {
        pa->watching = a;
        return 0;
    }
    while (i-- > 0)
        emu_array_watch(a, pa->cells[i].x, pa->cells[i].y, NULL, 0);
    return -1;
}

/* Where an event goes among a cell's others of the same clock: as a hook after that clock looked, the gate
 * words first (their bundle's own arrival ends their stretch), then the pc, then the marks. */
static uint64_t event_clock(const emu_watch_event_t *e)
{
    if (e->kind != EMU_WATCH_GATES)
        return e->clock;
    uint64_t r = e->last_read, w = e->last_write;
    return r == UINT64_MAX ? w : w == UINT64_MAX ? r : r > w ? r : w;
}

static bool event_before(const emu_watch_event_t *a, const emu_watch_event_t *b)
{
    uint64_t ca = event_clock(a), cb = event_clock(b);
    return ca < cb || (ca == cb && a->kind < b->kind);
}
_Static_assert(EMU_WATCH_GATES < EMU_WATCH_ARRIVE && EMU_WATCH_ARRIVE < EMU_WATCH_MARK,
               "a clock's events in a hook's order");

/* A cell's events in a hook's order: the cell logs its mark before its arrival, a few apart at most (insertion). */
static const emu_watch_event_t *hook_order(phase_account_t *pa, const cell_watch_t *c, const emu_watch_event_t *ev,
                                           unsigned n)
{
    if (n > pa->nsorted_cap) {
        emu_watch_event_t *grown = realloc(pa->sorted, n * sizeof *grown);
        if (grown == NULL) {
            /* The order logged differs from a hook's only where a mark came with an arrival, but may differ. */
            incomplete(pa, "while ordering the events of", c);
            return ev;
        }
        pa->sorted = grown;
        pa->nsorted_cap = n;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned j = i;
        for (; j > 0 && event_before(&ev[i], &pa->sorted[j - 1]); j--)
            pa->sorted[j] = pa->sorted[j - 1];
        pa->sorted[j] = ev[i];
    }
    return pa->sorted;
}

/* What the cells logged since the last look, cell by cell: only the phase a row's marks give is shared, and
 * marked() keeps the one a hook would have seen last. */
static void take_events(phase_account_t *pa)
{
    for (unsigned i = 0; i < pa->ncells; i++) {
        const emu_watch_event_t *logged;
        unsigned n = emu_array_watch_take(pa->watching, pa->cells[i].x, pa->cells[i].y, &logged);
        if (emu_array_watch_lost(pa->watching, pa->cells[i].x, pa->cells[i].y) != 0)
            incomplete(pa, "while logging", &pa->cells[i]);
        const emu_watch_event_t *ev = hook_order(pa, &pa->cells[i], logged, n);
        for (unsigned k = 0; k < n; k++) {
            const emu_watch_event_t *e = &ev[k];
            switch (e->kind) {
            case EMU_WATCH_GATES:
                gates_moved(pa, i, true, e->first_write, e->last_write);
                gates_moved(pa, i, false, e->first_read, e->last_read);
                break;
            case EMU_WATCH_ARRIVE: reached(pa, i, (phase_milestone_t)e->pc, e->clock + 1); break;
            case EMU_WATCH_MARK: marked(pa, i, e->mark, e->clock); break;
            }
        }
    }
}

/* The AS length the tables give phase p (every cell's record holds it), 0 when they do not. */
static uint64_t predicted(const phase_account_t *pa, int p)
{
    const ca_t *ca = pa->cells[0].ca;
    uint32_t magic, phases, offset, nfwd, clocks;
    if (p < 0 || ca_mem_read(ca, pa->tables, &magic, 4) != 0 || magic != TABLE_MAGIC ||
        ca_mem_read(ca, pa->tables + TABLE_PHASES, &phases, 4) != 0 || (uint32_t)p >= phases ||
        ca_mem_read(ca, pa->tables + TABLE_OFFSETS + 4 * (uint32_t)p, &offset, 4) != 0 ||
        ca_mem_read(ca, pa->tables + offset, &nfwd, 4) != 0 ||
        ca_mem_read(ca, pa->tables + offset + 4 + nfwd * FWD_BYTES + RECORD_PREDICTED, &clocks, 4) != 0)
        return 0;
    return clocks;
}

static uint64_t later(uint64_t a, uint64_t b)
{
    return a == UINT64_MAX ? b : b == UINT64_MAX ? a : a > b ? a : b;
}

/* The latest (or earliest) of milestone m over the cells; UINT64_MAX when a cell has not got there (latest)
 * or none has (earliest). */
static uint64_t over_cells(const phase_account_t *pa, const raw_row_t *r, phase_milestone_t m, bool latest)
{
    uint64_t v = UINT64_MAX;
    for (unsigned i = 0; i < pa->ncells; i++) {
        uint64_t t = r->at[(size_t)i * PM_COUNT + m];
        if (latest && t == UINT64_MAX && m <= PM_DONE && m != PM_STREAM)
            return UINT64_MAX; /* every cell passes these: not all have yet */
        if (t != UINT64_MAX && (v == UINT64_MAX || (latest ? t > v : t < v)))
            v = t;
    }
    return v;
}

static void fill_row(const phase_account_t *pa, unsigned k, uint64_t start, phase_row_t *row)
{
    const raw_row_t *r = &pa->raw[k];
    memset(row, 0, sizeof *row);
    row->switch_index = k;
    row->phase = r->phase;
    row->barrier_in = over_cells(pa, r, PM_SYNC, true);
    row->barrier_out = over_cells(pa, r, PM_SYNCED, true);
    row->loaded = over_cells(pa, r, PM_SWITCHED, true);
    row->stream_start = over_cells(pa, r, PM_STREAM, false);
    row->first_sent = over_cells(pa, r, PM_FIRST_SENT, false);
    row->first_received = over_cells(pa, r, PM_FIRST_RECEIVED, false);
    row->last_sent = over_cells(pa, r, PM_LAST_SENT, true);
    row->last_received = over_cells(pa, r, PM_LAST_RECEIVED, true);
    row->end = over_cells(pa, r, PM_DONE, true);
    row->complete = row->end != UINT64_MAX;
    row->start = start == UINT64_MAX ? row->barrier_in : start;
    row->predicted = predicted(pa, r->phase);
    if (r->phase >= 0 && (unsigned)r->phase < pa->nlink_weighted)
        row->link_weighted = pa->link_weighted[r->phase];
    if (!row->complete)
        return;
    /* Each part from where the one before ended, so that they add up to the total. */
    uint64_t in = later(row->barrier_in, row->start), out = later(row->barrier_out, in);
    uint64_t loaded = later(row->loaded, out), first = later(row->first_received, loaded);
    uint64_t sent = later(row->last_sent, first), end = later(row->end, sent);
    row->other = in - row->start;
    row->sync = out - in;
    row->load = loaded - out;
    row->first = first - loaded;
    row->transfer = sent - first;
    row->drain = end - sent;
    row->total = end - row->start;
    if (row->stream_start != UINT64_MAX && row->first_received != UINT64_MAX)
        row->latency = row->first_received - row->stream_start;
    unsigned slowest = 0;
    for (unsigned i = 1; i < pa->ncells; i++)
        if (r->at[(size_t)i * PM_COUNT + PM_DONE] > r->at[(size_t)slowest * PM_COUNT + PM_DONE])
            slowest = i;
    const uint64_t *at = &r->at[(size_t)slowest * PM_COUNT];
    row->slowest_x = pa->cells[slowest].x;
    row->slowest_y = pa->cells[slowest].y;
    row->slowest_clocks = at[PM_DONE] - at[PM_SYNCED];
}

unsigned phase_account_rows(phase_account_t *pa, const phase_row_t **rows)
{
    if (pa->watching != NULL)
        take_events(pa);
    phase_row_t *grown = realloc(pa->rows, (pa->nraw + 1) * sizeof *grown);
    if (grown == NULL) {
        incomplete(pa, "for its rows", NULL);
        *rows = pa->rows;
        return 0;
    }
    pa->rows = grown;
    uint64_t start = UINT64_MAX;
    for (unsigned k = 0; k < pa->nraw; k++) {
        fill_row(pa, k, start, &pa->rows[k]);
        start = pa->rows[k].end;
    }
    *rows = pa->rows;
    return pa->nraw;
}

const char *phase_account_error(const phase_account_t *pa)
{
    return pa->error[0] != '\0' ? pa->error : NULL;
}
