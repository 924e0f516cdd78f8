/* Meshes made and read by gmsh (fem_mesh.h). gmsh keeps its model in its own state: every call here loads the
 * library (fem_gmsh.h), initializes gmsh, works, and finalizes it, so no model outlives a call. */
#include "fem_mesh.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fem_geo_check.h"
#include "fem_gmsh.h"
#include "fem_msh_check.h"
#include "fem_sandbox.h"
#include "file.h"
#include "plot.h"

const char *const fem_mesh_names[FEM_MESHES] = {"m11k", "c10k", "c100k", "g20k"};

/* gmsh keeps some of its own allocations past gmshFinalize (option tables, its logger). They are the library's,
 * once a process, not ours: LeakSanitizer reports none of them (an ASan build calls this hook; others never).
 * The library stays mapped after fem_gmsh_close (RTLD_NODELETE), so their stacks still name it. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    /* gmsh is built without frame pointers: the stack of what it leaks reading a broken file (GModel::readMSH)
     * often ends at operator new, so libstdc++ stands for it. iwarp's own code is C and never calls it. */
    return "leak:libgmsh.so\nleak:libstdc++.so\n";
}
/* ... and says nothing of the suppression at exit, so that output stays the same in every build. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}

/* m11k: a unit plate of 11,000 nodes, the sides' evenly spaced and the rest random (xorshift, fixed seed)
 * embedded in it, so that the triangulation has exactly those inside. How many lie on the sides follows from the
 * ConSet paper's Table 4: a triangulated disc of N nodes, B of them on its boundary, has 2N - B - 2 triangles
 * (Euler's formula), so its 20,998 triangles on 11,000 nodes put 1,000 on the boundary: 250 intervals a side,
 * 10,000 random inside. */
static int make_plate(const fem_gmsh_t *gmsh, int *ierr)
{
    enum { SIDE_NODES = 251 }; /* with both corners */
    int p[4], l[4];
    const double xy[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 4; i++)
        p[i] = gmsh->ModelGeoAddPoint(xy[i][0], xy[i][1], 0, 1.0, -1, ierr);
    for (int i = 0; i < 4; i++)
        l[i] = gmsh->ModelGeoAddLine(p[i], p[(i + 1) % 4], -1, ierr);
    int loop = gmsh->ModelGeoAddCurveLoop(l, 4, -1, 0, ierr);
    int surf = gmsh->ModelGeoAddPlaneSurface(&loop, 1, -1, ierr);
    for (int i = 0; i < 4; i++)
        gmsh->ModelGeoMeshSetTransfiniteCurve(l[i], SIDE_NODES, "Progression", 1.0, ierr);
    enum { RANDOM_NODES = 11000 - 4 * (SIDE_NODES - 1) };
    int *pts = malloc(RANDOM_NODES * sizeof *pts);
    if (pts == NULL)
        return -1;
    uint64_t r = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < RANDOM_NODES; i++) {
        double c[2];
        for (int k = 0; k < 2; k++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            c[k] = 0.002 + 0.996 * (double)(r >> 11) / 9007199254740992.0; /* off the sides */
        }
        pts[i] = gmsh->ModelGeoAddPoint(c[0], c[1], 0, 1.0, -1, ierr);
    }
    gmsh->ModelGeoSynchronize(ierr);
    gmsh->ModelMeshEmbed(0, pts, RANDOM_NODES, 2, surf, ierr);
    free(pts);
    gmsh->OptionSetNumber("Mesh.MeshSizeExtendFromBoundary", 0, ierr);
    gmsh->OptionSetNumber("Mesh.MeshSizeFromPoints", 1, ierr);
    gmsh->OptionSetNumber("Mesh.Algorithm", 5, ierr); /* Delaunay */
    return 0;
}

/* c10k, c100k: a 2 x 1 plate with a crack from the middle of its left side to its centre (a notch 0.002
 * wide), the mesh refined towards the crack tip by a distance field: from `fine` at the tip to `coarse` a
 * third of the plate away. */
static int make_cracked_plate(const fem_gmsh_t *gmsh, double fine, double coarse, int *ierr)
{
    const double xy[7][2] = {{0, 0}, {2, 0}, {2, 1}, {0, 1}, {0, 0.501}, {1, 0.5}, {0, 0.499}};
    int p[7], l[7];
    for (int i = 0; i < 7; i++)
        p[i] = gmsh->ModelGeoAddPoint(xy[i][0], xy[i][1], 0, coarse, -1, ierr);
    for (int i = 0; i < 7; i++)
        l[i] = gmsh->ModelGeoAddLine(p[i], p[(i + 1) % 7], -1, ierr);
    int loop = gmsh->ModelGeoAddCurveLoop(l, 7, -1, 0, ierr);
    gmsh->ModelGeoAddPlaneSurface(&loop, 1, -1, ierr);
    gmsh->ModelGeoSynchronize(ierr);
    int dist = gmsh->ModelMeshFieldAdd("Distance", -1, ierr);
    double tip = p[5];
    gmsh->ModelMeshFieldSetNumbers(dist, "PointsList", &tip, 1, ierr);
    int thr = gmsh->ModelMeshFieldAdd("Threshold", -1, ierr);
    gmsh->ModelMeshFieldSetNumber(thr, "InField", dist, ierr);
    gmsh->ModelMeshFieldSetNumber(thr, "SizeMin", fine, ierr);
    gmsh->ModelMeshFieldSetNumber(thr, "SizeMax", coarse, ierr);
    gmsh->ModelMeshFieldSetNumber(thr, "DistMin", 0.02, ierr);
    gmsh->ModelMeshFieldSetNumber(thr, "DistMax", 0.7, ierr);
    gmsh->ModelMeshFieldSetAsBackgroundMesh(thr, ierr);
    gmsh->OptionSetNumber("Mesh.MeshSizeExtendFromBoundary", 0, ierr);
    gmsh->OptionSetNumber("Mesh.MeshSizeFromPoints", 0, ierr);
    gmsh->OptionSetNumber("Mesh.Algorithm", 5, ierr);
    return 0;
}

/* A surface extruded dz upwards in `layers` layers of bricks: the top surface and the volume it made. */
static int extrude(const fem_gmsh_t *gmsh, int surface, double dz, int layers, int *top, int *volume, int *ierr)
{
    int dt[2] = {2, surface};
    int *out = NULL;
    size_t nout = 0;
    gmsh->ModelGeoExtrude(dt, 2, 0, 0, dz, &out, &nout, &layers, 1, NULL, 0, 1, ierr);
    int rc = *ierr == 0 && nout >= 4 ? 0 : -1; /* (2, top), (3, volume), then the sides */
    if (rc == 0) {
        *top = out[1];
        *volume = out[3];
    }
    gmsh->Free(out);
    return rc;
}

/* g20k: a block of 40 x 25 x 20 bricks (4 x 2.5 x 2): hard rock, and a valley of soft soil in its top 8
 * layers across the middle 12 columns (two physical volumes; the graph does not tell them apart). */
static int make_valley(const fem_gmsh_t *gmsh, int *ierr)
{
    const double xs[4] = {0, 1.4, 2.6, 4};
    const int nx[3] = {14, 12, 14};
    int base[4][2];
    for (int i = 0; i < 4; i++) {
        base[i][0] = gmsh->ModelGeoAddPoint(xs[i], 0, 0, 1, -1, ierr);
        base[i][1] = gmsh->ModelGeoAddPoint(xs[i], 2.5, 0, 1, -1, ierr);
    }
    int across[4];
    for (int i = 0; i < 4; i++) {
        across[i] = gmsh->ModelGeoAddLine(base[i][0], base[i][1], -1, ierr);
        gmsh->ModelGeoMeshSetTransfiniteCurve(across[i], 26, "Progression", 1, ierr);
    }
    int strips[3];
    for (int i = 0; i < 3; i++) {
        int bottom = gmsh->ModelGeoAddLine(base[i][0], base[i + 1][0], -1, ierr);
        int top = gmsh->ModelGeoAddLine(base[i + 1][1], base[i][1], -1, ierr);
        gmsh->ModelGeoMeshSetTransfiniteCurve(bottom, nx[i] + 1, "Progression", 1, ierr);
        gmsh->ModelGeoMeshSetTransfiniteCurve(top, nx[i] + 1, "Progression", 1, ierr);
        int loop[4] = {bottom, across[i + 1], top, -across[i]};
        int cl = gmsh->ModelGeoAddCurveLoop(loop, 4, -1, 0, ierr);
        strips[i] = gmsh->ModelGeoAddPlaneSurface(&cl, 1, -1, ierr);
        gmsh->ModelGeoMeshSetTransfiniteSurface(strips[i], "Left", NULL, 0, ierr);
        gmsh->ModelGeoMeshSetRecombine(2, strips[i], 45, ierr);
    }
    /* 12 layers of rock under every strip, then 8 more: rock, soil in the middle strip, rock */
    int rock[6], nrock = 0, soil = -1, tops[3];
    for (int i = 0; i < 3; i++)
        if (extrude(gmsh, strips[i], 1.2, 12, &tops[i], &rock[nrock++], ierr) != 0)
            return -1;
    for (int i = 0; i < 3; i++) {
        int top;
        if (extrude(gmsh, tops[i], 0.8, 8, &top, i == 1 ? &soil : &rock[nrock++], ierr) != 0)
            return -1;
    }
    gmsh->ModelGeoSynchronize(ierr);
    gmsh->ModelAddPhysicalGroup(3, rock, (size_t)nrock, 1, ierr);
    gmsh->ModelSetPhysicalName(3, 1, "rock", ierr);
    gmsh->ModelAddPhysicalGroup(3, &soil, 1, 2, ierr);
    gmsh->ModelSetPhysicalName(3, 2, "soil", ierr);
    return 0;
}

static int generate(const fem_gmsh_t *gmsh, const char *name, const char *path, char *err, size_t cap)
{
    int ierr = 0, dim = 2;
    fem_gmsh_start(gmsh);
    gmsh->ModelAdd(name, &ierr);
    int rc;
    if (strcmp(name, "m11k") == 0) {
        rc = make_plate(gmsh, &ierr);
    } else if (strcmp(name, "c10k") == 0) {
        rc = make_cracked_plate(gmsh, 0.0033, 0.0278, &ierr);
    } else if (strcmp(name, "c100k") == 0) {
        rc = make_cracked_plate(gmsh, 0.00103, 0.00868, &ierr);
    } else {
        rc = make_valley(gmsh, &ierr);
        dim = 3;
    }
    if (rc != 0 && ierr == 0)
        ierr = 1;
    if (fem_gmsh_failed(gmsh, ierr, name, err, cap) == 0) {
        gmsh->ModelGeoSynchronize(&ierr);
        gmsh->ModelMeshGenerate(dim, &ierr);
    }
    if (ierr == 0) {
        gmsh->OptionSetNumber("Mesh.MshFileVersion", 4.1, &ierr);
        gmsh->OptionSetNumber("Mesh.SaveAll", 1, &ierr);
        gmsh->Write(path, &ierr);
    }
    rc = fem_gmsh_failed(gmsh, ierr, name, err, cap);
    gmsh->Finalize(&ierr);
    return rc;
}

/* The file checked by its kind before gmsh sees it: a .msh file's structure (gmsh says where few of its errors
 * are), a .geo file's words (it is a program: fem_geo_check.h). Other names are refused, since gmsh reads a file
 * it does not know by its name or first line as a .geo program, and runs system commands for some (.gz). */
static int check_file(const char *path, char *err, size_t cap)
{
    size_t n = strlen(path);
    bool msh = n >= 4 && strcmp(path + n - 4, ".msh") == 0, geo = n >= 4 && strcmp(path + n - 4, ".geo") == 0;
    if (!msh && !geo) {
        snprintf(err, cap, "%s: not a .msh or .geo file: iwarp fem reads gmsh's meshes (.msh) and geometries (.geo)",
                 path);
        return -1;
    }
    uint8_t *data;
    size_t len;
    if (file_read_max(path, (size_t)1 << 30, &data, &len, err, cap) != 0)
        return -1;
    int rc = msh ? fem_msh_check((const char *)data, len, path, err, cap)
                 : fem_geo_check((const char *)data, len, path, err, cap);
    free(data);
    return rc;
}

int fem_mesh_read(const char *path, fem_mesh_t *m, char *err, size_t cap)
{
    memset(m, 0, sizeof *m);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, cap, "%s: no such mesh file (and not a built-in mesh: m11k, c10k, c100k, g20k)", path);
        return -1;
    }
    fem_limits_t limits;
    if (check_file(path, err, cap) != 0 || fem_limits_get(&limits, err, cap) != 0)
        return -1;
    return fem_sandbox_read(path, &limits, m, err, cap);
}

static bool is_builtin(const char *name)
{
    bool builtin = false;
    for (unsigned i = 0; i < FEM_MESHES; i++)
        builtin |= strcmp(name, fem_mesh_names[i]) == 0;
    return builtin;
}

const char *fem_mesh_origin(const char *name, int made)
{
    if (is_builtin(name))
        return made ? "made by gmsh now" : "from the cache";
    size_t n = strlen(name);
    /* fem_mesh_read takes only these two kinds (check_file) */
    return n >= 4 && strcmp(name + n - 4, ".geo") == 0 ? "made by gmsh from the .geo" : "read from the .msh";
}

int fem_mesh_load(const char *name, const char *cache_dir, fem_mesh_t *m, int *made, char *err, size_t cap)
{
    *made = 0;
    if (!is_builtin(name))
        return fem_mesh_read(name, m, err, cap);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.v%d.msh", cache_dir, name, FEM_MESH_RECIPE);
    struct stat st;
    if (stat(path, &st) != 0) {
        if (plot_make_dirs(cache_dir) != 0) {
            snprintf(err, cap, "%s: cannot make the mesh cache", cache_dir);
            return -1;
        }
        /* Written under a temporary name and renamed, so that an interrupted run leaves no half mesh. */
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s/.%s.%ld.msh", cache_dir, name, (long)getpid());
        fem_gmsh_t gmsh;
        if (fem_gmsh_open(&gmsh, err, cap) != 0)
            return -1;
        int rc = generate(&gmsh, name, tmp, err, cap);
        fem_gmsh_close(&gmsh);
        if (rc != 0 || rename(tmp, path) != 0) {
            remove(tmp);
            if (err[0] == '\0')
                snprintf(err, cap, "%s: cannot write the mesh", path);
            return -1;
        }
        *made = 1;
    }
    return fem_mesh_read(path, m, err, cap);
}

/* malloc and memcpy, or NULL when there is nothing to copy (a mesh without coordinates has none) */
static void *dup_array(const void *from, size_t bytes, bool *failed)
{
    if (from == NULL || bytes == 0)
        return NULL;
    void *to = malloc(bytes);
    if (to == NULL)
        *failed = true;
    else
        memcpy(to, from, bytes);
    return to;
}

int fem_mesh_copy(const fem_mesh_t *from, fem_mesh_t *to)
{
    bool failed = false;
    *to = *from;
    to->elem_ptr = dup_array(from->elem_ptr, (from->nelems + 1) * sizeof *from->elem_ptr, &failed);
    size_t nodes = from->elem_ptr != NULL ? from->elem_ptr[from->nelems] : 0;
    to->elem_nodes = dup_array(from->elem_nodes, nodes * sizeof *from->elem_nodes, &failed);
    to->coords = dup_array(from->coords, 3 * from->nnodes * sizeof *from->coords, &failed);
    if (failed)
        fem_mesh_free(to);
    return failed ? -1 : 0;
}

void fem_mesh_free(fem_mesh_t *m)
{
    free(m->elem_ptr);
    free(m->elem_nodes);
    free(m->coords);
    memset(m, 0, sizeof *m);
}
