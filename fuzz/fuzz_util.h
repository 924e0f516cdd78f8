/* What several harnesses share: parsers that only take a path get the input through a private temporary file,
 * so the harness exercises the same code a user's file does (open, size, read, close). */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes data to a new file and puts its name in path (at least 32 bytes); 0, or -1 (then skip the input). */
static inline int fuzz_temp_file(const uint8_t *data, size_t size, char *path, size_t pathlen)
{
    if (pathlen < 32)
        return -1;
    strcpy(path, "/tmp/iwarp-fuzz-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            unlink(path);
            return -1;
        }
        done += (size_t)n;
    }
    close(fd);
    return 0;
}

/* The input as a NUL-terminated string (a parser of text must not read past it); NULL when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s != NULL) {
        memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

#endif
