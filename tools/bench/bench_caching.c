/*
 * iwarp bench caching: address relation caching on the emulated iWarp, as Dinda and O'Hallaron measured it on
 * the real one ("The Performance Impact of Address Relation Caching", section 4): for each n_g, I deposit-model
 * messages between two cells, uncached and cached (programs/caching/caching.s); the emulated break-even count
 * and assembly speedup beside the paper's model with static loop counts (counted in the assembled loops) and
 * with dynamic ones (clocks per tuple measured in the emulation, stalls included).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "program_load.h"
#include "interrupt.h"
#include "model_caching.h"
#include "plot.h"
#include "run_loop.h"

/* Half a second of emulation in all: --quick runs the same. */
enum { NG_MAX = 16, WORDS = 256, MESSAGES = 32 };

/* What one run of caching.s measured, per message. */
typedef struct caching_run {
    uint32_t start[MESSAGES], assembly[MESSAGES], store[MESSAGES], end[MESSAGES];
    unsigned messages;
} caching_run_t;

/* Instructions of a loop that are not memory operations, from label `from` to label `to` in the image. */
static int count_loop(const emu_program_t *p, const char *from, const char *to, unsigned *plain, unsigned *mem)
{
    const isa_symbol_t *a = isa_image_symbol(&p->image, from), *b = isa_image_symbol(&p->image, to);
    if (a == NULL || b == NULL || b->value <= a->value)
        return -1;
    *plain = *mem = 0;
    for (uint32_t pc = a->value; pc < b->value;) {
        const emu_bundle_t *bd = emu_program_bundle(p, pc);
        if (bd == NULL)
            return -1;
        if (bd->mem_accesses > 0)
            *mem += bd->mem_accesses;
        else
            (*plain)++;
        pc = bd->next_pc;
    }
    return 0;
}

/* What the bench takes from the assembled program and the machine it was predecoded for. */
typedef struct caching_program {
    caching_loops_t loops;          /* static counts: n_au, n_o, n_ac */
    caching_loops_t trips;          /* dynamic counts: one trip round each loop, its bypass stalls included */
    unsigned mem_au, mem_o, mem_ac; /* memory accesses per tuple of each loop */
    unsigned int_clocks, mem_clocks; /* an instruction, a memory access */
} caching_program_t;

/* The static loop counts (the relation's n_g instructions are not part of them: they sit before each loop's
 * body label), and each loop's memory accesses, which must be the model's: read the word, write the address
 * and the word; write the tuple; read the tuple, then as uncached. */
static int read_program(const emu_program_t *p, unsigned ng, caching_program_t *cp)
{
    unsigned au, o, ac;
    if (count_loop(p, "uncached_body", "uncached_end", &au, &cp->mem_au) != 0 || cp->mem_au != 3 ||
        count_loop(p, "store_body", "store_end", &o, &cp->mem_o) != 0 || cp->mem_o != 2 ||
        count_loop(p, "cached_loop", "cached_end", &ac, &cp->mem_ac) != 0 || cp->mem_ac != 5)
        return -1;
    cp->loops = (caching_loops_t){au, o, ac};
    cp->int_clocks = p->timing.clocks[ISA_T_INT];
    cp->mem_clocks = p->timing.clocks[ISA_T_MEM];
    /* A trip of the uncached and storing loops starts with the relation: its n_g instructions (nops and an add)
     * are taken off with the memory accesses. */
    double in = cp->int_clocks, mem = cp->mem_clocks, rel = ng * in;
    double trip_au = (double)program_loop_clocks(p, "uncached_loop", "uncached_end");
    double trip_o = (double)program_loop_clocks(p, "store", "store_end");
    double trip_ac = (double)program_loop_clocks(p, "cached_loop", "cached_end");
    cp->trips = (caching_loops_t){(trip_au - rel - cp->mem_au * mem) / in, (trip_o - rel - cp->mem_o * mem) / in,
                                  (trip_ac - cp->mem_ac * mem) / in};
    return 0;
}

/* An .equ of caching.s (where its data and results live), or 0 when it has none. */
static uint32_t equ(const emu_program_t *p, const char *name)
{
    const isa_symbol_t *s = isa_image_symbol(&p->image, name);
    return s != NULL ? s->value : 0;
}

/* stalls: the CA's bypass stalls as the address relation caching paper counts them (the machine's default), or
 * none (the leaner CA, `--set bypass.load=0 --set bypass.mem_operand=0`). */
static int run_caching(unsigned ng, unsigned mode, unsigned messages, bool stalls, caching_run_t *out,
                       caching_program_t *cp, bool *interrupted)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    if (!stalls)
        m.timing.bypass_load = m.timing.bypass_mem_operand = 0;
    m.width = 2;
    m.height = 1;
    char err[512], define[32];
    snprintf(define, sizeof define, "NG=%u", ng);
    const char *const defines[] = {define};
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, sizeof err) != 0) {
        fprintf(stderr, "bench caching: %s\n", err);
        return -1;
    }
    const emu_program_t *p = program_add(a, "programs/caching/caching.s", defines, 1);
    uint32_t args[3] = {mode, WORDS, messages};
    int rc = p != NULL ? 0 : -1;
    for (unsigned x = 0; rc == 0 && x < 2; x++)
        if (emu_array_load(a, x, 0, p, args, 3, err, sizeof err) != 0) {
            fprintf(stderr, "bench caching: %s\n", err);
            rc = -1;
        }
    if (rc == 0 && cp != NULL && read_program(p, ng, cp) != 0) {
        fprintf(stderr, "bench caching: the loops of caching.s are not where their labels say\n");
        rc = -1;
    }
    uint32_t dst = rc == 0 ? equ(p, "DST") : 0, results = rc == 0 ? equ(p, "RESULTS") : 0;
    uint32_t guard = rc == 0 ? equ(p, "GUARD") : 0;
    if (rc == 0) {
        emu_run_status_t st = run_sliced(a, 100000000ull, interrupted);
        if (*interrupted) {
            rc = -1;
        } else if (st != EMU_RUN_DONE) {
            fprintf(stderr, "bench caching: n_g %u, %s: run ended %s\n%s", ng, mode ? "cached" : "uncached",
                    emu_run_status_name(st), emu_array_deadlock(a));
            rc = -1;
        }
    }
    /* Every word deposited where its address says, and nothing around it touched. */
    for (unsigned k = 0; rc == 0 && k < WORDS + 8; k++) {
        /* cell 0 sends word j as 3 j + 1; cell 1 fills four words on either side with the guard */
        uint32_t addr = dst - 16 + 4 * k, want = k < 4 || k >= WORDS + 4 ? guard : 3 * (k - 4) + 1, got = 0;
        if (ca_mem_read(emu_array_ca(a, 1, 0), addr, &got, 4) != 0 || got != want) {
            fprintf(stderr, "bench caching: n_g %u: cell 1 holds 0x%x at 0x%x, not 0x%x\n", ng, got, addr, want);
            rc = -1;
        }
    }
    out->messages = messages;
    for (unsigned i = 0; rc == 0 && i < messages; i++) {
        uint32_t w0[4], w1[4];
        if (ca_mem_read(emu_array_ca(a, 0, 0), results + 16 * i, w0, sizeof w0) != 0 ||
            ca_mem_read(emu_array_ca(a, 1, 0), results + 16 * i, w1, sizeof w1) != 0)
            rc = -1;
        out->start[i] = w0[0];
        out->assembly[i] = w0[1];
        out->store[i] = w0[2];
        out->end[i] = w1[3];
    }
    emu_array_free(a);
    return rc;
}

static double mean_end_to_end(const caching_run_t *r, unsigned n);

/* The emulated break-even: the first n_i at which the cached average is no longer above the uncached one, as
 * text (">messages" when it never is). */
static void emulated_break_even(const caching_run_t *u, const caching_run_t *c, unsigned messages, char *out,
                                size_t cap)
{
    for (unsigned n = 1; n <= messages; n++)
        if (mean_end_to_end(c, n) <= mean_end_to_end(u, n)) {
            snprintf(out, cap, "%u", n);
            return;
        }
    snprintf(out, cap, ">%u", messages);
}

static double mean_end_to_end(const caching_run_t *r, unsigned n)
{
    double sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += (double)(r->end[i] - r->start[i]);
    return sum / n;
}

static double mean_assembly(const caching_run_t *r)
{
    double sum = 0;
    for (unsigned i = 0; i < r->messages; i++)
        sum += r->assembly[i];
    return sum / r->messages;
}

static void predicted(const caching_loops_t *l, unsigned ng, char *be, size_t cap, double *speedup)
{
    uint64_t n_i;
    caching_break_even_t k = caching_break_even(&caching_iwarp, l, ng, &n_i);
    caching_break_even_text(k, n_i, be, cap);
    *speedup = caching_speedup(&caching_iwarp, l, ng);
}

int bench_caching(bench_context_t *ctx)
{
    unsigned ngs = NG_MAX, messages = MESSAGES;
    if (bench_report(ctx))
        printf("Two cells, %u-word deposit-model messages (address-data pairs), %u of them per run; clocks at 20 MHz.\n"
               "break-even: messages after which cached communication is as fast on average as uncached;\n"
               "speedup: of cached over uncached message assembly. Pred-Stat: the paper's model with the loops'\n"
               "instruction counts; Pred-Dyn: with the clocks per tuple the emulation measured. no stalls: emulated\n"
               "on the leaner CA without bypass stalls (--set bypass.load=0 --set bypass.mem_operand=0).\n"
               "%4s | %-39s | %-38s | %s\n"
               "%4s | %9s %9s %9s %9s | %8s %9s %9s %9s | %6s %6s %6s\n",
               WORDS, messages, "", "break-even", "speedup", "dynamic counts", "n_g", "emulated", "Pred-Stat",
               "Pred-Dyn", "no stalls", "emulated", "Pred-Stat", "Pred-Dyn", "no stalls", "n_au", "n_o", "n_ac");
    caching_program_t loops; /* as n_g 1 assembled them */
    bool have_loops = false;
    plot_t pl;
    char names[NG_MAX + 1][2][32]; /* the plot keeps the series' names, not copies */
    bench_plot_init(ctx, &pl, "Address relation caching: average time per message", "messages (n_i)",
                    "clocks per message", false, false);
    pl.legend_title = "cached or not, by n_g (groups)";
    char config[96];
    snprintf(config, sizeof config, "%u-word messages, 1 to %u of them; a hue per n_g, its ring cached", WORDS,
             messages);
    pl.config = config;
    for (unsigned ng = 1; ng <= ngs && !interrupt_requested(); ng++) {
        caching_run_t u, c, lean_u, lean_c;
        caching_program_t cp;
        bool interrupted = false;
        if (run_caching(ng, 0, messages, true, &u, &cp, &interrupted) != 0 ||
            run_caching(ng, 1, messages, true, &c, NULL, &interrupted) != 0 ||
            run_caching(ng, 0, messages, false, &lean_u, NULL, &interrupted) != 0 ||
            run_caching(ng, 1, messages, false, &lean_c, NULL, &interrupted) != 0)
            return interrupted ? 0 : -1;
        if (ng == 1) {
            loops = cp;
            have_loops = true;
        }
        /* Emulated: the first n_i at which the cached average is no longer above the uncached one. */
        unsigned be = 0;
        for (unsigned n = 1; n <= messages && be == 0; n++)
            if (mean_end_to_end(&c, n) <= mean_end_to_end(&u, n))
                be = n;
        double asm_u = mean_assembly(&u), asm_c = mean_assembly(&c), speedup = asm_u / asm_c;
        double lean_speedup = mean_assembly(&lean_u) / mean_assembly(&lean_c);
        char be_lean[16];
        emulated_break_even(&lean_u, &lean_c, messages, be_lean, sizeof be_lean);
        /* Dynamic counts: clocks per tuple less the relation's and the memory's, in instructions. */
        double in = cp.int_clocks, mem = cp.mem_clocks, rel = ng * in;
        caching_loops_t stat = cp.loops;
        caching_loops_t dyn = {(asm_u / WORDS - rel - cp.mem_au * mem) / in,
                               ((double)c.store[0] / WORDS - rel - cp.mem_o * mem) / in,
                               (asm_c / WORDS - cp.mem_ac * mem) / in};
        char be_emu[16], be_stat[16], be_dyn[16];
        double sp_stat, sp_dyn;
        if (be > 0)
            snprintf(be_emu, sizeof be_emu, "%u", be);
        else
            snprintf(be_emu, sizeof be_emu, ">%u", messages);
        predicted(&stat, ng, be_stat, sizeof be_stat, &sp_stat);
        predicted(&dyn, ng, be_dyn, sizeof be_dyn, &sp_dyn);
        char name[32];
        snprintf(name, sizeof name, "n_g %u", ng);
        bench_record_begin(ctx, "caching", name);
        bench_u64(ctx, "n_g", ng);
        bench_u64(ctx, "words", WORDS);
        bench_u64(ctx, "messages", messages);
        if (be > 0)
            bench_u64(ctx, "break_even", be);
        else
            bench_null(ctx, "break_even");
        bench_string(ctx, "break_even_pred_stat", be_stat);
        bench_string(ctx, "break_even_pred_dyn", be_dyn);
        bench_double(ctx, "speedup", speedup);
        bench_string(ctx, "break_even_no_stalls", be_lean);
        bench_double(ctx, "speedup_no_stalls", lean_speedup);
        bench_double(ctx, "speedup_pred_stat", sp_stat);
        bench_double(ctx, "speedup_pred_dyn", sp_dyn);
        bench_double(ctx, "uncached_assembly_clocks", asm_u);
        bench_double(ctx, "cached_assembly_clocks", asm_c);
        bench_double(ctx, "store_clocks", c.store[0]);
        bench_double(ctx, "n_au_static", stat.n_au);
        bench_double(ctx, "n_o_static", stat.n_o);
        bench_double(ctx, "n_ac_static", stat.n_ac);
        bench_double(ctx, "n_au_dynamic", dyn.n_au);
        bench_double(ctx, "n_o_dynamic", dyn.n_o);
        bench_double(ctx, "n_ac_dynamic", dyn.n_ac);
        bench_record_end(ctx);
        if (bench_report(ctx))
            printf("%4u | %9s %9s %9s %9s | %8.3f %9.3f %9.3f %9.3f | %6.2f %6.2f %6.2f\n", ng, be_emu, be_stat, be_dyn,
                   be_lean, speedup, sp_stat, sp_dyn, lean_speedup, dyn.n_au, dyn.n_o, dyn.n_ac);
        if (ng == 1 || ng == 2 || ng == 4 || ng == 8 || ng == 16) {
            snprintf(names[ng][0], sizeof names[ng][0], "uncached, n_g %u", ng);
            snprintf(names[ng][1], sizeof names[ng][1], "cached, n_g %u", ng);
            plot_series_t *su = plot_add(&pl, names[ng][0], false), *sc = plot_add_related(&pl, names[ng][1], su);
            for (unsigned n = 1; n <= messages; n++) {
                if (su != NULL)
                    plot_point(su, n, mean_end_to_end(&u, n));
                if (sc != NULL)
                    plot_point(sc, n, mean_end_to_end(&c, n));
            }
        }
    }
    if (bench_report(ctx) && have_loops)
        printf("The loops of programs/caching/caching.s: static counts n_au %g, n_o %g, n_ac %g (the paper's: %g, %g, "
               "%g);\none trip round each with its bypass stalls: %g, %g, %g (the paper's dynamic counts: %g, %g, %g).\n"
               "The measured counts above also spread each loop's set-up over its %u tuples.\n",
               loops.loops.n_au, loops.loops.n_o, loops.loops.n_ac, caching_iwarp_static.n_au, caching_iwarp_static.n_o,
               caching_iwarp_static.n_ac, loops.trips.n_au, loops.trips.n_o, loops.trips.n_ac,
               caching_iwarp_dynamic.n_au, caching_iwarp_dynamic.n_o, caching_iwarp_dynamic.n_ac, WORDS);
    if (have_loops) {
        bench_record_begin(ctx, "caching_loops", "caching.s");
        bench_double(ctx, "n_au_static", loops.loops.n_au);
        bench_double(ctx, "n_o_static", loops.loops.n_o);
        bench_double(ctx, "n_ac_static", loops.loops.n_ac);
        bench_double(ctx, "n_au_trip", loops.trips.n_au);
        bench_double(ctx, "n_o_trip", loops.trips.n_o);
        bench_double(ctx, "n_ac_trip", loops.trips.n_ac);
        bench_record_end(ctx);
    }
    bench_write_plot(ctx, &pl, "caching", "caching_time_vs_messages.svg");
    return interrupt_requested() ? 0 : bench_caching_hpf(ctx);
}
