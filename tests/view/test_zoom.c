/* The viewer past 8x8: at 32x32 the cells are too small for their names, so numbered rulers carry the
 * coordinates in a readable font; zoomed in, the cells carry their own "(x,y)" again, the grid shows the part
 * around the centre asked for, and a minimap the whole array. Drawn offscreen and checked pixel by pixel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "view_scene.h"

enum { W = 1280, H = 800 };

typedef view_scene_t scene_t;

/* A 32x32 array streaming on every link, at clock 150. */
static void scene_open(scene_t *s)
{
    memset(s, 0, sizeof *s);
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = m.height = 32;
    char path[4096];
    assert_int_equal(run_desc_single(&s->run.desc, view_test_path(path, sizeof path, "programs/bench/stream.s"), &m,
                                     (const uint32_t[]){200}, 1),
                     0);
    assert_int_equal(run_desc_build(&s->run.desc, NULL, 0, NULL, 0, &s->run.a), 0);
    view_scene_open(s, "stream.s", 150, W, H);
}

static void scene_draw(scene_t *s, float zoom, float vx, float vy)
{
    render_frame_t f;
    view_scene_frame(s, &f);
    f.title = "stream.s";
    f.zoom = zoom;
    f.view_x = vx;
    f.view_y = vy;
    render_frame(&s->rd, &f, W, H);
}

/* Pixels in r drawn in ink (text is the theme's near-black; a ruler has nothing else that dark). */
static unsigned dark_pixels(const scene_t *s, SDL_Rect r)
{
    const SDL_Surface *sf = s->off.surface;
    unsigned n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            if (x < 0 || y < 0 || x >= sf->w || y >= sf->h)
                continue;
            uint32_t p = ((const uint32_t *)((const uint8_t *)sf->pixels + (size_t)y * (size_t)sf->pitch))[x];
            unsigned red = p >> 16 & 0xff, green = p >> 8 & 0xff, blue = p & 0xff;
            n += red + green + blue < 3 * 140; /* ink, antialiased edges included */
        }
    return n;
}

static void test_rulers_carry_the_coordinates_at_32x32(void **state)
{
    (void)state;
    scene_t s;
    scene_open(&s);
    scene_draw(&s, 1, -1, -1);
    const render_layout_t *L = &s.rd.lay;
    assert_true(L->rulers);
    assert_true(L->ruler_font >= 10); /* readable on a projector */
    assert_true(L->ruler_step <= 2);
    for (unsigned i = 0; i < 32; i += L->ruler_step) {
        SDL_Rect at;
        assert_true(render_ruler_label(&s.rd, true, i, &at));
        if (dark_pixels(&s, at) < 8)
            fail_msg("column %u's number has %u dark pixels", i, dark_pixels(&s, at));
        assert_true(render_ruler_label(&s.rd, false, i, &at));
        if (dark_pixels(&s, at) < 8)
            fail_msg("row %u's number has %u dark pixels", i, dark_pixels(&s, at));
    }
    /* Between two numbers of the top ruler there is no ink: the numbers do not run into each other. */
    SDL_Rect a, b;
    assert_true(render_ruler_label(&s.rd, true, 10, &a));
    assert_true(render_ruler_label(&s.rd, true, 10 + L->ruler_step, &b));
    if (a.x + a.w >= b.x)
        fail_msg("column 10's number (x %d, %d wide) runs into the next (x %d)", a.x, a.w, b.x);
    assert_int_equal(L->minimap.w, 0);
    view_scene_close(&s);
}

static void test_zoomed_in_the_cells_carry_their_names(void **state)
{
    (void)state;
    scene_t s;
    scene_open(&s);
    scene_draw(&s, 4, 5.5f, 5.5f);
    const render_layout_t *L = &s.rd.lay;
    assert_false(L->rulers);
    assert_true(L->box_w >= 60);
    /* The middle of the grid shows cell (5,5), and its title "(5,5)" is drawn in its top-left corner. */
    int cell = render_cell_at(&s.rd, L->grid.x + L->grid.w / 2, L->grid.y + L->grid.h / 2);
    assert_int_equal(cell, 5 * 32 + 5);
    float bx = L->ox + 5 * L->pitch_x, by = L->oy + 5 * L->pitch_y;
    SDL_Rect title = {(int)bx + 2, (int)by + 2, (int)(L->box_w * 0.45f), (int)(L->box_h * 0.3f)};
    if (dark_pixels(&s, title) < 20)
        fail_msg("cell (5,5)'s title has %u dark pixels", dark_pixels(&s, title));
    /* Zoomed, a minimap in the grid's corner shows the whole array. */
    assert_true(L->minimap.w > 0 && L->minimap.h > 0);
    assert_true(L->minimap.x >= L->grid.x && L->minimap.x + L->minimap.w <= L->grid.x + L->grid.w);
    /* Panning past the edge is held at the edge: the grid never shows beyond the array. */
    scene_draw(&s, 4, 100, 100);
    float cx, cy;
    render_grid_coord(&s.rd, L->grid.x + L->grid.w, L->grid.y + L->grid.h, &cx, &cy);
    assert_true(cx <= 32.5f && cy <= 32.5f);
    view_scene_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulers_carry_the_coordinates_at_32x32),
        cmocka_unit_test(test_zoomed_in_the_cells_carry_their_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
