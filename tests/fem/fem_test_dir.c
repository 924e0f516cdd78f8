/* The fem tests' folders (fem_test_dir.h). */
#include "fem_test_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int fem_test_dir_make(char *dir, size_t cap, const char *prefix)
{
    snprintf(dir, cap, "/tmp/%s_XXXXXX", prefix);
    return mkdtemp(dir) != NULL ? 0 : -1;
}

int fem_test_dir_remove(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}
