/* BookSim 2 beside bench traffic (bench_booksim.h, docs/traffic.md "Speed"). */
#define _GNU_SOURCE /* pipe2 */
#include "bench_booksim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "interrupt.h"
#include "progress.h"

/* BookSim's figures are in the last few dozen lines of its report; a megabyte of tail holds them whatever its
 * per-period statistics before them came to. */
enum { BOOKSIM_TAIL_BYTES = 1 << 20 };

double booksim_injection_rate(const booksim_point_t *p)
{
    return p->rate / p->packet_size;
}

int booksim_config_write(FILE *f, const booksim_point_t *p)
{
    /* A tenth of the cycles a sample period: one period of warm-up and nine measured, never stopped early by
     * convergence (thresholds 0: a change is always above them), so BookSim injects for exactly p->cycles and then
     * drains what is in flight. Throughput mode has no latency limit that could end a run early. */
    uint64_t period = p->cycles / 10;
    fprintf(f,
            "// iwarp bench traffic --booksim: %ux%u torus, uniform, %u-flit packets, %g data words per node per\n"
            "// cycle as iwarp offers them (docs/traffic.md, \"Speed\").\n"
            "topology = torus;\n"
            "k = %u;\n"
            "n = 2;\n"
            "routing_function = dim_order;\n"
            "num_vcs = 2;\n"
            "traffic = uniform;\n"
            "packet_size = %u;\n"
            "injection_process = bernoulli;\n"
            "injection_rate_uses_flits = 0;\n"
            "injection_rate = %.9g;\n"
            "sim_type = throughput;\n"
            "sim_count = 1;\n"
            "seed = 0;\n"
            "warmup_periods = 1;\n"
            "sample_period = %llu;\n"
            "max_samples = 10;\n"
            "stopping_thres = 0.0;\n"
            "acc_stopping_thres = 0.0;\n",
            p->k, p->k, p->packet_size, p->rate, p->k, p->packet_size, booksim_injection_rate(p),
            (unsigned long long)period);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* The output's last non-blank line, for a message that shows what the program said instead. */
static void last_line(const char *text, char *line, size_t cap)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    size_t n = (size_t)(end - start);
    if (n > 160) { /* its end says what went wrong */
        start = end - 160;
        n = 160;
    }
    snprintf(line, cap, "%.*s", (int)n, start);
}

int booksim_parse(const char *text, uint64_t *cycles, double *seconds, char *why, size_t cap)
{
    bool have_cycles = false, have_seconds = false;
    for (const char *s = text; *s != '\0';) {
        const char *nl = strchr(s, '\n');
        size_t len = nl != NULL ? (size_t)(nl - s) : strlen(s);
        char line[256];
        if (len < sizeof line) {
            memcpy(line, s, len);
            line[len] = '\0';
            unsigned long long c;
            double t;
            char tail;
            /* sim_count 1: one "Time taken"; the last of each counts should a build print more */
            if (sscanf(line, "Time taken is %llu cycle%c", &c, &tail) == 2) {
                *cycles = (uint64_t)c;
                have_cycles = true;
            } else if (sscanf(line, "Total run time %lf", &t) == 1) {
                *seconds = t;
                have_seconds = true;
            }
        }
        s += len + (nl != NULL);
    }
    if (have_cycles && have_seconds && *seconds > 0)
        return 0;
    char last[200];
    last_line(text, last, sizeof last);
    const char *missing = !have_cycles    ? "no 'Time taken is N cycles' line"
                          : !have_seconds ? "no 'Total run time S' line"
                                          : "a 'Total run time' that is not above 0";
    if (last[0] == '\0')
        snprintf(why, cap, "printed nothing (BookSim reports 'Time taken is N cycles' and 'Total run time S')");
    else
        snprintf(why, cap, "printed %s; its last line: '%s'", missing, last);
    return -1;
}

int booksim_check(const char *path, char *why, size_t cap)
{
    struct stat st;
    if (path[0] == '\0') {
        snprintf(why, cap, "wants the path of a BookSim binary");
        return -1;
    }
    if (stat(path, &st) != 0) {
        snprintf(why, cap, "%s", strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "is a folder, not a BookSim binary");
        return -1;
    }
    if (access(path, X_OK) != 0) {
        snprintf(why, cap, "cannot be run: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int booksim_dir_open(booksim_dir_t *d, char *why, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = "/tmp";
    d->keep = false;
    if ((size_t)snprintf(d->path, sizeof d->path, "%s/iwarp-booksim-XXXXXX", tmp) >= sizeof d->path) {
        snprintf(why, cap, "TMPDIR is too long a path");
        return -1;
    }
    if (mkdtemp(d->path) == NULL) {
        snprintf(why, cap, "cannot make a folder for its configs in %s: %s", tmp, strerror(errno));
        return -1;
    }
    return 0;
}

void booksim_dir_close(booksim_dir_t *d)
{
    if (d->keep)
        return;
    /* The folder is ours alone (mkdtemp): everything in it is a config or an output the runs wrote. */
    DIR *dir = opendir(d->path);
    if (dir != NULL) {
        int fd = dirfd(dir);
        struct dirent *e;
        while ((e = readdir(dir)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(fd, e->d_name, 0);
        closedir(dir);
    }
    rmdir(d->path);
}

int booksim_config_file(const booksim_dir_t *d, const char *name, const booksim_point_t *p, char *cfg, size_t cap,
                        char *why, size_t why_cap)
{
    if ((size_t)snprintf(cfg, cap, "%s/%s.cfg", d->path, name) >= cap) {
        snprintf(why, why_cap, "the config's path is too long");
        return -1;
    }
    int fd = open(cfg, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        snprintf(why, why_cap, "cannot write its config %s: %s", cfg, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = booksim_config_write(f, p);
    if (fclose(f) != 0 || rc != 0) {
        snprintf(why, why_cap, "cannot write its config %s: %s", cfg, errno != 0 ? strerror(errno) : "write failed");
        return -1;
    }
    return 0;
}

/* The child: its own process group (so that a timeout stops whatever it starts, and Ctrl-C reaches iwarp, which
 * stops it), output into the file, and PATH itself, with no shell between. Only async-signal-safe calls: the
 * parent may have threads. */
static _Noreturn void child(const char *path, const char *cfg, int out_fd, int null_fd, int err_fd)
{
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0) {
        int e = errno;
        (void)!write(err_fd, &e, sizeof e);
        _exit(127);
    }
    char *argv[] = {(char *)path, (char *)cfg, NULL}; /* execv's type; it changes neither */
    execv(path, argv);
    int e = errno; /* only reached when PATH could not be run: the parent reads why from the pipe */
    (void)!write(err_fd, &e, sizeof e);
    _exit(127);
}

/* The last BOOKSIM_TAIL_BYTES of OUT as a string (to be freed), or NULL. */
static char *read_tail(const char *out)
{
    FILE *f = fopen(out, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        long from = size > BOOKSIM_TAIL_BYTES ? size - BOOKSIM_TAIL_BYTES : 0;
        buf = size >= 0 && fseek(f, from, SEEK_SET) == 0 ? malloc((size_t)(size - from) + 1) : NULL;
        if (buf != NULL) {
            size_t n = fread(buf, 1, (size_t)(size - from), f);
            buf[n] = '\0';
            for (size_t i = 0; i < n; i++) /* a stray NUL would hide the lines after it */
                if (buf[i] == '\0')
                    buf[i] = ' ';
        }
    }
    fclose(f);
    return buf;
}

/* Waits for the child until it ends, the limit passes or Ctrl-C; returns 0 (ended, *status set), 1 (time out) or
 * 2 (Ctrl-C), the child reaped in every case. */
static int wait_child(pid_t pid, double deadline, const char *what, bool quiet, int *status)
{
    progress_t prog;
    progress_init(&prog, what, quiet);
    /* A millisecond between looks: a negligible cost beside BookSim's, and the wall clock's resolution. */
    const struct timespec nap = {0, 1000000};
    int rc = 0;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        if (interrupt_requested() || bench_now() > deadline) {
            rc = interrupt_requested() ? 2 : 1;
            kill(-pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        progress_step(&prog, what);
        nanosleep(&nap, NULL);
    }
    progress_done(&prog);
    return rc;
}

void booksim_run(const char *path, const char *cfg, const char *out, uint64_t min_cycles, unsigned timeout_seconds,
                 const char *what, bool quiet, booksim_result_t *r, bool *interrupted)
{
    *r = (booksim_result_t){.ok = false};
    int out_fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out_fd < 0) {
        snprintf(r->why, sizeof r->why, "cannot make its output file %s: %s", out, strerror(errno));
        return;
    }
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int fds[2] = {-1, -1};
    if (null_fd < 0 || pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(r->why, sizeof r->why, "cannot prepare its process: %s", strerror(errno));
        close(out_fd);
        if (null_fd >= 0)
            close(null_fd);
        return;
    }
    fflush(NULL); /* what this process printed must not be printed again by the child */
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0)
        child(path, cfg, out_fd, null_fd, fds[1]);
    int fork_errno = errno;
    close(fds[1]);
    close(out_fd);
    close(null_fd);
    if (pid < 0) {
        close(fds[0]);
        snprintf(r->why, sizeof r->why, "cannot start its process: %s", strerror(fork_errno));
        return;
    }
    setpgid(pid, pid); /* as the child does: whichever runs first, the group exists before a kill */
    /* The pipe closes at the exec (close-on-exec), or brings the reason it failed. */
    int exec_errno = 0;
    ssize_t n;
    while ((n = read(fds[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
        ;
    close(fds[0]);
    int status = 0;
    int waited = wait_child(pid, t0 + timeout_seconds, what, quiet, &status);
    r->wall_seconds = bench_now() - t0;
    if (n == (ssize_t)sizeof exec_errno) {
        snprintf(r->why, sizeof r->why, "cannot be run: %s", strerror(exec_errno));
        return;
    }
    if (waited == 2) {
        *interrupted = true;
        snprintf(r->why, sizeof r->why, "stopped by Ctrl-C");
        return;
    }
    char *text = read_tail(out);
    char last[200] = "";
    if (text != NULL)
        last_line(text, last, sizeof last);
    char said[260] = "";
    if (last[0] != '\0')
        snprintf(said, sizeof said, "; its last line: '%s'", last);
    if (waited == 1) {
        snprintf(r->why, sizeof r->why,
                 "still running after %u s (the limit, IWARP_BOOKSIM_WALL_SECONDS): stopped%s; its output: %s",
                 timeout_seconds, said, out);
    } else if (WIFSIGNALED(status)) {
        snprintf(r->why, sizeof r->why, "was stopped by signal %d (%s)%s; its output: %s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)), said, out);
    } else if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 255)) {
        /* 255 is BookSim 2's success: its main returns -1 after a whole run (0 after an unstable one, which the
         * missing "Time taken" line then tells) */
        snprintf(r->why, sizeof r->why, "exited with status %d%s; its output: %s", WEXITSTATUS(status), said, out);
    } else if (text == NULL) {
        snprintf(r->why, sizeof r->why, "its output %s cannot be read: %s", out, strerror(errno));
    } else if (booksim_parse(text, &r->cycles, &r->run_seconds, r->why, sizeof r->why) != 0) {
        size_t len = strlen(r->why);
        snprintf(r->why + len, sizeof r->why - len, "; its output: %s", out);
    } else if (r->cycles < min_cycles) {
        snprintf(r->why, sizeof r->why,
                 "ran %llu cycles, fewer than the %llu its config injects for: not the config it was given?; "
                 "its output: %s",
                 (unsigned long long)r->cycles, (unsigned long long)min_cycles, out);
    } else {
        r->ok = true;
    }
    free(text);
}

int booksim_wall_limit(unsigned *seconds, char *why, size_t cap)
{
    const char *s = getenv("IWARP_BOOKSIM_WALL_SECONDS");
    *seconds = BOOKSIM_WALL_SECONDS;
    if (s == NULL || s[0] == '\0')
        return 0;
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || n == 0 || n > 86400) {
        snprintf(why, cap, "IWARP_BOOKSIM_WALL_SECONDS=%s: wants a whole number from 1 to 86400", s);
        return -1;
    }
    *seconds = (unsigned)n;
    return 0;
}
