/* libFuzzer harness: the partition cache of `iwarp fem` (fem_partition_cached reading its file). The mesh is a
 * strip of 24 triangles made here (no gmsh); the input is the cache file. Whatever the file holds, the call must
 * end with a partition of that mesh into 4 parts whose pattern is symmetric (a file that does not match is made
 * again, by METIS or RCB, and written over). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "fem_partition.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    enum { COLS = 12, ELEMS = 2 * COLS, PARTS = 4 };
    uint32_t ptr[ELEMS + 1], nodes[3 * ELEMS];
    for (unsigned e = 0; e <= ELEMS; e++)
        ptr[e] = 3 * e;
    for (unsigned c = 0; c < COLS; c++) { /* nodes: bottom row 0..COLS, top row COLS+1.. */
        uint32_t b = c, t = COLS + 1 + c;
        const uint32_t tri[6] = {b, b + 1, t, b + 1, t + 1, t};
        for (unsigned k = 0; k < 6; k++)
            nodes[6 * c + k] = tri[k];
    }
    double coords[3 * 2 * (COLS + 1)] = {0}; /* bottom row at y 0, top row at y 1, x the column */
    for (unsigned c = 0; c <= COLS; c++) {
        coords[3 * c] = coords[3 * (COLS + 1 + c)] = c;
        coords[3 * (COLS + 1 + c) + 1] = 1;
    }
    fem_mesh_t m = {.dim = 2, .nnodes = 2 * (COLS + 1), .nelems = ELEMS, .elem_ptr = ptr, .elem_nodes = nodes,
                    .face_nodes = 2, .coords = coords};
    char path[64];
    if (fuzz_temp_file(data, size, path, sizeof path) != 0)
        return 0;
    fem_partition_t p;
    int made;
    char err[256];
    /* Either partitioner's cache: the input's length picks one, so both readers see every kind of file. */
    fem_partitioner_t how = size % 2 ? FEM_RCB : FEM_METIS;
    if (fem_partition_cached(&m, PARTS, how, path, &p, &made, err, sizeof err) != 0)
        abort();
    for (unsigned e = 0; e < ELEMS; e++)
        if (p.epart[e] >= PARTS)
            abort();
    for (unsigned a = 0; a < PARTS; a++)
        for (unsigned b = 0; b < PARTS; b++)
            if (p.words[a * PARTS + b] != p.words[b * PARTS + a] || (a == b && p.words[a * PARTS + b] != 0))
                abort();
    fem_partition_free(&p);
    unlink(path);
    return 0;
}
