/* The recorder: an after_clock hook that writes what changed in the view model each clock (docs/trace.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "file.h"
#include "trace.h"

struct view_recorder {
    emu_array_t *a;
    file_out_t out;     /* a recording to a file appears under its name once complete (file.h) */
    FILE *file;         /* out.f, or NULL when recording into memory */
    view_bytes_t group; /* to a file: the records of the frame being built (flush_frame) */
    unsigned keys_in_frame;
    ZSTD_CCtx *zc;
    view_bytes_t *mem;
    view_bytes_t pay; /* the payload of the record being built */
    view_model_t m;
    uint64_t *sent; /* every slot as the records so far leave it: deltas are written against it */
    view_changes_t ch;
    uint64_t next_key;
    bool write_failed;
    int write_errno;
};

/* Writes the record in r->pay with its tag and length. */
static void emit(view_recorder_t *r, uint8_t tag)
{
    view_bytes_t head = {0};
    uint8_t storage[16];
    /* The tag and length go in a small stack buffer; only the payload lives on the heap. */
    head.data = storage;
    head.cap = sizeof storage;
    view_bytes_put(&head, &tag, 1);
    view_bytes_varint(&head, r->pay.len);
    if (r->pay.failed) {
        r->write_failed = true;
        r->write_errno = ENOMEM;
    } else if (r->file != NULL) {
        view_bytes_put(&r->group, head.data, head.len);
        view_bytes_put(&r->group, r->pay.data, r->pay.len);
        if (r->group.failed) {
            r->write_failed = true;
            r->write_errno = ENOMEM;
        }
    } else {
        view_bytes_put(r->mem, head.data, head.len);
        view_bytes_put(r->mem, r->pay.data, r->pay.len);
        if (r->mem->failed) {
            r->write_failed = true;
            r->write_errno = ENOMEM;
        }
    }
    r->pay.len = 0;
}

static void write_header(view_recorder_t *r, const char *title)
{
    const emu_array_t *a = r->a;
    const view_layout_t *l = &r->m.l;
    view_bytes_t *p = &r->pay;
    view_bytes_varint(p, VIEW_TRACE_VERSION);
    const unsigned dims[] = {l->width,       l->height,      l->channels,    l->spools,    l->queue_depth,
                             l->link_clocks, l->hop_latency, VIEW_KEY_EVERY, l->cell_slots};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        view_bytes_varint(p, dims[i]);
    view_bytes_string(p, title, strlen(title));

    /* The distinct programs, in the order of the first cell running each. */
    unsigned ncells = l->width * l->height, nprogs = 0;
    const emu_program_t **progs = calloc(ncells, sizeof *progs);
    uint16_t *which = calloc(ncells, sizeof *which);
    if (progs == NULL || which == NULL) {
        r->pay.failed = true;
        free(progs);
        free(which);
        return;
    }
    for (unsigned i = 0; i < ncells; i++) {
        const emu_program_t *pr = emu_array_ca(a, i % l->width, i / l->width)->prog;
        if (pr == NULL)
            continue;
        unsigned k = 0;
        while (k < nprogs && progs[k] != pr)
            k++;
        if (k == nprogs)
            progs[nprogs++] = pr;
        which[i] = (uint16_t)(k + 1);
    }
    view_bytes_varint(p, nprogs);
    for (unsigned k = 0; k < nprogs; k++) {
        const isa_image_t *img = &progs[k]->image;
        const char *name = img->nfiles > 0 ? img->files[0] : "program";
        view_bytes_string(p, name, strlen(name));
        view_bytes_varint(p, img->nfiles);
        for (size_t f = 0; f < img->nfiles; f++) {
            /* The text, so the viewer shows source lines without the files; none when it cannot be read. */
            view_bytes_t text = {0};
            bool ok = view_read_file(img->files[f], &text, VIEW_SOURCE_MAX, false, NULL, 0) == 0;
            view_bytes_string(p, img->files[f], strlen(img->files[f]));
            view_bytes_string(p, ok ? (const char *)text.data : "", ok ? text.len : 0);
            view_bytes_free(&text);
        }
        view_bytes_varint(p, img->nlines);
        uint32_t prev = 0;
        for (size_t i = 0; i < img->nlines; i++) {
            const isa_line_t *ln = &img->lines[i];
            view_bytes_varint(p, ln->addr - prev);
            view_bytes_varint(p, ln->file);
            view_bytes_varint(p, ln->line);
            prev = ln->addr;
        }
    }
    for (unsigned i = 0; i < ncells; i++)
        view_bytes_varint(p, which[i]);
    free(progs);
    free(which);
    emit(r, VIEW_REC_HEADER);
}

/* To a file, records are compressed in zstd frames of VIEW_KEYS_PER_FRAME keyframe groups, each frame with
 * its content checksum: damage is found at the frame it hits and everything before it still plays, while the
 * compressor keeps enough context to shrink a run 10 to 40 times (docs/trace.md). Level 3: hundreds of MB/s. */
static void flush_frame(view_recorder_t *r)
{
    if (r->file == NULL || r->write_failed || r->group.len == 0)
        return;
    size_t cap = ZSTD_compressBound(r->group.len);
    uint8_t *z = malloc(cap);
    size_t n = z != NULL ? ZSTD_compress2(r->zc, z, cap, r->group.data, r->group.len) : 0;
    if (z == NULL || ZSTD_isError(n)) {
        r->write_failed = true;
        r->write_errno = ENOMEM;
    } else if (fwrite(z, 1, n, r->file) != n) {
        r->write_failed = true;
        r->write_errno = errno;
    }
    free(z);
    r->group.len = 0;
    r->keys_in_frame = 0;
}

static void write_key(view_recorder_t *r)
{
    if (r->keys_in_frame++ == VIEW_KEYS_PER_FRAME)
        flush_frame(r);
    size_t n = view_model_nslots(&r->m), nz = 0;
    for (size_t i = 0; i < n; i++)
        nz += r->m.slots[i] != 0;
    memcpy(r->sent, r->m.slots, n * sizeof *r->sent);
    view_bytes_varint(&r->pay, r->m.clock);
    view_bytes_varint(&r->pay, nz);
    size_t prev = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (r->m.slots[i] == 0)
            continue;
        view_bytes_varint(&r->pay, i - prev - 1);
        view_bytes_varint(&r->pay, r->m.slots[i]);
        prev = i;
    }
    emit(r, VIEW_REC_KEY);
    r->next_key = (r->m.clock / VIEW_KEY_EVERY + 1) * VIEW_KEY_EVERY;
}

static void write_delta(view_recorder_t *r)
{
    view_bytes_varint(&r->pay, r->m.clock);
    view_bytes_varint(&r->pay, r->ch.n);
    size_t prev = SIZE_MAX;
    for (size_t k = 0; k < r->ch.n; k++) {
        size_t i = r->ch.idx[k];
        view_bytes_varint(&r->pay, i - prev - 1);
        view_bytes_varint(&r->pay, view_zigzag(r->sent[i], r->m.slots[i]));
        r->sent[i] = r->m.slots[i];
        prev = i;
    }
    emit(r, VIEW_REC_DELTA);
}

/* A cell that faulted in this update gets its fault written as text, as `iwarp run` would print it. */
static void write_faults(view_recorder_t *r)
{
    const view_layout_t *l = &r->m.l;
    for (size_t k = 0; k < r->ch.n; k++) {
        size_t i = r->ch.idx[k];
        if (i % l->cell_slots != VM_CA || (r->m.slots[i] & 0xff) != CA_FAULTED)
            continue;
        unsigned cell = (unsigned)(i / l->cell_slots);
        char text[512];
        emu_format_fault(r->a, cell % l->width, cell / l->width, text, sizeof text);
        view_bytes_varint(&r->pay, r->m.clock);
        view_bytes_varint(&r->pay, cell);
        view_bytes_string(&r->pay, text, strlen(text));
        emit(r, VIEW_REC_FAULT);
    }
}

/* One update: a keyframe when one is due, else the changes (if any). */
static void record(view_recorder_t *r, uint64_t clock, bool ran)
{
    view_model_update(&r->m, r->a, clock, ran, &r->ch);
    if (r->ch.failed) {
        r->write_failed = true;
        r->write_errno = ENOMEM;
        return;
    }
    if (clock >= r->next_key)
        write_key(r);
    else if (r->ch.n > 0)
        write_delta(r);
    write_faults(r);
}

static bool after_clock(void *user, emu_array_t *a, uint64_t clock)
{
    (void)a;
    record(user, clock + 1, true);
    return false;
}

static view_recorder_t *attach(emu_array_t *a, FILE *file, view_bytes_t *mem, const char *title, char *err,
                               size_t errlen)
{
    view_recorder_t *r = calloc(1, sizeof *r);
    view_layout_t l;
    view_layout_from_machine(&l, emu_array_machine(a));
    if (r == NULL || view_model_init(&r->m, &l) != 0) {
        free(r);
        err_set(err, errlen, "out of memory for the recorder");
        return NULL;
    }
    r->sent = calloc(view_model_nslots(&r->m), sizeof *r->sent);
    if (r->sent == NULL) {
        view_model_free(&r->m);
        free(r);
        err_set(err, errlen, "out of memory for the recorder");
        return NULL;
    }
    r->a = a;
    r->file = file;
    r->mem = mem;
    if (file != NULL) {
        if ((r->zc = ZSTD_createCCtx()) == NULL ||
            ZSTD_isError(ZSTD_CCtx_setParameter(r->zc, ZSTD_c_compressionLevel, 3)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(r->zc, ZSTD_c_checksumFlag, 1)))
            r->write_failed = true, r->write_errno = ENOMEM;
        else if (fwrite(VIEW_TRACE_MAGIC_ZSTD, 1, VIEW_TRACE_MAGIC_LEN, file) != VIEW_TRACE_MAGIC_LEN)
            r->write_failed = true, r->write_errno = errno;
    } else {
        view_bytes_put(mem, VIEW_TRACE_MAGIC, VIEW_TRACE_MAGIC_LEN);
    }
    write_header(r, title != NULL ? title : "");
    r->m.clock = emu_array_clock(a);
    view_model_update(&r->m, a, r->m.clock, false, NULL);
    write_key(r);
    emu_hooks_t hooks = {.user = r, .after_clock = after_clock};
    emu_array_set_hooks(a, &hooks);
    return r;
}

view_recorder_t *view_record_attach(emu_array_t *a, const char *path, const char *title, char *err, size_t errlen)
{
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return NULL;
    view_recorder_t *r = attach(a, out.f, NULL, title, err, errlen);
    if (r == NULL)
        file_out_abort(&out);
    else
        r->out = out;
    return r;
}

view_recorder_t *view_record_attach_memory(emu_array_t *a, view_bytes_t *out, const char *title, char *err,
                                           size_t errlen)
{
    return attach(a, NULL, out, title, err, errlen);
}

const view_model_t *view_record_model(const view_recorder_t *r)
{
    return &r->m;
}

static void release(view_recorder_t *r)
{
    emu_array_set_hooks(r->a, NULL);
    view_model_free(&r->m);
    free(r->sent);
    view_changes_free(&r->ch);
    view_bytes_free(&r->pay);
    view_bytes_free(&r->group);
    ZSTD_freeCCtx(r->zc);
    free(r);
}

int view_record_finish(view_recorder_t *r, emu_run_status_t st, char *err, size_t errlen)
{
    /* The end of a run may change the state without a clock running (the deadlock detector faults the
     * cells on the cycle), so take it again at the final clock. */
    uint64_t clock = emu_array_clock(r->a);
    record(r, clock > r->m.clock ? clock : r->m.clock, false);
    /* The wait cycle, step by step, for the viewer to draw: the deadlock's, or the one a run stopped at its
     * limit (or by a request) is caught in before the detector's window closed. */
    const emu_wait_cycle_t *cyc = NULL;
    const char *dl = "";
    struct stopped {
        emu_wait_cycle_t cycle;
        char report[8192];
    } *stopped = NULL;
    if (st == EMU_RUN_DEADLOCK || st == EMU_RUN_LIVELOCK) {
        dl = emu_array_deadlock(r->a) != NULL ? emu_array_deadlock(r->a) : "";
        cyc = st == EMU_RUN_DEADLOCK ? emu_array_deadlock_cycle(r->a) : NULL;
    } else if ((st == EMU_RUN_LIMIT || st == EMU_RUN_STOPPED) && (stopped = malloc(sizeof *stopped)) != NULL &&
               emu_array_find_wait_cycle(r->a, &stopped->cycle, stopped->report, sizeof stopped->report)) {
        cyc = &stopped->cycle;
        dl = stopped->report;
    }
    if (cyc != NULL && cyc->n > 0) {
        view_bytes_varint(&r->pay, r->m.clock);
        view_bytes_varint(&r->pay, cyc->closed_at);
        view_bytes_varint(&r->pay, cyc->n);
        for (unsigned k = 0; k < cyc->n; k++) {
            const emu_wait_step_t *s = &cyc->step[k];
            view_bytes_varint(&r->pay, s->cell);
            view_bytes_varint(&r->pay, (uint64_t)s->lc << 1 | s->is_ca);
            view_bytes_varint(&r->pay, s->lane_dir);
            view_bytes_varint(&r->pay, s->lane_cell);
        }
        emit(r, VIEW_REC_CYCLE);
    }
    view_bytes_varint(&r->pay, r->m.clock);
    view_bytes_varint(&r->pay, (uint64_t)st);
    view_bytes_varint(&r->pay, emu_array_cycles(r->a));
    view_bytes_string(&r->pay, dl, strlen(dl));
    emit(r, VIEW_REC_END);
    free(stopped);
    flush_frame(r);
    int rc = 0;
    if (r->write_failed) {
        rc = err_set(err, errlen, "writing the recording failed: %s", strerror(r->write_errno));
        if (r->file != NULL)
            file_out_abort(&r->out);
    } else if (r->file != NULL) {
        rc = file_out_commit(&r->out, err, errlen);
    }
    release(r);
    return rc;
}

void view_record_abandon(view_recorder_t *r)
{
    /* What was recorded is whole records, without an end: kept, since a reader plays it to its last record. */
    char err[256];
    flush_frame(r);
    if (r->file != NULL && !r->write_failed)
        file_out_commit(&r->out, err, sizeof err);
    else if (r->file != NULL)
        file_out_abort(&r->out);
    release(r);
}

int view_trace_save(const view_bytes_t *plain, const char *path, char *err, size_t errlen)
{
    if (plain->len < VIEW_TRACE_MAGIC_LEN || memcmp(plain->data, VIEW_TRACE_MAGIC, VIEW_TRACE_MAGIC_LEN) != 0)
        return err_set(err, errlen, "%s: not a recording in memory", path);
    file_out_t out;
    if (file_out_open(&out, path, "wb", err, errlen) != 0)
        return -1;
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    int ok = zc != NULL && !ZSTD_isError(ZSTD_CCtx_setParameter(zc, ZSTD_c_compressionLevel, 3)) &&
             !ZSTD_isError(ZSTD_CCtx_setParameter(zc, ZSTD_c_checksumFlag, 1)) &&
             fwrite(VIEW_TRACE_MAGIC_ZSTD, 1, VIEW_TRACE_MAGIC_LEN, out.f) == VIEW_TRACE_MAGIC_LEN;
    /* Frames of 16 MB of records: the reader joins what they decompress to, wherever they were cut. */
    enum { CHUNK = 16u << 20 };
    uint8_t *z = ok ? malloc(ZSTD_compressBound(CHUNK)) : NULL;
    ok = ok && z != NULL;
    for (size_t at = VIEW_TRACE_MAGIC_LEN; ok && at < plain->len; at += CHUNK) {
        size_t n = plain->len - at < CHUNK ? plain->len - at : CHUNK;
        size_t zn = ZSTD_compress2(zc, z, ZSTD_compressBound(CHUNK), plain->data + at, n);
        ok = !ZSTD_isError(zn) && fwrite(z, 1, zn, out.f) == zn;
    }
    free(z);
    ZSTD_freeCCtx(zc);
    if (!ok) {
        file_out_abort(&out);
        return err_set(err, errlen, "%s: write failed", path);
    }
    return file_out_commit(&out, err, errlen);
}
