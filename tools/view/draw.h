/* Drawing primitives over SDL_Renderer (the window's renderer or the software one for screenshots). Every
 * shape is made of filled rectangles, one per pixel row where it is curved: SDL's software renderer fills
 * rectangles many times faster than it rasterizes triangles, and it draws every headless frame. */
#ifndef VIEW_DRAW_H
#define VIEW_DRAW_H

#include <SDL.h>

static inline SDL_Color rgb(unsigned v)
{
    return (SDL_Color){(Uint8)(v >> 16), (Uint8)(v >> 8), (Uint8)v, 255};
}
static inline SDL_Color with_alpha(SDL_Color c, Uint8 a)
{
    return (SDL_Color){c.r, c.g, c.b, a};
}
SDL_Color color_mix(SDL_Color a, SDL_Color b, float t); /* t = 0: a, 1: b */

void draw_fill(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c);
void draw_round_fill(SDL_Renderer *r, float x, float y, float w, float h, float radius, SDL_Color c);
/* A rounded rectangle with a border: `border` outside, `fill` inside. */
void draw_round_box(SDL_Renderer *r, float x, float y, float w, float h, float radius, float t, SDL_Color border,
                    SDL_Color fill);
void draw_circle(SDL_Renderer *r, float cx, float cy, float radius, SDL_Color c);

typedef enum draw_dir { DRAW_RIGHT, DRAW_LEFT, DRAW_DOWN, DRAW_UP } draw_dir_t;
/* An arrowhead with its tip at (x, y) pointing `dir`: `length` long, `width` across at its base. */
void draw_arrowhead(SDL_Renderer *r, float x, float y, draw_dir_t dir, float length, float width, SDL_Color c);

#endif
