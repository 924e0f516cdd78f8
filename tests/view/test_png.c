/* The viewer's PNG (libpng): what is written reads back the same, a PNG made by another encoder (zlib and the
 * chunk layout by hand here) reads as it should, flat frames compress, damage is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "view_png.h"

static void round_trip(unsigned w, unsigned h, const uint8_t *rgb, size_t *encoded)
{
    view_bytes_t b = {0};
    assert_int_equal(view_png_encode(&b, rgb, w, h, (size_t)w * 3), 0);
    uint8_t *back;
    unsigned bw, bh;
    char err[200];
    assert_int_equal(view_png_decode(b.data, b.len, &back, &bw, &bh, err, sizeof err), 0);
    assert_int_equal(bw, w);
    assert_int_equal(bh, h);
    assert_memory_equal(back, rgb, (size_t)w * h * 3);
    free(back);
    if (encoded != NULL)
        *encoded = b.len;
    view_bytes_free(&b);
}

static void test_noise_reads_back_the_same(void **state)
{
    (void)state;
    unsigned w = 123, h = 77;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    assert_non_null(rgb);
    unsigned seed = 1;
    for (size_t i = 0; i < (size_t)w * h * 3; i++) {
        seed = seed * 1103515245u + 12345u;
        rgb[i] = (uint8_t)(seed >> 16);
    }
    round_trip(w, h, rgb, NULL);
    free(rgb);
}

static void test_flat_frames_compress(void **state)
{
    (void)state;
    unsigned w = 640, h = 400;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    assert_non_null(rgb);
    /* An interface-like picture: a background, boxes, a few lines. */
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint8_t *p = rgb + ((size_t)y * w + x) * 3;
            bool box = (x / 80) % 2 == 0 && (y / 50) % 2 == 0;
            p[0] = box ? 255 : 243;
            p[1] = box ? 255 : 244;
            p[2] = (x % 97 == 0) ? 0 : box ? 255 : 246;
        }
    size_t n;
    round_trip(w, h, rgb, &n);
    assert_true(n < (size_t)w * h * 3 / 20);
    free(rgb);
}

static void test_tiny_and_repetitive_images(void **state)
{
    (void)state;
    uint8_t one[3] = {1, 2, 3};
    round_trip(1, 1, one, NULL);
    uint8_t row[3 * 300];
    for (size_t i = 0; i < sizeof row; i++)
        row[i] = (uint8_t)(i % 7 == 0 ? 9 : 4); /* matches of every length and distance 1..7 */
    round_trip(300, 1, row, NULL);
    round_trip(1, 300, row, NULL);
}

/* The first chunk of a 1x1 PNG: its IHDR CRC is fixed by the standard, so the CRC-32 must be the standard
 * one (a decoder elsewhere checks it). */
static void test_header_checksum_is_standard(void **state)
{
    (void)state;
    uint8_t px[3] = {0, 0, 0};
    view_bytes_t b = {0};
    assert_int_equal(view_png_encode(&b, px, 1, 1, 3), 0);
    static const uint8_t start[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I',  'H',  'D',  'R', 0,
                                    0,    0,   1,   0,   0,    0,    1,    8,    2, 0, 0, 0,  0x90, 0x77, 0x53, 0xde};
    assert_true(b.len > sizeof start);
    assert_memory_equal(b.data, start, sizeof start);
    view_bytes_free(&b);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends a chunk: length, type, data, the CRC-32 of type and data (zlib's). */
static void chunk(view_bytes_t *b, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t head[8];
    put32(head, n);
    memcpy(head + 4, type, 4);
    view_bytes_put(b, head, 8);
    view_bytes_put(b, data, n);
    uLong crc = crc32(crc32(0, (const Bytef *)type, 4), data, n);
    uint8_t tail[4];
    put32(tail, (uint32_t)crc);
    view_bytes_put(b, tail, 4);
}

/* A 3x2 picture in a 2-bit palette, rows filtered with Sub and Paeth, compressed by zlib at level 9: nothing of
 * it comes from libpng's encoder, and the reader must give its RGB exactly. */
static void test_a_png_from_another_encoder_reads_right(void **state)
{
    (void)state;
    static const uint8_t palette[] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30};
    static const uint8_t index[2][3] = {{0, 1, 2}, {3, 3, 1}};
    /* 2 bits a pixel: a row is one byte after its filter byte. Sub adds the byte to the left (none here: one
     * byte a row), Paeth with nothing left or up-left predicts from above. */
    uint8_t rows[2][2];
    uint8_t packed0 = (uint8_t)(index[0][0] << 6 | index[0][1] << 4 | index[0][2] << 2);
    uint8_t packed1 = (uint8_t)(index[1][0] << 6 | index[1][1] << 4 | index[1][2] << 2);
    rows[0][0] = 1; /* Sub */
    rows[0][1] = packed0;
    rows[1][0] = 4; /* Paeth: the predictor is the byte above */
    rows[1][1] = (uint8_t)(packed1 - packed0);
    uint8_t z[64];
    uLongf zlen = sizeof z;
    assert_int_equal(compress2(z, &zlen, &rows[0][0], sizeof rows, 9), Z_OK);
    view_bytes_t b = {0};
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    view_bytes_put(&b, sig, 8);
    uint8_t ihdr[13] = {0};
    put32(ihdr, 3);
    put32(ihdr + 4, 2);
    ihdr[8] = 2; /* bit depth */
    ihdr[9] = 3; /* palette */
    chunk(&b, "IHDR", ihdr, 13);
    chunk(&b, "PLTE", palette, sizeof palette);
    chunk(&b, "IDAT", z, (uint32_t)zlen);
    chunk(&b, "IEND", NULL, 0);
    uint8_t *rgb;
    unsigned w, h;
    char err[200];
    if (view_png_decode(b.data, b.len, &rgb, &w, &h, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(w, 3);
    assert_int_equal(h, 2);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 3; x++)
            assert_memory_equal(rgb + (y * 3 + x) * 3, palette + index[y][x] * 3, 3);
    free(rgb);
    view_bytes_free(&b);
}

static void test_damage_is_refused(void **state)
{
    (void)state;
    uint8_t rgb[3 * 16 * 16];
    for (size_t i = 0; i < sizeof rgb; i++)
        rgb[i] = (uint8_t)(i * 31);
    view_bytes_t b = {0};
    assert_int_equal(view_png_encode(&b, rgb, 16, 16, 48), 0);
    char err[200];
    uint8_t *out;
    unsigned w, h;
    /* Any byte of a chunk that makes the picture (IHDR, IDAT) damaged is refused; an ancillary chunk (libpng
     * writes sRGB) or the IEND after the last pixel may be damaged without changing one, and libpng lets it be. */
    unsigned tried = 0;
    for (size_t at = 8; at + 12 <= b.len;) {
        size_t n =
            (size_t)b.data[at] << 24 | (size_t)b.data[at + 1] << 16 | (size_t)b.data[at + 2] << 8 | b.data[at + 3];
        bool critical = memcmp(b.data + at + 4, "IHDR", 4) == 0 || memcmp(b.data + at + 4, "IDAT", 4) == 0;
        for (size_t i = at; critical && i < at + 12 + n; i++, tried++) {
            b.data[i] ^= 0x20;
            if (view_png_decode(b.data, b.len, &out, &w, &h, err, sizeof err) == 0)
                fail_msg("byte %zu damaged, still decoded", i);
            b.data[i] ^= 0x20;
        }
        at += 12 + n;
    }
    assert_true(tried > 50);
    assert_int_not_equal(view_png_decode(b.data, b.len / 2, &out, &w, &h, err, sizeof err), 0);
    assert_int_not_equal(view_png_decode((const uint8_t *)"GIF89a", 6, &out, &w, &h, err, sizeof err), 0);
    view_bytes_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noise_reads_back_the_same),
        cmocka_unit_test(test_flat_frames_compress),
        cmocka_unit_test(test_tiny_and_repetitive_images),
        cmocka_unit_test(test_header_checksum_is_standard),
        cmocka_unit_test(test_damage_is_refused),
        cmocka_unit_test(test_a_png_from_another_encoder_reads_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
