/* The tables of emu/state_fields.h. Each struct's fields in their order in the header: the test reads the header
 * and matches them. */
#include "state_fields.h"

#include "ca.h"
#include "coa.h"
#include "fault.h"

#define SIZE(T, f) sizeof(((T *)0)->f)
#define F(T, f, how)                                                                                                   \
    {                                                                                                                  \
#f, offsetof(T, f), SIZE(T, f), how, NULL, NULL                                                                \
    }
#define NEST(T, f, table)                                                                                              \
    {                                                                                                                  \
#f, offsetof(T, f), SIZE(T, f), STATE_NESTED, &table, NULL                                                     \
    }
#define HAND(T, f, table, why)                                                                                         \
    {                                                                                                                  \
#f, offsetof(T, f), SIZE(T, f), STATE_BY_HAND, table, why                                                      \
    }
#define SKIP(T, f, why)                                                                                                \
    {                                                                                                                  \
#f, offsetof(T, f), SIZE(T, f), STATE_NOT_HASHED, NULL, why                                                    \
    }
#define TABLE(name, T, file, fields)                                                                                   \
    static const state_struct_t name = {#T, file, sizeof(struct T), fields, sizeof fields / sizeof fields[0]}

static const state_field_t ca_stats_fields[] = {
    F(ca_stats_t, bundles, STATE_STATS),        F(ca_stats_t, ops, STATE_STATS),
    F(ca_stats_t, busy_clocks, STATE_STATS),    F(ca_stats_t, stall_clocks, STATE_STATS),
    F(ca_stats_t, mem_reads, STATE_STATS),      F(ca_stats_t, mem_writes, STATE_STATS),
    F(ca_stats_t, gate_reads, STATE_STATS),     F(ca_stats_t, gate_writes, STATE_STATS),
    F(ca_stats_t, cr_reads, STATE_STATS),       F(ca_stats_t, cr_writes, STATE_STATS),
    F(ca_stats_t, branches_taken, STATE_STATS), F(ca_stats_t, events, STATE_STATS),
};
TABLE(ca_stats, ca_stats, "emu/ca.h", ca_stats_fields);

static const state_field_t fault_fields[] = {
    F(emu_fault_t, kind, STATE_BYTES), F(emu_fault_t, pc, STATE_BYTES),    F(emu_fault_t, cycle, STATE_BYTES),
    F(emu_fault_t, addr, STATE_BYTES), F(emu_fault_t, detail, STATE_TEXT),
};
TABLE(emu_fault, emu_fault, "emu/fault.h", fault_fields);

static const state_field_t ca_fields[] = {
    F(ca_state_block_t, regs, STATE_BYTES),
    F(ca_state_block_t, pc, STATE_BYTES),
    F(ca_state_block_t, state, STATE_BYTES),
    F(ca_state_block_t, ready_at, STATE_BYTES),
    HAND(ca_state_block_t, wait_since, NULL,
         "in the stall clocks, settled as if now: a run that closed its books at a stop moved it to that clock"),
    F(ca_state_block_t, wait_cause, STATE_BYTES),
    F(ca_state_block_t, wait_gate, STATE_BYTES),
    F(ca_state_block_t, wfe_armed, STATE_BYTES),
    F(ca_state_block_t, wfe_reached, STATE_BYTES),
    F(ca_state_block_t, wfe_token, STATE_BYTES),
    F(ca_state_block_t, mem_busy_until, STATE_BYTES),
    F(ca_state_block_t, halted_at, STATE_BYTES),
    F(ca_state_block_t, events_on, STATE_BYTES),
    F(ca_state_block_t, in_handler, STATE_BYTES),
    F(ca_state_block_t, event_mask, STATE_BYTES),
    F(ca_state_block_t, event_vector, STATE_BYTES),
    F(ca_state_block_t, epc, STATE_BYTES),
    F(ca_state_block_t, event_pending, STATE_BYTES),
    F(ca_state_block_t, timer_at, STATE_BYTES),
    NEST(ca_state_block_t, fault, emu_fault),
    HAND(ca_state_block_t, stats, &ca_stats, "settled as if now, an open wait's clocks counted (ca_finish)"),
    SKIP(ca_state_block_t, wait_began,
         "when the current wait began, read by reports only (deadlock, stall watch): the machine never reads it"),
};
TABLE(ca_state_block, ca_state_block, "emu/ca.h", ca_fields);

static const state_field_t config_fields[] = {
#define COA_KEY(field, def, min, max, unit, doc, source) F(coa_config_t, field, STATE_BYTES),
#include "coa_keys.def"
#undef COA_KEY
};
TABLE(coa_config, coa_config, "comm_agent/coa.h", config_fields);

static const state_field_t place_fields[] = {
    F(coa_place_t, x, STATE_BYTES),
    F(coa_place_t, y, STATE_BYTES),
    F(coa_place_t, width, STATE_BYTES),
    F(coa_place_t, height, STATE_BYTES),
};
TABLE(coa_place, coa_place, "comm_agent/coa.h", place_fields);

static const state_field_t end_fields[] = {
    F(coa_end_t, kind, STATE_BYTES),
    F(coa_end_t, dir, STATE_BYTES),
    F(coa_end_t, index, STATE_BYTES),
};
TABLE(coa_end, coa_end, "comm_agent/coa.h", end_fields);

static const state_field_t lc_stats_fields[] = {
    F(coa_lc_stats_t, words_in, STATE_STATS),      F(coa_lc_stats_t, words_out, STATE_STATS),
    F(coa_lc_stats_t, occupancy_sum, STATE_STATS), F(coa_lc_stats_t, occupancy_max, STATE_STATS),
    F(coa_lc_stats_t, wait_clocks, STATE_STATS),   F(coa_lc_stats_t, pathways, STATE_STATS),
    F(coa_lc_stats_t, held_pathways, STATE_STATS), F(coa_lc_stats_t, held_clocks, STATE_STATS),
    F(coa_lc_stats_t, held_max, STATE_STATS),
};
TABLE(coa_lc_stats, coa_lc_stats, "comm_agent/coa.h", lc_stats_fields);

static const char lazy[] = "books of the waits and occupancy counted lazily: a run that stops settles them where "
                           "one that runs on does not; the statistics are hashed settled as if now";

static const state_field_t lc_fields[] = {
    F(coa_lc_t, state, STATE_BYTES),
    NEST(coa_lc_t, route, coa_end),
    NEST(coa_lc_t, source, coa_end),
    F(coa_lc_t, travel_dir, STATE_BYTES),
    F(coa_lc_t, pool, STATE_BYTES),
    F(coa_lc_t, owned_by_link, STATE_BYTES),
    F(coa_lc_t, open_pending, STATE_BYTES),
    F(coa_lc_t, trailer_sent, STATE_BYTES),
    F(coa_lc_t, credits, STATE_BYTES),
    F(coa_lc_t, head, STATE_BYTES),
    F(coa_lc_t, count, STATE_BYTES),
    F(coa_lc_t, ntagged, STATE_BYTES),
    F(coa_lc_t, setup_started, STATE_BYTES),
    F(coa_lc_t, header_out, STATE_BYTES),
    F(coa_lc_t, last_wait, STATE_BYTES),
    F(coa_lc_t, setup_done, STATE_BYTES),
    F(coa_lc_t, moved_at, STATE_BYTES),
    F(coa_lc_t, header_at, STATE_BYTES),
    HAND(coa_lc_t, occupancy_base, NULL, lazy),
    HAND(coa_lc_t, stats_since, NULL, lazy),
    HAND(coa_lc_t, frozen_from, NULL, lazy),
};
TABLE(coa_lc, coa_lc, "comm_agent/coa.h", lc_fields);

static const state_field_t spool_fields[] = {
    F(coa_spool_t, mode, STATE_BYTES),     F(coa_spool_t, lc, STATE_BYTES),       F(coa_spool_t, status, STATE_BYTES),
    F(coa_spool_t, addr, STATE_BYTES),     F(coa_spool_t, stride, STATE_BYTES),   F(coa_spool_t, count, STATE_BYTES),
    F(coa_spool_t, tag_head, STATE_BYTES), F(coa_spool_t, tag_tail, STATE_BYTES), F(coa_spool_t, index, STATE_BYTES),
    F(coa_spool_t, words, STATE_BYTES),
};
TABLE(coa_spool, coa_spool, "comm_agent/coa.h", spool_fields);

static const state_field_t link_stats_fields[] = {
    F(coa_link_stats_t, words, STATE_STATS),
    F(coa_link_stats_t, busy_clocks, STATE_STATS),
};
TABLE(coa_link_stats, coa_link_stats, "comm_agent/coa.h", link_stats_fields);

static const state_field_t coa_fault_fields[] = {
    F(coa_fault_t, raised, STATE_BYTES),
    F(coa_fault_t, addr, STATE_BYTES),
    F(coa_fault_t, detail, STATE_TEXT),
};
TABLE(coa_fault, coa_fault, "comm_agent/coa.h", coa_fault_fields);

static const state_field_t coa_fields[] = {
    NEST(coa_t, cfg, coa_config),
    NEST(coa_t, at, coa_place),
    NEST(coa_t, lc, coa_lc),
    HAND(coa_t, lc_stats, &coa_lc_stats, lazy),
    NEST(coa_t, spool, coa_spool),
    F(coa_t, gate_in_lc, STATE_BYTES),
    F(coa_t, gate_out_lc, STATE_BYTES),
    F(coa_t, tag_next, STATE_BYTES),
    F(coa_t, asleep, STATE_BYTES),
    F(coa_t, loading, STATE_BYTES),
    F(coa_t, load_addr, STATE_BYTES),
    F(coa_t, load_left, STATE_BYTES),
    F(coa_t, load_index, STATE_BYTES),
    F(coa_t, load_entry, STATE_BYTES),
    HAND(coa_t, arrivals, NULL, "the queue's first narrivals: the entries after them are left from earlier arrivals"),
    F(coa_t, narrivals, STATE_BYTES),
    F(coa_t, local_pool, STATE_BYTES),
    F(coa_t, link_pool, STATE_BYTES),
    F(coa_t, remote_free, STATE_BYTES),
    F(coa_t, blocked_lc, STATE_BYTES),
    F(coa_t, link_free_at, STATE_BYTES),
    F(coa_t, rr, STATE_BYTES),
    F(coa_t, link_last_lc, STATE_BYTES),
    NEST(coa_t, link_stats, coa_link_stats),
    F(coa_t, spool_rr, STATE_BYTES),
    F(coa_t, moved, STATE_BYTES),
    F(coa_t, busy_lc, STATE_BYTES),
    F(coa_t, tagged_lc, STATE_BYTES),
    F(coa_t, header_lc, STATE_BYTES),
    F(coa_t, routed_lc, STATE_BYTES),
    F(coa_t, credit_lc, STATE_BYTES),
    HAND(coa_t, frozen_lc, NULL, lazy),
    F(coa_t, link_lc, STATE_BYTES),
    F(coa_t, linked_lc, STATE_BYTES),
    SKIP(coa_t, header_work_lc,
         "a summary of header_lc, blocked_lc, tagged_lc and linked_lc (coa_note_header_work), which are hashed"),
    F(coa_t, spools_active, STATE_BYTES),
    F(coa_t, spools_stuck, STATE_BYTES),
    SKIP(coa_t, spools_ready, "a summary of spools_active and spools_stuck (coa_note_spools_ready), which are hashed"),
    F(coa_t, stuck_lcs, STATE_BYTES),
    F(coa_t, stuck_on, STATE_BYTES),
    F(coa_t, spool_events, STATE_BYTES),
    F(coa_t, out_pending_until, STATE_BYTES),
    NEST(coa_t, fault, coa_fault),
    SKIP(coa_t, w,
         "wiring: where the state lives and whom the agent talks to, set when the array is built; the "
         "queues' words are hashed by hand"),
};
TABLE(coa, coa, "comm_agent/coa.h", coa_fields);

const state_struct_t *state_fields_ca(void)
{
    return &ca_state_block;
}
const state_struct_t *state_fields_coa(void)
{
    return &coa;
}
const state_struct_t *state_fields_ca_stats(void)
{
    return &ca_stats;
}
const state_struct_t *state_fields_coa_lc_stats(void)
{
    return &coa_lc_stats;
}

const state_struct_t *const *state_fields_all(unsigned *n)
{
    static const state_struct_t *const all[] = {&ca_stats,  &emu_fault,      &ca_state_block, &coa_config,
                                                &coa_place, &coa_end,        &coa_lc_stats,   &coa_lc,
                                                &coa_spool, &coa_link_stats, &coa_fault,      &coa};
    *n = sizeof all / sizeof all[0];
    return all;
}
