/* Frames as PNG files: drawn without any display (SDL's software renderer on a memory surface), or read
 * back from the window's renderer. */
#ifndef VIEW_SHOT_H
#define VIEW_SHOT_H

#include <SDL.h>
#include <stddef.h>

#include "render.h"

/* An offscreen target: a surface and a software renderer drawing into it. */
typedef struct view_offscreen {
    SDL_Surface *surface;
    SDL_Renderer *ren;
    int w, h;
} view_offscreen_t;

int view_offscreen_init(view_offscreen_t *o, int w, int h, char *err, size_t errlen);
void view_offscreen_free(view_offscreen_t *o);
/* Writes what the offscreen renderer drew. */
int view_offscreen_png(const view_offscreen_t *o, const char *path, char *err, size_t errlen);
/* Reads back what a window's renderer drew (before SDL_RenderPresent) and writes it. */
int view_window_png(SDL_Renderer *ren, const char *path, char *err, size_t errlen);

#endif
