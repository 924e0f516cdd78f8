/*
 * Snapshots: a copy of everything that changes as the array runs. Each cell contributes its CA state
 * block, its memory, its communication agent (its state block, everything but its wiring, and its queues),
 * the rest of its state (emu_cell_saved_t) and the links it drives. Files hold the same bytes behind a header that
 * names the build's struct sizes, so a snapshot is only ever loaded by the emulator that wrote it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array_internal.h"
#include "cell.h"
#include "err.h"
#include "file.h"
#include "fnv.h"

/* 03: a checksum of everything before it ends the file. 04: a slot's credits and frees are in the slot, as
 * masks and counts (coa_slot_t), not in a list of control messages after the slots. 05: a channel's statistics are
 * in coa_t.lc_stats, not in its coa_lc_t; coa_t's size stayed the same, so only this says so. 06: the posted
 * toggles are in coa_t's wiring, which aligns coa_t to a cache line: the state's padding may move. */
static const char snap_magic[8] = {'I', 'W', 'S', 'N', 'A', 'P', '0', '6'};

/* A cell's state, in three blocks each copied whole: a field added to any of them is in every snapshot with
 * nothing to write here. The agent's wiring (coa_t.w, its last member) is not copied. */
typedef struct cell_snap {
    ca_state_block_t ca;
    coa_t coa; /* up to coa.w */
    emu_cell_saved_t saved;
} cell_snap_t;

static void coa_state_copy(coa_t *to, const coa_t *from)
{
    memcpy(to, from, offsetof(coa_t, w));
}

struct emu_snapshot {
    emu_machine_t machine;
    uint64_t clock, last_progress;
    uint64_t programs;   /* fingerprint of what every cell runs: a snapshot restores only onto the same */
    char deadlock[1024]; /* the report's first kilobyte: the file format keeps this size */
    unsigned ncells;
    size_t slots_per_cell; /* per cell: 4 lines of nslots slots */
    cell_snap_t *cells;
    uint8_t *mem;    /* ncells * mem_bytes */
    uint32_t *qdata; /* ncells * channels * depth */
    uint8_t *qtag;
    coa_slot_t *slots; /* ncells * slots_per_cell */
};

/* FNV-1a over each cell's program (entry, text and data) or its absence: restoring cells' registers and
 * memory under another program would run a made-up state. */
static uint64_t program_fingerprint(const emu_program_t *p)
{
    uint32_t head[4] = {p != NULL, p != NULL ? p->image.entry : 0, p != NULL ? p->image.text_words : 0,
                        p != NULL ? p->image.data_bytes : 0};
    uint64_t h = fnv1a64(FNV64_OFFSET, head, sizeof head);
    if (p != NULL) {
        h = fnv1a64(h, p->image.text, p->image.text_words * sizeof *p->image.text);
        h = fnv1a64(h, p->image.data, p->image.data_bytes);
    }
    return h;
}

static uint64_t programs_fingerprint(const emu_array_t *a)
{
    uint64_t h = FNV64_OFFSET, one = 0;
    const emu_program_t *last = NULL;
    for (unsigned i = 0; i < a->ncells; i++) {
        const emu_program_t *p = a->cells[i].ca.prog;
        if (i == 0 || p != last) /* cells that run the same program (the usual case) hash it once */
            one = program_fingerprint(p);
        last = p;
        h = fnv1a64(h, &one, sizeof one);
    }
    return h;
}

static size_t queue_words(const emu_machine_t *m)
{
    return (size_t)m->agent.channels * m->agent.queue_depth;
}

static emu_snapshot_t *snapshot_alloc(const emu_machine_t *m, unsigned ncells, size_t nslots)
{
    emu_snapshot_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->machine = *m;
    s->ncells = ncells;
    s->slots_per_cell = COA_NUM_DIRS * nslots;
    /* Aligned as coa_t asks (its wiring's cache lines), which calloc does not promise. */
    s->cells = aligned_alloc(_Alignof(cell_snap_t), ncells * sizeof *s->cells);
    if (s->cells != NULL)
        memset(s->cells, 0, ncells * sizeof *s->cells);
    s->mem = malloc((size_t)ncells * m->mem_bytes);
    s->qdata = calloc((size_t)ncells * queue_words(m), sizeof *s->qdata);
    s->qtag = calloc((size_t)ncells * queue_words(m), 1);
    s->slots = calloc((size_t)ncells * s->slots_per_cell, sizeof *s->slots);
    if (!s->cells || !s->mem || !s->qdata || !s->qtag || !s->slots) {
        emu_snapshot_free(s);
        return NULL;
    }
    return s;
}

void emu_snapshot_free(emu_snapshot_t *s)
{
    if (s == NULL)
        return;
    free(s->cells);
    free(s->mem);
    free(s->qdata);
    free(s->qtag);
    free(s->slots);
    free(s);
}

size_t emu_snapshot_bytes(const emu_snapshot_t *s)
{
    return sizeof *s + s->ncells * (sizeof *s->cells + s->machine.mem_bytes + queue_words(&s->machine) * 5 +
                                    s->slots_per_cell * sizeof *s->slots);
}

uint64_t emu_snapshot_clock(const emu_snapshot_t *s)
{
    return s->clock;
}

emu_snapshot_t *emu_snapshot_take(const emu_array_t *a)
{
    const emu_machine_t *m = &a->machine;
    emu_snapshot_t *s = snapshot_alloc(m, a->ncells, a->cells[0].out[0].nslots);
    if (s == NULL)
        return NULL;
    s->clock = a->clock;
    s->programs = programs_fingerprint(a);
    s->last_progress = a->last_progress;
    memcpy(s->deadlock, a->deadlock, sizeof s->deadlock - 1);
    s->deadlock[sizeof s->deadlock - 1] = '\0';
    size_t qw = queue_words(m);
    for (unsigned i = 0; i < a->ncells; i++) {
        const emu_cell_t *c = &a->cells[i];
        cell_snap_t *cs = &s->cells[i];
        cs->ca = c->ca.s;
        coa_state_copy(&cs->coa, &c->coa);
        cs->saved = c->saved;
        memcpy(s->mem + (size_t)i * m->mem_bytes, c->mem, m->mem_bytes);
        memcpy(s->qdata + i * qw, c->coa.w.qdata, qw * sizeof *s->qdata);
        memcpy(s->qtag + i * qw, c->coa.w.qtag, qw);
        for (unsigned d = 0; d < COA_NUM_DIRS; d++)
            for (unsigned k = 0; k < c->out[d].nslots; k++) {
                size_t at = i * s->slots_per_cell + d * c->out[d].nslots + k;
                s->slots[at] = c->out[d].slots[k];
            }
    }
    return s;
}

int emu_snapshot_restore(emu_array_t *a, const emu_snapshot_t *s, char *err, size_t errlen)
{
    const emu_machine_t *m = &a->machine;
    if (!emu_machine_same(m, &s->machine) || s->ncells != a->ncells ||
        s->slots_per_cell != COA_NUM_DIRS * a->cells[0].out[0].nslots)
        return err_set(err, errlen, "the snapshot was taken on a different machine (array, memory, network or timing)");
    if (s->programs != programs_fingerprint(a))
        return err_set(err, errlen, "the snapshot was taken with other programs on the cells");
    /* The file's fingerprint is its own word: a core with no program must not run (it has no bundles to look up). */
    for (unsigned i = 0; i < a->ncells; i++) {
        ca_state_t st = s->cells[i].ca.state;
        if (a->cells[i].ca.prog == NULL && (st == CA_RUNNING || st == CA_WAITING))
            return err_set(err, errlen, "cell (%u,%u) ca.state is %s, the cell has no program", a->cells[i].x,
                           a->cells[i].y, ca_state_name(st));
    }
    a->clock = s->clock;
    a->last_progress = s->last_progress;
    _Static_assert(sizeof a->deadlock >= sizeof s->deadlock, "the live report holds a snapshot's");
    memcpy(a->deadlock, s->deadlock, sizeof s->deadlock);
    a->deadlock_cycle.n = 0; /* a snapshot keeps the report's text, not its steps */
    size_t qw = queue_words(m);
    for (unsigned i = 0; i < a->ncells; i++) {
        emu_cell_t *c = &a->cells[i];
        const cell_snap_t *cs = &s->cells[i];
        c->ca.s = cs->ca;
        c->ca.awake_issue_at = UINT64_MAX; /* a clock the array may come to again */
        coa_state_copy(&c->coa, &cs->coa); /* the wiring (queues, memory, links) stays the live array's */
        c->saved = cs->saved;
        memcpy(c->mem, s->mem + (size_t)i * m->mem_bytes, m->mem_bytes);
        c->ca.mem_clean = false;
        memcpy(c->coa.w.qdata, s->qdata + i * qw, qw * sizeof *s->qdata);
        memcpy(c->coa.w.qtag, s->qtag + i * qw, qw);
        for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
            uint64_t full = 0;
            for (unsigned k = 0; k < c->out[d].nslots; k++) {
                size_t at = i * s->slots_per_cell + d * c->out[d].nslots + k;
                coa_slot_t *slot = &c->out[d].slots[k];
                *slot = s->slots[at];
                if (coa_slot_full(slot))
                    full |= 1ull << k;
            }
            coa_line_reset_books(&c->out[d], full);
        }
    }
    return 0;
}

/* --- files: a header naming the layout, then the arrays as they are in memory --- */

typedef struct snap_header {
    char magic[8];
    uint32_t sizes[6]; /* struct sizes of this build: a snapshot only loads into the build that wrote it */
    emu_machine_t machine;
    uint64_t clock, last_progress, programs;
    uint32_t ncells;
    uint64_t slots_per_cell;
} snap_header_t;

static void header_sizes(uint32_t sizes[6])
{
    sizes[0] = sizeof(cell_snap_t);
    sizes[1] = sizeof(coa_slot_t);
    sizes[2] = sizeof(coa_flit_t);
    sizes[3] = sizeof(emu_machine_t);
    sizes[4] = sizeof(ca_state_block_t);
    sizes[5] = sizeof(coa_t);
}

/* Files are read and written through a running FNV-1a hash of their bytes, which ends the file: a damaged or
 * truncated snapshot is refused instead of restoring made-up state. A file made to pass it is refused by the
 * checks of every field (check_cells). */
typedef struct snap_io {
    FILE *f;
    uint64_t sum;
    int rc;
} snap_io_t;

static void io_write(snap_io_t *io, const void *p, size_t n)
{
    if (io->rc == 0 && fwrite(p, 1, n, io->f) != n)
        io->rc = -1;
    io->sum = fnv1a64(io->sum, p, n);
}

static void io_read(snap_io_t *io, void *p, size_t n)
{
    if (io->rc == 0 && fread(p, 1, n, io->f) != n)
        io->rc = -1;
    io->sum = fnv1a64(io->sum, p, n);
}

int emu_snapshot_save(const emu_snapshot_t *s, const char *path, char *err, size_t errlen)
{
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return -1;
    snap_header_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, snap_magic, sizeof h.magic);
    header_sizes(h.sizes);
    h.machine = s->machine;
    h.clock = s->clock;
    h.programs = s->programs;
    h.last_progress = s->last_progress;
    h.ncells = s->ncells;
    h.slots_per_cell = s->slots_per_cell;
    size_t qw = queue_words(&s->machine) * s->ncells;
    size_t nslots = s->ncells * s->slots_per_cell;
    snap_io_t io = {out.f, FNV64_OFFSET, 0};
    io_write(&io, &h, sizeof h);
    io_write(&io, s->deadlock, sizeof s->deadlock);
    io_write(&io, s->cells, s->ncells * sizeof *s->cells);
    io_write(&io, s->mem, (size_t)s->ncells * s->machine.mem_bytes);
    io_write(&io, s->qdata, qw * sizeof *s->qdata);
    io_write(&io, s->qtag, qw);
    io_write(&io, s->slots, nslots * sizeof *s->slots);
    uint64_t sum = io.sum;
    io_write(&io, &sum, sizeof sum);
    if (io.rc != 0) {
        file_out_abort(&out);
        return err_set(err, errlen, "%s: write failed", path);
    }
    return file_out_commit(&out, err, errlen);
}

/* A file's cells are checked field by field before anything runs on them, as the owner of each block says
 * (ca_state_check, coa_state_check, coa_slot_check, emu_cell_saved_check): the checksum only tells a damaged file
 * from a good one, and a file written to harm passes it. Everything is checked against the snapshot's machine,
 * which emu_snapshot_restore then requires to be the array's. */

/* Prefixes what a block's check wrote with the file, the cell and the block: "p.snap: cell (3,1) coa.". */
static int cell_refused(char *err, size_t errlen, const char *path, const emu_machine_t *m, unsigned i,
                        const char *block, const char *why)
{
    return err_set(err, errlen, "%s: cell (%u,%u) %s%s", path, i % m->width, i / m->width, block, why);
}

/* The slots of the four lines cell i drives: what is in flight arrives at one of the next hop_latency clocks,
 * so the slots of the other clocks are empty (a sender posts into a slot without looking, coa_line_t). */
static int check_lines(const emu_snapshot_t *s, unsigned i, const char *path, char *err, size_t errlen)
{
    const emu_machine_t *m = &s->machine;
    size_t nslots = s->slots_per_cell / COA_NUM_DIRS;
    char why[200];
    for (size_t k = 0; k < s->slots_per_cell; k++) {
        size_t at = i * s->slots_per_cell + k;
        const coa_slot_t *slot = &s->slots[at];
        unsigned d = (unsigned)(k / nslots), n = (unsigned)(k % nslots);
        char block[64];
        snprintf(block, sizeof block, "line %s slot %u ", coa_dir_name((coa_dir_t)d), n);
        if (coa_slot_check(slot, m->agent.channels, why, sizeof why) != 0)
            return cell_refused(err, errlen, path, m, i, block, why);
        uint64_t ahead = (n - s->clock % nslots + nslots) % nslots; /* clocks from now to its clock */
        if (coa_slot_full(slot) && ahead >= m->agent.hop_latency) {
            snprintf(why, sizeof why, "holds a word for %llu clocks on, the hop latency is %u",
                     (unsigned long long)ahead, m->agent.hop_latency);
            return cell_refused(err, errlen, path, m, i, block, why);
        }
    }
    return 0;
}

static int check_cell(const emu_snapshot_t *s, unsigned i, const char *path, char *err, size_t errlen)
{
    const emu_machine_t *m = &s->machine;
    const cell_snap_t *c = &s->cells[i];
    char why[200];
    if (ca_state_check(&c->ca, m->mem_bytes, why, sizeof why) != 0)
        return cell_refused(err, errlen, path, m, i, "ca.", why);
    if (coa_state_check(&c->coa, &m->agent, emu_machine_place(m, i % m->width, i / m->width),
                        s->qtag + i * queue_words(m), why, sizeof why) != 0)
        return cell_refused(err, errlen, path, m, i, "coa.", why);
    if (emu_cell_saved_check(&c->saved, why, sizeof why) != 0)
        return cell_refused(err, errlen, path, m, i, "", why);
    return check_lines(s, i, path, err, errlen);
}

static int check_cells(const emu_snapshot_t *s, const char *path, char *err, size_t errlen)
{
    if (s->slots_per_cell == 0 || s->slots_per_cell % COA_NUM_DIRS != 0)
        return err_set(err, errlen, "%s: slots_per_cell is %zu, not a multiple of %u lines", path, s->slots_per_cell,
                       COA_NUM_DIRS);
    for (unsigned i = 0; i < s->ncells; i++)
        if (check_cell(s, i, path, err, errlen) != 0)
            return -1;
    return 0;
}

emu_snapshot_t *emu_snapshot_load(const char *path, char *err, size_t errlen)
{
    const char *why;
    FILE *f = file_open_read(path, &why);
    if (f == NULL) {
        err_set(err, errlen, "%s: %s", path, why);
        return NULL;
    }
    snap_header_t h;
    uint32_t sizes[6];
    header_sizes(sizes);
    snap_io_t io = {f, FNV64_OFFSET, 0};
    io_read(&io, &h, sizeof h);
    if (io.rc != 0 || memcmp(h.magic, snap_magic, 6) != 0) {
        err_set(err, errlen, "%s: not a snapshot%s", path, io.rc != 0 ? " (shorter than a snapshot's header)" : "");
        fclose(f);
        return NULL;
    }
    if (memcmp(h.magic, snap_magic, sizeof h.magic) != 0 || memcmp(h.sizes, sizes, sizeof sizes) != 0) {
        err_set(err, errlen, "%s: a snapshot of another version or build of the emulator", path);
        fclose(f);
        return NULL;
    }
    /* Every key in the range its row allows, as `--set` would have it: the sizes below are computed from them. */
    char range[200];
    if (emu_machine_in_range(&h.machine, range, sizeof range) != 0) {
        err_set(err, errlen, "%s: the snapshot's machine: %s", path, range);
        fclose(f);
        return NULL;
    }
    if (h.ncells == 0 || h.ncells > EMU_MAX_DIM * EMU_MAX_DIM || h.ncells != h.machine.width * h.machine.height ||
        h.machine.agent.channels > COA_MAX_CHANNELS ||
        h.slots_per_cell > 4 * 128) {
        err_set(err, errlen, "%s: corrupt snapshot (its header does not describe an array)", path);
        fclose(f);
        return NULL;
    }
    /* The header says how long the file must be: checked before allocating what it says, so a damaged header
     * cannot ask for gigabytes. */
    uint64_t qw_all = (uint64_t)h.machine.agent.channels * h.machine.agent.queue_depth * h.ncells,
             slots_all = (uint64_t)h.ncells * h.slots_per_cell;
    uint64_t file_bytes = sizeof h + sizeof((emu_snapshot_t *)0)->deadlock + (uint64_t)h.ncells * sizeof(cell_snap_t) +
                          (uint64_t)h.ncells * h.machine.mem_bytes + qw_all * (sizeof(uint32_t) + 1) +
                          slots_all * sizeof(coa_slot_t) + sizeof(uint64_t);
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size != file_bytes) {
        err_set(err, errlen, "%s: %s", path,
                (uint64_t)st.st_size < file_bytes ? "truncated snapshot"
                                                  : "damaged snapshot (longer than its header says)");
        fclose(f);
        return NULL;
    }
    emu_snapshot_t *s = snapshot_alloc(&h.machine, h.ncells, h.slots_per_cell / COA_NUM_DIRS);
    if (s == NULL) {
        err_set(err, errlen, "%s: out of memory", path);
        fclose(f);
        return NULL;
    }
    s->clock = h.clock;
    s->last_progress = h.last_progress;
    s->programs = h.programs;
    size_t qw = queue_words(&s->machine) * s->ncells;
    size_t nslots = s->ncells * s->slots_per_cell;
    io_read(&io, s->deadlock, sizeof s->deadlock);
    io_read(&io, s->cells, s->ncells * sizeof *s->cells);
    io_read(&io, s->mem, (size_t)s->ncells * s->machine.mem_bytes);
    io_read(&io, s->qdata, qw * sizeof *s->qdata);
    io_read(&io, s->qtag, qw);
    io_read(&io, s->slots, nslots * sizeof *s->slots);
    uint64_t want = io.sum, sum = 0;
    io_read(&io, &sum, sizeof sum);
    bool trailing = io.rc == 0 && fgetc(f) != EOF;
    fclose(f);
    const char *bad = io.rc != 0                ? "truncated snapshot"
                      : sum != want || trailing ? "damaged snapshot (checksum)"
                                                : NULL;
#ifdef IWARP_SNAPSHOT_NO_CHECKSUM
    /* The fuzz harness's build (fuzz/meson.build): its mutations reach the checks below instead of ending at the
     * sum, which no other build skips. */
    if (io.rc == 0 && !trailing)
        bad = NULL;
#endif
    s->deadlock[sizeof s->deadlock - 1] = '\0';
    if (bad != NULL) {
        emu_snapshot_free(s);
        err_set(err, errlen, "%s: %s", path, bad);
        return NULL;
    }
    if (check_cells(s, path, err, errlen) != 0) {
        emu_snapshot_free(s);
        return NULL;
    }
    return s;
}
