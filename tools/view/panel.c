/* Everything around the grid: the top bar, the side panel (narrative, cell details, legend), the timeline
 * and the keyboard-help overlay. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "draw.h"
#include "input.h"
#include "render.h"

static int px(const render_t *r, float v)
{
    return (int)(v * r->lay.t + 0.5f);
}

static bool at_end(const render_frame_t *f)
{
    return f->trace->ended && f->clock >= f->trace->end_clock;
}

static const char *end_text(const view_trace_t *t, SDL_Color *c)
{
    const render_theme_t *th = render_theme();
    switch (t->end_status) {
    case EMU_RUN_DONE: *c = th->run; return "done: every cell halted";
    case EMU_RUN_DEADLOCK: *c = th->fault; return "DEADLOCK";
    case EMU_RUN_LIVELOCK: *c = th->fault; return "LIVELOCK";
    case EMU_RUN_FAULT: *c = th->fault; return "fault";
    case EMU_RUN_LIMIT: *c = th->wait_out; return "clock limit";
    default: *c = th->halted; return "stopped";
    }
}

/* A filled pill with centred text; returns its width. */
static int pill(render_t *r, text_font_t *f, int right, int y, const char *s, SDL_Color bg, SDL_Color fg)
{
    int tw = text_width(&r->text, f, s), h = f->height + px(r, 8), w = tw + px(r, 22);
    draw_round_fill(r->ren, (float)(right - w), (float)y, (float)w, (float)h, (float)h / 2, bg);
    text_draw(&r->text, f, right - w + (w - tw) / 2, y + (h - f->height) / 2, s, fg);
    return w;
}

void panel_draw_top(render_t *r, const render_frame_t *f)
{
    const render_theme_t *th = render_theme();
    const SDL_Rect *R = &r->lay.top;
    draw_fill(r->ren, (float)R->x, (float)R->y, (float)R->w, (float)R->h, th->panel);
    draw_fill(r->ren, (float)R->x, (float)(R->y + R->h - 1), (float)R->w, 1, th->line);
    text_font_t *big = text_font(&r->text, FACE_BOLD, px(r, 21)), *mid = text_font(&r->text, FACE_SANS, px(r, 16)),
                *clk = text_font(&r->text, FACE_BOLD, px(r, 19));
    if (big == NULL || mid == NULL || clk == NULL)
        return;
    int pad = px(r, 16), right = R->w - pad, cy = R->y + (R->h - mid->height) / 2;
    int pill_y = R->y + (R->h - (mid->height + px(r, 8))) / 2;
    char buf[96];
    if (f->show_fps) {
        snprintf(buf, sizeof buf, "%.0f fps  %.3g clocks/s", f->fps, f->clocks_per_s);
        right -= text_draw_right(&r->text, mid, right, cy, buf, th->muted) + pad;
    }
    /* Play state, or how the run ended once the cursor is at the end. */
    SDL_Color ec;
    if (at_end(f)) {
        const char *e = end_text(f->trace, &ec);
        right -= pill(r, mid, right, pill_y, e, ec, th->panel) + pad;
    } else if (f->playing) {
        char sp[40];
        view_speed_label(f->speed, sp, sizeof sp);
        snprintf(buf, sizeof buf, "\u25b6 %s", sp);
        right -= pill(r, mid, right, pill_y, buf, th->run, th->panel) + pad;
    } else {
        right -= pill(r, mid, right, pill_y, "\u275a\u275a paused", th->halted, th->panel) + pad;
    }
    long phase = view_trace_phase(f->trace, f->clock);
    if (phase >= 0) {
        snprintf(buf, sizeof buf, "phase %ld", phase);
        right -= text_draw_right(&r->text, mid, right, cy, buf, th->text) + pad;
    }
    snprintf(buf, sizeof buf, "clock %" PRIu64, f->clock);
    int cw = text_width(&r->text, clk, buf);
    text_draw(&r->text, clk, right - cw, R->y + (R->h - clk->height) / 2, buf, th->text);
    right -= cw + pad;
    char title[256];
    text_fit(&r->text, big, f->title != NULL ? f->title : "", right - 2 * pad, title, sizeof title);
    text_draw(&r->text, big, pad, R->y + (R->h - big->height) / 2, title, th->text);
}

/* --- the side panel --- */

typedef struct pen {
    render_t *r;
    int x, y, w, bottom;
    bool draw;      /* false: only measures, so the panel can choose what fits before drawing */
    int regs_at;    /* cell_details: where its registers began (they go first when room is short) */
} pen_t;

static void heading(pen_t *p, const char *s)
{
    text_font_t *f = text_font(&p->r->text, FACE_BOLD, px(p->r, 15));
    if (f == NULL || p->y + f->height > p->bottom)
        return;
    if (p->draw)
        text_draw(&p->r->text, f, p->x, p->y, s, render_theme()->text);
    p->y += f->height + px(p->r, 3);
}

static void line(pen_t *p, text_font_t *f, const char *s, SDL_Color c)
{
    if (f == NULL || p->y + f->height > p->bottom)
        return;
    char buf[256];
    if (p->draw)
        text_draw(&p->r->text, f, p->x, p->y, text_fit(&p->r->text, f, s, p->w, buf, sizeof buf), c);
    p->y += f->height;
}

static void para(pen_t *p, text_font_t *f, const char *s, SDL_Color c)
{
    if (f == NULL)
        return;
    int h = text_wrap(&p->r->text, f, p->x, p->y, p->w, s, c, false, 1.12);
    if (p->y + h > p->bottom)
        return;
    if (p->draw)
        text_wrap(&p->r->text, f, p->x, p->y, p->w, s, c, true, 1.12);
    p->y += h;
}

/* "the head ..." for the last hop of a pathway: where its words go, or why its header waits. */
static void head_text(const view_lc_info_t *li, char *buf, size_t cap)
{
    char e[24];
    if (li->state == COA_LC_HEADER)
        snprintf(buf, cap, "its header waits here%s%s", li->wait ? ": " : "",
                 li->wait ? coa_wait_name((coa_wait_t)li->wait) : "");
    else if (li->route.kind == COA_END_NONE)
        snprintf(buf, cap, "it ends there (no route on yet)");
    else if (li->route.kind == COA_END_LINK)
        snprintf(buf, cap, "on to %s (%s)", view_end_name(li->route, true, e, sizeof e),
                 coa_lc_state_name((coa_lc_state_t)li->state));
    else
        snprintf(buf, cap, "into %s", view_end_name(li->route, true, e, sizeof e));
}

/* The traced pathway in words, hop by hop as the grid numbers them: where it starts, each channel, its head. */
static void pathway_line(pen_t *p, const render_frame_t *f, unsigned idx)
{
    const render_theme_t *th = render_theme();
    render_t *r = p->r;
    const view_model_t *m = f->now;
    unsigned w = m->l.width;
    text_font_t *sans = text_font(&r->text, FACE_SANS, px(r, 13));
    view_hop_t hops[64];
    unsigned n = view_pathway(m, idx, (unsigned)f->channel, hops, 64);
    char buf[640], e[24];
    p->y += px(r, 4);
    if (n == 0) {
        snprintf(buf, sizeof buf, "Channel %d is free now: no pathway to trace ([ ] or a click choose another).",
                 f->channel);
        para(p, sans, buf, th->muted);
        return;
    }
    view_lc_info_t li;
    view_lc_unpack(m, m->slots + (size_t)hops[0].cell * m->l.cell_slots, hops[0].lc, &li);
    size_t up;
    const char *from = li.source.kind == COA_END_NONE   ? "a pattern's route"
                       : li.source.kind != COA_END_LINK ? view_end_name(li.source, false, e, sizeof e)
                       : view_lc_upstream(m, view_lc_slot(m, hops[0].cell, hops[0].lc), &up)
                           ? "round a ring"
                           : "where its tail has gone"; /* the hops behind it are free again */
    int at =
        snprintf(buf, sizeof buf, "Pathway of ch %d, %u link%s: from %s", f->channel, n - 1, n == 2 ? "" : "s", from);
    for (unsigned k = 0; k < n && at > 0 && (size_t)at < sizeof buf; k++) {
        /* Long pathways: the first hops and the last ones. */
        if (n > 9 && k == 4) {
            at += snprintf(buf + at, sizeof buf - (size_t)at, " \u2192 ...");
            k = n - 4;
        }
        at += snprintf(buf + at, sizeof buf - (size_t)at, " \u2192 (%u,%u) ch%u", hops[k].cell % w, hops[k].cell / w,
                       hops[k].lc);
    }
    view_lc_unpack(m, m->slots + (size_t)hops[n - 1].cell * m->l.cell_slots, hops[n - 1].lc, &li);
    char head[96];
    head_text(&li, head, sizeof head);
    if (at > 0 && (size_t)at < sizeof buf)
        snprintf(buf + at, sizeof buf - (size_t)at, "; %s", head);
    if (sans != NULL &&
        p->y + text_wrap(&r->text, sans, p->x, p->y, p->w, buf, th->selected, false, 1.12) <= p->bottom) {
        para(p, sans, buf, th->selected);
        return;
    }
    /* No room for every hop: one line, from where to where. */
    snprintf(buf, sizeof buf, "Pathway of ch %d, %u link%s: %s to (%u,%u)", f->channel, n - 1, n == 2 ? "" : "s", from,
             hops[n - 1].cell % w, hops[n - 1].cell / w);
    line(p, sans, buf, th->selected);
}

static void cell_details(pen_t *p, const render_frame_t *f)
{
    const render_theme_t *th = render_theme();
    render_t *r = p->r;
    const view_model_t *m = f->now;
    const view_layout_t *vl = &m->l;
    unsigned idx = (unsigned)f->selected, x = idx % vl->width, y = idx / vl->width;
    const uint64_t *cell = view_cell(m, x, y);
    text_font_t *sans = text_font(&r->text, FACE_SANS, px(r, 14)), *mono = text_font(&r->text, FACE_MONO, px(r, 12));
    char buf[256], label[32];
    const view_static_t *st = &f->trace->st;
    unsigned prog = st->cell_program[idx];
    const char *pname = prog ? st->programs[prog - 1].name : "", *slash = strrchr(pname, '/');
    snprintf(buf, sizeof buf, "Cell (%u,%u)%s%s", x, y, prog ? "  " : "", slash ? slash + 1 : pname);
    heading(p, buf);
    SDL_Color sc = render_state(m, cell, prog != 0, label, sizeof label);
    view_ca_describe(cell, prog != 0, buf, sizeof buf);
    line(p, sans, buf, sc);
    for (size_t i = 0; i < f->trace->nfaults; i++) {
        const view_fault_event_t *e = &f->trace->faults[i];
        if (e->cell == idx && e->clock <= f->clock)
            para(p, sans, e->text, th->fault);
    }
    if (prog != 0) {
        const char *file, *text;
        unsigned ln;
        size_t tl;
        uint32_t pc = (uint32_t)cell[VM_PC];
        if (view_static_line(st, idx, pc, &file, &ln, &text, &tl)) {
            const char *base = strrchr(file, '/');
            snprintf(buf, sizeof buf, "pc 0x%x  %s:%u", pc, base ? base + 1 : file, ln);
            line(p, mono, buf, th->text);
            if (text != NULL) {
                while (tl > 0 && (*text == ' ' || *text == '\t'))
                    text++, tl--;
                snprintf(buf, sizeof buf, "  %.*s", (int)(tl < 120 ? tl : 120), text);
                line(p, mono, buf, th->selected);
            }
        } else {
            snprintf(buf, sizeof buf, "pc 0x%x", pc);
            line(p, mono, buf, th->text);
        }
    }
    p->y += px(r, 6);
    /* The channels in use: a table as wide as the panel allows. */
    line(p, mono, "ch state    route     from      n cr wait", th->muted);
    /* The lines after the table (spools, links) keep their room; the registers come last and go first. */
    int after = 0;
    for (unsigned s = 0; s < vl->spools; s++)
        after += (view_spool(m, cell, s)[VM_SP_A] & 0xff) != COA_SPOOL_IDLE;
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        after += view_link(m, cell, d)[VM_LINK_WORDS] != 0;
    after = mono != NULL ? after * mono->height : 0;
    /* ... and so do the words on the traced pathway, under the table and its " ... N more". */
    if (f->channel >= 0 && mono != NULL) {
        after += mono->height;
        pen_t q = *p;
        q.draw = false;
        q.bottom = INT_MAX / 2;
        pathway_line(&q, f, idx);
        after += q.y - p->y;
    }
    /* The traced channel first, whatever the room; then the channels of pathways in use, then the static routes
     * nothing feeds (grey), as room allows. */
    unsigned shown = 0, active = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (unsigned lc = 0; lc < vl->channels; lc++) {
            view_lc_info_t li;
            view_lc_unpack(m, cell, lc, &li);
            size_t fi = (size_t)idx * vl->channels + lc;
            bool fed = r->fed == NULL || fi >= r->fed_cap || r->fed[fi], chosen = (int)lc == f->channel;
            if ((li.state == COA_LC_FREE && li.count == 0) || chosen != (pass == 0) || (pass > 0 && fed != (pass == 1)))
                continue;
            active++;
            if (mono == NULL || p->y + 2 * mono->height > p->bottom - (chosen ? 0 : after))
                continue;
            char rt[24], sr[24];
            snprintf(buf, sizeof buf, "%2u %-8s %-9s %-9s %u %2u %s", lc, coa_lc_state_name((coa_lc_state_t)li.state),
                     view_end_name(li.route, true, rt, sizeof rt), view_end_name(li.source, false, sr, sizeof sr),
                     li.count, li.credits, li.wait ? coa_wait_name((coa_wait_t)li.wait) : "");
            SDL_Color c = render_lc_colour(r, m, idx, lc);
            if (p->draw) {
                if ((int)lc == f->channel) /* the channel whose pathway is traced on the grid */
                    draw_fill(r->ren, (float)(p->x - px(r, 2)), (float)p->y, (float)(p->w + px(r, 4)),
                              (float)mono->height, color_mix(th->panel, th->selected, 0.18f));
                draw_fill(r->ren, (float)(p->x - px(r, 8)), (float)p->y + 2, (float)px(r, 4), (float)mono->height - 4,
                          c);
                if (r->nrows < COA_MAX_CHANNELS)
                    r->rows[r->nrows++] = (render_row_t){p->y, p->y + mono->height, lc};
            }
            line(p, mono, buf, th->text);
            shown++;
        }
    }
    if (active == 0)
        line(p, mono, " (every channel free)", th->muted);
    else if (shown < active) {
        snprintf(buf, sizeof buf, " ... %u more", active - shown);
        line(p, mono, buf, th->muted);
    }
    if (f->channel >= 0)
        pathway_line(p, f, idx);
    for (unsigned s = 0; s < vl->spools; s++) {
        const uint64_t *sp = view_spool(m, cell, s);
        unsigned mode = (unsigned)(sp[VM_SP_A] & 0xff), lc = (unsigned)(sp[VM_SP_A] >> 8 & 0xff);
        if (mode == COA_SPOOL_IDLE)
            continue;
        char ch[16];
        snprintf(ch, sizeof ch, lc == COA_NONE ? "next" : "ch%u", lc); /* none yet: the next pathway to it */
        snprintf(buf, sizeof buf, "spool %u %s %s: %" PRIu64 " left, %" PRIu64 " moved", s,
                 mode == COA_SPOOL_SEND ? "send" : "recv", ch, sp[VM_SP_A] >> 32, sp[VM_SP_WORDS]);
        line(p, mono, buf, th->text);
    }
    /* Links: words carried and utilization over the recent window. */
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        const uint64_t *lk = view_link(m, cell, d);
        if (lk[VM_LINK_WORDS] == 0)
            continue;
        snprintf(buf, sizeof buf, "link %s %6" PRIu64 " words, %3.0f%% now", coa_dir_name((coa_dir_t)d),
                 lk[VM_LINK_WORDS], render_link_util(f, idx, d) * 100);
        line(p, mono, buf, th->text);
    }
    p->regs_at = p->y;
    /* Registers that hold something, a few per line. */
    if (prog != 0 && mono != NULL) {
        p->y += px(r, 4);
        char row[160] = "";
        int n = 0;
        for (unsigned reg = 1; reg < 124; reg++) {
            uint32_t v = (uint32_t)cell[vl->regs0 + reg];
            if (v == 0 || reg == 2) /* sp only says where memory ends */
                continue;
            char one[32];
            snprintf(one, sizeof one, "%sr%u=%" PRIu32, n ? "  " : "", reg, v);
            if (text_width(&r->text, mono, row) + text_width(&r->text, mono, one) > p->w) {
                line(p, mono, row, th->muted);
                row[0] = '\0';
                n = 0;
                snprintf(one, sizeof one, "r%u=%" PRIu32, reg, v);
            }
            strncat(row, one, sizeof row - strlen(row) - 1);
            n++;
        }
        if (row[0] != '\0')
            line(p, mono, row, th->muted);
    }
}

typedef enum legend_kind { LEGEND_NONE, LEGEND_SHORT, LEGEND_FULL } legend_kind_t;

/* What the grid outlines now: a wait cycle, a traced pathway; the legend then has a row for them. */
static bool outlines_shown(const render_frame_t *f)
{
    return (f->cycle != NULL && f->ncycle > 0) || (f->selected >= 0 && f->channel >= 0);
}

/* Its room, heading and margin included. */
static int legend_height(render_t *r, legend_kind_t kind, bool outlines)
{
    text_font_t *h = text_font(&r->text, FACE_BOLD, px(r, 15)), *f = text_font(&r->text, FACE_SANS, px(r, 13));
    if (kind == LEGEND_NONE || h == NULL || f == NULL)
        return 0;
    int extra = outlines ? f->height + px(r, 2) : 0;
    if (kind == LEGEND_FULL)
        return px(r, 286) + extra;
    return px(r, 12) + h->height + px(r, 3) + 4 * f->height + px(r, 2 + 6 + 4) + extra;
}

/* A hollow square: how the grid frames a cycle's or a pathway's cells and links. */
static void frame_swatch(pen_t *p, text_font_t *f, int x, SDL_Color c, const char *s)
{
    const render_theme_t *th = render_theme();
    float side = (float)f->height - 4, t = fmaxf(2, side * 0.22f);
    draw_round_fill(p->r->ren, (float)x, (float)p->y + 2, side, side, 3, c);
    draw_fill(p->r->ren, (float)x + t, (float)p->y + 2 + t, side - 2 * t, side - 2 * t, th->panel);
    text_draw(&p->r->text, f, x + f->height, p->y, s, th->text);
}

static void swatch(pen_t *p, text_font_t *f, int x, SDL_Color c, const char *s)
{
    draw_round_fill(p->r->ren, (float)x, (float)p->y + 3, (float)f->height - 6, (float)f->height - 6, 3, c);
    text_draw(&p->r->text, f, x + f->height, p->y, s, render_theme()->text);
}

static void legend(pen_t *p, legend_kind_t kind, const render_frame_t *fr)
{
    const render_theme_t *th = render_theme();
    render_t *r = p->r;
    text_font_t *f = text_font(&r->text, FACE_SANS, px(r, 13));
    if (f == NULL)
        return;
    heading(p, "Legend");
    int col = p->w / 3;
    swatch(p, f, p->x, th->run, "running");
    swatch(p, f, p->x + col, th->wait_in, "waits: input");
    swatch(p, f, p->x + 2 * col, th->wait_out, "waits: output");
    p->y += f->height + px(r, 2);
    swatch(p, f, p->x, th->halted, "halted");
    swatch(p, f, p->x + col, th->fault, "fault");
    swatch(p, f, p->x + 2 * col, th->idle, "no program");
    if (outlines_shown(fr)) {
        p->y += f->height + px(r, 2);
        int x = p->x;
        if (fr->cycle != NULL && fr->ncycle > 0) {
            const char *what = "wait cycle: each waits for the next";
            if (f->height + text_width(&r->text, f, what) > 2 * col - px(r, 6))
                what = "wait cycle";
            frame_swatch(p, f, x, th->cycle, what);
            x += 2 * col;
        }
        if (fr->selected >= 0 && fr->channel >= 0)
            frame_swatch(p, f, x, th->selected, x == p->x ? "traced pathway (numbered hops)" : "traced pathway");
    }
    p->y += f->height + px(r, 6);
    /* The channel bars. */
    int bh = f->height, bw = px(r, 7);
    for (int i = 0; i < 4; i++) {
        float x = (float)(p->x + i * (bw + px(r, 3)));
        SDL_Color c = render_path_colour((uint64_t)i + 1);
        draw_fill(r->ren, x, (float)p->y, (float)bw, (float)bh, i == 0 ? th->slot : color_mix(th->cell, c, 0.28f));
        float fill = (float)bh * (float)i / 3;
        if (i > 0)
            draw_fill(r->ren, x, (float)p->y + (float)bh - fill, (float)bw, fill, c);
    }
    text_draw(&r->text, f, p->x + 4 * (bw + px(r, 3)) + px(r, 6), p->y, "a bar per logical channel: words queued (0-8)",
              th->text);
    p->y += f->height + px(r, 4);
    /* The caps over a bar: a channel setting up its pathway (dark), or draining / arrived (grey). */
    for (int i = 0; i < 2; i++) {
        float x = (float)(p->x + i * (bw + px(r, 3)));
        draw_fill(r->ren, x, (float)p->y + 4, (float)bw, (float)bh - 4, th->slot);
        draw_fill(r->ren, x - 1, (float)p->y + 1, (float)bw + 2, 3, i == 0 ? th->text : th->muted);
    }
    text_draw(&r->text, f, p->x + 4 * (bw + px(r, 3)) + px(r, 6), p->y, "cap: header setting up / draining", th->text);
    p->y += f->height + px(r, 4);
    if (kind != LEGEND_FULL)
        return;
    para(p, f,
         "Colour = one pathway, the same on every cell and link it crosses. With 20 channels the bars come in "
         "three groups: local (0-7), pool 0 (8-15), pool 1 (16-19).",
         th->muted);
    p->y += px(r, 4);
    /* Links. */
    int rw = px(r, 60);
    for (int i = 0; i < rw; i++)
        draw_fill(r->ren, (float)(p->x + i), (float)p->y + (float)f->height / 2 - 3, 1, 6,
                  render_util_colour((float)i / (float)(rw - 1)));
    text_draw(&r->text, f, p->x + rw + px(r, 6), p->y, "link use 0% - 100% (last 32 clocks)", th->text);
    p->y += f->height + px(r, 2);
    draw_circle(r->ren, (float)p->x + (float)f->height / 2, (float)p->y + (float)f->height / 2,
                (float)f->height / 3 + 1, th->text);
    draw_circle(r->ren, (float)p->x + (float)f->height / 2, (float)p->y + (float)f->height / 2, (float)f->height / 3,
                render_path_colour(1));
    text_draw(&r->text, f, p->x + rw + px(r, 6), p->y, "a word on the wire", th->text);
    p->y += f->height + px(r, 2);
    SDL_Color dl = color_mix(th->fault, th->bg, 0.35f);
    for (int x = 0; x < rw; x += px(r, 16))
        draw_fill(r->ren, (float)(p->x + x), (float)p->y + (float)f->height / 2 - 1, (float)px(r, 8), 2, dl);
    text_draw(&r->text, f, p->x + rw + px(r, 6), p->y, "dateline: the wrap-around links", th->text);
    p->y += f->height + px(r, 2);
    /* The timeline's ticks. */
    draw_fill(r->ren, (float)p->x + (float)rw / 2 - 1, (float)p->y + 2, 2, (float)f->height - 4, th->muted);
    text_draw(&r->text, f, p->x + rw + px(r, 6), p->y, "timeline tick: a mark (phase, message)", th->text);
    p->y += f->height;
}

static const char story_goes_on[] = "(The story goes on: a larger window or a smaller --scale shows the rest.)";

/* What the panel says above the legend: how the run ended, the narrative, the selected cell. */
static void side_content(pen_t *p, const render_frame_t *f)
{
    const render_theme_t *th = render_theme();
    render_t *r = p->r;
    text_font_t *body = text_font(&r->text, FACE_SANS, px(r, 15)), *small = text_font(&r->text, FACE_SANS, px(r, 13));
    /* How the run ended, when the cursor is there: a deadlock shows its cycle. */
    if (at_end(f) && f->trace->end_status != EMU_RUN_DONE) {
        SDL_Color ec;
        const char *e = end_text(f->trace, &ec);
        char buf[160];
        snprintf(buf, sizeof buf, "%s at clock %" PRIu64, e, f->trace->end_clock);
        heading(p, buf);
        /* A deadlock's or livelock's report, or the wait cycle a stopped run is caught in. */
        if (f->trace->end_deadlock != NULL && f->trace->end_deadlock[0] != '\0') {
            const char *s = f->trace->end_deadlock;
            text_font_t *mono = text_font(&r->text, FACE_MONO, px(r, 11));
            bool table = false;
            while (*s != '\0' && mono != NULL) {
                const char *nl = strchr(s, '\n');
                size_t n = nl ? (size_t)(nl - s) : strlen(s);
                /* The table of the messages in the cycle is too wide for the panel: the console and `iwarp run`
                 * print it; the cells' channels show the same here. */
                if (strncmp(s, "messages in the cycle", 21) == 0)
                    table = true;
                else if (s[0] != ' ')
                    table = false;
                if (table) {
                    s += n + (nl ? 1 : 0);
                    continue;
                }
                char ln[1024]; /* a report's line is a paragraph: the cause, when the cycle closed */
                snprintf(ln, sizeof ln, "%.*s", (int)(n < sizeof ln - 1 ? n : sizeof ln - 1), s);
                para(p, mono, ln, th->fault);
                s += n + (nl ? 1 : 0);
            }
        } else if (f->trace->nfaults > 0) {
            para(p, small, f->trace->faults[0].text, th->fault);
        }
        p->y += px(r, 10);
    } else if (f->cycle != NULL && f->ncycle > 0) {
        /* Before the end: the cycle is there, and the detector has not said so yet. */
        char buf[320];
        if (f->cycle_live)
            snprintf(buf, sizeof buf, "Wait cycle at clock %" PRIu64, f->clock);
        else
            snprintf(buf, sizeof buf, "Wait cycle since clock %" PRIu64, f->cycle_since + 1);
        heading(p, buf);
        bool noticed = f->trace->ended && f->trace->end_status == EMU_RUN_DEADLOCK;
        snprintf(buf, sizeof buf, "Outlined on the grid: %u steps, each waiting for the next, so none can move. %s",
                 f->ncycle,
                 noticed ? "" : "The deadlock detector stops a run once nothing has moved for deadlock_clocks.");
        if (noticed)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
                     "The deadlock detector stops the run at clock %" PRIu64 ", once nothing has moved for "
                     "deadlock_clocks.",
                     f->trace->end_clock);
        para(p, small, buf, th->text);
        p->y += px(r, 10);
    }
    bool cell = f->selected >= 0 && (unsigned)f->selected < f->now->l.width * f->now->l.height;
    if (f->narrative != NULL && f->narrative[0] != '\0') {
        /* The selected cell's details come first when room is short (a large --scale, a small window): the rows
         * the narrative tells the students to look at are in them. The narrative keeps what is left, whole
         * paragraphs only, and says when one is left out. */
        int bottom = p->bottom;
        if (cell) {
            pen_t q = *p;
            q.draw = false;
            q.y = 0;
            q.bottom = INT_MAX / 2;
            q.regs_at = 0;
            cell_details(&q, f);
            p->bottom -= (q.regs_at > 0 ? q.regs_at : q.y) + px(r, 8); /* the registers give way first */
            q.y = 0;
            para(&q, small, story_goes_on, th->muted); /* ... and room for saying that a paragraph was left out */
            p->bottom -= q.y;
        }
        bool left_out = false;
        /* Paragraphs: blank lines apart in the narrative file. */
        const char *s = f->narrative;
        while (*s != '\0') {
            const char *end = strstr(s, "\n\n");
            size_t n = end ? (size_t)(end - s) : strlen(s), skip;
            /* Paragraphs may belong to a range of clocks (demo.h): the story follows the run. */
            if (demo_paragraph_shows(s, n, f->clock, &skip)) {
                char buf[2048];
                snprintf(buf, sizeof buf, "%.*s", (int)(n - skip < sizeof buf - 1 ? n - skip : sizeof buf - 1),
                         s + skip);
                for (char *c = buf; *c; c++)
                    if (*c == '\n')
                        *c = ' ';
                int y = p->y;
                if (!left_out)
                    para(p, body, buf, th->text);
                if (p->y == y) {
                    left_out = true;
                } else {
                    p->y += px(r, 8);
                }
            }
            s += n;
            while (*s == '\n')
                s++;
        }
        p->bottom = bottom;
        if (left_out)
            para(p, small, story_goes_on, th->muted);
        p->y += px(r, 4);
    }
    if (cell) {
        if (p->draw)
            draw_fill(r->ren, (float)p->x, (float)p->y, (float)p->w, 1, th->line);
        p->y += px(r, 8);
        cell_details(p, f);
    } else {
        para(p, small, "Click a cell for its channels, spools, links, registers and source line.", th->muted);
    }
}

/* The legend gives way to the panel's content: in full when both fit, else its first rows (cell states,
 * bars and caps), else not at all; the channel table must not be cut for it on a lecture-hall screen. */
void panel_draw_side(render_t *r, const render_frame_t *f)
{
    const render_theme_t *th = render_theme();
    const SDL_Rect *R = &r->lay.panel;
    draw_fill(r->ren, (float)R->x, (float)R->y, (float)R->w, (float)R->h, th->panel);
    draw_fill(r->ren, (float)R->x, (float)R->y, 1, (float)R->h, th->line);
    int pad = px(r, 18), top = R->y + pad, bottom = R->y + R->h - pad;
    pen_t p = {r, R->x + pad, top, R->w - 2 * pad, INT_MAX / 2, false, 0};
    side_content(&p, f);
    r->nrows = 0; /* the drawing pass notes where the channel table's rows are */
    r->rows_x0 = R->x;
    r->rows_x1 = R->x + R->w;
    int need = p.y - top, room = bottom - top;
    legend_kind_t kind = LEGEND_NONE;
    if (f->legend)
        kind = need + legend_height(r, LEGEND_FULL, outlines_shown(f)) <= room    ? LEGEND_FULL
               : need + legend_height(r, LEGEND_SHORT, outlines_shown(f)) <= room ? LEGEND_SHORT
                                                                                  : LEGEND_NONE;
    int lh = legend_height(r, kind, outlines_shown(f));
    p = (pen_t){r, R->x + pad, top, R->w - 2 * pad, bottom - lh, true, 0};
    side_content(&p, f);
    if (kind != LEGEND_NONE) {
        pen_t lp = {r, R->x + pad, bottom - lh + px(r, 12), R->w - 2 * pad, R->y + R->h, true, 0};
        draw_fill(r->ren, (float)lp.x, (float)lp.y - (float)px(r, 8), (float)lp.w, 1, th->line);
        legend(&lp, kind, f);
    }
}

/* --- the timeline --- */

void panel_draw_timeline(render_t *r, const render_frame_t *f)
{
    const render_theme_t *th = render_theme();
    const SDL_Rect *R = &r->lay.timeline, *b = &r->lay.bar;
    draw_fill(r->ren, (float)R->x, (float)R->y, (float)R->w, (float)R->h, th->panel);
    draw_fill(r->ren, (float)R->x, (float)R->y, (float)R->w, 1, th->line);
    text_font_t *small = text_font(&r->text, FACE_SANS, px(r, 12)), *hint = text_font(&r->text, FACE_SANS, px(r, 13));
    if (small == NULL || hint == NULL)
        return;
    uint64_t span = f->head > f->first ? f->head - f->first : 1;
    float rad = (float)b->h / 2;
    draw_round_fill(r->ren, (float)b->x, (float)b->y, (float)b->w, (float)b->h, rad, th->slot);
    float at = (float)b->x + (float)b->w * (float)(f->clock - f->first) / (float)span;
    draw_round_fill(r->ren, (float)b->x, (float)b->y, at - (float)b->x, (float)b->h, rad,
                    color_mix(th->slot, th->selected, 0.45f));
    /* Marks: phase switches as tall dark ticks, messages as short ones. */
    for (size_t i = 0; i < f->trace->nmarks; i++) {
        const view_mark_event_t *e = &f->trace->marks[i];
        if (e->clock > f->head)
            break;
        float mx = (float)b->x + (float)b->w * (float)(e->clock - f->first) / (float)span;
        unsigned kind = e->mark >> 24;
        if (kind == EMU_MARK_PHASE)
            draw_fill(r->ren, mx - 1, (float)b->y - 4, 2, (float)b->h + 8, th->text);
        else
            draw_fill(r->ren, mx, (float)b->y + 2, 1, (float)b->h - 4,
                      kind == EMU_MARK_MSG_SEND ? th->wait_out : th->wait_in);
    }
    if (f->trace->ended && f->trace->ncycle > 0 && f->trace->cycle_closed >= f->first &&
        f->trace->cycle_closed < f->head) {
        /* Where the wait cycle closed: from the next clock on the grid outlines it. */
        float cx = (float)b->x + (float)b->w * (float)(f->trace->cycle_closed + 1 - f->first) / (float)span;
        draw_fill(r->ren, cx - 1.5f, (float)b->y - 5, 3, (float)b->h + 10, th->cycle);
    }
    if (f->trace->ended && f->trace->end_status != EMU_RUN_DONE) {
        float ex = (float)b->x + (float)b->w * (float)(f->trace->end_clock - f->first) / (float)span;
        draw_fill(r->ren, ex - 1.5f, (float)b->y - 5, 3, (float)b->h + 10, th->fault);
    }
    draw_circle(r->ren, at, (float)b->y + rad, rad * 1.25f, th->selected);
    draw_circle(r->ren, at, (float)b->y + rad, rad * 0.6f, th->panel);
    char buf[64];
    int ly = b->y + b->h + px(r, 4);
    snprintf(buf, sizeof buf, "%" PRIu64, f->first);
    text_draw(&r->text, small, b->x, ly, buf, th->muted);
    snprintf(buf, sizeof buf, "%" PRIu64 "%s", f->head, f->live ? " (running)" : "");
    text_draw_right(&r->text, small, b->x + b->w, ly, buf, th->muted);
    const char *keys =
        "Space play/pause    \u2190 \u2192 step    \u2191 \u2193 speed    drag to scrub    click a cell    "
        "H help";
    if (text_width(&r->text, hint, keys) > b->w) /* larger text: only the key that tells the others */
        keys = "H help";
    text_draw_centred(&r->text, hint, b->x + b->w / 2, R->y + R->h - hint->height - px(r, 6), keys, th->muted);
}

/* --- help --- */

static void draw_help(render_t *r);

/* The help fits the window: at a large --scale its rows would run past the bottom, so it is drawn smaller. */
void panel_draw_help(render_t *r, const render_frame_t *f)
{
    (void)f;
    float t = r->lay.t;
    unsigned n;
    view_key_help(&n);
    /* Its height at scale t, as draw_help lays it out: 80 + n rows of 15-point text (1.2 lines) and 6. */
    float need = t * (80 + (float)n * (15 * 1.2f + 6)), room = (float)r->lay.h * 0.96f;
    if (need > room)
        r->lay.t = t * room / need;
    draw_help(r);
    r->lay.t = t;
}

static void draw_help(render_t *r)
{
    const render_theme_t *th = render_theme();
    text_font_t *title = text_font(&r->text, FACE_BOLD, px(r, 20)), *keyf = text_font(&r->text, FACE_BOLD, px(r, 15)),
                *body = text_font(&r->text, FACE_SANS, px(r, 15));
    if (title == NULL || keyf == NULL || body == NULL)
        return;
    unsigned n;
    const view_key_help_t *keys = view_key_help(&n);
    int row = body->height + px(r, 6), w = px(r, 560), h = px(r, 80) + (int)n * row;
    int x = (r->lay.w - w) / 2, y = (r->lay.h - h) / 2;
    draw_fill(r->ren, 0, 0, (float)r->lay.w, (float)r->lay.h, with_alpha(th->text, 90));
    draw_round_box(r->ren, (float)x, (float)y, (float)w, (float)h, (float)px(r, 14), 2, th->line, th->panel);
    text_draw(&r->text, title, x + px(r, 28), y + px(r, 20), "Keys and mouse", th->text);
    int ky = y + px(r, 60), kx = x + px(r, 28), dx = x + px(r, 210);
    for (unsigned i = 0; i < n; i++) {
        text_draw(&r->text, keyf, kx, ky, keys[i].keys, th->selected);
        text_draw(&r->text, body, dx, ky, keys[i].what, th->text);
        ky += row;
    }
}
