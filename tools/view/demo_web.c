/* iwarp demo NAME --web DIR (demo_web.h): the built web page copied into DIR, its index.html renamed page.html, and
 * a small index.html that opens page.html?demo=NAME; for a demo of one's own (FOLDER/NAME.txt), its three files
 * beside the page, which page.html?own=NAME loads as its "Your own demo" dialog does. Outputs never destroy files: DIR
 * must be new, empty or written by this command before (its .iwarp-web lists the files it wrote, and only those are
 * written again), no output may be one of the inputs, and each file is written beside its name and renamed into place
 * when complete. */
#include "demo_web.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo.h"
#include "file.h"
#include "program_load.h"

/* What scripts/build-web.sh writes: the page (index.html becomes page.html here) and the emulator. */
static const char *const page_files[] = {"index.html", "app.js", "style.css", "iwarp.js", "iwarp.wasm", "iwarp.data"};
/* A demo of one's own: the three files the page's dialog takes (docs/demos.md, "Writing a demo"). */
static const char *const own_exts[] = {"txt", "run", "s"};
enum { NPAGE = sizeof page_files / sizeof page_files[0], NOWN = 3, MAX_IN = NPAGE + NOWN, MAX_OUTS = MAX_IN + 2 };
#define MARKER ".iwarp-web"
#define MARKER_HEAD                                                                                                    \
    "# Written by `iwarp demo --web` (docs/web.md): the files below are its own; it writes them again here."

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "iwarp demo: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

bool demo_web_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--web") == 0)
            return true;
    return false;
}

/* A name that goes into a URL, a script and a file name as it is. */
static bool plain_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (; *s != '\0'; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return false;
    return true;
}

static char *path_in(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
    return buf;
}

/* The names DIR/.iwarp-web lists (this command wrote them), into names[] (at most cap, each up to 63 bytes).
 * Returns how many, or -1 when DIR has no such file or it is not one this command writes. */
static int read_marker(const char *dir, char names[][64], int cap)
{
    char path[4096], err[256];
    uint8_t *data;
    size_t len;
    if (file_read_max(path_in(path, sizeof path, dir, MARKER), 1 << 16, &data, &len, err, sizeof err) != 0)
        return -1;
    const char *s = (const char *)data;
    int n = -1;
    if (len > 0 && strncmp(s, MARKER_HEAD "\n", strlen(MARKER_HEAD) + 1) == 0) {
        n = 0;
        for (s += strlen(MARKER_HEAD) + 1; *s != '\0' && n < cap;) {
            size_t k = strcspn(s, "\n");
            if (k > 0 && k < 64) {
                memcpy(names[n], s, k);
                names[n++][k] = '\0';
            }
            s += k + (s[k] == '\n');
        }
    }
    free(data);
    return n;
}

/* DIR may be new or empty; or written by this command before, and then every output already in it must be a
 * regular file the marker lists (a file of the user's under one of the page's names stays untouched). */
static int check_dir(const char *dir, const char *const *outs, int nout, char names[][64], int *nnames)
{
    struct stat st;
    *nnames = 0;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 0 : fail("%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return fail("%s: is not a folder (--web names the folder to write the page into)", dir);
    DIR *d = opendir(dir);
    if (d == NULL)
        return fail("%s: %s", dir, strerror(errno));
    bool empty = true;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = false;
    closedir(d);
    if (empty)
        return 0;
    *nnames = read_marker(dir, names, 2 * MAX_OUTS);
    if (*nnames < 0)
        return fail("%s: is not empty, and not a folder `iwarp demo --web` wrote (it has no %s): name a new or "
                    "empty folder",
                    dir, MARKER);
    for (int i = 0; i < nout; i++) {
        char path[4096];
        if (lstat(path_in(path, sizeof path, dir, outs[i]), &st) != 0)
            continue;
        bool ours = false;
        for (int k = 0; k < *nnames; k++)
            ours = ours || strcmp(names[k], outs[i]) == 0;
        if (!ours || !S_ISREG(st.st_mode))
            return fail("%s: %s, not a file `iwarp demo --web` wrote: it is left as it is (move it away, or name "
                        "another folder)",
                        path, S_ISREG(st.st_mode) ? "is not listed in " MARKER : "is not a regular file");
    }
    return 0;
}

static int write_bytes(const char *path, const void *data, size_t len)
{
    file_out_t o;
    char err[4352];
    if (file_out_open(&o, path, "wb", err, sizeof err) != 0)
        return fail("%s", err);
    if (len > 0)
        fwrite(data, 1, len, o.f);
    if (file_out_commit(&o, err, sizeof err) != 0)
        return fail("%s", err);
    return 0;
}

static int copy_file(const char *from, const char *to)
{
    uint8_t *data;
    size_t len;
    char err[4352];
    if (file_read_max(from, FILE_MAX_IMAGE, &data, &len, err, sizeof err) != 0)
        return fail("%s", err);
    int rc = write_bytes(to, data, len);
    free(data);
    return rc;
}

/* Text for HTML (a demo's title). */
static void html_escape(char *buf, size_t cap, const char *s)
{
    size_t at = 0;
    for (; *s != '\0' && at + 7 < cap; s++) {
        const char *r = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
        if (r != NULL) {
            memcpy(buf + at, r, strlen(r));
            at += strlen(r);
        } else {
            buf[at++] = *s;
        }
    }
    buf[at] = '\0';
}

static int usage(void)
{
    return fail("usage: iwarp demo NAME|FOLDER/NAME.txt --web DIR [--page BUILT]: writes the web page with demo NAME "
                "preselected into the new or empty folder DIR (docs/web.md); BUILT is the page scripts/build-web.sh "
                "built (default: build-web/ of the source tree)");
}

/* The demo to preselect: a shipped one by its name, or one's own as FOLDER/NAME.txt (its three files are inputs then,
 * written beside the page). Fills its name (plain), title (for HTML) and own files' paths; returns 0 or the status. */
static int find_demo(const char *arg, char *name, size_t name_cap, char *title, size_t title_cap, char own[][4096],
                     bool *is_own)
{
    char folder[4096], err[512];
    size_t len = strlen(arg);
    *is_own = len > 4 && strcmp(arg + len - 4, ".txt") == 0;
    if (*is_own) {
        snprintf(folder, sizeof folder, "%.*s", (int)(len - 4), arg);
        char *slash = strrchr(folder, '/');
        snprintf(name, name_cap, "%.*s", (int)name_cap - 1, slash != NULL ? slash + 1 : folder);
        if (slash == NULL)
            snprintf(folder, sizeof folder, ".");
        else if (slash == folder)
            folder[1] = '\0';
        else
            *slash = '\0';
    } else {
        snprintf(name, name_cap, "%.*s", (int)name_cap - 1, arg);
        iwarp_path(folder, sizeof folder, "programs/demos");
    }
    if (!plain_name(name))
        return fail("%s: a demo's name of letters, digits, _ and - (the shipped demos: iwarp demo lists them; one's "
                    "own: FOLDER/NAME.txt beside NAME.run and NAME.s)",
                    arg);
    demo_t d;
    if (demo_load(&d, folder, name, err, sizeof err) != 0) {
        demo_free(&d);
        return fail("%s", err);
    }
    html_escape(title, title_cap, d.title != NULL ? d.title : name);
    demo_free(&d);
    for (int i = 0; i < NOWN && *is_own; i++) {
        struct stat st;
        snprintf(own[i], sizeof own[i], "%.3900s/%.64s.%s", folder, name, own_exts[i]);
        /* The page writes the program as NAME.s, so the run description must name that file. */
        if (stat(own[i], &st) != 0 || !S_ISREG(st.st_mode))
            return fail("%s: %s (the page takes a demo of one's own as three files of one name: NAME.txt, "
                        "NAME.run, NAME.s)",
                        own[i], stat(own[i], &st) != 0 ? strerror(errno) : "is not a regular file");
    }
    return 0;
}

int demo_web_cmd(int argc, char **argv)
{
    const char *arg = NULL, *out = NULL, *page = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--web") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--page") == 0 && i + 1 < argc)
            page = argv[++i];
        else if (argv[i][0] == '-' || arg != NULL)
            return usage(); /* the viewer's options have no meaning for a page */
        else
            arg = argv[i];
    }
    if (arg == NULL || out == NULL)
        return usage();
    char built[4096], name[80], title[1024], own[NOWN][4096];
    bool is_own;
    int rc = find_demo(arg, name, sizeof name, title, sizeof title, own, &is_own);
    if (rc != 0)
        return rc;
    if (page == NULL)
        page = iwarp_path(built, sizeof built, "build-web");

    /* The inputs: the built page, all there, and one's own demo. */
    const char *inputs[MAX_IN];
    char in_paths[NPAGE][4096];
    int nin = 0;
    for (int i = 0; i < NPAGE; i++) {
        inputs[nin++] = path_in(in_paths[i], sizeof in_paths[i], page, page_files[i]);
        struct stat st;
        if (stat(inputs[i], &st) != 0 || !S_ISREG(st.st_mode))
            return fail("%s: the web page is not built (no %s): build it with scripts/build-web.sh (emscripten: "
                        "IWARP_SETUP_WEB=1 scripts/setup.sh installs it), or name a built page with --page DIR",
                        page, page_files[i]);
    }
    /* The outputs: the page's files (its index.html as page.html), one's own demo, the index.html that opens it,
     * the marker. */
    const char *outs[MAX_OUTS];
    char own_out[NOWN][96];
    int nout = 0;
    for (int i = 0; i < NPAGE; i++)
        outs[nout++] = strcmp(page_files[i], "index.html") == 0 ? "page.html" : page_files[i];
    for (int i = 0; i < NOWN && is_own; i++) {
        inputs[nin++] = own[i];
        snprintf(own_out[i], sizeof own_out[i], "%s.%s", name, own_exts[i]);
        outs[nout++] = own_out[i];
    }
    outs[nout++] = "index.html";
    outs[nout++] = MARKER;
    char listed[2 * MAX_OUTS][64];
    int nlisted;
    if ((rc = check_dir(out, outs, nout, listed, &nlisted)) != 0)
        return rc;
    for (int i = 0; i < nout; i++) {
        char path[4096], why[8704];
        if (file_out_not_input(path_in(path, sizeof path, out, outs[i]), inputs, (size_t)nin, why, sizeof why) != 0)
            return fail("%s", why);
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        return fail("%s: %s", out, strerror(errno));

    /* The marker first: a run cut short leaves a folder the next run may write again. */
    char text[8192], path[4096];
    int at = snprintf(text, sizeof text, "%s\n", MARKER_HEAD);
    for (int i = 0; i < nout; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, "%s\n", outs[i]);
    for (int k = 0; k < nlisted; k++) { /* what an earlier run wrote stays its own */
        bool again = false;
        for (int i = 0; i < nout; i++)
            again = again || strcmp(listed[k], outs[i]) == 0;
        if (!again)
            at += snprintf(text + at, sizeof text - (size_t)at, "%s\n", listed[k]);
    }
    if ((rc = write_bytes(path_in(path, sizeof path, out, MARKER), text, strlen(text))) != 0)
        return rc;
    for (int i = 0; i < nin; i++)
        if ((rc = copy_file(inputs[i], path_in(path, sizeof path, out, outs[i]))) != 0)
            return rc;
    /* Opens the page on the demo; ?demo=, ?own= and the page's other parameters (?run=N) pass through. */
    const char *key = is_own ? "own" : "demo";
    snprintf(text, sizeof text,
             "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"
             "<!-- Written by `iwarp demo %s --web` (docs/web.md): the page, page.html, on this demo. -->\n"
             "<script>\nconst q = new URLSearchParams(location.search);\n"
             "if (!q.has('demo') && !q.has('own')) q.set('%s', '%s');\n"
             "location.replace('page.html?' + q + location.hash);\n</script>\n"
             "<noscript><meta http-equiv=\"refresh\" content=\"0; url=page.html?%s=%s\"></noscript>\n"
             "</head>\n<body><a href=\"page.html?%s=%s\">%s</a></body>\n</html>\n",
             title, name, key, name, key, name, key, name, title);
    if ((rc = write_bytes(path_in(path, sizeof path, out, "index.html"), text, strlen(text))) != 0)
        return rc;
    printf("wrote %s: the web page with demo %s preselected (index.html opens page.html?%s=%s); serve the folder "
           "over HTTP, e.g. python3 -m http.server -d %s 8000, and open http://localhost:8000/\n",
           out, name, key, name, out);
    return 0;
}
