/* Shapes as rows of rectangles (see draw.h for why). */
#include "draw.h"

#include <math.h>

SDL_Color color_mix(SDL_Color a, SDL_Color b, float t)
{
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    return (SDL_Color){(Uint8)(a.r + (b.r - a.r) * t + 0.5f), (Uint8)(a.g + (b.g - a.g) * t + 0.5f),
                       (Uint8)(a.b + (b.b - a.b) * t + 0.5f), (Uint8)(a.a + (b.a - a.a) * t + 0.5f)};
}

void draw_fill(SDL_Renderer *r, float x, float y, float w, float h, SDL_Color c)
{
    if (w <= 0 || h <= 0)
        return;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_FRect rect = {x, y, w, h};
    SDL_RenderFillRectF(r, &rect);
}

/* How far a circle of radius `rad` is from its bounding box's side on the pixel row `i` rows in from the
 * top (row centres at i + 0.5). */
static float inset(float rad, int i)
{
    float dy = rad - ((float)i + 0.5f);
    float dx = sqrtf(fmaxf(rad * rad - dy * dy, 0));
    return rad - dx;
}

void draw_round_fill(SDL_Renderer *r, float x, float y, float w, float h, float radius, SDL_Color c)
{
    /* Whole pixels: rows of fractional height would leave gaps or overlap. */
    int X = (int)lroundf(x), Y = (int)lroundf(y), W = (int)lroundf(x + w) - X, H = (int)lroundf(y + h) - Y;
    if (W <= 0 || H <= 0)
        return;
    int rows = (int)fminf(radius, (float)(W < H ? W : H) / 2);
    if (rows > 64)
        rows = 64;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_Rect rects[2 * 64 + 1];
    int n = 0;
    for (int i = 0; i < rows; i++) {
        int in = (int)lroundf(inset((float)rows, i));
        rects[n++] = (SDL_Rect){X + in, Y + i, W - 2 * in, 1};
        rects[n++] = (SDL_Rect){X + in, Y + H - i - 1, W - 2 * in, 1};
    }
    rects[n++] = (SDL_Rect){X, Y + rows, W, H - 2 * rows};
    SDL_RenderFillRects(r, rects, n);
}

void draw_round_box(SDL_Renderer *r, float x, float y, float w, float h, float radius, float t, SDL_Color border,
                    SDL_Color fill)
{
    draw_round_fill(r, x, y, w, h, radius, border);
    draw_round_fill(r, x + t, y + t, w - 2 * t, h - 2 * t, radius - t > 1 ? radius - t : 1, fill);
}

void draw_circle(SDL_Renderer *r, float cx, float cy, float radius, SDL_Color c)
{
    draw_round_fill(r, cx - radius, cy - radius, 2 * radius, 2 * radius, radius, c);
}

void draw_arrowhead(SDL_Renderer *r, float x, float y, draw_dir_t dir, float length, float width, SDL_Color c)
{
    int steps = (int)ceilf(length);
    if (steps < 1)
        return;
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    /* One rectangle per pixel step back from the tip, as wide as the arrow is there. */
    for (int k = 0; k < steps; k++) {
        float across = width * ((float)k + 1) / (float)steps, at = (float)k;
        SDL_FRect rect;
        switch (dir) {
        case DRAW_RIGHT: rect = (SDL_FRect){x - at - 1, y - across / 2, 1, across}; break;
        case DRAW_LEFT: rect = (SDL_FRect){x + at, y - across / 2, 1, across}; break;
        case DRAW_DOWN: rect = (SDL_FRect){x - across / 2, y - at - 1, across, 1}; break;
        default: rect = (SDL_FRect){x - across / 2, y + at, across, 1}; break;
        }
        SDL_RenderFillRectF(r, &rect);
    }
}
