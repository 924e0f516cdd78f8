/*
 * The web page's view of the emulator (docs/web.md): a demo loaded by name or from a user's text, run a few
 * clocks at a time, and what a frame shows read from the same view model the SDL2 viewer draws
 * (trace/view_model.h). Built with emscripten by scripts/build-web.sh; web/app.js calls these through
 * cwrap. Strings returned stay valid until the next call on the same context.
 */
#ifndef IWARP_WEB_H
#define IWARP_WEB_H

#include <stdint.h>

typedef struct iwarp_web iwarp_web_t;

iwarp_web_t *iwarp_web_new(void);
void iwarp_web_free(iwarp_web_t *w);
/* The last error (a load that failed): what the assembler or the parsers said. */
const char *iwarp_web_error(iwarp_web_t *w);

/* The colours (tools/view/palette.def) as JSON: {"theme":{"bg":"#f3f4f6",...},"paths":["#1f77b4",...]}. */
const char *iwarp_web_palette(iwarp_web_t *w);
/* The shipped demos as JSON: [{"name","title","summary"}], in their order. */
const char *iwarp_web_demos(iwarp_web_t *w);

/* Loads a shipped demo (programs/demos/NAME), or a user's three files (NAME.txt, NAME.run, NAME.s, docs/demos.md
 * "Writing a demo"), and builds its array at clock 0. Returns 0, or -1 (iwarp_web_error says why). */
int iwarp_web_load(iwarp_web_t *w, const char *name);
int iwarp_web_load_text(iwarp_web_t *w, const char *name, const char *txt, const char *run, const char *prog);

/* Runs at most n clocks (fewer when the run ends). Returns the clock reached. */
double iwarp_web_step(iwarp_web_t *w, double n);
double iwarp_web_clock(iwarp_web_t *w);
/* Goes to clock n, forwards by running on, backwards by building the demo again and running to n (the emulator is
 * deterministic: the same state, the same view model, the same hash as on the way there). Returns the clock
 * reached (less than n when the run ends first), or -1 when the demo no longer builds. */
double iwarp_web_seek(iwarp_web_t *w, double n);
/* "running", or how the run ended: emu_run_status_name ("done", "deadlock", ...). */
const char *iwarp_web_status(iwarp_web_t *w);
/* emu_array_hash with memory and statistics, as `iwarp run --state-hash-at` prints it: 16 hex digits. */
const char *iwarp_web_hash(iwarp_web_t *w);

/* The frame: the layout and static facts as JSON, then the view model's slots (uint64, little endian) and the
 * utilization of each cell's four links over the last VIEW_UTIL_WINDOW clocks (floats, 0..1). */
const char *iwarp_web_layout(iwarp_web_t *w);
const uint64_t *iwarp_web_slots(iwarp_web_t *w);
const float *iwarp_web_util(iwarp_web_t *w);
/* Channels a pathway with something to carry feeds (1 a byte, cell * channels + lc), as the SDL2 view greys out
 * the routes nothing feeds. */
const uint8_t *iwarp_web_fed(iwarp_web_t *w);

/* The marks programs raised (emu.h's EMU_MARK_*) up to the furthest clock run, for the timeline: pairs of doubles,
 * the clock (the one after the mark's, as the recorder stores it) and the mark (kind << 24 | data), by clock; going
 * back keeps them. iwarp_web_nmarks says how many pairs; the pointer moves when they grow. */
const double *iwarp_web_marks(iwarp_web_t *w);
int iwarp_web_nmarks(iwarp_web_t *w);

/* The narrative paragraphs that show at the current clock, blank lines apart; the cell the narrative selects
 * on coming into the clock (y * width + x) or -1. */
const char *iwarp_web_narrative(iwarp_web_t *w);
int iwarp_web_narrative_select(iwarp_web_t *w);
/* The wait cycle the grid outlines, as JSON: {"n":0} or {"n","since" (the clock it closed at),"report" (a stopped
 * run's: what the detector says of it),"steps":[[cell,lane_cell,lane_dir],...]} (emu_wait_step_t). At the end of the
 * run only: a deadlock's, as the detector reported it, or the one a run stopped at its clock limit is caught in. */
const char *iwarp_web_cycle(iwarp_web_t *w);
/* The pathway through channel lc of `cell`, hop by hop as the SDL2 view traces it (view_pathway), as JSON:
 * {"n":0} (the channel is free) or {"n","ring" (its first hop is fed over a link by its last),"hops":[[cell,lc,dir],
 * ...]}, dir the link a hop leaves on (4: none, the head). */
const char *iwarp_web_pathway(iwarp_web_t *w, int cell, int lc);
/* A cell's details as JSON: state line, program, pc, source file, line and its text, the channel table, spools,
 * links. */
const char *iwarp_web_cell(iwarp_web_t *w, int cell);

#endif
