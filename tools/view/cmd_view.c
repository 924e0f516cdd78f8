/* iwarp view: a window on a live run or a recording; frames without a display; the frame-rate bench. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "commands.h"
#include "demo.h"
#include "file.h"
#include "run_desc.h"
#include "view_cli.h"

static void usage(FILE *out, const char *who)
{
    fprintf(out,
            "usage: iwarp %s [options] %s\n"
            "Shows a run in a window: live (the program or run description runs as it is shown; docs/run.md) or\n"
            "a recording made by `iwarp run --record FILE` (docs/trace.md). Keys: H in the window (docs/viewer.md).\n"
            "  --array WxH, --args A,B,..., --machine FILE, --set KEY=VALUE, -D NAME=VALUE, -I DIR,\n"
            "  --max-cycles N      as for iwarp run (live only)\n"
            "  --speed N           clocks per second to start with (default 20; 0: full speed)\n"
            "  --paused            start paused\n"
            "  --select X,Y        show this cell's details\n"
            "  --channel N         with --select: trace the pathway through that cell's channel N on the grid\n"
            "                      (keys [ ] and Tab, or a click on its row in the panel)\n"
            "  --zoom Z            cells Z times larger than fit (1..16; keys I, O, 0 and the wheel)\n"
            "  --center X,Y        the cell in the middle of the grid when zoomed\n"
            "  --scale N           text and panels N times larger, for a projector (1..4; keys + -)\n"
            "  --size WxH          window or image size (default 1280x800)\n"
            "  --screenshot FILE   draw one frame without a display, write it as PNG and quit\n"
            "  --at N              the clock of that frame (default: the end of the run)\n"
            "  --animation FILE    draw clocks --from A (default 0) --to B (default: the end) every --step N\n"
            "                      clocks (default: 100 frames) without a display, as an animated GIF shown at\n"
            "                      --rate F frames a second (default 10), for slides\n"
            "  --help-overlay      show the keyboard help (also in screenshots)\n"
            "  --no-legend         hide the legend\n"
            "  --fps               show the frame rate\n"
            "  --bench-frames N    play at full speed for N frames, print the frame rate and quit\n"
            "  --headless          with --bench-frames: draw offscreen, without a window\n"
            "  --record FILE       (live) write the recording to FILE when the window closes\n"
            "  --title TEXT        the title shown (default: the file's name)\n"
            "  --narrative FILE    text shown in the side panel (paragraphs apart by blank lines)\n"
            "  --font-dir DIR      where DejaVuSans.ttf and DejaVuSansMono.ttf are\n"
            "  --log FILE          a line per change of what is shown (clock, play state; for tests)\n"
            "%s"
            "Exit status: 0, 1 when the recording is damaged, 2 on bad usage, input or no display.\n",
            who, strcmp(who, "view") == 0 ? "PROGRAM.s|PROGRAM.img|DESCRIPTION.run|RECORDING" : "NAME|FOLDER/NAME.txt",
            strcmp(who, "demo") == 0
                ? "iwarp demo NAME --web DIR [--page BUILT]: writes the web page (docs/web.md) with\n"
                  "  demo NAME preselected into the new or empty folder DIR, for a course site\n"
                : "");
}

/* "AxB" with both in 1..max. */
/* A factor of 1..max (fractions too): false when s is not one. */
static bool factor_of(const char *s, float max, float *out)
{
    char *end;
    double z = strtod(s, &end);
    *out = (float)z;
    return end != s && *end == '\0' && z >= 1 && z <= max;
}

static bool pair_of(const char *s, char sep, unsigned max, unsigned *a, unsigned *b)
{
    char *end;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || *end != sep)
        return false;
    const char *t = end + 1;
    unsigned long y = strtoul(t, &end, 10);
    if (end == t || *end != '\0' || x > max || y > max)
        return false;
    *a = (unsigned)x;
    *b = (unsigned)y;
    return true;
}

/* --select and --center say the range in their messages as text */
_Static_assert(EMU_MAX_DIM == 32, "the --select and --center messages say 0..31");
_Static_assert(COA_MAX_CHANNELS == 64, "the --channel message says 0..63");

static bool number(const char *s, uint64_t *v)
{
    return emu_parse_count(s, v) == 0;
}

static char *slurp(const char *path)
{
    view_bytes_t b = {0};
    if (view_read_file(path, &b, 1u << 20, true, NULL, 0) != 0) {
        view_bytes_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

int view_cli_parse(view_cli_t *c, int argc, char **argv, const char *who, bool need_file)
{
    enum {
        O_SPEED = 256,
        O_PAUSED,
        O_SELECT,
        O_SIZE,
        O_SHOT,
        O_AT,
        O_HELPO,
        O_NOLEGEND,
        O_FPS,
        O_BENCH,
        O_HEADLESS,
        O_RECORD,
        O_TITLE,
        O_NARR,
        O_FONTS,
        O_LOG,
        O_ZOOM,
        O_SCALE,
        O_CENTER,
        O_ANIM,
        O_FROM,
        O_TO,
        O_STEP,
        O_AFPS,
        O_CHANNEL,
        O_HELP,
    };
    static const struct option opts[] = {
        PROGRAM_LONG_OPTIONS,
        {"speed", required_argument, NULL, O_SPEED},
        {"paused", no_argument, NULL, O_PAUSED},
        {"select", required_argument, NULL, O_SELECT},
        {"size", required_argument, NULL, O_SIZE},
        {"screenshot", required_argument, NULL, O_SHOT},
        {"at", required_argument, NULL, O_AT},
        {"help-overlay", no_argument, NULL, O_HELPO},
        {"no-legend", no_argument, NULL, O_NOLEGEND},
        {"fps", no_argument, NULL, O_FPS},
        {"bench-frames", required_argument, NULL, O_BENCH},
        {"headless", no_argument, NULL, O_HEADLESS},
        {"record", required_argument, NULL, O_RECORD},
        {"title", required_argument, NULL, O_TITLE},
        {"narrative", required_argument, NULL, O_NARR},
        {"font-dir", required_argument, NULL, O_FONTS},
        {"log", required_argument, NULL, O_LOG},
        {"zoom", required_argument, NULL, O_ZOOM},
        {"scale", required_argument, NULL, O_SCALE},
        {"animation", required_argument, NULL, O_ANIM},
        {"from", required_argument, NULL, O_FROM},
        {"to", required_argument, NULL, O_TO},
        {"step", required_argument, NULL, O_STEP},
        {"rate", required_argument, NULL, O_AFPS},
        {"center", required_argument, NULL, O_CENTER},
        {"channel", required_argument, NULL, O_CHANNEL},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(c, 0, sizeof *c);
    viewer_opts_defaults(&c->v);
    program_options_init(&c->p);
    cli_opts_t cli;
    cli_opts_start(&cli, who, argc, argv, PROGRAM_SHORT_OPTIONS "h", opts);
    int o;
    uint64_t n = 0;
    while ((o = cli_opts_next(&cli)) != -1) {
        int took = program_options_take(&c->p, o, optarg, who); /* --threads: a viewed array runs on one */
        if (took != 0) {
            if (took < 0)
                return -1;
            continue;
        }
        const char *bad = NULL;
        switch (o) {
        case O_SPEED: {
            char *end;
            c->v.speed = strtod(optarg, &end);
            /* "nan" passed "speed < 0", and "" read as 0 (full speed) */
            if (end == optarg || *end != '\0' || !isfinite(c->v.speed) || c->v.speed < 0)
                bad = "--speed wants clocks per second, a finite number 0 or more (0: full speed)";
            c->speed_given = true;
            break;
        }
        case O_PAUSED:
            c->v.paused = true;
            c->paused_given = true;
            break;
        case O_SELECT: {
            unsigned x = 0, y = 0;
            if (!pair_of(optarg, ',', EMU_MAX_DIM - 1, &x, &y))
                bad = "--select wants X,Y of a cell, each 0..31";
            c->v.select = (int)(y * 1000 + x); /* resolved against the array's width once it is known */
            c->select_given = true;
            break;
        }
        case O_SIZE: {
            unsigned w = 0, h = 0;
            if (!pair_of(optarg, 'x', 8192, &w, &h) || w < 320 || h < 200)
                bad = "--size wants WxH, 320..8192 x 200..8192";
            c->v.width = (int)w;
            c->v.height = (int)h;
            break;
        }
        case O_SHOT: c->screenshot = optarg; break;
        case O_AT:
            if (!number(optarg, &c->at))
                bad = "--at wants a clock 0..2^64-1";
            c->at_given = true;
            break;
        case O_HELPO: c->v.help = true; break;
        case O_NOLEGEND: c->v.legend = false; break;
        case O_FPS: c->v.fps = true; break;
        case O_BENCH:
            if (!number(optarg, &n) || n == 0 || n > 1000000)
                bad = "--bench-frames wants 1..1000000";
            c->v.bench_frames = (unsigned)n;
            break;
        case O_HEADLESS: c->v.headless = true; break;
        case O_RECORD: c->v.record = optarg; break;
        case O_TITLE: c->v.title = optarg; break;
        case O_NARR:
            free(c->narrative_owned);
            c->narrative_owned = slurp(optarg);
            if (c->narrative_owned == NULL)
                bad = "--narrative: cannot read the file";
            c->v.narrative = c->narrative_owned;
            break;
        case O_FONTS: c->v.font_dir = optarg; break;
        case O_LOG: c->v.log_path = optarg; break;
        case O_ANIM: c->animation = optarg; break;
        case O_FROM:
            if (!number(optarg, &c->from))
                bad = "--from wants a clock 0..2^64-1";
            break;
        case O_TO:
            if (!number(optarg, &c->to))
                bad = "--to wants a clock 0..2^64-1";
            c->to_given = true;
            break;
        case O_STEP:
            if (!number(optarg, &c->step) || c->step == 0)
                bad = "--step wants 1..2^64-1 clocks";
            break;
        case O_AFPS: {
            char *end;
            c->anim_fps = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || !(c->anim_fps >= 1 && c->anim_fps <= 50))
                bad = "--rate wants 1..50 frames a second";
            break;
        }
        case O_SCALE:
            if (!factor_of(optarg, VIEW_MAX_SCALE, &c->v.scale))
                bad = "--scale wants 1..4";
            break;
        case O_ZOOM:
            if (!factor_of(optarg, VIEW_MAX_ZOOM, &c->v.zoom))
                bad = "--zoom wants 1..16";
            break;
        case O_CENTER: {
            unsigned x = 0, y = 0;
            if (!pair_of(optarg, ',', EMU_MAX_DIM - 1, &x, &y))
                bad = "--center wants X,Y of a cell, each 0..31";
            /* the middle of cell (x, y) */
            c->v.view_x = (float)x + 0.5f;
            c->v.view_y = (float)y + 0.5f;
            break;
        }
        case O_CHANNEL:
            /* the array's channel count is known once the run is built (view_cli_run) */
            if (!number(optarg, &n) || n >= COA_MAX_CHANNELS)
                bad = "--channel wants a logical channel 0..63";
            c->v.channel = (int)n;
            break;
        case O_HELP:
        case 'h': usage(stdout, who); return 1;
        default: usage(stderr, who); return -1;
        }
        if (bad != NULL) {
            fprintf(stderr, "iwarp %s: %s, not '%s'\n", who, bad, optarg);
            return -1;
        }
    }
    if (optind < argc)
        c->p.file = argv[optind++];
    if (optind < argc || (need_file && c->p.file == NULL)) {
        usage(stderr, who);
        return -1;
    }
    if (c->v.headless && c->v.bench_frames == 0) {
        fprintf(stderr, "iwarp %s: --headless goes with --bench-frames (--screenshot never needs a display)\n", who);
        return -1;
    }
    return 0;
}

void view_cli_free(view_cli_t *c)
{
    free(c->narrative_owned);
    c->narrative_owned = NULL;
}

static void print_output(void *user, unsigned x, unsigned y, const char *text)
{
    (void)user;
    printf("[%u,%u] %s\n", x, y, text);
}

/* The array of a live view: the machine from --machine and --set, then the description or the program. */
static int build_array(view_cli_t *c, const char *who, run_desc_t *desc, emu_array_t **out)
{
    bool described = run_desc_is_path(c->p.file);
    emu_machine_t m;
    if (run_machine_of_options(&m, !described, c->p.machine_file, c->p.sets, c->p.nsets, who) != 0)
        return -1;
    if (described) {
        if (c->p.nargs > 0 || c->p.array_given) {
            fprintf(stderr, "iwarp %s: --args and --array do not go with a run description (its lines give them)\n",
                    who);
            return -1;
        }
        if (run_desc_parse_file(c->p.file, &m, desc, stderr) != 0)
            return -1;
    } else {
        if (c->p.array_given) {
            m.width = c->p.width;
            m.height = c->p.height;
        }
        if (run_desc_single(desc, c->p.file, &m, c->p.args, c->p.nargs) != 0) {
            fprintf(stderr, "iwarp %s: out of memory\n", who);
            return -1;
        }
    }
    if (c->p.max_given)
        desc->max_cycles = c->p.max_cycles;
    if (run_desc_build(desc, c->p.defines, c->p.ndefines, c->p.includes, c->p.nincludes, out) != 0)
        return -1;
    /* A screenshot is a picture: the program's lines would only be noise, and of the whole run, not up to the
     * frame's clock (the live source runs ahead). */
    if (c->screenshot == NULL)
        emu_array_set_output(*out, print_output, NULL);
    return 0;
}

/* Refuses a picture, animation or recording written over what is shown (the recording, description or program,
 * its machine file) or over one another. */
static int outputs_not_inputs(const view_cli_t *c, const char *who)
{
    const char *outputs[] = {c->screenshot, c->animation, c->v.record};
    const char *inputs[] = {c->p.file, c->p.machine_file, c->screenshot, c->animation, c->v.record};
    char err[1024];
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        /* the inputs, and the outputs before this one */
        if (outputs[i] != NULL && file_out_not_input(outputs[i], inputs, 2 + i, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp %s: %s\n", who, err);
            return -1;
        }
    }
    return 0;
}

int view_cli_run(view_cli_t *c, const char *who)
{
    if (outputs_not_inputs(c, who) != 0)
        return 2;
    view_source_t *src = calloc(1, sizeof *src);
    if (src == NULL)
        return 2;
    char err[512];
    emu_array_t *a = NULL;
    run_desc_t desc;
    memset(&desc, 0, sizeof desc);
    bool replay = view_trace_is_recording(c->p.file);
    bool damaged = false;
    int rc = 2;
    size_t flen = strlen(c->p.file);
    if (!replay && flen > 4 && strcmp(c->p.file + flen - 4, ".iwt") == 0) {
        /* Named as a recording but not one: assembling its bytes would only bury that under errors. */
        fprintf(stderr, "iwarp %s: %s is not a recording (it does not start with \"%s\")\n", who, c->p.file,
                VIEW_TRACE_MAGIC);
        goto out;
    }
    if (replay) {
        if (c->p.nargs > 0 || c->p.array_given || c->p.nsets > 0 || c->p.machine_file != NULL || c->p.ndefines > 0) {
            fprintf(stderr, "iwarp %s: a recording is shown as it was run: no --args, --array, --set, --machine, -D\n",
                    who);
            goto out;
        }
        if (view_source_replay(src, c->p.file, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp %s: %s\n", who, err);
            rc = 1; /* a recording, but damaged (--help) */
            goto out;
        }
        const view_trace_t *t = &src->trace;
        damaged = t->damaged || !t->ended;
        if (damaged)
            fprintf(stderr, "iwarp %s: warning: %s: %s; it plays to clock %llu, its last whole record\n", who,
                    c->p.file, t->damaged ? t->error : "the recording has no end (cut short)",
                    (unsigned long long)t->last_clock);
    } else {
        if (build_array(c, who, &desc, &a) != 0)
            goto out;
        if (view_source_live(src, a, desc.max_cycles, c->p.file, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp %s: %s\n", who, err);
            goto out;
        }
    }
    const view_layout_t *l = &src->trace.st.l;
    if (c->v.select >= 0) {
        unsigned x = (unsigned)c->v.select % 1000, y = (unsigned)c->v.select / 1000;
        if (x >= l->width || y >= l->height) {
            fprintf(stderr, "iwarp %s: --select %u,%u is outside the %ux%u array\n", who, x, y, l->width, l->height);
            goto out;
        }
        c->v.select = (int)(y * l->width + x);
    }
    if (c->v.channel >= 0 && (unsigned)c->v.channel >= l->channels) {
        fprintf(stderr, "iwarp %s: --channel %d: the array's cells have channels 0..%u\n", who, c->v.channel,
                l->channels - 1);
        goto out;
    }
    if (c->v.channel >= 0 && c->v.select < 0 && c->v.narrative == NULL) {
        fprintf(stderr, "iwarp %s: --channel goes with --select X,Y (the cell whose channel it is)\n", who);
        goto out;
    }
    int bad_x, bad_y;
    if (c->v.narrative != NULL && !demo_selects_fit(c->v.narrative, l->width, l->height, &bad_x, &bad_y)) {
        fprintf(stderr, "iwarp %s: the narrative selects cell %d,%d, outside the %ux%u array\n", who, bad_x, bad_y,
                l->width, l->height);
        goto out;
    }
    if (c->v.title == NULL) {
        const char *t = src->trace.st.title[0] ? src->trace.st.title : c->p.file;
        const char *base = strrchr(t, '/');
        c->v.title = base ? base + 1 : t;
    }
    if (c->animation != NULL) {
        uint64_t to = c->to_given ? c->to : UINT64_MAX;
        if (!c->to_given) { /* the end of the run: run it there first */
            view_source_advance(src, UINT64_MAX, 0);
            to = view_source_head(src);
        }
        uint64_t step = c->step != 0 ? c->step : (to > c->from ? (to - c->from + 99) / 100 : 1);
        rc = viewer_animation(src, &c->v, c->from, to, step, c->anim_fps > 0 ? c->anim_fps : 10, c->animation);
    } else if (c->screenshot != NULL) {
        rc = viewer_screenshot(src, &c->v, c->at_given ? c->at : UINT64_MAX, c->screenshot);
        if (rc == 0 && c->v.record != NULL && a != NULL && view_source_save(src, c->v.record, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp %s: %s\n", who, err);
            rc = 2;
        }
    } else {
        rc = viewer_main(src, &c->v);
    }
    if (rc == 0 && damaged)
        rc = 1;
out:
    view_source_close(src);
    free(src);
    if (a != NULL)
        emu_array_free(a);
    run_desc_free(&desc);
    return rc;
}

int cmd_view(int argc, char **argv)
{
    view_cli_t c;
    int p = view_cli_parse(&c, argc, argv, "view", true);
    int rc = p == 0 ? view_cli_run(&c, "view") : p > 0 ? 0 : 2;
    view_cli_free(&c);
    return rc;
}
