/* Helpers of the viewer's tests: arrays built from run descriptions as `iwarp view` builds them. */
#ifndef TESTS_VIEW_TEST_H
#define TESTS_VIEW_TEST_H

#include <stdint.h>

#include "emu.h"
#include "run_desc.h"

typedef struct view_test_run {
    run_desc_t desc;
    emu_array_t *a;
} view_test_run_t;

/* Builds the array of a run description (path relative to the source root); fails the test on error. */
void view_test_build(view_test_run_t *r, const char *rel_path);
void view_test_free(view_test_run_t *r);
/* A path under the source root. */
const char *view_test_path(char *buf, size_t cap, const char *rel);

#endif
