/*
 * PNG for the viewer's screenshots and golden frames, through libpng's simplified API (libpng-dev): 8-bit RGB
 * written with libpng's defaults, and any PNG libpng reads (palette, grey, alpha, 16-bit, interlaced) turned
 * into 8-bit RGB on a white background.
 */
#ifndef VIEW_VIEW_PNG_H
#define VIEW_VIEW_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* Encodes w x h pixels of 8-bit RGB (rows `stride` bytes apart). Returns 0, or -1 when out of memory. */
int view_png_encode(view_bytes_t *out, const uint8_t *rgb, unsigned w, unsigned h, size_t stride);
int view_png_write(const char *path, const uint8_t *rgb, unsigned w, unsigned h, size_t stride, char *err,
                   size_t errlen);

/* Decodes to tightly packed 8-bit RGB (*rgb is malloc'ed). Returns 0, or -1 with a message. */
int view_png_decode(const uint8_t *data, size_t len, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen);
int view_png_read(const char *path, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen);

#endif
