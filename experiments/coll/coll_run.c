/* Running a collective case on the emulated array and checking it (coll.h). */
#include "coll.h"

#include <stdio.h>
#include <string.h>

#include "ca.h"
#include "coll_layout.h"
#include "program_load.h"
#include "run_loop.h"

/* A run that takes longer than this has gone wrong (the largest cases of the bench take about 10^7). */
#define COLL_CLOCK_LIMIT 4000000000ull

/* The case's array, programs loaded and memory laid out; NULL with err set. */
emu_array_t *coll_array(const coll_case_t *c, unsigned threads, const char *program, char *err, size_t cap)
{
    emu_machine_t m;
    emu_machine_defaults(&m);
    m.width = c->width;
    m.height = c->height;
    m.mem_bytes = COLL_MEM_BYTES;
    emu_array_t *a;
    if (emu_array_create(&a, &m, err, cap) != 0)
        return NULL;
    emu_array_set_threads(a, threads ? threads : 1);
    const emu_program_t *prog = program_add(a, program, NULL, 0);
    int rc = prog != NULL ? 0 : -1;
    if (rc != 0)
        snprintf(err, cap, "%s did not assemble", program);
    for (unsigned i = 0; i < c->width * c->height && rc == 0; i++)
        rc = emu_array_load(a, i % c->width, i / c->width, prog, NULL, 0, err, cap);
    if (rc == 0)
        rc = coll_layout(a, c, err, cap);
    if (rc != 0) {
        emu_array_free(a);
        return NULL;
    }
    return a;
}

int coll_finish(emu_array_t *a, const coll_case_t *c, coll_result_t *out, char *err, size_t cap)
{
    bool interrupted = false;
    if (run_to_end(a, COLL_CLOCK_LIMIT, &interrupted, err, cap) != 0)
        return -1;
    for (unsigned i = 0; i < c->width * c->height; i++) {
        const ca_t *ca = emu_array_ca(a, i % c->width, i / c->width);
        uint64_t t = ca_reg(ca, ISA_REG_A0);
        out->clocks = t > out->clocks ? t : out->clocks;
    }
    if (c->pattern == COLL_BSEND) {
        unsigned first = coll_cell_of(c, 0, 0), last = coll_cell_of(c, 0, coll_group_size(c) - 1);
        out->send_return = ca_reg(emu_array_ca(a, first % c->width, first / c->width), ISA_REG_A0 + 1);
        out->recv_post = ca_reg(emu_array_ca(a, last % c->width, last / c->width), ISA_REG_A0 + 2);
    }
    out->wrong = coll_check(a, c);
    out->bytes = coll_bytes(c);
    return 0;
}

int coll_run(const coll_case_t *c, unsigned threads, coll_result_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (coll_case_check(c, err, cap) != 0)
        return -1;
    if (c->impl == COLL_CONSET)
        return coll_conset_run(c, threads, out, err, cap);
    emu_array_t *a = coll_array(c, threads, "programs/coll/coll_msg.s", err, cap);
    if (a == NULL)
        return -1;
    int rc = coll_finish(a, c, out, err, cap);
    emu_array_free(a);
    return rc;
}
