/* Reading recordings: the header, an index of keyframes, the marks and faults, and cursors that rebuild the
 * view model at any clock (docs/trace.md). Every count and length is checked: a recording is input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>
#include <zstd_errors.h>

#include "trace.h"

/* A bounded reader over one record's payload; any overrun sets `bad` and returns zeros from then on. */
typedef struct rd {
    const uint8_t *p, *end;
    bool bad;
} rd_t;

static uint64_t rd_varint(rd_t *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        uint8_t b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0)
            return v;
    }
    r->bad = true;
    return 0;
}

/* A string as a fresh NUL-terminated copy (NULL on overrun or no memory). */
static char *rd_string(rd_t *r, size_t *len_out)
{
    uint64_t n = rd_varint(r);
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (s == NULL) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, r->p, (size_t)n);
    s[n] = '\0';
    r->p += n;
    if (len_out != NULL)
        *len_out = (size_t)n;
    return s;
}

/* The record at `off`: its tag and payload bounds. Returns 0, 1 when it is not complete yet, -1 when bad. */
static int record_at(const view_bytes_t *b, size_t off, uint8_t *tag, rd_t *payload, size_t *next)
{
    if (off >= b->len)
        return 1;
    rd_t r = {b->data + off + 1, b->data + b->len, false};
    *tag = b->data[off];
    uint64_t n = 0;
    unsigned shift = 0;
    for (;;) {
        if (r.p >= r.end)
            return 1;
        uint8_t c = *r.p++;
        n |= (uint64_t)(c & 0x7f) << shift;
        if ((c & 0x80) == 0)
            break;
        if ((shift += 7) >= 35)
            return -1;
    }
    if (n > VIEW_RECORD_MAX)
        return -1;
    if (n > (uint64_t)(r.end - r.p))
        return 1;
    payload->p = r.p;
    payload->end = r.p + n;
    payload->bad = false;
    *next = (size_t)(payload->end - b->data);
    return 0;
}

void view_static_free(view_static_t *s)
{
    for (unsigned k = 0; k < s->nprograms; k++) {
        view_program_info_t *p = &s->programs[k];
        for (unsigned f = 0; f < p->nfiles; f++) {
            free(p->files[f].path);
            free(p->files[f].text);
            free(p->files[f].line_at);
        }
        free(p->files);
        free(p->lines);
        free(p->name);
    }
    free(s->programs);
    free(s->cell_program);
    free(s->title);
    memset(s, 0, sizeof *s);
}

static int index_lines(view_srcfile_t *src)
{
    size_t n = 1;
    for (size_t i = 0; i < src->len; i++)
        n += src->text[i] == '\n';
    src->line_at = malloc(n * sizeof *src->line_at);
    if (src->line_at == NULL)
        return -1;
    src->nlines = 0;
    src->line_at[src->nlines++] = 0;
    for (size_t i = 0; i < src->len; i++)
        if (src->text[i] == '\n' && i + 1 < src->len)
            src->line_at[src->nlines++] = i + 1;
    return 0;
}

static int parse_header(view_trace_t *t, rd_t *r)
{
    view_static_t *s = &t->st;
    uint64_t v[10];
    for (size_t i = 0; i < 10; i++)
        v[i] = rd_varint(r);
    if (r->bad || v[0] != VIEW_TRACE_VERSION)
        return err_set(t->error, sizeof t->error, "recording version %llu, this viewer reads version %d",
                       (unsigned long long)v[0], VIEW_TRACE_VERSION);
    for (size_t i = 1; i < 10; i++)
        if (v[i] > 0xffff)
            return err_set(t->error, sizeof t->error, "the recording's header is malformed");
    view_layout_init(&s->l, (unsigned)v[1], (unsigned)v[2], (unsigned)v[3], (unsigned)v[4], (unsigned)v[5],
                     (unsigned)v[6], (unsigned)v[7]);
    s->key_every = v[8];
    if (!view_layout_valid(&s->l) || v[9] != s->l.cell_slots || s->key_every == 0)
        return err_set(t->error, sizeof t->error,
                       "the recording's array (%llux%llu, %llu channels) is not one this "
                       "viewer can show",
                       (unsigned long long)v[1], (unsigned long long)v[2], (unsigned long long)v[3]);
    s->title = rd_string(r, NULL);
    uint64_t np = rd_varint(r);
    unsigned ncells = s->l.width * s->l.height;
    if (r->bad || np > ncells)
        return err_set(t->error, sizeof t->error, "the recording's header is malformed");
    s->programs = calloc(np ? np : 1, sizeof *s->programs);
    s->cell_program = calloc(ncells, sizeof *s->cell_program);
    if (s->programs == NULL || s->cell_program == NULL)
        return err_set(t->error, sizeof t->error, "out of memory");
    for (uint64_t k = 0; k < np && !r->bad; k++) {
        view_program_info_t *p = &s->programs[s->nprograms++];
        p->name = rd_string(r, NULL);
        uint64_t nf = rd_varint(r);
        if (nf > (uint64_t)(r->end - r->p) || (p->files = calloc(nf ? nf : 1, sizeof *p->files)) == NULL) {
            r->bad = true;
            break;
        }
        for (uint64_t f = 0; f < nf && !r->bad; f++) {
            view_srcfile_t *src = &p->files[p->nfiles++];
            src->path = rd_string(r, NULL);
            src->text = rd_string(r, &src->len);
            if (!r->bad && index_lines(src) != 0)
                r->bad = true;
        }
        uint64_t nl = rd_varint(r);
        if (r->bad || nl > (uint64_t)(r->end - r->p) || (p->lines = calloc(nl ? nl : 1, sizeof *p->lines)) == NULL) {
            r->bad = true;
            break;
        }
        uint32_t addr = 0;
        for (uint64_t i = 0; i < nl && !r->bad; i++) {
            isa_line_t *ln = &p->lines[p->nlines++];
            addr += (uint32_t)rd_varint(r);
            ln->addr = addr;
            ln->file = (uint32_t)rd_varint(r);
            ln->line = (uint32_t)rd_varint(r);
            if (ln->file >= p->nfiles)
                r->bad = true;
        }
    }
    for (unsigned i = 0; i < ncells && !r->bad; i++) {
        uint64_t w = rd_varint(r);
        if (w > s->nprograms)
            r->bad = true;
        s->cell_program[i] = (uint16_t)w;
    }
    if (r->bad || s->title == NULL)
        return err_set(t->error, sizeof t->error, "the recording's header is malformed");
    t->last_mark = calloc(ncells, sizeof *t->last_mark);
    t->last_mark_clock = calloc(ncells, sizeof *t->last_mark_clock);
    if (t->last_mark == NULL || t->last_mark_clock == NULL)
        return err_set(t->error, sizeof t->error, "out of memory");
    return 0;
}

bool view_static_line(const view_static_t *s, unsigned cell, uint32_t pc, const char **file, unsigned *line,
                      const char **text, size_t *text_len)
{
    if (cell >= s->l.width * s->l.height || s->cell_program[cell] == 0)
        return false;
    const view_program_info_t *p = &s->programs[s->cell_program[cell] - 1];
    /* The last line entry at or before pc (entries are bundle starts, sorted by address). */
    size_t lo = 0, hi = p->nlines;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->lines[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    const isa_line_t *ln = &p->lines[lo - 1];
    const view_srcfile_t *src = &p->files[ln->file];
    *file = src->path;
    *line = ln->line;
    *text = NULL;
    *text_len = 0;
    if (ln->line >= 1 && ln->line <= src->nlines && src->len > 0) {
        size_t at = src->line_at[ln->line - 1], end = at;
        while (end < src->len && src->text[end] != '\n')
            end++;
        *text = src->text + at;
        *text_len = end - at;
    }
    return true;
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *g = realloc(*p, c * size);
    if (g == NULL)
        return -1;
    *p = g;
    *cap = c;
    return 0;
}

/* Walks the slot changes of a keyframe or delta, collecting the marks programs raised. */
static int scan_slots(view_trace_t *t, rd_t *r, uint64_t clock, bool key)
{
    const view_layout_t *l = &t->st.l;
    size_t nslots = (size_t)l->width * l->height * l->cell_slots;
    if (key) { /* a keyframe leaves out the slots that are 0 */
        memset(t->last_mark, 0, (size_t)l->width * l->height * sizeof *t->last_mark);
        memset(t->last_mark_clock, 0, (size_t)l->width * l->height * sizeof *t->last_mark_clock);
    }
    uint64_t n = rd_varint(r);
    if (r->bad || n > nslots)
        return -1;
    size_t i = SIZE_MAX;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t gap = rd_varint(r), v = rd_varint(r);
        if (r->bad || gap >= nslots - (i + 1))
            return -1;
        i += (size_t)gap + 1;
        unsigned cell = (unsigned)(i / l->cell_slots), f = (unsigned)(i % l->cell_slots);
        if (f == VM_MARK)
            t->last_mark[cell] = (uint32_t)(key ? v : view_unzigzag(t->last_mark[cell], v));
        else if (f == VM_MARK_CLOCK) {
            t->last_mark_clock[cell] = key ? v : view_unzigzag(t->last_mark_clock[cell], v);
            if (t->last_mark_clock[cell] != clock)
                continue;
            if (grow((void **)&t->marks, &t->markcap, t->nmarks, sizeof *t->marks) != 0)
                return -1;
            t->marks[t->nmarks++] = (view_mark_event_t){clock, cell, t->last_mark[cell]};
        }
    }
    return r->p == r->end ? 0 : -1;
}

/* The steps of a wait cycle (docs/trace.md, record W). Returns 0, or -1 when malformed. */
static int read_cycle(view_trace_t *t, rd_t *r)
{
    uint64_t closed = rd_varint(r), n = rd_varint(r), ncells = (uint64_t)t->st.l.width * t->st.l.height;
    if (r->bad || n == 0 || n > EMU_WAIT_CYCLE_MAX || t->cycle != NULL)
        return -1;
    t->cycle = calloc((size_t)n, sizeof *t->cycle);
    if (t->cycle == NULL)
        return -1;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t cell = rd_varint(r), what = rd_varint(r), dir = rd_varint(r), lane = rd_varint(r);
        if (r->bad || cell >= ncells || (what >> 1) >= t->st.l.channels || dir > COA_NUM_DIRS || lane >= ncells)
            return -1;
        t->cycle[k] =
            (emu_wait_step_t){(unsigned)cell, (unsigned)(what >> 1), (what & 1) != 0, (unsigned)lane, (unsigned)dir};
    }
    t->ncycle = (unsigned)n;
    t->cycle_closed = closed;
    return 0;
}

int view_trace_scan(view_trace_t *t)
{
    if (t->error[0] != '\0')
        return -1;
    for (;;) {
        uint8_t tag;
        rd_t r;
        size_t next;
        int rc = record_at(t->bytes, t->scanned, &tag, &r, &next);
        if (rc == 1)
            return 0;
        if (rc < 0)
            return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
        if (!t->header_done) {
            if (tag != VIEW_REC_HEADER || parse_header(t, &r) != 0) {
                if (t->error[0] == '\0')
                    err_set(t->error, sizeof t->error, "the recording has no header");
                return -1;
            }
            t->header_done = true;
            t->scanned = next;
            continue;
        }
        if (t->ended)
            return err_set(t->error, sizeof t->error, "records follow the end of the recording at byte %zu",
                           t->scanned);
        uint64_t clock = rd_varint(&r);
        if (r.bad || (t->nkeys > 0 && clock < t->last_clock))
            return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
        switch (tag) {
        case VIEW_REC_KEY:
        case VIEW_REC_DELTA:
            if (tag == VIEW_REC_DELTA && t->nkeys == 0)
                return err_set(t->error, sizeof t->error, "the recording starts without a keyframe");
            if (tag == VIEW_REC_KEY) {
                if (grow((void **)&t->keys, &t->keycap, t->nkeys, sizeof *t->keys) != 0)
                    return err_set(t->error, sizeof t->error, "out of memory");
                t->keys[t->nkeys++] = (struct view_key){clock, t->scanned};
                if (t->nkeys == 1)
                    t->first_clock = clock;
            }
            if (scan_slots(t, &r, clock, tag == VIEW_REC_KEY) != 0)
                return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
            break;
        case VIEW_REC_FAULT: {
            uint64_t cell = rd_varint(&r);
            char *text = rd_string(&r, NULL);
            if (r.bad || cell >= (uint64_t)t->st.l.width * t->st.l.height ||
                grow((void **)&t->faults, &t->faultcap, t->nfaults, sizeof *t->faults) != 0) {
                free(text);
                return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
            }
            t->faults[t->nfaults++] = (view_fault_event_t){clock, (unsigned)cell, text};
            break;
        }
        case VIEW_REC_END: {
            uint64_t st = rd_varint(&r), cycles = rd_varint(&r);
            char *dl = rd_string(&r, NULL);
            if (r.bad || st > EMU_RUN_LIVELOCK) {
                free(dl);
                return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
            }
            t->ended = true;
            t->end_clock = clock;
            t->end_status = (emu_run_status_t)st;
            t->end_cycles = cycles;
            t->end_deadlock = dl;
            break;
        }
        case VIEW_REC_CYCLE:
            if (read_cycle(t, &r) != 0)
                return err_set(t->error, sizeof t->error, "the recording is malformed at byte %zu", t->scanned);
            break;
        default: /* unknown records are skipped: later versions may add some */ break;
        }
        if (t->nkeys == 0)
            return err_set(t->error, sizeof t->error, "the recording starts without a keyframe");
        t->last_clock = clock;
        t->scanned = next;
    }
}

static int open_common(view_trace_t *t, char *err, size_t errlen)
{
    const view_bytes_t *b = t->bytes;
    if (b->len < VIEW_TRACE_MAGIC_LEN || memcmp(b->data, VIEW_TRACE_MAGIC, VIEW_TRACE_MAGIC_LEN) != 0)
        return err_set(err, errlen, "not a recording (it does not start with %s)", VIEW_TRACE_MAGIC);
    t->scanned = VIEW_TRACE_MAGIC_LEN;
    if (view_trace_scan(t) != 0) {
        /* Damage after the first keyframe leaves a playable start: the reader keeps it and says so. */
        if (!t->header_done || t->nkeys == 0)
            return err_set(err, errlen, "%s", t->error);
        t->damaged = true;
    }
    if (!t->header_done || t->nkeys == 0)
        return err_set(err, errlen, "the recording is empty or cut short before its first keyframe");
    return 0;
}

/* The records of a compressed file (VIEW_TRACE_MAGIC_ZSTD), decompressed frame by frame after a plain magic, so
 * the rest of the reader sees one form. Returns the file offset of the first frame that is cut short or fails
 * its checksum (its records are left out: the frames before it play), or SIZE_MAX when every frame is whole. */
static size_t decompress(const view_bytes_t *file, view_bytes_t *out, bool *cut)
{
    *cut = false;
    view_bytes_put(out, VIEW_TRACE_MAGIC, VIEW_TRACE_MAGIC_LEN);
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if (dc == NULL) {
        out->failed = true;
        return VIEW_TRACE_MAGIC_LEN;
    }
    size_t at = VIEW_TRACE_MAGIC_LEN, bad = SIZE_MAX;
    while (at < file->len && !out->failed) {
        const uint8_t *src = file->data + at;
        size_t zlen = ZSTD_findFrameCompressedSize(src, file->len - at);
        unsigned long long plain = ZSTD_getFrameContentSize(src, file->len - at);
        /* The recorder writes each frame's content size. One that claims more than 64 MB at a ratio no
         * recording reaches (4096 to 1; a busy 8x8 run compresses about 70 to 1) is damage, not a reason to
         * allocate it. */
        if (ZSTD_isError(zlen) || plain == ZSTD_CONTENTSIZE_UNKNOWN || plain == ZSTD_CONTENTSIZE_ERROR ||
            (plain > (64ull << 20) && plain / zlen > 4096)) {
            *cut = ZSTD_isError(zlen) && ZSTD_getErrorCode(zlen) == ZSTD_error_srcSize_wrong;
            bad = at;
            break;
        }
        size_t before = out->len;
        uint8_t *dst = view_bytes_extend(out, (size_t)plain);
        if (dst == NULL)
            break;
        size_t got = ZSTD_decompressDCtx(dc, dst, (size_t)plain, src, zlen);
        if (ZSTD_isError(got) || got != plain) {
            out->len = before;
            bad = at;
            break;
        }
        at += zlen;
    }
    ZSTD_freeDCtx(dc);
    return bad;
}

int view_trace_open_file(view_trace_t *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->bytes = &t->own;
    char inner[300];
    if (view_read_file(path, &t->own, SIZE_MAX / 2, false, err, errlen) != 0) {
        view_trace_close(t);
        return -1;
    }
    size_t zbad = SIZE_MAX;
    bool zcut = false;
    if (t->own.len >= VIEW_TRACE_MAGIC_LEN && memcmp(t->own.data, VIEW_TRACE_MAGIC_ZSTD, VIEW_TRACE_MAGIC_LEN) == 0) {
        view_bytes_t plain = {0};
        zbad = decompress(&t->own, &plain, &zcut);
        view_bytes_free(&t->own);
        t->own = plain;
        if (plain.failed) {
            view_trace_close(t);
            return err_set(err, errlen, "%s: out of memory", path);
        }
    }
    int rc = open_common(t, inner, sizeof inner);
    if (rc == 0 && zbad != SIZE_MAX && !t->damaged) {
        /* The records before the damage play; say where it is. */
        t->damaged = true;
        if (zcut)
            err_set(t->error, sizeof t->error, "the recording is cut short at byte %zu of the file", zbad);
        else
            err_set(t->error, sizeof t->error, "the compressed recording is damaged at byte %zu of the file", zbad);
    }
    if (rc != 0) {
        view_trace_close(t); /* a recording that cannot be opened is not used: the caller owes nothing */
        return err_set(err, errlen, "%s: %s", path, inner);
    }
    return 0;
}

int view_trace_open_bytes(view_trace_t *t, const view_bytes_t *bytes, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->bytes = bytes;
    if (open_common(t, err, errlen) == 0)
        return 0;
    view_trace_close(t);
    return -1;
}

void view_trace_close(view_trace_t *t)
{
    view_static_free(&t->st);
    for (size_t i = 0; i < t->nfaults; i++)
        free(t->faults[i].text);
    free(t->faults);
    free(t->marks);
    free(t->keys);
    free(t->last_mark);
    free(t->last_mark_clock);
    free(t->end_deadlock);
    free(t->cycle);
    view_bytes_free(&t->own);
    memset(t, 0, sizeof *t);
}

bool view_trace_is_recording(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    char magic[VIEW_TRACE_MAGIC_LEN];
    bool yes =
        fread(magic, 1, sizeof magic, f) == sizeof magic &&
        (memcmp(magic, VIEW_TRACE_MAGIC, sizeof magic) == 0 || memcmp(magic, VIEW_TRACE_MAGIC_ZSTD, sizeof magic) == 0);
    fclose(f);
    return yes;
}

long view_trace_phase(const view_trace_t *t, uint64_t clock)
{
    long phase = -1;
    for (size_t i = 0; i < t->nmarks && t->marks[i].clock <= clock; i++)
        if (t->marks[i].mark >> 24 == EMU_MARK_PHASE)
            phase = (long)(t->marks[i].mark & 0xffffffu);
    return phase;
}

int view_cursor_init(view_cursor_t *c, const view_trace_t *t)
{
    memset(c, 0, sizeof *c);
    return view_model_init(&c->m, &t->st.l);
}

void view_cursor_free(view_cursor_t *c)
{
    view_model_free(&c->m);
}

/* Applies a keyframe or delta payload (after its clock) to the model. */
static int apply(view_model_t *m, rd_t *r, bool key)
{
    size_t nslots = view_model_nslots(m);
    if (key)
        memset(m->slots, 0, nslots * sizeof *m->slots);
    uint64_t n = rd_varint(r);
    size_t i = SIZE_MAX;
    for (uint64_t k = 0; k < n && !r->bad; k++) {
        uint64_t gap = rd_varint(r), v = rd_varint(r);
        if (r->bad || gap >= nslots - (i + 1))
            return -1;
        i += (size_t)gap + 1;
        m->slots[i] = key ? v : view_unzigzag(m->slots[i], v);
    }
    return r->bad ? -1 : 0;
}

int view_cursor_seek(view_cursor_t *c, const view_trace_t *t, uint64_t clock)
{
    if (t->nkeys == 0)
        return -1;
    if (clock < t->first_clock)
        clock = t->first_clock;
    /* The last keyframe at or before the clock. */
    size_t lo = 0, hi = t->nkeys;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->keys[mid].clock <= clock)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t key_off = t->keys[lo - 1].off;
    /* Going on from where the cursor is beats reloading when no keyframe lies in between. */
    size_t off = c->valid && c->m.clock <= clock && c->next > key_off ? c->next : key_off;
    while (off < t->scanned) {
        uint8_t tag;
        rd_t r;
        size_t next;
        if (record_at(t->bytes, off, &tag, &r, &next) != 0)
            return -1;
        uint64_t at = rd_varint(&r);
        if (at > clock)
            break;
        if ((tag == VIEW_REC_KEY || tag == VIEW_REC_DELTA) && apply(&c->m, &r, tag == VIEW_REC_KEY) != 0) {
            c->valid = false;
            return -1;
        }
        off = next;
    }
    c->next = off;
    c->m.clock = clock;
    c->valid = true;
    return 0;
}
