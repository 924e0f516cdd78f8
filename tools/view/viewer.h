/* The viewer: a window that plays a source (live array or recording) with speed control, stepping,
 * scrubbing and cell details; and the same frames drawn without a display. */
#ifndef VIEW_VIEWER_H
#define VIEW_VIEWER_H

#include <stdbool.h>
#include <stdint.h>

#include "source.h"

typedef struct viewer_opts {
    const char *title;
    const char *narrative; /* paragraphs, or NULL */
    int width, height;     /* window or image size */
    bool paused;           /* start paused (else playing) */
    double speed;          /* clocks per second at the start; 0: full speed */
    int select;            /* cell selected at the start, -1: none */
    int channel;           /* of that cell: the channel whose pathway is traced, -1: none */
    bool help, legend, fps;
    unsigned bench_frames; /* play at full speed for this many frames, print the frame rate and quit */
    bool headless;         /* with --bench-frames: draw offscreen, no window */
    const char *log_path;  /* a line per change of what is shown (for tests driving the window) */
    const char *font_dir;
    const char *record;   /* live: write the recording here on exit */
    float zoom;           /* 1: the whole array fits (default); up to VIEW_MAX_ZOOM */
    float view_x, view_y; /* the cell at the middle of the grid when zoomed; negative: the array's middle */
    float scale;          /* text and panels, for a projector: 1 (default) to VIEW_MAX_SCALE; keys + - */
} viewer_opts_t;

#define VIEW_MAX_ZOOM 16.0f
#define VIEW_MAX_SCALE 4.0f

void viewer_opts_defaults(viewer_opts_t *o);

/* Opens the window and runs until the user quits. Returns the command's exit status (0, 1, 2). */
int viewer_main(view_source_t *src, const viewer_opts_t *o);
/* Clocks `from` to `to` (clamped to the run) every `step` clocks, drawn without a display, as an animated GIF
 * shown at `fps` frames a second (anim.h). Returns the exit status (0, 1 damaged recording, 2 otherwise). */
int viewer_animation(view_source_t *src, const viewer_opts_t *o, uint64_t from, uint64_t to, uint64_t step, double fps,
                     const char *path);
/* Draws the frame at clock `at` (clamped to the run) without a display and writes it to a PNG. */
int viewer_screenshot(view_source_t *src, const viewer_opts_t *o, uint64_t at, const char *path);

#endif
