/* libFuzzer harness: the connection-set parser on arbitrary text, then, for small sets, the whole compiler
 * (routing, scheduling, tables, reports), and for sets that parse, a round trip through the writer. Any crash,
 * leak or undefined behaviour is a bug; so is a set that parses but whose written form does not parse the same,
 * and a set with errors that does not compile: without its bad lines and the constraints that closed cycles,
 * what the parser keeps is a valid set. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conset/cset.h"
#include "conset/route.h"
#include "conset/route_report.h"
#include "conset/route_tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CONNS = 48, MAX_CELLS = 144 }; /* keep each input fast enough to explore */

static void compile(const cset_t *s, FILE *sink)
{
    route_options_t o;
    route_options_init(&o);
    o.iterations = 4;
    route_plan_t plan;
    char err[256];
    if (route_compile(s, &o, &plan, err, sizeof err) != 0)
        abort(); /* only out of memory can fail, and the parser keeps ordering within tasks */
    celldata_t d;
    if (route_tables(&plan, &d, err, sizeof err) == 0)
        celldata_free(&d);
    route_report_text(&plan, "fuzz", true, -1, sink);
    route_report_json(&plan, "fuzz", true, -1, sink);
    route_plan_free(&plan);
}

/* The written form of a set that parsed must parse, to the same connections. */
static void round_trip(const cset_t *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return;
    cset_write(s, f);
    fclose(f);
    cset_t back;
    cset_diags_t d;
    if (cset_parse(&back, text, len, &d) != 0 || back.nconns != s->nconns)
        abort();
    for (unsigned i = 0; i < s->nconns; i++)
        if (strcmp(back.conns[i].id, s->conns[i].id) != 0 || back.conns[i].src != s->conns[i].src ||
            back.conns[i].dst != s->conns[i].dst || back.conns[i].words != s->conns[i].words ||
            back.conns[i].nafter != s->conns[i].nafter)
            abort();
    cset_diags_free(&d);
    cset_free(&back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cset_t s;
    cset_diags_t d;
    size_t errors = cset_parse(&s, (const char *)data, size, &d);
    FILE *sink = fopen("/dev/null", "w");
    if (sink != NULL)
        cset_print_diags(&d, "fuzz.cset", sink);
    if (errors == 0)
        round_trip(&s);
    if (sink != NULL && s.nconns <= MAX_CONNS && s.width * s.height <= MAX_CELLS)
        compile(&s, sink);
    if (sink != NULL)
        fclose(sink);
    cset_diags_free(&d);
    cset_free(&s);
    return 0;
}
