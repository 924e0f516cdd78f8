/* The Slurm job array: one array task per pending case, each running `iwarp sweep FILE --case $SLURM_ARRAY_TASK_ID`
 * and appending its record to the shared results file. Slurm does the scheduling; nothing here distributes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "sweep_results.h"

/* Single quotes for the shell: 'it'\''s'. */
static void quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

int sweep_write_slurm(const sweep_t *s, const sweep_slurm_options_t *o, unsigned *pending, char *err, size_t errlen)
{
    *pending = 0;
    jv_t *rec;
    if (sweep_records(s, o->results, &rec, err, errlen) != 0)
        return -1;
    /* The array as ranges of pending cases: 0-4,7,9-12. */
    char *array = NULL;
    size_t alen = 0;
    FILE *a = open_memstream(&array, &alen);
    if (a == NULL) {
        sweep_records_free(s, rec);
        return err_set(err, errlen, "out of memory");
    }
    for (unsigned k = 0; k < s->ncases; k++) {
        if (rec[k].kind != JV_NULL)
            continue;
        unsigned last = k;
        while (last + 1 < s->ncases && rec[last + 1].kind == JV_NULL)
            last++;
        fprintf(a, "%s%u", *pending ? "," : "", k);
        if (last > k)
            fprintf(a, "-%u", last);
        *pending += last - k + 1;
        k = last;
    }
    sweep_records_free(s, rec);
    if (fclose(a) != 0) {
        free(array);
        return err_set(err, errlen, "out of memory");
    }
    if (*pending == 0) {
        free(array);
        return 0;
    }
    FILE *f = fopen(o->script, "w");
    if (f == NULL) {
        free(array);
        return err_set(err, errlen, "%s: cannot write the job script", o->script);
    }
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL)
        snprintf(cwd, sizeof cwd, ".");
    fprintf(f,
            "#!/bin/sh\n"
            "# iwarp sweep %s: one array task per pending case (docs/sweep.md). Submit with sbatch.\n",
            s->name);
    fprintf(f, "#SBATCH --job-name=iwarp-%s\n#SBATCH --array=%s\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n",
            s->name, array);
    fprintf(f, "#SBATCH --output=%s.slurm-%%A_%%a.out\n", o->results);
    for (unsigned i = 0; i < o->nsbatch; i++)
        fprintf(f, "#SBATCH %s\n", o->sbatch[i]);
    fprintf(f, "cd ");
    quoted(f, cwd);
    fprintf(f, " || exit 1\nexec ");
    quoted(f, o->iwarp);
    fprintf(f, " sweep ");
    quoted(f, o->sweep_file);
    fprintf(f, " --case \"$SLURM_ARRAY_TASK_ID\" --results ");
    quoted(f, o->results);
    fprintf(f, " --max-output %llu --quiet\n", (unsigned long long)o->max_output);
    free(array);
    if (fclose(f) != 0)
        return err_set(err, errlen, "%s: cannot write the job script", o->script);
    return 0;
}
