/* The PNG writer and reader of the viewer: what is written reads back the same, the checksums are the
 * standard ones, flat frames compress, damage is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "png.h"

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
    for (size_t i = 8; i < b.len; i += 3) {
        b.data[i] ^= 0x20;
        if (view_png_decode(b.data, b.len, &out, &w, &h, err, sizeof err) == 0)
            fail_msg("byte %zu damaged, still decoded", i);
        b.data[i] ^= 0x20;
    }
    assert_int_not_equal(view_png_decode(b.data, b.len / 2, &out, &w, &h, err, sizeof err), 0);
    assert_int_not_equal(view_png_decode((const uint8_t *)"GIF89a", 6, &out, &w, &h, err, sizeof err), 0);
    view_bytes_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noise_reads_back_the_same),  cmocka_unit_test(test_flat_frames_compress),
        cmocka_unit_test(test_tiny_and_repetitive_images), cmocka_unit_test(test_header_checksum_is_standard),
        cmocka_unit_test(test_damage_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
