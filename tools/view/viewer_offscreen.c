/* The viewer's offscreen outputs: a screenshot of one clock, an animation of a span of clocks, drawn as the
 * window draws its frames (viewer_state.h) into a surface of their own, with no display. */
#include <stdio.h>

#include "anim.h"
#include "shot.h"
#include "viewer_state.h"

/* A surface to draw on with no display, and the renderer on it; 0, or 2 after saying why. */
static int offscreen_open(viewer_t *v, const viewer_opts_t *o, view_offscreen_t *off)
{
    char err[512];
    if (view_offscreen_init(off, o->width, o->height, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp view: %s\n", err);
        return 2;
    }
    if (render_init(&v->rd, off->ren, o->font_dir, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp view: %s\n", err);
        view_offscreen_free(off);
        return 2;
    }
    return 0;
}

int viewer_screenshot(view_source_t *src, const viewer_opts_t *o, uint64_t at, const char *path)
{
    viewer_t v;
    viewer_init_state(&v, src, o);
    /* Run on past the frame, so the timeline shows the whole run when it ends soon after; a number of
     * clocks rather than a time, so the frame is the same on any host. */
    view_source_advance(src, at > UINT64_MAX - SHOT_LOOKAHEAD ? UINT64_MAX : at + SHOT_LOOKAHEAD, 0);
    v.clock = at;
    viewer_clamp_clock(&v);
    viewer_follow_narrative(&v);
    char err[512];
    view_offscreen_t off;
    if (offscreen_open(&v, o, &off) != 0)
        return 2;
    int rc = 0;
    if (view_source_seek(src, v.clock, VIEW_UTIL_WINDOW) != 0) {
        fprintf(stderr, "iwarp view: %s\n", src->trace.error[0] ? src->trace.error : "bad recording");
        rc = 1;
    } else {
        render_frame_t f;
        viewer_fill_frame(&v, &f);
        render_frame(&v.rd, &f, o->width, o->height);
        if (view_offscreen_png(&off, path, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp view: %s\n", err);
            rc = 2;
        }
    }
    render_free(&v.rd);
    view_offscreen_free(&off);
    return rc;
}

int viewer_animation(view_source_t *src, const viewer_opts_t *o, uint64_t from, uint64_t to, uint64_t step, double fps,
                     const char *path)
{
    viewer_t v;
    viewer_init_state(&v, src, o);
    v.playing = true; /* the top bar says the run plays */
    view_source_advance(src, to > UINT64_MAX - SHOT_LOOKAHEAD ? UINT64_MAX : to + SHOT_LOOKAHEAD, 0);
    uint64_t first = view_source_first(src), head = view_source_head(src);
    from = from < first ? first : from > head ? head : from;
    to = to > head ? head : to < from ? from : to;
    char err[512];
    view_offscreen_t off;
    if (offscreen_open(&v, o, &off) != 0)
        return 2;
    int rc = 0;
    anim_gif_t *gif = NULL;
    if ((gif = anim_gif_open(path, o->width, o->height, fps, err, sizeof err)) == NULL) {
        fprintf(stderr, "iwarp view: %s\n", err);
        rc = 2;
    }
    /* Twice: the palette is the whole animation's, so every frame is seen before the first is written. The
     * frames are drawn again rather than kept: 4 MB each at 1280x800. */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        /* Both passes follow the narrative's selections from the same start (init_state's). */
        v.narrative_clock = o->select >= 0 ? first : UINT64_MAX;
        v.selected = o->select;
        v.channel = o->select >= 0 ? o->channel : -1;
        for (uint64_t clock = from; rc == 0; clock = clock + step > to && clock < to ? to : clock + step) {
            v.clock = clock;
            viewer_follow_narrative(&v);
            if (view_source_seek(src, clock, VIEW_UTIL_WINDOW) != 0) {
                fprintf(stderr, "iwarp view: %s\n", src->trace.error[0] ? src->trace.error : "bad recording");
                rc = 1;
                break;
            }
            render_frame_t f;
            viewer_fill_frame(&v, &f);
            render_frame(&v.rd, &f, o->width, o->height);
            const uint32_t *px = off.surface->pixels;
            size_t pitch = (size_t)off.surface->pitch;
            if ((pass == 0 ? anim_gif_learn(gif, px, pitch, err, sizeof err)
                           : anim_gif_frame(gif, px, pitch, err, sizeof err)) != 0) {
                fprintf(stderr, "iwarp view: %s\n", err);
                rc = 2;
            }
            if (clock >= to)
                break;
        }
    }
    if (gif != NULL && rc != 0)
        anim_gif_abort(gif);
    else if (gif != NULL && anim_gif_close(gif, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp view: %s\n", err);
        rc = 2;
    }
    render_free(&v.rd);
    view_offscreen_free(&off);
    return rc;
}
