#include "net_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static net_msg_t *add_msg(net_traffic_t *t, net_rng_t *rng, unsigned src, unsigned dst, unsigned max_words)
{
    net_msg_t *m = &t->msgs[t->nmsgs];
    memset(m, 0, sizeof *m);
    m->id = t->nmsgs++;
    m->src = src;
    m->dst = dst;
    m->words = net_rng_range(rng, 0, max_words);
    return m;
}

static void route_msg(net_traffic_t *t, net_rng_t *rng, net_msg_t *m, coa_sign_action_t action, unsigned sink)
{
    coa_dir_t xdir = net_rng_range(rng, 0, 1) ? COA_DIR_PX : COA_DIR_MX;
    coa_dir_t ydir = net_rng_range(rng, 0, 1) ? COA_DIR_PY : COA_DIR_MY;
    net_route_xy(&m->route, t->w, t->h, m->src % t->w, m->src / t->w, m->dst % t->w, m->dst / t->w, xdir, ydir, action,
                 sink);
}

void net_traffic_make(net_traffic_t *t, uint64_t seed, unsigned w, unsigned h, bool spools, unsigned max_words)
{
    memset(t, 0, sizeof *t);
    net_rng_t rng = {seed * 0x2545f4914f6cdd1dull + 1};
    unsigned ncells = w * h;
    t->seed = seed;
    t->w = w;
    t->h = h;
    t->spools = spools;
    t->queue_depth = net_rng_range(&rng, 1, 16);
    t->msgs = calloc((size_t)ncells * NET_TRAFFIC_MAX_SENDS, sizeof *t->msgs);
    t->progs = calloc(ncells, sizeof *t->progs);
    assert_non_null(t->msgs);
    assert_non_null(t->progs);

    if (!spools) {
        /* A random half (or less) of the cells send, each to its own receiver among the others. */
        unsigned *perm = calloc(ncells, sizeof *perm);
        assert_non_null(perm);
        for (unsigned i = 0; i < ncells; i++)
            perm[i] = i;
        for (unsigned i = ncells - 1; i > 0; i--) {
            unsigned j = net_rng_range(&rng, 0, i), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        unsigned npairs = net_rng_range(&rng, 1, ncells / 2);
        for (unsigned i = 0; i < npairs; i++) {
            net_msg_t *m = add_msg(t, &rng, perm[i], perm[npairs + i], max_words);
            route_msg(t, &rng, m, COA_SIGN_GATE, 0);
        }
        free(perm);
        return;
    }
    unsigned *receives = calloc(ncells, sizeof *receives);
    assert_non_null(receives);
    for (unsigned src = 0; src < ncells; src++) {
        unsigned nsends = net_rng_range(&rng, 0, NET_TRAFFIC_MAX_SENDS);
        for (unsigned k = 0; k < nsends; k++) {
            unsigned dst = net_rng_range(&rng, 0, ncells - 2);
            dst += dst >= src; /* any other cell */
            if (receives[dst] == NET_TRAFFIC_MAX_RECEIVES)
                continue;
            net_msg_t *m = add_msg(t, &rng, src, dst, max_words);
            m->src_spool = 7 - k;
            m->dst_slot = receives[dst]++;
            route_msg(t, &rng, m, COA_SIGN_SPOOL, m->dst_slot);
        }
    }
    free(receives);
}

void net_traffic_free(net_traffic_t *t)
{
    free(t->msgs);
    free(t->progs);
    memset(t, 0, sizeof *t);
}

void net_traffic_machine(const net_traffic_t *t, net_t *n)
{
    net_init(n, t->w, t->h);
    net_set(n, "queue_depth", "%u", t->queue_depth);
}

unsigned net_traffic_words(const net_traffic_t *t)
{
    unsigned sum = 0;
    for (unsigned i = 0; i < t->nmsgs; i++)
        sum += t->msgs[i].words;
    return sum;
}

/* --- gates --- */

static void emit_gate_receiver(net_text_t *s, const net_msg_t *m)
{
    net_textf(s, "        li   r5, COA_EXPECT\n"
                 "        wrcr r5, [COA_GATE_IN0]\n"
                 "        li   r33, 0\n");
    if (m->words > 0)
        net_textf(s,
                  "        li   r30, %u\n"
                  "        li   r31, %u\n"
                  "1:      mov  r32, gi0\n"
                  "        bne  r32, r31, bad\n"
                  "        { add r31, r31, 1 ; add r33, r33, 1 ; loop r30, 1b }\n",
                  m->words, m->id << 20);
    /* The trailer unbinds the gate: a word after the data would keep it bound (and the run would not end). */
    net_textf(s, "        li   r34, COA_NONE\n"
                 "2:      rdcr r5, [COA_GATE_IN0]\n"
                 "        bne  r5, r34, 2b\n"
                 "        mov  a0, r33\n"
                 "        halt\n"
                 "bad:    mov  a0, r32\n"
                 "        mov  a1, r31\n"
                 "        trap 1\n");
}

static void emit_gate_sender(net_text_t *s, const net_msg_t *m)
{
    net_textf(s, "        rdcr r20, [COA_ALLOC]\n"
                 "        wrcr r20, [COA_GATE_OUT0]\n");
    net_emit_signs(s, &m->route, 0);
    if (m->words > 0)
        net_textf(s,
                  "        li   r30, %u\n"
                  "        li   r31, %u\n"
                  "1:      { mov go0, r31 ; add r31, r31, 1 ; loop r30, 1b }\n",
                  m->words, m->id << 20);
    net_textf(s,
              "        li   r21, 1\n"
              "        wrcr r21, [COA_TAG_NEXT]\n"
              "        li   r22, TRAILER_KIND | %u\n"
              "        mov  go0, r22\n"
              "        li   a0, %u\n"
              "        halt\n",
              m->id, m->words);
}

/* --- spools --- */

static void emit_spool_field(net_text_t *s, unsigned spool, const char *field, const char *value)
{
    net_textf(s,
              "        li   r5, %s\n"
              "        wrcr r5, [COA_SPOOL + %u * 8 + %s]\n",
              value, spool, field);
}

static void emit_spool_cell(net_text_t *s, const net_traffic_t *t, unsigned cell)
{
    char v[64];
    /* Receives first: each spool waits for the pathway whose last sign names it. */
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->dst != cell)
            continue;
        snprintf(v, sizeof v, "rbuf%u", m->id);
        emit_spool_field(s, m->dst_slot, "SPOOL_ADDR", v);
        emit_spool_field(s, m->dst_slot, "SPOOL_STRIDE", "4");
        snprintf(v, sizeof v, "%u", m->words);
        emit_spool_field(s, m->dst_slot, "SPOOL_COUNT", v);
        emit_spool_field(s, m->dst_slot, "SPOOL_CTRL", "SPOOL_RECEIVE");
    }
    /* Sends: the data is written behind the signs, then one spool sends signs, data and trailer. */
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->src != cell)
            continue;
        if (m->words > 0)
            net_textf(s,
                      "        la   r40, smsg%u_data\n"
                      "        li   r41, %u\n"
                      "        li   r42, %u\n"
                      "1:      { stw r41, [r40] ; add r40, r40, 4 ; add r41, r41, 1 ; loop r42, 1b }\n",
                      m->id, m->id << 20, m->words);
        net_textf(s,
                  "        rdcr r5, [COA_ALLOC]\n"
                  "        wrcr r5, [COA_SPOOL + %u * 8 + SPOOL_LC]\n",
                  m->src_spool);
        snprintf(v, sizeof v, "smsg%u", m->id);
        emit_spool_field(s, m->src_spool, "SPOOL_ADDR", v);
        emit_spool_field(s, m->src_spool, "SPOOL_STRIDE", "4");
        snprintf(v, sizeof v, "%u", m->route.nsigns + m->words + 1);
        emit_spool_field(s, m->src_spool, "SPOOL_COUNT", v);
        snprintf(v, sizeof v, "%u", m->route.nsigns);
        emit_spool_field(s, m->src_spool, "SPOOL_TAG_HEAD", v);
        emit_spool_field(s, m->src_spool, "SPOOL_TAG_TAIL", "1");
        emit_spool_field(s, m->src_spool, "SPOOL_CTRL", "SPOOL_SEND");
    }
    /* Wait for every spool; each must end done, and no receive early (bit 1). */
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->src != cell && m->dst != cell)
            continue;
        unsigned spool = m->src == cell ? m->src_spool : m->dst_slot;
        net_textf(s,
                  "1:      rdcr r32, [COA_SPOOL + %u * 8 + SPOOL_STATUS]\n"
                  "        beqz r32, 1b\n"
                  "        li   r31, SPOOL_DONE\n"
                  "        bne  r32, r31, badstatus\n",
                  spool);
    }
    /* Check every received word. */
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->dst != cell || m->words == 0)
            continue;
        net_textf(s,
                  "        la   r40, rbuf%u\n"
                  "        li   r41, %u\n"
                  "        li   r42, %u\n"
                  "1:      ldw  r32, [r40]\n"
                  "        bne  r32, r41, bad\n"
                  "        { add r40, r40, 4 ; add r41, r41, 1 ; loop r42, 1b }\n",
                  m->id, m->id << 20, m->words);
    }
    net_textf(s, "        halt\n"
                 "bad:    mov  a0, r32\n"
                 "        mov  a1, r41\n"
                 "        trap 1\n"
                 "badstatus:\n"
                 "        mov  a0, r32\n"
                 "        mov  a1, r31\n"
                 "        trap 2\n"
                 "        .data\n");
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->src != cell)
            continue;
        net_textf(s, "smsg%u:", m->id);
        for (unsigned k = 0; k < m->route.nsigns; k++)
            net_textf(s, "%s0x%08x", k ? ", " : " .word ", m->route.signs[k]);
        net_textf(s,
                  "\nsmsg%u_data:\n"
                  "        .space %u\n"
                  "        .word TRAILER_KIND | %u\n",
                  m->id, 4 * m->words, m->id);
    }
    net_textf(s, "        .bss\n");
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        if (m->dst == cell) /* one word more, which must stay zero */
            net_textf(s, "rbuf%u:  .space %u\n", m->id, 4 * m->words + 4);
    }
}

void net_traffic_load(net_traffic_t *t, net_t *n)
{
    for (unsigned cell = 0; cell < t->w * t->h; cell++) {
        bool busy = false;
        for (unsigned i = 0; i < t->nmsgs; i++)
            busy = busy || t->msgs[i].src == cell || t->msgs[i].dst == cell;
        if (!busy)
            continue;
        net_text_t s;
        net_text_init(&s);
        net_textf(&s, "        .include \"coa.inc\"\n_start:\n");
        if (t->spools) {
            emit_spool_cell(&s, t, cell);
        } else {
            for (unsigned i = 0; i < t->nmsgs; i++) {
                if (t->msgs[i].src == cell)
                    emit_gate_sender(&s, &t->msgs[i]);
                else if (t->msgs[i].dst == cell)
                    emit_gate_receiver(&s, &t->msgs[i]);
            }
        }
        t->progs[cell] = net_asm(n, s.buf);
        net_text_free(&s);
        net_load(n, cell % t->w, cell / t->w, t->progs[cell], NULL, 0);
    }
}

static void describe(const net_traffic_t *t)
{
    fprintf(stderr, "seed %llu: %ux%u torus, queue_depth %u, %s, %u messages\n", (unsigned long long)t->seed, t->w,
            t->h, t->queue_depth, t->spools ? "spools" : "gates", t->nmsgs);
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        fprintf(stderr, "  message %u: (%u,%u) -> (%u,%u), %u words, %u hops, %u signs\n", m->id, m->src % t->w,
                m->src / t->w, m->dst % t->w, m->dst / t->w, m->words, m->route.hops, m->route.nsigns);
    }
}

void net_traffic_check(const net_traffic_t *t, const net_t *n)
{
    bool done = n->status == EMU_RUN_DONE;
    for (unsigned cell = 0; done && cell < t->w * t->h; cell++)
        done = net_ca(n, cell % t->w, cell / t->w)->s.state != CA_FAULTED;
    if (!done) {
        describe(t);
        net_print_state(n);
        fail_msg("seed %llu: the traffic did not complete", (unsigned long long)t->seed);
    }
    net_expect_done(n);
    for (unsigned i = 0; i < t->nmsgs; i++) {
        const net_msg_t *m = &t->msgs[i];
        unsigned dx = m->dst % t->w, dy = m->dst / t->w;
        if (!t->spools) {
            if (net_a0(n, dx, dy) != m->words) {
                describe(t);
                fail_msg("seed %llu: message %u: the receiver read %u words, not %u", (unsigned long long)t->seed,
                         m->id, net_a0(n, dx, dy), m->words);
            }
            continue;
        }
        char label[32];
        snprintf(label, sizeof label, "rbuf%u", m->id);
        uint32_t base = net_symbol(t->progs[m->dst], label);
        for (unsigned j = 0; j <= m->words; j++) {
            uint32_t want = j < m->words ? (m->id << 20 | j) : 0, got = net_mem32(n, dx, dy, base + 4 * j);
            if (got != want) {
                describe(t);
                fail_msg("seed %llu: message %u word %u at (%u,%u) 0x%x is 0x%x, not 0x%x", (unsigned long long)t->seed,
                         m->id, j, dx, dy, base + 4 * j, got, want);
            }
        }
        assert_int_equal(net_coa(n, dx, dy)->spool[m->dst_slot].status, COA_SPOOL_DONE);
    }
}
