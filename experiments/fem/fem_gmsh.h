/*
 * gmsh's C API (gmshc.h, libgmsh-dev), loaded at run time when a mesh is made or read rather than linked: libgmsh
 * brings OpenCASCADE, FLTK and some 130 shared objects whose relocation and static constructors cost every start
 * of iwarp about 90 ms of CPU, and the tests and sweeps start thousands that never touch a mesh. The table's types are
 * gmshc.h's own declarations, so a call through it is checked as a direct call would be. docs/fem.md.
 */
#ifndef EXPERIMENTS_FEM_GMSH_H
#define EXPERIMENTS_FEM_GMSH_H

#include <gmshc.h>
#include <stddef.h>

/* The functions fem_mesh.c calls, without their `gmsh` prefix: gmshModelGeoAddPoint is gmsh->ModelGeoAddPoint. */
#define FEM_GMSH_FUNCTIONS(X)                                                                                          \
    X(Initialize)                                                                                                      \
    X(Finalize)                                                                                                        \
    X(Free)                                                                                                            \
    X(Open)                                                                                                            \
    X(Write)                                                                                                           \
    X(OptionSetNumber)                                                                                                 \
    X(LoggerGetLastError)                                                                                              \
    X(ModelAdd)                                                                                                        \
    X(ModelGetDimension)                                                                                               \
    X(ModelAddPhysicalGroup)                                                                                           \
    X(ModelSetPhysicalName)                                                                                            \
    X(ModelGeoAddPoint)                                                                                                \
    X(ModelGeoAddLine)                                                                                                 \
    X(ModelGeoAddCurveLoop)                                                                                            \
    X(ModelGeoAddPlaneSurface)                                                                                         \
    X(ModelGeoExtrude)                                                                                                 \
    X(ModelGeoSynchronize)                                                                                             \
    X(ModelGeoMeshSetTransfiniteCurve)                                                                                 \
    X(ModelGeoMeshSetTransfiniteSurface)                                                                               \
    X(ModelGeoMeshSetRecombine)                                                                                        \
    X(ModelMeshEmbed)                                                                                                  \
    X(ModelMeshGenerate)                                                                                               \
    X(ModelMeshGetElementTypes)                                                                                        \
    X(ModelMeshGetElements)                                                                                            \
    X(ModelMeshGetNodes)                                                                                               \
    X(ModelMeshFieldAdd)                                                                                               \
    X(ModelMeshFieldSetNumber)                                                                                         \
    X(ModelMeshFieldSetNumbers)                                                                                        \
    X(ModelMeshFieldSetAsBackgroundMesh)

typedef struct fem_gmsh {
    void *lib; /* dlopen's handle */
#define FEM_GMSH_POINTER(name) __typeof__(gmsh##name) *name;
    FEM_GMSH_FUNCTIONS(FEM_GMSH_POINTER)
#undef FEM_GMSH_POINTER
} fem_gmsh_t;

/* Loads libgmsh (the soname of the gmshc.h built against, else libgmsh.so) and every function of the table; -1
 * with what failed and the package to install in err. */
int fem_gmsh_open(fem_gmsh_t *g, char *err, size_t cap);

/* The library stays mapped (RTLD_NODELETE): unloading it would run gmsh's and OpenCASCADE's static destructors
 * in the middle of the process, and the next open their constructors again. */
void fem_gmsh_close(fem_gmsh_t *g);

/* gmsh initialized for iwarp's meshes: quiet, one thread and a fixed seed, so the same mesh comes out every time. */
void fem_gmsh_start(const fem_gmsh_t *g);

/* 0 when ierr is 0; else -1 with `what: ` and gmsh's last error in err. */
int fem_gmsh_failed(const fem_gmsh_t *g, int ierr, const char *what, char *err, size_t cap);

#endif
