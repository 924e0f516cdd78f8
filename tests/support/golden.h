/* Golden numbers: "name value" lines in a file of the source tree, checked by the tests, or recorded anew
 * when IWARP_REBASELINE=1 (then review the file's diff). */
#ifndef TESTS_SUPPORT_GOLDEN_H
#define TESTS_SUPPORT_GOLDEN_H

#include <stdint.h>

/* Fails the test unless `name` has `value` in rel_path (relative to the source root), or records it. `what`
 * names the value in messages ("cycles"), `suite` the meson suite that rebaselines it. */
void golden_check(const char *rel_path, const char *name, uint64_t value, const char *what, const char *suite);

#endif
