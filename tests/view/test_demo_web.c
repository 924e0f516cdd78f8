/* `iwarp demo NAME --web DIR` (docs/web.md): the built page copied into a folder with the demo preselected, on a
 * stand-in for the page scripts/build-web.sh builds (--page; no emscripten needed), and never over a file it did not
 * write: a folder of the user's, a file of the user's under one of the page's names, or one of its own inputs.
 * tests/web loads what it writes in chromium.
 *
 * Usage: test_view_demo_web PATH/TO/iwarp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "command.h"

static const char *iwarp;
static char dir[] = "/tmp/iwarp-demo-web-XXXXXX";
static const char *const page_files[] = {"index.html", "app.js", "style.css", "iwarp.js", "iwarp.wasm", "iwarp.data"};

static const char *at(const char *name)
{
    static char path[8][640];
    static unsigned next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%.500s", dir, name);
    return p;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("%s: cannot read", path);
    char *s = command_read_all(f);
    fclose(f);
    return s;
}

static void assert_file_is(const char *path, const char *text)
{
    char *s = read_text(path);
    if (strcmp(s, text) != 0)
        fail_msg("%s holds '%s', wanted '%s'", path, s, text);
    free(s);
}

/* `iwarp ARGS` must exit with status and say text (stdout and stderr together). */
static void expect(const char *args, int status, const char *text)
{
    char cmd[4096], *out;
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", iwarp, args);
    int st = command_run(cmd, &out);
    if (st != status || strstr(out, text) == NULL)
        fail_msg("iwarp %s: status %d (wanted %d), output:\n%s\n(wanted it to contain: %s)", args, st, status, out,
                 text);
    free(out);
}

/* A stand-in for the built page: each file holds its own name. */
static int setup(void **state)
{
    (void)state;
    if (mkdtemp(dir) == NULL)
        return -1;
    mkdir(at("page"), 0777);
    for (size_t i = 0; i < sizeof page_files / sizeof page_files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/page/%s", dir, page_files[i]);
        write_text(path, page_files[i]);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void web(const char *demo, const char *out, int status, const char *text)
{
    char args[3000];
    snprintf(args, sizeof args, "demo %s --web '%s' --page '%s'", demo, at(out), at("page"));
    expect(args, status, text);
}

/* What the folder `out` opens on: its index.html holds `opens` and `title`, its list of files `listed`. */
static void assert_opens(const char *out, const char *opens, const char *title, const char *listed)
{
    char rel[128];
    snprintf(rel, sizeof rel, "%s/index.html", out);
    char *index = read_text(at(rel));
    if (strstr(index, opens) == NULL || strstr(index, title) == NULL)
        fail_msg("%s lacks %s or %s:\n%s", rel, opens, title, index);
    free(index);
    snprintf(rel, sizeof rel, "%s/.iwarp-web", out);
    char *marker = read_text(at(rel));
    assert_non_null(strstr(marker, listed));
    free(marker);
}

static void test_writes_a_new_folder_with_the_demo_preselected(void **state)
{
    (void)state;
    web("wormhole", "new", 0, "page.html?demo=wormhole");
    assert_file_is(at("new/page.html"), "index.html"); /* the page's own index.html */
    for (size_t i = 1; i < sizeof page_files / sizeof page_files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "new/%s", page_files[i]);
        assert_file_is(at(path), page_files[i]);
    }
    assert_opens("new", "q.set('demo', 'wormhole')", "<title>Wormhole: a blocked message blocks another</title>",
                 "\npage.html\n");
}

static void test_writes_again_into_its_own_folder_and_keeps_the_users_files(void **state)
{
    (void)state;
    web("wormhole", "again", 0, "wrote");
    write_text(at("again/notes.txt"), "mine");
    web("roundrobin", "again", 0, "page.html?demo=roundrobin");
    assert_file_is(at("again/notes.txt"), "mine");
    char *index = read_text(at("again/index.html"));
    assert_non_null(strstr(index, "q.set('demo', 'roundrobin')"));
    free(index);
}

static void test_refuses_a_folder_it_did_not_write(void **state)
{
    (void)state;
    mkdir(at("users"), 0777);
    write_text(at("users/index.html"), "mine");
    web("wormhole", "users", 2, "is not empty, and not a folder `iwarp demo --web` wrote");
    assert_file_is(at("users/index.html"), "mine");
    assert_int_equal(access(at("users/page.html"), F_OK), -1);
    assert_int_equal(access(at("users/.iwarp-web"), F_OK), -1);
}

/* A file under one of the page's names that its list does not name is the user's. */
static void test_refuses_a_users_file_in_its_own_folder(void **state)
{
    (void)state;
    web("wormhole", "mixed", 0, "wrote");
    /* Its list without style.css, as if another version had written the folder. */
    write_text(at("mixed/.iwarp-web"), "# Written by `iwarp demo --web` (docs/web.md): the files below are its own; it "
                                       "writes them again here.\npage.html\napp.js\niwarp.js\niwarp.wasm\n"
                                       "iwarp.data\nindex.html\n.iwarp-web\n");
    write_text(at("mixed/style.css"), "mine");
    web("wormhole", "mixed", 2, "mixed/style.css: is not listed in .iwarp-web");
    assert_file_is(at("mixed/style.css"), "mine");
}

static void test_refuses_to_write_over_its_inputs(void **state)
{
    (void)state;
    web("wormhole", "twice", 0, "wrote");
    char args[3000];
    snprintf(args, sizeof args, "demo wormhole --web '%s' --page '%s'", at("twice"), at("twice"));
    expect(args, 2, "is also the input");
    assert_file_is(at("twice/app.js"), "app.js");
    snprintf(args, sizeof args, "demo wormhole --web '%s' --page '%s'", at("page"), at("page"));
    expect(args, 2, "is not empty");
    assert_file_is(at("page/index.html"), "index.html");
}

static void test_says_how_to_build_a_missing_page(void **state)
{
    (void)state;
    char args[3000];
    mkdir(at("empty"), 0777);
    snprintf(args, sizeof args, "demo wormhole --web '%s' --page '%s'", at("none"), at("empty"));
    expect(args, 2, "the web page is not built (no index.html): build it with scripts/build-web.sh");
    assert_int_equal(access(at("none"), F_OK), -1);
}

static void test_refuses_viewer_options_and_unknown_demos(void **state)
{
    (void)state;
    web("wormhole --speed 5", "opts", 2, "usage: iwarp demo NAME|FOLDER/NAME.txt --web DIR");
    web("nosuch", "opts", 2, "no demo named 'nosuch'");
    web("'../x'", "opts", 2, "name of letters, digits, _ and -");
    assert_int_equal(access(at("opts"), F_OK), -1);
}

/* A demo of one's own (FOLDER/NAME.txt): its three files go beside the page, which opens on ?own=NAME. */
static void test_writes_ones_own_demo_beside_the_page(void **state)
{
    (void)state;
    mkdir(at("mine"), 0777);
    write_text(at("mine/first.txt"), "title: A first <pathway>\n---\nOne message.\n");
    write_text(at("mine/first.run"), "array 3x1\nprogram first first.s\ncells all first\n");
    write_text(at("mine/first.s"), "halt\n");
    char args[3000];
    snprintf(args, sizeof args, "demo '%s' --web '%s' --page '%s'", at("mine/first.txt"), at("ownweb"), at("page"));
    expect(args, 0, "page.html?own=first");
    assert_file_is(at("ownweb/first.s"), "halt\n");
    assert_file_is(at("ownweb/first.run"), "array 3x1\nprogram first first.s\ncells all first\n");
    assert_opens("ownweb", "q.set('own', 'first')", "<title>A first &lt;pathway&gt;</title>", "\nfirst.s\n");
    /* The page takes three files of one name: without NAME.s, nothing is written. */
    unlink(at("mine/first.s"));
    snprintf(args, sizeof args, "demo '%s' --web '%s' --page '%s'", at("mine/first.txt"), at("ownweb2"), at("page"));
    expect(args, 2, "three files of one name");
    assert_int_equal(access(at("ownweb2"), F_OK), -1);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iwarp = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_a_new_folder_with_the_demo_preselected),
        cmocka_unit_test(test_writes_again_into_its_own_folder_and_keeps_the_users_files),
        cmocka_unit_test(test_refuses_a_folder_it_did_not_write),
        cmocka_unit_test(test_refuses_a_users_file_in_its_own_folder),
        cmocka_unit_test(test_refuses_to_write_over_its_inputs),
        cmocka_unit_test(test_says_how_to_build_a_missing_page),
        cmocka_unit_test(test_refuses_viewer_options_and_unknown_demos),
        cmocka_unit_test(test_writes_ones_own_demo_beside_the_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
