/* Files as every layer reads and writes them: only regular files are read (a directory, a FIFO or a device
 * named where a file is expected is an error naming it, never a hang or an empty input), and outputs appear
 * whole or not at all (written beside their name, renamed into place once complete). */
#ifndef ISA_FILE_H
#define ISA_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

/* Opens a regular file for reading ("rb"). Returns NULL with *why set to a static text (strerror, or "is a
 * directory", or "is not a regular file (a FIFO, device or socket)"). */
FILE *file_open_read(const char *path, const char **why);

/* Reads all of path into *data (to be freed; NULL when the file is empty), followed by a NUL byte that *len, its
 * size, does not count (so text can be searched as a string).
 * Returns 0, or -1 with "path: why" in err. */
int file_read_all(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);
/* Largest inputs of each kind, refused from their size before anything is read (docs say which is which). */
enum {
    FILE_MAX_IMAGE = 256u << 20,     /* an assembled image (.img) */
    FILE_MAX_CELLDATA = 256u << 20,  /* a cell data file (.cdat), and what it inflates to */
    FILE_MAX_TEXT = 64u << 20,       /* a connection set, sweep file or other text a person writes */
    FILE_MAX_MACHINE = 1u << 20,     /* a machine description */
};

/* The same, refusing a file of more than max bytes ("path: larger than max bytes") from its size, before reading
 * any of it (a file that grows while read is cut off at max and refused too). */
int file_read_max(const char *path, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen);
/* The same from a stream already open (its name for messages); the one loop every whole-file read goes
 * through. */
int file_read_stream(FILE *f, const char *name, size_t max, uint8_t **data, size_t *len, char *err, size_t errlen);

/* An output written to a temporary file beside `path` and renamed over it by file_out_commit, so an error, a
 * full disk or an interruption never leaves a truncated file under the real name. */
typedef struct file_out {
    FILE *f;
    char *path, *tmp;
} file_out_t;

/* Returns 0 with o->f ready, or -1 with "path: why" in err. */
int file_out_open(file_out_t *o, const char *path, const char *mode, char *err, size_t errlen);
/* Checks every write (flush, errors, close) and renames into place. Returns 0, or -1 with "path: why" in err;
 * either way the temporary file is gone and o is released. */
int file_out_commit(file_out_t *o, char *err, size_t errlen);
/* Drops the output (the real file is left as it was). */
void file_out_abort(file_out_t *o);

/* Refuses an output that is one of a command's inputs: the same file (device and inode) under any name, a link or
 * a path through another folder included. Returns 0 when `out` is none of them (or does not exist yet), or -1 with
 * "out: is also the input IN: it would be overwritten" in err. Commands call it before they run anything. */
int file_out_not_input(const char *out, const char *const *inputs, size_t n, char *err, size_t errlen);
/* Whether two outputs name one file, whether or not it exists yet: the same folder (after links) and name, or the
 * same file under two names. The second would be written over the first. */
bool file_outs_same(const char *a, const char *b);

#endif
