/* The scheduler (AS, seed 004 section 4.4.2, and the schedules it is compared with; conset/sched.h). */
#include <stdlib.h>
#include <string.h>

#include "conset/sched.h"
#include "route_test.h"

typedef struct phase {
    unsigned cells, n;
    unsigned src[64], dst[64];
    uint64_t dur[64];
    unsigned after_start[65], after[64];
    bool ordered;
} phase_t;

static void add(phase_t *p, unsigned src, unsigned dst, uint64_t dur)
{
    p->src[p->n] = src;
    p->dst[p->n] = dst;
    p->dur[p->n] = dur;
    p->after_start[p->n + 1] = p->after_start[p->n];
    p->n++;
}

/* Connection c (the last added) follows e. */
static void follows(phase_t *p, unsigned e)
{
    p->after[p->after_start[p->n]++] = e;
    p->ordered = true;
}

/* Schedules and checks: no overlap on any timeline, followers after what they follow; returns the span. */
static uint64_t schedule(const phase_t *p, uint64_t *start)
{
    sched_input_t in = {.cells = p->cells,
                        .n = p->n,
                        .src = p->src,
                        .dst = p->dst,
                        .dur = p->dur,
                        .after_start = p->ordered ? p->after_start : NULL,
                        .after = p->ordered ? p->after : NULL,
                        .seed = 1};
    int64_t span = sched_phase(&in, start);
    assert_true(span >= 0);
    uint64_t latest = 0;
    for (unsigned a = 0; a < p->n; a++) {
        if (start[a] + p->dur[a] > latest)
            latest = start[a] + p->dur[a];
        for (unsigned b = 0; b < a; b++) {
            bool overlap = start[a] < start[b] + p->dur[b] && start[b] < start[a] + p->dur[a];
            if (overlap && (p->src[a] == p->src[b] || p->dst[a] == p->dst[b]))
                fail_msg("connections %u and %u overlap on a timeline", a, b);
        }
        for (unsigned k = p->after_start[a]; p->ordered && k < p->after_start[a + 1]; k++)
            assert_true(start[a] >= start[p->after[k]] + p->dur[p->after[k]]);
    }
    assert_int_equal((uint64_t)span, latest);
    return (uint64_t)span;
}

static void test_one_cell_sending_to_several_takes_their_sum(void **state)
{
    (void)state;
    phase_t p = {.cells = 4};
    add(&p, 0, 1, 10);
    add(&p, 0, 2, 30);
    add(&p, 0, 3, 20);
    uint64_t start[64];
    assert_int_equal(schedule(&p, start), 60);
    /* Longest first, from the busiest cell. */
    assert_int_equal(start[1], 0);
    assert_int_equal(start[2], 30);
    assert_int_equal(start[0], 50);
}

static void test_sends_and_receives_of_a_cell_overlap(void **state)
{
    (void)state;
    /* A cell streams one word out and one in every 2 clocks: a ring of exchanges takes one transfer. */
    phase_t p = {.cells = 3};
    add(&p, 0, 1, 512);
    add(&p, 1, 2, 512);
    add(&p, 2, 0, 512);
    uint64_t start[64];
    assert_int_equal(schedule(&p, start), 512);
}

static void test_a_connection_to_itself_uses_both_timelines_of_its_cell(void **state)
{
    (void)state;
    phase_t p = {.cells = 2};
    add(&p, 0, 0, 8);
    add(&p, 0, 1, 8);
    add(&p, 1, 0, 8);
    uint64_t start[64];
    assert_int_equal(schedule(&p, start), 16);
}

static void test_equal_connections_take_as_many_slots_as_the_busiest_cell(void **state)
{
    (void)state;
    /* A 3-regular bipartite pattern where first fit in file order needs 4 slots. */
    phase_t p = {.cells = 8};
    for (unsigned v = 0; v < 8; v++)
        for (unsigned k = 1; k <= 3; k++)
            add(&p, v, (v + k * k) % 8, 100);
    uint64_t start[64];
    assert_int_equal(schedule(&p, start), 300);
}

static void test_ordering_constraints_wait_for_the_end(void **state)
{
    (void)state;
    phase_t p = {.cells = 4};
    add(&p, 0, 1, 10);
    add(&p, 2, 3, 10);
    follows(&p, 0);
    add(&p, 3, 2, 5);
    follows(&p, 1);
    uint64_t start[64];
    assert_int_equal(schedule(&p, start), 25);
    assert_int_equal(start[1], 10);
    assert_int_equal(start[2], 20);
}

static void test_no_schedule_is_shorter_than_the_busiest_timeline(void **state)
{
    (void)state;
    uint64_t r = 5;
    for (unsigned round = 0; round < 200; round++) {
        phase_t p = {.cells = 1 + round % 9};
        unsigned n = 1 + round % 40;
        uint64_t send[16] = {0}, recv[16] = {0};
        for (unsigned i = 0; i < n; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            unsigned a = (unsigned)(r >> 33) % p.cells, b = (unsigned)(r >> 45) % p.cells;
            uint64_t d = round % 3 == 0 ? 64 : 2 + (r >> 20) % 100;
            add(&p, a, b, d);
            if (i > 0 && round % 5 == 0 && (r >> 13) % 3 == 0)
                follows(&p, (unsigned)(r >> 7) % i);
            send[a] += d;
            recv[b] += d;
        }
        uint64_t start[64], most = 0;
        for (unsigned v = 0; v < p.cells; v++) {
            most = send[v] > most ? send[v] : most;
            most = recv[v] > most ? recv[v] : most;
        }
        assert_true(schedule(&p, start) >= most);
    }
}

static void test_an_empty_phase_takes_no_time(void **state)
{
    (void)state;
    phase_t p = {.cells = 4};
    uint64_t start[1];
    assert_int_equal(schedule(&p, start), 0);
}

/* With links, two connections that share one never overlap, even from and to different cells; without,
 * the seed's AS lets them. */
static void test_connections_sharing_a_link_are_kept_apart_with_links(void **state)
{
    (void)state;
    /* 0 -> 2 and 1 -> 3 both cross link 7; 4 -> 5 crosses link 8 only. */
    unsigned src[3] = {0, 1, 4}, dst[3] = {2, 3, 5}, link_start[4] = {0, 2, 4, 5}, links[5] = {6, 7, 7, 9, 8};
    uint64_t dur[3] = {40, 30, 40}, start[3];
    sched_input_t in = {.cells = 6, .n = 3, .src = src, .dst = dst, .dur = dur, .seed = 1};
    assert_int_equal(sched_phase(&in, start), 40);
    assert_int_equal(start[0], 0);
    assert_int_equal(start[1], 0);
    in.nlinks = 10;
    in.link_start = link_start;
    in.links = links;
    assert_int_equal(sched_phase(&in, start), 70);
    assert_true(start[0] >= start[1] + dur[1] || start[1] >= start[0] + dur[0]);
    assert_int_equal(start[2], 0);
}

/* The ConSet paper's AS alone (greedy_only), by hand: every cell's MIN_TIME is 20, so cell 0 goes first, with
 * its longest connection of the lowest number each time: c0 0 -> 3 at 0, c1 3 -> 0 at 0, c2 0 -> 1 at 10 (cell 0
 * sends until 10); then c3 3 -> 1 waits for cell 3's send (until 10) and cell 1's receive (until 20): 30 clocks.
 * Our other schedules meet the busiest timeline, 20 (c0 and c3 first, then c1 and c2). */
static void test_the_papers_greedy_alone_takes_the_busiest_cell_first(void **state)
{
    (void)state;
    unsigned src[4] = {0, 3, 0, 3}, dst[4] = {3, 0, 1, 1};
    uint64_t dur[4] = {10, 10, 10, 10}, start[4];
    sched_input_t in = {.cells = 4, .n = 4, .src = src, .dst = dst, .dur = dur, .seed = 1, .greedy_only = true};
    assert_int_equal(sched_phase(&in, start), 30);
    assert_int_equal(start[0], 0);
    assert_int_equal(start[1], 0);
    assert_int_equal(start[2], 10);
    assert_int_equal(start[3], 20);
    in.greedy_only = false;
    assert_int_equal(sched_phase(&in, start), 20);
}

/* One timeline per cell (the ConSet paper's AS as section 4.4.2 words it, for code without LIW): a cell's sends
 * and receives no longer overlap. Two cells exchanging 10 clocks each way take 10 on two timelines, 20 on one. */
static void test_one_timeline_puts_a_cells_send_after_its_receive(void **state)
{
    (void)state;
    unsigned src[2] = {0, 1}, dst[2] = {1, 0};
    uint64_t dur[2] = {10, 10}, start[2];
    sched_input_t in = {.cells = 2, .n = 2, .src = src, .dst = dst, .dur = dur, .seed = 1};
    assert_int_equal(sched_phase(&in, start), 10);
    in.one_timeline = true;
    assert_int_equal(sched_phase(&in, start), 20);
    assert_true(start[0] == 10 || start[1] == 10);
}

/* The greedy of the test above on one timeline, by hand: cells 0 and 3 have 30 clocks each (c0, c1 and a send
 * to 1), cell 1 20. Cell 0 first: c0 0 -> 3 at 0, c1 3 -> 0 at 10 (cell 0 and 3 busy until then), c2 0 -> 1 at
 * 20; then cell 1 (30, the first of equals with cell 3): c3 3 -> 1 waits for cell 3 (until 20) and cell 1
 * (until 30): 40 clocks, where two timelines gave 30. */
static void test_the_papers_greedy_on_one_timeline(void **state)
{
    (void)state;
    unsigned src[4] = {0, 3, 0, 3}, dst[4] = {3, 0, 1, 1};
    uint64_t dur[4] = {10, 10, 10, 10}, start[4];
    sched_input_t in = {.cells = 4, .n = 4, .src = src, .dst = dst, .dur = dur, .seed = 1, .greedy_only = true,
                        .one_timeline = true};
    assert_int_equal(sched_phase(&in, start), 40);
    assert_int_equal(start[0], 0);
    assert_int_equal(start[1], 10);
    assert_int_equal(start[2], 20);
    assert_int_equal(start[3], 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_cell_sending_to_several_takes_their_sum),
        cmocka_unit_test(test_sends_and_receives_of_a_cell_overlap),
        cmocka_unit_test(test_a_connection_to_itself_uses_both_timelines_of_its_cell),
        cmocka_unit_test(test_equal_connections_take_as_many_slots_as_the_busiest_cell),
        cmocka_unit_test(test_ordering_constraints_wait_for_the_end),
        cmocka_unit_test(test_no_schedule_is_shorter_than_the_busiest_timeline),
        cmocka_unit_test(test_an_empty_phase_takes_no_time),
        cmocka_unit_test(test_connections_sharing_a_link_are_kept_apart_with_links),
        cmocka_unit_test(test_the_papers_greedy_alone_takes_the_busiest_cell_first),
        cmocka_unit_test(test_one_timeline_puts_a_cells_send_after_its_receive),
        cmocka_unit_test(test_the_papers_greedy_on_one_timeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
