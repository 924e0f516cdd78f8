/*
 * How far two pictures of the same size are apart (tests/web, docs/web.md "Same picture"): both decoded by libpng
 * (tools/view/view_png.c) to 8-bit RGB, then over a rectangle of them (the whole picture by default) the mean absolute
 * difference per channel and the share of pixels with a channel more than 48 apart, as the viewer's golden frames
 * measure them (tests/view/test_golden.c). Prints one line; with --max-mean and --max-far, fails (exit 1) above
 * them; --diff FILE writes where they differ (grey: the same, red: more than 48 apart, orange: less).
 *
 * Usage: png_diff A.png B.png [--rect X,Y,W,H] [--max-mean M] [--max-far PERCENT] [--diff FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_png.h"

enum { FAR = 48 };

static int usage(void)
{
    fprintf(stderr, "usage: png_diff A.png B.png [--rect X,Y,W,H] [--max-mean M] [--max-far PERCENT] [--diff FILE]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    long rx = 0, ry = 0, rw = -1, rh = -1;
    double max_mean = -1, max_far = -1;
    const char *diff_path = NULL;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--rect") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%ld,%ld,%ld,%ld", &rx, &ry, &rw, &rh) != 4 || rx < 0 || ry < 0 || rw <= 0 || rh <= 0)
                return usage();
        } else if (strcmp(argv[i], "--max-mean") == 0 && i + 1 < argc) {
            max_mean = atof(argv[++i]);
        } else if (strcmp(argv[i], "--max-far") == 0 && i + 1 < argc) {
            max_far = atof(argv[++i]);
        } else if (strcmp(argv[i], "--diff") == 0 && i + 1 < argc) {
            diff_path = argv[++i];
        } else {
            return usage();
        }
    }
    uint8_t *a = NULL, *b = NULL;
    unsigned aw, ah, bw, bh;
    char err[512];
    if (view_png_read(argv[1], &a, &aw, &ah, err, sizeof err) != 0 ||
        view_png_read(argv[2], &b, &bw, &bh, err, sizeof err) != 0) {
        fprintf(stderr, "png_diff: %s\n", err);
        free(a);
        return 2;
    }
    int rc = 0;
    if (aw != bw || ah != bh) {
        fprintf(stderr, "png_diff: %s is %ux%u, %s %ux%u\n", argv[1], aw, ah, argv[2], bw, bh);
        rc = 2;
        goto out;
    }
    if (rw < 0)
        rw = aw, rh = ah;
    if (rx + rw > (long)aw || ry + rh > (long)ah) {
        fprintf(stderr, "png_diff: the rectangle %ld,%ld,%ld,%ld is not inside %ux%u\n", rx, ry, rw, rh, aw, ah);
        rc = 2;
        goto out;
    }
    unsigned long long sum = 0, far = 0;
    for (long y = ry; y < ry + rh; y++)
        for (long x = rx; x < rx + rw; x++) {
            size_t i = ((size_t)y * aw + (size_t)x) * 3;
            int worst = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs((int)a[i + c] - (int)b[i + c]);
                sum += (unsigned)d;
                worst = d > worst ? d : worst;
            }
            far += worst > FAR;
        }
    double pixels = (double)rw * (double)rh, mean = (double)sum / (pixels * 3), share = 100.0 * (double)far / pixels;
    printf("mean %.3f far %.3f%% (%ldx%ld at %ld,%ld)\n", mean, share, rw, rh, rx, ry);
    if ((max_mean >= 0 && mean > max_mean) || (max_far >= 0 && share > max_far)) {
        printf("  over the threshold: mean at most %g, far at most %g%%\n", max_mean, max_far);
        rc = 1;
    }
    if (diff_path != NULL) {
        /* The first picture faded, where they differ painted over it. */
        for (size_t p = 0; p < (size_t)aw * ah; p++) {
            int worst = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs((int)a[p * 3 + c] - (int)b[p * 3 + c]);
                worst = d > worst ? d : worst;
            }
            uint8_t grey = (uint8_t)(200 + (a[p * 3] + a[p * 3 + 1] + a[p * 3 + 2]) / 3 * 55 / 255);
            uint8_t *o = &a[p * 3];
            if (worst > FAR)
                o[0] = 220, o[1] = 20, o[2] = 20;
            else if (worst > 8)
                o[0] = 250, o[1] = 160, o[2] = 40;
            else
                o[0] = o[1] = o[2] = grey;
        }
        if (view_png_write(diff_path, a, aw, ah, (size_t)aw * 3, err, sizeof err) != 0) {
            fprintf(stderr, "png_diff: %s\n", err);
            rc = 2;
        }
    }
out:
    free(a);
    free(b);
    return rc;
}
