/*
 * The command table: one row per command {name, shortest abbreviation, alias, handler, arguments, help,
 * completer}. Dispatch, `help` and tab completion all read it, so a command added here is complete everywhere.
 */
#include <string.h>

#include "dbg.h"

static void complete_words(const char *const *list, const char *text, dbg_str_t *words)
{
    for (; *list != NULL; list++)
        dbg_words_add(words, text, *list);
}

static void complete_catch(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)line;
    for (unsigned i = 0; i < DBG_CATCH_COUNT; i++)
        dbg_words_add(words, text, dbg_catch_names[i]);
    dbg_complete_cells(d, line, text, words);
}

unsigned dbg_word_index(const char *line, const char *text)
{
    size_t start = strlen(line) - strlen(text);
    unsigned n = 0;
    for (size_t i = 0; i < start; i++)
        if (line[i] != ' ' && line[i] != '\t' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t'))
            n++;
    return n;
}

static void complete_cell_or_expr(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    dbg_complete_cells(d, line, text, words);
    dbg_complete_expr(d, line, text, words);
}

/* Help texts: the first line is the summary `help` lists; the rest is what `help COMMAND` adds. */
static const dbg_command_t commands[] = {
    /* execution */
    {"run", 1, NULL, dbg_cmd_run, "[CLOCKS]",
     "start again from clock 0 and continue (breakpoints stay)\n"
     "Example: run",
     NULL},
    {"continue", 1, NULL, dbg_cmd_continue, "[CLOCKS]",
     "run until a stop point, the end, Ctrl-C, or CLOCKS more clocks\n"
     "Example: continue 100    (100 clocks exactly, unless something stops the run first)",
     NULL},
    {"step", 1, NULL, dbg_cmd_step, "[N] [clocks]",
     "run until the selected cell has issued N instructions, or N clocks\n"
     "Every cell runs meanwhile; stop points still stop the run. Crossing a wait of 100 clocks or more in which\n"
     "the cell issued nothing (wfe, a gate), it says how long and what the cell waited for.\n"
     "Example: step 3    step 10 clocks",
     dbg_complete_steps},
    {"next", 1, NULL, dbg_cmd_next, "[N]",
     "step, but run a call through until it returns\n"
     "Calls and returns are counted as the cell issues them, so saving ra on the stack does not fool it.\n"
     "Example: next",
     NULL},
    {"until", 1, NULL, dbg_cmd_until, "CONDITION",
     "run until an expression holds on the selected cell (after every clock)\n"
     "Example: until r4 >= 100    until (5,3).pc == done    until clock >= 5000",
     dbg_complete_expr},
    {"finish", 3, NULL, dbg_cmd_finish, "",
     "run until the selected cell returns from the current function\n"
     "It stops after the `ret` that closes the call the cell is in (calls made meanwhile open and close levels).\n"
     "Example: finish",
     NULL},
    {"backtrace", 2, "bt", dbg_cmd_backtrace, "[X,Y] [N]",
     "the calls the selected cell is in, innermost first (bt is the same)\n"
     "Frames are unwound from the calling convention: each function's prologue says where it keeps the return\n"
     "address (sub sp / stw ra / mov rX, ra); every return address is checked to follow a call.\n"
     "Example: backtrace    bt 3,0",
     NULL},
    {"up", 2, NULL, dbg_cmd_up, "[N]",
     "select the frame N calls out (1 by default): print, x and display then read that caller's registers\n"
     "The registers are those the unwinder recovers (see backtrace); any run goes back to the innermost frame.\n"
     "Example: up    up 2",
     NULL},
    {"down", 2, NULL, dbg_cmd_down, "[N]", "select the frame N calls in (1 by default), towards the innermost\nExample: down",
     NULL},
    {"frame", 1, NULL, dbg_cmd_frame, "[N]",
     "select frame N of the backtrace (none: show the selected one); info frame says what it saved where\n"
     "Example: frame 1    p/x $ra    frame 0",
     NULL},
    /* stop points */
    {"break", 1, NULL, dbg_cmd_break, "[LOCATION] [@CELLS] [if CONDITION]",
     "stop before a cell issues the instruction at LOCATION\n"
     "LOCATION: a symbol, symbol+N, an address (0x1040, *EXPR) or file.s:LINE; none: the selected cell's pc.\n"
     "CELLS: X,Y with numbers, ranges N-M or *, or all (the default: cells share code).\n"
     "CONDITION: an expression, evaluated on the cell about to issue.\n"
     "Example: break destination @5,3 if a0 > 10",
     complete_cell_or_expr},
    {"tbreak", 2, NULL, dbg_cmd_tbreak, "[LOCATION] [@CELLS] [if CONDITION]",
     "a breakpoint that is deleted once it has stopped the run\n"
     "Example: tbreak pathway.s:40",
     complete_cell_or_expr},
    {"watch", 1, NULL, dbg_cmd_watch, "EXPRESSION | channel LC [OP N] | stall [GATE] [CLOCKS]  [@CELLS] [if COND]",
     "stop when a value, a channel's occupancy or a gate stall changes\n"
     "EXPRESSION: registers, memory ([addr], h[addr], b[addr]), anything print takes; checked after each clock.\n"
     "channel LC: words queued in channel LC change; with OP N (== != < <= > >=): the test becomes true.\n"
     "stall: a CA has waited CLOCKS clocks (default 0) on GATE (gi0 gi1 go0 go1, or wfe; default any), once per\n"
     "wait.\n"
     "CELLS: the selected cell by default.\n"
     "Example: watch [buffer+8]    watch channel 0 >= 8 @0,0    watch stall go0 50 @all",
     dbg_complete_watch},
    {"catch", 2, NULL, dbg_cmd_catch, "open|close|phase [N]|send|receive|mark [KIND]  [@CELLS] [if COND]",
     "stop when a pathway opens or closes, a phase begins, a message goes or comes\n"
     "open/close: a channel starts or stops delivering to a gate, a spool or the arrival queue.\n"
     "phase, send, receive, mark: marks the runtimes raise by writing control register MARK (kind << 24 | data).\n"
     "Deadlocks and faults always stop the run; the console shows the wait cycle or the fault.\n"
     "CELLS: all by default. Four or more hits of one catchpoint in a clock are summed up in a line\n"
     "(\"catchpoint 1 on 64 cells, (0,0) to (7,7), at clock 714: 64 pathways opened\"); `info catch` lists them.\n"
     "Example: catch open    catch phase 2    catch send @0,0",
     complete_catch},
    {"delete", 1, NULL, dbg_cmd_delete, "[N...]",
     "delete stop points (all of them without a number)\nExample: delete 2", NULL},
    {"enable", 2, NULL, dbg_cmd_enable, "[N...]",
     "enable stop points (all of them without a number)\nExample: enable 1", NULL},
    {"disable", 4, NULL, dbg_cmd_disable, "[N...]",
     "disable stop points (all of them without a number)\nExample: disable 1", NULL},
    {"ignore", 2, NULL, dbg_cmd_ignore, "N COUNT", "let stop point N pass its next COUNT hits\nExample: ignore 1 5",
     NULL},
    {"condition", 4, NULL, dbg_cmd_condition, "N [EXPRESSION]",
     "stop at point N only when the expression holds (none: always)\n"
     "Example: condition 1 r20 == 3",
     dbg_complete_expr},
    /* inspection */
    {"cell", 2, NULL, dbg_cmd_cell, "[X,Y]",
     "select the cell the other commands look at, and show where it is\nExample: cell 5,3", dbg_complete_cells},
    {"regs", 3, NULL, dbg_cmd_regs, "[X,Y] [all]",
     "registers: ra, sp, a0..a7 and the others that are not zero\n"
     "With `all`, all 128 (the gate registers hold the last word read or written).\nExample: regs 5,3",
     dbg_complete_cells},
    {"mem", 1, NULL, dbg_cmd_mem, "[X,Y] ADDRESS [WORDS]",
     "memory words from ADDRESS (an expression), 16 by default\nExample: mem counter 8", complete_cell_or_expr},
    {"dis", 3, NULL, dbg_cmd_dis, "[X,Y] [LOCATION] [N]",
     "disassemble N instructions (10) with source lines, around the pc or from LOCATION\n"
     "=> marks the pc, * a breakpoint.\nExample: dis destination 4",
     complete_cell_or_expr},
    {"print", 1, NULL, dbg_cmd_print, "[/FMT] EXPRESSION",
     "evaluate an expression on the selected cell (in the selected frame)\n"
     "FMT as gdb's print/FMT (p/x): x hex, d signed, u unsigned, o octal, t binary, c character, a address.\n"
     "$pc, $sp, $ra, $r5 are pc, sp, ra, r5; after up or frame N they are that frame's.\n"
     "Operands: numbers (12, 0x1f, 0b101, 'c'), registers (r5 ra sp a0..a7 gi0...), symbols, memory words [addr],\n"
     "halves h[addr], bytes b[addr], pc, clock, bundles, x, y, id, waiting, halted, count(LC) and credits(LC) of\n"
     "a channel, (X,Y).operand for another cell. Operators as in C: + - * / % << >> & | ^ ~ ! == != < <= > >= &&\n"
     "||. Values are 64-bit; registers, words and hex literals of up to 8 digits are 32-bit signed.\n"
     "Example: print (5,3).a0 * 2",
     dbg_complete_expr},
    {"channels", 2, NULL, dbg_cmd_channels, "[X,Y]",
     "every logical channel of a cell: state, route, queue and why it waits\n"
     "Columns: state, pool, route (where words go), source (where they come from), credits (room downstream),\n"
     "words queued, wait (why it did not move a word: no_data, no_space, lost_turn, no_channel, setup, receiver,\n"
     "asleep), and the queue from its head; tagged words are decoded (sign, trailer).\nExample: channels 3,0",
     dbg_complete_cells},
    {"links", 1, NULL, dbg_cmd_links, "[X,Y]",
     "the four outgoing links of a cell: traffic, utilization, round robin\n"
     "rr: the channel the round-robin scheduler considers first next time; last: the one it served last.\n"
     "Example: links 0,0",
     dbg_complete_cells},
    {"pathway", 2, NULL, dbg_cmd_pathway, "[X,Y] LC",
     "trace the pathway through a channel, from its source to its sink\nExample: pathway 3,0 8", dbg_complete_cells},
    {"spools", 2, NULL, dbg_cmd_spools, "[X,Y]",
     "the spool units of a cell: mode, channel, address, stride, words\nExample: spools 1,1", dbg_complete_cells},
    {"phase", 2, NULL, dbg_cmd_phase, "",
     "the ConSet phase of every cell (PHASE marks) and the connections in place\nExample: phase", NULL},
    {"stats", 3, NULL, dbg_cmd_stats, "[X,Y]",
     "statistics so far: of the array, or of one cell with channels and links\nExample: stats 0,0", dbg_complete_cells},
    {"map", 2, NULL, dbg_cmd_map, "", "draw the array: cell states, words queued, links in use\nExample: map", NULL},
    {"hash", 2, NULL, dbg_cmd_hash, "",
     "the state hash at this clock, as `iwarp run --state-hash-at CLOCK` prints it\n"
     "Equal hashes mean equal states: stopping, stepping and going back never change a run.\nExample: hash",
     NULL},
    {"list", 3, NULL, dbg_cmd_list, "[X,Y] [FUNCTION|ADDRESS]",
     "ten source lines around the selected cell's pc, or around a function or address (=> marks the pc)\n"
     "Example: list    list destination",
     dbg_complete_expr},
    {"x", 1, NULL, dbg_cmd_examine, "/NF [X,Y] ADDRESS",
     "examine memory: N units of format F (x hex words, d signed, u unsigned, i instructions, s a string)\n"
     "As gdb's x: the format follows a slash, and an empty line at the console goes on where it stopped.\n"
     "Example: x/8x buffer    x/4i destination    x/s 0x4000",
     dbg_complete_expr},
    {"display", 4, NULL, dbg_cmd_display, "[EXPRESSION]",
     "evaluate an expression on the selected cell at every stop (alone: show them all now)\n"
     "Example: display r5 + [buffer]",
     dbg_complete_expr},
    {"undisplay", 3, NULL, dbg_cmd_undisplay, "[N]", "forget display N (alone: all of them)\nExample: undisplay 1",
     NULL},
    {"info", 1, NULL, dbg_cmd_info, "TOPIC",
     "list stop points, catches, snapshots, marks, a ConSet run's phases, programs, settings or the selected frame\n"
     "`info` alone names the topics and what they take.\n"
     "info catch lists the catchpoint hits of the last stop that had some (a stop sums up four or more hits of\n"
     "one catchpoint in a line).\n"
     "Example: info breakpoints    info catch",
     dbg_complete_info},
    /* time travel */
    {"snapshot", 2, NULL, dbg_cmd_snapshot, "save FILE | load FILE | list",
     "save the whole array to a file, load it back, or list the snapshot ring\n"
     "A file holds everything that changes as the array runs; load it into a session of the same run\n"
     "description and emulator build.\nExample: snapshot save /tmp/pathway.snap",
     dbg_complete_snapshot},
    {"reverse-step", 9, "rs", dbg_cmd_reverse_step, "[N] [clocks]",
     "go back before the selected cell's last N instructions, or N clocks\n"
     "Going back over a wait of 100 clocks or more in which the cell issued nothing, it says how long and what\n"
     "the cell waited for (step and next do the same going forward).\n"
     "Time travel replays from snapshots: one every `snapshot-interval` clocks (10000 at first), at most\n"
     "`snapshot-keep` of them (as many as fit in 256 MB, at most 64; an 8x8 array of 512 KB cells takes ~33 MB\n"
     "each; when even one does not fit, only the start is kept and going back replays from clock 0).\n"
     "When the ring is full every other snapshot goes and the interval doubles: memory stays bounded and the\n"
     "whole history stays reachable, replays get longer.\nExample: reverse-step    rs 10 clocks",
     dbg_complete_steps},
    {"reverse-continue", 9, "rc", dbg_cmd_reverse_continue, "",
     "go back to the last stop point hit before now\n"
     "It replays the history: conditions count, ignore counts and hit counts do not.\nExample: reverse-continue",
     NULL},
    {"goto", 1, NULL, dbg_cmd_goto, "CLOCK",
     "travel to a clock, back or forward (stop points do not stop it)\nExample: goto 1500", NULL},
    /* scripts */
    {"source", 2, NULL, dbg_cmd_source, "FILE",
     "run the commands of a file, as `iwarp debug -x FILE` does\nExample: source tests/debug/scripts/lib.dbg",
     dbg_complete_files},
    {"expect", 2, NULL, dbg_cmd_expect, "[not] TEXT",
     "check the previous command's output for TEXT (failures: exit status 1)\n"
     "An error followed by an expect that matches it is an expected error.\nExample: expect \"breakpoint 1 hit\"",
     NULL},
    {"assert", 2, NULL, dbg_cmd_assert, "EXPRESSION",
     "check that an expression holds on the selected cell (failures: exit status 1)\n"
     "Example: assert (5,3).a0 == 19998",
     dbg_complete_expr},
    {"echo", 2, NULL, dbg_cmd_echo, "TEXT", "print TEXT\nExample: echo at the receiver", NULL},
    {"set", 2, NULL, dbg_cmd_set, "[X,Y] REGISTER = EXPR | [X,Y] [ADDRESS] = EXPR"
#define DBG_SETTING(id, name, field, kind, value, min, max, doc) " | " name " " value
#include "settings.def"
#undef DBG_SETTING
     ,
     "change a register or a memory word of a cell, or a setting (info settings lists them)\n"
     "A change to the state is a different run: the state hash changes with it, and time travel starts at\n"
     "the clock of the change (`run` starts the program afresh). The settings:\n"
#define DBG_SETTING(id, name, field, kind, value, min, max, doc) "  " name " " value ": " doc "\n"
#include "settings.def"
#undef DBG_SETTING
     "Example: set snapshot-interval 5000",
     dbg_complete_settings},
    {"help", 1, NULL, dbg_cmd_help, "[COMMAND]", "list the commands, or explain one\nExample: help watch",
     dbg_complete_commands},
    {"quit", 1, "exit", dbg_cmd_quit, "", "leave the console (Ctrl-D does too)\nExample: quit", NULL},
};

const dbg_command_t *dbg_commands(size_t *n)
{
    *n = sizeof commands / sizeof commands[0];
    return commands;
}

const dbg_command_t *dbg_command_find(const char *word)
{
    size_t len = strlen(word);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(word, commands[i].name) == 0 || (commands[i].alias && strcmp(word, commands[i].alias) == 0))
            return &commands[i];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (len >= commands[i].min_abbrev && strncmp(word, commands[i].name, len) == 0)
            return &commands[i];
    return NULL;
}

int dbg_cmd_help(dbg_t *d, char *args)
{
    char *w = dbg_word(&args);
    if (w == NULL) {
        dbg_printf(d, "commands (the shortest abbreviation in brackets; `help COMMAND` explains one):\n");
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            const dbg_command_t *c = &commands[i];
            char name[40];
            if (c->min_abbrev < strlen(c->name))
                snprintf(name, sizeof name, "%s [%.*s]", c->name, (int)c->min_abbrev, c->name);
            else
                snprintf(name, sizeof name, "%s", c->name);
            if (c->alias != NULL)
                snprintf(name + strlen(name), sizeof name - strlen(name), " [%s]", c->alias);
            const char *nl = strchr(c->help, '\n');
            dbg_printf(d, "  %-34s %.*s\n", name, nl ? (int)(nl - c->help) : (int)strlen(c->help), c->help);
        }
        return 0;
    }
    const dbg_command_t *c = dbg_command_find(w);
    if (c == NULL)
        return dbg_error(d, "no command '%s' (help lists them)", w);
    const char *nl = strchr(c->help, '\n');
    dbg_printf(d, "%s%s%s  (shortest: %.*s%s%s)\n%.*s\n", c->name, *c->args ? " " : "", c->args, (int)c->min_abbrev,
               c->name, c->alias ? ", " : "", c->alias ? c->alias : "", nl ? (int)(nl - c->help) : (int)strlen(c->help),
               c->help);
    if (nl != NULL)
        dbg_printf(d, "%s\n", nl + 1);
    return 0;
}

/* --- completion --- */

void dbg_words_add(dbg_str_t *words, const char *text, const char *word)
{
    if (strncmp(word, text, strlen(text)) == 0)
        dbg_str_add(words, word, strlen(word) + 1); /* NUL-separated */
}

void dbg_complete_commands(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)d;
    (void)line;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        dbg_words_add(words, text, commands[i].name);
}

void dbg_complete_cells(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)line;
    char cell[24];
    /* Only once something is typed or after '@': 1024 coordinates would drown everything else. */
    for (unsigned i = 0; i < d->ncells && (*text != '\0' || d->ncells <= 64); i++) {
        snprintf(cell, sizeof cell, "%u,%u", dbg_cell_x(d, i), dbg_cell_y(d, i));
        dbg_words_add(words, text, cell);
    }
    dbg_words_add(words, text, "all");
}

void dbg_complete_expr(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    (void)line;
    size_t naliases;
    const isa_reg_alias_t *aliases = isa_reg_aliases(&naliases);
    for (size_t i = 0; i < naliases; i++)
        dbg_words_add(words, text, aliases[i].name);
    /* r<N> only once "r" and a digit are typed: 128 names are no help before that. */
    if (text[0] == 'r' && text[1] >= '0' && text[1] <= '9')
        for (unsigned r = 0; r < ISA_NUM_REGS; r++) {
            char name[8];
            snprintf(name, sizeof name, "r%u", r);
            dbg_words_add(words, text, name);
        }
    complete_words(expr_names, text, words);
    const emu_program_t *p = dbg_ca(d, d->sel)->prog;
    for (size_t i = 0; p != NULL && i < p->image.nsyms; i++)
        dbg_words_add(words, text, p->image.syms[i].name);
}

void dbg_complete_files(dbg_t *d, const char *line, const char *text, dbg_str_t *words)
{
    /* The console completes file names itself (readline knows the folders); nothing to add here. */
    (void)d;
    (void)line;
    (void)text;
    (void)words;
}

void dbg_complete(dbg_t *d, const char *line, const char *text, dbg_str_t *out)
{
    size_t start = strlen(line) - strlen(text);
    const char *p = line + strspn(line, " \t");
    if ((size_t)(p - line) >= start) {
        /* The first word: a command. */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            dbg_words_add(out, text, commands[i].name);
            if (commands[i].alias != NULL)
                dbg_words_add(out, text, commands[i].alias);
        }
        return;
    }
    if (start > 0 && line[start - 1] == '@') {
        dbg_complete_cells(d, line, text, out);
        return;
    }
    char word[32];
    size_t n = strcspn(p, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p);
    const dbg_command_t *c = dbg_command_find(word);
    if (c != NULL && c->complete != NULL)
        c->complete(d, line, text, out);
}
