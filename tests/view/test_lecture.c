/* The viewer in a lecture hall (issue 35), checked on the pixels `iwarp view` and `iwarp demo` write: the wait
 * cycle of the deadlock demo outlined on its links once it has formed, a chosen channel's pathway framed hop by
 * hop, --scale making the text taller, and an animation small for its frames that shows what the screenshots at
 * its first and last clocks show.
 *
 * Usage: test_view_lecture PATH/TO/iwarp. Frames are drawn offscreen (SDL_VIDEODRIVER=dummy). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <gif_lib.h>

#include "demo.h"
#include "view_png.h"
#include "view_scene.h"

enum { W = 1280, H = 800 };

static const char *iwarp = "build/tools/iwarp"; /* argv[1] */

static void temp_path(char *path, size_t cap, const char *name)
{
    snprintf(path, cap, "/tmp/iwarp-lecture-%d-%s", (int)getpid(), name);
}

/* Runs `iwarp ARGS` and fails the test unless it exits 0. */
static void run_iwarp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run_iwarp(const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", iwarp, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char out[4096];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("%s: %s", cmd, out);
}

typedef struct image {
    uint8_t *px; /* RGB */
    unsigned w, h;
} image_t;

static image_t read_png(const char *path)
{
    image_t im;
    char err[512];
    if (view_png_read(path, &im.px, &im.w, &im.h, err, sizeof err) != 0)
        fail_msg("%s", err);
    return im;
}

static unsigned count_colour(const image_t *im, SDL_Rect r, SDL_Color c)
{
    unsigned n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            if (x < 0 || y < 0 || (unsigned)x >= im->w || (unsigned)y >= im->h)
                continue;
            const uint8_t *p = im->px + ((size_t)y * im->w + (size_t)x) * 3;
            n += p[0] == c.r && p[1] == c.g && p[2] == c.b;
        }
    return n;
}

/* The layout the viewer draws a demo's array in at W x H (it depends on the size, the array and the zoom and
 * scale, 1 here, not on the clock), for where its links are. */
static void layout_open(view_scene_t *l, const char *demo)
{
    memset(l, 0, sizeof *l);
    char rel[256];
    snprintf(rel, sizeof rel, "programs/demos/%s.run", demo);
    view_test_build(&l->run, rel);
    view_scene_open(l, rel, 1, W, H);
    render_frame_t f;
    view_scene_frame(l, &f);
    render_frame(&l->rd, &f, W, H);
}

/* Pixels of colour c in the frame round link d of `cell`, in the middle third of each of its segments (cells'
 * rings reach into the ends of a link, not its middle), `t` pixels on either side of its band. */
static unsigned on_link(const view_scene_t *l, const image_t *im, unsigned cell, unsigned d, SDL_Color c, int t)
{
    SDL_Rect seg[2];
    unsigned n = render_lane_rects(&l->rd, cell, d, seg), found = 0;
    assert_true(n > 0);
    for (unsigned i = 0; i < n; i++) {
        SDL_Rect r = seg[i];
        if (r.w > r.h) /* horizontal */
            r = (SDL_Rect){r.x + r.w / 3, r.y - t, r.w / 3, r.h + 2 * t};
        else
            r = (SDL_Rect){r.x - t, r.y + r.h / 3, r.w + 2 * t, r.h / 3};
        found += count_colour(im, r, c);
    }
    return found;
}

/* The deadlock demo's rows each send two hops along +X; the detector's cycle is row 0's: channel 8 of each cell
 * waiting over its +X link. From the clock after it closed (107) to the end, those four links (the last wraps
 * round) are framed in the cycle's colour, and no other row's; before, no link is. */
static void test_the_deadlock_cycle_is_outlined_on_its_links(void **state)
{
    (void)state;
    view_scene_t l;
    layout_open(&l, "deadlock");
    SDL_Color cyc = render_theme()->cycle;
    static const uint64_t clocks[] = {100, 200, 425};
    for (size_t k = 0; k < sizeof clocks / sizeof clocks[0]; k++) {
        char png[256];
        temp_path(png, sizeof png, "deadlock.png");
        run_iwarp("demo deadlock --size %dx%d --screenshot %s --at %" PRIu64, W, H, png, clocks[k]);
        image_t im = read_png(png);
        for (unsigned y = 0; y < 4; y++)
            for (unsigned x = 0; x < 4; x++) {
                unsigned n = on_link(&l, &im, y * 4 + x, COA_DIR_PX, cyc, 3);
                bool want = y == 0 && clocks[k] > 107;
                if (want && n < 20)
                    fail_msg("clock %" PRIu64 ": the link (%u,%u) +X has %u pixels of the cycle's colour round it",
                             clocks[k], x, y, n);
                if (!want && n > 0)
                    fail_msg("clock %" PRIu64 ": the link (%u,%u) +X, not on the cycle, has %u pixels of its colour",
                             clocks[k], x, y, n);
            }
        if (clocks[k] <= 107) /* nothing outlined yet, anywhere on the grid */
            assert_int_equal(count_colour(&im, l.rd.lay.grid, cyc), 0);
        free(im.px);
        unlink(png);
    }
    view_scene_close(&l);
}

/* Round robin at clock 110 with (3,0) selected and its channel 8 chosen: the pathway from (0,0)'s spool to
 * (3,0)'s crosses the three +X links of row 0, framed in the selection's colour; without --channel nothing is. */
static void test_a_chosen_channel_traces_its_pathway(void **state)
{
    (void)state;
    view_scene_t l;
    layout_open(&l, "roundrobin");
    SDL_Color sel = render_theme()->selected;
    for (int chosen = 0; chosen < 2; chosen++) {
        char png[256];
        temp_path(png, sizeof png, "roundrobin.png");
        run_iwarp("demo roundrobin --size %dx%d --screenshot %s --at 110 --select 3,0%s", W, H, png,
                  chosen ? " --channel 8" : "");
        image_t im = read_png(png);
        for (unsigned x = 0; x < 3; x++) {
            unsigned n = on_link(&l, &im, x, COA_DIR_PX, sel, 2);
            if (chosen && n < 20)
                fail_msg("hop %u, (%u,0) +X, has %u pixels of the selection's colour round it", x + 1, x, n);
            if (!chosen && n > 0)
                fail_msg("no channel chosen, yet (%u,0) +X has %u pixels of the selection's colour round it", x, n);
        }
        /* The link back, -X, is no hop of it. */
        assert_int_equal(on_link(&l, &im, 1, COA_DIR_MX, sel, 2), 0);
        free(im.px);
        unlink(png);
    }
    view_scene_close(&l);
}

/* The height of the first run of rows with ink (the text's near-black) from the top, in the left half: the
 * title in the top bar, from the top of its capitals to the bottom of its descenders. */
static unsigned title_height(const image_t *im)
{
    unsigned first = 0, rows = 0;
    for (unsigned y = 0; y < im->h; y++) {
        bool ink = false;
        for (unsigned x = 0; x < im->w / 2 && !ink; x++) {
            const uint8_t *p = im->px + ((size_t)y * im->w + x) * 3;
            ink = p[0] + p[1] + p[2] < 3 * 100;
        }
        if (ink && rows == 0)
            first = y;
        if (ink)
            rows = y - first + 1;
        else if (rows > 0)
            break;
    }
    return rows;
}

/* --scale 2 draws the same frame with text twice as tall (within a pixel or two of hinting). */
static void test_scale_2_makes_the_text_taller(void **state)
{
    (void)state;
    unsigned height[2];
    for (int s = 1; s <= 2; s++) {
        char png[256];
        temp_path(png, sizeof png, "scale.png");
        run_iwarp("demo roundrobin --size %dx%d --screenshot %s --at 110 --scale %d", W, H, png, s);
        image_t im = read_png(png);
        height[s - 1] = title_height(&im);
        free(im.px);
        unlink(png);
    }
    print_message("title %u pixels tall at scale 1, %u at scale 2\n", height[0], height[1]);
    assert_true(height[0] >= 10);
    if (height[1] * 10 < height[0] * 17)
        fail_msg("the title is %u pixels tall at --scale 2, %u at 1", height[1], height[0]);
}

/* At --scale 2 on 1600x1000 the rows wormhole's narrative names at clock 150 with (1,0) selected (ch 0 header
 * no_channel, ch 8 no_space) stay in the panel: the story gives way, not the channel table (it had taken the whole
 * panel, and the table was gone without a "... more"). The panel notes each row it draws (render_t.rows). */
static void test_scale_2_keeps_the_channel_rows(void **state)
{
    (void)state;
    enum { BIG_W = 1600, BIG_H = 1000 };
    view_scene_t l;
    memset(&l, 0, sizeof l);
    view_test_build(&l.run, "programs/demos/wormhole.run");
    view_scene_open(&l, "programs/demos/wormhole.run", 150, BIG_W, BIG_H);
    demo_t d;
    char dir[4096], err[512];
    if (demo_load(&d, view_test_path(dir, sizeof dir, "programs/demos"), "wormhole", err, sizeof err) != 0)
        fail_msg("%s", err);
    render_frame_t f;
    view_scene_frame(&l, &f);
    f.narrative = d.narrative;
    f.scale = 2;
    f.selected = 1; /* (1,0) */
    render_frame(&l.rd, &f, BIG_W, BIG_H);
    assert_int_equal(l.rd.nrows, 2);
    bool ch0 = false, ch8 = false;
    for (unsigned i = 0; i < l.rd.nrows; i++) {
        ch0 |= l.rd.rows[i].lc == 0;
        ch8 |= l.rd.rows[i].lc == 8;
    }
    assert_true(ch0 && ch8);
    demo_free(&d);
    view_scene_close(&l);
}

/* The picture the decoder shows after each frame: every frame drawn over the one before (disposal "do not
 * dispose"), its transparent pixels leaving what was there. */
typedef struct canvas {
    uint8_t *rgb;
    int w, h;
} canvas_t;

static void paint(canvas_t *c, const GifFileType *g, int i)
{
    const SavedImage *im = &g->SavedImages[i];
    const GifImageDesc *d = &im->ImageDesc;
    const ColorMapObject *map = d->ColorMap != NULL ? d->ColorMap : g->SColorMap;
    GraphicsControlBlock gcb;
    assert_int_equal(DGifSavedExtensionToGCB((GifFileType *)g, i, &gcb), GIF_OK);
    assert_true(gcb.DisposalMode == DISPOSE_DO_NOT);
    assert_true(d->Left + d->Width <= c->w && d->Top + d->Height <= c->h);
    for (int y = 0; y < d->Height; y++)
        for (int x = 0; x < d->Width; x++) {
            int k = im->RasterBits[y * d->Width + x];
            if (k == gcb.TransparentColor)
                continue;
            assert_true(k < map->ColorCount);
            uint8_t *p = c->rgb + ((size_t)(d->Top + y) * (size_t)c->w + (size_t)(d->Left + x)) * 3;
            p[0] = map->Colors[k].Red, p[1] = map->Colors[k].Green, p[2] = map->Colors[k].Blue;
        }
}

/* Mean difference per channel, and the share of pixels with a channel more than 48 apart (test_golden's). */
static void expect_close(const uint8_t *a, const image_t *b, const char *what)
{
    uint64_t sum = 0, far = 0;
    size_t n = (size_t)b->w * b->h;
    for (size_t i = 0; i < n; i++) {
        int worst = 0;
        for (int k = 0; k < 3; k++) {
            int d = abs((int)a[i * 3 + k] - (int)b->px[i * 3 + k]);
            sum += (uint64_t)d;
            worst = d > worst ? d : worst;
        }
        far += worst > 48;
    }
    double mean = (double)sum / (double)(n * 3), share = (double)far / (double)n;
    print_message("%s: mean difference %.3f, %.4f%% of pixels far apart\n", what, mean, share * 100);
    if (mean > 1.0 || share > 0.002)
        fail_msg("%s differs from the screenshot: mean %.3f, %.3f%% far apart", what, mean, share * 100);
}

/* The deadlock demo from clock 0 to its end (425) every 5 clocks at 640x400: a GIF that giflib decodes, looping,
 * a frame per step at the rate asked; small for its frames (one palette for all, then only what changed: 6.6 MB
 * for 86 frames at 1280x800 with a palette per frame, each frame whole); and its first and last frames, as the
 * decoder shows them, are the screenshots at clocks 0 and 425. */
static void test_an_animation_is_small_and_shows_the_screenshots(void **state)
{
    (void)state;
    enum { AW = 640, AH = 400, FRAMES = 86 };
    char gif[256], first[256], last[256];
    temp_path(gif, sizeof gif, "deadlock.gif");
    temp_path(first, sizeof first, "first.png");
    temp_path(last, sizeof last, "last.png");
    run_iwarp("demo deadlock --animation %s --from 0 --to 425 --step 5 --rate 5 --size %dx%d", gif, AW, AH);
    run_iwarp("demo deadlock --screenshot %s --at 0 --size %dx%d", first, AW, AH);
    run_iwarp("demo deadlock --screenshot %s --at 425 --size %dx%d", last, AW, AH);
    struct stat st;
    assert_int_equal(stat(gif, &st), 0);
    /* A whole first frame (about 25 KB here), then a few KB a frame. */
    print_message("%d frames: %lld bytes\n", FRAMES, (long long)st.st_size);
    if (st.st_size > 40000 + 4000 * FRAMES)
        fail_msg("%d frames take %lld bytes, more than 40 KB + 4 KB a frame", FRAMES, (long long)st.st_size);
    int e = 0;
    GifFileType *g = DGifOpenFileName(gif, &e);
    if (g == NULL)
        fail_msg("%s: %s", gif, GifErrorString(e));
    assert_int_equal(DGifSlurp(g), GIF_OK);
    assert_int_equal(g->SWidth, AW);
    assert_int_equal(g->SHeight, AH);
    assert_int_equal(g->ImageCount, FRAMES);
    assert_non_null(g->SColorMap);
    GraphicsControlBlock gcb;
    assert_int_equal(DGifSavedExtensionToGCB(g, 0, &gcb), GIF_OK);
    assert_int_equal(gcb.DelayTime, 20); /* 5 frames a second */
    /* giflib files the extensions met before the first image with that image. */
    bool loops = false;
    const SavedImage *img0 = &g->SavedImages[0];
    for (int i = 0; i < img0->ExtensionBlockCount; i++)
        loops |= img0->ExtensionBlocks[i].Function == APPLICATION_EXT_FUNC_CODE &&
                 img0->ExtensionBlocks[i].ByteCount == 11 &&
                 memcmp(img0->ExtensionBlocks[i].Bytes, "NETSCAPE2.0", 11) == 0;
    assert_true(loops);
    /* The first frame is whole; the others only what changed. */
    assert_true(img0->ImageDesc.Width == AW && img0->ImageDesc.Height == AH);
    canvas_t c = {calloc((size_t)AW * AH, 3), AW, AH};
    assert_non_null(c.rgb);
    image_t a = read_png(first), b = read_png(last);
    uint8_t *shown0 = malloc((size_t)AW * AH * 3);
    assert_non_null(shown0);
    for (int i = 0; i < g->ImageCount; i++) {
        paint(&c, g, i);
        if (i == 0)
            memcpy(shown0, c.rgb, (size_t)AW * AH * 3);
    }
    expect_close(shown0, &a, "the first frame");
    expect_close(c.rgb, &b, "the last frame");
    /* The run moved: the two differ. */
    assert_memory_not_equal(shown0, c.rgb, (size_t)AW * AH * 3);
    free(shown0);
    free(c.rgb);
    free(a.px);
    free(b.px);
    DGifCloseFile(g, &e);
    unlink(gif);
    unlink(first);
    unlink(last);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_deadlock_cycle_is_outlined_on_its_links),
        cmocka_unit_test(test_a_chosen_channel_traces_its_pathway),
        cmocka_unit_test(test_scale_2_makes_the_text_taller),
        cmocka_unit_test(test_scale_2_keeps_the_channel_rows),
        cmocka_unit_test(test_an_animation_is_small_and_shows_the_screenshots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
