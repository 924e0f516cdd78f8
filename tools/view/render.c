/* The frame's layout and the torus grid: rulers, cells and their channel bars, the dateline, the minimap; the links
 * are render_links.c's. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

/* The colours: palette.def, which the web page shares. */
static const render_theme_t theme = {
#define THEME(name, v) .name = {(Uint8)((v) >> 16), (Uint8)((v) >> 8 & 0xff), (Uint8)((v)&0xff), 255},
#define PATH(v)
#include "palette.def"
#undef THEME
#undef PATH
};
static const unsigned path_palette[] = {
#define THEME(name, v)
#define PATH(v) v,
#include "palette.def"
#undef THEME
#undef PATH
};

const render_theme_t *render_theme(void)
{
    return &theme;
}

SDL_Color render_path_colour(uint64_t path)
{
    if (path == 0)
        return theme.halted;
    return rgb(path_palette[(path - 1) % (sizeof path_palette / sizeof path_palette[0])]);
}

SDL_Color render_lc_colour(const render_t *r, const view_model_t *m, unsigned cell, unsigned lc)
{
    size_t i = (size_t)cell * m->l.channels + lc;
    if (r->fed != NULL && i < r->fed_cap && !r->fed[i])
        return color_mix(theme.halted, theme.bg, 0.25f);
    return render_path_colour(m->slots[view_lc_slot(m, cell, lc) + VM_LC_PATH]);
}

/* Which channels belong to a pathway that carries something (view_model_fed). */
static void find_fed(render_t *r, const view_model_t *m)
{
    size_t n = (size_t)m->l.width * m->l.height * m->l.channels;
    if (n > r->fed_cap) {
        uint8_t *grown = realloc(r->fed, n);
        if (grown == NULL)
            return;
        r->fed = grown;
        r->fed_cap = n;
    }
    view_model_fed(m, r->fed);
}

SDL_Color render_util_colour(float u)
{
    return u < 0.5f ? color_mix(theme.util_lo, theme.util_mid, u * 2)
                    : color_mix(theme.util_mid, theme.util_hi, u * 2 - 1);
}

SDL_Color render_state(const view_model_t *m, const uint64_t *cell, bool has_program, char *label, size_t cap)
{
    (void)m;
    unsigned st = (unsigned)(cell[VM_CA] & 0xff), gate = (unsigned)(cell[VM_CA] >> 16 & 0xff);
    if (!has_program || st == CA_IDLE) {
        snprintf(label, cap, "idle");
        return theme.idle;
    }
    switch (st) {
    case CA_RUNNING: snprintf(label, cap, "run"); return theme.run;
    case CA_WAITING:
        if (gate < 2) {
            snprintf(label, cap, "in gi%u", gate);
            return theme.wait_in;
        }
        snprintf(label, cap, "out go%u", gate - 2);
        return theme.wait_out;
    case CA_HALTED: snprintf(label, cap, "halt"); return theme.halted;
    default: snprintf(label, cap, "fault"); return theme.fault;
    }
}

float render_link_util(const render_frame_t *f, unsigned cell, unsigned d)
{
    const view_layout_t *l = &f->now->l;
    uint64_t span = f->clock - f->past->clock;
    if (span == 0)
        return 0;
    const uint64_t *now = f->now->slots + (size_t)cell * l->cell_slots + l->link0 + d * VM_LINK_SLOTS;
    const uint64_t *past = f->past->slots + (size_t)cell * l->cell_slots + l->link0 + d * VM_LINK_SLOTS;
    /* Busy clocks are counted when a word leaves (link_clocks at once), so the window can run ahead. */
    float u = (float)(now[VM_LINK_BUSY] - past[VM_LINK_BUSY]) / (float)span;
    return u > 1 ? 1 : u;
}

float render_word_pos(const render_frame_t *f, const uint64_t *cell, unsigned d)
{
    const view_layout_t *l = &f->now->l;
    const uint64_t *link = view_link(f->now, cell, d);
    uint64_t sent = link[VM_LINK_SENT];
    if (sent == 0 || f->clock < sent)
        return -1;
    /* Sent in clock sent-1, in the next cell's queue hop_latency clocks later. */
    float p = ((float)(f->clock - sent) + f->frac + 0.5f) / (float)l->hop_latency;
    return p >= 1 ? -1 : p;
}

/* --- layout --- */

/* Below this many pixels a cell box has no room for its "(x,y)" title (draw_cells): rulers carry them. */
#define TITLE_MIN_BOX 34.0f

/* The pitch of a cell that fits `n` of them in `len` pixels, with half a pitch of margin for the wrap-around
 * links, capped so that a few cells do not grow huge. */
static float fit_pitch(int len, unsigned n, float s)
{
    return fminf((float)len / ((float)n + 0.5f), 260 * s);
}

static void layout(render_layout_t *L, const view_layout_t *vl, const render_frame_t *f, int w, int h)
{
    memset(L, 0, sizeof *L);
    L->w = w;
    L->h = h;
    float s = fminf((float)w / 1280.0f, (float)h / 800.0f);
    s = s < 0.6f ? 0.6f : s > 2.0f ? 2.0f : s;
    L->s = s;
    float u = f->scale >= 1 ? f->scale : 1, t = s * u;
    L->t = t;
    /* The panels grow with the text; the grid keeps at least a third of the width. */
    int top = (int)(54 * t), bottom = (int)(74 * t);
    int panel_w = (int)fminf(fmaxf((float)w * 0.31f * u, 320 * t), 480 * t);
    if (panel_w > w * 2 / 3)
        panel_w = w * 2 / 3;
    if (top + bottom > h / 3) { /* the bars keep their proportions in a third of the height */
        top = h * 54 / (3 * 128);
        bottom = h / 3 - top;
    }
    L->top = (SDL_Rect){0, 0, w, top};
    L->panel = (SDL_Rect){w - panel_w, top, panel_w, h - top};
    L->timeline = (SDL_Rect){0, h - bottom, w - panel_w, bottom};
    int pad = (int)(10 * s);
    L->grid = (SDL_Rect){pad, top + pad, w - panel_w - 2 * pad, h - top - bottom - 2 * pad};
    L->bar = (SDL_Rect){L->timeline.x + (int)(24 * t), L->timeline.y + (int)(14 * t), L->timeline.w - (int)(48 * t),
                        (int)(14 * t)};
    L->cw = vl->width;
    L->ch = vl->height;
    L->zoom = f->zoom > 1 ? f->zoom : 1;
    float px = fit_pitch(L->grid.w, vl->width, s) * L->zoom, py = fit_pitch(L->grid.h, vl->height, s) * L->zoom;
    /* Cells too small for their titles: numbered rulers along the top and left of the grid instead, readable
     * at any size (a font of at least 10 px), taking their room from the grid. */
    if (fminf(px, py) * 0.72f < TITLE_MIN_BOX) {
        L->rulers = true;
        L->ruler_font = (int)fmaxf(10, 12 * t);
        int band = (int)((float)L->ruler_font * 1.6f), left = (int)((float)L->ruler_font * 1.9f);
        L->ruler_x = (SDL_Rect){L->grid.x + left, L->grid.y, L->grid.w - left, band};
        L->ruler_y = (SDL_Rect){L->grid.x, L->grid.y + band, left, L->grid.h - band};
        L->grid = (SDL_Rect){L->grid.x + left, L->grid.y + band, L->grid.w - left, L->grid.h - band};
        px = fit_pitch(L->grid.w, vl->width, s) * L->zoom;
        py = fit_pitch(L->grid.h, vl->height, s) * L->zoom;
    }
    float small = fminf(px, py);
    /* Large cells get wider gaps: the links are half of what a demo shows. */
    L->gap = small * (small > 150 * s ? 0.32f : 0.28f);
    /* Cells may be oblong (a single row gets taller cells), but not much. */
    float bw = px - L->gap, bh = py - L->gap;
    bw = fminf(bw, bh * 1.3f);
    bh = fminf(bh, bw * 1.3f);
    L->box_w = bw;
    L->box_h = bh;
    L->pitch_x = bw + L->gap;
    L->pitch_y = bh + L->gap;
    /* The middle of the grid shows (view_x, view_y): the array's middle when it all fits, else where the user
     * looks, kept so that the grid never shows past the array's edges. */
    float half_x = (float)L->grid.w / 2 / L->pitch_x, half_y = (float)L->grid.h / 2 / L->pitch_y;
    float mid_x = (float)vl->width / 2, mid_y = (float)vl->height / 2;
    float vx = f->view_x >= 0 && half_x < mid_x ? f->view_x : mid_x,
          vy = f->view_y >= 0 && half_y < mid_y ? f->view_y : mid_y;
    if (half_x < mid_x)
        vx = fminf(fmaxf(vx, half_x - 0.25f), (float)vl->width - half_x + 0.25f);
    if (half_y < mid_y)
        vy = fminf(fmaxf(vy, half_y - 0.25f), (float)vl->height - half_y + 0.25f);
    L->view_x = vx;
    L->view_y = vy;
    L->ox = (float)L->grid.x + (float)L->grid.w / 2 - vx * L->pitch_x + L->gap / 2;
    L->oy = (float)L->grid.y + (float)L->grid.h / 2 - vy * L->pitch_y + L->gap / 2;
    if (L->rulers) {
        /* A number every 1, 2, 4, 5, 8, 10 or 16 columns: as often as they fit apart. */
        static const unsigned steps[] = {1, 2, 4, 5, 8, 10, 16, 32};
        float need = (float)L->ruler_font * 1.5f;
        L->ruler_step = 32;
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
            if (fminf(L->pitch_x, L->pitch_y) * (float)steps[i] >= need) {
                L->ruler_step = steps[i];
                break;
            }
    }
    if (L->zoom > 1) {
        float side = fminf(150 * s, fminf((float)L->grid.w, (float)L->grid.h) * 0.3f);
        float cell = side / (float)(vl->width > vl->height ? vl->width : vl->height);
        int mw = (int)(cell * (float)vl->width), mh = (int)(cell * (float)vl->height);
        L->minimap = (SDL_Rect){L->grid.x + L->grid.w - mw - pad, L->grid.y + L->grid.h - mh - pad, mw, mh};
    }
}

bool render_ruler_label(const render_t *r, bool x_axis, unsigned i, SDL_Rect *where)
{
    const render_layout_t *L = &r->lay;
    if (!L->rulers || L->ruler_step == 0 || i % L->ruler_step != 0 || i >= (x_axis ? L->cw : L->ch))
        return false;
    char num[16];
    snprintf(num, sizeof num, "%u", i);
    int tw = (int)((float)L->ruler_font * 0.62f * (float)strlen(num)) + 2; /* an estimate, for hit tests */
    if (x_axis) {
        float mid = L->ox + (float)i * L->pitch_x + L->box_w / 2;
        *where = (SDL_Rect){(int)mid - tw / 2, L->ruler_x.y + (L->ruler_x.h - L->ruler_font) / 2, tw, L->ruler_font};
        return mid >= (float)L->ruler_x.x && mid <= (float)(L->ruler_x.x + L->ruler_x.w);
    }
    float mid = L->oy + (float)i * L->pitch_y + L->box_h / 2;
    *where = (SDL_Rect){L->ruler_y.x + L->ruler_y.w - tw - 4, (int)mid - L->ruler_font / 2, tw, L->ruler_font};
    return mid >= (float)L->ruler_y.y && mid <= (float)(L->ruler_y.y + L->ruler_y.h);
}

void render_grid_coord(const render_t *r, int x, int y, float *cx, float *cy)
{
    const render_layout_t *L = &r->lay;
    *cx = L->pitch_x > 0 ? ((float)x - L->ox + L->gap / 2) / L->pitch_x : 0;
    *cy = L->pitch_y > 0 ? ((float)y - L->oy + L->gap / 2) / L->pitch_y : 0;
}

/* The numbers of the columns and rows, where the cells are too small to carry theirs. */
static void draw_rulers(render_t *r)
{
    const render_layout_t *L = &r->lay;
    if (!L->rulers)
        return;
    text_font_t *font = text_font(&r->text, FACE_SANS, L->ruler_font);
    if (font == NULL)
        return;
    for (int axis = 0; axis < 2; axis++) {
        const SDL_Rect *band = axis == 0 ? &L->ruler_x : &L->ruler_y;
        SDL_RenderSetClipRect(r->ren, band);
        unsigned n = axis == 0 ? L->cw : L->ch;
        for (unsigned i = 0; i < n; i++) {
            SDL_Rect at;
            if (!render_ruler_label(r, axis == 0, i, &at))
                continue;
            char num[16];
            snprintf(num, sizeof num, "%u", i);
            if (axis == 0)
                text_draw_centred(&r->text, font, at.x + at.w / 2, at.y, num, theme.text);
            else
                text_draw_right(&r->text, font, at.x + at.w, at.y, num, theme.text);
        }
    }
    SDL_RenderSetClipRect(r->ren, NULL);
}

int render_cell_at(const render_t *r, int x, int y)
{
    const render_layout_t *L = &r->lay;
    if (L->pitch_x <= 0 || L->pitch_y <= 0)
        return -1;
    float fx = ((float)x - L->ox) / L->pitch_x, fy = ((float)y - L->oy) / L->pitch_y;
    if (fx < 0 || fy < 0 || fx >= (float)L->cw || fy >= (float)L->ch)
        return -1;
    /* Only the box itself, not the link gap beside it. */
    if ((fx - floorf(fx)) * L->pitch_x > L->box_w || (fy - floorf(fy)) * L->pitch_y > L->box_h)
        return -1;
    return (int)fy * (int)L->cw + (int)fx;
}

int render_channel_at(const render_t *r, int x, int y)
{
    if (x < r->rows_x0 || x >= r->rows_x1)
        return -1;
    for (unsigned i = 0; i < r->nrows; i++)
        if (y >= r->rows[i].y0 && y < r->rows[i].y1)
            return (int)r->rows[i].lc;
    return -1;
}

bool render_timeline_at(const render_t *r, int x, int y, double *where)
{
    const SDL_Rect *b = &r->lay.bar;
    int slack = b->h;
    if (b->w <= 0 || x < b->x - slack || x > b->x + b->w + slack || y < b->y - slack || y > b->y + b->h + slack)
        return false;
    double t = (double)(x - b->x) / b->w;
    *where = t < 0 ? 0 : t > 1 ? 1 : t;
    return true;
}

/* The torus's seams, where the wrap-around links cross: the message passing runtime's dateline (docs/network.md,
 * "Pools and the dateline"), where a message moves from pool 0 to pool 1. Dashed, round the whole array. */
static void draw_dateline(render_t *r)
{
    const render_layout_t *L = &r->lay;
    SDL_Color c = color_mix(theme.fault, theme.bg, 0.35f);
    float x0 = L->ox - L->gap * 0.5f - L->gap * 0.45f, y0 = L->oy - L->gap * 0.5f - L->gap * 0.45f;
    float x1 = L->ox + (float)L->cw * L->pitch_x - L->gap * 0.5f + L->gap * 0.45f;
    float y1 = L->oy + (float)L->ch * L->pitch_y - L->gap * 0.5f + L->gap * 0.45f;
    float t = fmaxf(1.5f, L->s * 2), dash = fmaxf(6, 8 * L->s);
    for (float x = x0; x < x1; x += 2 * dash) {
        draw_fill(r->ren, x, y0 - t / 2, fminf(dash, x1 - x), t, c);
        draw_fill(r->ren, x, y1 - t / 2, fminf(dash, x1 - x), t, c);
    }
    for (float y = y0; y < y1; y += 2 * dash) {
        draw_fill(r->ren, x0 - t / 2, y, t, fminf(dash, y1 - y), c);
        draw_fill(r->ren, x1 - t / 2, y, t, fminf(dash, y1 - y), c);
    }
}

/* --- cells --- */

/* The x of channel lc's bar: the local pool, pool 0 and pool 1 of the default reservation are set apart. */
static float bar_x(unsigned lc, unsigned channels, float x0, float w, float *bw)
{
    bool grouped = channels == 20;
    float gaps = grouped ? 2 : 0, unit = w / ((float)channels + gaps * 0.8f);
    *bw = unit * 0.78f;
    float g = grouped ? (lc >= 8 ? 0.8f : 0) + (lc >= 16 ? 0.8f : 0) : 0;
    return x0 + unit * ((float)lc + g) + unit * 0.11f;
}

static void draw_bars(render_t *r, const view_model_t *m, unsigned idx, float x0, float y0, float w, float h)
{
    const view_layout_t *vl = &m->l;
    for (unsigned lc = 0; lc < vl->channels; lc++) {
        view_lc_info_t li;
        view_lc_unpack(m, m->slots + (size_t)idx * vl->cell_slots, lc, &li);
        float bw, bx = bar_x(lc, vl->channels, x0, w, &bw);
        if (li.state == COA_LC_FREE && li.count == 0) {
            draw_fill(r->ren, bx, y0, bw, h, theme.slot);
            continue;
        }
        SDL_Color c = render_lc_colour(r, m, idx, lc);
        draw_fill(r->ren, bx, y0, bw, h, color_mix(theme.cell, c, 0.28f));
        float fill = h * (float)(li.count > vl->queue_depth ? vl->queue_depth : li.count) / (float)vl->queue_depth;
        draw_fill(r->ren, bx, y0 + h - fill, bw, fill, c);
        /* A channel still setting up (header) or draining its last credits: a bar across its top. */
        if (li.state == COA_LC_HEADER || li.state == COA_LC_DRAINING || li.state == COA_LC_ARRIVED)
            draw_fill(r->ren, bx - 1, y0 - fmaxf(2, h * 0.06f), bw + 2, fmaxf(2, h * 0.06f),
                      li.state == COA_LC_HEADER ? theme.text : theme.muted);
    }
}

static bool in_cycle(const render_frame_t *f, unsigned cell)
{
    for (unsigned k = 0; k < f->ncycle && f->cycle != NULL; k++)
        if (f->cycle[k].cell == cell)
            return true;
    return false;
}

static void draw_cells(render_t *r, const render_frame_t *f)
{
    const render_layout_t *L = &r->lay;
    const view_model_t *m = f->now;
    const view_layout_t *vl = &m->l;
    float B = fminf(L->box_w, L->box_h), BW = L->box_w, BH = L->box_h, s = L->s;
    /* The presentation scale enlarges the cell's text as far as its box allows. */
    int title_size = (int)fminf(fmaxf(B * 0.13f, 9) * L->t / s, fminf(19 * L->t, B * 0.2f));
    text_font_t *title = B >= TITLE_MIN_BOX ? text_font(&r->text, FACE_BOLD, title_size) : NULL;
    text_font_t *badge = B >= 70 ? text_font(&r->text, FACE_SANS, (int)fmaxf(title_size * 0.8f, 8)) : NULL;
    text_font_t *mono = B >= 100 ? text_font(&r->text, FACE_MONO, (int)fmaxf(title_size * 0.78f, 8)) : NULL;
    text_font_t *tiny = B >= 150 ? text_font(&r->text, FACE_SANS, (int)fmaxf(title_size * 0.62f, 8)) : NULL;
    for (unsigned y = 0; y < vl->height; y++) {
        for (unsigned x = 0; x < vl->width; x++) {
            unsigned idx = y * vl->width + x;
            const uint64_t *cell = view_cell(m, x, y);
            float bx, by;
            render_cell_origin(L, x, y, &bx, &by);
            char label[32];
            bool has_prog = f->trace->st.cell_program[idx] != 0;
            SDL_Color sc = render_state(m, cell, has_prog, label, sizeof label);
            float border = fmaxf(2, B * 0.035f), radius = B * 0.08f;
            if (in_cycle(f, idx)) { /* outside the selection's ring, so that a cell on both shows both */
                float k = border * 1.6f + fmaxf(3, fminf(border, 6 * s));
                draw_round_fill(r->ren, bx - k, by - k, BW + 2 * k, BH + 2 * k, radius + k, theme.cycle);
            }
            if ((int)idx == f->selected)
                draw_round_fill(r->ren, bx - border * 1.6f, by - border * 1.6f, BW + border * 3.2f, BH + border * 3.2f,
                                radius + border * 1.6f, theme.selected);
            draw_round_box(r->ren, bx, by, BW, BH, radius, border, sc, theme.cell);
            float pad = B * 0.07f + border, ty = by + pad * 0.8f;
            int title_w = 0;
            if (title != NULL) {
                char name[24];
                snprintf(name, sizeof name, "(%u,%u)", x, y);
                if (text_width(&r->text, title, name) > (BW - 2 * pad) * 0.45f)
                    snprintf(name, sizeof name, "%u,%u", x, y);
                title_w = text_draw(&r->text, title, (int)(bx + pad), (int)ty, name, theme.text);
            }
            if (badge != NULL) {
                /* "out go0" when there is room, "out" when not. */
                int tw = text_width(&r->text, badge, label);
                if ((float)(title_w + tw) + badge->height * 1.2f > BW - 2 * pad) {
                    label[strcspn(label, " ")] = '\0';
                    tw = text_width(&r->text, badge, label);
                }
                float bw = (float)tw + badge->height * 0.7f, bh = (float)badge->height * 1.1f;
                float px = bx + BW - pad - bw, py = ty + (title != NULL ? ((float)title->height - bh) / 2 : 0);
                draw_round_fill(r->ren, px, py, bw, bh, bh / 2, sc);
                text_draw(&r->text, badge, (int)(px + (bw - (float)tw) / 2),
                          (int)(py + (bh - (float)badge->height) / 2), label, has_prog ? theme.panel : theme.muted);
            } else if (title != NULL) {
                draw_circle(r->ren, bx + BW - pad - B * 0.06f, ty + (float)title->height / 2, B * 0.06f, sc);
            }
            if (mono != NULL && has_prog) {
                const char *file;
                unsigned line;
                const char *text;
                size_t tl;
                char where[64];
                uint32_t pc = (uint32_t)cell[VM_PC];
                if (view_static_line(&f->trace->st, idx, pc, &file, &line, &text, &tl))
                    snprintf(where, sizeof where, "line %u", line);
                else
                    snprintf(where, sizeof where, "pc %x", pc);
                text_draw(&r->text, mono, (int)(bx + pad), (int)(ty + (float)title->height * 1.15f), where,
                          theme.muted);
            }
            /* The channel bars fill the lower part of the box. */
            float bars_h = BH * (B >= 100 ? 0.45f : 0.46f), bars_y = by + BH - pad - bars_h;
            if (tiny != NULL && vl->channels == 20) {
                bars_y -= (float)tiny->height * 0.9f;
                float bw, gx0 = bar_x(0, 20, bx + pad, BW - 2 * pad, &bw),
                          gx8 = bar_x(8, 20, bx + pad, BW - 2 * pad, &bw),
                          gx16 = bar_x(16, 20, bx + pad, BW - 2 * pad, &bw),
                          gx19 = bar_x(19, 20, bx + pad, BW - 2 * pad, &bw);
                float ly = bars_y + bars_h + 2;
                /* Each name under its own group, shortened or left out where it would run into the next. */
                static const char *const names[2][3] = {{"local", "pool 0", "pool 1"}, {"loc", "p0", "p1"}};
                float lo[3] = {gx0, gx8, gx16}, hi[3] = {gx8 - bw * 0.3f, gx16 - bw * 0.3f, gx19 + bw};
                for (int g = 0; g < 3; g++)
                    for (int k = 0; k < 2; k++)
                        if ((float)text_width(&r->text, tiny, names[k][g]) <= hi[g] - lo[g]) {
                            text_draw_centred(&r->text, tiny, (int)((lo[g] + hi[g]) / 2), (int)ly, names[k][g],
                                              theme.muted);
                            break;
                        }
            }
            draw_bars(r, m, idx, bx + pad, bars_y, BW - 2 * pad, bars_h);
        }
    }
}

/* Zoomed in: the whole array in a corner, each cell in its state colour, and a frame round the part shown. */
static void draw_minimap(render_t *r, const render_frame_t *f)
{
    const render_layout_t *L = &r->lay;
    if (L->minimap.w <= 0)
        return;
    const view_model_t *m = f->now;
    const SDL_Rect *mm = &L->minimap;
    float cw = (float)mm->w / (float)L->cw, ch = (float)mm->h / (float)L->ch;
    draw_fill(r->ren, (float)mm->x - 3, (float)mm->y - 3, (float)mm->w + 6, (float)mm->h + 6, theme.panel);
    for (unsigned y = 0; y < L->ch; y++)
        for (unsigned x = 0; x < L->cw; x++) {
            char label[32];
            unsigned idx = y * L->cw + x;
            SDL_Color c = render_state(m, view_cell(m, x, y), f->trace->st.cell_program[idx] != 0, label, sizeof label);
            draw_fill(r->ren, (float)mm->x + cw * (float)x, (float)mm->y + ch * (float)y, fmaxf(cw - 1, 1),
                      fmaxf(ch - 1, 1), c);
        }
    /* The part the grid shows, in cells. */
    float x0, y0, x1, y1;
    render_grid_coord(r, L->grid.x, L->grid.y, &x0, &y0);
    render_grid_coord(r, L->grid.x + L->grid.w, L->grid.y + L->grid.h, &x1, &y1);
    x0 = fmaxf(x0, 0), y0 = fmaxf(y0, 0), x1 = fminf(x1, (float)L->cw), y1 = fminf(y1, (float)L->ch);
    float fx = (float)mm->x + cw * x0, fy = (float)mm->y + ch * y0, fw = cw * (x1 - x0), fh = ch * (y1 - y0);
    float t = fmaxf(2, L->s * 2);
    draw_fill(r->ren, fx, fy, fw, t, theme.selected);
    draw_fill(r->ren, fx, fy + fh - t, fw, t, theme.selected);
    draw_fill(r->ren, fx, fy, t, fh, theme.selected);
    draw_fill(r->ren, fx + fw - t, fy, t, fh, theme.selected);
}

int render_init(render_t *r, SDL_Renderer *ren, const char *font_dir, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->ren = ren;
    return text_init(&r->text, ren, font_dir, err, errlen);
}

void render_free(render_t *r)
{
    text_free(&r->text);
    free(r->fed);
    r->fed = NULL;
}

void render_frame(render_t *r, const render_frame_t *f, int w, int h)
{
    text_frame(&r->text);
    layout(&r->lay, &f->now->l, f, w, h);
    find_fed(r, f->now);
    SDL_SetRenderDrawBlendMode(r->ren, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r->ren, theme.bg.r, theme.bg.g, theme.bg.b, 255);
    SDL_RenderClear(r->ren);
    /* Zoomed in, the grid is a window onto the array: nothing drawn spills over the rulers or panels. */
    SDL_RenderSetClipRect(r->ren, &r->lay.grid);
    draw_dateline(r);
    view_hop_t hops[MAX_HOPS];
    unsigned nhops = f->selected >= 0 && f->channel >= 0
                         ? view_pathway(f->now, (unsigned)f->selected, (unsigned)f->channel, hops, MAX_HOPS)
                         : 0;
    render_draw_lane_frames(r, f, hops, nhops);
    /* The hops' numbers, by the link each leaves on. */
    uint16_t hop_at[EMU_MAX_DIM * EMU_MAX_DIM * COA_NUM_DIRS];
    memset(hop_at, 0, sizeof hop_at);
    for (unsigned k = 0; k + 1 < nhops; k++) {
        view_lc_info_t li;
        view_lc_unpack(f->now, f->now->slots + (size_t)hops[k].cell * f->now->l.cell_slots, hops[k].lc, &li);
        if (li.route.dir < COA_NUM_DIRS && hop_at[hops[k].cell * COA_NUM_DIRS + li.route.dir] == 0)
            hop_at[hops[k].cell * COA_NUM_DIRS + li.route.dir] = (uint16_t)(k + 1);
    }
    render_draw_links(r, f, nhops > 1 ? hop_at : NULL);
    render_draw_words(r, f);
    draw_cells(r, f);
    SDL_RenderSetClipRect(r->ren, NULL);
    draw_rulers(r);
    draw_minimap(r, f);
    panel_draw_timeline(r, f);
    panel_draw_side(r, f);
    panel_draw_top(r, f);
    if (f->help)
        panel_draw_help(r, f);
}
