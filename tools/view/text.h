/*
 * Text for the viewer: DejaVu fonts through SDL2_ttf, found at run time, with every glyph rendered once
 * per font size into a texture and then only copied (a frame draws thousands of characters).
 */
#ifndef VIEW_TEXT_H
#define VIEW_TEXT_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum text_face { FACE_SANS, FACE_BOLD, FACE_MONO, FACE_COUNT } text_face_t;

enum { TEXT_GLYPH_SLOTS = 512, TEXT_MAX_FONTS = 32 };

typedef struct text_glyph {
    uint32_t cp; /* 0: empty slot */
    SDL_Texture *tex;
    int w, h, advance;
} text_glyph_t;

typedef struct text_font {
    TTF_Font *ttf;
    text_face_t face;
    int size;
    int height, ascent;
    text_glyph_t glyphs[TEXT_GLYPH_SLOTS];
} text_font_t;

typedef struct text {
    SDL_Renderer *ren;
    char *paths[FACE_COUNT];
    text_font_t *fonts[TEXT_MAX_FONTS];
    size_t nfonts;
    bool ttf_started; /* this text_t holds one of SDL2_ttf's init counts */
} text_t;

/* Finds the fonts (dir: a folder to look in first, or NULL; then $IWARP_FONT_DIR, then the usual system
 * folders). Returns 0, or -1 with a message that says where it looked and what to install. */
int text_init(text_t *t, SDL_Renderer *ren, const char *dir, char *err, size_t errlen);
void text_free(text_t *t);

/* Call before drawing a frame: fonts from an earlier frame may be closed then (never during one). */
void text_frame(text_t *t);
/* The font of that face and pixel size (opened once, NULL if it cannot be). */
text_font_t *text_font(text_t *t, text_face_t face, int size);

/* Draws UTF-8 text with its top-left corner at (x, y); returns its width. */
int text_draw(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c);
int text_draw_n(text_t *t, text_font_t *f, int x, int y, const char *s, size_t n, SDL_Color c);
int text_width(text_t *t, text_font_t *f, const char *s);
int text_width_n(text_t *t, text_font_t *f, const char *s, size_t n);
/* Draws right-aligned so the text ends at x. */
int text_draw_right(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c);
/* Draws centred on x. */
int text_draw_centred(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c);
/* Wraps at spaces to `width`; draws only if draw is true; returns the height used. Lines start at y and go
 * down by the font's height times `spacing`. */
int text_wrap(text_t *t, text_font_t *f, int x, int y, int width, const char *s, SDL_Color c, bool draw,
              double spacing);
/* Cuts s so that it fits in `width` pixels, ending with "..." when cut; writes into buf. */
const char *text_fit(text_t *t, text_font_t *f, const char *s, int width, char *buf, size_t cap);

#endif
