#include "golden.h"

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iwarp_config.h"

/* Rewrites the file with `name value` in place of its old line (at the end when it had none). */
static void record(const char *path, const char *kept, const char *name, uint64_t value)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(kept, f);
    fprintf(f, "%s %llu\n", name, (unsigned long long)value);
    fclose(f);
}

void golden_check(const char *rel_path, const char *name, uint64_t value, const char *what, const char *suite)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", IWARP_SOURCE_ROOT, rel_path);
    bool rebase = getenv("IWARP_REBASELINE") != NULL;
    FILE *f = fopen(path, "r");
    char line[256];
    char *kept = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&kept, &len);
    assert_non_null(out);
    bool found = false;
    uint64_t want = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        char key[200];
        unsigned long long v;
        if (sscanf(line, "%199s %llu", key, &v) == 2 && strcmp(key, name) == 0) {
            found = true;
            want = v;
            if (rebase)
                continue;
        }
        fputs(line, out);
    }
    if (f != NULL)
        fclose(f);
    fclose(out);
    if (rebase)
        record(path, kept, name, value);
    free(kept);
    if (rebase)
        return;
    if (!found)
        fail_msg("no golden %s for '%s' in %s (IWARP_REBASELINE=1 records it)", what, name, rel_path);
    if (want != value)
        fail_msg("'%s': %llu %s, the golden value is %llu (if the change is intended: IWARP_REBASELINE=1 meson test "
                 "-C build --suite %s, then review the diff of %s)",
                 name, (unsigned long long)value, what, (unsigned long long)want, suite, rel_path);
}
