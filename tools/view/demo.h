/*
 * Teaching demos: programs/demos/NAME.run (what runs) and NAME.txt (what the viewer says about it).
 * A narrative file starts with `key: value` lines, then a line `---`, then paragraphs apart by blank lines:
 *
 *   title: Round robin: four channels share one link
 *   order: 1              (place in `iwarp demo`'s list)
 *   summary: ...          (one line for the list)
 *   speed: 10             (clocks per second to start with)
 *   select: 0,0           (a cell whose details show from the start)
 *   shot: 120             (the clock of the screenshot in docs/demos.md)
 *   ---
 *   First paragraph ...
 *
 *   @ 120..400
 *   A paragraph shown only while the clock is in 120..399 (either end may be left out: "@ 400..").
 *
 *   @ 400.. select 3,0
 *   A paragraph from clock 400 on; when the clock comes into its range the side panel shows cell (3,0).
 */
#ifndef VIEW_DEMO_H
#define VIEW_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct demo {
    char *name;
    char *run_path;
    char *title;
    char *summary;
    char *narrative;
    int order;
    double speed;
    bool has_speed;
    int select_x, select_y; /* -1: none */
    uint64_t shot;
    bool has_shot;
} demo_t;

/* Parses a narrative file's text. Returns 0, or -1 with a message. */
int demo_parse(demo_t *d, const char *name, const char *text, char *err, size_t errlen);
/* Loads demo `name` from `dir` (NAME.txt and NAME.run). */
int demo_load(demo_t *d, const char *dir, const char *name, char *err, size_t errlen);
void demo_free(demo_t *d);
/* Whether a narrative paragraph (n bytes at para) shows at `clock`: one whose first line is "@ A..B" shows
 * while A <= clock < B, and *skip is that line's length (with its newline) so the text after it is what
 * shows; any other shows always (*skip = 0). A malformed "@" line shows never. */
bool demo_paragraph_shows(const char *para, size_t n, uint64_t clock, size_t *skip);
/* A paragraph's "@ A..B [select X,Y]" line (n bytes at s). Returns 0, or -1 when it is malformed. */
typedef struct demo_range {
    uint64_t lo, hi;        /* shows while lo <= clock < hi */
    int select_x, select_y; /* -1: selects nothing */
} demo_range_t;
int demo_range_parse(const char *s, size_t n, demo_range_t *r);
/* The cell of the last paragraph with a `select` whose range the clock has come into between `before`
 * (UINT64_MAX: nowhere yet) and `now`; false when none did. */
bool demo_select_entered(const char *narrative, uint64_t before, uint64_t now, int *x, int *y);
/* False, with the cell, when a paragraph selects a cell outside a width x height array. */
bool demo_selects_fit(const char *narrative, unsigned width, unsigned height, int *bad_x, int *bad_y);
/* Every demo in `dir`, in their order. Returns the count (0 with *out NULL when none), or -1. */
int demo_list(const char *dir, demo_t **out, char *err, size_t errlen);
void demo_list_free(demo_t *list, int n);

#endif
