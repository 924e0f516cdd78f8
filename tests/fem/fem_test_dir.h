/* A folder of a test's own for meshes and partitions (the fem suite's tests make theirs afresh). */
#ifndef TESTS_FEM_TEST_DIR_H
#define TESTS_FEM_TEST_DIR_H

#include <stddef.h>

/* Makes /tmp/PREFIX_XXXXXX into dir (cap bytes); 0, or -1. */
int fem_test_dir_make(char *dir, size_t cap, const char *prefix);
/* Removes it and all in it; 0, or -1. */
int fem_test_dir_remove(const char *dir);

#endif
