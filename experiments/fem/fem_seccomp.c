/* The filter of fem_seccomp.h, as classic BPF over struct seccomp_data. */
#include "fem_seccomp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define FEM_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define FEM_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The calls refused with EPERM: start a program, change the file system, talk over a socket, touch another
 * process. What gmsh needs to read a file and mesh it (open for reading, mmap, brk, clone for threads) stays. */
static const int refused[] = {
    SYS_execve,
    SYS_execveat,
    SYS_mkdirat,
    SYS_unlinkat,
    SYS_renameat,
    SYS_renameat2,
    SYS_linkat,
    SYS_symlinkat,
    SYS_mknodat,
    SYS_fchmodat,
    SYS_fchownat,
    SYS_truncate,
    SYS_utimensat,
    SYS_socket,
    SYS_socketpair,
    SYS_ptrace,
    SYS_process_vm_writev,
    SYS_io_uring_setup,
    SYS_mount,
    SYS_umount2,
    SYS_setxattr,
    SYS_lsetxattr,
    SYS_removexattr,
    SYS_lremovexattr,
    SYS_name_to_handle_at,
    SYS_open_by_handle_at,
#if defined(__x86_64__)
    SYS_mkdir,
    SYS_rmdir,
    SYS_unlink,
    SYS_rename,
    SYS_link,
    SYS_symlink,
    SYS_creat,
    SYS_mknod,
    SYS_chmod,
    SYS_chown,
    SYS_lchown,
    SYS_utime,
    SYS_utimes,
    SYS_futimesat,
#endif
};

/* The open flags that write or make a file. */
#define FEM_WRITE_FLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)

#define FEM_LOAD(field)                                                                                                \
    (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, field))
/* The low 32 bits of argument k (little-endian on both architectures): open flags fit in them. */
#define FEM_LOAD_ARG(k)                                                                                                \
    (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, args[k]))
#define FEM_RET(v) (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, (v))

int fem_seccomp_install(char *err, size_t cap)
{
    enum { N = sizeof refused / sizeof refused[0] };
    struct sock_filter f[2 * N + 24]; /* two for each refused call, the rest below */
    unsigned n = 0;
    f[n++] = FEM_LOAD(arch);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FEM_AUDIT_ARCH, 1, 0);
    f[n++] = FEM_RET(SECCOMP_RET_KILL_PROCESS);
    f[n++] = FEM_LOAD(nr);
#if defined(__x86_64__)
    /* the x32 ABI's numbers (bit 30) would bypass the list */
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
    f[n++] = FEM_RET(SECCOMP_RET_ERRNO | EPERM);
#endif
    for (unsigned i = 0; i < N; i++) {
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)refused[i], 0, 1);
        f[n++] = FEM_RET(SECCOMP_RET_ERRNO | EPERM);
    }
    /* openat2 takes its flags in a struct the filter cannot read: ENOSYS, and libc falls back to openat */
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1);
    f[n++] = FEM_RET(SECCOMP_RET_ERRNO | ENOSYS);
#if defined(__x86_64__)
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 0, 4);
    f[n++] = FEM_LOAD_ARG(1);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, FEM_WRITE_FLAGS, 0, 1);
    f[n++] = FEM_RET(SECCOMP_RET_ERRNO | EPERM);
    f[n++] = FEM_RET(SECCOMP_RET_ALLOW);
#endif
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 4);
    f[n++] = FEM_LOAD_ARG(2);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, FEM_WRITE_FLAGS, 0, 1);
    f[n++] = FEM_RET(SECCOMP_RET_ERRNO | EPERM);
    f[n++] = FEM_RET(SECCOMP_RET_ALLOW);
    f[n++] = FEM_RET(SECCOMP_RET_ALLOW); /* any other call */
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        snprintf(err, cap, "cannot install the seccomp filter: %s", strerror(errno));
        return -1;
    }
    return 0;
}

#else

int fem_seccomp_install(char *err, size_t cap)
{
    snprintf(err, cap, "no seccomp filter on this system");
    return -1;
}

#endif
