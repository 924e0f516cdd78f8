/* The words a .geo file may not use (fem_geo_check.h). */
#include "fem_geo_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* gmsh's lexer (Parser/Gmsh.l) is case-sensitive and takes an identifier as the longest run of letters, digits
 * and underscores that starts with a letter or underscore; the commands below are identifiers that its grammar
 * compares by name (Parser/Gmsh.y, gmsh 4.8). */
static const struct {
    const char *word;
    const char *why;
} refused[] = {
    {"SystemCall", "runs a shell command"},
    {"System", "runs a shell command"},
    {"NonBlockingSystemCall", "runs a shell command"},
    {"OnelabRun", "runs a program (a ONELAB client)"},
    {"OnelabAction", "drives ONELAB clients, which are programs"},
    {"Plugin", "runs a gmsh plugin, which can write files"},
    {"Exit", "exits the process"},
    {"Save", "writes a file"},
    {"Print", "writes a file"},
    {"Printf", "can write a file (Printf(...) > file)"},
    {"CreateDir", "makes a folder"},
    {"SendToServer", "sends data to a ONELAB server"},
    {"Include", "reads another file, which is not checked"},
    {"Merge", "reads another file, which is not checked"},
    {"MergeWithBoundingBox", "reads another file, which is not checked"},
    {"ShapeFromFile", "reads another file, which is not checked"},
    {"ListFromFile", "reads another file, which is not checked"},
    /* Options outside Geometry.* and Mesh.*: General.AbortOnError = 4 exits, Solver.* name the programs ONELAB
     * runs, Print.* and PostProcessing.* and View.* shape files that are written. */
    {"General", "sets gmsh's general options (General.AbortOnError = 4 exits the process)"},
    {"Solver", "sets the programs ONELAB runs"},
    {"PostProcessing", "sets post-processing options, which write files"},
    {"View", "makes or saves post-processing views, which write files"},
};

static bool ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(unsigned char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

int fem_geo_check(const char *text, size_t len, const char *file, char *err, size_t cap)
{
    unsigned line = 1, col = 1;
    for (size_t i = 0; i < len; i++, col++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            col = 0;
            continue;
        }
        /* gmsh's reader takes a NUL byte for the end of its buffer: a comment or a string would end there early. */
        if (c == '\0') {
            snprintf(err, cap, "%s:%u:%u: a NUL byte: a .geo file is text", file, line, col);
            return -1;
        }
        /* A word starts wherever gmsh's lexer could start an identifier: not after a letter or underscore, but
         * after a digit it can (`1e5Exit` is the number 1e5, then Exit), so every letter after a digit starts one
         * here too (x2Save is refused, though gmsh would take it for one name). The word runs to the end of the
         * identifier characters: SystemCallX is another name. */
        if (!ident_start(c) || (i > 0 && ident_start((unsigned char)text[i - 1])))
            continue;
        size_t end = i;
        while (end < len && ident_char((unsigned char)text[end]))
            end++;
        for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
            size_t n = strlen(refused[k].word);
            if (end - i == n && memcmp(text + i, refused[k].word, n) == 0) {
                snprintf(err, cap, "%s:%u:%u: '%s' %s: iwarp refuses it in a .geo file (even in a comment or a string)",
                         file, line, col, refused[k].word, refused[k].why);
                return -1;
            }
        }
    }
    return 0;
}
