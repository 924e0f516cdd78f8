/* The viewer's window under Xvfb, driven with xdotool like a user: keys step, pause, play and change the
 * speed, the mouse selects a cell and scrubs the timeline, and the frames change as they should (the
 * viewer writes a line per change of what it shows with --log, and PNGs of the window on S).
 *
 * Usage: test_view_window PATH/TO/iwarp. Without Xvfb or xdotool it says so and exits 77 (skipped);
 * scripts/setup.sh installs both, and CI runs it for real.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "view_png.h"
#include "view_test.h"

typedef struct session {
    const char *iwarp;
    char dir[64];     /* temporary folder: recording, log, screenshots */
    char display[24]; /* ":N", N as Xvfb wrote it (at most 15 characters) */
    pid_t xvfb;
    pid_t viewer;
    char window[64]; /* the viewer's X window id */
    char log[128];
} session_t;

static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (path == NULL)
        return false;
    char buf[4096];
    while (*path != '\0') {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
        if (access(buf, X_OK) == 0)
            return true;
        path += n + (colon ? 1 : 0);
    }
    return false;
}

static void sleep_s(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Starts argv[0] (found on PATH) in `dir` with DISPLAY set; stdout to out_fd when >= 0. */
static pid_t spawn(char *const argv[], const char *display, const char *dir, int out_fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (display != NULL)
            setenv("DISPLAY", display, 1);
        setenv("SDL_VIDEODRIVER", "x11", 1);
        if (dir != NULL && chdir(dir) != 0)
            _exit(126);
        if (out_fd >= 0)
            dup2(out_fd, 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_exit(pid_t pid, double timeout)
{
    double end = now_s() + timeout;
    int status;
    while (now_s() < end) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        sleep_s(0.02);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* Runs xdotool with these arguments; its first line of output goes to out (if not NULL). */
static int xdo(const session_t *s, char *out, size_t cap, ...)
{
    char *argv[16] = {"xdotool"};
    int n = 1;
    va_list ap;
    va_start(ap, cap);
    for (char *a; n < 15 && (a = va_arg(ap, char *)) != NULL;)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = spawn(argv, s->display, NULL, fds[1]);
    close(fds[1]);
    char buf[256] = "";
    size_t got = 0;
    ssize_t k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    buf[got] = '\0';
    close(fds[0]);
    if (out != NULL) {
        buf[strcspn(buf, "\n")] = '\0';
        snprintf(out, cap, "%s", buf);
    }
    return wait_exit(pid, 20);
}

/* The log's last line that starts with `prefix`, once it contains `want` (within `timeout` seconds). */
static bool wait_log(const session_t *s, const char *prefix, const char *want, double timeout, char *line, size_t cap)
{
    double end = now_s() + timeout;
    do {
        FILE *f = fopen(s->log, "r");
        char buf[512], last[512] = "";
        if (f != NULL) {
            while (fgets(buf, sizeof buf, f) != NULL)
                if (strncmp(buf, prefix, strlen(prefix)) == 0)
                    snprintf(last, sizeof last, "%s", buf);
            fclose(f);
        }
        if (last[0] != '\0' && strstr(last, want) != NULL) {
            if (line != NULL)
                snprintf(line, cap, "%s", last);
            return true;
        }
        sleep_s(0.02);
    } while (now_s() < end);
    return false;
}

static void expect(const session_t *s, const char *want)
{
    char line[512];
    if (!wait_log(s, "clock=", want, 10, line, sizeof line))
        fail_msg("the viewer did not show '%s' (log: %s)", want, s->log);
}

static uint64_t clock_now(const session_t *s)
{
    char line[512];
    assert_true(wait_log(s, "clock=", "clock=", 5, line, sizeof line));
    return strtoull(line + 6, NULL, 10);
}

static void key(const session_t *s, const char *k)
{
    assert_int_equal(xdo(s, NULL, 0, "key", "--clearmodifiers", k, NULL), 0);
}

/* Presses S and returns the path of the screenshot the viewer wrote. */
static void shot(const session_t *s, char *path, size_t cap)
{
    char line[512], name[512];
    FILE *f = fopen(s->log, "r");
    int before = 0;
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL)
            before += strncmp(line, "shot=", 5) == 0;
        fclose(f);
    }
    key(s, "s");
    double end = now_s() + 10;
    for (;;) {
        int count = 0;
        f = fopen(s->log, "r");
        if (f != NULL) {
            while (fgets(line, sizeof line, f) != NULL)
                if (strncmp(line, "shot=", 5) == 0 && ++count > before) {
                    snprintf(name, sizeof name, "%s", line + 5);
                    name[strcspn(name, "\n")] = '\0';
                }
            fclose(f);
        }
        if (count > before)
            break;
        if (now_s() > end)
            fail_msg("no screenshot after S");
        sleep_s(0.02);
    }
    snprintf(path, cap, "%s/%s", s->dir, name);
}

/* The share of pixels that differ between two screenshots. */
static double changed(const char *a, const char *b)
{
    uint8_t *pa, *pb;
    unsigned aw, ah, bw, bh;
    char err[256];
    if (view_png_read(a, &pa, &aw, &ah, err, sizeof err) != 0 || view_png_read(b, &pb, &bw, &bh, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(aw, bw);
    assert_int_equal(ah, bh);
    size_t diff = 0, n = (size_t)aw * ah;
    for (size_t i = 0; i < n; i++)
        diff += memcmp(pa + 3 * i, pb + 3 * i, 3) != 0;
    free(pa);
    free(pb);
    return (double)diff / (double)n;
}

static int start_xvfb(session_t *s)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char fd[16];
    snprintf(fd, sizeof fd, "%d", fds[1]);
    char *argv[] = {"Xvfb", "-displayfd", fd, "-screen", "0", "1280x800x24", "-nolisten", "tcp", NULL};
    s->xvfb = spawn(argv, NULL, NULL, -1);
    close(fds[1]);
    struct pollfd p = {fds[0], POLLIN, 0};
    char buf[16] = "";
    ssize_t n = 0;
    if (poll(&p, 1, 15000) == 1)
        n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    snprintf(s->display, sizeof s->display, ":%s", buf);
    return 0;
}

static int setup(void **state)
{
    session_t *s = calloc(1, sizeof *s);
    s->iwarp = *state;
    snprintf(s->dir, sizeof s->dir, "/tmp/iwarp-window-XXXXXX");
    if (mkdtemp(s->dir) == NULL || start_xvfb(s) != 0) {
        free(s);
        return -1;
    }
    snprintf(s->log, sizeof s->log, "%s/view.log", s->dir);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    session_t *s = *state;
    if (s->viewer > 0)
        wait_exit(s->viewer, 0.1);
    kill(s->xvfb, SIGTERM);
    wait_exit(s->xvfb, 5);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", s->dir);
    free(s);
    return 0;
}

static void start_viewer(session_t *s, const char *file)
{
    char *argv[] = {(char *)s->iwarp, "view", (char *)file, "--paused", "--log", s->log, "--size", "1000x640", NULL};
    unlink(s->log);
    /* In a sanitizer build, the X11 libraries SDL loads and unloads again leave blocks LeakSanitizer cannot
     * even name; the viewer's own memory is checked by the headless tests (golden, trace). */
    char asan[512];
    const char *old = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sdetect_leaks=0", old != NULL ? old : "", old != NULL && *old ? ":" : "");
    setenv("ASAN_OPTIONS", asan, 1);
    s->viewer = spawn(argv, s->display, s->dir, -1);
    if (old != NULL)
        setenv("ASAN_OPTIONS", old, 1);
    else
        unsetenv("ASAN_OPTIONS");
    expect(s, "clock=0 playing=0");
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)s->viewer);
    assert_int_equal(xdo(s, s->window, sizeof s->window, "search", "--sync", "--pid", pid, NULL), 0);
    assert_true(s->window[0] != '\0');
    /* No window manager under Xvfb: give the window the keyboard focus directly. */
    assert_int_equal(xdo(s, NULL, 0, "windowfocus", "--sync", s->window, NULL), 0);
}

/* Clicks the middle of cell (0,0), where the viewer's log says it is, and waits for it to be selected; gives its
 * middle and the timeline's track (x, y of its middle line, width), in window points. */
static void click_cell0(const session_t *s, int *cx, int *cy, int *bx, int *by, int *bw)
{
    char line[512];
    assert_true(wait_log(s, "layout", "cell0=", 5, line, sizeof line));
    assert_int_equal(sscanf(line, "layout cell0=%d,%d bar=%d,%d,%d", cx, cy, bx, by, bw), 5);
    char sx[16], sy[16];
    snprintf(sx, sizeof sx, "%d", *cx);
    snprintf(sy, sizeof sy, "%d", *cy);
    assert_int_equal(xdo(s, NULL, 0, "mousemove", "--window", s->window, "--sync", sx, sy, "click", "1", NULL), 0);
    expect(s, "selected=0 ");
}

static void test_keys_and_mouse_drive_a_replay(void **state)
{
    session_t *s = *state;
    char rec[128], out[128];
    snprintf(rec, sizeof rec, "%s/rr.iwt", s->dir);
    snprintf(out, sizeof out, "%s/first.png", s->dir);
    char *argv[] = {(char *)s->iwarp, "demo", "roundrobin", "--screenshot", out, "--record", rec, NULL};
    assert_int_equal(wait_exit(spawn(argv, NULL, s->dir, -1), 60), 0);
    start_viewer(s, rec);

    key(s, "Right");
    expect(s, "clock=1 playing=0");
    key(s, "Right");
    key(s, "period");
    expect(s, "clock=3 playing=0");
    key(s, "Left");
    expect(s, "clock=2 playing=0");
    key(s, "Up");
    expect(s, "speed=50");
    key(s, "Down");
    key(s, "Down");
    expect(s, "speed=10");

    /* One step changes the frame (the clock at least); the help overlay changes much of it. */
    char a[1024], b[1024], c[1024];
    shot(s, a, sizeof a);
    key(s, "Right");
    expect(s, "clock=3 playing=0");
    shot(s, b, sizeof b);
    double step = changed(a, b);
    assert_true(step > 0);
    key(s, "h");
    expect(s, "help=1");
    shot(s, c, sizeof c);
    assert_true(changed(b, c) > 0.2);
    key(s, "Escape");
    expect(s, "help=0");

    /* Playing moves the clock on by itself, at about the speed asked (10 clocks/s); pausing stops it. */
    key(s, "space");
    expect(s, "playing=1");
    sleep_s(1.5);
    key(s, "space");
    expect(s, "playing=0");
    uint64_t played = clock_now(s);
    assert_true(played >= 3 + 5 && played <= 3 + 40);
    sleep_s(0.3);
    assert_int_equal(clock_now(s), played);

    /* Full speed runs to the end of the recording and stops there. */
    key(s, "f");
    expect(s, "speed=0");
    char line[512];
    assert_true(wait_log(s, "clock=", "playing=0", 10, line, sizeof line));
    uint64_t end = clock_now(s);
    assert_true(end > 300);
    key(s, "Home");
    expect(s, "clock=0 ");

    /* The mouse: a click on cell (0,0) selects it, a click half-way along the timeline goes there. */
    int cx, cy, bx, by, bw;
    click_cell0(s, &cx, &cy, &bx, &by, &bw);
    char sx[16], sy[16];
    snprintf(sx, sizeof sx, "%d", bx + bw / 2);
    snprintf(sy, sizeof sy, "%d", by);
    assert_int_equal(xdo(s, NULL, 0, "mousemove", "--window", s->window, "--sync", sx, sy, "click", "1", NULL), 0);
    char want[64];
    snprintf(want, sizeof want, "clock=%llu ", (unsigned long long)(end / 2));
    if (!wait_log(s, "clock=", want, 10, line, sizeof line)) {
        uint64_t mid = clock_now(s);
        assert_true(mid + 3 >= end / 2 && mid <= end / 2 + 3); /* within a pixel of the middle */
    }

    /* Zoom: I zooms in and the frame changes, the wheel over the grid zooms at the pointer, 0 fits again. */
    char z0[1024], z1[1024];
    shot(s, z0, sizeof z0);
    key(s, "i");
    expect(s, "zoom=1.50");
    shot(s, z1, sizeof z1);
    assert_true(changed(z0, z1) > 0.05);
    snprintf(sx, sizeof sx, "%d", cx);
    snprintf(sy, sizeof sy, "%d", cy);
    assert_int_equal(xdo(s, NULL, 0, "mousemove", "--window", s->window, "--sync", sx, sy, "click", "4", NULL), 0);
    expect(s, "zoom=1.88");
    key(s, "0");
    expect(s, "zoom=1.00");

    key(s, "q");
    assert_int_equal(wait_exit(s->viewer, 10), 0);
    s->viewer = 0;
}

/* A live run: stepping runs the array, and quitting mid-run is clean. */
static void test_a_live_run_steps(void **state)
{
    session_t *s = *state;
    char run[4096];
    start_viewer(s, view_test_path(run, sizeof run, "programs/demos/wormhole.run"));
    key(s, "Right");
    expect(s, "clock=1 playing=0");
    key(s, "Next"); /* PgDn: 100 clocks on */
    expect(s, "clock=101 playing=0");
    key(s, "q");
    assert_int_equal(wait_exit(s->viewer, 10), 0);
    s->viewer = 0;
}

/* Pixels of this colour in a screenshot. */
static size_t pixels_of(const char *png, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *px;
    unsigned w, h;
    char err[256];
    if (view_png_read(png, &px, &w, &h, err, sizeof err) != 0)
        fail_msg("%s", err);
    size_t n = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        n += px[3 * i] == r && px[3 * i + 1] == g && px[3 * i + 2] == b;
    free(px);
    return n;
}

/* The live deadlock demo, paused at clock 200: the cycle has closed (at 107) but the detector will not say so
 * before 425, and the run goes on; the viewer asks the detector about the array as it stands and outlines the
 * cycle (the theme's cycle colour, 192,38,211). Then a click on cell (0,0) and ] choose its channels in use in
 * turn (0 sends from go0, 8 holds the header that waits), Esc forgets the channel, then the cell. */
static void test_a_paused_live_run_shows_its_wait_cycle(void **state)
{
    session_t *s = *state;
    char run[4096], a[1024], b[1024];
    start_viewer(s, view_test_path(run, sizeof run, "programs/demos/deadlock.run"));
    shot(s, a, sizeof a);
    assert_int_equal(pixels_of(a, 192, 38, 211), 0);
    key(s, "Next");
    key(s, "Next");
    expect(s, "clock=200 playing=0");
    shot(s, b, sizeof b);
    if (pixels_of(b, 192, 38, 211) < 500)
        fail_msg("paused at clock 200, %zu pixels of the cycle's colour (%s)", pixels_of(b, 192, 38, 211), b);
    int cx, cy, bx, by, bw;
    click_cell0(s, &cx, &cy, &bx, &by, &bw);
    key(s, "bracketright");
    expect(s, "channel=0\n");
    key(s, "bracketright");
    expect(s, "channel=8\n");
    key(s, "bracketleft");
    expect(s, "channel=0\n");
    key(s, "Escape");
    expect(s, "selected=0 zoom=1.00 scale=1.00 channel=-1\n");
    key(s, "Escape");
    expect(s, "selected=-1 ");
    key(s, "q");
    assert_int_equal(wait_exit(s->viewer, 10), 0);
    s->viewer = 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_view_window PATH/TO/iwarp\n");
        return 2;
    }
    if (!on_path("Xvfb") || !on_path("xdotool")) {
        printf("skipped: Xvfb and xdotool are needed (scripts/setup.sh installs them)\n");
        return 77;
    }
    /* The path of iwarp reaches each setup as the test's initial state. */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate_setup_teardown(test_keys_and_mouse_drive_a_replay, setup, teardown, argv[1]),
        cmocka_unit_test_prestate_setup_teardown(test_a_live_run_steps, setup, teardown, argv[1]),
        cmocka_unit_test_prestate_setup_teardown(test_a_paused_live_run_shows_its_wait_cycle, setup, teardown, argv[1]),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
