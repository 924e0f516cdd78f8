/* The web page's API over the emulator (iwarp_web.h): demos, runs, the view model a frame is drawn from. */
#include "iwarp_web.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo.h"
#include "emu.h"
#include "run_desc.h"
#include "view_model.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define API EMSCRIPTEN_KEEPALIVE
#else
#define API
#endif

/* Where scripts/build-web.sh packages programs/ and runtime/ (--preload-file), and where a user's demo goes. */
#define WEB_ROOT "/iwarp"
#define WEB_DEMOS WEB_ROOT "/programs/demos"
#define WEB_USER "/user"

struct iwarp_web {
    demo_t demo;
    bool has_demo;
    run_desc_t desc;
    bool has_desc;
    emu_array_t *a;
    view_model_t m;
    bool has_model;
    bool over;
    emu_run_status_t status;
    uint64_t max_cycles;
    /* Each link's busy clocks at the last VIEW_UTIL_WINDOW + 1 clocks, a ring by clock: utilization over the window. */
    uint64_t *busy;
    float *util;
    uint8_t *fed;
    uint64_t narrated;      /* the clock the narrative was last asked at (UINT64_MAX: never) */
    emu_wait_cycle_t cycle; /* the detector's look at a stopped run's array, at cycle_clock (UINT64_MAX: none) */
    uint64_t cycle_clock;
    char report[4096]; /* and what it says of it */
    /* The timeline's marks: (clock, mark) pairs up to marks_to, the furthest clock run; kept when going back. */
    double *marks;
    size_t nmarks, markcap;
    uint64_t marks_to;
    char loaded[80]; /* the name the demo was loaded by (iwarp_web_load's), to build it again going back */
    char *out;       /* the last string returned */
    size_t outlen, outcap;
    char err[4096];
};

/* --- a growing string for JSON --- */

static void out_reset(iwarp_web_t *w)
{
    w->outlen = 0;
    if (w->out != NULL)
        w->out[0] = '\0';
}

static void out_printf(iwarp_web_t *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (w->outlen + (size_t)n + 1 > w->outcap) {
        size_t cap = (w->outcap ? w->outcap * 2 : 4096) + (size_t)n;
        char *grown = realloc(w->out, cap);
        if (grown == NULL)
            return;
        w->out = grown;
        w->outcap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(w->out + w->outlen, w->outcap - w->outlen, fmt, ap);
    va_end(ap);
    w->outlen += (size_t)n;
}

/* A JSON string literal of s. */
static void out_string(iwarp_web_t *w, const char *s)
{
    out_printf(w, "\"");
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            out_printf(w, "\\%c", c);
        else if (c == '\n')
            out_printf(w, "\\n");
        else if (c < 0x20)
            out_printf(w, "\\u%04x", c);
        else
            out_printf(w, "%c", c);
    }
    out_printf(w, "\"");
}

static const char *out_str(iwarp_web_t *w)
{
    return w->out != NULL ? w->out : "";
}

/* --- life --- */

API iwarp_web_t *iwarp_web_new(void)
{
    iwarp_web_t *w = calloc(1, sizeof *w);
    if (w != NULL)
        w->narrated = w->cycle_clock = UINT64_MAX;
    return w;
}

static void unload(iwarp_web_t *w)
{
    if (w->a != NULL)
        emu_array_free(w->a);
    w->a = NULL;
    if (w->has_desc)
        run_desc_free(&w->desc);
    w->has_desc = false;
    if (w->has_demo)
        demo_free(&w->demo);
    w->has_demo = false;
    if (w->has_model)
        view_model_free(&w->m);
    w->has_model = false;
    free(w->busy);
    free(w->util);
    free(w->fed);
    w->busy = NULL;
    w->util = NULL;
    w->fed = NULL;
    w->over = false;
    w->narrated = w->cycle_clock = UINT64_MAX;
}

API void iwarp_web_free(iwarp_web_t *w)
{
    if (w == NULL)
        return;
    unload(w);
    free(w->marks);
    free(w->out);
    free(w);
}

API const char *iwarp_web_error(iwarp_web_t *w)
{
    return w->err;
}

API const char *iwarp_web_palette(iwarp_web_t *w)
{
    out_reset(w);
    out_printf(w, "{\"theme\":{");
    const char *sep = "";
#define THEME(name, v) out_printf(w, "%s\"%s\":\"#%06x\"", sep, #name, (unsigned)(v)), sep = ",";
#define PATH(v)
#include "palette.def"
#undef THEME
#undef PATH
    out_printf(w, "},\"paths\":[");
    sep = "";
#define THEME(name, v)
#define PATH(v) out_printf(w, "%s\"#%06x\"", sep, (unsigned)(v)), sep = ",";
#include "palette.def"
#undef THEME
#undef PATH
    out_printf(w, "]}");
    return out_str(w);
}

API const char *iwarp_web_demos(iwarp_web_t *w)
{
    demo_t *list = NULL;
    int n = demo_list(WEB_DEMOS, &list, w->err, sizeof w->err);
    out_reset(w);
    out_printf(w, "[");
    for (int i = 0; i < n; i++) {
        out_printf(w, "%s{\"name\":", i ? "," : "");
        out_string(w, list[i].name);
        out_printf(w, ",\"title\":");
        out_string(w, list[i].title);
        out_printf(w, ",\"summary\":");
        out_string(w, list[i].summary);
        out_printf(w, "}");
    }
    out_printf(w, "]");
    if (n > 0)
        demo_list_free(list, n);
    return out_str(w);
}

/* --- loading and running --- */

/* After every clock, as the recorder does (trace/trace_write.c): the model at the clock that comes next, with the
 * marks raised in the one that ran, and the links' busy clocks for the utilization window. */
static void note_busy(iwarp_web_t *w, uint64_t clock)
{
    size_t nlinks = (size_t)w->m.l.width * w->m.l.height * COA_NUM_DIRS;
    uint64_t *row = w->busy + (clock % (VIEW_UTIL_WINDOW + 1)) * nlinks;
    for (size_t i = 0; i < nlinks; i++)
        row[i] = view_link(&w->m, w->m.slots + i / COA_NUM_DIRS * w->m.l.cell_slots,
                           (unsigned)(i % COA_NUM_DIRS))[VM_LINK_BUSY];
}

/* The marks raised in the clock that ran (the model's VM_MARK_CLOCK is that clock plus one), once: a run again to a
 * clock already run finds the same ones. */
static void note_marks(iwarp_web_t *w, uint64_t clock)
{
    if (clock <= w->marks_to)
        return;
    w->marks_to = clock;
    size_t ncells = (size_t)w->m.l.width * w->m.l.height;
    for (size_t c = 0; c < ncells; c++) {
        const uint64_t *cell = w->m.slots + c * w->m.l.cell_slots;
        if (cell[VM_MARK_CLOCK] != clock)
            continue;
        if (w->nmarks + 2 > w->markcap) {
            size_t cap = w->markcap ? w->markcap * 2 : 256;
            double *grown = realloc(w->marks, cap * sizeof *grown);
            if (grown == NULL)
                return;
            w->marks = grown;
            w->markcap = cap;
        }
        w->marks[w->nmarks++] = (double)clock;
        w->marks[w->nmarks++] = (double)(uint32_t)cell[VM_MARK];
    }
}

static bool after_clock(void *user, emu_array_t *a, uint64_t clock)
{
    iwarp_web_t *w = user;
    view_model_update(&w->m, a, clock + 1, true, NULL);
    note_busy(w, clock + 1);
    note_marks(w, clock + 1);
    return false;
}

static void print_output(void *user, unsigned x, unsigned y, const char *text)
{
    (void)user;
    printf("[%u,%u] %s\n", x, y, text);
}

/* The demo in w->demo: its run description parsed and built, the model at clock 0. */
static int build(iwarp_web_t *w)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    FILE *errs = fmemopen(w->err, sizeof w->err - 1, "w");
    int rc = run_desc_parse_file(w->demo.run_path, &m, &w->desc, errs != NULL ? errs : stderr);
    w->has_desc = rc == 0;
    if (rc == 0) {
        /* The builder says what went wrong on stderr (an assembler's diagnostics): the page shows it under this. */
        rc = run_desc_build(&w->desc, NULL, 0, NULL, 0, &w->a);
        if (rc != 0 && w->err[0] == '\0')
            snprintf(w->err, sizeof w->err, "%s: the programs did not build:", w->demo.run_path);
    }
    if (errs != NULL)
        fclose(errs);
    if (rc != 0)
        return -1;
    emu_array_set_output(w->a, print_output, NULL);
    w->max_cycles = w->desc.max_cycles;
    view_layout_t l;
    view_layout_from_machine(&l, emu_array_machine(w->a));
    size_t ncells = (size_t)l.width * l.height;
    if (view_model_init(&w->m, &l) != 0)
        return snprintf(w->err, sizeof w->err, "out of memory"), -1;
    w->has_model = true;
    w->busy = calloc((VIEW_UTIL_WINDOW + 1) * ncells * COA_NUM_DIRS, sizeof *w->busy);
    w->util = calloc(ncells * COA_NUM_DIRS, sizeof *w->util);
    w->fed = calloc(ncells * l.channels, 1);
    if (w->busy == NULL || w->util == NULL || w->fed == NULL)
        return snprintf(w->err, sizeof w->err, "out of memory"), -1;
    view_model_update(&w->m, w->a, emu_array_clock(w->a), false, NULL);
    note_busy(w, w->m.clock);
    emu_hooks_t hooks = {.user = w, .after_clock = after_clock};
    emu_array_set_hooks(w->a, &hooks);
    return 0;
}

/* Loads a demo by name; `again`: the same demo once more (going back), whose marks stay. */
static int load(iwarp_web_t *w, const char *name, bool again)
{
    unload(w);
    if (!again) {
        w->nmarks = 0;
        w->marks_to = 0;
    }
    w->err[0] = '\0';
    /* Kept past unload(): iwarp_web_seek builds the demo again by it (its caller passes a copy). */
    snprintf(w->loaded, sizeof w->loaded, "%s", name);
    const char *dir = WEB_DEMOS;
    if (strchr(name, '/') != NULL)
        return snprintf(w->err, sizeof w->err, "%s: a demo's name, not a path", name), -1;
    if (strncmp(name, "user:", 5) == 0) {
        dir = WEB_USER;
        name += 5;
    }
    w->has_demo = true;
    if (demo_load(&w->demo, dir, name, w->err, sizeof w->err) != 0)
        return -1;
    if (build(w) != 0)
        return -1;
    return 0;
}

API int iwarp_web_load(iwarp_web_t *w, const char *name)
{
    return load(w, name, false);
}

static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return snprintf(err, errlen, "%s: cannot write", path), -1;
    size_t n = strlen(text);
    int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
    if (fclose(f) != 0 || rc != 0)
        return snprintf(err, errlen, "%s: cannot write", path), -1;
    return 0;
}

API int iwarp_web_load_text(iwarp_web_t *w, const char *name, const char *txt, const char *run, const char *prog)
{
    unload(w);
    w->err[0] = '\0';
    if (name[0] == '\0' || strchr(name, '/') != NULL || strlen(name) > 64)
        return snprintf(w->err, sizeof w->err, "'%s': a name of a few letters, no '/'", name), -1;
    mkdir(WEB_USER, 0755);
    char path[128];
    static const char *const ext[3] = {"txt", "run", "s"};
    const char *text[3] = {txt, run, prog};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s.%s", WEB_USER, name, ext[i]);
        if (write_file(path, text[i], w->err, sizeof w->err) != 0)
            return -1;
    }
    char user[80];
    snprintf(user, sizeof user, "user:%s", name);
    return iwarp_web_load(w, user);
}

API double iwarp_web_step(iwarp_web_t *w, double n)
{
    if (w->a == NULL)
        return 0;
    uint64_t now = emu_array_clock(w->a);
    if (w->over || n < 1)
        return (double)now;
    uint64_t target = now + (uint64_t)n;
    if (target > w->max_cycles)
        target = w->max_cycles;
    emu_run_status_t st = emu_array_run(w->a, target);
    if (st != EMU_RUN_LIMIT || emu_array_clock(w->a) >= w->max_cycles) {
        w->over = true;
        w->status = st;
    }
    return (double)emu_array_clock(w->a);
}

API double iwarp_web_seek(iwarp_web_t *w, double n)
{
    if (w->a == NULL || n < 0)
        return -1;
    uint64_t now = emu_array_clock(w->a), target = (uint64_t)n;
    if (target < now) {
        /* Reset and run: no snapshot to keep, and exact (docs/web.md measures what it costs). The narrative keeps
         * the clock it was last asked at, so that going back does not count as coming into a paragraph. */
        uint64_t narrated = w->narrated;
        char name[sizeof w->loaded];
        memcpy(name, w->loaded, sizeof name);
        if (load(w, name, true) != 0)
            return -1;
        w->narrated = narrated;
        now = 0;
    }
    return target > now ? iwarp_web_step(w, (double)(target - now)) : (double)now;
}

API double iwarp_web_clock(iwarp_web_t *w)
{
    return w->a != NULL ? (double)emu_array_clock(w->a) : 0;
}

API const char *iwarp_web_status(iwarp_web_t *w)
{
    return !w->over ? "running" : emu_run_status_name(w->status);
}

API const char *iwarp_web_hash(iwarp_web_t *w)
{
    out_reset(w);
    if (w->a != NULL)
        out_printf(w, "%016" PRIx64, emu_array_hash(w->a, true, true));
    return out_str(w);
}

/* --- the frame --- */

API const char *iwarp_web_layout(iwarp_web_t *w)
{
    out_reset(w);
    if (!w->has_model)
        return "{}";
    const view_layout_t *l = &w->m.l;
    out_printf(w,
               "{\"width\":%u,\"height\":%u,\"channels\":%u,\"spools\":%u,\"queue_depth\":%u,\"link_clocks\":%u,"
               "\"hop_latency\":%u,\"link0\":%u,\"lc0\":%u,\"spool0\":%u,\"regs0\":%u,\"cell_slots\":%u,",
               l->width, l->height, l->channels, l->spools, l->queue_depth, l->link_clocks, l->hop_latency, l->link0,
               l->lc0, l->spool0, l->regs0, l->cell_slots);
    out_printf(w, "\"max_cycles\":%" PRIu64 ",\"title\":", w->max_cycles);
    out_string(w, w->demo.title);
    out_printf(w, ",\"select\":%d,\"speed\":%g,\"has_program\":[",
               w->demo.select_x >= 0 ? w->demo.select_y * (int)l->width + w->demo.select_x : -1,
               w->demo.has_speed ? w->demo.speed : 20.0);
    for (unsigned y = 0; y < l->height; y++)
        for (unsigned x = 0; x < l->width; x++)
            out_printf(w, "%s%d", x || y ? "," : "", emu_array_ca(w->a, x, y)->prog != NULL);
    /* The links' names as the agent's table writes them (the panel's "link +X" rows). */
    out_printf(w, "],\"dir_names\":[");
    for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
        out_printf(w, "%s", d ? "," : "");
        out_string(w, coa_dir_name((coa_dir_t)d));
    }
    /* The numbers the page decodes the slots with: the enums of the view model's fields. */
    out_printf(w,
               "],\"enum\":{\"CA_IDLE\":%d,\"CA_RUNNING\":%d,\"CA_WAITING\":%d,\"CA_HALTED\":%d,\"CA_FAULTED\":%d,"
               "\"LC_FREE\":%d,\"LC_HEADER\":%d,\"LC_ROUTED\":%d,\"LC_DRAINING\":%d,\"LC_ARRIVED\":%d,"
               "\"END_NONE\":%d,\"END_LINK\":%d,\"DIR_PX\":%d,\"DIR_MX\":%d,\"DIR_PY\":%d,\"DIR_MY\":%d,"
               "\"VM_CA\":%d,\"VM_PC\":%d,\"VM_LINK_WORDS\":%d,\"VM_LINK_BUSY\":%d,\"VM_LINK_SENT\":%d,"
               "\"VM_LINK_LC\":%d,\"VM_LINK_SLOTS\":%d,\"VM_LC_A\":%d,\"VM_LC_ENDS\":%d,\"VM_LC_PATH\":%d,"
               "\"VM_LC_SLOTS\":%d,\"MARK_SEND\":%d,\"MARK_PHASE\":%d}}",
               CA_IDLE, CA_RUNNING, CA_WAITING, CA_HALTED, CA_FAULTED, COA_LC_FREE, COA_LC_HEADER, COA_LC_ROUTED,
               COA_LC_DRAINING, COA_LC_ARRIVED, COA_END_NONE, COA_END_LINK, COA_DIR_PX, COA_DIR_MX, COA_DIR_PY,
               COA_DIR_MY, VM_CA, VM_PC, VM_LINK_WORDS, VM_LINK_BUSY, VM_LINK_SENT, VM_LINK_LC, VM_LINK_SLOTS, VM_LC_A,
               VM_LC_ENDS, VM_LC_PATH, VM_LC_SLOTS, EMU_MARK_MSG_SEND, EMU_MARK_PHASE);
    return out_str(w);
}

API const uint64_t *iwarp_web_slots(iwarp_web_t *w)
{
    return w->has_model ? w->m.slots : NULL;
}

API const float *iwarp_web_util(iwarp_web_t *w)
{
    if (!w->has_model)
        return NULL;
    size_t nlinks = (size_t)w->m.l.width * w->m.l.height * COA_NUM_DIRS;
    uint64_t clock = w->m.clock, past = clock > VIEW_UTIL_WINDOW ? clock - VIEW_UTIL_WINDOW : 0, span = clock - past;
    const uint64_t *now = w->busy + (clock % (VIEW_UTIL_WINDOW + 1)) * nlinks;
    const uint64_t *then = w->busy + (past % (VIEW_UTIL_WINDOW + 1)) * nlinks;
    for (size_t i = 0; i < nlinks; i++) {
        /* Busy clocks are counted when a word leaves (link_clocks at once), so the window can run ahead. */
        float u = span > 0 ? (float)(now[i] - then[i]) / (float)span : 0;
        w->util[i] = u > 1 ? 1 : u;
    }
    return w->util;
}

API const uint8_t *iwarp_web_fed(iwarp_web_t *w)
{
    if (!w->has_model)
        return NULL;
    view_model_fed(&w->m, w->fed);
    return w->fed;
}

API const double *iwarp_web_marks(iwarp_web_t *w)
{
    return w->marks;
}

API int iwarp_web_nmarks(iwarp_web_t *w)
{
    return (int)(w->nmarks / 2);
}

API const char *iwarp_web_narrative(iwarp_web_t *w)
{
    out_reset(w);
    const char *s = w->has_demo ? w->demo.narrative : NULL;
    uint64_t clock = w->has_model ? w->m.clock : 0;
    const char *sep = "";
    while (s != NULL && *s != '\0') {
        const char *end = strstr(s, "\n\n");
        size_t n = end ? (size_t)(end - s) : strlen(s), skip;
        /* Paragraphs may belong to a range of clocks (tools/view/demo.h): the story follows the run. */
        if (demo_paragraph_shows(s, n, clock, &skip)) {
            out_printf(w, "%s%.*s", sep, (int)(n - skip), s + skip);
            sep = "\n\n";
        }
        s += n;
        while (*s == '\n')
            s++;
    }
    if (w->has_model && w->m.clock > 0 && w->over && w->status == EMU_RUN_DEADLOCK) {
        const char *cycle = emu_array_deadlock(w->a);
        out_printf(w, "%sDEADLOCK at clock %" PRIu64 "\n%s", sep, w->m.clock, cycle != NULL ? cycle : "");
    }
    return out_str(w);
}

API int iwarp_web_narrative_select(iwarp_web_t *w)
{
    if (!w->has_demo || !w->has_model)
        return -1;
    int x, y;
    bool entered = demo_select_entered(w->demo.narrative, w->narrated, w->m.clock, &x, &y);
    w->narrated = w->m.clock;
    if (!entered || x < 0 || y < 0 || (unsigned)x >= w->m.l.width || (unsigned)y >= w->m.l.height)
        return -1;
    return y * (int)w->m.l.width + x;
}

API const char *iwarp_web_cycle(iwarp_web_t *w)
{
    out_reset(w);
    if (w->a == NULL || !w->over)
        return "{\"n\":0}";
    /* At the end of the run only, as the SDL2 view outlines it at the end of a live run: a deadlock's cycle as the
     * detector reported it, or the one a run stopped at its clock limit is caught in. Not paused mid-run: the
     * detector's look at the array as it stands also takes words and credits on the wire for waits (the round robin
     * demo at clock 110: a channel with a word "waiting for room" downstream, the channel downstream "empty, fed
     * by" it), which the page would show as cycles in four of the seven demos at the clocks of their pictures. */
    const emu_wait_cycle_t *c = NULL;
    if (w->status == EMU_RUN_DEADLOCK) {
        c = emu_array_deadlock_cycle(w->a);
        w->report[0] = '\0';
    } else {
        if (w->cycle_clock != emu_array_clock(w->a)) {
            if (!emu_array_find_wait_cycle(w->a, &w->cycle, w->report, sizeof w->report))
                w->cycle.n = 0;
            w->cycle_clock = emu_array_clock(w->a);
        }
        c = &w->cycle;
    }
    if (c == NULL || c->n == 0)
        return "{\"n\":0}";
    out_printf(w, "{\"n\":%u,\"since\":%" PRIu64 ",\"report\":", c->n, c->closed_at);
    out_string(w, w->report);
    out_printf(w, ",\"steps\":[");
    for (unsigned k = 0; k < c->n; k++)
        out_printf(w, "%s[%u,%u,%u]", k ? "," : "", c->step[k].cell, c->step[k].lane_cell, c->step[k].lane_dir);
    out_printf(w, "]}");
    return out_str(w);
}

API const char *iwarp_web_pathway(iwarp_web_t *w, int cell, int lc)
{
    out_reset(w);
    const view_model_t *m = &w->m;
    if (!w->has_model || cell < 0 || (size_t)cell >= (size_t)m->l.width * m->l.height || lc < 0 ||
        (unsigned)lc >= m->l.channels)
        return "{\"n\":0}";
    /* As many as the SDL2 view's render_frame() traces (a pathway passes a cell at most once per direction). */
    static view_hop_t hops[COA_NUM_DIRS * EMU_MAX_DIM * EMU_MAX_DIM];
    unsigned n = view_pathway(m, (unsigned)cell, (unsigned)lc, hops, sizeof hops / sizeof hops[0]);
    if (n == 0)
        return "{\"n\":0}";
    size_t up;
    bool ring = view_lc_upstream(m, view_lc_slot(m, hops[0].cell, hops[0].lc), &up);
    out_printf(w, "{\"n\":%u,\"ring\":%s,\"hops\":[", n, ring ? "true" : "false");
    for (unsigned k = 0; k < n; k++) {
        view_lc_info_t li;
        view_lc_unpack(m, m->slots + (size_t)hops[k].cell * m->l.cell_slots, hops[k].lc, &li);
        unsigned dir = k + 1 < n && li.route.kind == COA_END_LINK ? li.route.dir : COA_NUM_DIRS;
        out_printf(w, "%s[%u,%u,%u]", k ? "," : "", hops[k].cell, hops[k].lc, dir);
    }
    out_printf(w, "]}");
    return out_str(w);
}

/* Line `line` (from 1) of a source file, without its indentation, as the SDL2 panel shows it under the pc. The
 * files are in the page's file system (the packaged programs, a user's demo), read again each time: a few kB. */
static bool source_line(const char *path, unsigned line, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    unsigned at = 1;
    bool found = false;
    while (fgets(buf, (int)cap, f) != NULL) {
        size_t n = strlen(buf);
        bool whole = n > 0 && buf[n - 1] == '\n';
        if (at == line) {
            buf[strcspn(buf, "\r\n")] = '\0';
            size_t skip = strspn(buf, " \t");
            memmove(buf, buf + skip, strlen(buf + skip) + 1);
            found = true;
            break;
        }
        at += whole;
    }
    fclose(f);
    return found;
}

API const char *iwarp_web_cell(iwarp_web_t *w, int idx)
{
    out_reset(w);
    if (!w->has_model || idx < 0 || (size_t)idx >= (size_t)w->m.l.width * w->m.l.height)
        return "{}";
    const view_model_t *m = &w->m;
    const view_layout_t *l = &m->l;
    unsigned x = (unsigned)idx % l->width, y = (unsigned)idx / l->width;
    const uint64_t *cell = view_cell(m, x, y);
    const ca_t *ca = emu_array_ca(w->a, x, y);
    char buf[512];
    unsigned state = (unsigned)(cell[VM_CA] & 0xff);
    view_ca_describe(cell, ca->prog != NULL, buf, sizeof buf);
    out_printf(w, "{\"x\":%u,\"y\":%u,\"state\":", x, y);
    out_string(w, buf);
    if (state == CA_FAULTED) {
        emu_format_fault(w->a, x, y, buf, sizeof buf);
        out_printf(w, ",\"fault\":");
        out_string(w, buf);
    }
    uint32_t pc = (uint32_t)cell[VM_PC];
    out_printf(w, ",\"pc\":%" PRIu32, pc);
    if (ca->prog != NULL && ca->prog->image.nfiles > 0) {
        /* The program's name as the SDL2 panel's heading has it: its first file, which includes the others. */
        const char *first = ca->prog->image.files[0], *base = strrchr(first, '/');
        out_printf(w, ",\"program\":");
        out_string(w, base != NULL ? base + 1 : first);
    }
    const isa_line_t *ln = ca->prog != NULL ? isa_image_line(&ca->prog->image, pc) : NULL;
    if (ln != NULL && ln->file < ca->prog->image.nfiles) {
        const char *file = ca->prog->image.files[ln->file], *base = strrchr(file, '/');
        out_printf(w, ",\"line\":%" PRIu32 ",\"file\":", ln->line);
        out_string(w, base != NULL ? base + 1 : file);
        if (source_line(file, ln->line, buf, sizeof buf)) {
            out_printf(w, ",\"text\":");
            out_string(w, buf);
        }
    }
    out_printf(w, ",\"channels\":[");
    const char *sep = "";
    for (unsigned lc = 0; lc < l->channels; lc++) {
        view_lc_info_t li;
        view_lc_unpack(m, cell, lc, &li);
        if (li.state == COA_LC_FREE && li.count == 0)
            continue;
        char rt[24], sr[24];
        out_printf(w,
                   "%s{\"lc\":%u,\"state\":\"%s\",\"route\":\"%s\",\"source\":\"%s\",\"count\":%u,\"credits\":%u,"
                   "\"wait\":\"%s\",\"path\":%" PRIu64 "}",
                   sep, lc, coa_lc_state_name((coa_lc_state_t)li.state), view_end_name(li.route, true, rt, sizeof rt),
                   view_end_name(li.source, false, sr, sizeof sr), li.count, li.credits,
                   li.wait ? coa_wait_name((coa_wait_t)li.wait) : "", li.path);
        sep = ",";
    }
    out_printf(w, "],\"spools\":[");
    sep = "";
    for (unsigned s = 0; s < l->spools; s++) {
        const uint64_t *sp = view_spool(m, cell, s);
        unsigned mode = (unsigned)(sp[VM_SP_A] & 0xff), lc = (unsigned)(sp[VM_SP_A] >> 8 & 0xff);
        if (mode == COA_SPOOL_IDLE)
            continue;
        out_printf(w, "%s{\"spool\":%u,\"mode\":\"%s\",\"lc\":%d,\"left\":%" PRIu64 ",\"moved\":%" PRIu64 "}", sep, s,
                   mode == COA_SPOOL_SEND ? "send" : "recv", lc == COA_NONE ? -1 : (int)lc, sp[VM_SP_A] >> 32,
                   sp[VM_SP_WORDS]);
        sep = ",";
    }
    out_printf(w, "],\"links\":[");
    for (unsigned d = 0; d < COA_NUM_DIRS; d++)
        out_printf(w, "%s%" PRIu64, d ? "," : "", view_link(m, cell, d)[VM_LINK_WORDS]);
    out_printf(w, "]}");
    return out_str(w);
}
