/* The viewer's window: events, play state, the clock the frame shows, frame pacing. */
#include "viewer.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anim.h"
#include "demo.h"
#include "input.h"
#include "render.h"
#include "shot.h"
#include "viewer_state.h"

enum { JUMP_CLOCKS = 100 };
#define FRAME_S (1.0 / 60.0)
/* At full speed the emulator gets at least this much of every frame, even when drawing takes the whole
 * 1/60 s: a slow renderer then costs frames, not all of the emulation. */
#define MIN_EMULATE_S 0.006
/* Replay at full speed: a recording has no emulator to wait for, so it goes at a fixed, quick pace. */
#define REPLAY_FULL_SPEED 1e6


void viewer_opts_defaults(viewer_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1280;
    o->height = 800;
    o->speed = 20;
    o->select = -1;
    o->channel = -1;
    o->legend = true;
    o->zoom = 1;
    o->scale = 1;
    o->view_x = o->view_y = -1;
}

static unsigned speed_index(double speed)
{
    unsigned n;
    const double *sp = view_speeds(&n);
    if (speed <= 0)
        return n - 1;
    unsigned best = 0;
    for (unsigned i = 0; i + 1 < n; i++)
        if (fabs(log(sp[i]) - log(speed)) < fabs(log(sp[best]) - log(speed)))
            best = i;
    return best;
}

static double speed_of(const viewer_t *v)
{
    unsigned n;
    return view_speeds(&n)[v->speed_i];
}

/* The wait cycle to draw at the frame's clock: the run's (recorded at its end) from the clock after it closed,
 * nothing in it changing from then on; or, live and paused at the array's clock, the one the detector finds in
 * the array as it stands, before the detector's window closes. */
static void frame_cycle(const viewer_t *v, render_frame_t *f)
{
    const view_trace_t *t = &v->src->trace;
    if (t->ended && t->ncycle > 0 && v->clock <= t->end_clock &&
        (v->clock > t->cycle_closed || v->clock == t->end_clock)) {
        f->cycle = t->cycle;
        f->ncycle = t->ncycle;
        f->cycle_since = t->cycle_closed;
    } else if (v->live_cycle_clock == v->clock && v->live_cycle.n > 0) {
        f->cycle = v->live_cycle.step;
        f->ncycle = v->live_cycle.n;
        f->cycle_since = v->live_cycle.closed_at;
        f->cycle_live = true;
    }
}

/* Looks for the live array's wait cycle once the play head stops at the array's clock. */
static void find_live_cycle(viewer_t *v)
{
    const view_source_t *s = v->src;
    if (v->playing || !view_source_growing(s) || s->a == NULL || v->clock != emu_array_clock(s->a) ||
        v->live_cycle_clock == v->clock)
        return;
    if (!emu_array_find_wait_cycle(s->a, &v->live_cycle, NULL, 0))
        v->live_cycle.n = 0;
    v->live_cycle_clock = v->clock;
}

/* The selected cell's channel in use after (step 1) or before (-1) the chosen one, round; -1 when none is. */
static int next_channel(const viewer_t *v, int step)
{
    const view_model_t *m = &v->src->cur.m;
    unsigned n = m->l.channels;
    if (v->selected < 0 || n == 0)
        return -1;
    const uint64_t *cell = m->slots + (size_t)v->selected * m->l.cell_slots;
    int at = v->channel >= 0 ? v->channel : step > 0 ? -1 : (int)n;
    for (unsigned k = 0; k < n; k++) {
        at = (at + step + (int)n + 1) % ((int)n + 1); /* n + 1 places: the channels, and none */
        if (at == (int)n)
            return -1;
        view_lc_info_t li;
        view_lc_unpack(m, cell, (unsigned)at, &li);
        if (li.state != COA_LC_FREE || li.count > 0)
            return at;
    }
    return -1;
}

static void select_cell(viewer_t *v, int cell)
{
    if (cell != v->selected)
        v->channel = -1;
    v->selected = cell;
}

void viewer_fill_frame(const viewer_t *v, render_frame_t *f)
{
    const view_source_t *s = v->src;
    memset(f, 0, sizeof *f);
    f->trace = &s->trace;
    f->now = &s->cur.m;
    f->past = &s->past.m;
    f->clock = v->clock;
    double sp = speed_of(v);
    /* Between two clocks only when slow enough to see words glide; faster, every frame shows whole clocks. */
    f->frac = v->playing && sp > 0 && sp <= 20 ? (float)v->acc : 0;
    f->first = view_source_first(s);
    f->head = view_source_head(s);
    f->live = view_source_growing(s);
    f->playing = v->playing;
    f->speed = sp;
    f->selected = v->selected;
    f->help = v->help;
    f->legend = v->legend;
    f->title = v->o.title;
    f->narrative = v->o.narrative;
    f->show_fps = v->fps_on;
    f->fps = v->fps;
    f->clocks_per_s = v->cps;
    f->zoom = v->zoom;
    f->view_x = v->view_x;
    f->view_y = v->view_y;
    f->scale = v->scale;
    f->channel = v->selected >= 0 ? v->channel : -1;
    frame_cycle(v, f);
}

/* Zooms by `factor`, keeping the cell under pixel (x, y) where it is (the grid's middle when x < 0). */
static void zoom_by(viewer_t *v, float factor, int x, int y)
{
    const render_layout_t *L = &v->rd.lay;
    float z = v->zoom * factor;
    z = z < 1 ? 1 : z > VIEW_MAX_ZOOM ? VIEW_MAX_ZOOM : z;
    if (L->pitch_x <= 0 || z == v->zoom)
        return;
    if (x < 0) {
        x = L->grid.x + L->grid.w / 2;
        y = L->grid.y + L->grid.h / 2;
    }
    float cx, cy;
    render_grid_coord(&v->rd, x, y, &cx, &cy);
    /* After the zoom the same cell coordinate sits under the pointer: the middle moves towards it. */
    float k = v->zoom / z;
    float vx = L->view_x, vy = L->view_y;
    v->view_x = cx + (vx - cx) * k;
    v->view_y = cy + (vy - cy) * k;
    v->zoom = z;
    if (z == 1)
        v->view_x = v->view_y = -1;
}

static void log_state(viewer_t *v)
{
    if (v->log == NULL)
        return;
    char line[256];
    snprintf(line, sizeof line,
             "clock=%" PRIu64 " playing=%d speed=%g help=%d legend=%d selected=%d zoom=%.2f scale=%.2f channel=%d\n",
             v->clock, v->playing, speed_of(v), v->help, v->legend, v->selected, v->zoom, v->scale, v->channel);
    if (strcmp(line, v->last_log) != 0) {
        fputs(line, v->log);
        fflush(v->log);
        snprintf(v->last_log, sizeof v->last_log, "%s", line);
    }
}

void viewer_clamp_clock(viewer_t *v)
{
    uint64_t first = view_source_first(v->src), head = view_source_head(v->src);
    if (v->clock < first)
        v->clock = first;
    if (v->clock > head)
        v->clock = head;
}

/* Moves the cursor to `clock`, running a live array there first when it is ahead. */
static void go_to(viewer_t *v, uint64_t clock)
{
    if (clock > view_source_head(v->src))
        view_source_advance(v->src, clock, 0.5);
    v->clock = clock;
    v->acc = 0;
    viewer_clamp_clock(v);
}

static void mark_jump(viewer_t *v, bool forward)
{
    const view_trace_t *t = &v->src->trace;
    if (forward) {
        for (size_t i = 0; i < t->nmarks; i++)
            if (t->marks[i].clock > v->clock) {
                go_to(v, t->marks[i].clock);
                return;
            }
    } else {
        for (size_t i = t->nmarks; i-- > 0;)
            if (t->marks[i].clock < v->clock) {
                go_to(v, t->marks[i].clock);
                return;
            }
    }
}

static void act(viewer_t *v, view_action_t a)
{
    unsigned n;
    view_speeds(&n);
    switch (a) {
    case ACT_QUIT: v->quit = true; break;
    case ACT_PLAY:
        if (!v->playing && v->clock >= view_source_head(v->src) && !view_source_growing(v->src))
            v->clock = view_source_first(v->src); /* play again from the start */
        v->playing = !v->playing;
        v->acc = 0;
        break;
    case ACT_STEP:
        v->playing = false;
        go_to(v, v->clock + 1);
        break;
    case ACT_BACK:
        v->playing = false;
        go_to(v, v->clock > 0 ? v->clock - 1 : 0);
        break;
    case ACT_FASTER:
        if (v->speed_i + 1 < n)
            v->speed_i++;
        break;
    case ACT_SLOWER:
        if (v->speed_i > 0)
            v->speed_i--;
        break;
    case ACT_FULL:
        if (v->speed_i == n - 1) {
            v->speed_i = v->speed_before_full;
        } else {
            v->speed_before_full = v->speed_i;
            v->speed_i = n - 1;
            v->playing = true;
        }
        break;
    case ACT_JUMP_BACK: go_to(v, v->clock > JUMP_CLOCKS ? v->clock - JUMP_CLOCKS : 0); break;
    case ACT_JUMP_ON: go_to(v, v->clock + JUMP_CLOCKS); break;
    case ACT_HOME: go_to(v, view_source_first(v->src)); break;
    case ACT_END: go_to(v, view_source_head(v->src)); break;
    case ACT_PREV_MARK: mark_jump(v, false); break;
    case ACT_NEXT_MARK: mark_jump(v, true); break;
    case ACT_HELP: v->help = !v->help; break;
    case ACT_LEGEND: v->legend = !v->legend; break;
    case ACT_FPS: v->fps_on = !v->fps_on; break;
    case ACT_SHOT: v->shot_pending = true; break;
    case ACT_ZOOM_IN: zoom_by(v, 1.5f, -1, -1); break;
    case ACT_ZOOM_OUT: zoom_by(v, 1 / 1.5f, -1, -1); break;
    /* Steps of a quarter: 1.25 is already a row or two further back in the hall. */
    case ACT_TEXT_LARGER: v->scale = fminf(v->scale + 0.25f, VIEW_MAX_SCALE); break;
    case ACT_TEXT_SMALLER: v->scale = fmaxf(v->scale - 0.25f, 1); break;
    case ACT_ZOOM_FIT:
        v->zoom = 1;
        v->view_x = v->view_y = -1;
        break;
    case ACT_CHANNEL_NEXT: v->channel = next_channel(v, 1); break;
    case ACT_CHANNEL_PREV: v->channel = next_channel(v, -1); break;
    case ACT_ESCAPE:
        if (v->help)
            v->help = false;
        else if (v->channel >= 0)
            v->channel = -1;
        else
            select_cell(v, -1);
        break;
    case ACT_NONE: break;
    }
}

/* Mouse coordinates are in window points; the frame is drawn in pixels (they differ on HiDPI screens). */
static void to_pixels(const viewer_t *v, int *x, int *y)
{
    int ww, wh, pw, ph;
    SDL_GetWindowSize(v->win, &ww, &wh);
    SDL_GetRendererOutputSize(v->ren, &pw, &ph);
    if (ww > 0 && wh > 0) {
        *x = *x * pw / ww;
        *y = *y * ph / wh;
    }
}

static void scrub(viewer_t *v, int x, int y)
{
    double where;
    if (!render_timeline_at(&v->rd, x, y, &where))
        return;
    uint64_t first = view_source_first(v->src), head = view_source_head(v->src);
    v->clock = first + (uint64_t)llround(where * (double)(head - first));
    v->acc = 0;
}

static void handle(viewer_t *v, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: v->quit = true; break;
    case SDL_KEYDOWN: act(v, view_key_action(e->key.keysym.sym)); break;
    case SDL_MOUSEBUTTONDOWN: {
        if (e->button.button != SDL_BUTTON_LEFT)
            break;
        int x = e->button.x, y = e->button.y;
        to_pixels(v, &x, &y);
        double where;
        if (render_timeline_at(&v->rd, x, y, &where)) {
            v->dragging = true;
            scrub(v, x, y);
            break;
        }
        int lc = render_channel_at(&v->rd, x, y);
        if (lc >= 0) { /* a row of the channel table: trace that channel's pathway, or stop */
            v->channel = lc == v->channel ? -1 : lc;
            break;
        }
        const SDL_Rect *g = &v->rd.lay.grid;
        if (x >= g->x && x < g->x + g->w && y >= g->y && y < g->y + g->h) {
            v->panning = true;
            v->panned = false;
            v->pan_x0 = x;
            v->pan_y0 = y;
            v->pan_vx0 = v->rd.lay.view_x;
            v->pan_vy0 = v->rd.lay.view_y;
        }
        break;
    }
    case SDL_MOUSEMOTION: {
        int x = e->motion.x, y = e->motion.y;
        to_pixels(v, &x, &y);
        if (v->dragging)
            scrub(v, x, y);
        else if (v->panning && v->zoom > 1 && (v->panned || abs(x - v->pan_x0) + abs(y - v->pan_y0) > 4)) {
            const render_layout_t *L = &v->rd.lay;
            v->view_x = v->pan_vx0 - (float)(x - v->pan_x0) / L->pitch_x;
            v->view_y = v->pan_vy0 - (float)(y - v->pan_y0) / L->pitch_y;
            v->panned = true; /* a drag: the button's release selects nothing */
        }
        break;
    }
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT && v->panning && !v->panned) {
            int x = e->button.x, y = e->button.y;
            to_pixels(v, &x, &y);
            int cell = render_cell_at(&v->rd, x, y);
            if (cell >= 0)
                select_cell(v, cell == v->selected ? -1 : cell);
        }
        v->dragging = false;
        v->panning = false;
        break;
    case SDL_MOUSEWHEEL: {
        /* Over the grid the wheel zooms at the pointer; elsewhere it changes the speed. */
        int x, y;
        SDL_GetMouseState(&x, &y);
        to_pixels(v, &x, &y);
        const SDL_Rect *g = &v->rd.lay.grid;
        if (x >= g->x && x < g->x + g->w && y >= g->y && y < g->y + g->h)
            zoom_by(v, e->wheel.y > 0 ? 1.25f : e->wheel.y < 0 ? 0.8f : 1, x, y);
        else
            act(v, e->wheel.y > 0 ? ACT_FASTER : e->wheel.y < 0 ? ACT_SLOWER : ACT_NONE);
        break;
    }
    default: break;
    }
}

/* Moves the play head by the time that passed; at full speed a live array runs for what is left of the
 * frame's time. */
static void play(viewer_t *v, double dt, double spare)
{
    if (!v->playing || v->dragging)
        return;
    double sp = speed_of(v);
    if (sp <= 0) {
        if (view_source_growing(v->src)) {
            view_source_advance(v->src, UINT64_MAX, spare);
            v->clock = view_source_head(v->src);
        } else {
            v->clock += (uint64_t)(REPLAY_FULL_SPEED * dt) + 1;
        }
    } else {
        v->acc += sp * dt;
        uint64_t adv = (uint64_t)v->acc;
        v->acc -= (double)adv;
        v->clock += adv;
        if (v->clock > view_source_head(v->src))
            view_source_advance(v->src, v->clock, spare);
    }
    uint64_t head = view_source_head(v->src);
    if (v->clock >= head) {
        v->clock = head;
        if (!view_source_growing(v->src)) {
            v->playing = false; /* the end of the run */
            v->acc = 0;
        }
    }
}

static double now_s(void)
{
    return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

static int open_window(viewer_t *v)
{
    bool up = SDL_Init(SDL_INIT_VIDEO) == 0;
    /* With no display SDL falls back to a driver that shows nothing, and the viewer would run unseen until
     * killed; unless someone asked for that driver, say so instead. */
    const char *driver = up ? SDL_GetCurrentVideoDriver() : NULL;
    const char *asked = getenv("SDL_VIDEODRIVER");
    bool unseen = driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0) &&
                  (asked == NULL || strcmp(asked, driver) != 0);
    if (!up || unseen) {
        fprintf(stderr,
                "iwarp view: no display (SDL: %s); `--screenshot FILE` draws a frame without one, or run under "
                "xvfb-run\n",
                up ? "only an invisible video driver" : SDL_GetError());
        if (up)
            SDL_Quit();
        return -1;
    }
    v->win =
        SDL_CreateWindow(v->o.title != NULL ? v->o.title : "iwarp view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                         v->o.width, v->o.height, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (v->win == NULL) {
        fprintf(stderr, "iwarp view: cannot open a window: %s\n", SDL_GetError());
        return -1;
    }
    SDL_SetWindowMinimumSize(v->win, 640, 400);
    Uint32 flags = v->o.bench_frames > 0 ? 0 : SDL_RENDERER_PRESENTVSYNC;
    v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_ACCELERATED | flags);
    if (v->ren == NULL)
        v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
    if (v->ren == NULL) {
        fprintf(stderr, "iwarp view: no renderer: %s\n", SDL_GetError());
        return -1;
    }
    return 0;
}

static void close_window(viewer_t *v)
{
    if (v->ren != NULL)
        SDL_DestroyRenderer(v->ren);
    if (v->win != NULL)
        SDL_DestroyWindow(v->win);
    SDL_Quit();
}

/* A narrative paragraph with `select X,Y` shows that cell's details when the clock comes into its range, so
 * the panel shows what the text talks about; a click may choose another cell until the next such paragraph. */
void viewer_follow_narrative(viewer_t *v)
{
    if (v->o.narrative == NULL || v->clock == v->narrative_clock)
        return;
    int x, y;
    unsigned w = v->src->trace.st.l.width, h = v->src->trace.st.l.height;
    if (demo_select_entered(v->o.narrative, v->narrative_clock, v->clock, &x, &y) && (unsigned)x < w &&
        (unsigned)y < h)
        select_cell(v, (int)((unsigned)y * w + (unsigned)x));
    v->narrative_clock = v->clock;
}

void viewer_init_state(viewer_t *v, view_source_t *src, const viewer_opts_t *o)
{
    memset(v, 0, sizeof *v);
    v->o = *o;
    v->src = src;
    v->clock = view_source_first(src);
    v->playing = !o->paused;
    v->speed_i = speed_index(o->speed);
    v->speed_before_full = v->speed_i == speed_index(0) ? speed_index(20) : v->speed_i;
    v->selected = o->select;
    v->channel = o->select >= 0 ? o->channel : -1;
    v->live_cycle_clock = UINT64_MAX;
    /* A cell chosen at the start stays chosen there; the narrative's selections take over as the clock moves. */
    v->narrative_clock = o->select >= 0 ? v->clock : UINT64_MAX;
    v->help = o->help;
    v->legend = o->legend;
    v->fps_on = o->fps;
    v->zoom = o->zoom > 1 ? (o->zoom > VIEW_MAX_ZOOM ? VIEW_MAX_ZOOM : o->zoom) : 1;
    v->view_x = o->view_x;
    v->view_y = o->view_y;
    v->scale = o->scale >= 1 ? (o->scale > VIEW_MAX_SCALE ? VIEW_MAX_SCALE : o->scale) : 1;
}

int viewer_main(view_source_t *src, const viewer_opts_t *o)
{
    viewer_t *v = calloc(1, sizeof *v);
    if (v == NULL)
        return 2;
    viewer_init_state(v, src, o);
    int rc = 0;
    if (o->bench_frames > 0) {
        v->playing = true;
        v->speed_i = speed_index(0);
    }
    if (o->log_path != NULL && (v->log = fopen(o->log_path, "w")) == NULL) {
        fprintf(stderr, "iwarp view: %s: cannot write the log\n", o->log_path);
        free(v);
        return 2;
    }
    view_offscreen_t off = {0};
    char err[512];
    if (o->headless) {
        if (view_offscreen_init(&off, o->width, o->height, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp view: %s\n", err);
            rc = 2;
            goto out;
        }
        v->ren = off.ren;
    } else if (open_window(v) != 0) {
        rc = 2;
        goto out;
    }
    if (render_init(&v->rd, v->ren, o->font_dir, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp view: %s\n", err);
        rc = 2;
        goto out;
    }
    double last = now_s(), frame_cost = 0, t_bench = last, fps_t = last;
    uint64_t frames = 0, fps_frames = 0, fps_clock = v->clock, bench_clock = v->clock;
    while (!v->quit) {
        SDL_Event e;
        while (!o->headless && SDL_PollEvent(&e))
            handle(v, &e);
        double t = now_s(), dt = t - last;
        last = t;
        /* Whatever the frame does not need for drawing goes to the emulator at full speed. */
        double spare = FRAME_S - frame_cost;
        play(v, dt > 0.25 ? 0.25 : dt, spare < MIN_EMULATE_S ? MIN_EMULATE_S : spare);
        viewer_clamp_clock(v);
        viewer_follow_narrative(v);
        find_live_cycle(v);
        if (view_source_seek(v->src, v->clock, VIEW_UTIL_WINDOW) != 0) {
            fprintf(stderr, "iwarp view: %s\n", v->src->trace.error[0] ? v->src->trace.error : "bad recording");
            rc = 1;
            break;
        }
        double r0 = now_s();
        render_frame_t f;
        viewer_fill_frame(v, &f);
        int w, h;
        SDL_GetRendererOutputSize(v->ren, &w, &h);
        render_frame(&v->rd, &f, w, h);
        if (v->shot_pending) {
            /* Named for the clock; a second one at the same clock does not overwrite the first. */
            char path[64];
            snprintf(path, sizeof path, "iwarp-view-%" PRIu64 ".png", v->clock);
            for (unsigned k = 2; access(path, F_OK) == 0 && k < 1000; k++)
                snprintf(path, sizeof path, "iwarp-view-%" PRIu64 "-%u.png", v->clock, k);
            if (view_window_png(v->ren, path, err, sizeof err) != 0)
                fprintf(stderr, "iwarp view: %s\n", err);
            else if (v->log != NULL)
                fprintf(v->log, "shot=%s\n", path), fflush(v->log);
            v->shot_pending = false;
        }
        if (!o->headless)
            SDL_RenderPresent(v->ren);
        frame_cost = now_s() - r0;
        if (frames == 0 && v->log != NULL) {
            /* Where to click, for tests that drive the window with a mouse (in window points). */
            const render_layout_t *L = &v->rd.lay;
            int ww = w, wh = h;
            if (v->win != NULL)
                SDL_GetWindowSize(v->win, &ww, &wh);
            double kx = w > 0 ? (double)ww / w : 1, ky = h > 0 ? (double)wh / h : 1;
            fprintf(v->log, "layout cell0=%d,%d bar=%d,%d,%d\n", (int)((L->ox + L->box_w / 2) * kx),
                    (int)((L->oy + L->box_h / 2) * ky), (int)(L->bar.x * kx), (int)((L->bar.y + L->bar.h / 2) * ky),
                    (int)(L->bar.w * kx));
            fflush(v->log);
        }
        log_state(v);
        frames++;
        fps_frames++;
        if (t - fps_t >= 0.5) {
            v->fps = (double)fps_frames / (t - fps_t);
            v->cps = (double)(v->clock - fps_clock) / (t - fps_t);
            fps_t = t;
            fps_frames = 0;
            fps_clock = v->clock;
        }
        if (o->bench_frames > 0 && frames >= o->bench_frames) {
            double secs = now_s() - t_bench;
            const view_layout_t *l = &v->src->trace.st.l;
            printf("iwarp view: %" PRIu64 " frames in %.2f s: %.1f frames/s, %.0f clocks/s (%ux%u array, full speed, "
                   "%dx%d %s)\n",
                   frames, secs, (double)frames / secs, (double)(v->clock - bench_clock) / secs, l->width, l->height, w,
                   h, o->headless ? "offscreen" : "window");
            break;
        }
    }
    if (o->record != NULL && v->src->a != NULL && view_source_save(v->src, o->record, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp view: %s\n", err);
        rc = 2;
    }
    render_free(&v->rd);
out:
    if (o->headless)
        view_offscreen_free(&off);
    else
        close_window(v);
    if (v->log != NULL)
        fclose(v->log);
    free(v);
    return rc;
}
