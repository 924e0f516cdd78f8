/* One soak case: build the array, run it, check what the programs received against what their senders' host
 * twins say was sent, and run it again on several threads for the same clocks, statistics and state. */
#include "soak.h"
#include "program_load.h"

#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "emu.h"

/* What each workload is and what its cells must end with. */
typedef struct workload {
    const char *program;
    unsigned max_a, max_b; /* argument ranges 1..max */
} workload_t;

static const workload_t workloads[] = {
    /* a0 = M messages per cell, a1 = L words at most: random destinations and lengths (msg_random.s) */
    {"programs/net/msg_random.s", 16, 512},
    /* a0 = K words to each of the four neighbours through spools (neighbours.s) */
    {"programs/net/neighbours.s", 1024, 0},
};
enum { NWORKLOADS = sizeof workloads / sizeof workloads[0] };

void soak_draw(uint64_t seed, uint64_t n, soak_case_t *c)
{
    uint64_t s = seed ^ (n * 0x9e3779b97f4a7c15ull);
    const workload_t *w = &workloads[splitmix64_next(&s) % NWORKLOADS];
    memset(c, 0, sizeof *c);
    c->program = w->program;
    c->width = 1 + (unsigned)(splitmix64_next(&s) % 8);
    c->height = 1 + (unsigned)(splitmix64_next(&s) % 8);
    c->queue_depth = 1 + (unsigned)(splitmix64_next(&s) % 16);
    c->threads = 2 + (unsigned)(splitmix64_next(&s) % 3);
    c->args[0] = 1 + (uint32_t)(splitmix64_next(&s) % w->max_a);
    c->args[1] = w->max_b ? 1 + (uint32_t)(splitmix64_next(&s) % w->max_b) : 0;
}

void soak_command(const soak_case_t *c, char *buf, size_t cap)
{
    bool two = strcmp(c->program, "programs/net/msg_random.s") == 0;
    snprintf(buf, cap, "iwarp run %s --array %ux%u --set queue_depth=%u --args %u%s%.0u --threads %u", c->program,
             c->width, c->height, c->queue_depth, c->args[0], two ? "," : "", two ? c->args[1] : 0u, c->threads);
}

/* msg_random.s's generator, run on the host: how many messages each cell gets and how many words in all. */
static uint64_t msg_random_expect(const soak_case_t *c, uint32_t *messages_to)
{
    unsigned ncells = c->width * c->height;
    uint64_t words = 0;
    memset(messages_to, 0, ncells * sizeof *messages_to);
    for (unsigned s = 0; s < ncells; s++) {
        uint32_t state = s * 7919u + 12345u;
        for (uint32_t j = 0; j < c->args[0]; j++) {
            state = state * 1103515245u + 12345u;
            messages_to[(state >> 16) % ncells]++;
            words += (state >> 4) % c->args[1] + 1;
        }
    }
    return words;
}

typedef struct outcome {
    emu_run_status_t status;
    uint64_t cycles, hash;
} outcome_t;

static int run_once(const soak_case_t *c, unsigned threads, emu_array_t **out, outcome_t *o, char *why, size_t cap)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = c->width;
    m.height = c->height;
    m.agent.queue_depth = c->queue_depth;
    char err[512];
    if (emu_array_create(out, &m, err, sizeof err) != 0) {
        snprintf(why, cap, "%s", err);
        return -1;
    }
    emu_array_t *a = *out;
    emu_array_set_output(a, NULL, NULL);
    const emu_program_t *p = program_add(a, c->program, NULL, 0);
    if (p == NULL) {
        snprintf(why, cap, "%s does not build", c->program);
        return -1;
    }
    for (unsigned y = 0; y < c->height; y++)
        for (unsigned x = 0; x < c->width; x++)
            if (emu_array_load(a, x, y, p, c->args, 2, err, sizeof err) != 0) {
                snprintf(why, cap, "%s", err);
                return -1;
            }
    emu_array_set_threads(a, threads);
    o->status = emu_array_run(a, 2000000000ull);
    o->cycles = emu_array_cycles(a);
    o->hash = emu_array_hash(a, true, true);
    return 0;
}

/* The programs trap on a wrong length, word or order; here every cell must have halted with the count of
 * what reached it, which its senders' twins on the host decide. */
static bool check_cells(const soak_case_t *c, const emu_array_t *a, uint64_t *words, char *why, size_t cap)
{
    unsigned ncells = c->width * c->height;
    bool random = strcmp(c->program, "programs/net/msg_random.s") == 0;
    uint32_t *want = calloc(ncells, sizeof *want);
    if (want == NULL) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    if (random)
        *words = msg_random_expect(c, want);
    else
        for (unsigned i = 0; i < ncells; i++)
            want[i] = 4 * c->args[0];
    if (!random)
        *words = (uint64_t)ncells * 4 * c->args[0];
    bool ok = true;
    for (unsigned i = 0; ok && i < ncells; i++) {
        const ca_t *ca = emu_array_ca(a, i % c->width, i / c->width);
        uint32_t got = ca_reg(ca, ISA_REG_A0);
        if (ca->s.state != CA_HALTED || got != want[i]) {
            snprintf(why, cap, "cell (%u,%u) %s with a0 = %u, wanted halted with %u", i % c->width, i / c->width,
                     ca_state_name(ca->s.state), got, want[i]);
            ok = false;
        }
    }
    free(want);
    return ok;
}

void soak_run(const soak_case_t *c, soak_result_t *r)
{
    memset(r, 0, sizeof *r);
    emu_array_t *one = NULL, *many = NULL;
    outcome_t o1, on;
    if (run_once(c, 1, &one, &o1, r->why, sizeof r->why) == 0) {
        r->clocks = o1.cycles;
        if (o1.status != EMU_RUN_DONE) {
            unsigned x = 0, y = 0;
            bool fault = emu_array_first_fault(one, &x, &y);
            snprintf(r->why, sizeof r->why, "the run ended %s%s", emu_run_status_name(o1.status),
                     fault ? " (a cell faulted: a word lost, doubled or out of order traps)" : "");
        } else if (check_cells(c, one, &r->words, r->why, sizeof r->why) &&
                   run_once(c, c->threads, &many, &on, r->why, sizeof r->why) == 0) {
            if (on.status != o1.status || on.cycles != o1.cycles || on.hash != o1.hash)
                snprintf(r->why, sizeof r->why,
                         "%u threads differ from one: %s after %llu clocks, state hash %016llx (one thread: %s, "
                         "%llu, %016llx)",
                         c->threads, emu_run_status_name(on.status), (unsigned long long)on.cycles,
                         (unsigned long long)on.hash, emu_run_status_name(o1.status), (unsigned long long)o1.cycles,
                         (unsigned long long)o1.hash);
            else
                r->ok = true;
        }
    }
    if (one != NULL)
        emu_array_free(one);
    if (many != NULL)
        emu_array_free(many);
}
