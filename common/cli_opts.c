/* The start and the messages of every command's option parser (cli_opts.h). */
#include "cli_opts.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void cli_opts_start(cli_opts_t *p, const char *who, int argc, char **argv, const char *shortopts,
                    const struct option *longopts)
{
    *p = (cli_opts_t){who, argc, argv, shortopts, longopts, 0};
    /* glibc: 0 starts afresh, forgetting any earlier vector; 1 would keep its place in a cluster, and the next
     * parse would read the last vector's (perhaps freed) memory. */
    optind = 0;
    /* The messages are cli_opts_next's: getopt's own would come first, naming argv[0]. */
    opterr = 0;
}

/* The first long option with the n characters of name as its name or the start of it, and with has_arg (-1: any);
 * how many there are in *count. */
static const struct option *long_named(const struct option *opts, const char *name, size_t n, int has_arg,
                                       unsigned *count)
{
    const struct option *found = NULL;
    *count = 0;
    for (const struct option *o = opts; o != NULL && o->name != NULL; o++) {
        if (strncmp(o->name, name, n) != 0 || (has_arg >= 0 && o->has_arg != has_arg))
            continue;
        if (o->name[n] == '\0') { /* an exact name is never an abbreviation of a longer one */
            *count = 1;
            return o;
        }
        if (found == NULL)
            found = o;
        ++*count;
    }
    return found;
}

/* What is wrong with the long option elem ("--name" or "--name=value"), said; the code cli_opts_next returns. */
static int long_option_error(const cli_opts_t *p, const char *elem)
{
    const char *name = elem + 2;
    size_t n = strcspn(name, "=");
    unsigned count;
    if (optopt == 0) { /* not one of the command's, or the start of several */
        const struct option *first = long_named(p->longopts, name, n, -1, &count);
        if (count < 2) {
            fprintf(stderr, "iwarp %s: unknown option '--%.*s'\n", p->who, (int)n, name);
            return '?';
        }
        fprintf(stderr, "iwarp %s: ambiguous option '--%.*s' (", p->who, (int)n, name);
        for (const struct option *o = first; o->name != NULL; o++)
            if (strncmp(o->name, name, n) == 0)
                fprintf(stderr, "%s--%s", o == first ? "" : ", ", o->name);
        fprintf(stderr, ")\n");
        return '?';
    }
    bool valued = name[n] == '=';
    const struct option *o = long_named(p->longopts, name, n, valued ? no_argument : required_argument, &count);
    int shown = o != NULL ? (int)strlen(o->name) : (int)n;
    const char *full = o != NULL ? o->name : name;
    if (valued) {
        fprintf(stderr, "iwarp %s: --%.*s takes no value\n", p->who, shown, full);
        return '?';
    }
    fprintf(stderr, "iwarp %s: --%.*s needs a value\n", p->who, shown, full);
    return ':';
}

int cli_opts_next(cli_opts_t *p)
{
    p->optind_before = optind;
    int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
    if (c != '?')
        return c;
    /* A long option in error is always consumed (optind moves past it); a short one may be inside a cluster, where
     * optind stays, and argv[optind - 1] is an element before it (or argv[0] on the first call). */
    if (optind > p->optind_before && optind >= 2 && optind <= p->argc && strncmp(p->argv[optind - 1], "--", 2) == 0)
        return long_option_error(p, p->argv[optind - 1]);
    if (optopt > 0 && optopt != ':' && strchr(p->shortopts, optopt) != NULL) {
        fprintf(stderr, "iwarp %s: -%c needs a value\n", p->who, optopt);
        return ':';
    }
    fprintf(stderr, "iwarp %s: unknown option '-%c'\n", p->who, (char)optopt);
    return '?';
}

void cli_opts_unexpected(const cli_opts_t *p, const char *arg)
{
    fprintf(stderr, "iwarp %s: unexpected argument '%s'\n", p->who, arg);
}
