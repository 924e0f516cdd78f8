/* Writes seed inputs for the harnesses of binary formats that change with the emulator (snapshots,
 * recordings, cell data, machine files), made by this very build, so each fuzzing run starts from files the
 * product accepts today: `fuzz_seeds DIR` fills DIR/snapshot, DIR/trace, DIR/celldata and DIR/machine.
 * Not a harness: scripts/fuzz.sh runs it before the fuzzers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "celldata.h"
#include "emu.h"
#include "fuzz_array.h"
#include "trace.h"

static int make_dir(const char *dir, const char *sub, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, sub);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_seeds: cannot make %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Snapshots at the start, in the middle of the loop and after the halt. */
static int snapshots(const char *dir)
{
    emu_array_t *a = fuzz_array_create();
    if (a == NULL)
        return -1;
    static const uint64_t clocks[] = {0, 60, 1000};
    int rc = 0;
    for (unsigned i = 0; rc == 0 && i < sizeof clocks / sizeof clocks[0]; i++) {
        emu_array_run(a, clocks[i]);
        emu_snapshot_t *s = emu_snapshot_take(a);
        char path[4200], err[256];
        snprintf(path, sizeof path, "%s/clock%u.snap", dir, (unsigned)clocks[i]);
        rc = s != NULL ? emu_snapshot_save(s, path, err, sizeof err) : -1;
        if (rc != 0)
            fprintf(stderr, "fuzz_seeds: %s: %s\n", path, s != NULL ? err : "out of memory");
        emu_snapshot_free(s);
    }
    emu_array_free(a);
    return rc;
}

static int recording(const char *dir)
{
    emu_array_t *a = fuzz_array_create();
    if (a == NULL)
        return -1;
    char path[4200], err[256];
    snprintf(path, sizeof path, "%s/loop.iwt", dir);
    view_recorder_t *r = view_record_attach(a, path, "fuzz.s", err, sizeof err);
    int rc = -1;
    if (r != NULL)
        rc = view_record_finish(r, emu_array_run(a, 1000), err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "fuzz_seeds: %s: %s\n", path, err);
    emu_array_free(a);
    return rc;
}

static int cell_data(const char *dir)
{
    celldata_t d;
    if (celldata_init(&d, 2, 2) != 0)
        return -1;
    static const uint32_t words[] = {1, 2, 3, 0xdeadbeef};
    int rc = 0;
    for (unsigned i = 0; i < 4 && rc == 0; i++)
        rc = celldata_append(&d, i % 2, i / 2, words, i + 1);
    char path[4200], err[256];
    snprintf(path, sizeof path, "%s/cells2x2.cdat", dir);
    if (rc == 0 && (rc = celldata_write(&d, path, err, sizeof err)) != 0)
        fprintf(stderr, "fuzz_seeds: %s: %s\n", path, err);
    celldata_free(&d);
    return rc;
}

static int machine(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/defaults.machine", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    emu_machine_t m;
    emu_machine_defaults(&m);
    emu_machine_print(&m, f);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seeds DIR\n");
        return 2;
    }
    char sub[4200];
    int rc = 0;
    rc |= make_dir(argv[1], "snapshot", sub, sizeof sub) || snapshots(sub);
    rc |= make_dir(argv[1], "trace", sub, sizeof sub) || recording(sub);
    rc |= make_dir(argv[1], "celldata", sub, sizeof sub) || cell_data(sub);
    rc |= make_dir(argv[1], "machine", sub, sizeof sub) || machine(sub);
    return rc != 0;
}
