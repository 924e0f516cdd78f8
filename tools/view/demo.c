/* Demo narratives: the header of settings, the paragraphs, and the list of demos in a folder. */
#include "demo.h"

#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void demo_free(demo_t *d)
{
    free(d->name);
    free(d->run_path);
    free(d->title);
    free(d->summary);
    free(d->narrative);
    memset(d, 0, sizeof *d);
}

static int header_line(demo_t *d, const char *key, size_t klen, const char *val, size_t vlen, unsigned ln, char *err,
                       size_t errlen)
{
    char v[256];
    snprintf(v, sizeof v, "%.*s", (int)(vlen < sizeof v - 1 ? vlen : sizeof v - 1), val);
    char *end;
#define KEY(k) (klen == strlen(k) && strncmp(key, k, klen) == 0)
    if (KEY("title")) {
        free(d->title);
        d->title = dup_n(val, vlen);
    } else if (KEY("summary")) {
        free(d->summary);
        d->summary = dup_n(val, vlen);
    } else if (KEY("order")) {
        d->order = (int)strtol(v, &end, 10);
        if (*end != '\0')
            return err_set(err, errlen, "%s.txt:%u: order wants a number", d->name, ln);
    } else if (KEY("speed")) {
        d->speed = strtod(v, &end);
        d->has_speed = true;
        if (*end != '\0' || d->speed < 0)
            return err_set(err, errlen, "%s.txt:%u: speed wants clocks per second", d->name, ln);
    } else if (KEY("select")) {
        if (sscanf(v, "%d,%d", &d->select_x, &d->select_y) != 2 || d->select_x < 0 || d->select_y < 0)
            return err_set(err, errlen, "%s.txt:%u: select wants X,Y", d->name, ln);
    } else if (KEY("shot")) {
        d->shot = strtoull(v, &end, 10);
        d->has_shot = true;
        if (*end != '\0')
            return err_set(err, errlen, "%s.txt:%u: shot wants a clock", d->name, ln);
    } else {
        return err_set(err, errlen, "%s.txt:%u: unknown key '%.*s' (the keys: title, order, summary, speed, select, shot)",
                       d->name, ln, (int)klen, key);
    }
#undef KEY
    return 0;
}

static bool digit(char c) { return c >= '0' && c <= '9'; }

static size_t skip_spaces(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\r'))
        i++;
    return i;
}

/* A decimal number at s[*i]: true with *v (saturating), or false when there is none. */
static bool number_at(const char *s, size_t n, size_t *i, uint64_t *v)
{
    if (*i >= n || !digit(s[*i]))
        return false;
    *v = 0;
    while (*i < n && digit(s[*i])) {
        unsigned d = (unsigned)(s[(*i)++] - '0');
        *v = *v > (UINT64_MAX - d) / 10 ? UINT64_MAX : *v * 10 + d;
    }
    return true;
}

int demo_range_parse(const char *s, size_t n, demo_range_t *r)
{
    r->lo = 0;
    r->hi = UINT64_MAX;
    r->select_x = r->select_y = -1;
    if (n == 0 || s[0] != '@')
        return -1;
    size_t i = skip_spaces(s, 1, n);
    (void)number_at(s, n, &i, &r->lo);
    if (i + 1 >= n || s[i] != '.' || s[i + 1] != '.')
        return -1;
    i += 2;
    (void)number_at(s, n, &i, &r->hi);
    i = skip_spaces(s, i, n);
    static const char select[] = "select";
    if (i < n && n - i >= sizeof select - 1 && memcmp(s + i, select, sizeof select - 1) == 0) {
        i = skip_spaces(s, i + sizeof select - 1, n);
        uint64_t x, y;
        if (!number_at(s, n, &i, &x) || i >= n || s[i++] != ',' || !number_at(s, n, &i, &y) || x > 4095 || y > 4095)
            return -1;
        r->select_x = (int)x;
        r->select_y = (int)y;
        i = skip_spaces(s, i, n);
    }
    return i == n && r->lo < r->hi ? 0 : -1;
}

bool demo_paragraph_shows(const char *para, size_t n, uint64_t clock, size_t *skip)
{
    *skip = 0;
    if (n == 0 || para[0] != '@')
        return true;
    const char *eol = memchr(para, '\n', n);
    size_t len = eol != NULL ? (size_t)(eol - para) : n;
    *skip = eol != NULL ? len + 1 : len;
    demo_range_t r;
    return demo_range_parse(para, len, &r) == 0 && clock >= r.lo && clock < r.hi;
}

/* Calls fn with every paragraph's "@" line that parses, in order; stops when fn returns true. */
static void each_range(const char *narrative, bool (*fn)(const demo_range_t *r, void *user), void *user)
{
    bool para_start = true;
    for (const char *p = narrative; p != NULL && *p != '\0';) {
        const char *eol = strchr(p, '\n');
        size_t n = eol != NULL ? (size_t)(eol - p) : strlen(p);
        demo_range_t r;
        if (para_start && n > 0 && p[0] == '@' && demo_range_parse(p, n, &r) == 0 && fn(&r, user))
            return;
        para_start = n == 0 || (n == 1 && p[0] == '\r');
        p += n + (eol != NULL ? 1 : 0);
    }
}

typedef struct entered {
    uint64_t before, now;
    int x, y;
} entered_t;

static bool note_entered(const demo_range_t *r, void *user)
{
    entered_t *e = user;
    bool in_now = e->now >= r->lo && e->now < r->hi;
    bool in_before = e->before != UINT64_MAX && e->before >= r->lo && e->before < r->hi;
    if (r->select_x >= 0 && in_now && !in_before) {
        e->x = r->select_x;
        e->y = r->select_y;
    }
    return false;
}

bool demo_select_entered(const char *narrative, uint64_t before, uint64_t now, int *x, int *y)
{
    entered_t e = {before, now, -1, -1};
    each_range(narrative, note_entered, &e);
    *x = e.x;
    *y = e.y;
    return e.x >= 0;
}

typedef struct fits {
    unsigned w, h;
    int bad_x, bad_y;
} fits_t;

static bool note_outside(const demo_range_t *r, void *user)
{
    fits_t *f = user;
    if (r->select_x >= 0 && ((unsigned)r->select_x >= f->w || (unsigned)r->select_y >= f->h)) {
        f->bad_x = r->select_x;
        f->bad_y = r->select_y;
        return true;
    }
    return false;
}

bool demo_selects_fit(const char *narrative, unsigned width, unsigned height, int *bad_x, int *bad_y)
{
    fits_t f = {width, height, -1, -1};
    each_range(narrative, note_outside, &f);
    *bad_x = f.bad_x;
    *bad_y = f.bad_y;
    return f.bad_x < 0;
}

/* Every "@" line that starts a paragraph must be a clock range: a typo would hide its paragraph forever. */
static int check_ranges(const demo_t *d, const char *narrative, unsigned first_line, char *err, size_t errlen)
{
    unsigned ln = first_line;
    bool para_start = true;
    for (const char *p = narrative; *p != '\0';) {
        const char *eol = strchr(p, '\n');
        size_t n = eol != NULL ? (size_t)(eol - p) : strlen(p);
        demo_range_t r;
        if (para_start && n > 0 && p[0] == '@' && demo_range_parse(p, n, &r) != 0)
            return err_set(err, errlen,
                           "%s.txt:%u: a clock range is '@ A..B' (A < B; either may be left out), then 'select X,Y' "
                           "or nothing",
                           d->name, ln);
        para_start = n == 0;
        ln++;
        p += n + (eol != NULL ? 1 : 0);
    }
    return 0;
}

static int parse(demo_t *d, const char *name, const char *text, char *err, size_t errlen)
{
    d->select_x = d->select_y = -1;
    d->name = strdup(name);
    if (d->name == NULL)
        return err_set(err, errlen, "out of memory");
    const char *p = text;
    unsigned ln = 0;
    for (;;) {
        ln++;
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (n == 3 && strncmp(p, "---", 3) == 0) {
            p += n + (eol ? 1 : 0);
            break;
        }
        if (*p == '\0')
            return err_set(err, errlen, "%s.txt: no '---' line between the settings and the narrative", name);
        const char *colon = memchr(p, ':', n);
        if (n > 0 && colon == NULL)
            return err_set(err, errlen, "%s.txt:%u: settings are 'key: value'", name, ln);
        if (n > 0) {
            const char *val = colon + 1;
            while (*val == ' ')
                val++;
            if (header_line(d, p, (size_t)(colon - p), val, (size_t)(p + n - val), ln, err, errlen) != 0)
                return -1;
        }
        p += n + (eol ? 1 : 0);
    }
    /* The narrative without the blank lines at its ends. */
    while (*p == '\n') {
        p++;
        ln++;
    }
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == ' '))
        n--;
    d->narrative = dup_n(p, n);
    if (d->title == NULL)
        d->title = strdup(name);
    if (d->summary == NULL)
        d->summary = strdup("");
    if (d->narrative == NULL || d->title == NULL || d->summary == NULL)
        return err_set(err, errlen, "out of memory");
    return check_ranges(d, d->narrative, ln + 1, err, errlen);
}

int demo_parse(demo_t *d, const char *name, const char *text, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (parse(d, name, text, err, errlen) == 0)
        return 0;
    demo_free(d); /* a demo with an error is not used: the caller owes nothing */
    return -1;
}

int demo_load(demo_t *d, const char *dir, const char *name, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    for (const char *c = name; *c; c++)
        if (*c == '/' || *c == '.')
            return err_set(err, errlen, "no demo named '%s'; `iwarp demo` lists them", name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.txt", dir, name);
    view_bytes_t text = {0};
    char inner[512];
    if (view_read_file(path, &text, 1u << 20, true, inner, sizeof inner) != 0) {
        view_bytes_free(&text);
        return err_set(err, errlen, "no demo named '%s' (%s); `iwarp demo` lists them", name, inner);
    }
    int rc = demo_parse(d, name, (const char *)text.data, err, errlen);
    view_bytes_free(&text);
    if (rc != 0)
        return rc;
    snprintf(path, sizeof path, "%s/%s.run", dir, name);
    if (access(path, R_OK) != 0)
        return err_set(err, errlen, "demo '%s' has no run description %s", name, path);
    d->run_path = strdup(path);
    return d->run_path == NULL ? err_set(err, errlen, "out of memory") : 0;
}

static int by_order(const void *a, const void *b)
{
    const demo_t *x = a, *y = b;
    return x->order != y->order ? (x->order > y->order) - (x->order < y->order) : strcmp(x->name, y->name);
}

void demo_list_free(demo_t *list, int n)
{
    for (int i = 0; i < n; i++)
        demo_free(&list[i]);
    free(list);
}

int demo_list(const char *dir, demo_t **out, char *err, size_t errlen)
{
    *out = NULL;
    DIR *dp = opendir(dir);
    if (dp == NULL)
        return err_set(err, errlen, "%s: %s", dir, strerror(errno));
    demo_t *list = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        demo_t *grown = realloc(list, sizeof *list * (size_t)(n + 1));
        if (grown == NULL) {
            closedir(dp);
            demo_list_free(list, n);
            return err_set(err, errlen, "out of memory");
        }
        list = grown;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
        if (demo_load(&list[n], dir, name, err, errlen) != 0) {
            closedir(dp);
            demo_free(&list[n]);
            demo_list_free(list, n);
            return -1;
        }
        n++;
    }
    closedir(dp);
    if (n > 0)
        qsort(list, (size_t)n, sizeof *list, by_order);
    *out = list;
    return n;
}
