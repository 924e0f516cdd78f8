/* Headless frames and window read-back, both written with our PNG encoder. */
#include "shot.h"

#include <stdio.h>
#include <stdlib.h>

#include "view_png.h"

int view_offscreen_init(view_offscreen_t *o, int w, int h, char *err, size_t errlen)
{
    o->w = w;
    o->h = h;
    /* No video driver is involved: this works with no display, in CI and over ssh. */
    o->surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (o->surface == NULL)
        return err_set(err, errlen, "cannot make a %dx%d image: %s", w, h, SDL_GetError());
    o->ren = SDL_CreateSoftwareRenderer(o->surface);
    if (o->ren == NULL) {
        SDL_FreeSurface(o->surface);
        o->surface = NULL;
        return err_set(err, errlen, "SDL software renderer: %s", SDL_GetError());
    }
    return 0;
}

void view_offscreen_free(view_offscreen_t *o)
{
    if (o->ren != NULL)
        SDL_DestroyRenderer(o->ren);
    if (o->surface != NULL)
        SDL_FreeSurface(o->surface);
    o->ren = NULL;
    o->surface = NULL;
}

static int write_rgb_from(const void *pixels, int pitch, Uint32 format, int w, int h, const char *path, char *err,
                          size_t errlen)
{
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    if (rgb == NULL)
        return err_set(err, errlen, "out of memory");
    if (SDL_ConvertPixels(w, h, format, pixels, pitch, SDL_PIXELFORMAT_RGB24, rgb, w * 3) != 0) {
        free(rgb);
        return err_set(err, errlen, "converting the frame: %s", SDL_GetError());
    }
    int rc = view_png_write(path, rgb, (unsigned)w, (unsigned)h, (size_t)w * 3, err, errlen);
    free(rgb);
    return rc;
}

int view_offscreen_png(const view_offscreen_t *o, const char *path, char *err, size_t errlen)
{
    SDL_RenderFlush(o->ren);
    return write_rgb_from(o->surface->pixels, o->surface->pitch, o->surface->format->format, o->w, o->h, path, err,
                          errlen);
}

int view_window_png(SDL_Renderer *ren, const char *path, char *err, size_t errlen)
{
    int w, h;
    if (SDL_GetRendererOutputSize(ren, &w, &h) != 0)
        return err_set(err, errlen, "%s", SDL_GetError());
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    if (px == NULL)
        return err_set(err, errlen, "out of memory");
    int rc;
    if (SDL_RenderReadPixels(ren, NULL, SDL_PIXELFORMAT_ARGB8888, px, w * 4) != 0)
        rc = err_set(err, errlen, "reading the window back: %s", SDL_GetError());
    else
        rc = write_rgb_from(px, w * 4, SDL_PIXELFORMAT_ARGB8888, w, h, path, err, errlen);
    free(px);
    return rc;
}
