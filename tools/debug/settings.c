/* The console's settings (settings.def): `set NAME VALUE`, `info settings` and the completion of `set` read the one
 * table, so a setting added there is complete everywhere. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dbg.h"

typedef enum setting_kind { SETTING_SWITCH, SETTING_NUMBER } setting_kind_t;

typedef struct setting {
    const char *name;
    setting_kind_t kind;
    uint64_t min, max;
    uint64_t (*get)(const dbg_t *d);
    void (*set)(dbg_t *d, uint64_t v); /* v within min..max */
} setting_t;

/* One getter and setter per row: the fields differ in type (bool, unsigned, uint64_t). */
#define DBG_SETTING(id, name, field, kind, value, min, max, doc)                                                       \
    static uint64_t get_##id(const dbg_t *d)                                                                           \
    {                                                                                                                  \
        return (uint64_t)d->field;                                                                                     \
    }                                                                                                                  \
    static void set_##id(dbg_t *d, uint64_t v)                                                                         \
    {                                                                                                                  \
        d->field = v;                                                                                                  \
    }
#include "settings.def"
#undef DBG_SETTING

static const setting_t settings[] = {
#define DBG_SETTING(id, name, field, kind, value, min, max, doc) {name, SETTING_##kind, min, max, get_##id, set_##id},
#include "settings.def"
#undef DBG_SETTING
};
enum { NUM_SETTINGS = sizeof settings / sizeof settings[0] };

static const char usage[] = "usage: set [X,Y] REGISTER = EXPR | set [X,Y] [ADDRESS] = EXPR"
#define DBG_SETTING(id, name, field, kind, value, min, max, doc) " | set " name " " value
#include "settings.def"
#undef DBG_SETTING
    ;

static const setting_t *find(const char *name)
{
    for (size_t i = 0; i < NUM_SETTINGS; i++)
        if (strcmp(settings[i].name, name) == 0)
            return &settings[i];
    return NULL;
}

int dbg_set_setting(dbg_t *d, char *args)
{
    char *name = dbg_word(&args), *value = dbg_word(&args);
    if (name == NULL || value == NULL || dbg_word(&args) != NULL)
        return dbg_error(d, "%s", usage);
    const setting_t *s = find(name);
    if (s == NULL)
        return dbg_error(d, "set: no setting '%s' (info settings lists them)", name);
    uint64_t v = 0;
    if (s->kind == SETTING_SWITCH) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
            return dbg_error(d, "set %s: on or off, not '%s'", name, value);
        v = strcmp(value, "on") == 0;
    } else if (dbg_parse_u64(value, &v) != 0 || v < s->min || v > s->max) {
        return dbg_error(d, "set %s: a number from %" PRIu64 " to %" PRIu64 ", not '%s'", name, s->min, s->max, value);
    }
    s->set(d, v);
    return 0;
}

void dbg_info_settings(dbg_t *d)
{
    for (size_t i = 0; i < NUM_SETTINGS; i++) {
        const setting_t *s = &settings[i];
        if (s->kind == SETTING_SWITCH)
            dbg_printf(d, "%s %s\n", s->name, s->get(d) ? "on" : "off");
        else
            dbg_printf(d, "%s %" PRIu64 "\n", s->name, s->get(d));
    }
}

void dbg_complete_settings(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)d;
    /* set NAME VALUE: the names as the second word; on and off as the third, after a switch's name. */
    unsigned k = dbg_word_index(line, text);
    for (size_t i = 0; k == 1 && i < NUM_SETTINGS; i++)
        dbg_words_add(words, text, settings[i].name);
    if (k != 2)
        return;
    const char *p = line + strspn(line, " \t");
    p += strcspn(p, " \t");
    p += strspn(p, " \t");
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(p, " \t"), p);
    const setting_t *s = find(name);
    if (s != NULL && s->kind == SETTING_SWITCH) {
        dbg_words_add(words, text, "on");
        dbg_words_add(words, text, "off");
    }
}
