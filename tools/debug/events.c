/*
 * Event bits in words: `mask 0x1020f` means nothing to someone reading why a cell sleeps in wfe, "spools 0-3
 * finished, timer, soft event 0" does. The bit layout is the CA's (emu/ca.h: CA_EVENT_*).
 */
#include <string.h>

#include "dbg.h"

/* Appends ", " and an entry: `one` alone, or `one`/`many` with a bit number or a range ("spools 0-3"), then `tail`. */
static void add(char *buf, size_t cap, const char *one, const char *many, int lo, int hi, const char *tail)
{
    size_t n = strlen(buf);
    if (n + 2 >= cap)
        return;
    const char *sep = n > 0 ? ", " : "";
    if (lo < 0)
        snprintf(buf + n, cap - n, "%s%s%s", sep, one, tail);
    else if (lo == hi)
        snprintf(buf + n, cap - n, "%s%s %d%s", sep, one, lo, tail);
    else
        snprintf(buf + n, cap - n, "%s%s %d-%d%s", sep, many, lo, hi, tail);
}

/* Runs of set bits in [first, last] become one entry each ("spools 0-3 finished"). */
static void add_runs(char *buf, size_t cap, uint32_t bits, unsigned first, unsigned last, const char *one,
                     const char *many, const char *tail)
{
    for (unsigned b = first; b <= last; b++) {
        if (!((bits >> b) & 1u))
            continue;
        unsigned e = b;
        while (e < last && ((bits >> (e + 1)) & 1u))
            e++;
        add(buf, cap, one, many, (int)(b - first), (int)(e - first), tail);
        b = e;
    }
}

void dbg_events_text(uint32_t bits, char *buf, size_t cap)
{
    buf[0] = '\0';
    add_runs(buf, cap, bits, 0, 7, "spool", "spools", " finished");
    if (bits & CA_EVENT_ARRIVAL)
        add(buf, cap, "a pathway arriving", NULL, -1, -1, "");
    if (bits & CA_EVENT_TIMER)
        add(buf, cap, "the timer", NULL, -1, -1, "");
    add_runs(buf, cap, bits, 16, 31, "soft event", "soft events", "");
    uint32_t unknown = bits & ~(0xffu | CA_EVENT_ARRIVAL | CA_EVENT_TIMER | 0xffff0000u);
    if (unknown != 0) {
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, "%sbits 0x%x", n > 0 ? ", " : "", unknown);
    }
    if (buf[0] == '\0')
        snprintf(buf, cap, "no event");
}
