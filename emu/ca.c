/* The computation agent core: issue rules, operation semantics and commit. */
#include "ca.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ca_dispatch.h"
#include "ca_values.h"
#include "iwarp_config.h"

const char *ca_state_name(ca_state_t st)
{
    static const char *const names[] = {
#define X(id, name) name,
        CA_STATES(X)
#undef X
    };
    return (size_t)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

const char *ca_stall_cause_name(ca_stall_cause_t c)
{
    static const char *const names[] = {
#define X(id, name) name,
        CA_STALL_CAUSES(X)
#undef X
    };
    return (size_t)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

void ca_init(ca_t *ca, uint8_t *mem, uint32_t mem_bytes, uint32_t mem_guard, ca_port_t port)
{
    /* A port without an activity count or a quiet register gets counts that never move and are never 0: the wait
     * loops' wfe and rdcr read them with no test for NULL. */
    static const uint64_t no_activity = 0;
    static const unsigned never_quiet = 1;
    memset(ca, 0, sizeof *ca);
    ca->mem = mem;
    ca->mem_bytes = mem_bytes;
    ca->mem_guard = mem_guard;
    ca->port = port;
    if (ca->port.activity == NULL)
        ca->port.activity = &no_activity;
    if (ca->port.quiet_count == NULL)
        ca->port.quiet_count = &never_quiet;
    /* And gates that name no channel here: step_bundle then always asks gate_take. */
    static const uint8_t no_gate_lc[ISA_NUM_GATES_IN] = {UINT8_MAX, UINT8_MAX};
    static const uint64_t no_busy = 0;
    if (ca->port.gate_in_lc == NULL) {
        ca->port.gate_in_lc = no_gate_lc;
        ca->port.busy = &no_busy;
    }
    ca->mem_clean = true; /* emu_cell_init maps it zeroed */
    ca->s.state = CA_IDLE;
    ca->awake_issue_at = UINT64_MAX;
}

int ca_mem_read(const ca_t *ca, uint32_t addr, void *buf, uint32_t len)
{
    if (addr > ca->mem_bytes || len > ca->mem_bytes - addr)
        return -1;
    memcpy(buf, ca->mem + addr, len);
    return 0;
}

int ca_mem_write(ca_t *ca, uint32_t addr, const void *buf, uint32_t len)
{
    if (addr > ca->mem_bytes || len > ca->mem_bytes - addr)
        return -1;
    memcpy(ca->mem + addr, buf, len);
    ca->mem_clean = false;
    return 0;
}

static bool range_in(uint32_t base, uint64_t len, uint32_t lo, uint32_t hi)
{
    return base >= lo && base + len <= hi;
}

int ca_load(ca_t *ca, const emu_program_t *prog, char *err, size_t errlen)
{
    const isa_image_t *img = &prog->image;
    uint64_t text_bytes = 4ull * img->text_words;
    uint64_t data_end = (uint64_t)img->data_base + img->data_bytes + img->bss_bytes;
    if (!range_in(img->text_base, text_bytes, ca->mem_guard, ca->mem_bytes) ||
        !range_in(img->data_base, data_end - img->data_base, ca->mem_guard, ca->mem_bytes)) {
        snprintf(err, errlen, "image (text 0x%x+%llu, data 0x%x+%u, bss %u) does not fit memory 0x%x..0x%x",
                 img->text_base, (unsigned long long)text_bytes, img->data_base, img->data_bytes, img->bss_bytes,
                 ca->mem_guard, ca->mem_bytes);
        return -1;
    }
    if (!ca->mem_clean)
        memset(ca->mem, 0, ca->mem_bytes);
    ca->mem_clean = false; /* the program may write anywhere from now on, and so may its spools */
    for (uint32_t i = 0; i < img->text_words; i++) {
        uint32_t w = img->text[i];
        uint8_t le[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
        memcpy(ca->mem + img->text_base + 4 * i, le, 4);
    }
    if (img->data_bytes)
        memcpy(ca->mem + img->data_base, img->data, img->data_bytes);

    ca->prog = prog;
    memset(&ca->s, 0, sizeof ca->s);
    ca->s.pc = img->entry;
    ca->s.regs[ISA_REG_SP] = ca->mem_bytes & ~7u;
    ca->s.state = CA_RUNNING;
    ca->s.mem_busy_until = 0;
    ca->awake_issue_at = UINT64_MAX;
    return 0;
}

void ca_set_arg(ca_t *ca, unsigned i, uint32_t value)
{
    if (i < 8)
        ca->s.regs[ISA_REG_A0 + i] = value;
}

/* ca_finish, inline for wait_for, which runs at the first clock of every wait. */
static inline void finish_wait(ca_state_block_t *s, uint64_t now)
{
    if (s->state == CA_WAITING && now > s->wait_since) {
        s->stats.stall_clocks[s->wait_cause] += now - s->wait_since;
        s->wait_since = now;
    }
}

void ca_finish(ca_t *ca, uint64_t now) { finish_wait(&ca->s, now); }

static void set_fault(ca_t *ca, uint64_t now, emu_fault_kind_t kind, uint32_t pc, uint32_t addr, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

void ca_raise_fault(ca_t *ca, uint64_t now, emu_fault_kind_t kind, uint32_t addr, const char *detail)
{
    /* A halted cell's agent still forwards words, and can still fault; a first fault is kept. */
    if (ca->s.state == CA_FAULTED)
        return;
    ca_finish(ca, now);
    set_fault(ca, now, kind, ca->s.pc, addr, "%s", detail);
}

static void set_fault(ca_t *ca, uint64_t now, emu_fault_kind_t kind, uint32_t pc, uint32_t addr, const char *fmt, ...)
{
    ca->s.fault.kind = kind;
    ca->s.fault.pc = pc;
    ca->s.fault.cycle = now;
    ca->s.fault.addr = addr;
    ca->s.fault.detail[0] = '\0';
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ca->s.fault.detail, sizeof ca->s.fault.detail, fmt, ap);
        va_end(ap);
    }
    ca->s.state = CA_FAULTED;
    ca->s.halted_at = now;
}

/* Checks an access; on failure records the fault and returns false. */
static bool check_access(ca_t *ca, uint64_t now, uint32_t pc, uint32_t addr, unsigned size, bool write);

/* What access_ok checks against, copied into locals by the issuing functions: a store goes through a byte pointer,
 * which may alias anything, so fields read through ca would be read again after every store. */
typedef struct mem_bounds {
    uint32_t guard, bytes, text_base, text_end;
} mem_bounds_t;

static inline mem_bounds_t mem_bounds(const ca_t *ca)
{
    return (mem_bounds_t){ca->mem_guard, ca->mem_bytes, ca->prog->text_base, ca->prog->text_end};
}

/* The common case of check_access, inline: aligned, inside memory, and for a store outside the text. */
static inline bool access_ok(mem_bounds_t m, uint32_t addr, unsigned size, bool write)
{
    return (addr & (size - 1)) == 0 && addr >= m.guard && addr <= m.bytes - size &&
           (!write || addr >= m.text_end || addr + size <= m.text_base);
}

static bool check_access(ca_t *ca, uint64_t now, uint32_t pc, uint32_t addr, unsigned size, bool write)
{
    if ((addr & (size - 1)) != 0) {
        set_fault(ca, now, EMU_FAULT_MISALIGNED, pc, addr, "%u-byte %s at 0x%x", size, write ? "store" : "load", addr);
        return false;
    }
    if (addr < ca->mem_guard || addr > ca->mem_bytes - size) {
        set_fault(ca, now, EMU_FAULT_BAD_ADDRESS, pc, addr, "%s of 0x%x is outside memory 0x%x..0x%x%s",
                  write ? "store" : "load", addr, ca->mem_guard, ca->mem_bytes,
                  addr < ca->mem_guard ? " (null page)" : "");
        return false;
    }
    if (write && addr < ca->prog->text_end && addr + size > ca->prog->text_base) {
        set_fault(ca, now, EMU_FAULT_WRITE_TO_TEXT, pc, addr, "store to 0x%x inside the program text", addr);
        return false;
    }
    return true;
}

static bool check_target(ca_t *ca, uint64_t now, uint32_t pc, uint32_t target)
{
    if (emu_program_bundle(ca->prog, target) != NULL)
        return true;
    bool in_text = target >= ca->prog->text_base && target < ca->prog->text_end;
    set_fault(ca, now, EMU_FAULT_BAD_PC, pc, target, "jump to 0x%x, %s", target,
              in_text ? "not the start of an instruction" : "outside the program text");
    return false;
}

/* Inline for take_event, which asks before every bundle while events are on. */
static inline uint32_t events_pending(ca_t *ca, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    uint32_t outside = ca->port.ops->event_sources != NULL ? ca->port.ops->event_sources(ca->port.ctx) : 0;
    s->event_pending |= outside & ~(uint32_t)CA_EVENT_LEVEL_BITS;
    if (s->timer_at != 0 && now >= s->timer_at) {
        s->event_pending |= CA_EVENT_TIMER;
        s->timer_at = 0;
    }
    return s->event_pending | (outside & CA_EVENT_LEVEL_BITS);
}

uint32_t ca_events_pending(ca_t *ca, uint64_t now) { return events_pending(ca, now); }

/* Between bundles, a pending unmasked event diverts the CA to its handler: the pc of the bundle that would
 * have issued (even one stalled on a gate) is kept in epc, events are disabled until rfe, and the entry
 * takes timing.event clocks. Returns true when it did. */
static void enter_event(ca_t *ca, uint64_t now);
static inline bool take_event(ca_t *ca, uint64_t now)
{
    if ((events_pending(ca, now) & ca->s.event_mask) == 0)
        return false;
    enter_event(ca, now);
    return true;
}

static void enter_event(ca_t *ca, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    ca_finish(ca, now);
    s->state = CA_RUNNING;
    s->epc = s->pc;
    /* An event ends a wfe: the handler returns to the bundle after it. */
    const emu_bundle_t *b = emu_program_bundle(ca->prog, s->pc);
    if (b != NULL && (b->flags & EMU_BUNDLE_WFE)) {
        s->epc = b->next_pc;
        s->wfe_reached = true;
    }
    s->wfe_armed = false;
    s->pc = s->event_vector;
    s->events_on = false;
    s->in_handler = true;
    s->ready_at = now + ca->prog->timing.clocks[ISA_T_EVENT];
    s->stats.events++;
    s->stats.busy_clocks += ca->prog->timing.clocks[ISA_T_EVENT];
}

/* Starts a wait of this cause at `now` unless one is under way: a wait's clocks are counted once, when it ends. */
static inline void wait_for(ca_t *ca, uint64_t now, uint8_t cause)
{
    ca_state_block_t *s = &ca->s;
    if (s->state != CA_WAITING || s->wait_cause != cause) {
        finish_wait(s, now);
        s->wait_since = now;
        s->wait_began = now;
        s->wait_cause = cause;
        s->state = CA_WAITING;
    }
}

/* Ends a wait, if one is under way, at clock `now`: the bundle issues. */
static inline void end_wait(ca_state_block_t *s, uint64_t now)
{
    if (s->state == CA_WAITING) {
        s->stats.stall_clocks[s->wait_cause] += now - s->wait_since;
        s->state = CA_RUNNING;
    }
}

/* take_gates' case of a gate that is not ready: a fault if it is bound to no channel, else a wait. */
static inline uint64_t gate_not_ready(ca_t *ca, const emu_bundle_t *b, uint64_t now, ca_gates_t g)
{
    unsigned gate = ca_gates_gate(g);
    bool in = gate < ISA_NUM_GATES_IN;
    if (ca_gates_status(g) == CA_GATE_UNBOUND) {
        unsigned n = in ? gate : gate - ISA_NUM_GATES_IN;
        set_fault(ca, now, EMU_FAULT_UNBOUND_GATE, b->pc, n, "%s of %s%u, which is bound to no channel",
                  in ? "read" : "write", in ? "gi" : "go", n);
        return UINT64_MAX;
    }
    ca->s.wait_gate = (uint8_t)gate;
    wait_for(ca, now, in ? CA_STALL_GATE_IN_EMPTY : CA_STALL_GATE_OUT_FULL);
    return now + 1;
}

/* The gates a two-bit mask names; __builtin_popcount is a call to libgcc on a host without the instruction. */
static inline unsigned gate_count(unsigned mask) { return mask - (mask >> 1); }

/* Takes bundle b's gates through the port, in one call: CA_GATES_READY when b may issue (the words its input gates
 * read are in gi0 and gi1; gates_taken then ends the wait), else the gate that is not, for gate_not_ready, whose
 * answer the caller returns as ca_step's. Apart from those two so that the caller returns that answer as it is: a
 * test of it for 0 (now + 1 never is) cost each failed take a host instruction more (msgpass 8x8 -0.1% without). */
static inline ca_gates_t take_gates(ca_t *ca, const emu_bundle_t *b)
{
    return ca->port.ops->gate_take(ca->port.ctx, b->gates_in, b->gates_out, &ca->s.regs[ISA_REG_GI0]);
}

/* After take_gates said ready: a wait is over, and the words read are counted. */
static inline void gates_taken(ca_state_block_t *s, const emu_bundle_t *b, uint64_t now)
{
    end_wait(s, now);
    s->stats.gate_reads += gate_count(b->gates_in);
}

/* Pushes bundle b's output gates, once its operations are done. */
static inline void put_gates(ca_t *ca, const emu_bundle_t *b)
{
    if (b->gates_out) {
        ca->port.ops->gate_put(ca->port.ctx, b->gates_out, &ca->s.regs[ISA_REG_GO0]);
        ca->s.stats.gate_writes += gate_count(b->gates_out);
    }
}

/* A register write held back until every operation of the bundle has read its operands. */
typedef struct pending_write {
    uint8_t reg;
    uint32_t value;
} pending_write_t;

typedef struct pending_store {
    uint32_t addr;
    uint8_t size;
    uint64_t value;
} pending_store_t;

/* A checked store of size 1, 2, 4 or 8 (a register pair, low word first). */
static inline void store_now(uint8_t *mem, uint32_t addr, unsigned size, uint64_t value)
{
    if (size == 8) {
        store_le(mem + addr, 4, (uint32_t)value);
        store_le(mem + addr + 4, 4, (uint32_t)(value >> 32));
    } else {
        store_le(mem + addr, size, (uint32_t)value);
    }
}

static inline void store_commit(uint8_t *mem, const pending_store_t *st) { store_now(mem, st->addr, st->size, st->value); }

/* The statistics bundle b adds when it issues at clock `at` and the next bundle issues `clocks` after it. */
static inline void count_bundle(ca_t *ca, const emu_bundle_t *b, uint64_t at, uint64_t clocks, bool taken)
{
    ca_state_block_t *s = &ca->s;
    ca->awake_issue_at = at;
    s->stats.bundles++;
    s->stats.ops += b->count;
    s->stats.busy_clocks += b->clocks;
    s->stats.stall_clocks[CA_STALL_BYPASS] += clocks - b->clocks;
    s->stats.branches_taken += taken;
    s->stats.mem_reads += b->mem_reads;
    s->stats.mem_writes += b->mem_writes;
}

static uint64_t issue(ca_t *ca, const emu_bundle_t *b, uint64_t now);
static uint64_t run_one(ca_t *ca, const emu_bundle_t *b, uint64_t now);

/* Clocks from b's issue to the next bundle's: b's clocks and the bypass stall (docs/isa.md, "Bypass stalls") of the
 * bundle it goes on to, predecoded but for a jump to where a register says. */
static inline unsigned clocks_to_next(const emu_program_t *prog, const emu_bundle_t *b, bool taken, uint32_t next_pc)
{
    if (!taken)
        return b->clocks_fall;
    if (__builtin_expect((b->flags & EMU_BUNDLE_DYN_TARGET) != 0, 0))
        return b->clocks + emu_program_stall_to(prog, b, next_pc);
    return b->clocks_taken;
}

/* The end of a bundle step_other ran itself, one operation with no memory word (a lone wfe that passed, a lone wrcr
 * or rdcr): counted as issue() counts one that falls through (count_bundle's figures, with none of the memory's or
 * the operations' loads: the runtimes' wait loops pass one at every trip), and the core goes on to the next. */
static inline uint64_t passed_alone(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    ca->awake_issue_at = now;
    s->stats.bundles++;
    s->stats.ops++;
    s->stats.busy_clocks += b->clocks;
    s->stats.stall_clocks[CA_STALL_BYPASS] += b->clocks_fall - b->clocks;
    s->ready_at = now + b->clocks_fall;
    s->pc = b->next_pc;
    return s->ready_at;
}

static uint64_t step_issue(ca_t *ca, const emu_bundle_t *b, uint64_t now);

/* wfe: a stall until a word has moved in this cell's agent since the last wfe finished, or an event in EVENT_MASK is
 * pending (`event`: taken first when events are on; just waking the CA when they are off). Counting from the last wfe,
 * not from this one, means a word that moved between the program's last look and its wfe is not missed (ARM's event
 * register works the same way). */
static inline uint64_t wfe_step(ca_t *ca, const emu_bundle_t *b, uint64_t now, bool event)
{
    ca_state_block_t *s = &ca->s;
    uint64_t token = *ca->port.activity;
    s->wfe_armed = true;
    s->wfe_reached = true;
    if (token == s->wfe_token && !event) {
        wait_for(ca, now, CA_STALL_WFE);
        return now + 1;
    }
    s->wfe_armed = false;
    s->wfe_token = token;
    end_wait(s, now);
    /* A wfe alone (the runtimes' wait loops) has nothing left to do but what issue() would count of it. */
    if (b->flags & EMU_BUNDLE_SIMPLE)
        return passed_alone(ca, b, now);
    return step_issue(ca, b, now);
}

/* A wfe with events on: step_events has just asked at this clock and found none in the mask, or ca_step_ready's
 * caller has found that asking would find none: asking again would latch nothing new. Apart, and calling nothing
 * where the runtimes' wait loops pass it at every trip, so that it keeps no frame. */
__attribute__((noinline)) static uint64_t step_wfe(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    return wfe_step(ca, b, now, false);
}

/* A wfe with events off, which a pending event in the mask wakes. */
__attribute__((noinline)) static uint64_t step_wfe_events_off(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    return wfe_step(ca, b, now, (ca_events_pending(ca, now) & ca->s.event_mask) != 0);
}

/* A bundle that faults as it would issue: none starts at the pc (b NULL), or it did not decode. */
__attribute__((noinline, cold)) static uint64_t step_fault(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    const ca_state_block_t *s = &ca->s;
    const emu_program_t *prog = ca->prog;
    if (b == NULL) {
        set_fault(ca, now, EMU_FAULT_BAD_PC, s->pc, s->pc, "pc 0x%x is %s", s->pc,
                  s->pc >= prog->text_base && s->pc < prog->text_end ? "not the start of an instruction"
                                                                   : "outside the program text");
        return UINT64_MAX;
    }
    set_fault(ca, now, EMU_FAULT_ILLEGAL_INSTRUCTION, b->pc, prog->image.text[(b->pc - prog->text_base) / 4], "%s",
              isa_error_string((isa_error_t)b->error));
    return UINT64_MAX;
}

/* step_other's bundles once no wfe holds them: a lone wrcr, the gates, issue(). Not inlined, so that step_wfe keeps no
 * frame. */
__attribute__((noinline)) static uint64_t step_issue(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    /* The message runtimes' lone wrcr (msg.s's frees and gate moves): issue() would stage nothing but the write,
     * at about a hundred host instructions more. What follows is issue()'s commit of a wrcr: keep the two alike. */
    if (b->flags & EMU_BUNDLE_CR_WRITE_ALONE) {
        const isa_op_t *op = &ca->prog->ops[b->first_op];
        uint32_t index = s->regs[op->rs1] + (op->has_ext ? op->ext : s->regs[op->rs2]);
        if (ca->port.ops->cr_write(ca->port.ctx, index, s->regs[op->rd]) != 0) {
            set_fault(ca, now, EMU_FAULT_BAD_CONTROL_REGISTER, b->pc, index, "write of control register %u", index);
            return UINT64_MAX;
        }
        s->stats.cr_writes++;
        return passed_alone(ca, b, now);
    }
    if (b->flags & EMU_BUNDLE_GATES) {
        ca_gates_t g = take_gates(ca, b);
        if (__builtin_expect(g != CA_GATES_READY, 0))
            return gate_not_ready(ca, b, now, g);
        gates_taken(s, b, now);
    }
    return issue(ca, b, now);
}

/* step_lone's rdcr's ending, once the value is read. */
static inline uint64_t lone_cr_read_done(ca_t *ca, const emu_bundle_t *b, uint64_t now, const emu_ahead_op_t *op,
                                         uint32_t value)
{
    ca_state_block_t *s = &ca->s;
    s->regs[op->rd] = value;
    s->stats.cr_reads++;
    return passed_alone(ca, b, now);
}

/* step_lone's rdcr through the port, apart: its call wants a frame that the quiet register's read does without. A
 * register that is not there faults before anything changes, as in run_one. */
__attribute__((noinline)) static uint64_t step_lone_cr_read_port(ca_t *ca, const emu_bundle_t *b, uint64_t now,
                                                                 const emu_ahead_op_t *op, uint32_t index)
{
    uint32_t value;
    if (ca->port.ops->cr_read(ca->port.ctx, index, &value) != 0) {
        set_fault(ca, now, EMU_FAULT_BAD_CONTROL_REGISTER, b->pc, index, "read of control register %u", index);
        return UINT64_MAX;
    }
    return lone_cr_read_done(ca, b, now, op, value);
}

/* step_lone's rdcr, as ca_ops.inc's case runs it, apart: the port's quiet register (an empty arrival queue, which
 * the message runtimes' arrival loop reads at every trip) and its byte registers (a spool's status, which their
 * spool-done loop reads) are answered here, with no call. */
__attribute__((noinline)) static uint64_t step_lone_cr_read(ca_t *ca, const emu_bundle_t *b, uint64_t now,
                                                            const emu_ahead_op_t *op)
{
    const uint32_t *regs = ca->s.regs;
    uint32_t index = regs[op->rs1] + regs[op->v2_reg] + op->ext;
    const ca_port_t *port = &ca->port;
    if (index == port->quiet_cr && *port->quiet_count == 0)
        return lone_cr_read_done(ca, b, now, op, port->quiet_value);
    uint32_t k = index - port->byte_cr; /* wraps for the registers below */
    if ((k & ((1u << port->byte_shift) - 1u)) == 0 && (k >> port->byte_shift) < port->byte_crs)
        return lone_cr_read_done(ca, b, now, op, port->byte_at[(size_t)(k >> port->byte_shift) * port->byte_stride]);
    return step_lone_cr_read_port(ca, b, now, op, index);
}

/* An EMU_BUNDLE_LONE_CORE bundle, as run_one would run it (ca_ops.inc's case, then its ending with a horizon of 0),
 * without run_one's frame and the set-up of its threaded code: the runtimes' wait loops issue three such bundles of
 * their four at every trip, one cell-clock each. Reached through step_other, so that the test for it costs
 * nothing to the bundles run_one takes (EMU_BUNDLE_RUN_ONE). */
__attribute__((noinline)) static uint64_t step_lone(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    uint32_t *const regs = s->regs;
    const emu_ahead_op_t *op = ca->prog->ahead_ops + b->first_ahead;
    unsigned opcode = op->opcode;
    if (opcode == ISA_OP_RDCR)
        return step_lone_cr_read(ca, b, now, op);
    uint32_t a = regs[op->rs1];
    unsigned clocks = b->clocks_fall;
    /* count_bundle's figures, of a bundle of one operation with no memory word. */
    ca->awake_issue_at = now;
    s->stats.bundles++;
    s->stats.ops++;
    s->stats.busy_clocks += b->clocks;
    if (opcode == ISA_OP_BEQ || opcode == ISA_OP_BNE) {
        /* Its target is its ext (checked: TARGETS_OK), and its clocks the bundle's own (not DYN_TARGET). */
        bool taken = (a == regs[op->rs2]) == (opcode == ISA_OP_BEQ);
        s->pc = b->next_pc;
        if (taken) {
            clocks = b->clocks_taken;
            s->pc = op->ext;
            s->stats.branches_taken++;
        }
    } else {
        uint32_t v2 = regs[op->v2_reg] + op->ext;
        uint32_t v;
        if (opcode == ISA_OP_OR)
            v = a | v2;
        else if (opcode == ISA_OP_AND)
            v = a & v2;
        else if (opcode == ISA_OP_ADD)
            v = a + v2;
        else if (opcode == ISA_OP_SUB)
            v = a - v2;
        else /* ISA_OP_XOR (lone_core in program.c) */
            v = a ^ v2;
        regs[op->rd] = v;
        s->pc = b->next_pc;
    }
    s->stats.stall_clocks[CA_STALL_BYPASS] += clocks - b->clocks;
    s->ready_at = now + clocks;
    return s->ready_at;
}

/* ca_step for any bundle but the plain ones (run_one's), the lone ones among those included. Not inlined, so that
 * ca_step keeps no registers of its own; each case a jump to its own function, so that the runtimes' wait loops, which
 * pass a lone wfe at every trip with events on, pay for no frame. */
__attribute__((noinline)) static uint64_t step_other(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    /* issue()'s bundles with one test: a program that moves words through gates issues them at every clock. */
    if (!(b->flags & (EMU_BUNDLE_WFE | EMU_BUNDLE_LONE_CORE | EMU_BUNDLE_ILLEGAL)))
        return step_issue(ca, b, now);
    /* Then the wait loops' bundles, at every trip: three lone ones to a wfe. */
    if (b->flags & EMU_BUNDLE_LONE_CORE)
        return step_lone(ca, b, now);
    if (b->flags & EMU_BUNDLE_WFE) /* an illegal bundle has no other flag */
        return ca->s.events_on ? step_wfe(ca, b, now) : step_wfe_events_off(ca, b, now);
    return step_fault(ca, b, now);
}

/* The input gate that gate_take would answer first for bundle b, a RUN_ONE one with gates, as empty (with no pop): its
 * first input gate (gi0 is asked before gi1, and both before any output gate), when the port's masks say that it is
 * bound to a channel that holds no word; else ISA_NUM_GATES_IN, and gate_take is asked. */
static inline unsigned gate_in_empty(const ca_port_t *port, const emu_bundle_t *b)
{
    unsigned in = b->gates_in;
    if (in & 1u) {
        unsigned lc = port->gate_in_lc[0];
        return lc < 64u && !(*port->busy >> lc & 1u) ? 0 : ISA_NUM_GATES_IN;
    }
    unsigned lc = port->gate_in_lc[1];
    return in != 0 && lc < 64u && !(*port->busy >> lc & 1u) ? 1 : ISA_NUM_GATES_IN;
}

/* run_one's bundles, with a look at the gates first. A forwarding core's every second clock, and every clock of a wait
 * for a barrier's token, find the first input gate empty: the wait starts or goes on here as take_gates and
 * gate_not_ready would have it, with no call and none of run_one's frame (stream 8x8 -0.8%). Apart, so that
 * step_bundle's other cases keep their registers as they were: the gates' test there cost msgpass 8x8 a host
 * instruction at every call. */
__attribute__((noinline)) static uint64_t step_run_one(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    if (b->flags & EMU_BUNDLE_GATES) {
        unsigned gate = gate_in_empty(&ca->port, b);
        if (gate < ISA_NUM_GATES_IN) {
            ca->s.wait_gate = (uint8_t)gate;
            wait_for(ca, now, CA_STALL_GATE_IN_EMPTY);
            return now + 1;
        }
    }
    return run_one(ca, b, now);
}

/* ca_step once the core may issue and no event diverts it. The plain bundles, gates or not, run as the run-ahead runs
 * them (its threaded code, once), with no test the others need, but for the lone ones (step_lone); nothing is left to
 * do after any call, so that each is a jump. */
static inline uint64_t step_bundle(ca_t *ca, uint64_t now)
{
    const emu_bundle_t *b = emu_program_bundle(ca->prog, ca->s.pc);
    if (b == NULL)
        return step_fault(ca, b, now);
    if (b->flags & EMU_BUNDLE_RUN_ONE)
        return step_run_one(ca, b, now);
    return step_other(ca, b, now);
}

/* ca_step with events on: apart, for the same reason as step_other. */
__attribute__((noinline)) static uint64_t step_events(ca_t *ca, uint64_t now)
{
    if (take_event(ca, now))
        return ca->s.ready_at;
    return step_bundle(ca, now);
}

uint64_t ca_step(ca_t *ca, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    if (s->state != CA_RUNNING && s->state != CA_WAITING)
        return UINT64_MAX;
    if (now < s->ready_at)
        return s->ready_at;
    if (s->events_on)
        return step_events(ca, now);
    return step_bundle(ca, now);
}

uint64_t ca_step_ready(ca_t *ca, uint64_t now)
{
    return step_bundle(ca, now);
}

/* Issues bundle b at clock `now`, once it may: every operation reads its operands, then the bundle's effects
 * commit together (or as they go, when predecoding found that the same: DIRECT). Returns ready_at, or UINT64_MAX
 * after a halt or fault. Runs any bundle; run_ahead takes the common ones faster. */
static uint64_t issue(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    ca_state_block_t *s = &ca->s;
    uint32_t *regs = s->regs;
    uint8_t *const mem = ca->mem;
    const mem_bounds_t bounds = mem_bounds(ca);
    pending_write_t writes[ISA_BUNDLE_MAX_OPS * 3];
    unsigned nwrites = 0;
    /* The memory unit takes two operations a bundle (isa_unit_limit(ISA_UNIT_MEM)): at most two stores, kept
     * in two named slots so that the common bundle with one store stays in registers. */
    pending_store_t store0, store1; /* nstores says which hold one */
    unsigned nstores = 0;
    uint32_t cr_write_index, cr_write_value; /* set with RARE_CR_WRITE */
    uint32_t next_pc = b->next_pc;
    bool taken = false;
    /* What few bundles do, found with one test at the commit. */
    enum { RARE_HALT = 1u << 0, RARE_RFE = 1u << 1, RARE_CR_WRITE = 1u << 2, RARE_CR_READ = 1u << 3 };
    unsigned rare = 0;
    unsigned cr_reads = 0; /* counted only if the bundle commits, as are its memory words (predecoded) */
    const isa_op_t *ops = &ca->prog->ops[b->first_op];
    /* Writes and stores are staged until the commit, unless predecoding found that this bundle need not. */
    const bool direct = (b->flags & EMU_BUNDLE_DIRECT) != 0;
    /* Targets written in the operations are checked once, by predecoding. */
    const bool targets_ok = (b->flags & EMU_BUNDLE_TARGETS_OK) != 0;

#define WRITE(r, v)                                                                                                  \
    (direct ? (void)(regs[(uint8_t)(r)] = (uint32_t)(v))                                                             \
            : (void)(writes[nwrites].reg = (uint8_t)(r), writes[nwrites].value = (uint32_t)(v), nwrites++))
#define STORE(addr, size, value)                                                                                     \
    do {                                                                                                             \
        if (direct)                                                                                                  \
            store_now(mem, (addr), (size), (value));                                                                 \
        else if (nstores++ == 0)                                                                                     \
            store0 = (pending_store_t){(addr), (size), (value)};                                                     \
        else                                                                                                         \
            store1 = (pending_store_t){(addr), (size), (value)};                                                     \
    } while (0)
#define FAILED return UINT64_MAX
#define ACCESS_OK(addr, size, write) access_ok(bounds, (addr), (size), (write))
#define BUNDLE_PC (b->pc)
#define BUNDLE_NEXT_PC (b->next_pc)
#define CR_READ_DONE() (cr_reads++, rare |= RARE_CR_READ)
#define MEM mem

#define CA_JUMP_TABLE_ENDINGS 0
#include "ca_jump_table.inc"
#undef CA_JUMP_TABLE_ENDINGS
    for (const isa_op_t *op = ops, *end = ops + b->count; op < end; op++) {
        uint32_t a = regs[op->rs1];
        uint32_t v2 = op->has_ext ? op->ext : regs[op->rs2];
        CA_DISPATCH(op->opcode)
        {
#include "ca_ops.inc"
            CA_CASE(WFE) CA_NEXT; /* the waiting was done before issue */
            CA_CASE(HALT)
            {
                rare |= RARE_HALT;
                CA_NEXT;
            }
            CA_CASE(TRAP) FAULT(EMU_FAULT_TRAP, op->ext, "trap %u (0x%x)", op->ext, op->ext);
            CA_CASE(RFE)
            {
                if (!check_target(ca, now, b->pc, s->epc))
                    return UINT64_MAX;
                rare |= RARE_RFE;
                TAKE(s->epc);
                CA_NEXT;
            }
            CA_CASE(WRCR)
            {
                rare |= RARE_CR_WRITE;
                cr_write_index = a + v2;
                cr_write_value = regs[op->rd];
                CA_NEXT;
            }
            CA_DEFAULT FAULT(EMU_FAULT_ILLEGAL_INSTRUCTION, op->opcode, "opcode 0x%02x has no handler", op->opcode);
        }
    }
#undef WRITE
#undef STORE
#undef FAILED
#undef ACCESS_OK
#undef BUNDLE_PC
#undef BUNDLE_NEXT_PC
#undef CR_READ_DONE
#undef MEM
#undef WRITE_PAIR
#undef FAULT
#undef TAKE

    /* Commit: only now do the bundle's effects become visible. A lone wrcr does not come here: step_other writes it
     * (EMU_BUNDLE_CR_WRITE_ALONE) with the same fault, statistics and timing, which a change here must keep. */
    if (rare & RARE_CR_WRITE) {
        if (ca->port.ops->cr_write(ca->port.ctx, cr_write_index, cr_write_value) != 0) {
            set_fault(ca, now, EMU_FAULT_BAD_CONTROL_REGISTER, b->pc, cr_write_index, "write of control register %u",
                      cr_write_index);
            return UINT64_MAX;
        }
        s->stats.cr_writes++;
    }
    for (unsigned i = 0; i < nwrites; i++)
        regs[writes[i].reg] = writes[i].value;
    regs[ISA_REG_ZERO] = 0;
    /* In operation order: of two stores to one address, the later operation's value stays. */
    if (nstores != 0) {
        store_commit(mem, &store0);
        if (nstores == 2)
            store_commit(mem, &store1);
    }
    put_gates(ca, b);

    if (b->mem_accesses)
        s->mem_busy_until = now + b->mem_accesses;
    unsigned clocks = clocks_to_next(ca->prog, b, taken, next_pc);
    count_bundle(ca, b, now, clocks, taken);
    s->ready_at = now + clocks;
    if (rare) {
        s->stats.cr_reads += cr_reads;
        if (rare & RARE_RFE) {
            s->events_on = true;
            s->in_handler = false;
            ca->awake_issue_at = UINT64_MAX; /* it issued in the handler */
        }
        if (rare & RARE_HALT) {
            s->state = CA_HALTED;
            s->halted_at = now;
            return UINT64_MAX;
        }
    }
    s->pc = next_pc;
    return s->ready_at;
}

/* The statistics of a run-ahead (ca_run_ahead.inc), from the program's running sums (emu_bundle_sums_t): the bundles
 * it issued are runs in text order, from its first bundle or a jump's target up to the next jump taken or the
 * exit. */
typedef struct ahead_counts {
    uint32_t from;               /* the first bundle issued */
    uint32_t last_from, last_to; /* the last jump's: the bundle after its source, and its target */
    uint64_t bundles, branches;  /* of the jumps counted so far: each adds sums[last_from] - sums[last_to] */
    emu_bundle_sums_t sums;
} ahead_counts_t;

/* Counts the last jump, taken `repeats` times in a row. */
static inline void ahead_count_jumps(ahead_counts_t *c, const emu_bundle_sums_t *sums, uint64_t repeats)
{
    const emu_bundle_sums_t *end = &sums[c->last_from], *start = &sums[c->last_to];
    c->bundles += repeats * ((uint64_t)c->last_from - c->last_to);
    c->branches += repeats;
    c->sums.ops += repeats * (end->ops - start->ops);
    c->sums.busy_clocks += repeats * (end->busy_clocks - start->busy_clocks);
    c->sums.mem_reads += repeats * (end->mem_reads - start->mem_reads);
    c->sums.mem_writes += repeats * (end->mem_writes - start->mem_writes);
}

/* Adds the run-ahead's statistics to the core's: the jumps counted, and the runs from its first bundle to `end`
 * (exclusive) that they leave, over `clocks` from its first issue to its last ready_at. */
static inline void ahead_count_end(ca_state_block_t *s, const ahead_counts_t *c, const emu_bundle_sums_t *sums,
                                   uint32_t end, uint64_t clocks)
{
    const emu_bundle_sums_t *last = &sums[end], *first = &sums[c->from];
    uint64_t busy = c->sums.busy_clocks + last->busy_clocks - first->busy_clocks;
    s->stats.bundles += c->bundles + end - c->from;
    s->stats.ops += c->sums.ops + last->ops - first->ops;
    s->stats.busy_clocks += busy;
    s->stats.stall_clocks[CA_STALL_BYPASS] += clocks - busy;
    s->stats.branches_taken += c->branches;
    s->stats.mem_reads += c->sums.mem_reads + last->mem_reads - first->mem_reads;
    s->stats.mem_writes += c->sums.mem_writes + last->mem_writes - first->mem_writes;
}

/* Issues bundle b, which is EMU_BUNDLE_RUN_AHEAD (no gate, control register or system operation, and every effect
 * may happen as its operation runs), at clock `now`; then, while the clock it frees the core at is below
 * `horizon` and the next bundle has them too, that one at that clock, and so on (run_one: b alone).
 * Such bundles touch neither the agent nor the events, so nothing outside the core looks at its state meanwhile:
 * the pc, the clock and the statistics stay in locals (the statistics as counts of jumps) and are written out once,
 * at the exit; and their effects need no staging. Leaves the clock of the last bundle issued in *last_issue.
 * Returns ready_at, or UINT64_MAX after a fault, with the state as issue() leaves it: that after the bundles before
 * the faulting one.
 * Cache-line aligned: with the same host instructions, where the linker happened to put this loop made the
 * compute case of `bench speed` 15% slower or faster after changes elsewhere (2026-11-26: unaligned at 32 mod
 * 64 after an unrelated commit, 0.127 s; aligned at four different addresses, 0.110-0.114 s). */
__attribute__((aligned(64))) static uint64_t run_ahead(ca_t *ca, const emu_bundle_t *b, uint64_t now,
                                                       uint64_t horizon, uint64_t *last_issue)
{
#define RUN_NOTED 0
#define RUN_ONE 0
#include "ca_run_ahead.inc"
#undef RUN_ONE
#undef RUN_NOTED
}

/* run_ahead for bundle b alone (ca_step's case: its cell is stepped clock by clock), which may also be
 * EMU_BUNDLE_PORT_AHEAD: it takes and puts the gates as issue() would, and may return now + 1 for a wait. A horizon
 * of 0 folds the going on to the next bundle away. */
static uint64_t run_one(ca_t *ca, const emu_bundle_t *b, uint64_t now)
{
    uint64_t last = 0, *const last_issue = &last;
    const uint64_t horizon = 0;
#define RUN_NOTED 0
#define RUN_ONE 1
#include "ca_run_ahead.inc"
#undef RUN_ONE
#undef RUN_NOTED
}

static inline void undo_note(ca_undo_t *undo, const uint8_t *mem, uint32_t addr, unsigned size)
{
    uint64_t old = load_le(mem + addr, size == 8 ? 4 : size);
    if (size == 8)
        old |= (uint64_t)load_le(mem + addr + 4, 4) << 32;
    undo->e[undo->n++] = (ca_undo_entry_t){addr, size, old};
}

/* run_ahead, noting what each store overwrites. */
static uint64_t run_ahead_noted(ca_t *ca, const emu_bundle_t *b, uint64_t now, uint64_t horizon, uint64_t *last_issue,
                                ca_undo_t *undo)
{
#define RUN_NOTED 1
#define RUN_ONE 0
#include "ca_run_ahead.inc"
#undef RUN_ONE
#undef RUN_NOTED
}

uint64_t ca_run_ahead_noted(ca_t *ca, uint64_t horizon, ca_undo_t *undo, uint64_t *last_issue)
{
    uint64_t before = ca->s.stats.bundles;
    while (ca->s.ready_at < horizon) {
        const emu_bundle_t *b = emu_program_bundle(ca->prog, ca->s.pc);
        if (b == NULL || !(b->flags & EMU_BUNDLE_RUN_AHEAD))
            break;
        if (run_ahead_noted(ca, b, ca->s.ready_at, horizon, last_issue, undo) == UINT64_MAX)
            break;
    }
    return ca->s.stats.bundles - before;
}

void ca_undo_apply(ca_t *ca, const ca_undo_t *undo)
{
    for (unsigned i = undo->n; i-- > 0;)
        store_now(ca->mem, undo->e[i].addr, undo->e[i].size, undo->e[i].old);
}

uint64_t ca_run_alone(ca_t *ca, uint64_t horizon, uint64_t *last_issue)
{
    uint64_t before = ca->s.stats.bundles;
    while (ca->s.ready_at < horizon) {
        const emu_bundle_t *b = emu_program_bundle(ca->prog, ca->s.pc);
        if (b == NULL || !(b->flags & EMU_BUNDLE_ALONE))
            break;
        uint64_t now = ca->s.ready_at;
        if (b->flags & EMU_BUNDLE_RUN_AHEAD) {
            if (run_ahead(ca, b, now, horizon, last_issue) == UINT64_MAX)
                break;
        } else {
            if (issue(ca, b, now) == UINT64_MAX)
                break;
            *last_issue = now;
        }
    }
    return ca->s.stats.bundles - before;
}
