/*
 * The cell tables on the emulated machine: each phase's forwarding entries, loaded into the agents by COA_LOAD
 * (the pattern loader of docs/network.md), must give exactly the pathways of the plan. Every cell runs a
 * program that loads its entries for phase a0, then in rounds sends a word on each of its sends through go0
 * and reads one from each of its receives through gi0, comparing it with the connection's number; a word that
 * went anywhere else, or a credit that went back to the wrong channel, faults, deadlocks or shows as a wrong
 * word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "emu.h"
#include "iwarp_config.h"
#include "conset/route_tables.h"
#include "route_test.h"

enum {
    TABLES = 0x70000,
    LIMIT = 2000000,
    ROUNDS = 12, /* more than a channel's queue (8 words by default) */
};

/* a0 = the phase, a1 = rounds. In round k every send carries word (connection << 8) + k + 1, then every
 * receive reads one and compares. Returns a0 = words that were not what the receive entry expects, a1 = words
 * received. More rounds than a queue holds make every credit find its way back along the pathway. */
static const char program[] =
    "        .include \"coa.inc\"\n"
    "        .equ TABLES, 0x70000\n"
    "_start: li   r10, TABLES\n"
    "        sll  r11, a0, 2\n"
    "        add  r11, r11, r10\n"
    "        ldw  r11, [r11 + 16]       # the phase's record\n"
    "        add  r11, r11, r10\n"
    "        li   r5, 1\n"
    "        wrcr r5, [COA_SLEEP]\n"
    "        wrcr r11, [COA_LOAD]\n"
    "1:      rdcr r6, [COA_STATUS]\n"
    "        and  r6, r6, COA_STATUS_LOADING\n"
    "        bnez r6, 1b\n"
    "        wrcr zero, [COA_SLEEP]\n"
    "        ldw  r12, [r11]            # n_fwd: skip the entries\n"
    "        sll  r12, r12, 4\n"
    "        add  r12, r12, r11\n"
    "        add  r12, r12, 4\n"
    "        ldw  r13, [r12]            # sends\n"
    "        ldw  r14, [r12 + 4]        # receives\n"
    "        add  r15, r12, 16\n"
    "        sll  r16, r13, 4\n"
    "        add  r16, r16, r15\n"
    "        rdcr r20, [CR_CELL_ID]\n"
    "        li   r30, 0\n"
    "        li   r31, 0\n"
    "        li   r40, 0                 # round\n"
    "10:     beq  r40, a1, 7f\n"
    "        add  r40, r40, 1\n"
    "        mov  r41, r13\n"
    "        mov  r42, r15\n"
    "        beqz r41, 3f\n"
    "2:      ldw  r21, [r42]\n"
    "        ldw  r22, [r42 + 4]\n"
    "        ldw  r23, [r42 + 12]\n"
    "        sll  r24, r21, 8\n"
    "        add  r24, r24, r40\n"
    "        bne  r23, r20, 4f\n"
    "        wrcr r22, [COA_GATE_IN1]   # to itself: the input gate first (a free channel on go0 wants a sign)\n"
    "4:      wrcr r22, [COA_GATE_OUT0]\n"
    "        mov  go0, r24\n"
    "        bne  r23, r20, 5f\n"
    "        mov  r25, gi1\n"
    "        add  r31, r31, 1\n"
    "        beq  r25, r24, 6f\n"
    "        add  r30, r30, 1\n"
    "6:      li   r26, COA_NONE\n"
    "        wrcr r26, [COA_GATE_IN1]\n"
    "5:      add  r42, r42, 16\n"
    "        loop r41, 2b\n"
    "3:      mov  r41, r14\n"
    "        mov  r42, r16\n"
    "        beqz r41, 10b\n"
    "8:      ldw  r21, [r42]\n"
    "        ldw  r22, [r42 + 4]\n"
    "        ldw  r23, [r42 + 12]\n"
    "        beq  r23, r20, 9f          # to itself: checked when sent\n"
    "        wrcr r22, [COA_GATE_IN0]\n"
    "        mov  r25, gi0\n"
    "        sll  r24, r21, 8\n"
    "        add  r24, r24, r40\n"
    "        add  r31, r31, 1\n"
    "        beq  r25, r24, 9f\n"
    "        add  r30, r30, 1\n"
    "9:      add  r42, r42, 16\n"
    "        loop r41, 8b\n"
    "        jmp  10b\n"
    "7:      mov  a0, r30\n"
    "        mov  a1, r31\n"
    "        halt\n";

/* Runs every phase of the plan on a fresh array and checks every word arrived where the tables say. */
static void run_phases(const route_plan_t *plan, unsigned threads, uint64_t *hash)
{
    celldata_t d;
    char err[256];
    assert_int_equal(route_tables(plan, &d, err, sizeof err), 0);
    rt_check_tables(plan, &d);
    static const char *const dirs[] = {IWARP_SOURCE_ROOT "/runtime"};
    asm_options_t ao;
    asm_options_init(&ao);
    ao.include_dirs = dirs;
    ao.ninclude_dirs = 1;
    const cset_t *s = plan->set;
    for (unsigned p = 0; p < plan->nphases; p++) {
        emu_machine_t m;
        emu_machine_defaults(&m);
        m.width = plan->torus.w;
        m.height = plan->torus.h;
        emu_array_t *a;
        if (emu_array_create(&a, &m, err, sizeof err) != 0)
            fail_msg("emu_array_create: %s", err);
        emu_array_set_threads(a, threads);
        asm_result_t r;
        if (asm_assemble_string("tables_test.s", program, strlen(program), &ao, &r) != 0) {
            asm_print_diags(&r, stderr);
            fail_msg("the test program does not assemble");
        }
        const emu_program_t *prog = emu_array_add_program(a, &r.image, err, sizeof err);
        asm_result_free(&r);
        assert_non_null(prog);
        for (unsigned v = 0; v < plan->torus.n; v++) {
            const uint32_t args[2] = {p, ROUNDS};
            assert_int_equal(emu_array_load(a, v % plan->torus.w, v / plan->torus.w, prog, args, 2, err, sizeof err),
                             0);
        }
        if (celldata_load(&d, a, TABLES, err, sizeof err) != 0)
            fail_msg("celldata_load: %s", err);
        emu_run_status_t st = emu_array_run(a, LIMIT);
        if (st != EMU_RUN_DONE) {
            unsigned fx, fy;
            char text[512] = "";
            if (emu_array_first_fault(a, &fx, &fy))
                emu_format_fault(a, fx, fy, text, sizeof text);
            fail_msg("phase %u: the run ended %s %s %s", p, emu_run_status_name(st), text,
                     st == EMU_RUN_DEADLOCK ? emu_array_deadlock(a) : "");
        }
        for (unsigned v = 0; v < plan->torus.n; v++) {
            const ca_t *ca = emu_array_ca(a, v % plan->torus.w, v / plan->torus.w);
            unsigned expect = 0;
            for (unsigned k = 0; k < plan->phases[p].nconns; k++)
                expect += s->conns[plan->phases[p].conns[k]].dst == v;
            expect *= ROUNDS;
            if (ca_reg(ca, 3) != 0 || ca_reg(ca, 4) != expect)
                fail_msg("phase %u, cell %u: %u wrong words, %u received of %u", p, v, ca_reg(ca, 3), ca_reg(ca, 4),
                         expect);
        }
        if (hash != NULL)
            hash[p] = emu_array_hash(a, true, true);
        emu_array_free(a);
    }
    celldata_free(&d);
}

static void check_on_machine(pattern_kind_t k, unsigned w, unsigned h, unsigned capacity)
{
    cset_t s;
    rt_pattern(&s, k, w, h, 4, capacity);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    run_phases(&plan, 1, NULL);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_torus_tables_set_up_every_pathway(void **state)
{
    (void)state;
    check_on_machine(PATTERN_TORUS, 8, 8, 12);
}

static void test_butterfly_tables_set_up_every_pathway(void **state)
{
    (void)state;
    check_on_machine(PATTERN_BUTTERFLY, 8, 8, 12);
    check_on_machine(PATTERN_BUTTERFLY, 8, 8, 16);
}

static void test_alltoall_tables_set_up_every_pathway_in_every_phase(void **state)
{
    (void)state;
    check_on_machine(PATTERN_ALLTOALL, 8, 8, 12);
}

static void test_tables_on_sides_of_one_and_two(void **state)
{
    (void)state;
    /* On a side of 2 both links of a dimension join the same two cells: the source entry must name the one
     * the word comes in on. */
    static const unsigned sizes[][2] = {{2, 1}, {1, 2}, {2, 2}, {2, 3}, {1, 5}, {3, 1}};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_on_machine(PATTERN_ALLTOALL, sizes[i][0], sizes[i][1], 3);
        check_on_machine(PATTERN_TORUS, sizes[i][0], sizes[i][1], 16);
    }
}

static void test_random_sets_with_connections_to_themselves(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        cset_t s;
        rt_random_set(&s, seed, 3 + (unsigned)seed % 4, 2 + (unsigned)seed % 3, 120, 4 + (unsigned)seed, false);
        route_plan_t plan;
        rt_compile(&s, 0, &plan);
        run_phases(&plan, 1, NULL);
        route_plan_free(&plan);
        cset_free(&s);
    }
}

static void test_host_threads_change_nothing(void **state)
{
    (void)state;
    cset_t s;
    rt_pattern(&s, PATTERN_BUTTERFLY, 8, 8, 4, 12);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    uint64_t one[8], four[8];
    assert_true(plan.nphases <= 8);
    run_phases(&plan, 1, one);
    run_phases(&plan, 4, four);
    assert_memory_equal(one, four, sizeof one[0] * plan.nphases);
    route_plan_free(&plan);
    cset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_tables_set_up_every_pathway),
        cmocka_unit_test(test_butterfly_tables_set_up_every_pathway),
        cmocka_unit_test(test_alltoall_tables_set_up_every_pathway_in_every_phase),
        cmocka_unit_test(test_tables_on_sides_of_one_and_two),
        cmocka_unit_test(test_random_sets_with_connections_to_themselves),
        cmocka_unit_test(test_host_threads_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
