/* Errors into a caller's buffer: every layer reports a failure as -1 with a message in (err, errlen). */
#ifndef ISA_ERR_H
#define ISA_ERR_H

#include <stddef.h>

/* Writes the message into err (when there is one) and returns -1, so `return err_set(...)` reads well. */
int err_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
