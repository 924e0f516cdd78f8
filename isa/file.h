/* A whole file into memory, for the binary formats every layer reads (images, cell data). */
#ifndef ISA_FILE_H
#define ISA_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Reads all of path into *data (to be freed; NULL when the file is empty) and its size into *len.
 * Returns 0, or -1 with "path: why" in err. */
int file_read_all(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);

#endif
