#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

int file_read_all(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return err_set(err, errlen, "%s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                fclose(f);
                return err_set(err, errlen, "%s: out of memory", path);
            }
            buf = grown;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        free(buf);
        return err_set(err, errlen, "%s: read error", path);
    }
    *data = buf;
    *len = n;
    return 0;
}
