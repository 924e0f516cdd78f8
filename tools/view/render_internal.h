/* What the grid's files share (render.c: the layout, cells and frame; render_links.c: links, words in flight and
 * the outlines of a wait cycle or a traced pathway). Not for the viewer's other files: they use render.h. */
#ifndef TOOLS_VIEW_RENDER_INTERNAL_H
#define TOOLS_VIEW_RENDER_INTERNAL_H

#include "render.h"

enum { MAX_HOPS = 4 * EMU_MAX_DIM * EMU_MAX_DIM }; /* a pathway may pass a cell once per direction */

/* The top left corner of cell (x, y)'s box. */
static inline void render_cell_origin(const render_layout_t *L, unsigned x, unsigned y, float *bx, float *by)
{
    *bx = L->ox + (float)x * L->pitch_x;
    *by = L->oy + (float)y * L->pitch_y;
}

/* The lanes of every link: utilization, the pathways on them, their arrowheads; hop_at numbers the hops of a
 * traced pathway (0: not on it). */
void render_draw_links(render_t *r, const render_frame_t *f, const uint16_t *hop_at);
/* The words in flight, on top of the lanes. */
void render_draw_words(render_t *r, const render_frame_t *f);
/* The outlines of the wait cycle's lanes and of a traced pathway's. */
void render_draw_lane_frames(render_t *r, const render_frame_t *f, const view_hop_t *hops, unsigned nhops);

#endif
