#include "run_meta.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"
#include "iwarp_config.h"
#include "iwarp_version.h"

void run_meta_init(run_meta_t *m, int argc, char **argv)
{
    memset(m, 0, sizeof *m);
    snprintf(m->version, sizeof m->version, "%s", IWARP_VERSION);
    snprintf(m->commit, sizeof m->commit, "%s", IWARP_COMMIT);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        snprintf(m->host, sizeof m->host, "unknown");
    size_t at = 0;
    for (int i = 0; i < argc && at < sizeof m->options - 1; i++)
        at += (size_t)snprintf(m->options + at, sizeof m->options - at, "%s%s", i ? " " : "iwarp ", argv[i]);
    emu_machine_t mach;
    emu_machine_defaults(&mach);
    FILE *f = fmemopen(m->machine, sizeof m->machine - 1, "w");
    if (f != NULL) {
        emu_machine_print(&mach, f);
        fclose(f);
    }
}

/* Each "key = value" line of the machine text, to fn. */
static void machine_lines(const run_meta_t *m, void (*fn)(void *, const char *, const char *), void *user)
{
    const char *p = m->machine;
    while (*p != '\0') {
        const char *eol = strchr(p, '\n');
        size_t n = eol != NULL ? (size_t)(eol - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
        char *eq = strstr(line, " = ");
        if (line[0] != '#' && eq != NULL) {
            *eq = '\0';
            fn(user, line, eq + 3);
        }
        p += n + (eol != NULL ? 1 : 0);
    }
}

static void json_pair(void *user, const char *key, const char *value)
{
    json_string(user, key, value);
}

void run_meta_json(const run_meta_t *m, json_writer_t *j)
{
    json_begin_object(j, "metadata");
    json_string(j, "product", "iwarp");
    json_string(j, "version", m->version);
    json_string(j, "commit", m->commit);
    json_string(j, "date", m->date);
    json_string(j, "host", m->host);
    json_string(j, "options", m->options);
    json_begin_object(j, "machine");
    machine_lines(m, json_pair, j);
    json_end_object(j);
    json_end_object(j);
}

static void csv_pair(void *user, const char *key, const char *value)
{
    fprintf(user, "# machine.%s: %s\n", key, value);
}

void run_meta_csv(const run_meta_t *m, FILE *out)
{
    fprintf(out, "# product: iwarp\n# version: %s\n# commit: %s\n# date: %s\n# host: %s\n# options: %s\n", m->version,
            m->commit, m->date, m->host, m->options);
    machine_lines(m, csv_pair, out);
}
