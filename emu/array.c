/* The array of cells and its clock. */
#include "deadlock.h"
#include "livelock.h"
#include "threads.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* The run's end: its status, a deadlock's report, the cells' last console output. */
static emu_run_status_t emu_array_finish(emu_array_t *a, emu_run_status_t st);

int emu_array_create(emu_array_t **out, const emu_machine_t *m, char *err, size_t errlen)
{
    *out = NULL;
    if (m->width < 1 || m->width > EMU_MAX_DIM || m->height < 1 || m->height > EMU_MAX_DIM)
        return err_set(err, errlen, "array %ux%u: each side must be 1..%u", m->width, m->height, EMU_MAX_DIM);
    if (emu_machine_check(m, err, errlen) != 0 || emu_machine_check_host(m, err, errlen) != 0)
        return -1;
    emu_array_t *a = calloc(1, sizeof *a);
    if (a == NULL)
        return err_set(err, errlen, "out of memory");
    a->machine = *m;
    a->ncells = m->width * m->height;
    /* Cache-line aligned, as emu_cell_t's scheduling fields ask; each cell is cleared by its init below, and one that
     * init never reached is never read (a failed create frees the cells up to the one that failed). */
    a->cells = aligned_alloc(_Alignof(emu_cell_t), a->ncells * sizeof *a->cells);
    if (a->cells == NULL) {
        free(a);
        return err_set(err, errlen, "out of memory for %u cells", m->width * m->height);
    }
    for (unsigned i = 0; i < a->ncells; i++) {
        if (emu_cell_init(&a->cells[i], a, i % m->width, i / m->width) != 0) {
            a->ncells = i + 1;
            emu_array_free(a);
            return err_set(err, errlen, "out of memory for cells (%u bytes of memory each, %u channels of %u words)",
                           m->mem_bytes, m->agent.channels, m->agent.queue_depth);
        }
    }
    for (unsigned i = 0; i < a->ncells; i++)
        emu_cell_wire(a, &a->cells[i]);
    a->nthreads = 1;
    *out = a;
    return 0;
}

void emu_array_free(emu_array_t *a)
{
    if (a == NULL)
        return;
    for (unsigned i = 0; i < a->ncells; i++)
        emu_cell_free(&a->cells[i]);
    free(a->cells);
    for (unsigned i = 0; i < a->nprograms; i++) {
        emu_program_free(a->programs[i]);
        free(a->programs[i]);
    }
    free(a->programs);
    free(a->blocks);
    free(a->awake);
    free(a->edge);
    free(a);
}

const emu_machine_t *emu_array_machine(const emu_array_t *a)
{
    return &a->machine;
}

void emu_array_set_output(emu_array_t *a, emu_output_fn fn, void *user)
{
    a->output = fn;
    a->output_user = user;
}

const emu_program_t *emu_array_add_program(emu_array_t *a, isa_image_t *image, char *err, size_t errlen)
{
    emu_program_t **grown = realloc(a->programs, sizeof *grown * (a->nprograms + 1));
    if (grown == NULL) {
        isa_image_free(image);
        err_set(err, errlen, "out of memory");
        return NULL;
    }
    a->programs = grown;
    emu_program_t *p = malloc(sizeof *p);
    if (p == NULL) {
        isa_image_free(image);
        err_set(err, errlen, "out of memory");
        return NULL;
    }
    if (emu_program_init(p, image, &a->machine.timing, err, errlen) != 0) {
        free(p);
        return NULL;
    }
    a->programs[a->nprograms++] = p;
    return p;
}

int emu_array_load(emu_array_t *a, unsigned x, unsigned y, const emu_program_t *prog, const uint32_t *args,
                   unsigned nargs, char *err, size_t errlen)
{
    if (x >= a->machine.width || y >= a->machine.height)
        return err_set(err, errlen, "cell (%u,%u) is outside the %ux%u array", x, y, a->machine.width,
                       a->machine.height);
    if (nargs > 8)
        return err_set(err, errlen, "at most 8 arguments (a0..a7), not %u", nargs);
    emu_cell_t *c = emu_array_cell(a, x, y);
    char inner[200];
    if (ca_load(&c->ca, prog, inner, sizeof inner) != 0)
        return err_set(err, errlen, "cell (%u,%u): %s", x, y, inner);
    for (unsigned i = 0; i < nargs; i++)
        ca_set_arg(&c->ca, i, args[i]);
    c->ca.s.ready_at = a->clock;
    c->saved.progress_at = a->clock;
    a->last_progress = a->clock;
    return 0;
}

void emu_array_request_stop(emu_array_t *a)
{
    a->stop_requested = true;
}

/* The cells still asleep with a stuck agent would have been stepped at every clock the run went through (an
 * active agent keeps the clock from skipping), adding to their waits: the books as they would be. */
static void unstick_all(emu_array_t *a, bool serial)
{
    bool any = false;
    for (unsigned i = 0; i < a->ncells; i++) {
        if (a->cells[i].stuck_since != 0) {
            emu_cell_unstick(&a->cells[i], a->clock);
            any = true;
        }
        /* So are the channels whose waits count lazily: whoever reads the books next finds them whole. */
        coa_thaw_waits(&a->cells[i].coa, a->clock);
    }
    if (any && serial && a->clock > 0) {
        a->last_ran = a->clock - 1;
        a->ran_any = true;
    }
}

emu_run_status_t emu_array_run(emu_array_t *a, uint64_t limit)
{
    if (a->clock >= limit) {
        /* Nothing to run, but the books are closed at this clock all the same (waits, occupancy). */
        emu_array_finish(a, EMU_RUN_LIMIT);
        return EMU_RUN_LIMIT;
    }
    bool threads = a->nthreads > 1 && emu_array_max_threads(a) > 1;
    a->run_limit = limit;
    emu_run_status_t st = threads ? emu_array_run_threads(a, limit) : emu_array_run_serial(a, limit);
    for (unsigned i = 0; i < a->ncells; i++)
        emu_cell_settle_ahead(&a->cells[i], a->clock, &a->last_progress);
    unstick_all(a, !threads);
    a->stop_requested = false;
    if (st != EMU_RUN_STOPPED)
        st = emu_array_finish(a, st);
    return st;
}

static emu_run_status_t emu_array_finish(emu_array_t *a, emu_run_status_t st)
{
    /* The window closed on a network where nothing moved: a deadlock when waits close a cycle (no timer or
     * handler can break it) or nothing runs any more, else a livelock. Told from the state at the stop's clock,
     * the same on any number of threads. */
    if (st == EMU_RUN_DEADLOCK && !emu_deadlock_report(a) && emu_livelock_report(a))
        st = EMU_RUN_LIVELOCK;
    for (unsigned i = 0; i < a->ncells; i++) {
        ca_finish(&a->cells[i].ca, a->clock);
        coa_settle(&a->cells[i].coa, a->clock);
        emu_cell_flush_console(&a->cells[i]);
    }
    return st;
}

uint64_t emu_array_clock(const emu_array_t *a)
{
    return a->clock;
}

uint64_t emu_array_cycles(const emu_array_t *a)
{
    uint64_t end = 0;
    for (unsigned i = 0; i < a->ncells; i++) {
        const ca_t *ca = &a->cells[i].ca;
        uint64_t t = 0;
        if (ca->s.state == CA_HALTED)
            t = ca->s.ready_at;
        else if (ca->s.state == CA_FAULTED)
            t = ca->s.halted_at + 1;
        else if (ca->s.state != CA_IDLE)
            t = a->clock;
        if (t > end)
            end = t;
    }
    return end;
}

unsigned emu_array_width(const emu_array_t *a)
{
    return a->machine.width;
}
unsigned emu_array_height(const emu_array_t *a)
{
    return a->machine.height;
}

const coa_t *emu_array_coa(const emu_array_t *a, unsigned x, unsigned y)
{
    return &a->cells[(y % a->machine.height) * a->machine.width + (x % a->machine.width)].coa;
}

int emu_array_set_reg(emu_array_t *a, unsigned x, unsigned y, unsigned reg, uint32_t value)
{
    if (x >= a->machine.width || y >= a->machine.height || reg == 0 || reg >= ISA_NUM_REGS)
        return -1;
    emu_array_cell(a, x, y)->ca.s.regs[reg] = value;
    return 0;
}

int emu_array_poke(emu_array_t *a, unsigned x, unsigned y, uint32_t addr, const void *bytes, uint32_t len)
{
    if (x >= a->machine.width || y >= a->machine.height)
        return -1;
    return ca_mem_write(&emu_array_cell(a, x, y)->ca, addr, bytes, len);
}

void emu_array_set_threads(emu_array_t *a, unsigned n)
{
    a->nthreads = n < 1 ? 1 : n;
}

uint64_t emu_array_stuck_clocks(const emu_array_t *a)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < a->ncells; i++)
        n += a->cells[i].stuck_clocks;
    return n;
}

uint64_t emu_array_ahead_bundles(const emu_array_t *a)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < a->ncells; i++)
        n += a->cells[i].ahead_bundles;
    return n;
}

uint64_t emu_array_ahead_diverted(const emu_array_t *a)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < a->ncells; i++)
        n += a->cells[i].ahead_diverted;
    return n;
}

void emu_array_set_hooks(emu_array_t *a, const emu_hooks_t *hooks)
{
    a->has_hooks = hooks != NULL;
    if (hooks != NULL)
        a->hooks = *hooks;
}

void emu_array_set_driver(emu_array_t *a, const emu_driver_t *driver)
{
    a->driver = driver != NULL ? *driver : (emu_driver_t){0};
    /* Driven cells never go dormant: their links look at a flag that stays false (coa_line_t), not at the
     * receiver's, which would be a line of another cell's at every first post of a clock. Wired back without a
     * driver. */
    for (unsigned i = 0; i < a->ncells; i++)
        for (unsigned d = 0; d < COA_NUM_DIRS; d++) {
            coa_line_t *line = &a->cells[i].out[d];
            line->receiver_dormant =
                driver != NULL ? &line->never_dormant : &((emu_cell_t *)line->receiver)->dormant;
        }
}

coa_t *emu_array_agent(emu_array_t *a, unsigned i)
{
    return &a->cells[i].coa;
}

unsigned emu_array_marks(const emu_array_t *a, unsigned x, unsigned y, const uint32_t **marks)
{
    const emu_cell_t *c = &a->cells[(y % a->machine.height) * a->machine.width + (x % a->machine.width)];
    *marks = c->saved.marks;
    return c->saved.marks_clock == a->last_ran && a->ran_any ? c->saved.nmarks : 0;
}
unsigned emu_array_threads(const emu_array_t *a)
{
    return a->nthreads;
}
const char *emu_array_deadlock(const emu_array_t *a)
{
    return a->deadlock;
}

const ca_t *emu_array_ca(const emu_array_t *a, unsigned x, unsigned y)
{
    return &a->cells[(y % a->machine.height) * a->machine.width + (x % a->machine.width)].ca;
}

bool emu_array_first_fault(const emu_array_t *a, unsigned *x, unsigned *y)
{
    const emu_cell_t *first = NULL;
    for (unsigned i = 0; i < a->ncells; i++) {
        const emu_cell_t *c = &a->cells[i];
        if (c->ca.s.state == CA_FAULTED && (first == NULL || c->ca.s.fault.cycle < first->ca.s.fault.cycle))
            first = c;
    }
    if (first == NULL)
        return false;
    *x = first->x;
    *y = first->y;
    return true;
}

/* " (file:line:col)" of pc in the cell's program, or "" when no line is known. */

void emu_format_where(const emu_array_t *a, unsigned x, unsigned y, char *buf, size_t cap)
{
    const ca_t *ca = emu_array_ca(a, x, y);
    char where[160];
    emu_source_text(ca, ca->s.pc, where, sizeof where);
    snprintf(buf, cap, "cell (%u,%u) pc 0x%x%s %s", x, y, ca->s.pc, where, ca_state_name(ca->s.state));
}

void emu_format_fault(const emu_array_t *a, unsigned x, unsigned y, char *buf, size_t cap)
{
    const ca_t *ca = emu_array_ca(a, x, y);
    const emu_fault_t *f = &ca->s.fault;
    char where[160];
    emu_source_text(ca, f->pc, where, sizeof where);
    /* A trap code that the program names with a TRAP_ constant (the runtimes do) is shown by that name. */
    char named[96] = "";
    if (f->kind == EMU_FAULT_TRAP && ca->prog != NULL) {
        const isa_image_t *img = &ca->prog->image;
        for (size_t i = 0; i < img->nsyms; i++)
            if (img->syms[i].kind == ISA_SYM_ABS && img->syms[i].value == f->addr &&
                strncmp(img->syms[i].name, "TRAP_", 5) == 0) {
                snprintf(named, sizeof named, " %s", img->syms[i].name);
                break;
            }
    }
    snprintf(buf, cap, "cell (%u,%u) pc 0x%x%s cycle %llu: %s%s%s%s", x, y, f->pc, where, (unsigned long long)f->cycle,
             emu_fault_kind_name(f->kind), f->detail[0] ? ": " : "", f->detail, named);
}

const char *emu_run_status_name(emu_run_status_t st)
{
    static const char *const names[] = {
#define X(id, name) name,
        EMU_RUN_STATUSES(X)
#undef X
    };
    return (size_t)st < sizeof names / sizeof names[0] ? names[st] : "?";
}
