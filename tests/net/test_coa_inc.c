/*
 * runtime/coa.inc gives assembly programs the numbers of the C tables: emu/emu.h (cell registers, mark kinds),
 * emu/ca.h (event bits), comm_agent/coa_cr.h (the agent's registers, their fields and values), comm_agent/coa.h
 * (spool modes and status, channel states, route and source kinds) and comm_agent/word.h (directions, street-sign
 * sinks, tagged words). It is not typed: this test writes what it must be from those tables, row by row, and fails
 * when the file differs (`test_net_coa_inc --print` prints it; IWARP_REBASELINE=1 writes it). The macros over the
 * numbers are typed, in runtime/coa_macros.inc, which coa.inc includes. The test also assembles the file and checks
 * every symbol against its table, and that the sign macros build the words coa_sign_encode builds.
 */
#include "net_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "iwarp_config.h"

static const char coa_inc_path[] = IWARP_SOURCE_ROOT "/runtime/coa.inc";

enum { MAX_CONSTANTS = 160, NAME_COLUMN = 22, VALUE_COLUMN = 11 };

/* coa.inc as the tables make it, and each constant it defines with its value. */
typedef struct coa_inc {
    net_text_t text;
    struct {
        const char *name;
        uint32_t value;
    } constants[MAX_CONSTANTS];
    size_t n;
} coa_inc_t;

static void section(coa_inc_t *g, const char *title)
{
    net_textf(&g->text, "\n# %s\n", title);
}

/* How a section writes its values: register numbers in hex, fields and kinds in decimal, a mark kind as its shift. */
typedef enum style { HEX, HEX2, HEX3, HEX8, DEC, SHIFT24 } style_t;

/* ".equ NAME, VALUE  # DOC". */
static void equ(coa_inc_t *g, const char *name, uint32_t value, style_t style, const char *doc)
{
    char name_comma[64], value_text[32];
    snprintf(name_comma, sizeof name_comma, "%s,", name);
    switch (style) {
    case HEX: snprintf(value_text, sizeof value_text, "0x%x", value); break;
    case HEX2: snprintf(value_text, sizeof value_text, "0x%02x", value); break;
    case HEX3: snprintf(value_text, sizeof value_text, "0x%03x", value); break;
    case HEX8: snprintf(value_text, sizeof value_text, "0x%08x", value); break;
    case DEC: snprintf(value_text, sizeof value_text, "%u", value); break;
    case SHIFT24: snprintf(value_text, sizeof value_text, "%u << 24", value >> 24); break;
    }
    if (*doc == '\0')
        net_textf(&g->text, "        .equ %-*s %s\n", NAME_COLUMN, name_comma, value_text);
    else
        net_textf(&g->text, "        .equ %-*s %-*s # %s\n", NAME_COLUMN, name_comma, VALUE_COLUMN, value_text, doc);
    assert_true(g->n < MAX_CONSTANTS);
    g->constants[g->n].name = name;
    g->constants[g->n].value = value;
    g->n++;
}

static void coa_inc_make(coa_inc_t *g)
{
    net_text_init(&g->text);
    g->n = 0;
    net_textf(&g->text,
              "# Control registers and word formats of the cell and its communication agent, for assembly programs,\n"
              "# documented in docs/network.md. Written by tests/net/test_coa_inc.c from the C tables named in each\n"
              "# section: change a table, then `IWARP_REBASELINE=1 meson test -C build net_coa_inc` writes this file\n"
              "# again (the test fails while they differ). The macros are in coa_macros.inc, included at the end.\n"
              "\n"
              "        .ifndef COA_INC\n"
              "        .equ COA_INC, 1  # included once, however many files include it\n");
    section(g, "cell registers (emu/emu.h, EMU_CELL_CRS)");
#define X(id, num, doc) equ(g, "CR_" #id, (num), HEX2, doc);
    EMU_CELL_CRS(X)
#undef X
    section(g, "event bits (emu/ca.h, CA_EVENTS)");
#define X(id, bit, doc) equ(g, "EV_" #id, (bit), HEX, doc);
    CA_EVENTS(X)
#undef X
    section(g, "mark kinds, written to CR_MARK as kind << 24 | data (emu/emu.h, EMU_MARK_KINDS)");
#define X(id, kind, doc) equ(g, "MARK_" #id, (uint32_t)(kind) << 24, SHIFT24, doc);
    EMU_MARK_KINDS(X)
#undef X
    section(g, "communication agent (comm_agent/coa_cr.h, COA_CRS)");
#define X(id, num, doc) equ(g, "COA_" #id, (num), HEX3, doc);
    COA_CRS(X)
#undef X
    section(g, "COA_STATUS bits (COA_STATUS_BITS)");
#define X(id, bit, doc) equ(g, "COA_STATUS_" #id, (bit), DEC, doc);
    COA_STATUS_BITS(X)
#undef X
    section(g, "what registers that name a channel read and take besides its number (COA_CR_VALUES)");
#define X(id, value, doc) equ(g, "COA_" #id, (value), HEX8, doc);
    COA_CR_VALUES(X)
#undef X
    section(g, "spool fields: COA_SPOOL + spool * 8 + SPOOL_* (COA_SPOOL_FIELDS)");
#define X(id, field, doc) equ(g, "SPOOL_" #id, (field), DEC, doc);
    COA_SPOOL_FIELDS(X)
#undef X
    section(g, "spool modes, SPOOL_CTRL (comm_agent/coa.h, COA_SPOOL_MODES)");
#define X(id, name, mode, doc) equ(g, "SPOOL_" #name, (mode), DEC, doc);
    COA_SPOOL_MODES(X)
#undef X
    section(g, "SPOOL_STATUS bits (COA_SPOOL_STATUS_BITS)");
#define X(id, bit, doc) equ(g, "SPOOL_" #id, (bit), DEC, doc);
    COA_SPOOL_STATUS_BITS(X)
#undef X
    section(g, "channel fields: COA_LC + channel * 8 + LC_* (comm_agent/coa_cr.h, COA_LC_FIELDS)");
#define X(id, field, doc) equ(g, "LC_" #id, (field), DEC, doc);
    COA_LC_FIELDS(X)
#undef X
    section(g, "channel states, LC_STATE (comm_agent/coa.h, COA_LC_STATES)");
#define X(id, name) equ(g, "LC_" #id, COA_LC_##id, DEC, "");
    COA_LC_STATES(X)
#undef X
    section(g, "route and source kinds, LC_ROUTE and LC_SOURCE: kind << 12 | dir << 8 | index (COA_END_KINDS)");
#define X(id, num, doc) equ(g, "END_" #id, (num), DEC, doc);
    COA_END_KINDS(X)
#undef X
    section(g, "directions (comm_agent/word.h, COA_DIRS)");
#define X(id, name, dx, dy) equ(g, "DIR_" #id, COA_DIR_##id, DEC, name);
    COA_DIRS(X)
#undef X
    section(g, "street-sign actions after the turns, which are the DIR_* numbers (COA_SIGN_SINKS)");
#define X(id, doc) equ(g, "SIGN_" #id, COA_SIGN_##id, DEC, doc);
    COA_SIGN_SINKS(X)
#undef X
    section(g, "tagged words: the kind in bits 31..28 (COA_WORD_KINDS)");
#define X(id, kind, doc) equ(g, #id "_KIND", (uint32_t)(kind) << 28, HEX8, doc);
    COA_WORD_KINDS(X)
#undef X
    net_textf(&g->text, "\n        .include \"coa_macros.inc\"\n        .endif\n");
}

/* The file is the tables' text, byte for byte; IWARP_REBASELINE=1 writes it instead. */
static void test_coa_inc_is_the_text_the_c_tables_make(void **state)
{
    (void)state;
    coa_inc_t g;
    coa_inc_make(&g);
    char err[512];
    if (getenv("IWARP_REBASELINE") != NULL) {
        file_out_t out;
        assert_int_equal(file_out_open(&out, coa_inc_path, "w", err, sizeof err), 0);
        fputs(g.text.buf, out.f);
        if (file_out_commit(&out, err, sizeof err) != 0)
            fail_msg("%s", err);
        net_text_free(&g.text);
        return;
    }
    uint8_t *data;
    size_t len;
    if (file_read_all(coa_inc_path, &data, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    const char *have = data != NULL ? (const char *)data : "", *want = g.text.buf;
    if (strcmp(have, want) != 0) {
        unsigned line = 1;
        size_t at = 0;
        for (; have[at] != '\0' && have[at] == want[at]; at++)
            line += have[at] == '\n';
        fail_msg(
            "runtime/coa.inc differs from what the C tables make from line %u on: `IWARP_REBASELINE=1 meson test -C "
            "build net_coa_inc` writes it, `test_net_coa_inc --print` prints it",
            line);
    }
    free(data);
    net_text_free(&g.text);
}

/* The assembler evaluates coa.inc: its constants are the absolute symbols of a program that only includes it. */
static void test_every_constant_of_coa_inc_equals_its_c_counterpart(void **state)
{
    (void)state;
    coa_inc_t g;
    coa_inc_make(&g);
    net_t n;
    net_init(&n, 1, 1);
    net_create(&n);
    const emu_program_t *p = net_asm(&n, "        .include \"coa.inc\"\n_start: halt\n");
    bool seen[MAX_CONSTANTS] = {false};
    for (size_t k = 0; k < p->image.nsyms; k++) {
        const isa_symbol_t *sym = &p->image.syms[k];
        if (sym->kind != ISA_SYM_ABS || strcmp(sym->name, "COA_INC") == 0) /* (the include guard) */
            continue;
        size_t i = 0;
        while (i < g.n && strcmp(g.constants[i].name, sym->name) != 0)
            i++;
        if (i == g.n)
            fail_msg("coa.inc defines %s, which no C table has", sym->name);
        if (sym->value != g.constants[i].value)
            fail_msg("coa.inc: %s = 0x%x, the C tables say 0x%x", sym->name, sym->value, g.constants[i].value);
        seen[i] = true;
    }
    for (size_t i = 0; i < g.n; i++)
        if (!seen[i])
            fail_msg("coa.inc does not define %s", g.constants[i].name);
    net_free(&n);
    net_text_free(&g.text);
}

/* sign_li / sign_pool_li from coa.inc and `sign` from tests/net/net.inc build the words of coa_sign_encode. */
static void test_the_sign_macros_build_the_words_of_coa_sign_encode(void **state)
{
    (void)state;
    static const coa_sign_t signs[] = {
        {.x = 0, .y = 0, .action = COA_SIGN_PX},
        {.x = 31, .y = 31, .action = COA_SIGN_QUEUE},
        {.x = 5, .y = 17, .action = COA_SIGN_GATE, .sink = 1},
        {.x = 12, .y = 3, .action = COA_SIGN_SPOOL, .sink = 7},
        {.x = 7, .y = 2, .action = COA_SIGN_MY, .set_pool = true, .pool = 1},
        {.x = 1, .y = 30, .action = COA_SIGN_MX, .set_pool = true, .pool = 3},
    };
    net_t n;
    net_init(&n, 1, 1);
    net_create(&n);
    net_text_t t;
    net_text_init(&t);
    net_textf(&t, "        .include \"net.inc\"\n_start:\n");
    for (unsigned i = 0; i < sizeof signs / sizeof signs[0]; i++) {
        const coa_sign_t *s = &signs[i];
        if (s->set_pool)
            net_textf(&t, "        sign_pool_li r%u, %u, %u, %u, %u\n", 40 + i, s->x, s->y, s->action, s->pool);
        else
            net_textf(&t, "        sign_li r%u, %u, %u, %u, %u\n", 40 + i, s->x, s->y, s->action, s->sink);
    }
    /* `sign` and `trailer` write tagged words to a gate: the agent sleeps, so they stay in the channel */
    net_textf(&t, "        li   r5, 1\n"
                  "        wrcr r5, [COA_SLEEP]\n"
                  "        open 1\n"
                  "        sign 1, 5, 17, SIGN_GATE, 1\n"
                  "        sign 1, 31, 31, SIGN_QUEUE\n"
                  "        sign 1, 0, 0, DIR_PX\n"
                  "        trailer 1, 0x1234567\n"
                  "        halt\n");
    const emu_program_t *p = net_asm(&n, t.buf);
    net_text_free(&t);
    net_load(&n, 0, 0, p, NULL, 0);
    net_run(&n, NET_LIMIT);
    net_expect_done(&n);
    for (unsigned i = 0; i < sizeof signs / sizeof signs[0]; i++) {
        coa_sign_t s = signs[i];
        if (!s.set_pool)
            s.pool = 0;
        assert_int_equal(net_reg(&n, 0, 0, 40 + i), coa_sign_encode(&s));
        coa_sign_t back;
        assert_true(coa_sign_decode(net_reg(&n, 0, 0, 40 + i), &back));
        assert_int_equal(back.x, s.x);
        assert_int_equal(back.y, s.y);
        assert_int_equal(back.action, s.action);
    }
    const coa_t *c = net_coa(&n, 0, 0);
    unsigned lc = net_reg(&n, 0, 0, 20);
    const uint32_t words[] = {coa_sign_encode(&signs[2]), coa_sign_encode(&signs[1]), coa_sign_encode(&signs[0]),
                              coa_trailer_encode(0x1234567)};
    assert_int_equal(c->lc[lc].count, 4);
    for (unsigned i = 0; i < 4; i++) {
        bool tag;
        assert_int_equal(coa_lc_peek(c, lc, i, &tag), words[i]);
        assert_true(tag);
    }
    net_free(&n);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print") == 0) { /* the generator: what runtime/coa.inc must be */
        coa_inc_t g;
        coa_inc_make(&g);
        fputs(g.text.buf, stdout);
        net_text_free(&g.text);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coa_inc_is_the_text_the_c_tables_make),
        cmocka_unit_test(test_every_constant_of_coa_inc_equals_its_c_counterpart),
        cmocka_unit_test(test_the_sign_macros_build_the_words_of_coa_sign_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
