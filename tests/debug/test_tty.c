/* The real console through a terminal (a pty): tab completion, Ctrl-C during `continue` and at the prompt,
 * history kept between sessions, and a clean exit. Every wait polls the output with a timeout. */
#define _DEFAULT_SOURCE /* forkpty */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

enum { TIMEOUT_MS = 20000, OUT_CAP = 1 << 20 };

typedef struct term {
    int fd;
    pid_t pid;
    char out[OUT_CAP]; /* everything the console wrote, escape sequences removed */
    size_t len;
    size_t seen; /* expect() looks after this point */
    int esc;     /* 0 text, 1 after ESC, 2 inside a CSI sequence */
} term_t;

static const char *iwarp_exe;
static char history[64];

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Reads what is there (waiting at most ms), dropping terminal escape sequences. Returns false at end of file. */
static bool pump(term_t *t, int ms)
{
    struct pollfd p = {t->fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0)
        return true;
    char buf[4096];
    ssize_t n = read(t->fd, buf, sizeof buf);
    if (n <= 0)
        return false;
    for (ssize_t i = 0; i < n && t->len + 1 < OUT_CAP; i++) {
        char c = buf[i];
        if (t->esc == 1) {
            t->esc = c == '[' ? 2 : 0;
            continue;
        }
        if (t->esc == 2) {
            if (c >= 0x40 && c <= 0x7e)
                t->esc = 0;
            continue;
        }
        if (c == 0x1b) {
            t->esc = 1;
            continue;
        }
        if (c == '\r' || c == '\a')
            continue;
        t->out[t->len++] = c;
    }
    t->out[t->len] = '\0';
    return true;
}

/* Waits until text appears after the last match; fails the test with what was seen when it does not. */
static void expect(term_t *t, const char *text)
{
    uint64_t end = now_ms() + TIMEOUT_MS;
    for (;;) {
        const char *at = strstr(t->out + t->seen, text);
        if (at != NULL) {
            t->seen = (size_t)(at - t->out) + strlen(text);
            return;
        }
        if (now_ms() > end || !pump(t, 50))
            fail_msg("waited for '%s' after:\n%.*s\n--- the console printed since:\n%s", text, (int)t->seen, t->out,
                     t->out + t->seen);
    }
}

/* Reads whatever comes for ms milliseconds. */
static void pump_for(term_t *t, int ms)
{
    uint64_t end = now_ms() + (uint64_t)ms;
    while (now_ms() < end && pump(t, 10)) {
    }
}

static void type(term_t *t, const char *keys)
{
    size_t n = strlen(keys);
    assert_int_equal(write(t->fd, keys, n), (ssize_t)n);
}

static void start(term_t *t, const char *program, const char *args)
{
    memset(t, 0, sizeof *t);
    t->pid = forkpty(&t->fd, NULL, NULL, NULL);
    assert_true(t->pid >= 0);
    if (t->pid == 0) {
        setenv("IWARP_HISTORY", history, 1); /* never the user's own history */
        setenv("TERM", "xterm", 1);
        setenv("INPUTRC", "/dev/null", 1);
        execl(iwarp_exe, "iwarp", "debug", program, "--args", args, (char *)NULL);
        _exit(127);
    }
}

/* The console leaves by itself, with status 0. */
static void finish(term_t *t)
{
    uint64_t end = now_ms() + TIMEOUT_MS;
    int status = 0;
    pid_t r;
    while ((r = waitpid(t->pid, &status, WNOHANG)) == 0 && now_ms() < end)
        pump(t, 50);
    if (r == 0) {
        kill(t->pid, SIGKILL);
        waitpid(t->pid, &status, 0);
        fail_msg("the console did not exit; it printed:\n%s", t->out + t->seen);
    }
    close(t->fd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_completion_interrupt_history_and_exit(void **state)
{
    (void)state;
    term_t *t = malloc(sizeof *t);
    assert_non_null(t);
    /* compute.s with 10^8 outer iterations runs for hours: only Ctrl-C stops `continue`. */
    start(t, "programs/bench/compute.s", "100000000");
    expect(t, "(iwarp) ");

    type(t, "brea\t"); /* a command */
    expect(t, "break ");
    type(t, "inn\t"); /* a symbol */
    expect(t, "inner ");
    type(t, "@0,\t"); /* a cell */
    expect(t, "0,0 ");
    type(t, "\r");
    expect(t, "breakpoint 1: ");
    expect(t, "(iwarp) ");
    type(t, "continue\r");
    expect(t, "breakpoint 1 hit on (0,0)");
    expect(t, "(iwarp) ");
    type(t, "delete\r");
    expect(t, "(iwarp) ");

    /* Ctrl-C during a run stops the array and comes back to the prompt; the state is intact. */
    type(t, "continue\r");
    expect(t, "continue");
    pump_for(t, 500); /* let it run a while */
    type(t, "\x03");
    expect(t, "interrupted at clock ");
    expect(t, "(iwarp) ");
    type(t, "print !halted\r"); /* it ran, and stopped where Ctrl-C found it (how far depends on the host) */
    expect(t, "\n1\n");
    expect(t, "(iwarp) ");
    type(t, "step\r");
    expect(t, "(0,0) 0x");
    expect(t, "(iwarp) ");

    /* Ctrl-C at the prompt drops the line. */
    type(t, "this is not a command");
    expect(t, "not a command");
    type(t, "\x03");
    expect(t, "^C");
    expect(t, "(iwarp) ");
    type(t, "echo still here\r");
    expect(t, "still here");
    expect(t, "(iwarp) ");
    type(t, "quit\r");
    finish(t);

    /* The history was saved: a new session recalls the last command with the up arrow. */
    start(t, "programs/bench/compute.s", "1");
    expect(t, "(iwarp) ");
    type(t, "\x1b[A");
    expect(t, "quit");
    type(t, "\x1b[A");
    expect(t, "echo still here");
    type(t, "\r");
    expect(t, "still here");
    expect(t, "(iwarp) ");

    /* A hyphenated command name completes whole; an empty line does the last command again. */
    type(t, "reverse-s\t");
    expect(t, "reverse-step ");
    type(t, "\x15"); /* Ctrl-U: drop the line */
    type(t, "step\r");
    expect(t, "(0,0) 0x");
    expect(t, "(iwarp) ");
    type(t, "\r");
    expect(t, "(0,0) 0x");
    expect(t, "(iwarp) ");
    type(t, "print bundles\r");
    expect(t, "\n2\n"); /* two steps: the empty line was a step */
    expect(t, "(iwarp) ");
    type(t, "\x04"); /* Ctrl-D leaves too */
    finish(t);
    free(t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-OF-IWARP\n", argv[0]);
        return 2;
    }
    iwarp_exe = argv[1];
    snprintf(history, sizeof history, "/tmp/iwarp-history-XXXXXX");
    int fd = mkstemp(history);
    if (fd < 0)
        return 2;
    close(fd);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_completion_interrupt_history_and_exit),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(history);
    return rc;
}
