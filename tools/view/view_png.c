/* PNG through libpng's simplified API: a library that every image tool trusts, instead of a codec of our own. */
#include "view_png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

int view_png_encode(view_bytes_t *out, const uint8_t *rgb, unsigned w, unsigned h, size_t stride)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGB;
    png_alloc_size_t n = 0;
    /* The first call sizes the output, the second writes it. */
    if (!png_image_write_to_memory(&img, NULL, &n, 0, rgb, (png_int_32)stride, NULL))
        return -1;
    size_t start = out->len;
    uint8_t *at = view_bytes_extend(out, n);
    if (at == NULL || !png_image_write_to_memory(&img, at, &n, 0, rgb, (png_int_32)stride, NULL)) {
        png_image_free(&img);
        return -1;
    }
    out->len = start + n; /* what the second call wrote */
    return 0;
}

int view_png_write(const char *path, const uint8_t *rgb, unsigned w, unsigned h, size_t stride, char *err,
                   size_t errlen)
{
    view_bytes_t b = {0};
    if (view_png_encode(&b, rgb, w, h, stride) != 0) {
        view_bytes_free(&b);
        return err_set(err, errlen, "%s: out of memory encoding the image", path);
    }
    int rc = view_write_file(path, b.data, b.len, err, errlen);
    view_bytes_free(&b);
    return rc;
}

int view_png_decode(const uint8_t *data, size_t len, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen)
{
    *rgb = NULL;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, data, len))
        return err_set(err, errlen, "not a PNG libpng reads: %s", img.message);
    img.format = PNG_FORMAT_RGB;
    /* A picture larger than any screen is damage, not a reason to allocate it. */
    if (img.width == 0 || img.height == 0 || img.width > 16384 || img.height > 16384) {
        png_image_free(&img);
        return err_set(err, errlen, "a %ux%u PNG is not a frame", img.width, img.height);
    }
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    png_color white = {255, 255, 255};
    if (buf == NULL || !png_image_finish_read(&img, &white, buf, 0, NULL)) {
        free(buf);
        int rc = err_set(err, errlen, "damaged PNG: %s", buf == NULL ? "out of memory" : img.message);
        png_image_free(&img);
        return rc;
    }
    *rgb = buf;
    *w = img.width;
    *h = img.height;
    return 0;
}

int view_png_read(const char *path, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen)
{
    view_bytes_t b = {0};
    char inner[300];
    int rc = view_read_file(path, &b, 256u << 20, false, err, errlen);
    if (rc == 0 && (rc = view_png_decode(b.data, b.len, rgb, w, h, inner, sizeof inner)) != 0)
        err_set(err, errlen, "%s: %s", path, inner);
    view_bytes_free(&b);
    return rc;
}
