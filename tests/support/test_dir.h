/* A folder of a test's own under /tmp, made afresh and removed with all in it. */
#ifndef TESTS_SUPPORT_TEST_DIR_H
#define TESTS_SUPPORT_TEST_DIR_H

#include <stddef.h>

/* Makes /tmp/PREFIX-XXXXXX into dir (cap bytes); 0, or -1. */
int test_dir_make(char *dir, size_t cap, const char *prefix);
/* Removes it and all in it; 0, or -1. */
int test_dir_remove(const char *dir);

#endif
