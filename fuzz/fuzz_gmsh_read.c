/* libFuzzer harness: gmsh's reading of a .msh file and iwarp's taking of its mesh (fem_gmsh_read: extract's
 * checks of every count and tag gmsh hands over), ASCII and binary. It runs what the child of fem_sandbox.c runs
 * after the structural check, in this process (no fork, limits or filter: a finding should stop here). Only
 * inputs that start with $MeshFormat are read: gmsh parses any other file as a .geo program, whose commands
 * fem_geo_check refuses before gmsh sees them and which are not this harness's subject. A mesh that comes out
 * must hold: every element's nodes within nnodes, offsets rising. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fem_gmsh_read.h"
#include "fem_msh_check.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* gmsh is loaded once for the run: loading it costs about 0.1 s */
    static fem_gmsh_t gmsh;
    static int loaded;
    if (size > 1 << 16 || size < 11 || memcmp(data, "$MeshFormat", 11) != 0)
        return 0;
    char err[1024];
    if (fem_msh_check((const char *)data, size, "f.msh", err, sizeof err) != 0)
        return 0;
    if (!loaded) {
        if (fem_gmsh_open(&gmsh, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            abort();
        }
        loaded = 1;
    }
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    fem_mesh_t m;
    if (fem_gmsh_read(&gmsh, path, &m, err, sizeof err) == 0) {
        if (m.nelems == 0 || m.elem_ptr[0] != 0)
            abort();
        for (size_t e = 0; e < m.nelems; e++)
            if (m.elem_ptr[e + 1] <= m.elem_ptr[e])
                abort();
        for (size_t i = 0; i < m.elem_ptr[m.nelems]; i++)
            if (m.elem_nodes[i] >= m.nnodes)
                abort();
        fem_mesh_free(&m);
    }
    unlink(path);
    return 0;
}
