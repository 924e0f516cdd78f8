/* The tests' folders (test_dir.h). */
#include "test_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int test_dir_make(char *dir, size_t cap, const char *prefix)
{
    if ((size_t)snprintf(dir, cap, "/tmp/%s-XXXXXX", prefix) >= cap)
        return -1;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

int test_dir_remove(const char *dir)
{
    char cmd[4200];
    if ((size_t)snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir) >= sizeof cmd)
        return -1;
    return system(cmd) == 0 ? 0 : -1;
}
