/* The session: creation, output (captured for `expect`), dispatch of command lines, and the ways of naming code. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "dis.h"

void dbg_str_add(dbg_str_t *b, const char *text, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (grown == NULL)
            return; /* output is best effort when memory runs out; the session goes on */
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Formats into small when it fits, else into memory the caller frees (NULL when there is none). */
static char *vformat(char *small, size_t cap, size_t *len, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static char *vformat(char *small, size_t cap, size_t *len, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, cap, fmt, ap);
    char *out = small;
    if (n >= 0 && (size_t)n >= cap) {
        out = malloc((size_t)n + 1);
        if (out != NULL)
            vsnprintf(out, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    *len = n < 0 || out == NULL ? 0 : (size_t)n;
    return out;
}

/* Formats and appends to b, or prints through the session (d) when b is NULL. */
static void emit(dbg_t *d, dbg_str_t *b, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static void emit(dbg_t *d, dbg_str_t *b, const char *fmt, va_list ap)
{
    char small[1024];
    size_t n;
    char *text = vformat(small, sizeof small, &n, fmt, ap);
    if (text != NULL && b != NULL)
        dbg_str_add(b, text, n);
    else if (text != NULL)
        dbg_write(d, text, n);
    if (text != small)
        free(text);
}

void dbg_str_printf(dbg_str_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(NULL, b, fmt, ap);
    va_end(ap);
}

void dbg_str_clear(dbg_str_t *b)
{
    b->len = 0;
    if (b->s != NULL)
        b->s[0] = '\0';
}

void dbg_str_free(dbg_str_t *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

void dbg_write(dbg_t *d, const char *text, size_t n)
{
    fwrite(text, 1, n, d->out);
    dbg_str_add(&d->capture, text, n);
}

void dbg_printf(dbg_t *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(d, NULL, fmt, ap);
    va_end(ap);
}

void dbg_print_line(dbg_t *d, const char *line)
{
    size_t n = strlen(line);
    while (n > 0 && line[n - 1] == ' ')
        n--;
    dbg_write(d, line, n);
    dbg_write(d, "\n", 1);
}

int dbg_error(dbg_t *d, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (d->script != NULL)
        dbg_printf(d, "%s:%u: error: %s\n", d->script, d->script_line, msg);
    else
        dbg_printf(d, "error: %s\n", msg);
    return -1;
}

dbg_t *dbg_create(emu_array_t *a, const char *program_name, uint64_t max_cycles, FILE *out)
{
    dbg_t *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->a = a;
    d->w = emu_array_width(a);
    d->h = emu_array_height(a);
    d->ncells = d->w * d->h;
    d->nchan = emu_array_machine(a)->agent.channels;
    d->out = out;
    d->program_name = strdup(program_name ? program_name : "");
    d->next_id = 1;
    d->status = EMU_RUN_LIMIT;
    d->settled = true;
    d->skip_clock = UINT64_MAX;
    d->max_cycles = max_cycles ? max_cycles : UINT64_MAX;
    d->stop_cell = -1;
    d->show_words = 8;
    d->lc_prev = calloc((size_t)d->ncells * d->nchan, 1);
    d->pending = calloc(d->ncells, sizeof *d->pending);
    d->phases = phase_account_create(a); /* NULL when no cell runs ConSet's phases */
    if (d->program_name == NULL || d->lc_prev == NULL || d->pending == NULL) {
        dbg_free(d);
        return NULL;
    }
    emu_array_set_output(a, dbg_on_output, d);
    dbg_ring_init(d);
    if (d->ring.n == 0) {
        fprintf(stderr, "iwarp debug: out of memory for the start snapshot\n");
        dbg_free(d);
        return NULL;
    }
    /* Select the first cell that runs something: that is where a person starts looking. */
    for (unsigned i = 0; i < d->ncells; i++)
        if (dbg_ca(d, i)->s.state != CA_IDLE) {
            d->sel = i;
            break;
        }
    return d;
}

void dbg_free(dbg_t *d)
{
    if (d == NULL)
        return;
    for (unsigned i = 0; i < d->npoints; i++)
        dbg_point_free(d->points[i]);
    free(d->points);
    dbg_ring_free(d);
    for (unsigned i = 0; d->pending != NULL && i < d->ncells; i++)
        dbg_str_free(&d->pending[i]);
    free(d->pending);
    free(d->lc_prev);
    free(d->marks);
    phase_account_free(d->phases);
    free(d->program_name);
    dbg_str_free(&d->capture);
    dbg_str_free(&d->stop_msg);
    dbg_str_free(&d->catch_list);
    free(d->hits);
    for (unsigned i = 0; i < d->ndisplays; i++)
        free(d->displays[i]);
    free(d->repeat);
    emu_snapshot_free(d->edit_snap);
    emu_array_free(d->a);
    free(d);
}

int dbg_execute(dbg_t *d, const char *line)
{
    char *copy = strdup(line);
    if (copy == NULL)
        return dbg_error(d, "out of memory");
    char *args = dbg_trim(copy);
    if (*args == '\0' || *args == '#') {
        free(copy);
        return 0;
    }
    if (d->echo) /* commands of a sourced file are marked like a shell's trace, so transcripts stay readable */
        dbg_printf(d, "%s%s\n", d->depth > 0 ? "+ " : "(iwarp) ", args);
    char *word = dbg_word(&args);
    /* gdb's "x/4w ADDR": the format glued to the command's name goes to the front of its arguments. */
    char *glued = NULL;
    char *slash = strchr(word, '/');
    if (slash != NULL && slash != word) {
        size_t n = strlen(slash) + 1 + strlen(args) + 1;
        if ((glued = malloc(n)) == NULL) {
            free(copy);
            return dbg_error(d, "out of memory");
        }
        snprintf(glued, n, "%s %s", slash, args);
        *slash = '\0';
        args = glued;
    }
    const dbg_command_t *c = dbg_command_find(word);
    bool is_expect = c != NULL && c->handler == dbg_cmd_expect;
    if (!is_expect) {
        /* An error is checked when the very next command is an `expect`; anything else leaves it a failure. */
        if (d->error_pending) {
            d->failures++;
            d->error_pending = false;
        }
        dbg_str_clear(&d->capture); /* expect checks what this command prints */
    }
    int rc;
    if (c == NULL)
        rc = dbg_error(d, "unknown command '%s' (help lists the commands)", word);
    else
        rc = c->handler(d, dbg_trim(args));
    if (rc != 0 && !is_expect)
        d->error_pending = true;
    if (!is_expect)
        d->expect_len = d->capture.len;
    fflush(d->out);
    free(glued);
    free(copy);
    return rc;
}

/* --- naming code and state --- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void dbg_addr_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap)
{
    const emu_program_t *p = dbg_ca(d, cell)->prog;
    const isa_symbol_t *s = p ? isa_image_symbol_before(&p->image, addr) : NULL;
    if (s == NULL)
        snprintf(buf, cap, "0x%x", addr);
    else if (s->value == addr)
        snprintf(buf, cap, "0x%x <%s>", addr, s->name);
    else
        snprintf(buf, cap, "0x%x <%s+%u>", addr, s->name, addr - s->value);
}

void dbg_line_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap)
{
    const emu_program_t *p = dbg_ca(d, cell)->prog;
    const isa_line_t *l = p ? isa_image_line(&p->image, addr) : NULL;
    if (l == NULL || l->file >= p->image.nfiles || addr < p->text_base || addr >= p->text_end)
        snprintf(buf, cap, "%s", "");
    else
        snprintf(buf, cap, "%s:%u", base_name(p->image.files[l->file]), l->line);
}

bool dbg_bundle_text(const dbg_t *d, unsigned cell, uint32_t addr, char *buf, size_t cap)
{
    const emu_program_t *p = dbg_ca(d, cell)->prog;
    const emu_bundle_t *b = p ? emu_program_bundle(p, addr) : NULL;
    if (b == NULL)
        return false;
    if (b->flags & EMU_BUNDLE_ILLEGAL) {
        snprintf(buf, cap, "(illegal instruction: %s)", isa_error_string((isa_error_t)b->error));
        return true;
    }
    isa_bundle_t bundle;
    bundle.count = b->count;
    for (unsigned i = 0; i < b->count && i < ISA_BUNDLE_MAX_OPS; i++)
        bundle.ops[i] = p->ops[b->first_op + i];
    if (dis_bundle_text(&bundle, &p->image, buf, cap) < 0) {
        snprintf(buf, cap, "%s", "(not disassembled)");
        return true;
    }
    /* A branch, loop or call names where it goes, as gdb does: "bne r20, r21, 0x1030 <again>". */
    for (unsigned i = 0; i < bundle.count; i++) {
        const isa_op_info_t *info = isa_op_info(bundle.ops[i].opcode);
        if (info == NULL || info->unit != ISA_UNIT_CTRL || !bundle.ops[i].has_ext)
            continue;
        char raw[16];
        snprintf(raw, sizeof raw, "0x%x", bundle.ops[i].ext);
        if (strstr(buf, raw) == NULL) /* the disassembler named it already ("call bump") */
            continue;
        const isa_symbol_t *sym = isa_image_symbol_before(&p->image, bundle.ops[i].ext);
        size_t len = strlen(buf);
        if (sym == NULL || sym->kind != ISA_SYM_TEXT || len + 8 >= cap)
            continue;
        uint32_t off = bundle.ops[i].ext - sym->value;
        if (off == 0)
            snprintf(buf + len, cap - len, " <%s>", sym->name);
        else
            snprintf(buf + len, cap - len, " <%s+%u>", sym->name, off);
    }
    return true;
}

const char *dbg_state_text(const ca_t *ca)
{
    switch (ca->s.state) {
    case CA_IDLE: return "no program";
    case CA_RUNNING: return "running";
    case CA_WAITING: return "waiting";
    case CA_HALTED: return "halted";
    case CA_FAULTED: return "faulted";
    }
    return "?";
}

/* Why a waiting CA waits, in words: the gate, its channel and the channel's own reason. */
void dbg_wait_text(const dbg_t *d, unsigned cell, char *buf, size_t cap)
{
    const ca_t *ca = dbg_ca(d, cell);
    const coa_t *c = dbg_coa(d, cell);
    if (ca->s.wait_cause == CA_STALL_WFE) {
        /* By name, with the raw bits after them for whoever reads the control registers. */
        char want[160], held[160], timer[48] = "";
        dbg_events_text(ca->s.event_mask, want, sizeof want);
        uint32_t masked = ca->s.event_pending & ~ca->s.event_mask;
        dbg_events_text(masked, held, sizeof held);
        if ((ca->s.event_mask & CA_EVENT_TIMER) && ca->s.timer_at != 0)
            snprintf(timer, sizeof timer, ", timer at clock %llu", (unsigned long long)ca->s.timer_at);
        int n = snprintf(buf, cap, "waits in wfe for a word to move in its agent, or for: %s (mask 0x%x%s)", want,
                         ca->s.event_mask, timer);
        if (masked != 0 && n > 0 && (size_t)n < cap)
            snprintf(buf + n, cap - (size_t)n, "; pending but masked off: %s (0x%x)", held, masked);
        return;
    }
    unsigned g = ca->s.wait_gate;
    bool in = g < 2;
    unsigned lc = in ? c->gate_in_lc[g] : c->gate_out_lc[g - 2];
    char chan[96];
    bool tag = false;
    if (lc == COA_EXPECT) {
        snprintf(chan, sizeof chan, "expecting a pathway to end there");
    } else if (lc == COA_NONE) {
        snprintf(chan, sizeof chan, "unbound");
    } else if (in) {
        const coa_lc_t *l = &c->lc[lc];
        coa_lc_peek(c, lc, 0, &tag);
        if (l->count == 0)
            snprintf(chan, sizeof chan, "channel %u is empty", lc);
        else if (tag)
            snprintf(chan, sizeof chan, "channel %u holds only a trailer", lc);
        else
            snprintf(chan, sizeof chan, "channel %u has a word now: the CA goes on at the next clock", lc);
    } else if (c->lc[lc].count < c->cfg.queue_depth) {
        snprintf(chan, sizeof chan, "channel %u has room now: the CA goes on at the next clock", lc);
    } else {
        /* Why the full channel does not drain: its own wait, or the one of the last clock. */
        coa_wait_t w = coa_lc_wait(c, lc, emu_array_clock(d->a));
        if (w == COA_WAIT_NONE)
            w = (coa_wait_t)c->lc[lc].last_wait;
        snprintf(chan, sizeof chan, "channel %u is full%s%s", lc, w != COA_WAIT_NONE ? ": " : "",
                 w != COA_WAIT_NONE ? coa_wait_name(w) : "");
    }
    snprintf(buf, cap, "waits for %s %s%u (%s)", in ? "a word on" : "room on", in ? "gi" : "go", in ? g : g - 2, chan);
}

void dbg_print_source(dbg_t *d, unsigned cell, uint32_t pc)
{
    const ca_t *ca = dbg_ca(d, cell);
    const isa_line_t *l = ca->prog != NULL ? isa_image_line(&ca->prog->image, pc) : NULL;
    if (l != NULL && l->file < ca->prog->image.nfiles) {
        dbg_source_t src = {NULL, NULL, 0};
        const char *t = dbg_source_line(&src, ca->prog->image.files[l->file], l->line);
        if (t != NULL)
            dbg_printf(d, "%8u  %s\n", l->line, t);
        dbg_source_free(&src);
    }
}

void dbg_print_where(dbg_t *d, unsigned cell)
{
    const ca_t *ca = dbg_ca(d, cell);
    unsigned x = dbg_cell_x(d, cell), y = dbg_cell_y(d, cell);
    if (ca->s.state == CA_IDLE) {
        dbg_printf(d, "(%u,%u) runs no program\n", x, y);
        return;
    }
    if (ca->s.state == CA_FAULTED) {
        char line[400];
        emu_format_fault(d->a, x, y, line, sizeof line);
        dbg_printf(d, "fault: %s\n", line);
        return;
    }
    char where[160], line[96], text[256];
    dbg_addr_text(d, cell, ca->s.pc, where, sizeof where);
    dbg_line_text(d, cell, ca->s.pc, line, sizeof line);
    if (!dbg_bundle_text(d, cell, ca->s.pc, text, sizeof text))
        snprintf(text, sizeof text, "%s", "(no instruction here)");
    if (ca->s.state == CA_HALTED) {
        dbg_printf(d, "(%u,%u) halted at %s%s%s, clock %llu\n", x, y, where, *line ? " " : "", line,
                   (unsigned long long)ca->s.halted_at);
        return;
    }
    dbg_printf(d, "(%u,%u) %s%s%s: %s\n", x, y, where, *line ? " " : "", line, text);
    dbg_print_source(d, cell, ca->s.pc);
    if (ca->s.state == CA_WAITING) {
        char why[512];
        dbg_wait_text(d, cell, why, sizeof why);
        dbg_printf(d, "      %s\n", why);
    }
}
