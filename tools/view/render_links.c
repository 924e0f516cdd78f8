/* The links of the torus grid: each direction's lane with its utilization and pathways, the words in flight, and
 * the outlines of a wait cycle or a traced pathway along them. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

/* The colours of the channels of a cell routed to link d, in channel order, and whether they hold words (a
 * pathway with nothing to send is drawn pale: static pathways are set up long before use). */
static unsigned link_paths(const render_t *r, const view_model_t *m, unsigned cell, unsigned d, SDL_Color *colours,
                           bool *busy, unsigned cap)
{
    unsigned n = 0;
    const uint64_t *c = m->slots + (size_t)cell * m->l.cell_slots;
    for (unsigned lc = 0; lc < m->l.channels && n < cap; lc++) {
        const uint64_t *s = view_lc(m, c, lc);
        unsigned st = (unsigned)(s[VM_LC_A] & 0xff);
        coa_end_t route = coa_end_decode((uint32_t)(s[VM_LC_ENDS] & 0xffff));
        if ((st == COA_LC_ROUTED || st == COA_LC_DRAINING) && route.kind == COA_END_LINK && route.dir == d) {
            busy[n] = (s[VM_LC_A] >> 32 & 0xffff) != 0;
            colours[n++] = render_lc_colour(r, m, cell, lc);
        }
    }
    return n;
}

/* One directed lane, drawn from (x0,y0) to (x1,y1) along an axis, as a band `band` wide: utilization
 * colour behind, pathway stripes, the arrowhead (the words in flight go on top later: draw_words). */
static void lane(render_t *r, float x0, float y0, float x1, float y1, float band, float util, const SDL_Color *paths,
                 const bool *busy, unsigned npaths, bool head)
{
    SDL_Renderer *ren = r->ren;
    bool horiz = fabsf(y1 - y0) < 0.5f;
    float len = horiz ? fabsf(x1 - x0) : fabsf(y1 - y0), sx = x1 > x0 ? 1.0f : -1.0f, sy = y1 > y0 ? 1.0f : -1.0f;
    float arrow = fminf(band * 1.1f, len * 0.35f);
    float body = head ? len - arrow : len;
    SDL_Color uc = render_util_colour(util);
    float thin = fmaxf(2.0f, band * (0.25f + 0.75f * util));
    if (npaths == 0) {
        /* No pathway: a thin line whose width and colour grow with the utilization. */
        if (horiz)
            draw_fill(ren, fminf(x0, x0 + sx * body), y0 - thin / 2, body, thin, uc);
        else
            draw_fill(ren, x0 - thin / 2, fminf(y0, y0 + sy * body), thin, body, uc);
    } else {
        /* The band in the utilization colour, the pathways as stripes inside it. */
        if (horiz)
            draw_fill(ren, fminf(x0, x0 + sx * body), y0 - band / 2, body, band, uc);
        else
            draw_fill(ren, x0 - band / 2, fminf(y0, y0 + sy * body), band, body, uc);
        float inner = band * 0.8f, w = inner / (float)npaths;
        for (unsigned i = 0; i < npaths; i++) {
            float off = -inner / 2 + w * (float)i;
            SDL_Color c = paths[i];
            if (!busy[i])
                c = color_mix(c, render_theme()->bg, 0.6f);
            if (horiz)
                draw_fill(ren, fminf(x0, x0 + sx * body), y0 + off, body, fmaxf(w - 1, 1.5f), c);
            else
                draw_fill(ren, x0 + off, fminf(y0, y0 + sy * body), fmaxf(w - 1, 1.5f), body, c);
        }
    }
    if (head) {
        float hb = npaths > 0 ? band : fmaxf(thin * 2.2f, band * 0.8f);
        draw_dir_t dir = horiz ? (sx > 0 ? DRAW_RIGHT : DRAW_LEFT) : (sy > 0 ? DRAW_DOWN : DRAW_UP);
        draw_arrowhead(ren, x1, y1, dir, arrow, hb + 2, uc);
    }
}

/* Where link d of cell (x, y) is drawn: straight across the gap to the neighbour, or, for a wrap-around link
 * of the torus, in two halves through the margins (out through this edge of the grid, in through the other). */
typedef struct lane_geom {
    unsigned nseg;
    struct {
        float x0, y0, x1, y1;
        float from, to; /* the part of the whole link this segment covers */
        bool head;      /* it ends in the arrowhead */
    } seg[2];
    bool horiz, wraps;
    float side;        /* where across the cell the lane runs: 0.36 or 0.64 of the box */
    float pos;         /* its y (horizontal) or x (vertical) */
    float start, sign; /* where it leaves the cell, and which way along the axis */
} lane_geom_t;

static float lane_band(const render_layout_t *L)
{
    float band = fminf(L->gap * 0.32f, fminf(L->box_w, L->box_h) * 0.17f);
    return band < 3 ? 3 : band > 24 * L->s ? 24 * L->s : band;
}

static void lane_geometry(const render_layout_t *L, unsigned x, unsigned y, unsigned d, lane_geom_t *g)
{
    float bx, by;
    render_cell_origin(L, x, y, &bx, &by);
    bool horiz = d == COA_DIR_PX || d == COA_DIR_MX;
    unsigned size = horiz ? L->cw : L->ch;
    /* +X and +Y lanes run on one side of the cell's middle, -X and -Y on the other. */
    g->horiz = horiz;
    g->side = (d == COA_DIR_PX || d == COA_DIR_MY) ? 0.36f : 0.64f;
    g->pos = horiz ? by + L->box_h * g->side : bx + L->box_w * (1 - g->side);
    bool positive = d == COA_DIR_PX || d == COA_DIR_PY;
    unsigned coord = horiz ? x : y;
    g->wraps = positive ? coord == size - 1 : coord == 0;
    g->start = horiz ? (positive ? bx + L->box_w : bx) : (positive ? by + L->box_h : by);
    g->sign = positive ? 1.0f : -1.0f;
    float a[2], b[2];
    if (!g->wraps) {
        g->nseg = 1;
        a[0] = g->start, b[0] = g->start + g->sign * L->gap;
        g->seg[0].from = 0, g->seg[0].to = 1, g->seg[0].head = true;
    } else {
        float stub = L->gap * 0.9f;
        float far = horiz ? (positive ? L->ox : L->ox + (float)(size - 1) * L->pitch_x + L->box_w)
                          : (positive ? L->oy : L->oy + (float)(size - 1) * L->pitch_y + L->box_h);
        g->nseg = 2;
        a[0] = g->start, b[0] = g->start + g->sign * stub;
        a[1] = far - g->sign * stub, b[1] = far;
        g->seg[0].from = 0, g->seg[0].to = 0.5f, g->seg[0].head = false;
        g->seg[1].from = 0.5f, g->seg[1].to = 1, g->seg[1].head = true;
    }
    for (unsigned i = 0; i < g->nseg; i++) {
        g->seg[i].x0 = horiz ? a[i] : g->pos;
        g->seg[i].y0 = horiz ? g->pos : a[i];
        g->seg[i].x1 = horiz ? b[i] : g->pos;
        g->seg[i].y1 = horiz ? g->pos : b[i];
    }
}

/* Beside a lane, on the side away from its partner: its utilization ("100%", on large cells) and, on a traced
 * pathway, beyond it the hop's number in a disc of the selection's colour (1 the first). */
static void lane_label(render_t *r, const lane_geom_t *g, float band, text_font_t *small, const char *pct, unsigned hop)
{
    const render_layout_t *L = &r->lay;
    float mid = g->start + g->sign * (g->wraps ? L->gap * 0.9f : L->gap) / 2;
    bool outer_low = g->side < 0.5f; /* the label goes above (horizontal) or right of (vertical) the lane */
    /* How far from the lane's middle line the labels so far reach. */
    float reach = band;
    if (pct[0] != '\0') {
        int tw = text_width(&r->text, small, pct);
        if (g->horiz) {
            float y = outer_low ? g->pos - band - (float)small->height : g->pos + band * 0.9f;
            text_draw_centred(&r->text, small, (int)mid, (int)y, pct, render_theme()->muted);
            reach = outer_low ? g->pos - y : y + (float)small->height - g->pos;
        } else {
            float x = outer_low ? g->pos + band : g->pos - band - (float)tw;
            text_draw(&r->text, small, (int)x, (int)(mid - (float)small->height / 2), pct, render_theme()->muted);
            reach = band + (float)tw;
        }
    }
    float rad = fmaxf(band * 0.55f, 9 * L->t);
    text_font_t *nf = hop > 0 ? text_font(&r->text, FACE_BOLD, (int)fmaxf(rad * 1.25f, 8)) : NULL;
    if (nf == NULL || L->gap < 2 * rad + 4)
        return; /* no room: the pathway's frames alone show the way */
    float off = reach + 3 + rad, sgn = outer_low ? -1.0f : 1.0f;
    float cx = g->horiz ? mid : g->pos - sgn * off, cy = g->horiz ? g->pos + sgn * off : mid;
    char num[16];
    snprintf(num, sizeof num, "%u", hop);
    draw_circle(r->ren, cx, cy, rad, render_theme()->selected);
    text_draw_centred(&r->text, nf, (int)cx, (int)(cy - (float)nf->height / 2), num, render_theme()->panel);
}

/* Every outgoing link of every cell, with its utilization, pathways and the word on the wire; hop_at (or NULL)
 * numbers the links of a traced pathway, per cell and direction (0: not on it). */
void render_draw_links(render_t *r, const render_frame_t *f, const uint16_t *hop_at)
{
    const render_layout_t *L = &r->lay;
    const view_model_t *m = f->now;
    const view_layout_t *vl = &m->l;
    float band = lane_band(L);
    text_font_t *small =
        fminf(L->pitch_x, L->pitch_y) >= 150 * L->s ? text_font(&r->text, FACE_SANS, (int)(11 * L->t)) : NULL;
    for (unsigned y = 0; y < vl->height; y++) {
        for (unsigned x = 0; x < vl->width; x++) {
            const uint64_t *cell = view_cell(m, x, y);
            unsigned idx = y * vl->width + x;
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                bool horiz = d == COA_DIR_PX || d == COA_DIR_MX;
                unsigned size = horiz ? vl->width : vl->height;
                const uint64_t *link = view_link(m, cell, d);
                /* A ring of one cell links a cell to itself: only worth drawing once it carried a word. */
                if (size == 1 && link[VM_LINK_WORDS] == 0)
                    continue;
                SDL_Color paths[COA_MAX_CHANNELS];
                bool busy[COA_MAX_CHANNELS];
                unsigned np = link_paths(r, m, idx, d, paths, busy, COA_MAX_CHANNELS);
                float util = render_link_util(f, idx, d);
                lane_geom_t g;
                lane_geometry(L, x, y, d, &g);
                for (unsigned i = 0; i < g.nseg; i++)
                    lane(r, g.seg[i].x0, g.seg[i].y0, g.seg[i].x1, g.seg[i].y1, band, util, paths, busy, np,
                         g.seg[i].head);
                char pct[16] = "";
                if (small != NULL && util > 0.005f)
                    snprintf(pct, sizeof pct, "%.0f%%", util * 100);
                unsigned hop = hop_at != NULL ? hop_at[idx * COA_NUM_DIRS + d] : 0;
                if (pct[0] != '\0' || hop > 0)
                    lane_label(r, &g, band, small, pct, hop);
            }
        }
    }
}


/* The words in flight: a dot in the pathway's colour where each link's last word is, over everything else on
 * the links (a traced pathway's hop numbers included), gliding between clocks when the play is slow. */
void render_draw_words(render_t *r, const render_frame_t *f)
{
    const render_layout_t *L = &r->lay;
    const view_model_t *m = f->now;
    const view_layout_t *vl = &m->l;
    float band = lane_band(L), rad = fminf(fmaxf(3.0f, band * 0.5f), band * 0.3f + 4);
    for (unsigned y = 0; y < vl->height; y++)
        for (unsigned x = 0; x < vl->width; x++) {
            const uint64_t *cell = view_cell(m, x, y);
            for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
                float word = render_word_pos(f, cell, d);
                if (word < 0)
                    continue;
                const uint64_t *link = view_link(m, cell, d);
                SDL_Color wc =
                    render_path_colour(view_lc(m, cell, (unsigned)(link[VM_LINK_LC] % vl->channels))[VM_LC_PATH]);
                lane_geom_t g;
                lane_geometry(L, x, y, d, &g);
                for (unsigned i = 0; i < g.nseg; i++) {
                    if (word < g.seg[i].from || word >= g.seg[i].to)
                        continue;
                    float t = (word - g.seg[i].from) / (g.seg[i].to - g.seg[i].from);
                    float wx = g.seg[i].x0 + (g.seg[i].x1 - g.seg[i].x0) * t,
                          wy = g.seg[i].y0 + (g.seg[i].y1 - g.seg[i].y0) * t;
                    draw_circle(r->ren, wx, wy, rad + 1.5f, render_theme()->text);
                    draw_circle(r->ren, wx, wy, rad, wc);
                }
            }
        }
}

unsigned render_lane_rects(const render_t *r, unsigned cell, unsigned d, SDL_Rect rects[2])
{
    const render_layout_t *L = &r->lay;
    if (d >= COA_NUM_DIRS || cell >= L->cw * L->ch)
        return 0;
    lane_geom_t g;
    lane_geometry(L, cell % L->cw, cell / L->cw, d, &g);
    float band = lane_band(L);
    for (unsigned i = 0; i < g.nseg; i++) {
        float x0 = fminf(g.seg[i].x0, g.seg[i].x1), y0 = fminf(g.seg[i].y0, g.seg[i].y1);
        float len = g.horiz ? fabsf(g.seg[i].x1 - g.seg[i].x0) : fabsf(g.seg[i].y1 - g.seg[i].y0);
        rects[i] = g.horiz ? (SDL_Rect){(int)x0, (int)(y0 - band / 2), (int)len, (int)band}
                           : (SDL_Rect){(int)(x0 - band / 2), (int)y0, (int)band, (int)len};
    }
    return g.nseg;
}

/* A frame round link d of `cell`, `t` wide outside its band: drawn before the links, it shows round them. */
static void outline_lane(render_t *r, unsigned cell, unsigned d, float t, SDL_Color c)
{
    SDL_Rect seg[2];
    unsigned n = render_lane_rects(r, cell, d, seg);
    for (unsigned i = 0; i < n; i++)
        draw_fill(r->ren, (float)seg[i].x - t, (float)seg[i].y - t, (float)seg[i].w + 2 * t, (float)seg[i].h + 2 * t,
                  c);
}

/* How far outside a lane the cycle's and the pathway's frames reach: the pathway's inside the cycle's, so a
 * link on both shows both. */
static float cycle_frame(const render_layout_t *L)
{
    return fmaxf(3, lane_band(L) * 0.4f);
}

static float path_frame(const render_layout_t *L)
{
    return fmaxf(2, lane_band(L) * 0.28f);
}

/* The links of the wait cycle and of the traced pathway, framed, under the links themselves. */
void render_draw_lane_frames(render_t *r, const render_frame_t *f, const view_hop_t *hops, unsigned nhops)
{
    const render_layout_t *L = &r->lay;
    for (unsigned k = 0; k < f->ncycle && f->cycle != NULL; k++)
        outline_lane(r, f->cycle[k].lane_cell, f->cycle[k].lane_dir, cycle_frame(L), render_theme()->cycle);
    for (unsigned k = 0; k + 1 < nhops; k++) {
        view_lc_info_t li;
        view_lc_unpack(f->now, f->now->slots + (size_t)hops[k].cell * f->now->l.cell_slots, hops[k].lc, &li);
        outline_lane(r, hops[k].cell, li.route.dir, path_frame(L), render_theme()->selected);
    }
}
