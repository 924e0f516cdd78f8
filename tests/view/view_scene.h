/* Frames drawn in the test itself, offscreen, from a live source: for tests that look at the layout or the
 * pixels of one frame (test_zoom, test_lecture). Needs SDL. */
#ifndef TESTS_VIEW_SCENE_H
#define TESTS_VIEW_SCENE_H

#include "render.h"
#include "shot.h"
#include "source.h"
#include "view_test.h"

typedef struct view_scene {
    view_test_run_t run; /* built by the test before view_scene_open */
    view_source_t src;
    view_offscreen_t off;
    render_t rd;
    uint64_t clock;
    int w, h;
} view_scene_t;

/* Records the array of s->run live, runs it to `clock` and opens a w x h offscreen renderer; fails the test on
 * error. */
void view_scene_open(view_scene_t *s, const char *title, uint64_t clock, int w, int h);
/* A frame at the scene's clock as the viewer starts: nothing selected, the legend, zoom and scale 1. */
void view_scene_frame(const view_scene_t *s, render_frame_t *f);
void view_scene_close(view_scene_t *s);

#endif
