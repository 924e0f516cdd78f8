/* The structural check of a binary gmsh .msh file: formats 2.2 and 4.1, little-endian, data-size 8 (what gmsh
 * writes on the hosts iwarp runs on). gmsh sizes its allocations by the counts it reads from the file before it
 * reads what they count: GModel::_readMSH2 asked for 2 GB for one element block of a 1 kB file whose tag count
 * said 2^29. So every count here is checked against the bytes that follow it, with products that cannot
 * overflow, before gmsh sees the file; and only the sections iwarp fem needs are let through, the others
 * ($Periodic, $NodeData, ...) being refused rather than left to readers nobody here has checked. */
#include "fem_msh_binary.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_TAGS = 64,       /* an MSH2 element's tags: gmsh writes 2, or 4 and more with partitions */
    MAX_LINE = 256,      /* a text line between the binary parts */
    MAX_TYPE = 15,       /* gmsh's element types of fixed size */
};

typedef struct bin {
    const char *s;
    size_t len, at;
    const char *file, *section;
    char *err;
    size_t cap;
} bin_t;

static int fail(bin_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(bin_t *b, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    unsigned line = 1;
    for (size_t i = 0; i < b->at && i < b->len; i++)
        line += b->s[i] == '\n';
    snprintf(b->err, b->cap, "%s:%u: byte %zu%s%s: %s", b->file, line, b->at, b->section ? " in $" : "",
             b->section ? b->section : "", what);
    return -1;
}

static size_t left(const bin_t *b)
{
    return b->len - b->at;
}

static bool get_i32(bin_t *b, int32_t *v)
{
    if (left(b) < 4)
        return false;
    memcpy(v, b->s + b->at, 4);
    b->at += 4;
    return true;
}

static bool get_u64(bin_t *b, uint64_t *v)
{
    if (left(b) < 8)
        return false;
    memcpy(v, b->s + b->at, 8);
    b->at += 8;
    return true;
}

/* Skips `count` records of `size` bytes, or says how far short the file is. */
static int skip(bin_t *b, uint64_t count, uint64_t size, const char *what)
{
    if (size != 0 && count > left(b) / size)
        return fail(b, "%llu %s of %llu bytes each run past the end of the file (%zu bytes left)",
                    (unsigned long long)count, what, (unsigned long long)size, left(b));
    b->at += (size_t)(count * size);
    return 0;
}

/* The text line at the cursor, without its end (\n or \r\n); false at the end of the file, for a line longer
 * than MAX_LINE or one with a NUL byte. */
static bool line(bin_t *b, char out[MAX_LINE])
{
    if (b->at >= b->len)
        return false;
    const char *start = b->s + b->at;
    size_t room = left(b) < MAX_LINE ? left(b) : MAX_LINE;
    const char *nl = memchr(start, '\n', room);
    size_t n = nl != NULL ? (size_t)(nl - start) : room;
    if ((nl == NULL && room == MAX_LINE) || memchr(start, '\0', n) != NULL)
        return false;
    memcpy(out, start, n);
    out[n] = '\0';
    if (n > 0 && out[n - 1] == '\r')
        out[n - 1] = '\0';
    b->at += n + (nl != NULL);
    return true;
}

/* A count on a line of its own, as gmsh's sscanf("%d") reads it in MSH2. */
static int count_line(bin_t *b, const char *what, uint64_t *count)
{
    char text[MAX_LINE];
    if (!line(b, text))
        return fail(b, "expected %s on a line of its own", what);
    char *e;
    unsigned long long v = strtoull(text, &e, 10);
    if (e == text || *e != '\0' || text[0] == '-' || text[0] == '+' || v > INT32_MAX)
        return fail(b, "expected %s (a whole number up to %d), found '%.40s'", what, INT32_MAX, text);
    *count = v;
    return 0;
}

/* After a section's binary part, the newline gmsh writes and $End<section>. */
static int end_of(bin_t *b)
{
    while (b->at < b->len && (b->s[b->at] == '\n' || b->s[b->at] == '\r'))
        b->at++;
    char want[72], text[MAX_LINE];
    snprintf(want, sizeof want, "$End%s", b->section);
    size_t at = b->at;
    if (!line(b, text) || strcmp(text, want) != 0) {
        b->at = at;
        return fail(b, "expected %s: more bytes than the counts say", want);
    }
    b->section = NULL;
    return 0;
}

/* A node tag, or an element's reference to one, at byte `at`: gmsh 4.8 keeps them in an int and indexes its node
 * table with it, so one above INT32_MAX (a size_t tag of 2^32 - 2 read as -2) reached below the table's start. */
static int node_tag(bin_t *b, uint64_t tag, size_t at, const char *what)
{
    if (tag >= 1 && tag <= INT32_MAX)
        return 0;
    b->at = at;
    return fail(b, "%s %llu: node tags are 1 to %d", what, (unsigned long long)tag, INT32_MAX);
}

static int32_t i32_at(const bin_t *b, size_t at)
{
    int32_t v;
    memcpy(&v, b->s + at, 4);
    return v;
}

static unsigned type_nodes(int32_t type)
{
    static const unsigned n[MAX_TYPE + 1] = {0, 2, 3, 4, 4, 8, 6, 5, 3, 6, 9, 10, 27, 18, 14, 1};
    return type >= 1 && type <= MAX_TYPE ? n[type] : 0;
}

static int physical_names(bin_t *b)
{
    uint64_t n;
    if (count_line(b, "the number of physical names", &n) != 0)
        return -1;
    char text[MAX_LINE];
    for (uint64_t i = 0; i < n; i++)
        if (!line(b, text) || text[0] == '$')
            return fail(b, "expected physical name %llu of %llu: dim tag \"name\"", (unsigned long long)i + 1,
                        (unsigned long long)n);
    return end_of(b);
}

static int nodes_v2(bin_t *b)
{
    uint64_t n;
    if (count_line(b, "the number of nodes", &n) != 0)
        return -1;
    size_t body = b->at;
    if (skip(b, n, 4 + 3 * 8, "nodes") != 0)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        size_t at = body + (size_t)i * (4 + 3 * 8);
        int32_t tag = i32_at(b, at);
        if (node_tag(b, tag < 0 ? 0 : (uint64_t)tag, at, "a node tag") != 0)
            return -1;
    }
    return end_of(b);
}

static int elements_v2(bin_t *b)
{
    uint64_t n, seen = 0;
    if (count_line(b, "the number of elements", &n) != 0)
        return -1;
    while (seen < n) {
        int32_t h[3];
        size_t head = b->at; /* where a refusal of the header points */
        if (!get_i32(b, &h[0]) || !get_i32(b, &h[1]) || !get_i32(b, &h[2]))
            return fail(b, "the file ends inside a block header (type, elements, tags)");
        size_t body = b->at;
        b->at = head;
        unsigned k = type_nodes(h[0]);
        if (k == 0)
            return fail(b, "element type %d: iwarp fem reads gmsh's types 1 to %d", (int)h[0], MAX_TYPE);
        if (h[1] <= 0 || (uint64_t)h[1] > n - seen)
            return fail(b, "a block of %d elements, where %llu of the %llu are left", (int)h[1],
                        (unsigned long long)(n - seen), (unsigned long long)n);
        if (h[2] < 0 || h[2] > MAX_TAGS)
            return fail(b, "%d tags per element: 0 to %d", (int)h[2], MAX_TAGS);
        b->at = body;
        size_t each = 4u * (1u + (unsigned)h[2] + k); /* its number, its tags, its nodes */
        if (skip(b, (uint64_t)h[1], each, "elements") != 0)
            return -1;
        for (int32_t i = 0; i < h[1]; i++)
            for (unsigned j = 0; j < k; j++) {
                size_t at = body + (size_t)i * each + 4u * (1u + (unsigned)h[2] + j);
                int32_t ref = i32_at(b, at);
                if (node_tag(b, ref < 0 ? 0 : (uint64_t)ref, at, "an element names node") != 0)
                    return -1;
            }
        seen += (uint64_t)h[1];
    }
    return end_of(b);
}

static int entities_v41(bin_t *b)
{
    uint64_t n[4];
    for (unsigned d = 0; d < 4; d++)
        if (!get_u64(b, &n[d]))
            return fail(b, "the file ends inside the counts of points, curves, surfaces and volumes");
    for (unsigned d = 0; d < 4; d++) {
        /* each: its tag, its box (a point: its place) and its count of physical tags, at least */
        uint64_t least = 4 + (d == 0 ? 3 : 6) * 8 + 8 + (d == 0 ? 0 : 8);
        if (n[d] > left(b) / least)
            return fail(b, "%llu entities of dimension %u cannot fit in the %zu bytes left", (unsigned long long)n[d], d,
                        left(b));
        for (uint64_t i = 0; i < n[d]; i++) {
            uint64_t count;
            if (skip(b, 1, 4 + (d == 0 ? 3 : 6) * 8, "entity heads") != 0)
                return -1;
            if (!get_u64(b, &count))
                return fail(b, "the file ends inside an entity");
            if (skip(b, count, 4, "physical tags") != 0)
                return -1;
            if (d > 0 && !get_u64(b, &count))
                return fail(b, "the file ends inside an entity");
            if (d > 0 && skip(b, count, 4, "bounding entities") != 0)
                return -1;
        }
    }
    return end_of(b);
}

/* What an item of a 4.1 block takes, given the block's entityDim and third int (parametric; the element type):
 * its bytes, and where the node tags it holds are (`tags` of them, from the `from`-th 8-byte word, `stride` bytes
 * apart from one item to the next). false with the refusal in err. */
typedef struct item_shape {
    uint64_t bytes, stride;
    unsigned from, tags;
} item_shape_t;
typedef bool item_shape_fn(bin_t *b, int32_t dim, int32_t third, item_shape_t *shape);

static bool node_shape(bin_t *b, int32_t dim, int32_t parametric, item_shape_t *shape)
{
    if (parametric != 0 && parametric != 1) {
        fail(b, "parametric %d: 0 or 1", (int)parametric);
        return false;
    }
    /* the block's tags, then its coordinates */
    *shape = (item_shape_t){8 + 8 * (3 + (parametric ? (uint64_t)dim : 0)), 8, 0, 1};
    return true;
}

static bool element_shape(bin_t *b, int32_t dim, int32_t type, item_shape_t *shape)
{
    (void)dim;
    unsigned k = type_nodes(type);
    if (k == 0) {
        fail(b, "element type %d: iwarp fem reads gmsh's types 1 to %d", (int)type, MAX_TYPE);
        return false;
    }
    *shape = (item_shape_t){8 * (1 + (uint64_t)k), 8 * (1 + (uint64_t)k), 1, k}; /* its tag, then its nodes */
    return true;
}

/* A 4.1 $Nodes or $Elements: the header (blocks, items, min and max tag), then each block's head (entityDim,
 * entityTag, a third int, its count) and items; the blocks must hold the header's count. `least`: an item's
 * bytes at least, so that the header's counts can be checked before any block. */
static int blocks_v41(bin_t *b, const char *items, uint64_t least, item_shape_fn *item_shape)
{
    uint64_t blocks, total, tags, seen = 0;
    if (!get_u64(b, &blocks) || !get_u64(b, &total) || !get_u64(b, &tags) || !get_u64(b, &tags))
        return fail(b, "the file ends inside the header (blocks, %s, min and max tag)", items);
    if (blocks > left(b) / 20 || total > left(b) / least)
        return fail(b, "%llu blocks of %llu %s cannot fit in the %zu bytes left", (unsigned long long)blocks,
                    (unsigned long long)total, items, left(b));
    for (uint64_t i = 0; i < blocks; i++) {
        int32_t dim, tag, third;
        uint64_t n;
        size_t head = b->at; /* where a refusal of the head points */
        if (!get_i32(b, &dim) || !get_i32(b, &tag) || !get_i32(b, &third) || !get_u64(b, &n))
            return fail(b, "the file ends inside a block header");
        size_t body = b->at;
        b->at = head;
        if (dim < 0 || dim > 3)
            return fail(b, "entityDim %d: 0 to 3", (int)dim);
        item_shape_t shape;
        if (!item_shape(b, dim, third, &shape))
            return -1;
        if (n > total - seen)
            return fail(b, "a block of %llu %s, where %llu of the %llu are left", (unsigned long long)n, items,
                        (unsigned long long)(total - seen), (unsigned long long)total);
        b->at = body;
        if (skip(b, n, shape.bytes, items) != 0)
            return -1;
        size_t end = b->at;
        for (uint64_t j = 0; j < n; j++)
            for (unsigned t = 0; t < shape.tags; t++) {
                size_t at = body + (size_t)(j * shape.stride) + 8u * (shape.from + t);
                uint64_t node;
                memcpy(&node, b->s + at, 8);
                if (node_tag(b, node, at, shape.from == 0 ? "a node tag" : "an element names node") != 0)
                    return -1;
            }
        b->at = end;
        seen += n;
    }
    if (seen != total)
        return fail(b, "the header says %llu %s but its blocks hold %llu", (unsigned long long)total, items,
                    (unsigned long long)seen);
    return end_of(b);
}

int fem_msh_binary_check(const char *text, size_t len, size_t at, bool v2, const char *file, char *err, size_t cap)
{
    bin_t b = {.s = text, .len = len, .at = at, .file = file, .section = "MeshFormat", .err = err, .cap = cap};
    int32_t one;
    if (!get_i32(&b, &one))
        return fail(&b, "the file ends before the binary mesh's integer 1");
    if (one != 1)
        return fail(&b, "the integer 1 that opens a binary mesh reads %d%s", (int)one,
                    one == 0x01000000 ? ": written on a big-endian host, which iwarp fem does not read" : "");
    if (end_of(&b) != 0)
        return -1;
    char name[MAX_LINE];
    while (b.at < b.len) {
        size_t start = b.at;
        if (!line(&b, name)) {
            b.at = start;
            return fail(&b, "expected a section ($Nodes, $Elements, ...)");
        }
        if (name[0] == '\0')
            continue;
        b.section = name + 1;
        int rc;
        if (strcmp(name, "$PhysicalNames") == 0)
            rc = physical_names(&b);
        else if (!v2 && strcmp(name, "$Entities") == 0)
            rc = entities_v41(&b);
        else if (strcmp(name, "$Nodes") == 0)
            rc = v2 ? nodes_v2(&b) : blocks_v41(&b, "nodes", 32, node_shape);
        else if (strcmp(name, "$Elements") == 0)
            rc = v2 ? elements_v2(&b) : blocks_v41(&b, "elements", 16, element_shape);
        else {
            b.section = NULL;
            b.at = start;
            return fail(&b, "'%.40s': iwarp fem reads only $PhysicalNames,%s $Nodes and $Elements from a binary mesh "
                            "(save it without the rest, or as ASCII)",
                        name, v2 ? "" : " $Entities,");
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}
