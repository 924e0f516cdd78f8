/*
 * Animated GIFs for slides, written by giflib. One palette for the whole animation, chosen from every frame's
 * colours (anim_gif_learn), so that a pixel that does not change keeps its index; then each frame after the
 * first is only the rectangle that changed, its unchanged pixels transparent over the frame before (disposal
 * "do not dispose"). The viewer's frames are flat colours that change in small places: a clock, a bar, a dot.
 *
 * The palette keeps the frequent colours exactly (the theme's fills: a flat area stays its own colour) and
 * splits the rest, the antialiased edges of text and shapes, by median cut; every colour is then drawn as its
 * nearest palette entry.
 */
#include "anim.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "file.h"

enum {
    MAX_COLOURS = 255, /* and index 255 (or the first after the colours) is the transparent one */
    EXACT_MAX = 160,   /* at most this many colours are kept as they are before the median cut */
    EXACT_SHARE = 4096 /* ... those that cover at least 1/4096 of all the pixels */
};

/* The animation's distinct colours: open addressing on 0xRRGGBB, with their pixel counts and, once the palette
 * is made, their index. */
typedef struct colours {
    uint32_t *key; /* rgb | 1 << 24 when used, 0 when free */
    uint64_t *count;
    uint8_t *index;
    size_t cap, n;
} colours_t;

typedef struct entry {
    uint32_t rgb;
    uint64_t count;
} entry_t;

struct anim_gif {
    file_out_t out;
    GifFileType *gif;
    int w, h, delay_cs; /* a frame's time, in hundredths of a second (GIF's unit) */
    colours_t c;
    GifColorType palette[256];
    int ncolours, transparent, map_size;
    uint8_t *prev, *cur; /* the indices the decoder shows after the last frame, and the next frame's */
    uint8_t *row;        /* a row of the rectangle written */
    int frames;
    int failed; /* a write went wrong or memory ran out: the file will not be kept */
};

static size_t slot_of(const colours_t *c, uint32_t rgb)
{
    uint32_t key = rgb | 1u << 24;
    size_t i = (size_t)(key * 2654435761u) & (c->cap - 1);
    while (c->key[i] != 0 && c->key[i] != key)
        i = (i + 1) & (c->cap - 1);
    return i;
}

static int colours_grow(colours_t *c)
{
    colours_t g = {0};
    g.cap = c->cap ? c->cap * 2 : 4096;
    g.key = calloc(g.cap, sizeof *g.key);
    g.count = calloc(g.cap, sizeof *g.count);
    g.index = calloc(g.cap, sizeof *g.index);
    if (g.key == NULL || g.count == NULL || g.index == NULL) {
        free(g.key), free(g.count), free(g.index);
        return -1;
    }
    for (size_t i = 0; i < c->cap; i++)
        if (c->key[i] != 0) {
            size_t s = slot_of(&g, c->key[i] & 0xffffff);
            g.key[s] = c->key[i], g.count[s] = c->count[i], g.index[s] = c->index[i];
        }
    g.n = c->n;
    free(c->key), free(c->count), free(c->index);
    *c = g;
    return 0;
}

/* The slot of rgb, added with count 0 when new; SIZE_MAX when out of memory. */
static size_t colours_find(colours_t *c, uint32_t rgb)
{
    if ((c->n + 1) * 2 > c->cap && colours_grow(c) != 0)
        return SIZE_MAX;
    size_t s = slot_of(c, rgb);
    if (c->key[s] == 0) {
        c->key[s] = rgb | 1u << 24;
        c->n++;
    }
    return s;
}

static void release(anim_gif_t *a)
{
    free(a->c.key), free(a->c.count), free(a->c.index);
    free(a->prev);
    free(a->cur);
    free(a->row);
    free(a);
}

anim_gif_t *anim_gif_open(const char *path, int w, int h, double fps, char *err, size_t errlen)
{
    anim_gif_t *a = calloc(1, sizeof *a);
    size_t n = (size_t)w * (size_t)h;
    if (a == NULL || (a->prev = malloc(n)) == NULL || (a->cur = malloc(n)) == NULL ||
        (a->row = malloc((size_t)w)) == NULL) {
        if (a != NULL)
            release(a);
        err_set(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    a->w = w;
    a->h = h;
    a->delay_cs = fps > 0 ? (int)(100.0 / fps + 0.5) : 10;
    if (a->delay_cs < 2)
        a->delay_cs = 2; /* browsers slow down anything faster */
    if (file_out_open(&a->out, path, "wb", err, errlen) != 0) {
        release(a);
        return NULL;
    }
    return a;
}

static inline uint32_t row_rgb(const uint32_t *argb, size_t pitch, int x, int y)
{
    return ((const uint32_t *)((const uint8_t *)argb + (size_t)y * pitch))[x] & 0xffffff;
}

int anim_gif_learn(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen)
{
    if (a->gif != NULL)
        return err_set(err, errlen, "%s: a frame was learnt after the first was written", a->out.path);
    /* Runs of one colour are counted at once: most of a frame is flat. */
    for (int y = 0; y < a->h; y++) {
        uint32_t run_rgb = row_rgb(argb, pitch, 0, y);
        uint64_t run = 0;
        for (int x = 0; x <= a->w; x++) {
            uint32_t rgb = x < a->w ? row_rgb(argb, pitch, x, y) : ~0u;
            if (rgb == run_rgb) {
                run++;
                continue;
            }
            size_t s = colours_find(&a->c, run_rgb);
            if (s == SIZE_MAX) {
                a->failed = 1;
                return err_set(err, errlen, "%s: out of memory", a->out.path);
            }
            a->c.count[s] += run;
            run_rgb = rgb;
            run = 1;
        }
    }
    return 0;
}

static int channel(uint32_t rgb, int k)
{
    return (int)(rgb >> (16 - 8 * k) & 0xff);
}

static int by_count(const void *p, const void *q)
{
    const entry_t *x = p, *y = q;
    return (x->count < y->count) - (x->count > y->count);
}

/* e[0..n) in the order of channel k (a counting sort through tmp, stable). */
static void sort_by_channel(entry_t *e, size_t n, int k, entry_t *tmp)
{
    size_t at[257] = {0};
    for (size_t i = 0; i < n; i++)
        at[channel(e[i].rgb, k) + 1]++;
    for (int v = 0; v < 256; v++)
        at[v + 1] += at[v];
    for (size_t i = 0; i < n; i++)
        tmp[at[channel(e[i].rgb, k)]++] = e[i];
    memcpy(e, tmp, n * sizeof *e);
}

/* The widest channel of e[0..n) and its range. */
static int widest(const entry_t *e, size_t n, int *range)
{
    int best = 0;
    *range = -1;
    for (int k = 0; k < 3; k++) {
        int lo = 255, hi = 0;
        for (size_t i = 0; i < n; i++) {
            int v = channel(e[i].rgb, k);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (hi - lo > *range) {
            *range = hi - lo;
            best = k;
        }
    }
    return best;
}

static GifColorType mean_of(const entry_t *e, size_t n)
{
    double sum[3] = {0, 0, 0}, total = 0;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            sum[k] += (double)channel(e[i].rgb, k) * (double)e[i].count;
        total += (double)e[i].count;
    }
    GifColorType c;
    c.Red = (GifByteType)(sum[0] / total + 0.5);
    c.Green = (GifByteType)(sum[1] / total + 0.5);
    c.Blue = (GifByteType)(sum[2] / total + 0.5);
    return c;
}

/* e[0..n), most frequent first, into at most MAX_COLOURS palette entries (tmp: room for n entries). */
static int make_palette(GifColorType *pal, entry_t *e, size_t n, entry_t *tmp)
{
    int np = 0;
    size_t exact = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += e[i].count;
    /* Few enough: every colour as it is. Else the frequent ones as they are, the rest by median cut. */
    while (exact < n && (n <= MAX_COLOURS || (exact < EXACT_MAX && e[exact].count * EXACT_SHARE >= total))) {
        pal[np].Red = (GifByteType)channel(e[exact].rgb, 0);
        pal[np].Green = (GifByteType)channel(e[exact].rgb, 1);
        pal[np].Blue = (GifByteType)channel(e[exact].rgb, 2);
        np++, exact++;
    }
    if (exact == n)
        return np;
    /* Boxes of the remaining colours, as ranges of e; split the one with the widest channel at its median
     * pixel until the palette is full. */
    size_t lo[MAX_COLOURS], hi[MAX_COLOURS];
    int nb = 1;
    lo[0] = exact, hi[0] = n;
    while (np + nb < MAX_COLOURS) {
        int best = -1, best_range = 0;
        for (int b = 0; b < nb; b++) {
            int range;
            widest(e + lo[b], hi[b] - lo[b], &range);
            if (hi[b] - lo[b] > 1 && range > best_range)
                best = b, best_range = range;
        }
        if (best < 0)
            break;
        size_t l = lo[best], h = hi[best];
        int range;
        sort_by_channel(e + l, h - l, widest(e + l, h - l, &range), tmp);
        uint64_t sum = 0, half = 0;
        for (size_t i = l; i < h; i++)
            half += e[i].count;
        half /= 2;
        size_t cut = l + 1;
        for (size_t i = l; i + 1 < h; i++) {
            sum += e[i].count;
            cut = i + 1;
            if (sum >= half)
                break;
        }
        hi[best] = cut;
        lo[nb] = cut, hi[nb] = h;
        nb++;
    }
    for (int b = 0; b < nb; b++)
        pal[np++] = mean_of(e + lo[b], hi[b] - lo[b]);
    return np;
}

static int nearest(const GifColorType *pal, int n, uint32_t rgb)
{
    int best = 0;
    long best_d = -1;
    for (int i = 0; i < n; i++) {
        long dr = (long)pal[i].Red - channel(rgb, 0), dg = (long)pal[i].Green - channel(rgb, 1),
             db = (long)pal[i].Blue - channel(rgb, 2);
        long d = 2 * dr * dr + 4 * dg * dg + 3 * db * db; /* green counts most to the eye, blue least */
        if (best_d < 0 || d < best_d)
            best = i, best_d = d;
    }
    return best;
}

/* giflib writes through this into the temporary file. */
static int put_bytes(GifFileType *gif, const GifByteType *data, int n)
{
    FILE *f = gif->UserData;
    return fwrite(data, 1, (size_t)n, f) == (size_t)n ? n : 0;
}

/* The palette from what was learnt, the screen with it, and NETSCAPE2.0's loop count 0 (play forever). */
static int start(anim_gif_t *a, char *err, size_t errlen)
{
    entry_t *e = malloc((a->c.n ? a->c.n : 1) * sizeof *e), *tmp = malloc((a->c.n ? a->c.n : 1) * sizeof *e);
    if (e == NULL || tmp == NULL) {
        free(e), free(tmp);
        return err_set(err, errlen, "%s: out of memory", a->out.path);
    }
    size_t n = 0;
    for (size_t i = 0; i < a->c.cap; i++)
        if (a->c.key[i] != 0)
            e[n++] = (entry_t){a->c.key[i] & 0xffffff, a->c.count[i]};
    qsort(e, n, sizeof *e, by_count);
    a->ncolours = n > 0 ? make_palette(a->palette, e, n, tmp) : 0;
    free(e);
    free(tmp);
    for (size_t i = 0; i < a->c.cap; i++)
        if (a->c.key[i] != 0)
            a->c.index[i] = (uint8_t)nearest(a->palette, a->ncolours, a->c.key[i] & 0xffffff);
    a->transparent = a->ncolours;
    a->map_size = 2;
    while (a->map_size < a->ncolours + 1)
        a->map_size *= 2;
    GifColorType colours[256] = {{0, 0, 0}};
    memcpy(colours, a->palette, (size_t)a->ncolours * sizeof *colours);
    ColorMapObject *map = GifMakeMapObject(a->map_size, colours);
    int e2 = 0;
    if (map == NULL || (a->gif = EGifOpen(a->out.f, put_bytes, &e2)) == NULL) {
        GifFreeMapObject(map);
        return err_set(err, errlen, "%s: %s", a->out.path, map == NULL ? "out of memory" : GifErrorString(e2));
    }
    EGifSetGifVersion(a->gif, true);
    static const GifByteType loop[3] = {1, 0, 0};
    int ok = EGifPutScreenDesc(a->gif, a->w, a->h, 8, 0, map) == GIF_OK &&
             EGifPutExtensionLeader(a->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
             EGifPutExtensionBlock(a->gif, 11, "NETSCAPE2.0") == GIF_OK &&
             EGifPutExtensionBlock(a->gif, sizeof loop, loop) == GIF_OK && EGifPutExtensionTrailer(a->gif) == GIF_OK;
    GifFreeMapObject(map);
    if (!ok)
        return err_set(err, errlen, "%s: %s", a->out.path, GifErrorString(a->gif->Error));
    return 0;
}

/* The palette index of every pixel of the frame into a->cur. */
static int index_frame(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen)
{
    for (int y = 0; y < a->h; y++) {
        uint32_t last = ~0u;
        uint8_t idx = 0;
        uint8_t *out = a->cur + (size_t)y * (size_t)a->w;
        for (int x = 0; x < a->w; x++) {
            uint32_t rgb = row_rgb(argb, pitch, x, y);
            if (rgb != last) {
                size_t s = slot_of(&a->c, rgb);
                if (a->c.key[s] == 0) { /* not learnt (a frame that was not shown to anim_gif_learn) */
                    s = colours_find(&a->c, rgb);
                    if (s == SIZE_MAX)
                        return err_set(err, errlen, "%s: out of memory", a->out.path);
                    a->c.index[s] = (uint8_t)nearest(a->palette, a->ncolours, rgb);
                }
                idx = a->c.index[s];
                last = rgb;
            }
            out[x] = idx;
        }
    }
    return 0;
}

int anim_gif_frame(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen)
{
    if (a->gif == NULL && start(a, err, errlen) != 0) {
        a->failed = 1;
        return -1;
    }
    if (index_frame(a, argb, pitch, err, errlen) != 0) {
        a->failed = 1;
        return -1;
    }
    /* The rectangle that changed since the frame before (all of the first). */
    int x0 = 0, y0 = 0, x1 = a->w, y1 = a->h;
    if (a->frames > 0) {
        x0 = a->w, y0 = a->h, x1 = 0, y1 = 0;
        for (int y = 0; y < a->h; y++) {
            const uint8_t *p = a->prev + (size_t)y * (size_t)a->w, *c = a->cur + (size_t)y * (size_t)a->w;
            if (memcmp(p, c, (size_t)a->w) == 0)
                continue;
            int l = 0, r = a->w - 1;
            while (p[l] == c[l])
                l++;
            while (p[r] == c[r])
                r--;
            x0 = l < x0 ? l : x0, x1 = r + 1 > x1 ? r + 1 : x1;
            y0 = y < y0 ? y : y0, y1 = y + 1;
        }
        if (x1 <= x0) /* nothing changed: one transparent pixel keeps the frame's time */
            x0 = 0, y0 = 0, x1 = 1, y1 = 1;
    }
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT,
                                .DelayTime = a->delay_cs,
                                .TransparentColor = a->frames > 0 ? a->transparent : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    int ok = EGifPutExtension(a->gif, GRAPHICS_EXT_FUNC_CODE, sizeof ext, ext) == GIF_OK &&
             EGifPutImageDesc(a->gif, x0, y0, x1 - x0, y1 - y0, false, NULL) == GIF_OK;
    uint8_t *row = a->row;
    for (int y = y0; ok && y < y1; y++) {
        uint8_t *p = a->prev + (size_t)y * (size_t)a->w + x0;
        const uint8_t *c = a->cur + (size_t)y * (size_t)a->w + x0;
        /* Unchanged pixels transparent: long runs of one index, which LZW packs well. */
        for (int x = 0; x < x1 - x0; x++)
            row[x] = a->frames > 0 && p[x] == c[x] ? (uint8_t)a->transparent : c[x];
        ok = EGifPutLine(a->gif, row, x1 - x0) == GIF_OK;
    }
    if (!ok) {
        a->failed = 1;
        return err_set(err, errlen, "%s: %s", a->out.path, GifErrorString(a->gif->Error));
    }
    uint8_t *t = a->prev;
    a->prev = a->cur;
    a->cur = t;
    a->frames++;
    return 0;
}

int anim_gif_close(anim_gif_t *a, char *err, size_t errlen)
{
    int rc = 0;
    if (a->gif == NULL && !a->failed && start(a, err, errlen) != 0)
        rc = -1;
    int e = 0;
    if (a->gif != NULL && EGifCloseFile(a->gif, &e) != GIF_OK) /* frees the GifFileType */
        rc = err_set(err, errlen, "%s: %s", a->out.path, GifErrorString(e));
    a->gif = NULL;
    if (rc == 0 && a->failed)
        rc = err_set(err, errlen, "%s: write failed", a->out.path);
    if (rc != 0)
        file_out_abort(&a->out);
    else
        rc = file_out_commit(&a->out, err, errlen);
    release(a);
    return rc;
}

void anim_gif_abort(anim_gif_t *a)
{
    if (a->gif != NULL) {
        int e;
        EGifCloseFile(a->gif, &e);
    }
    file_out_abort(&a->out);
    release(a);
}
