/* Golden frames: screenshots of chosen clocks of the demos, drawn by the headless renderer, compared with
 * the PNGs in tests/golden/frames/ within a small tolerance (fonts may rasterize a little differently
 * elsewhere). A replayed recording draws the very same frame as the live run.
 *
 * Rebaseline after a change to what the viewer draws, then look at every changed PNG before committing:
 *     IWARP_REBASELINE=1 meson test -C build view_golden
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "demo.h"
#include "view_png.h"
#include "view_test.h"
#include "viewer.h"

enum { SHOT_W = 1280, SHOT_H = 800 };

typedef struct golden {
    const char *demo;
    uint64_t at;
    const char *file;
} golden_t;

/* Two demos at moments that show what they teach, and the end of the deadlock with its report. */
static const golden_t goldens[] = {
    {"roundrobin", 110, "roundrobin-110.png"},
    {"wormhole", 150, "wormhole-150.png"},
    {"deadlock", 1000, "deadlock-end.png"},
};

static void opts_for(viewer_opts_t *o, const demo_t *d, unsigned width)
{
    viewer_opts_defaults(o);
    o->width = SHOT_W;
    o->height = SHOT_H;
    o->title = d->title;
    o->narrative = d->narrative;
    if (d->has_speed)
        o->speed = d->speed;
    o->select = d->select_x >= 0 ? d->select_y * (int)width + d->select_x : -1;
}

/* Draws the demo's frame at `at`, live or (when `recording` is set) from a recording made on the way. */
static int shoot(const golden_t *g, const char *png, const char *record_to, const char *replay_from)
{
    char dir[4096], err[512];
    demo_t d;
    if (demo_load(&d, view_test_path(dir, sizeof dir, "programs/demos"), g->demo, err, sizeof err) != 0)
        fail_msg("%s", err);
    view_source_t *src = calloc(1, sizeof *src);
    assert_non_null(src);
    view_test_run_t r = {0};
    if (replay_from != NULL) {
        assert_int_equal(view_source_replay(src, replay_from, err, sizeof err), 0);
    } else {
        char rel[256];
        snprintf(rel, sizeof rel, "programs/demos/%s.run", g->demo);
        view_test_build(&r, rel);
        assert_int_equal(view_source_live(src, r.a, r.desc.max_cycles, rel, err, sizeof err), 0);
    }
    viewer_opts_t o;
    opts_for(&o, &d, src->trace.st.l.width);
    int rc = viewer_screenshot(src, &o, g->at, png);
    if (rc == 0 && record_to != NULL)
        assert_int_equal(view_source_save(src, record_to, err, sizeof err), 0);
    view_source_close(src);
    free(src);
    if (r.a != NULL)
        view_test_free(&r);
    demo_free(&d);
    return rc;
}

typedef struct diff {
    double mean; /* mean absolute difference per channel */
    double far;  /* share of pixels with a channel more than 48 apart */
} diff_t;

static diff_t compare(const uint8_t *a, const uint8_t *b, size_t pixels)
{
    uint64_t sum = 0, far = 0;
    for (size_t i = 0; i < pixels; i++) {
        int worst = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)a[i * 3 + c] - (int)b[i * 3 + c]);
            sum += (uint64_t)d;
            worst = d > worst ? d : worst;
        }
        far += worst > 48;
    }
    return (diff_t){(double)sum / (double)(pixels * 3), (double)far / (double)pixels};
}

/* Two PNGs of the same size; *pixels is their pixel count. */
static void read_pair(const char *pa, const char *pb, uint8_t **a, uint8_t **b, size_t *pixels)
{
    char err[512];
    unsigned aw, ah, bw, bh;
    if (view_png_read(pa, a, &aw, &ah, err, sizeof err) != 0 || view_png_read(pb, b, &bw, &bh, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(aw, bw);
    assert_int_equal(ah, bh);
    *pixels = (size_t)aw * ah;
}

static void temp_png(char *path, size_t cap, const char *name)
{
    snprintf(path, cap, "/tmp/iwarp-golden-%d-%s", (int)getpid(), name);
}

/* Whether the PNG at got looks like the one at want: a mean difference and a share of far-apart pixels within what
 * fonts rasterized a little differently elsewhere give. */
static bool looks_like(const char *got, const char *want, diff_t *d)
{
    uint8_t *a, *b;
    size_t pixels;
    read_pair(got, want, &a, &b, &pixels);
    *d = compare(a, b, pixels);
    free(a);
    free(b);
    return d->mean <= 1.5 && d->far <= 0.005;
}

static void test_frames_match_the_golden_ones(void **state)
{
    (void)state;
    bool rebaseline = getenv("IWARP_REBASELINE") != NULL && strcmp(getenv("IWARP_REBASELINE"), "1") == 0;
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const golden_t *g = &goldens[i];
        char got[512], want[4096], rel[256];
        temp_png(got, sizeof got, g->file);
        snprintf(rel, sizeof rel, "tests/golden/frames/%s", g->file);
        view_test_path(want, sizeof want, rel);
        int rc = shoot(g, rebaseline ? want : got, NULL, NULL);
        if (rc == 2 && i == 0)
            skip(); /* no fonts or no SDL surface: the message says what to install */
        assert_int_equal(rc, 0);
        if (rebaseline) {
            printf("rebaselined %s\n", rel);
            continue;
        }
        diff_t d;
        if (!looks_like(got, want, &d))
            fail_msg("%s differs from %s: mean %.3f, %.3f%% of pixels far apart (kept at %s; rebaseline with "
                     "IWARP_REBASELINE=1 if the change is meant)",
                     g->file, rel, d.mean, d.far * 100, got);
        unlink(got);
    }
}

/* docs/demos.md shows each demo at its `shot:` clock (docs/images/demo-NAME.png, made by `iwarp demo NAME
 * --screenshot`): those pictures are what the demos draw today, not what they drew before a change to the runtime
 * or the viewer. IWARP_REBASELINE=1 writes them again; look at each before committing. */
static void test_the_docs_show_what_the_demos_draw(void **state)
{
    (void)state;
    bool rebaseline = getenv("IWARP_REBASELINE") != NULL && strcmp(getenv("IWARP_REBASELINE"), "1") == 0;
    char dir[4096], err[512];
    demo_t *demos;
    int n = demo_list(view_test_path(dir, sizeof dir, "programs/demos"), &demos, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    assert_true(n > 0);
    for (int k = 0; k < n; k++) {
        if (!demos[k].has_shot)
            fail_msg("demo %s has no shot: clock for its picture in docs/demos.md", demos[k].name);
        char got[512], want[4096], rel[256];
        snprintf(rel, sizeof rel, "docs/images/demo-%s.png", demos[k].name);
        view_test_path(want, sizeof want, rel);
        temp_png(got, sizeof got, "doc.png");
        const golden_t g = {demos[k].name, demos[k].shot, rel};
        int rc = shoot(&g, rebaseline ? want : got, NULL, NULL);
        if (rc == 2 && k == 0)
            skip();
        assert_int_equal(rc, 0);
        if (rebaseline) {
            printf("rebaselined %s\n", rel);
            continue;
        }
        diff_t d;
        if (!looks_like(got, want, &d))
            fail_msg("%s is not what demo %s draws at clock %" PRIu64 " today: mean %.3f, %.3f%% of pixels far apart "
                     "(today's is at %s; IWARP_REBASELINE=1 writes it)",
                     rel, demos[k].name, demos[k].shot, d.mean, d.far * 100, got);
        unlink(got);
    }
    demo_list_free(demos, n);
}

/* The frame from a recording is the frame of the live run, pixel for pixel. */
static void test_a_replay_draws_the_live_frame(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        char live[512], replay[512], rec[512];
        temp_png(live, sizeof live, "live.png");
        temp_png(replay, sizeof replay, "replay.png");
        temp_png(rec, sizeof rec, "run.iwt");
        int rc = shoot(&goldens[i], live, rec, NULL);
        if (rc == 2)
            skip();
        assert_int_equal(rc, 0);
        assert_int_equal(shoot(&goldens[i], replay, NULL, rec), 0);
        uint8_t *a, *b;
        size_t pixels;
        read_pair(live, replay, &a, &b, &pixels);
        assert_memory_equal(a, b, pixels * 3);
        free(a);
        free(b);
        unlink(live);
        unlink(replay);
        unlink(rec);
    }
}

/* The colour marks left of the channel table's rows in the side panel at 1280x800: column 895 holds
 * nothing else (the panel starts at 884, its text at 902), so each run of saturated pixels is one row. */
static unsigned table_rows(const uint8_t *px, unsigned w, unsigned h)
{
    unsigned rows = 0, run = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *p = px + ((size_t)y * w + 895) * 3;
        int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
        int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
        if (hi - lo > 60) {
            run++;
        } else {
            rows += run >= 5;
            run = 0;
        }
    }
    return rows;
}

/* The channels a demo's "What to look for" names are in the table at the default size, legend or not
 * (the legend gives way): wormhole's ch 0 no_channel and ch 8 no_space, round robin's four queues. */
static void test_the_narrative_channels_are_shown(void **state)
{
    (void)state;
    static const struct {
        golden_t g;
        unsigned rows;
    } cases[] = {
        {{"wormhole", 150, "wormhole.png"}, 2},
        {{"roundrobin", 110, "roundrobin.png"}, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[512], err[512];
        temp_png(got, sizeof got, cases[i].g.file);
        int rc = shoot(&cases[i].g, got, NULL, NULL);
        if (rc == 2)
            skip();
        assert_int_equal(rc, 0);
        uint8_t *px;
        unsigned w, h;
        if (view_png_read(got, &px, &w, &h, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_int_equal(w, SHOT_W);
        unsigned rows = table_rows(px, w, h);
        free(px);
        if (rows != cases[i].rows)
            fail_msg("%s at %" PRIu64 ": %u channel rows shown, want %u (kept at %s)", cases[i].g.demo,
                     cases[i].g.at, rows, cases[i].rows, got);
        unlink(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_match_the_golden_ones),
        cmocka_unit_test(test_the_docs_show_what_the_demos_draw),
        cmocka_unit_test(test_a_replay_draws_the_live_frame),
        cmocka_unit_test(test_the_narrative_channels_are_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
