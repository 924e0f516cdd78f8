/* Frames drawn offscreen from a live source, for the viewer's pixel tests. */
#include "view_scene.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

void view_scene_open(view_scene_t *s, const char *title, uint64_t clock, int w, int h)
{
    char err[512];
    assert_int_equal(view_source_live(&s->src, s->run.a, s->run.desc.max_cycles, title, err, sizeof err), 0);
    view_source_advance(&s->src, clock, 10);
    assert_int_equal(view_source_seek(&s->src, clock, VIEW_UTIL_WINDOW), 0);
    if (view_offscreen_init(&s->off, w, h, err, sizeof err) != 0 ||
        render_init(&s->rd, s->off.ren, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    s->clock = clock;
    s->w = w;
    s->h = h;
}

void view_scene_frame(const view_scene_t *s, render_frame_t *f)
{
    memset(f, 0, sizeof *f);
    f->trace = &s->src.trace;
    f->now = &s->src.cur.m;
    f->past = &s->src.past.m;
    f->clock = s->clock;
    f->first = view_source_first(&s->src);
    f->head = view_source_head(&s->src);
    f->selected = f->channel = -1;
    f->legend = true;
    f->zoom = f->scale = 1;
    f->view_x = f->view_y = -1;
}

void view_scene_close(view_scene_t *s)
{
    render_free(&s->rd);
    view_offscreen_free(&s->off);
    view_source_close(&s->src);
    view_test_free(&s->run);
}
