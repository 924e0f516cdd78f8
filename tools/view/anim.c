#include "anim.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "file.h"

struct anim_gif {
    file_out_t out;
    GifFileType *gif;
    int w, h, delay_cs; /* a frame's time, in hundredths of a second (GIF's unit) */
    GifByteType *r, *g, *b, *index;
    int failed; /* a write went wrong: the file will not be kept */
};

/* giflib writes through this into the temporary file. */
static int put_bytes(GifFileType *gif, const GifByteType *data, int n)
{
    FILE *f = gif->UserData;
    return fwrite(data, 1, (size_t)n, f) == (size_t)n ? n : 0;
}

static void release(anim_gif_t *a)
{
    free(a->r);
    free(a->g);
    free(a->b);
    free(a->index);
    free(a);
}

anim_gif_t *anim_gif_open(const char *path, int w, int h, double fps, char *err, size_t errlen)
{
    anim_gif_t *a = calloc(1, sizeof *a);
    size_t n = (size_t)w * (size_t)h;
    if (a == NULL || (a->r = malloc(n)) == NULL || (a->g = malloc(n)) == NULL || (a->b = malloc(n)) == NULL ||
        (a->index = malloc(n)) == NULL) {
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
    int e = 0;
    a->gif = EGifOpen(a->out.f, put_bytes, &e);
    if (a->gif == NULL) {
        file_out_abort(&a->out);
        release(a);
        err_set(err, errlen, "%s: %s", path, GifErrorString(e));
        return NULL;
    }
    EGifSetGifVersion(a->gif, true);
    /* The screen, and NETSCAPE2.0's loop count 0: play forever, as a slide expects. */
    static const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutScreenDesc(a->gif, w, h, 8, 0, NULL) != GIF_OK ||
        EGifPutExtensionLeader(a->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(a->gif, 11, "NETSCAPE2.0") != GIF_OK ||
        EGifPutExtensionBlock(a->gif, sizeof loop, loop) != GIF_OK || EGifPutExtensionTrailer(a->gif) != GIF_OK) {
        err_set(err, errlen, "%s: %s", path, GifErrorString(a->gif->Error));
        anim_gif_abort(a);
        return NULL;
    }
    return a;
}

int anim_gif_frame(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen)
{
    for (int y = 0; y < a->h; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)argb + (size_t)y * pitch);
        for (int x = 0; x < a->w; x++) {
            size_t i = (size_t)y * (size_t)a->w + (size_t)x;
            a->r[i] = (GifByteType)(row[x] >> 16);
            a->g[i] = (GifByteType)(row[x] >> 8);
            a->b[i] = (GifByteType)row[x];
        }
    }
    GifColorType colours[256];
    int ncolours = 256;
    if (GifQuantizeBuffer((unsigned)a->w, (unsigned)a->h, &ncolours, a->r, a->g, a->b, a->index, colours) != GIF_OK)
        return err_set(err, errlen, "%s: the frame's colours could not be reduced", a->out.path);
    ColorMapObject *map = GifMakeMapObject(256, colours);
    if (map == NULL)
        return err_set(err, errlen, "%s: out of memory", a->out.path);
    GraphicsControlBlock gcb = {
        .DisposalMode = DISPOSE_DO_NOT, .DelayTime = a->delay_cs, .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    int ok = EGifPutExtension(a->gif, GRAPHICS_EXT_FUNC_CODE, sizeof ext, ext) == GIF_OK &&
             EGifPutImageDesc(a->gif, 0, 0, a->w, a->h, false, map) == GIF_OK;
    for (int y = 0; ok && y < a->h; y++)
        ok = EGifPutLine(a->gif, a->index + (size_t)y * (size_t)a->w, a->w) == GIF_OK;
    GifFreeMapObject(map);
    if (!ok) {
        a->failed = 1;
        return err_set(err, errlen, "%s: %s", a->out.path, GifErrorString(a->gif->Error));
    }
    return 0;
}

int anim_gif_close(anim_gif_t *a, char *err, size_t errlen)
{
    int e = 0;
    int rc = EGifCloseFile(a->gif, &e) == GIF_OK && !a->failed ? 0 : -1; /* frees the GifFileType */
    a->gif = NULL;
    if (rc != 0) {
        err_set(err, errlen, "%s: %s", a->out.path, e != 0 ? GifErrorString(e) : "write failed");
        file_out_abort(&a->out);
    } else {
        rc = file_out_commit(&a->out, err, errlen);
    }
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
