/* The teaching demos (programs/demos/): each runs to the end it is meant to have, and its narrative and a
 * screenshot are in docs/demos.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "demo.h"
#include "view_png.h"
#include "view_test.h"

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    view_bytes_t b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        view_bytes_put(&b, buf, n);
    fclose(f);
    view_bytes_put(&b, "", 1);
    assert_false(b.failed);
    return (char *)b.data;
}

static void load_all(demo_t **demos, int *n)
{
    char dir[4096], err[512];
    *n = demo_list(view_test_path(dir, sizeof dir, "programs/demos"), demos, err, sizeof err);
    if (*n < 0)
        fail_msg("%s", err);
}

static void test_the_issue_asks_for_these_demos(void **state)
{
    (void)state;
    static const char *const names[] = {"roundrobin", "wormhole", "deadlock", "dateline",
                                        "conset",     "spooling", "alltoall"};
    demo_t *demos;
    int n;
    load_all(&demos, &n);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        bool found = false;
        for (int k = 0; k < n; k++)
            found |= strcmp(demos[k].name, names[i]) == 0;
        if (!found)
            fail_msg("no demo %s", names[i]);
    }
    demo_list_free(demos, n);
}

static void test_every_demo_ends_as_its_narrative_says(void **state)
{
    (void)state;
    demo_t *demos;
    int n;
    load_all(&demos, &n);
    for (int k = 0; k < n; k++) {
        view_test_run_t r;
        char rel[256];
        snprintf(rel, sizeof rel, "programs/demos/%s.run", demos[k].name);
        view_test_build(&r, rel);
        emu_run_status_t st = emu_array_run(r.a, r.desc.max_cycles);
        /* The deadlock demo is meant to deadlock; every other one ends with every cell halted. */
        emu_run_status_t want = strcmp(demos[k].name, "deadlock") == 0 ? EMU_RUN_DEADLOCK : EMU_RUN_DONE;
        if (st != want)
            fail_msg("demo %s ended %s, not %s", demos[k].name, emu_run_status_name(st), emu_run_status_name(want));
        assert_true(demos[k].has_shot);
        assert_true(demos[k].narrative[0] != '\0');
        view_test_free(&r);
    }
    demo_list_free(demos, n);
}

/* docs/demos.md tells the same story as the window: each paragraph of each narrative, word for word, and a
 * screenshot made by the headless renderer. */
static void test_the_docs_carry_every_narrative_and_a_screenshot(void **state)
{
    (void)state;
    char path[4096];
    char *doc = read_text(view_test_path(path, sizeof path, "docs/demos.md"));
    demo_t *demos;
    int n;
    load_all(&demos, &n);
    for (int k = 0; k < n; k++) {
        const char *p = demos[k].narrative;
        while (*p != '\0') {
            const char *end = strstr(p, "\n\n");
            size_t len = end ? (size_t)(end - p) : strlen(p);
            char para[2048];
            snprintf(para, sizeof para, "%.*s", (int)(len < sizeof para - 1 ? len : sizeof para - 1), p);
            if (strstr(doc, para) == NULL)
                fail_msg("docs/demos.md lacks this paragraph of %s.txt: %s", demos[k].name, para);
            p += len;
            while (*p == '\n')
                p++;
        }
        char rel[256], err[256];
        snprintf(rel, sizeof rel, "images/demo-%s.png", demos[k].name);
        const char *shown = strstr(doc, rel);
        if (shown == NULL)
            fail_msg("docs/demos.md does not show %s", rel);
        /* A caption that names the clock names the demo's shot: clock, the clock its picture is drawn at. */
        const char *caption = shown;
        while (caption > doc && caption[-1] != '[')
            caption--;
        const char *clock = strstr(caption, ", clock ");
        if (clock != NULL && clock < shown && clock[8] >= '0' && clock[8] <= '9' &&
            strtoull(clock + 8, NULL, 10) != demos[k].shot)
            fail_msg("docs/demos.md's caption of %s names clock %llu; its shot: is %llu", rel,
                     strtoull(clock + 8, NULL, 10), (unsigned long long)demos[k].shot);
        snprintf(rel, sizeof rel, "docs/images/demo-%s.png", demos[k].name);
        uint8_t *rgb;
        unsigned w, h;
        if (view_png_read(view_test_path(path, sizeof path, rel), &rgb, &w, &h, err, sizeof err) != 0)
            fail_msg("%s", err);
        free(rgb);
    }
    demo_list_free(demos, n);
    free(doc);
}

/* The demo docs/demos.md teaches to write ("Writing a demo"), taken from the page into a folder of its own,
 * loads and runs to its end: cell (2,0) receives every word. */
static void test_the_demo_the_docs_teach_to_write_runs(void **state)
{
    (void)state;
    char path[4096], dir[] = "/tmp/iwarp-demo-XXXXXX";
    char *doc = read_text(view_test_path(path, sizeof path, "docs/demos.md"));
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"first.s", "first.run", "first.txt"};
    for (size_t i = 0; i < 3; i++) {
        char marker[64];
        snprintf(marker, sizeof marker, "<!-- demo-example: %s -->\n```", files[i]);
        const char *at = strstr(doc, marker);
        if (at == NULL)
            fail_msg("docs/demos.md has no example %s", files[i]);
        at = strchr(at + strlen(marker), '\n') + 1; /* past the fence's language */
        const char *end = strstr(at, "```");
        assert_non_null(end);
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(at, 1, (size_t)(end - at), f), (size_t)(end - at));
        fclose(f);
    }
    demo_t d;
    char err[512];
    if (demo_load(&d, dir, "first", err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(d.title, "A first pathway");
    emu_machine_t m;
    emu_machine_defaults(&m);
    run_desc_t desc;
    assert_int_equal(run_desc_parse_file(d.run_path, &m, &desc, stderr), 0);
    emu_array_t *a;
    assert_int_equal(run_desc_build(&desc, NULL, 0, NULL, 0, &a), 0);
    assert_int_equal(emu_array_run(a, desc.max_cycles), EMU_RUN_DONE);
    assert_int_equal(ca_reg(emu_array_ca(a, 2, 0), ISA_REG_A0), 32);
    emu_array_free(a);
    run_desc_free(&desc);
    demo_free(&d);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
    free(doc);
}

/* Paragraphs under "@ A..B" show only in their clocks; a malformed range is an error at its line. */
static void test_paragraphs_follow_the_clock(void **state)
{
    (void)state;
    size_t skip;
    static const char early[] = "@ 0..20\nThe header.", later[] = "@ 20..\nThe words.", always[] = "Always.";
    assert_true(demo_paragraph_shows(early, strlen(early), 19, &skip));
    assert_string_equal(early + skip, "The header.");
    assert_false(demo_paragraph_shows(early, strlen(early), 20, &skip));
    assert_false(demo_paragraph_shows(later, strlen(later), 19, &skip));
    assert_true(demo_paragraph_shows(later, strlen(later), 1000000, &skip));
    assert_true(demo_paragraph_shows(always, strlen(always), 5, &skip));
    assert_int_equal(skip, 0);
    demo_t d;
    char err[256];
    assert_int_equal(demo_parse(&d, "x", "title: T\n---\nOne.\n\n@ ..7\nTwo.\n", err, sizeof err), 0);
    demo_free(&d);
    assert_int_not_equal(demo_parse(&d, "x", "title: T\n---\n\nOne.\n\n@ 9..3\nTwo.\n", err, sizeof err), 0);
    assert_string_equal(err, "x.txt:6: a clock range is '@ A..B' (A < B; either may be left out), then 'select X,Y' "
                             "or nothing");
    demo_free(&d);
    assert_int_not_equal(demo_parse(&d, "x", "title: T\n---\n@ 3.. select 2\nTwo.\n", err, sizeof err), 0);
    assert_string_equal(err, "x.txt:3: a clock range is '@ A..B' (A < B; either may be left out), then 'select X,Y' "
                             "or nothing");
    demo_free(&d);
}

/* "@ A..B select X,Y": the panel turns to that cell when the clock comes into the range, from before it or
 * after it (scrubbing back), and not again while it stays inside (a click meanwhile is the user's choice). */
static void test_paragraphs_select_the_cell_they_name(void **state)
{
    (void)state;
    demo_range_t r;
    assert_int_equal(demo_range_parse("@ 20..90 select 3,1", 19, &r), 0);
    assert_true(r.lo == 20 && r.hi == 90 && r.select_x == 3 && r.select_y == 1);
    assert_int_equal(demo_range_parse("@ 20.. ", 7, &r), 0);
    assert_int_equal(r.select_x, -1);
    assert_int_not_equal(demo_range_parse("@ 20.. select 3,", 16, &r), 0);
    assert_int_not_equal(demo_range_parse("@ 20.. pick 3,1", 15, &r), 0);
    static const char narrative[] = "Always.\n\n@ 20..90 select 3,1\nThe link.\n\n@ 90.. select 0,2\nThe end.\n\n"
                                    "@ 50..60\nNo cell.";
    int x, y;
    assert_true(demo_select_entered(narrative, UINT64_MAX, 30, &x, &y));
    assert_true(x == 3 && y == 1);
    assert_true(demo_select_entered(narrative, 10, 20, &x, &y));
    assert_false(demo_select_entered(narrative, 20, 55, &x, &y));
    assert_int_equal(x, -1);
    assert_false(demo_select_entered(narrative, UINT64_MAX, 5, &x, &y));
    assert_true(demo_select_entered(narrative, 30, 95, &x, &y));
    assert_true(x == 0 && y == 2);
    assert_true(demo_select_entered(narrative, 95, 89, &x, &y)); /* scrubbed back into the first range */
    assert_true(x == 3 && y == 1);
    /* Jumping over both ranges' starts: the later paragraph is the one the clock is in. */
    assert_true(demo_select_entered(narrative, 5, 100, &x, &y));
    assert_true(x == 0 && y == 2);
    assert_true(demo_selects_fit(narrative, 4, 3, &x, &y));
    assert_false(demo_selects_fit(narrative, 3, 3, &x, &y));
    assert_true(x == 3 && y == 1);
}

static void test_narrative_files_are_checked(void **state)
{
    (void)state;
    demo_t d;
    char err[256];
    assert_int_equal(
        demo_parse(&d, "x", "title: T\nspeed: 5\nselect: 1,2\nshot: 9\n---\nOne.\n\nTwo.\n\n", err, sizeof err), 0);
    assert_string_equal(d.title, "T");
    assert_true(d.has_speed && d.speed == 5);
    assert_int_equal(d.select_x, 1);
    assert_int_equal(d.select_y, 2);
    assert_int_equal(d.shot, 9);
    assert_string_equal(d.narrative, "One.\n\nTwo.");
    demo_free(&d);
    assert_int_not_equal(demo_parse(&d, "x", "title: T\nOne.\n", err, sizeof err), 0);
    demo_free(&d);
    assert_int_not_equal(demo_parse(&d, "x", "colour: red\n---\n", err, sizeof err), 0);
    assert_non_null(strstr(err, "colour"));
    demo_free(&d);
    assert_int_not_equal(demo_load(&d, "/nonexistent", "../etc", err, sizeof err), 0);
    demo_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_issue_asks_for_these_demos),
        cmocka_unit_test(test_every_demo_ends_as_its_narrative_says),
        cmocka_unit_test(test_the_docs_carry_every_narrative_and_a_screenshot),
        cmocka_unit_test(test_narrative_files_are_checked),
        cmocka_unit_test(test_the_demo_the_docs_teach_to_write_runs),
        cmocka_unit_test(test_paragraphs_follow_the_clock),
        cmocka_unit_test(test_paragraphs_select_the_cell_they_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
