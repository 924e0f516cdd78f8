/*
 * Drawing one frame of the viewer from the view model: the torus as a grid of cells (state, the occupancy
 * of every logical channel), links with their utilization, pathways as coloured stripes, words on the
 * wire; a top bar (title, clock, phase, play state), a side panel (narrative, cell details, legend), a
 * timeline with the marks, and the help overlay. A frame depends only on what render_frame_t holds, so the
 * window, the screenshots and the golden-frame tests draw the same pixels for the same frame.
 */
#ifndef VIEW_RENDER_H
#define VIEW_RENDER_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "text.h"
#include "trace.h"

typedef struct render_frame {
    const view_trace_t *trace; /* static information, marks, faults, the end */
    const view_model_t *now;   /* the model at `clock` */
    const view_model_t *past;  /* the model at clock - VIEW_UTIL_WINDOW (or the first clock) */
    uint64_t clock;
    float frac;           /* how far into the next clock the animation is, 0..1 */
    uint64_t first, head; /* the timeline: the first clock and the last one known */
    bool live;            /* the run goes on: the end is not known yet */
    bool playing;
    double speed; /* clocks per second; 0: full speed */
    int selected; /* cell index, -1: none */
    bool help;    /* the keyboard-help overlay */
    bool legend;  /* the legend in the side panel */
    const char *title;
    const char *narrative; /* paragraphs separated by blank lines, or NULL */
    bool show_fps;
    double fps, clocks_per_s;
    /* Zoom over the grid: 1 (or less) fits the whole array; above, cells are that much larger and the grid
     * shows the part around (view_x, view_y), in cells (negative: the middle of the array). */
    float zoom, view_x, view_y;
    /* Text and the panels around the grid this much larger than the window size alone makes them (1..4): a
     * lecture hall reads the panel from the back row. */
    float scale;
    /* A wait cycle drawn on the grid (not owned): the run's from the clock it closed at, or the live array's
     * when paused at its clock; NULL when none. */
    const emu_wait_step_t *cycle;
    unsigned ncycle;
    uint64_t cycle_since; /* the clock it closed at */
    bool cycle_live;      /* found in the live array at this clock: the run goes on */
    int channel;          /* a channel of the selected cell whose pathway is drawn, -1: none */
} render_frame_t;

typedef struct render_layout {
    int w, h;
    float s; /* window scale: 1 at 1280x800 */
    float t; /* text and panel scale: s times the frame's presentation scale */
    SDL_Rect top, grid, panel, timeline;
    SDL_Rect bar; /* the timeline's track */
    /* Cell (x, y) is a box_w x box_h box at (ox + x * pitch_x, oy + y * pitch_y); links cross the gaps. */
    float pitch_x, pitch_y, box_w, box_h, gap, ox, oy;
    unsigned cw, ch;      /* array size */
    float zoom;           /* as drawn (at least 1) */
    float view_x, view_y; /* the cell coordinate at the middle of the grid, after clamping */
    /* Rulers of x and y along the grid when cells are too small to carry their own "(x,y)". */
    bool rulers;
    SDL_Rect ruler_x, ruler_y;
    unsigned ruler_step; /* every how many columns/rows a number is written */
    int ruler_font;      /* its size in pixels */
    SDL_Rect minimap;    /* when zoomed: the whole array, with the part shown; w = 0 when none */
} render_layout_t;

/* A row of the selected cell's channel table in the side panel, where the last frame drew it (for clicks). */
typedef struct render_row {
    int y0, y1;
    unsigned lc;
} render_row_t;

typedef struct render {
    SDL_Renderer *ren;
    text_t text;
    render_layout_t lay;
    uint8_t *fed; /* per channel of the frame: a pathway that something feeds (see render_lc_colour) */
    size_t fed_cap;
    render_row_t rows[COA_MAX_CHANNELS];
    unsigned nrows;
    int rows_x0, rows_x1;
} render_t;

int render_init(render_t *r, SDL_Renderer *ren, const char *font_dir, char *err, size_t errlen);
void render_free(render_t *r);
/* Draws the whole frame into a w x h target (clears it first). */
void render_frame(render_t *r, const render_frame_t *f, int w, int h);

/* Where the last frame wrote the ruler number of column (x_axis) or row i: false when it wrote none. */
bool render_ruler_label(const render_t *r, bool x_axis, unsigned i, SDL_Rect *where);
/* The cell coordinate (fractional) under pixel (x, y) of the last frame's grid. */
void render_grid_coord(const render_t *r, int x, int y, float *cx, float *cy);

/* Hit tests on the last frame's layout: the cell under (x, y) or -1; the timeline position 0..1; the channel
 * whose row of the side panel's table is under (x, y), or -1. */
int render_cell_at(const render_t *r, int x, int y);
int render_channel_at(const render_t *r, int x, int y);
/* Where the last frame drew link d of `cell`: the band of each segment (two for a wrap-around link, out through
 * one edge of the grid and in through the other); returns how many. */
unsigned render_lane_rects(const render_t *r, unsigned cell, unsigned d, SDL_Rect rects[2]);
bool render_timeline_at(const render_t *r, int x, int y, double *where);

/* --- shared between render.c and panel.c --- */

typedef struct render_theme {
    SDL_Color bg, panel, line, text, muted, cell, slot, selected;
    SDL_Color cycle; /* the outline of a wait cycle's cells and links: no cell state's, no pathway's colour */
    SDL_Color run, wait_in, wait_out, halted, fault, idle;
    SDL_Color util_lo, util_mid, util_hi;
} render_theme_t;

const render_theme_t *render_theme(void);
SDL_Color render_path_colour(uint64_t path);
/* A channel's colour: its pathway's, or grey for a static route that nothing feeds yet (a pattern or a
 * runtime's ring set up in advance), so the pathways in use stand out. */
SDL_Color render_lc_colour(const render_t *r, const view_model_t *m, unsigned cell, unsigned lc);
SDL_Color render_util_colour(float u);
/* A cell's state colour and short label ("run", "in gi0", "out go0", "halt", "fault", "idle"). */
SDL_Color render_state(const view_model_t *m, const uint64_t *cell, bool has_program, char *label, size_t cap);
/* Utilization of link d of a cell over the window: 0..1. */
float render_link_util(const render_frame_t *f, unsigned cell, unsigned d);
/* Words in flight: where the last word sent on link d is (0..1 along the link), or -1 when none is. */
float render_word_pos(const render_frame_t *f, const uint64_t *cell, unsigned d);

void panel_draw_top(render_t *r, const render_frame_t *f);
void panel_draw_side(render_t *r, const render_frame_t *f);
void panel_draw_timeline(render_t *r, const render_frame_t *f);
void panel_draw_help(render_t *r, const render_frame_t *f);

#endif
