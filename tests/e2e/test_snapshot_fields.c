/* A snapshot file that sums right but holds a field out of its range is refused at its load, with the field named:
 * the checksum only tells a damaged file from a good one, and a file made to harm passes it. Each test forges one
 * field of one class (an index, a state, a count, a size, the agent's copy of the machine, a mask that summarizes
 * the channels) in a real snapshot, sums the file again and loads it. The fields are found from the machine and
 * the layout of a cell's block, as test_snapshots.c finds the slots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "array_internal.h"
#include "e2e.h"
#include "snapshot_oracle.h"

/* A cell's block in the file, as emu/snapshot.c writes it (the file's header gives its size: checked below). */
typedef struct cell_snap {
    ca_state_block_t ca;
    coa_t coa;
    emu_cell_saved_t saved;
} cell_snap_t;

/* The cell whose field is forged: not the first, so that the message's coordinates are checked too. */
enum { FORGED_X = 3, FORGED_Y = 1 };

typedef struct forge {
    e2e_run_t run;
    emu_array_t *array;
    emu_snapshot_t *snap;
    char path[32];
    uint8_t *file;
    size_t size;
    size_t cell_at; /* where the forged cell's block starts in the file */
} forge_t;

/* A snapshot of pathway.run in the middle of its traffic, saved and read back into memory. */
static void forge_start(forge_t *f)
{
    static const char *const none[1] = {NULL};
    memset(f, 0, sizeof *f);
    e2e_run_file(&f->run, "programs/net/pathway.run");
    assert_int_equal(run_desc_build(&f->run.desc, none, 0, none, 0, &f->array), 0);
    assert_int_equal(emu_array_run(f->array, 300), EMU_RUN_LIMIT);
    f->snap = emu_snapshot_take(f->array);
    assert_non_null(f->snap);
    strcpy(f->path, "/tmp/iwarp-forged-XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    assert_int_equal(emu_snapshot_save(f->snap, f->path, err, sizeof err), 0);
    FILE *in = fopen(f->path, "rb");
    assert_non_null(in);
    assert_int_equal(fseek(in, 0, SEEK_END), 0);
    f->size = (size_t)ftell(in);
    rewind(in);
    f->file = malloc(f->size);
    assert_non_null(f->file);
    assert_int_equal(fread(f->file, 1, f->size, in), f->size);
    fclose(in);
    /* From the end: the sum, the slots, the queues' tags and words, the memories, then the cells' blocks. */
    const emu_machine_t *m = &f->run.desc.machine;
    size_t ncells = (size_t)m->width * m->height, nslots = ncells * 4 * snapshot_slots_of_a_line(m->agent.hop_latency);
    size_t qwords = ncells * m->agent.channels * m->agent.queue_depth;
    size_t cells_at = f->size - 8 - nslots * sizeof(coa_slot_t) - qwords * 5 - ncells * m->mem_bytes -
                      ncells * sizeof(cell_snap_t);
    uint32_t block_size;
    memcpy(&block_size, f->file + 8, sizeof block_size); /* the header's first size, after the magic */
    assert_int_equal(block_size, sizeof(cell_snap_t));
    assert_true(FORGED_X < m->width && FORGED_Y < m->height);
    f->cell_at = cells_at + ((size_t)FORGED_Y * m->width + FORGED_X) * sizeof(cell_snap_t);
}

static const emu_machine_t *forge_machine(const forge_t *f)
{
    return &f->run.desc.machine;
}

/* Overwrites `n` bytes at `offset` in the forged cell's block. */
static void forge_field(forge_t *f, size_t offset, const void *value, size_t n)
{
    memcpy(f->file + f->cell_at + offset, value, n);
}

/* The forged cell's block as the file holds it now. */
static cell_snap_t forge_cell(const forge_t *f)
{
    cell_snap_t c;
    memcpy(&c, f->file + f->cell_at, sizeof c);
    return c;
}

/* Sums the file again, writes and loads it: it must be refused with `want` in the message, after the file and
 * the cell. */
static void forge_expect_refused(forge_t *f, const char *want)
{
    uint64_t sum = snapshot_file_sum(f->file, f->size - 8);
    memcpy(f->file + f->size - 8, &sum, 8);
    FILE *out = fopen(f->path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(f->file, 1, f->size, out), f->size);
    fclose(out);
    char err[400], where[300];
    emu_snapshot_t *s = emu_snapshot_load(f->path, err, sizeof err);
    if (s != NULL) {
        emu_snapshot_free(s);
        fail_msg("the forged snapshot loaded; expected \"%s\"", want);
    }
    snprintf(where, sizeof where, "%s: cell (%u,%u) %s", f->path, FORGED_X, FORGED_Y, want);
    if (strstr(err, where) == NULL)
        fail_msg("refused with \"%s\", expected \"%s\"", err, where);
}

static void forge_end(forge_t *f)
{
    unlink(f->path);
    free(f->file);
    emu_snapshot_free(f->snap);
    emu_array_free(f->array);
    e2e_free(&f->run);
}

/* The file as written loads: what the tests below change is all that makes them refused. */
static void test_the_unforged_snapshot_loads(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    uint64_t sum = snapshot_file_sum(f.file, f.size - 8);
    assert_memory_equal(f.file + f.size - 8, &sum, 8);
    char err[400];
    emu_snapshot_t *s = emu_snapshot_load(f.path, err, sizeof err);
    if (s == NULL)
        fail_msg("%s", err);
    assert_int_equal(emu_snapshot_restore(f.array, s, err, sizeof err), 0);
    emu_snapshot_free(s);
    forge_end(&f);
}

/* The agent's copy of its configuration: a queue depth of 1024 made coa_lc_push write past the queues. */
static void test_an_agent_config_other_than_the_machine_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    unsigned depth = 1024;
    forge_field(&f, offsetof(cell_snap_t, coa.cfg.queue_depth), &depth, sizeof depth);
    char want[100];
    snprintf(want, sizeof want, "coa.cfg.queue_depth is 1024, the machine has %u",
             forge_machine(&f)->agent.queue_depth);
    forge_expect_refused(&f, want);
    forge_end(&f);
}

/* A state: 77 as the CA's made the console's `stats` count it at cells[77] of an array on the stack. */
static void test_a_ca_state_out_of_range_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    ca_state_t st = (ca_state_t)77;
    forge_field(&f, offsetof(cell_snap_t, ca.state), &st, sizeof st);
    forge_expect_refused(&f, "ca.state is 77, the states are 0..4");
    forge_end(&f);
}

/* An index: the gate a CA waits for names the gate the console's wait text and the deadlock report look up. */
static void test_a_wait_gate_out_of_range_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    uint8_t g = 77;
    forge_field(&f, offsetof(cell_snap_t, ca.wait_gate), &g, sizeof g);
    forge_expect_refused(&f, "ca.wait_gate is 77, the gates are 0..3");
    forge_end(&f);
}

/* r0, which the core adds to immediate operands as it runs ahead: anything but 0 would change their values. */
static void test_a_nonzero_r0_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    uint32_t r0 = 5;
    forge_field(&f, offsetof(cell_snap_t, ca.regs), &r0, sizeof r0);
    forge_expect_refused(&f, "ca.regs[0] is 0x5, not 0: r0 always reads 0");
    forge_end(&f);
}

/* A count: words in a channel's queue beyond its depth. */
static void test_a_queue_count_beyond_its_depth_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    uint16_t count = (uint16_t)(forge_machine(&f)->agent.queue_depth + 1u);
    forge_field(&f, offsetof(cell_snap_t, coa.lc[2].count), &count, sizeof count);
    char want[100];
    snprintf(want, sizeof want, "coa.lc[2].count is %u, the queue holds %u", count,
             forge_machine(&f)->agent.queue_depth);
    forge_expect_refused(&f, want);
    forge_end(&f);
}

/* A size: the console line's length, at which the next character is written. */
static void test_a_console_length_beyond_its_line_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    unsigned len = EMU_CONSOLE_LINE;
    forge_field(&f, offsetof(cell_snap_t, saved.console_len), &len, sizeof len);
    forge_expect_refused(&f, "console_len is 4096, the line holds 4095");
    forge_end(&f);
}

/* A mask that summarizes the channels: an empty channel in busy_lc would be popped below zero. */
static void test_a_busy_mask_that_disagrees_with_the_queues_is_refused(void **state)
{
    (void)state;
    forge_t f;
    forge_start(&f);
    cell_snap_t c = forge_cell(&f);
    unsigned lc = 0;
    while (lc < forge_machine(&f)->agent.channels && c.coa.lc[lc].count != 0)
        lc++;
    assert_true(lc < forge_machine(&f)->agent.channels);
    uint64_t busy = c.coa.busy_lc | 1ull << lc;
    forge_field(&f, offsetof(cell_snap_t, coa.busy_lc), &busy, sizeof busy);
    char want[100];
    snprintf(want, sizeof want, "coa.busy_lc is 0x%llx, the channels holding words are 0x%llx",
             (unsigned long long)busy, (unsigned long long)c.coa.busy_lc);
    forge_expect_refused(&f, want);
    forge_end(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_unforged_snapshot_loads),
        cmocka_unit_test(test_an_agent_config_other_than_the_machine_is_refused),
        cmocka_unit_test(test_a_ca_state_out_of_range_is_refused),
        cmocka_unit_test(test_a_wait_gate_out_of_range_is_refused),
        cmocka_unit_test(test_a_nonzero_r0_is_refused),
        cmocka_unit_test(test_a_queue_count_beyond_its_depth_is_refused),
        cmocka_unit_test(test_a_console_length_beyond_its_line_is_refused),
        cmocka_unit_test(test_a_busy_mask_that_disagrees_with_the_queues_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
