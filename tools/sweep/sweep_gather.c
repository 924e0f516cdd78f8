/* Gathering: the records of a sweep as one CSV table, a row per JSON record a case printed (a bench document
 * gives a row per element of its "records"), in case order, with the case's parameters in front. */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "sweep_results.h"

static bool is_param(const sweep_t *s, const char *name)
{
    for (unsigned i = 0; i < s->nparams; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return true;
    return false;
}

/* Scalars become cells; objects their members, named a.b; arrays their compact JSON text. */
static void flatten(csv_table_t *t, const sweep_t *s, const char *prefix, const jv_t *v)
{
    for (size_t i = 0; i < v->n; i++) {
        char name[512];
        const char *key = v->keys[i];
        const jv_t *m = &v->items[i];
        /* An output field named like a parameter (or the case or status column) keeps its own column. */
        bool clash = *prefix == '\0' && (is_param(s, key) || strcmp(key, "case") == 0 || strcmp(key, "status") == 0);
        snprintf(name, sizeof name, "%s%s%s", prefix, clash ? "output." : "", key);
        switch (m->kind) {
        case JV_NULL: csv_set(t, name, ""); break;
        case JV_BOOL: csv_set(t, name, m->boolean ? "true" : "false"); break;
        case JV_NUMBER:
        case JV_STRING: csv_set(t, name, m->text); break;
        case JV_OBJECT: {
            char inner[520];
            snprintf(inner, sizeof inner, "%s.", name);
            flatten(t, s, inner, m);
            break;
        }
        case JV_ARRAY: {
            char *text = jv_compact(m);
            csv_set(t, name, text != NULL ? text : "");
            free(text);
            break;
        }
        }
    }
}

static void row(csv_table_t *t, const sweep_t *s, unsigned k, const jv_t *rec, const jv_t *out)
{
    char num[32];
    csv_row(t);
    snprintf(num, sizeof num, "%u", k);
    csv_set(t, "case", num);
    const jv_t *params = jv_get(rec, "params"), *status = jv_get(rec, "status");
    for (unsigned i = 0; i < s->nparams; i++) {
        const jv_t *p = params != NULL ? jv_get(params, s->params[i].name) : NULL;
        csv_set(t, s->params[i].name, p != NULL && p->kind == JV_STRING ? p->text : "");
    }
    csv_set(t, "status", status != NULL && status->kind == JV_NUMBER ? status->text : "");
    if (out != NULL && out->kind == JV_OBJECT)
        flatten(t, s, "", out);
}

int sweep_gather_csv(const sweep_t *s, const char *results, FILE *out, char *err, size_t errlen)
{
    jv_t *rec;
    if (sweep_records(s, results, &rec, err, errlen) != 0)
        return -1;
    csv_table_t t;
    csv_init(&t);
    for (unsigned k = 0; k < s->ncases; k++) {
        if (rec[k].kind != JV_OBJECT)
            continue;
        const jv_t *o = jv_get(&rec[k], "output");
        size_t rows = 0;
        for (size_t i = 0; o != NULL && o->kind == JV_ARRAY && i < o->n; i++) {
            const jv_t *v = &o->items[i], *records = jv_get(v, "records");
            const jv_t *list = records != NULL && records->kind == JV_ARRAY ? records : v->kind == JV_ARRAY ? v : NULL;
            for (size_t e = 0; list != NULL && e < list->n; e++, rows++)
                row(&t, s, k, &rec[k], &list->items[e]);
            if (list == NULL) {
                row(&t, s, k, &rec[k], v);
                rows++;
            }
        }
        if (rows == 0)
            row(&t, s, k, &rec[k], NULL);
    }
    int rc = csv_write(&t, out);
    csv_free(&t);
    sweep_records_free(s, rec);
    return rc == 0 ? 0 : err_set(err, errlen, "the CSV table could not be written (out of memory or a write error)");
}
