/* A structural check of ASCII .msh files (fem_msh_check.h). */
#include "fem_msh_check.h"

#include "fem_msh_binary.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 64 };

typedef struct scan {
    const char *s;
    size_t len, at;
    unsigned line; /* of the line last taken */
    const char *file;
    char *err;
    size_t cap;
    /* the fields of the line last taken */
    double v[MAX_FIELDS];
    bool integer[MAX_FIELDS];
    unsigned n;
    bool numbers; /* every field was a number */
    char first[64];
    /* the node tags $Nodes defines, so that an element naming another is refused here (gmsh would say only
     * "Wrong node index") */
    uint8_t *tags;
    size_t tags_cap; /* bits */
    bool tags_known;
} scan_t;

static int fail(scan_t *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum { MAX_TAG = 1 << 26 }; /* past this, tags are not followed (gmsh still checks them) */

static void tag_define(scan_t *sc, double tag)
{
    if (tag < 0 || tag >= MAX_TAG) {
        sc->tags_known = false;
        return;
    }
    size_t t = (size_t)tag;
    if (t >= sc->tags_cap) {
        size_t cap = sc->tags_cap ? sc->tags_cap : 1024;
        while (cap <= t)
            cap *= 2;
        uint8_t *grown = realloc(sc->tags, cap / 8);
        if (grown == NULL) {
            sc->tags_known = false;
            return;
        }
        memset(grown + sc->tags_cap / 8, 0, (cap - sc->tags_cap) / 8);
        sc->tags = grown;
        sc->tags_cap = cap;
    }
    sc->tags[t / 8] |= (uint8_t)(1u << (t % 8));
}

static bool tag_defined(const scan_t *sc, double tag)
{
    if (!sc->tags_known)
        return true;
    if (!(tag >= 0 && tag < (double)sc->tags_cap))
        return false;
    size_t t = (size_t)tag;
    return sc->tags[t / 8] >> (t % 8) & 1;
}

/* A node tag is a whole number from 1 to INT_MAX: gmsh 4.8 reads 4.1 tags into a size_t but indexes its node table
 * with an int (an element naming node 2^32 - 2 reached below the table's start), and 2^64 - 1 wrapped a reader's
 * array size to 0; such a tag is refused here with its line rather than trusted further on. */
static int whole_tag(scan_t *sc, unsigned i)
{
    if (!sc->integer[i] || sc->v[i] < 1 || sc->v[i] > INT_MAX)
        return fail(sc, "a node tag must be a whole number from 1 to %d", INT_MAX);
    return 0;
}

/* The node tags of the last line from field `from` on must be defined. */
static int nodes_defined(scan_t *sc, unsigned from)
{
    for (unsigned i = from; i < sc->n && i < MAX_FIELDS; i++)
        if (whole_tag(sc, i) != 0)
            return -1;
    for (unsigned i = from; i < sc->n && i < MAX_FIELDS; i++)
        if (!tag_defined(sc, sc->v[i]))
            return fail(sc, "an element names node %.0f, which $Nodes does not define", sc->v[i]);
    return 0;
}

static int fail(scan_t *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(scan_t *sc, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(sc->err, sc->cap, "%s:%u: %s", sc->file, sc->line > 0 ? sc->line : 1, what); /* empty: line 1 */
    return -1;
}

/* Takes the next line and splits it into fields; false at the end of the text. */
static bool take(scan_t *sc)
{
    if (sc->at >= sc->len)
        return false;
    size_t end = sc->at;
    while (end < sc->len && sc->s[end] != '\n')
        end++;
    sc->line++;
    sc->n = 0;
    sc->numbers = true;
    sc->first[0] = '\0';
    size_t i = sc->at;
    while (i < end) {
        while (i < end && (sc->s[i] == ' ' || sc->s[i] == '\t' || sc->s[i] == '\r'))
            i++;
        if (i == end)
            break;
        size_t j = i;
        while (j < end && sc->s[j] != ' ' && sc->s[j] != '\t' && sc->s[j] != '\r')
            j++;
        char tok[64];
        size_t k = j - i < sizeof tok - 1 ? j - i : sizeof tok - 1;
        memcpy(tok, sc->s + i, k);
        tok[k] = '\0';
        if (sc->n == 0)
            snprintf(sc->first, sizeof sc->first, "%s", tok);
        if (sc->n < MAX_FIELDS) {
            char *e;
            errno = 0;
            long iv = strtol(tok, &e, 10);
            if (*e == '\0' && errno == 0 && j - i < sizeof tok) {
                sc->v[sc->n] = (double)iv;
                sc->integer[sc->n] = true;
            } else {
                double d = strtod(tok, &e);
                sc->integer[sc->n] = false;
                sc->v[sc->n] = d;
                if (*e != '\0' || !isfinite(d) || j - i >= sizeof tok)
                    sc->numbers = false;
            }
        }
        sc->n++;
        i = j;
    }
    sc->at = end + (end < sc->len);
    return true;
}

/* The next line, which must be `want` numbers (integers where ints), at least `want` when more is set. */
static int expect_numbers(scan_t *sc, unsigned want, bool more, bool ints, const char *section, const char *what)
{
    if (!take(sc))
        return fail(sc, "the file ends inside $%s (expected %s)", section, what);
    if (sc->first[0] == '$')
        return fail(sc, "expected %s, found %s: fewer lines than $%s's counts say", what, sc->first, section);
    if (!sc->numbers || sc->n < want || (!more && sc->n != want) || sc->n > MAX_FIELDS)
        return fail(sc, "expected %s", what);
    for (unsigned i = 0; ints && i < want; i++)
        if (!sc->integer[i] || sc->v[i] < 0)
            return fail(sc, "expected %s (whole numbers, not negative)", what);
    return 0;
}

static int end_of(scan_t *sc, const char *section)
{
    char want[72];
    snprintf(want, sizeof want, "$End%s", section);
    if (!take(sc))
        return fail(sc, "the file ends inside $%s (no %s)", section, want);
    if (sc->n != 1 || strcmp(sc->first, want) != 0)
        return fail(sc, "expected %s", want);
    return 0;
}

/* Nodes of gmsh's element types 1..15 (first and second order); 0: a type this check does not count. */
static unsigned type_nodes(long type)
{
    static const unsigned n[16] = {0, 2, 3, 4, 4, 8, 6, 5, 3, 6, 9, 10, 27, 18, 14, 1};
    return type >= 1 && type <= 15 ? n[type] : 0;
}

static int nodes_v2(scan_t *sc)
{
    if (expect_numbers(sc, 1, false, true, "Nodes", "the number of nodes") != 0)
        return -1;
    double count = sc->v[0];
    for (double i = 0; i < count; i++) {
        if (expect_numbers(sc, 4, false, false, "Nodes", "a node: tag x y z") != 0)
            return -1;
        if (whole_tag(sc, 0) != 0)
            return -1;
        tag_define(sc, sc->v[0]);
    }
    return end_of(sc, "Nodes");
}

static int elements_v2(scan_t *sc)
{
    if (expect_numbers(sc, 1, false, true, "Elements", "the number of elements") != 0)
        return -1;
    double count = sc->v[0];
    for (double i = 0; i < count; i++) {
        if (expect_numbers(sc, 3, true, true, "Elements", "an element: tag type tags... nodes...") != 0)
            return -1;
        unsigned k = sc->v[1] <= 15 ? type_nodes((long)sc->v[1]) : 0;
        if (k == 0)
            return fail(sc, "element type %.0f: iwarp fem reads gmsh's types 1 to 15", sc->v[1]);
        double want = 3 + sc->v[2] + k;
        if ((double)sc->n != want)
            return fail(sc, "an element of type %ld has %u nodes: expected %.0f fields, found %u", (long)sc->v[1], k,
                        want, sc->n);
        if (3 + sc->v[2] < MAX_FIELDS && nodes_defined(sc, 3 + (unsigned)sc->v[2]) != 0)
            return -1;
    }
    return end_of(sc, "Elements");
}

static int nodes_v4(scan_t *sc)
{
    if (expect_numbers(sc, 4, false, true, "Nodes", "numEntityBlocks numNodes minNodeTag maxNodeTag") != 0)
        return -1;
    double blocks = sc->v[0], nodes = sc->v[1], seen = 0;
    for (double b = 0; b < blocks; b++) {
        if (expect_numbers(sc, 4, false, true, "Nodes", "a block: entityDim entityTag parametric numNodesInBlock") != 0)
            return -1;
        if (sc->v[0] > 3)
            return fail(sc, "entityDim %.0f: 0 to 3", sc->v[0]);
        double n = sc->v[3], extra = sc->v[2] != 0 ? sc->v[0] : 0;
        for (double i = 0; i < n; i++) {
            if (expect_numbers(sc, 1, false, true, "Nodes", "a node tag") != 0)
                return -1;
            if (whole_tag(sc, 0) != 0)
                return -1;
            tag_define(sc, sc->v[0]);
        }
        for (double i = 0; i < n; i++)
            if (expect_numbers(sc, 3 + (unsigned)extra, false, false, "Nodes", "a node's coordinates: x y z") != 0)
                return -1;
        seen += n;
    }
    if (seen != nodes)
        return fail(sc, "$Nodes says %.0f nodes but its blocks hold %.0f", nodes, seen);
    return end_of(sc, "Nodes");
}

static int elements_v4(scan_t *sc)
{
    if (expect_numbers(sc, 4, false, true, "Elements", "numEntityBlocks numElements minElementTag maxElementTag") != 0)
        return -1;
    double blocks = sc->v[0], elems = sc->v[1], seen = 0;
    for (double b = 0; b < blocks; b++) {
        if (expect_numbers(sc, 4, false, true, "Elements",
                           "a block: entityDim entityTag elementType numElementsInBlock") != 0)
            return -1;
        long type = sc->v[2] <= 15 ? (long)sc->v[2] : 0;
        unsigned k = type_nodes(type);
        if (k == 0)
            return fail(sc, "element type %.0f: iwarp fem reads gmsh's types 1 to 15", sc->v[2]);
        double n = sc->v[3];
        for (double i = 0; i < n; i++) {
            if (expect_numbers(sc, 2, true, true, "Elements", "an element: tag nodes...") != 0)
                return -1;
            if (sc->n != 1 + k)
                return fail(sc, "an element of type %ld has %u nodes: expected %u fields, found %u", type, k, 1 + k,
                            sc->n);
            if (nodes_defined(sc, 1) != 0)
                return -1;
        }
        seen += n;
    }
    if (seen != elems)
        return fail(sc, "$Elements says %.0f elements but its blocks hold %.0f", elems, seen);
    return end_of(sc, "Elements");
}

static int check(scan_t *sc)
{
    if (!take(sc))
        return fail(sc, "empty: a gmsh mesh starts with $MeshFormat");
    /* gmsh compares the first bytes with "$MeshFormat" and reads a .msh file that does not start so as a .geo
     * program: neither a blank line nor a space may come first. */
    if (sc->len < 11 || memcmp(sc->s, "$MeshFormat", 11) != 0 || strcmp(sc->first, "$MeshFormat") != 0 || sc->n != 1)
        return fail(sc, "not a gmsh mesh: it must start with $MeshFormat on its first line");
    if (!take(sc))
        return fail(sc, "the file ends inside $MeshFormat");
    if (!sc->numbers || sc->n != 3)
        return fail(sc, "expected the format: version file-type data-size (such as 4.1 0 8)");
    double version = sc->v[0];
    if (!(version >= 2 && version < 3) && !(version >= 4 && version < 5))
        return fail(sc, "MSH version %g: gmsh files of version 2 or 4 are read", version);
    bool v41 = version >= 4.1 && version < 5, v2 = version < 3;
    if (!v2 && !v41)
        return fail(sc, "MSH %g: save the mesh as 4.1 or 2.2 (gmsh FILE -save -format msh41)", version);
    if (sc->v[1] != 0 && sc->v[1] != 1)
        return fail(sc, "file-type %g: 0 (ASCII) or 1 (binary)", sc->v[1]);
    if (sc->v[2] != 8)
        return fail(sc, "data-size %g: gmsh writes 8 (the size of a double)", sc->v[2]);
    if (sc->v[1] == 1)
        return fem_msh_binary_check(sc->s, sc->len, sc->at, v2, sc->file, sc->err, sc->cap);
    if (end_of(sc, "MeshFormat") != 0)
        return -1;
    while (take(sc)) {
        if (sc->n == 0)
            continue;
        if (sc->first[0] != '$' || strncmp(sc->first, "$End", 4) == 0)
            return fail(sc, "expected a section ($Nodes, $Elements, ...), found '%s'", sc->first);
        char section[sizeof sc->first];
        memcpy(section, sc->first + 1, sizeof section - 1);
        section[sizeof section - 1] = '\0';
        int rc;
        if (strcmp(section, "Nodes") == 0) {
            rc = v2 ? nodes_v2(sc) : nodes_v4(sc);
        } else if (strcmp(section, "Elements") == 0) {
            rc = v2 ? elements_v2(sc) : elements_v4(sc);
        } else {
            /* a section this check does not read: to its end */
            char want[72];
            snprintf(want, sizeof want, "$End%s", section);
            rc = -1;
            while (take(sc))
                if (sc->n == 1 && strcmp(sc->first, want) == 0) {
                    rc = 0;
                    break;
                }
            if (rc != 0)
                return fail(sc, "the file ends inside $%s (no %s)", section, want);
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

int fem_msh_check(const char *text, size_t len, const char *file, char *err, size_t cap)
{
    scan_t sc = {.s = text, .len = len, .file = file, .err = err, .cap = cap, .tags_known = true};
    int rc = check(&sc);
    free(sc.tags);
    return rc;
}
