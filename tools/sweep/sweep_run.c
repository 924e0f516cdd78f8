/* Local runs: worker threads, each starting one iwarp process at a time and turning what it printed into the
 * case's record; records are appended whole, under a lock, so a kill leaves at most one torn last line, which
 * the next append cuts off. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "file.h"
#include "json.h"
#include "sweep_results.h"

extern char **environ;

enum { KEEP_STDERR = 2000 };

/* --- reading the results --- */

typedef struct key_index {
    char *key;
    unsigned k;
} key_index_t;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const key_index_t *)a)->key, ((const key_index_t *)b)->key);
}

static void keys_free(key_index_t *keys, unsigned n)
{
    for (unsigned i = 0; keys != NULL && i < n; i++)
        free(keys[i].key);
    free(keys);
}

static key_index_t *keys_sorted(const sweep_t *s)
{
    key_index_t *keys = calloc(s->ncases ? s->ncases : 1, sizeof *keys);
    for (unsigned k = 0; keys != NULL && k < s->ncases; k++) {
        char buf[SWEEP_MAX_TEXT];
        sweep_case_key(s, k, buf, sizeof buf);
        keys[k] = (key_index_t){strdup(buf), k};
        if (keys[k].key == NULL) {
            keys_free(keys, k);
            return NULL;
        }
    }
    if (keys != NULL)
        qsort(keys, s->ncases, sizeof *keys, by_key);
    return keys;
}

int sweep_records(const sweep_t *s, const char *results, jv_t **out, char *err, size_t errlen)
{
    *out = calloc(s->ncases ? s->ncases : 1, sizeof **out);
    key_index_t *keys = keys_sorted(s);
    if (*out == NULL || keys == NULL) {
        free(*out);
        keys_free(keys, s->ncases);
        return err_set(err, errlen, "out of memory");
    }
    uint8_t *data = NULL;
    size_t len = 0;
    if (access(results, F_OK) == 0 && file_read_all(results, &data, &len, err, errlen) != 0) {
        free(*out);
        keys_free(keys, s->ncases);
        return -1;
    }
    const char *text = (const char *)data, *end = text + len;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl == NULL)
            break; /* a torn last line */
        jv_t *v;
        size_t n;
        if (jv_parse_all(line, (size_t)(nl - line), &v, &n, NULL, 0) == 0) {
            const jv_t *name = n == 1 ? jv_get(&v[0], "sweep") : NULL, *key = n == 1 ? jv_get(&v[0], "key") : NULL;
            if (name != NULL && key != NULL && name->kind == JV_STRING && key->kind == JV_STRING &&
                strcmp(name->text, s->name) == 0) {
                key_index_t probe = {key->text, 0};
                const key_index_t *hit = bsearch(&probe, keys, s->ncases, sizeof *keys, by_key);
                if (hit != NULL) {
                    jv_free(&(*out)[hit->k]);
                    (*out)[hit->k] = v[0];
                    free(v);
                    v = NULL;
                    n = 0;
                }
            }
            jv_free_all(v, n);
        }
        line = nl + 1;
    }
    free(data);
    keys_free(keys, s->ncases);
    return 0;
}

void sweep_records_free(const sweep_t *s, jv_t *rec)
{
    if (rec != NULL)
        for (unsigned k = 0; k < s->ncases; k++)
            jv_free(&rec[k]);
    free(rec);
}

/* --- appending a record --- */

/* Cuts a torn last line (no newline at the end: a writer was killed mid-line). */
static int cut_torn_tail(int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    char c;
    if (size <= 0 || (pread(fd, &c, 1, size - 1) == 1 && c == '\n'))
        return size < 0 ? -1 : 0;
    off_t keep = size - 1;
    while (keep > 0) {
        char buf[4096];
        off_t from = keep > (off_t)sizeof buf ? keep - (off_t)sizeof buf : 0;
        ssize_t got = pread(fd, buf, (size_t)(keep - from), from);
        if (got != keep - from)
            return -1;
        char *nl = NULL;
        for (ssize_t i = got - 1; i >= 0 && nl == NULL; i--)
            if (buf[i] == '\n')
                nl = &buf[i];
        if (nl != NULL) {
            keep = from + (nl - buf) + 1;
            break;
        }
        keep = from;
    }
    return ftruncate(fd, keep);
}

static int append_record(const char *path, const char *line, size_t len)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return -1;
    /* Slurm tasks on other processes (or hosts, on a shared file system) append to the same file. */
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int rc = fcntl(fd, F_SETLKW, &lock);
    if (rc == 0)
        rc = cut_torn_tail(fd);
    for (size_t done = 0; rc == 0 && done < len;) {
        ssize_t w = write(fd, line + done, len - done);
        if (w < 0 && errno != EINTR)
            rc = -1;
        done += w > 0 ? (size_t)w : 0;
    }
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

/* --- running one case --- */

/* What a case printed: its standard output whole, up to the sweep's --max-output, and the tail of its standard
 * error, which is all a record keeps (KEEP_STDERR): a case that prints without end costs the sweep a bounded amount
 * of memory, whoever wrote its sweep file. */
typedef struct captured {
    char *out, *err;
    size_t nout, nerr;
    size_t cap_out;   /* bytes of out allocated */
    bool out_dropped; /* its output passed max_output: the case was stopped, and its output is not kept */
    int status;
} captured_t;

static bool keep_out(captured_t *c, const char *buf, size_t n, uint64_t max_output)
{
    if (c->out_dropped || n > max_output - c->nout) {
        c->out_dropped = true;
        return false;
    }
    if (c->nout + n + 1 > c->cap_out) {
        size_t cap = c->cap_out != 0 ? c->cap_out : 65536;
        while (cap < c->nout + n + 1)
            cap *= 2;
        char *grown = realloc(c->out, cap);
        if (grown == NULL)
            return false;
        c->out = grown;
        c->cap_out = cap;
    }
    memcpy(c->out + c->nout, buf, n);
    c->nout += n;
    c->out[c->nout] = '\0';
    return true;
}

/* The last KEEP_STDERR bytes at most, in a buffer of twice that: the older half is dropped when it fills. */
static void keep_err_tail(captured_t *c, const char *buf, size_t n)
{
    if (c->err == NULL && (c->err = malloc(2 * KEEP_STDERR + 1)) == NULL)
        return;
    if (n >= KEEP_STDERR) {
        buf += n - KEEP_STDERR;
        n = KEEP_STDERR;
    }
    if (c->nerr + n > 2 * KEEP_STDERR) {
        size_t keep = KEEP_STDERR - n; /* room for n after the kept tail */
        memmove(c->err, c->err + c->nerr - keep, keep);
        c->nerr = keep;
    }
    memcpy(c->err + c->nerr, buf, n);
    c->nerr += n;
    c->err[c->nerr] = '\0';
}

static int spawn_case(const char *iwarp, char *const *argv, uint64_t max_output, captured_t *c)
{
    memset(c, 0, sizeof *c);
    int out[2], errp[2];
    if (pipe(out) != 0)
        return -1;
    if (pipe(errp) != 0) {
        close(out[0]);
        close(out[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    posix_spawn_file_actions_addclose(&fa, errp[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, iwarp, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(errp[1]);
    if (rc != 0) {
        close(out[0]);
        close(errp[0]);
        errno = rc;
        return -1;
    }
    bool ok = true;
    struct pollfd fds[2] = {{out[0], POLLIN, 0}, {errp[0], POLLIN, 0}};
    for (unsigned open_fds = 2; open_fds > 0;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (unsigned i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            char buf[65536];
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0 && i == 1) {
                keep_err_tail(c, buf, (size_t)n);
            } else if (n > 0 && !keep_out(c, buf, (size_t)n, max_output)) {
                /* Past the limit (or out of memory): the rest would not be kept, so the case is not run on. */
                ok = c->out_dropped;
                kill(pid, SIGKILL);
                close(fds[0].fd);
                fds[0].fd = -1;
                open_fds--;
            } else if (n == 0 || (n < 0 && errno != EINTR)) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (unsigned i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    if (c->out == NULL && !c->out_dropped && (c->out = calloc(1, 1)) == NULL) /* printed nothing: output [] */
        ok = false;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    c->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
    return ok ? 0 : -1;
}

/* The record of case k: its identity, the command, the exit status and the JSON values it printed, on one line.
 * Nothing in it depends on where, when or how fast the case ran, so a case gives the same record locally and
 * on Slurm. */
static char *case_record(const sweep_t *s, unsigned k, const char *command, const captured_t *c, uint64_t max_output)
{
    char *buf = NULL, key[SWEEP_MAX_TEXT];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    unsigned index[SWEEP_MAX_PARAMS];
    sweep_case_values(s, k, index);
    sweep_case_key(s, k, key, sizeof key);
    json_writer_t j;
    json_init(&j, f, false);
    json_begin_object(&j, NULL);
    json_string(&j, "sweep", s->name);
    json_u64(&j, "case", k);
    json_string(&j, "key", key);
    json_begin_object(&j, "params");
    for (unsigned i = 0; i < s->nparams; i++)
        json_string(&j, s->params[i].name, s->params[i].values[index[i]]);
    json_end_object(&j);
    json_string(&j, "command", command);
    json_i64(&j, "status", c->status);
    jv_t *v;
    size_t n;
    if (c->out_dropped) {
        json_null(&j, "output");
        char why[128];
        snprintf(why, sizeof why, "its standard output passed --max-output (%llu bytes): stopped, and not kept",
                 (unsigned long long)max_output);
        json_string(&j, "error", why);
    } else if (c->out != NULL && memchr(c->out, '\0', c->nout) == NULL &&
               jv_parse_all(c->out, c->nout, &v, &n, NULL, 0) == 0) {
        json_begin_array(&j, "output");
        for (size_t i = 0; i < n; i++) {
            char *text = jv_compact(&v[i]);
            json_raw(&j, NULL, text != NULL ? text : "null");
            free(text);
        }
        json_end_array(&j);
        jv_free_all(v, n);
    } else {
        json_null(&j, "output");
        json_string(&j, "stdout", c->out != NULL && memchr(c->out, '\0', c->nout) == NULL ? c->out : "");
    }
    if ((c->status != 0 || c->out_dropped) && c->err != NULL)
        json_string(&j, "stderr", c->nerr > KEEP_STDERR ? c->err + c->nerr - KEEP_STDERR : c->err);
    json_end_object(&j);
    json_finish(&j);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* --- the workers --- */

typedef struct sweep_pool {
    const sweep_t *s;
    const sweep_run_options_t *o;
    unsigned *pending;
    unsigned npending, next, done;
    bool any_failed;
    bool broken; /* the sweep itself failed: stop taking cases */
    char err[512];
    pthread_mutex_t lock;
} sweep_pool_t;

static bool run_case(sweep_pool_t *p, unsigned k)
{
    char command[SWEEP_MAX_TEXT], words[SWEEP_MAX_TEXT + 8];
    sweep_case_command(p->s, k, command, sizeof command);
    snprintf(words, sizeof words, "iwarp %s", command);
    char *argv[SWEEP_MAX_ARGS + 1];
    unsigned argc = sweep_split(words, argv, SWEEP_MAX_ARGS);
    argv[argc] = NULL;
    captured_t c;
    int rc = spawn_case(p->o->iwarp, argv, p->o->max_output, &c);
    char *line = rc == 0 ? case_record(p->s, k, command, &c, p->o->max_output) : NULL;
    bool failed = c.status != 0 || c.out_dropped;
    pthread_mutex_lock(&p->lock);
    if (line == NULL || append_record(p->o->results, line, strlen(line)) != 0) {
        if (!p->broken)
            snprintf(p->err, sizeof p->err, "case %u: %s: %s", k,
                     rc != 0        ? "cannot run"
                     : line == NULL ? "out of memory"
                                    : "cannot append to",
                     rc != 0 ? p->o->iwarp : p->o->results);
        p->broken = true;
    } else {
        p->done++;
        p->any_failed |= failed;
        if (!p->o->quiet) {
            char key[SWEEP_MAX_TEXT];
            sweep_case_key(p->s, k, key, sizeof key);
            printf("[%u/%u] case %u %s: %s\n", p->done, p->npending, k, key,
                   !failed        ? "ok"
                   : c.out_dropped ? "failed (its output passed --max-output)"
                                   : "failed (its record has the status and stderr)");
            fflush(stdout);
        }
    }
    pthread_mutex_unlock(&p->lock);
    free(line);
    free(c.out);
    free(c.err);
    return true;
}

static void *worker(void *arg)
{
    sweep_pool_t *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        bool stop = p->broken || p->next == p->npending;
        unsigned k = stop ? 0 : p->pending[p->next++];
        pthread_mutex_unlock(&p->lock);
        if (stop)
            return NULL;
        run_case(p, k);
    }
}

static int run_cases(const sweep_t *s, const sweep_run_options_t *o, char *err, size_t errlen);

/* One local sweep at a time on a results file: two would each find the same cases missing and run them both. The
 * lock is on RESULTS.lock (the results file itself is replaced by no one, but a lock file is plain to see), held
 * until the process ends. Slurm's tasks, one case each, take it shared. Returns the descriptor, or -1 with why. */
static int lock_results(const char *results, bool one_case, char *err, size_t errlen)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s.lock", results) >= sizeof path)
        return err_set(err, errlen, "%s: the name is too long for its lock", results);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(err, errlen, "%s: %s", path, strerror(errno));
    struct flock lock = {.l_type = (short)(one_case ? F_RDLCK : F_WRLCK), .l_whence = SEEK_SET};
    if (fcntl(fd, F_SETLK, &lock) != 0) {
        int e = errno;
        close(fd);
        if (e == EACCES || e == EAGAIN)
            return err_set(err, errlen, "%s: another sweep is running its cases (%s is locked)", results, path);
        return err_set(err, errlen, "%s: %s", path, strerror(e));
    }
    return fd;
}

int sweep_run(const sweep_t *s, const sweep_run_options_t *o, char *err, size_t errlen)
{
    if (o->only_case >= 0 && (unsigned)o->only_case >= s->ncases)
        return err_set(err, errlen, "case %d: the sweep has cases 0..%u", o->only_case, s->ncases - 1);
    int lock = lock_results(o->results, o->only_case >= 0, err, errlen);
    if (lock < 0)
        return -1;
    int rc = run_cases(s, o, err, errlen);
    close(lock);
    return rc;
}

static int run_cases(const sweep_t *s, const sweep_run_options_t *o, char *err, size_t errlen)
{
    jv_t *rec;
    if (sweep_records(s, o->results, &rec, err, errlen) != 0)
        return -1;
    sweep_pool_t p = {.s = s, .o = o};
    p.pending = calloc(s->ncases ? s->ncases : 1, sizeof *p.pending);
    if (p.pending == NULL) {
        sweep_records_free(s, rec);
        return err_set(err, errlen, "out of memory");
    }
    for (unsigned k = 0; k < s->ncases; k++)
        if (rec[k].kind == JV_NULL && (o->only_case < 0 || (unsigned)o->only_case == k) &&
            (o->limit == 0 || p.npending < o->limit))
            p.pending[p.npending++] = k;
    sweep_records_free(s, rec);
    pthread_mutex_init(&p.lock, NULL);
    unsigned n = o->jobs < p.npending ? o->jobs : p.npending;
    pthread_t threads[1024];
    unsigned started = 0;
    for (unsigned t = 1; t < n && t < 1024; t++)
        if (pthread_create(&threads[started], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* this thread is a worker too: a sweep runs even if no thread could start */
    for (unsigned t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    pthread_mutex_destroy(&p.lock);
    free(p.pending);
    if (p.broken)
        return err_set(err, errlen, "%s", p.err);
    return p.any_failed ? 1 : 0;
}
