/* iwarp demo: the teaching demos of programs/demos/ in the viewer, each with its narrative. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "demo.h"
#include "demo_web.h"
#include "program_load.h"
#include "view_cli.h"

static int list(const char *dir)
{
    demo_t *demos;
    char err[512];
    int n = demo_list(dir, &demos, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "iwarp demo: %s\n", err);
        return 2;
    }
    printf("usage: iwarp demo NAME [view options]   (iwarp demo --help for the options)\n\ndemos:\n");
    for (int i = 0; i < n; i++)
        printf("  %-12s %s\n", demos[i].name, demos[i].summary);
    demo_list_free(demos, n);
    return 0;
}

int cmd_demo(int argc, char **argv)
{
    if (demo_web_wanted(argc, argv))
        return demo_web_cmd(argc, argv);
    char dir[4096];
    iwarp_path(dir, sizeof dir, "programs/demos");
    view_cli_t c;
    int p = view_cli_parse(&c, argc, argv, "demo", false);
    if (p != 0) {
        view_cli_free(&c);
        return p > 0 ? 0 : 2;
    }
    if (c.p.file == NULL || strcmp(c.p.file, "list") == 0) {
        view_cli_free(&c);
        return list(dir);
    }
    /* A demo of one's own: NAME.txt beside NAME.run in any folder (docs/demos.md, "Writing a demo"). */
    const char *name = c.p.file;
    char own[4096];
    size_t len = strlen(c.p.file);
    if (len > 4 && strcmp(c.p.file + len - 4, ".txt") == 0) {
        snprintf(own, sizeof own, "%.*s", (int)(len - 4), c.p.file);
        char *slash = strrchr(own, '/');
        name = slash != NULL ? slash + 1 : own;
        if (slash != NULL) {
            *slash = '\0';
            snprintf(dir, sizeof dir, "%s", slash == own ? "/" : own);
        } else {
            snprintf(dir, sizeof dir, ".");
        }
    }
    demo_t d;
    char err[512];
    if (demo_load(&d, dir, name, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp demo: %s\n", err); /* says what lists the demos, or the keys, as fits */
        demo_free(&d);
        view_cli_free(&c);
        return 2;
    }
    /* The demo's settings, unless the command line says otherwise. */
    c.p.file = d.run_path;
    if (c.v.title == NULL)
        c.v.title = d.title;
    if (c.v.narrative == NULL)
        c.v.narrative = d.narrative;
    if (!c.speed_given && d.has_speed)
        c.v.speed = d.speed;
    if (!c.select_given && d.select_x >= 0)
        c.v.select = d.select_y * 1000 + d.select_x;
    if (c.screenshot != NULL && !c.at_given && d.has_shot) {
        c.at = d.shot;
        c.at_given = true;
    }
    int rc = view_cli_run(&c, "demo");
    demo_free(&d);
    view_cli_free(&c);
    return rc;
}
