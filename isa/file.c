#define _XOPEN_SOURCE 700 /* realpath */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"

FILE *file_open_read(const char *path, const char **why)
{
    /* Non-blocking, so that opening a FIFO does not wait for a writer before it can be refused. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file (a FIFO, device or socket)";
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (f == NULL) {
        *why = strerror(errno);
        close(fd);
    }
    return f;
}

int file_read_stream(FILE *f, const char *name, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            if (n > max) {
                free(buf);
                return err_set(err, errlen, "%s: larger than %zu bytes", name, max);
            }
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                return err_set(err, errlen, "%s: out of memory", name);
            }
            buf = grown;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    if (ferror(f)) {
        free(buf);
        return err_set(err, errlen, "%s: read error", name);
    }
    if (n > max) {
        free(buf);
        return err_set(err, errlen, "%s: larger than %zu bytes", name, max);
    }
    if (n == 0) { /* as the header says: no buffer for an empty file */
        free(buf);
        buf = NULL;
    } else {
        buf[n] = 0; /* the loop grows the buffer before each read, so the last read left room for it */
    }
    *data = buf;
    *len = n;
    return 0;
}

int file_read_max(const char *path, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    const char *why;
    FILE *f = file_open_read(path, &why);
    if (f == NULL)
        return err_set(err, errlen, "%s: %s", path, why);
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (uint64_t)st.st_size > max) {
        fclose(f);
        return err_set(err, errlen, "%s: larger than %zu bytes", path, max);
    }
    int rc = file_read_stream(f, path, max, data, len, err, errlen);
    fclose(f);
    return rc;
}

int file_read_all(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    return file_read_max(path, SIZE_MAX - 1, data, len, err, errlen);
}

int file_out_open(file_out_t *o, const char *path, const char *mode, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path);
    o->path = malloc(n + 1);
    o->tmp = malloc(n + 16);
    if (o->path == NULL || o->tmp == NULL) {
        file_out_abort(o);
        return err_set(err, errlen, "%s: out of memory", path);
    }
    memcpy(o->path, path, n + 1);
    /* A device or FIFO named as the output (/dev/stdout, /dev/null, /dev/full) is written as it is: there is no
     * whole file to protect, and a temporary file beside it would replace the device. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(o->tmp);
        o->tmp = NULL;
        if (S_ISDIR(st.st_mode)) {
            file_out_abort(o);
            return err_set(err, errlen, "%s: is a directory", path);
        }
        o->f = fopen(path, mode);
        if (o->f == NULL) {
            int e = errno;
            file_out_abort(o);
            return err_set(err, errlen, "%s: %s", path, strerror(e));
        }
        return 0;
    }
    snprintf(o->tmp, n + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        file_out_abort(o);
        return err_set(err, errlen, "%s: %s", path, strerror(e));
    }
    /* mkstemp makes the file private (0600); an output gets the permissions fopen would have given it. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, mode);
    if (o->f == NULL) {
        int e = errno;
        close(fd);
        file_out_abort(o);
        return err_set(err, errlen, "%s: %s", path, strerror(e));
    }
    return 0;
}

void file_out_abort(file_out_t *o)
{
    if (o->f != NULL)
        fclose(o->f);
    if (o->tmp != NULL)
        unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int file_out_not_input(const char *out, const char *const *inputs, size_t n, char *err, size_t errlen)
{
    struct stat so, si;
    if (out == NULL || stat(out, &so) != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (inputs[i] != NULL && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino &&
            S_ISREG(so.st_mode))
            return err_set(err, errlen, "%s: is also the input %s: it would be overwritten (name another output)", out,
                           inputs[i]);
    return 0;
}

int file_out_commit(file_out_t *o, char *err, size_t errlen)
{
    const char *why = NULL;
    int e = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    /* On the disk before the rename: a crash then leaves the old file or the new one, never an empty one. */
    if (e == 0 && o->tmp != NULL && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && e == 0)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (e == 0 && o->tmp != NULL && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e != 0)
        why = strerror(e);
    char path[4096];
    snprintf(path, sizeof path, "%s", o->path);
    if (why == NULL) {
        free(o->tmp); /* renamed: nothing to remove */
        o->tmp = NULL;
    }
    file_out_abort(o);
    return why != NULL ? err_set(err, errlen, "%s: %s", path, why) : 0;
}

/* The folder's real path and the last name: "folder/name", or "" when the folder does not exist. */
static void resolved(const char *path, char *out, size_t cap)
{
    char a[PATH_MAX], b[PATH_MAX], dir[PATH_MAX];
    snprintf(a, sizeof a, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    out[0] = '\0';
    if (realpath(dirname(a), dir) != NULL)
        snprintf(out, cap, "%s/%s", dir, basename(b));
}

bool file_outs_same(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return false;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
    resolved(a, ra, sizeof ra);
    resolved(b, rb, sizeof rb);
    return strcmp(a, b) == 0 || (ra[0] != '\0' && strcmp(ra, rb) == 0);
}
