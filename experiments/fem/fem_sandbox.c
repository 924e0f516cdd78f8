/* gmsh in a child process with limits (fem_sandbox.h). */
#define _GNU_SOURCE /* pipe2, wait4 */
#include "fem_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fem_gmsh.h"
#include "fem_gmsh_read.h"
#include "fem_seccomp.h"

/* AddressSanitizer reserves terabytes of address space for its shadow memory: a limit on the address space would
 * stop every child of an ASan build before gmsh runs, so there the memory limit is left out. */
#if defined(__SANITIZE_ADDRESS__)
#define FEM_LIMIT_ADDRESS_SPACE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FEM_LIMIT_ADDRESS_SPACE 0
#endif
#endif
#ifndef FEM_LIMIT_ADDRESS_SPACE
#define FEM_LIMIT_ADDRESS_SPACE 1
#endif

static int env_number(const char *name, unsigned long max, unsigned long *v, char *err, size_t cap)
{
    const char *s = getenv(name);
    if (s == NULL || s[0] == '\0')
        return 0;
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 || n == 0 || n > max) {
        snprintf(err, cap, "%s=%s: wants a whole number from 1 to %lu", name, s, max);
        return -1;
    }
    *v = n;
    return 0;
}

int fem_limits_get(fem_limits_t *l, char *err, size_t cap)
{
    unsigned long cpu = FEM_GMSH_CPU_SECONDS, wall = FEM_GMSH_WALL_SECONDS, mem = FEM_GMSH_MEMORY_MIB;
    if (env_number("IWARP_GMSH_CPU_SECONDS", 86400, &cpu, err, cap) != 0 ||
        env_number("IWARP_GMSH_WALL_SECONDS", 86400, &wall, err, cap) != 0 ||
        env_number("IWARP_GMSH_MEMORY_MIB", 1ul << 30, &mem, err, cap) != 0)
        return -1;
    l->cpu_seconds = (unsigned)cpu;
    l->wall_seconds = (unsigned)wall;
    l->memory_mib = mem;
    return 0;
}

/* What the child sends: the magic, a status; then either an error message (a length and its bytes) or the mesh
 * (dim, face_nodes, nnodes, nelems, the number of node references, elem_ptr, elem_nodes, coords). */
static const char magic[8] = "iwmesh1";
typedef struct header {
    char magic[8];
    int32_t status;
    uint32_t dim, face_nodes, text_len;
    uint64_t nnodes, nelems, nidx;
} header_t;

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The child: limits, gmsh, the filter, the mesh or the error down the pipe. Never returns. */
static void child(const char *path, const fem_limits_t *l, int fd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* iwarp killed: gmsh stops too */
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) { /* gmsh's messages would mix with iwarp's output (--json) */
        dup2(null, 0);
        dup2(null, 1);
    }
    /* the soft limit sends SIGXCPU, the hard one a second later SIGKILL; no core file of either */
    struct rlimit cpu = {l->cpu_seconds, (rlim_t)l->cpu_seconds + 1}, core = {0, 0};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &core);
    if (FEM_LIMIT_ADDRESS_SPACE) {
        struct rlimit as = {(rlim_t)l->memory_mib << 20, (rlim_t)l->memory_mib << 20};
        setrlimit(RLIMIT_AS, &as);
    }
    char err[1024] = "";
    fem_mesh_t m = {0};
    fem_gmsh_t gmsh;
    int rc = fem_gmsh_open(&gmsh, err, sizeof err);
    /* after the library is loaded (which reads its files) and before gmsh reads the user's */
    if (rc == 0 && fem_seccomp_install(err, sizeof err) != 0) {
        char what[512];
        snprintf(what, sizeof what, "%s", err);
        snprintf(err, sizeof err, "%.400s: %s, so gmsh may not read the file", path, what);
        rc = -1;
    }
    if (rc == 0)
        rc = fem_gmsh_read(&gmsh, path, &m, err, sizeof err);
    header_t h = {.status = rc};
    memcpy(h.magic, magic, sizeof magic);
    int ok;
    if (rc != 0) {
        h.text_len = (uint32_t)strlen(err);
        ok = write_all(fd, &h, sizeof h) == 0 && write_all(fd, err, h.text_len) == 0;
    } else {
        h.dim = m.dim, h.face_nodes = m.face_nodes;
        h.nnodes = m.nnodes, h.nelems = m.nelems, h.nidx = m.elem_ptr[m.nelems];
        ok = write_all(fd, &h, sizeof h) == 0 && write_all(fd, m.elem_ptr, (m.nelems + 1) * sizeof *m.elem_ptr) == 0 &&
             write_all(fd, m.elem_nodes, h.nidx * sizeof *m.elem_nodes) == 0 &&
             write_all(fd, m.coords, 3 * m.nnodes * sizeof *m.coords) == 0;
    }
    _exit(ok ? 0 : 3); /* not exit(): the parent's atexit handlers and stdio buffers are the parent's */
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Everything the child sends, until it closes the pipe; 1 when the deadline passed first, -1 when the stream grew
 * past max. */
static int read_stream(int fd, double deadline, size_t max, char **buf, size_t *len)
{
    size_t cap = 1 << 16;
    *len = 0;
    *buf = malloc(cap);
    if (*buf == NULL)
        return -1;
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0)
            return 1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the deadline, checked above */
        if (*len == cap) {
            if (cap >= max)
                return -1;
            char *grown = realloc(*buf, cap * 2);
            if (grown == NULL)
                return -1;
            *buf = grown;
            cap *= 2;
        }
        ssize_t n = read(fd, *buf + *len, cap - *len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        *len += (size_t)n;
    }
}

/* The mesh in what the child sent, every count and index checked: the child ran a user's file. */
static int parse(const char *path, const char *buf, size_t len, fem_mesh_t *m, char *err, size_t cap)
{
    header_t h;
    if (len < sizeof h) {
        snprintf(err, cap, "%s: gmsh ended without a mesh (did the file end the process?)", path);
        return -1;
    }
    memcpy(&h, buf, sizeof h);
    const char *p = buf + sizeof h;
    size_t rest = len - sizeof h;
    if (memcmp(h.magic, magic, sizeof magic) != 0) {
        snprintf(err, cap, "%s: gmsh's process sent something that is not a mesh", path);
        return -1;
    }
    if (h.status != 0) {
        size_t n = h.text_len < rest ? h.text_len : rest;
        snprintf(err, cap, "%.*s", (int)(n < 2000 ? n : 2000), p);
        return -1;
    }
    /* Sizes first, so that no product below overflows: 32-bit indices, as fem_mesh_t has. */
    if ((h.dim != 2 && h.dim != 3) || h.face_nodes < 2 || h.face_nodes > 4 || h.nelems == 0 || h.nelems >= UINT32_MAX ||
        h.nidx >= UINT32_MAX || h.nnodes > h.nidx || rest != (h.nelems + 1) * 4 + h.nidx * 4 + h.nnodes * 24) {
        snprintf(err, cap, "%s: gmsh's process sent a mesh whose sizes do not add up", path);
        return -1;
    }
    m->dim = h.dim;
    m->face_nodes = h.face_nodes;
    m->nnodes = (size_t)h.nnodes;
    m->nelems = (size_t)h.nelems;
    m->elem_ptr = malloc((m->nelems + 1) * sizeof *m->elem_ptr);
    m->elem_nodes = malloc((size_t)h.nidx * sizeof *m->elem_nodes + 1);
    m->coords = malloc(3 * m->nnodes * sizeof *m->coords + 1);
    if (m->elem_ptr == NULL || m->elem_nodes == NULL || m->coords == NULL) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    memcpy(m->elem_ptr, p, (m->nelems + 1) * 4);
    p += (m->nelems + 1) * 4;
    memcpy(m->elem_nodes, p, (size_t)h.nidx * 4);
    p += h.nidx * 4;
    memcpy(m->coords, p, 3 * m->nnodes * sizeof *m->coords);
    int bad = m->elem_ptr[0] != 0 || m->elem_ptr[m->nelems] != h.nidx;
    for (size_t e = 0; !bad && e < m->nelems; e++)
        bad = m->elem_ptr[e + 1] <= m->elem_ptr[e] || m->elem_ptr[e + 1] - m->elem_ptr[e] > 8;
    for (size_t i = 0; !bad && i < h.nidx; i++)
        bad = m->elem_nodes[i] >= m->nnodes;
    if (bad) {
        snprintf(err, cap, "%s: gmsh's process sent a mesh whose elements name nodes it does not have", path);
        return -1;
    }
    return 0;
}

int fem_sandbox_read(const char *path, const fem_limits_t *l, fem_mesh_t *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, cap, "%s: cannot make a pipe for gmsh's process: %s", path, strerror(errno));
        return -1;
    }
    fflush(NULL); /* what this process printed must not be printed again by the child */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, cap, "%s: cannot start gmsh's process: %s", path, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child(path, l, fds[1]);
    }
    close(fds[1]);
    char *buf = NULL;
    size_t len = 0;
    /* the stream is at most what the child's memory held */
    int r = read_stream(fds[0], now_seconds() + l->wall_seconds, (size_t)l->memory_mib << 20, &buf, &len);
    close(fds[0]);
    if (r != 0)
        kill(pid, SIGKILL);
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                 ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
    int rc = -1;
    if (r == 1) {
        snprintf(err, cap, "%s: gmsh took more than %u s (wall clock; the limit, IWARP_GMSH_WALL_SECONDS)", path,
                 l->wall_seconds);
    } else if (r < 0) {
        snprintf(err, cap, "%s: gmsh's process sent more than its %lu MiB of memory could hold", path, l->memory_mib);
    } else if (WIFSIGNALED(status) &&
               (WTERMSIG(status) == SIGXCPU || (WTERMSIG(status) == SIGKILL && cpu >= l->cpu_seconds))) {
        snprintf(err, cap, "%s: gmsh took more than %u s of CPU (the limit, IWARP_GMSH_CPU_SECONDS)", path,
                 l->cpu_seconds);
    } else if (WIFSIGNALED(status)) {
        snprintf(err, cap,
                 "%s: gmsh's process was stopped by signal %d (%s); its memory limit is %lu MiB "
                 "(IWARP_GMSH_MEMORY_MIB)",
                 path, WTERMSIG(status), strsignal(WTERMSIG(status)), l->memory_mib);
    } else {
        rc = parse(path, buf, len, m, err, cap);
    }
    free(buf);
    if (rc != 0)
        fem_mesh_free(m);
    return rc;
}
