/* gmsh's C API loaded at run time (fem_gmsh.h). */
#include "fem_gmsh.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define FEM_GMSH_STR_(x) #x
#define FEM_GMSH_STR(x) FEM_GMSH_STR_(x)
/* The library's soname and Debian package for the gmshc.h compiled against: another version's functions may take
 * other arguments. Plain libgmsh.so (libgmsh-dev's link) is the fallback for a gmsh built by hand. */
#define FEM_GMSH_VERSION FEM_GMSH_STR(GMSH_API_VERSION_MAJOR) "." FEM_GMSH_STR(GMSH_API_VERSION_MINOR)
#define FEM_GMSH_SONAME "libgmsh.so." FEM_GMSH_VERSION

/* POSIX lets dlsym's object pointer stand for a function; ISO C does not convert one, so it is copied. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function pointers are as wide as dlsym's result");

static const struct {
    const char *name;
    size_t at;
} symbols[] = {
#define FEM_GMSH_SYMBOL(name) {"gmsh" #name, offsetof(fem_gmsh_t, name)},
    FEM_GMSH_FUNCTIONS(FEM_GMSH_SYMBOL)
#undef FEM_GMSH_SYMBOL
};

static int failed(fem_gmsh_t *g, const char *what, char *err, size_t cap)
{
    snprintf(err, cap, "gmsh could not be loaded (%s); install libgmsh%s (scripts/setup.sh)", what, FEM_GMSH_VERSION);
    fem_gmsh_close(g);
    return -1;
}

int fem_gmsh_open(fem_gmsh_t *g, char *err, size_t cap)
{
    memset(g, 0, sizeof *g);
    /* NOW: a missing function is an error here, not a crash mid-mesh. LOCAL: its C++ symbols stay out of the
     * process's namespace. NODELETE: see fem_gmsh_close. */
    const int mode = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;
    g->lib = dlopen(FEM_GMSH_SONAME, mode);
    if (g->lib == NULL) {
        char first[512]; /* the versioned name's failure is the one that says what is missing */
        const char *e = dlerror();
        snprintf(first, sizeof first, "%s", e != NULL ? e : FEM_GMSH_SONAME ": not found");
        g->lib = dlopen("libgmsh.so", mode);
        if (g->lib == NULL)
            return failed(g, first, err, cap);
    }
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        dlerror();
        void *f = dlsym(g->lib, symbols[i].name);
        const char *e = dlerror();
        if (f == NULL || e != NULL) {
            char what[512];
            snprintf(what, sizeof what, "%s", e != NULL ? e : symbols[i].name);
            return failed(g, what, err, cap);
        }
        memcpy((char *)g + symbols[i].at, &f, sizeof f);
    }
    return 0;
}

void fem_gmsh_close(fem_gmsh_t *g)
{
    if (g->lib != NULL)
        dlclose(g->lib);
    memset(g, 0, sizeof *g);
}

int fem_gmsh_failed(const fem_gmsh_t *gmsh, int ierr, const char *what, char *err, size_t cap)
{
    if (ierr == 0)
        return 0;
    char *msg = NULL;
    int e2 = 0;
    gmsh->LoggerGetLastError(&msg, &e2);
    snprintf(err, cap, "%s: %s", what, e2 == 0 && msg != NULL && msg[0] ? msg : "gmsh failed");
    gmsh->Free(msg);
    return -1;
}

void fem_gmsh_start(const fem_gmsh_t *gmsh)
{
    int ierr = 0;
    gmsh->Initialize(0, NULL, 0, &ierr);
    gmsh->OptionSetNumber("General.Terminal", 0, &ierr);
    gmsh->OptionSetNumber("General.Verbosity", 1, &ierr);
    gmsh->OptionSetNumber("General.NumThreads", 1, &ierr); /* the same mesh every time */
    gmsh->OptionSetNumber("Mesh.RandomSeed", 1, &ierr);
}
