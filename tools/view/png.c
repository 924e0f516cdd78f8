/* PNG writing and reading with our own deflate and inflate (see png.h for why). */
#include "png.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- checksums --- */

static void crc_table(uint32_t t[256])
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1u ? 0xedb88320u ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
}

static uint32_t crc32_update(const uint32_t t[256], uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = t[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

static uint32_t adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    while (n > 0) {
        /* 5552 bytes is the most that cannot overflow b before the modulo (zlib's NMAX). */
        size_t k = n < 5552 ? n : 5552;
        n -= k;
        while (k-- > 0) {
            a += *p++;
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
    }
    return b << 16 | a;
}

static void put_be32(view_bytes_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    view_bytes_put(b, x, 4);
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* --- deflate: LZ77 over a 32 KB window, fixed Huffman codes --- */

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                       33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

enum { WINDOW = 32768, HASH_BITS = 15, MAX_CHAIN = 32, MIN_MATCH = 3, MAX_MATCH = 258 };

typedef struct bitw {
    view_bytes_t *out;
    uint32_t acc;
    unsigned n;
} bitw_t;

static void putbits(bitw_t *b, uint32_t v, unsigned n)
{
    b->acc |= v << b->n;
    b->n += n;
    while (b->n >= 8) {
        uint8_t byte = (uint8_t)b->acc;
        view_bytes_put(b->out, &byte, 1);
        b->acc >>= 8;
        b->n -= 8;
    }
}

/* Huffman codes go most significant bit first into a stream that is filled from the least significant. */
static void putcode(bitw_t *b, uint32_t code, unsigned len)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < len; i++)
        r |= (code >> i & 1u) << (len - 1 - i);
    putbits(b, r, len);
}

static void put_literal(bitw_t *b, unsigned v)
{
    if (v < 144)
        putcode(b, 0x30 + v, 8);
    else if (v < 256)
        putcode(b, 0x190 + v - 144, 9);
    else if (v < 280)
        putcode(b, v - 256, 7);
    else
        putcode(b, 0xc0 + v - 280, 8);
}

static void put_match(bitw_t *b, unsigned len, unsigned dist)
{
    unsigned i = 28;
    while (len_base[i] > len)
        i--;
    put_literal(b, 257 + i);
    putbits(b, len - len_base[i], len_extra[i]);
    unsigned d = 29;
    while (dist_base[d] > dist)
        d--;
    putcode(b, d, 5);
    putbits(b, dist - dist_base[d], dist_extra[d]);
}

static unsigned hash3(const uint8_t *p)
{
    return ((unsigned)p[0] << 10 ^ (unsigned)p[1] << 5 ^ p[2]) & ((1u << HASH_BITS) - 1);
}

/* A zlib stream of one fixed-Huffman block. */
static int deflate_fixed(view_bytes_t *out, const uint8_t *data, size_t n)
{
    int32_t *head = malloc(sizeof *head << HASH_BITS), *prev = malloc(sizeof *prev * WINDOW);
    if (head == NULL || prev == NULL) {
        free(head);
        free(prev);
        return -1;
    }
    memset(head, 0xff, sizeof *head << HASH_BITS);
    const uint8_t zhead[2] = {0x78, 0x01};
    view_bytes_put(out, zhead, 2);
    bitw_t b = {out, 0, 0};
    putbits(&b, 1, 1); /* the last block */
    putbits(&b, 1, 2); /* fixed codes */
    size_t pos = 0;
    while (pos < n) {
        unsigned best = 0, best_dist = 0;
        if (pos + MIN_MATCH <= n) {
            unsigned h = hash3(data + pos);
            int32_t cand = head[h];
            size_t limit = n - pos < MAX_MATCH ? n - pos : MAX_MATCH;
            for (unsigned chain = 0; cand >= 0 && pos - (size_t)cand <= WINDOW && chain < MAX_CHAIN; chain++) {
                const uint8_t *p = data + cand, *q = data + pos;
                unsigned len = 0;
                while (len < limit && p[len] == q[len])
                    len++;
                if (len > best) {
                    best = len;
                    best_dist = (unsigned)(pos - (size_t)cand);
                    if (len == limit)
                        break;
                }
                int32_t next = prev[cand & (WINDOW - 1)];
                if (next >= cand)
                    break;
                cand = next;
            }
        }
        size_t step = best >= MIN_MATCH ? best : 1;
        if (best >= MIN_MATCH)
            put_match(&b, best, best_dist);
        else
            put_literal(&b, data[pos]);
        for (size_t k = 0; k < step; k++, pos++) {
            if (pos + MIN_MATCH <= n) {
                unsigned h = hash3(data + pos);
                prev[pos & (WINDOW - 1)] = head[h];
                head[h] = (int32_t)pos;
            }
        }
    }
    put_literal(&b, 256);
    if (b.n > 0)
        putbits(&b, 0, 8 - b.n);
    put_be32(out, adler32(data, n));
    free(head);
    free(prev);
    return out->failed ? -1 : 0;
}

static void chunk(view_bytes_t *out, const uint32_t crc_t[256], const char type[4], const uint8_t *data, size_t n)
{
    put_be32(out, (uint32_t)n);
    size_t at = out->len;
    view_bytes_put(out, type, 4);
    view_bytes_put(out, data, n);
    uint32_t crc = out->failed ? 0 : crc32_update(crc_t, 0, out->data + at, n + 4);
    put_be32(out, crc);
}

int view_png_encode(view_bytes_t *out, const uint8_t *rgb, unsigned w, unsigned h, size_t stride)
{
    uint32_t crc_t[256];
    crc_table(crc_t);
    /* Filter "none" on every row: LZ77 finds the repeats of flat colours and of whole rows by itself. */
    size_t row = (size_t)w * 3 + 1, n = row * h;
    uint8_t *raw = malloc(n ? n : 1);
    if (raw == NULL)
        return -1;
    for (unsigned y = 0; y < h; y++) {
        raw[y * row] = 0;
        memcpy(raw + y * row + 1, rgb + y * stride, (size_t)w * 3);
    }
    view_bytes_t z = {0};
    int rc = deflate_fixed(&z, raw, n);
    free(raw);
    if (rc != 0) {
        view_bytes_free(&z);
        return -1;
    }
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    view_bytes_put(out, sig, 8);
    uint8_t ihdr[13] = {0};
    for (int i = 0; i < 4; i++) {
        ihdr[i] = (uint8_t)(w >> (24 - 8 * i));
        ihdr[4 + i] = (uint8_t)(h >> (24 - 8 * i));
    }
    ihdr[8] = 8; /* bits per sample */
    ihdr[9] = 2; /* RGB */
    chunk(out, crc_t, "IHDR", ihdr, sizeof ihdr);
    chunk(out, crc_t, "IDAT", z.data, z.len);
    chunk(out, crc_t, "IEND", NULL, 0);
    view_bytes_free(&z);
    return out->failed ? -1 : 0;
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

/* --- inflate (after Mark Adler's puff: canonical codes decoded bit by bit) --- */

typedef struct inflate_state {
    const uint8_t *in;
    size_t len, pos;
    uint32_t bitbuf;
    unsigned bitcnt;
    view_bytes_t *out;
    bool bad;
} inflate_state_t;

typedef struct huffman {
    uint16_t count[16];
    uint16_t symbol[320];
} huffman_t;

static unsigned getbits(inflate_state_t *s, unsigned need)
{
    uint32_t v = s->bitbuf;
    while (s->bitcnt < need) {
        if (s->pos >= s->len) {
            s->bad = true;
            return 0;
        }
        v |= (uint32_t)s->in[s->pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    s->bitbuf = v >> need;
    s->bitcnt -= need;
    return v & ((1u << need) - 1u);
}

static int decode(inflate_state_t *s, const huffman_t *h)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len < 16; len++) {
        code |= (int)getbits(s, 1);
        if (s->bad)
            return -1;
        int count = h->count[len];
        if (code - count < first)
            return h->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return -1;
}

static int construct(huffman_t *h, const uint16_t *length, unsigned n)
{
    memset(h->count, 0, sizeof h->count);
    for (unsigned i = 0; i < n; i++)
        h->count[length[i]]++;
    if (h->count[0] == n)
        return 0;
    int left = 1;
    for (int len = 1; len < 16; len++) {
        left <<= 1;
        left -= h->count[len];
        if (left < 0)
            return -1; /* over-subscribed */
    }
    uint16_t offs[16];
    offs[1] = 0;
    for (int len = 1; len < 15; len++)
        offs[len + 1] = (uint16_t)(offs[len] + h->count[len]);
    for (unsigned i = 0; i < n; i++)
        if (length[i] != 0)
            h->symbol[offs[length[i]]++] = (uint16_t)i;
    return 0;
}

static int codes(inflate_state_t *s, const huffman_t *lencode, const huffman_t *distcode)
{
    for (;;) {
        int sym = decode(s, lencode);
        if (sym < 0)
            return -1;
        if (sym < 256) {
            uint8_t c = (uint8_t)sym;
            view_bytes_put(s->out, &c, 1);
        } else if (sym == 256) {
            return 0;
        } else {
            sym -= 257;
            if (sym >= 29)
                return -1;
            unsigned len = len_base[sym] + getbits(s, len_extra[sym]);
            int d = decode(s, distcode);
            if (d < 0 || d >= 30)
                return -1;
            size_t dist = dist_base[d] + getbits(s, dist_extra[d]);
            if (s->bad || dist > s->out->len)
                return -1;
            for (unsigned k = 0; k < len; k++) {
                uint8_t c = s->out->data[s->out->len - dist];
                view_bytes_put(s->out, &c, 1);
            }
        }
        if (s->out->failed)
            return -1;
    }
}

static int inflate_stored(inflate_state_t *s)
{
    s->bitbuf = 0;
    s->bitcnt = 0;
    if (s->pos + 4 > s->len)
        return -1;
    unsigned len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
    unsigned nlen = s->in[s->pos + 2] | (unsigned)s->in[s->pos + 3] << 8;
    s->pos += 4;
    if (len != (~nlen & 0xffffu) || s->pos + len > s->len)
        return -1;
    view_bytes_put(s->out, s->in + s->pos, len);
    s->pos += len;
    return 0;
}

static int inflate_fixed(inflate_state_t *s)
{
    huffman_t lencode, distcode;
    uint16_t lengths[288];
    unsigned i = 0;
    for (; i < 144; i++)
        lengths[i] = 8;
    for (; i < 256; i++)
        lengths[i] = 9;
    for (; i < 280; i++)
        lengths[i] = 7;
    for (; i < 288; i++)
        lengths[i] = 8;
    construct(&lencode, lengths, 288);
    for (i = 0; i < 30; i++)
        lengths[i] = 5;
    construct(&distcode, lengths, 30);
    return codes(s, &lencode, &distcode);
}

static int inflate_dynamic(inflate_state_t *s)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint16_t lengths[320];
    unsigned nlen = getbits(s, 5) + 257, ndist = getbits(s, 5) + 1, ncode = getbits(s, 4) + 4;
    if (s->bad || nlen > 286 || ndist > 30)
        return -1;
    unsigned i = 0;
    for (; i < ncode; i++)
        lengths[order[i]] = (uint16_t)getbits(s, 3);
    for (; i < 19; i++)
        lengths[order[i]] = 0;
    huffman_t lencode, distcode;
    if (s->bad || construct(&lencode, lengths, 19) != 0)
        return -1;
    for (i = 0; i < nlen + ndist;) {
        int sym = decode(s, &lencode);
        if (sym < 0)
            return -1;
        if (sym < 16) {
            lengths[i++] = (uint16_t)sym;
            continue;
        }
        unsigned len = 0, rep;
        if (sym == 16) {
            if (i == 0)
                return -1;
            len = lengths[i - 1];
            rep = 3 + getbits(s, 2);
        } else if (sym == 17) {
            rep = 3 + getbits(s, 3);
        } else {
            rep = 11 + getbits(s, 7);
        }
        if (s->bad || i + rep > nlen + ndist)
            return -1;
        while (rep-- > 0)
            lengths[i++] = (uint16_t)len;
    }
    if (lengths[256] == 0 || construct(&lencode, lengths, nlen) != 0 ||
        construct(&distcode, lengths + nlen, ndist) != 0)
        return -1;
    return codes(s, &lencode, &distcode);
}

static int inflate_zlib(const uint8_t *in, size_t len, view_bytes_t *out)
{
    if (len < 6 || (in[0] & 0x0f) != 8 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0 || (in[1] & 0x20) != 0)
        return -1;
    inflate_state_t s = {in, len, 2, 0, 0, out, false};
    unsigned last;
    do {
        last = getbits(&s, 1);
        unsigned type = getbits(&s, 2);
        int rc = type == 0 ? inflate_stored(&s) : type == 1 ? inflate_fixed(&s) : type == 2 ? inflate_dynamic(&s) : -1;
        if (rc != 0 || s.bad || out->failed)
            return -1;
    } while (!last);
    if (s.pos + 4 > s.len || get_be32(in + s.pos) != adler32(out->data, out->len))
        return -1;
    return 0;
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c)
{
    int p = (int)a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

int view_png_decode(const uint8_t *data, size_t len, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    *rgb = NULL;
    if (len < 8 || memcmp(data, sig, 8) != 0)
        return err_set(err, errlen, "not a PNG file");
    uint32_t crc_t[256];
    crc_table(crc_t);
    view_bytes_t z = {0};
    unsigned width = 0, height = 0, bpp = 0;
    size_t pos = 8;
    bool end = false;
    while (!end) {
        if (pos + 12 > len) {
            view_bytes_free(&z);
            return err_set(err, errlen, "PNG cut short");
        }
        uint32_t n = get_be32(data + pos);
        const uint8_t *type = data + pos + 4, *body = data + pos + 8;
        if (n > len - pos - 12 || crc32_update(crc_t, 0, type, n + 4) != get_be32(body + n)) {
            view_bytes_free(&z);
            return err_set(err, errlen, "PNG chunk damaged (length or CRC)");
        }
        if (memcmp(type, "IHDR", 4) == 0) {
            if (n != 13 || body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[10] || body[11] || body[12]) {
                view_bytes_free(&z);
                return err_set(err, errlen, "only 8-bit RGB or RGBA PNGs without interlace are read");
            }
            width = get_be32(body);
            height = get_be32(body + 4);
            bpp = body[9] == 2 ? 3 : 4;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            view_bytes_put(&z, body, n);
        } else if (memcmp(type, "IEND", 4) == 0) {
            end = true;
        }
        pos += 12 + n;
    }
    if (bpp == 0 || width == 0 || height == 0 || width > 16384 || height > 16384) {
        view_bytes_free(&z);
        return err_set(err, errlen, "PNG without a usable header");
    }
    view_bytes_t raw = {0};
    int rc = inflate_zlib(z.data, z.len, &raw);
    view_bytes_free(&z);
    size_t row = (size_t)width * bpp;
    if (rc != 0 || raw.len != (row + 1) * height) {
        view_bytes_free(&raw);
        return err_set(err, errlen, "PNG image data damaged");
    }
    uint8_t *img = malloc((size_t)width * height * 3);
    uint8_t *cur = malloc(row), *prior = calloc(row, 1);
    if (img == NULL || cur == NULL || prior == NULL) {
        free(img);
        free(cur);
        free(prior);
        view_bytes_free(&raw);
        return err_set(err, errlen, "out of memory");
    }
    for (unsigned y = 0; y < height && rc == 0; y++) {
        const uint8_t *line = raw.data + y * (row + 1);
        uint8_t f = line[0];
        for (size_t i = 0; i < row; i++) {
            uint8_t x = line[1 + i], a = i >= bpp ? cur[i - bpp] : 0, b = prior[i], c = i >= bpp ? prior[i - bpp] : 0;
            switch (f) {
            case 0: cur[i] = x; break;
            case 1: cur[i] = (uint8_t)(x + a); break;
            case 2: cur[i] = (uint8_t)(x + b); break;
            case 3: cur[i] = (uint8_t)(x + ((unsigned)a + b) / 2); break;
            case 4: cur[i] = (uint8_t)(x + paeth(a, b, c)); break;
            default: rc = -1; break;
            }
        }
        for (unsigned x = 0; x < width; x++)
            memcpy(img + ((size_t)y * width + x) * 3, cur + (size_t)x * bpp, 3);
        memcpy(prior, cur, row);
    }
    free(cur);
    free(prior);
    view_bytes_free(&raw);
    if (rc != 0) {
        free(img);
        return err_set(err, errlen, "PNG row filter unknown");
    }
    *rgb = img;
    *w = width;
    *h = height;
    return 0;
}

int view_png_read(const char *path, uint8_t **rgb, unsigned *w, unsigned *h, char *err, size_t errlen)
{
    view_bytes_t b = {0};
    if (view_read_file(path, &b, SIZE_MAX / 2, false, err, errlen) != 0) {
        view_bytes_free(&b);
        return -1;
    }
    char inner[200];
    int rc = view_png_decode(b.data, b.len, rgb, w, h, inner, sizeof inner);
    view_bytes_free(&b);
    if (rc != 0)
        return err_set(err, errlen, "%s: %s", path, inner);
    return 0;
}
