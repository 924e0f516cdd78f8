/* Fonts found at run time and glyphs cached as textures. */
#include "text.h"

#include "util.h"

#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The font file fontconfig picks for a pattern such as "DejaVu Sans:style=Bold" (what the system would use
 * for it, substitutes included), or NULL. */
static char *fontconfig_file(const char *pattern)
{
    if (!FcInit())
        return NULL;
    FcPattern *pat = FcNameParse((const FcChar8 *)pattern);
    char *path = NULL;
    if (pat != NULL) {
        FcConfigSubstitute(NULL, pat, FcMatchPattern);
        FcDefaultSubstitute(pat);
        FcResult result;
        FcPattern *match = FcFontMatch(NULL, pat, &result);
        FcChar8 *file = NULL;
        if (match != NULL && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
            access((const char *)file, R_OK) == 0)
            path = strdup((const char *)file);
        if (match != NULL)
            FcPatternDestroy(match);
        FcPatternDestroy(pat);
    }
    return path;
}

/* --font-dir, then $IWARP_FONT_DIR (a folder holding `name`), then fontconfig (`pattern`): the system's fonts
 * wherever they are installed. fonts-dejavu-core (scripts/setup.sh) gives the faces the golden frames use. */
static char *find_font(const char *first_dir, const char *name, const char *pattern)
{
    const char *env = getenv("IWARP_FONT_DIR");
    const char *dirs[2] = {first_dir, env != NULL && env[0] != '\0' ? env : NULL};
    for (size_t i = 0; i < 2; i++) {
        if (dirs[i] == NULL)
            continue;
        char *p = join(dirs[i], name);
        if (p != NULL && access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return fontconfig_file(pattern);
}

int text_init(text_t *t, SDL_Renderer *ren, const char *dir, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->ren = ren;
    if (TTF_Init() != 0)
        return err_set(err, errlen, "SDL2_ttf: %s", TTF_GetError());
    t->ttf_started = true;
    static const char *const names[FACE_COUNT] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"};
    static const char *const patterns[FACE_COUNT] = {"DejaVu Sans:style=Book", "DejaVu Sans:style=Bold",
                                                     "DejaVu Sans Mono:style=Book"};
    for (int f = 0; f < FACE_COUNT; f++)
        t->paths[f] = find_font(dir, names[f], patterns[f]);
    FcFini(); /* the paths are ours now: fontconfig's configuration and caches go (leak checkers see them) */
    /* Bold is a nicety: the regular face drawn with SDL_ttf's bold style stands in for it. */
    if (t->paths[FACE_BOLD] == NULL && t->paths[FACE_SANS] != NULL)
        t->paths[FACE_BOLD] = strdup(t->paths[FACE_SANS]);
    if (t->paths[FACE_SANS] == NULL || t->paths[FACE_MONO] == NULL) {
        text_free(t);
        return err_set(err, errlen,
                       "no font found: looked for DejaVuSans.ttf and DejaVuSansMono.ttf in %s$IWARP_FONT_DIR, "
                       "then asked fontconfig for DejaVu Sans and DejaVu Sans Mono; install "
                       "fonts-dejavu-core (scripts/setup.sh does) or point --font-dir or IWARP_FONT_DIR at a folder "
                       "holding them",
                       dir != NULL ? "--font-dir, " : "");
    }
    return 0;
}

static void close_fonts(text_t *t)
{
    for (size_t i = 0; i < t->nfonts; i++) {
        text_font_t *f = t->fonts[i];
        for (int g = 0; g < TEXT_GLYPH_SLOTS; g++)
            if (f->glyphs[g].tex != NULL)
                SDL_DestroyTexture(f->glyphs[g].tex);
        TTF_CloseFont(f->ttf);
        free(f);
    }
    t->nfonts = 0;
}

void text_frame(text_t *t)
{
    /* Many window sizes came and went: start the cache again rather than grow without end. Only between
     * frames, when nobody holds a font. */
    if (t->nfonts > TEXT_MAX_FONTS - 8)
        close_fonts(t);
}

void text_free(text_t *t)
{
    close_fonts(t);
    for (int f = 0; f < FACE_COUNT; f++)
        free(t->paths[f]);
    if (t->ttf_started)
        TTF_Quit();
    memset(t, 0, sizeof *t);
}

text_font_t *text_font(text_t *t, text_face_t face, int size)
{
    if (size < 6)
        size = 6;
    for (size_t i = 0; i < t->nfonts; i++)
        if (t->fonts[i]->face == face && t->fonts[i]->size == size)
            return t->fonts[i];
    if (t->nfonts == TEXT_MAX_FONTS) {
        /* Full until the next frame starts (text_frame): the nearest size of the face will do. */
        text_font_t *best = NULL;
        for (size_t i = 0; i < t->nfonts; i++)
            if (t->fonts[i]->face == face && (best == NULL || abs(t->fonts[i]->size - size) < abs(best->size - size)))
                best = t->fonts[i];
        return best;
    }
    text_font_t *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->ttf = TTF_OpenFont(t->paths[face], size);
    if (f->ttf == NULL) {
        free(f);
        return NULL;
    }
    if (face == FACE_BOLD && strcmp(t->paths[FACE_BOLD], t->paths[FACE_SANS]) == 0)
        TTF_SetFontStyle(f->ttf, TTF_STYLE_BOLD);
    TTF_SetFontHinting(f->ttf, TTF_HINTING_LIGHT);
    f->face = face;
    f->size = size;
    f->height = TTF_FontHeight(f->ttf);
    f->ascent = TTF_FontAscent(f->ttf);
    t->fonts[t->nfonts++] = f;
    return f;
}

/* Decodes one UTF-8 character; malformed bytes come out as '?'. */
static uint32_t utf8_next(const char **s, const char *end)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = *p++;
    int more = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (more < 0) {
        *s = (const char *)p;
        return '?';
    }
    c &= more == 0 ? 0x7f : more == 1 ? 0x1f : more == 2 ? 0x0f : 0x07;
    for (int i = 0; i < more; i++) {
        if ((const char *)p >= end || (*p & 0xc0) != 0x80) {
            *s = (const char *)p;
            return '?';
        }
        c = c << 6 | (*p++ & 0x3f);
    }
    *s = (const char *)p;
    return c;
}

static text_glyph_t *glyph(text_t *t, text_font_t *f, uint32_t cp)
{
    unsigned h = (cp * 2654435761u) >> 23; /* 9 bits: TEXT_GLYPH_SLOTS */
    for (unsigned probe = 0; probe < TEXT_GLYPH_SLOTS; probe++) {
        text_glyph_t *g = &f->glyphs[(h + probe) % TEXT_GLYPH_SLOTS];
        if (g->cp == cp)
            return g;
        if (g->cp != 0)
            continue;
        int minx, maxx, miny, maxy, adv;
        if (cp > 0xffff || !TTF_GlyphIsProvided32(f->ttf, cp) ||
            TTF_GlyphMetrics32(f->ttf, cp, &minx, &maxx, &miny, &maxy, &adv) != 0)
            return cp == '?' ? NULL : glyph(t, f, '?');
        g->cp = cp;
        g->advance = adv;
        if (cp != ' ') {
            SDL_Surface *s = TTF_RenderGlyph32_Blended(f->ttf, cp, (SDL_Color){255, 255, 255, 255});
            if (s != NULL) {
                g->tex = SDL_CreateTextureFromSurface(t->ren, s);
                g->w = s->w;
                g->h = s->h;
                SDL_FreeSurface(s);
                if (g->tex != NULL)
                    SDL_SetTextureBlendMode(g->tex, SDL_BLENDMODE_BLEND);
            }
        }
        return g;
    }
    return NULL;
}

int text_draw_n(text_t *t, text_font_t *f, int x, int y, const char *s, size_t n, SDL_Color c)
{
    if (f == NULL)
        return 0;
    const char *end = s + n;
    int pen = x;
    while (s < end && *s != '\0') {
        text_glyph_t *g = glyph(t, f, utf8_next(&s, end));
        if (g == NULL)
            continue;
        if (g->tex != NULL) {
            SDL_SetTextureColorMod(g->tex, c.r, c.g, c.b);
            SDL_SetTextureAlphaMod(g->tex, c.a);
            SDL_Rect dst = {pen, y, g->w, g->h};
            SDL_RenderCopy(t->ren, g->tex, NULL, &dst);
        }
        pen += g->advance;
    }
    return pen - x;
}

int text_draw(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c)
{
    return text_draw_n(t, f, x, y, s, strlen(s), c);
}

int text_width_n(text_t *t, text_font_t *f, const char *s, size_t n)
{
    if (f == NULL)
        return 0;
    const char *end = s + n;
    int w = 0;
    while (s < end && *s != '\0') {
        text_glyph_t *g = glyph(t, f, utf8_next(&s, end));
        if (g != NULL)
            w += g->advance;
    }
    return w;
}

int text_width(text_t *t, text_font_t *f, const char *s)
{
    return text_width_n(t, f, s, strlen(s));
}

int text_draw_right(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c)
{
    int w = text_width(t, f, s);
    text_draw(t, f, x - w, y, s, c);
    return w;
}

int text_draw_centred(text_t *t, text_font_t *f, int x, int y, const char *s, SDL_Color c)
{
    int w = text_width(t, f, s);
    text_draw(t, f, x - w / 2, y, s, c);
    return w;
}

int text_wrap(text_t *t, text_font_t *f, int x, int y, int width, const char *s, SDL_Color c, bool draw, double spacing)
{
    if (f == NULL)
        return 0;
    int line_h = (int)(f->height * spacing + 0.5), used = 0;
    while (*s != '\0') {
        if (*s == '\n') {
            s++;
            used += line_h;
            continue;
        }
        /* The longest run of whole words that fits (at least one word, cut if it alone is too wide). */
        size_t fit = 0, i = 0;
        while (s[i] != '\0' && s[i] != '\n') {
            size_t j = i;
            while (s[j] == ' ')
                j++;
            while (s[j] != '\0' && s[j] != ' ' && s[j] != '\n')
                j++;
            if (text_width_n(t, f, s, j) > width && fit > 0)
                break;
            fit = j;
            i = j;
            if (text_width_n(t, f, s, j) > width)
                break;
        }
        if (draw)
            text_draw_n(t, f, x, y + used, s, fit, c);
        used += line_h;
        s += fit;
        while (*s == ' ')
            s++;
        if (*s == '\n')
            s++;
    }
    return used;
}

const char *text_fit(text_t *t, text_font_t *f, const char *s, int width, char *buf, size_t cap)
{
    size_t n = strlen(s);
    if (text_width_n(t, f, s, n) <= width || cap < 4) {
        snprintf(buf, cap, "%s", s);
        return buf;
    }
    int dots = text_width(t, f, "...");
    while (n > 0 && text_width_n(t, f, s, n) + dots > width)
        n--;
    /* Do not cut a UTF-8 character in two. */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    if (n + 4 > cap)
        n = cap - 4;
    memcpy(buf, s, n);
    memcpy(buf + n, "...", 4);
    return buf;
}
