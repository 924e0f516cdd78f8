/* The viewer's state, shared by its window (viewer.c) and its offscreen outputs, screenshots and animations
 * (viewer_offscreen.c): both draw frames the same way from the same state. */
#ifndef TOOLS_VIEW_VIEWER_STATE_H
#define TOOLS_VIEW_VIEWER_STATE_H

#include <stdio.h>

#include "render.h"
#include "viewer.h"

/* How far past the frame a screenshot or animation runs the source, so that the timeline shows the whole run
 * when it ends soon after: a number of clocks, not a time, so the same command draws the same pixels anywhere. */
enum { SHOT_LOOKAHEAD = 100000 };

typedef struct viewer {
    viewer_opts_t o;
    view_source_t *src;
    uint64_t clock;
    double acc; /* clocks owed to the play head, below one */
    bool playing;
    unsigned speed_i, speed_before_full;
    int selected;
    int channel; /* of the selected cell, whose pathway is traced; -1: none */
    /* Live and paused at the array's clock: the wait cycle the detector finds there (found at live_cycle_clock,
     * UINT64_MAX: not looked for). */
    emu_wait_cycle_t live_cycle;
    uint64_t live_cycle_clock;
    uint64_t narrative_clock; /* the clock the narrative's selections were last followed at; UINT64_MAX: none */
    bool help, legend, fps_on;
    bool dragging;
    bool panning;               /* the left button went down on the grid: a drag pans, a click selects */
    bool panned;                /* ... and it moved: no click then */
    int pan_x0, pan_y0;         /* where it went down, in pixels */
    float pan_vx0, pan_vy0;     /* the view then */
    float zoom, view_x, view_y; /* render_frame_t's */
    float scale;                /* render_frame_t's */
    bool quit;
    bool shot_pending;
    double fps, cps;
    SDL_Window *win;
    SDL_Renderer *ren;
    render_t rd;
    FILE *log;
    char last_log[256];
} viewer_t;

/* The state of a viewer that has not drawn yet, on src with options o. */
void viewer_init_state(viewer_t *v, view_source_t *src, const viewer_opts_t *o);
/* Keeps the clock within what the source holds. */
void viewer_clamp_clock(viewer_t *v);
/* Selects the cell and channel the narrative names for the clock shown. */
void viewer_follow_narrative(viewer_t *v);
/* The frame to draw for the state. */
void viewer_fill_frame(const viewer_t *v, render_frame_t *f);

#endif
