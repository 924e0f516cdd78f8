/*
 * The interactive console: GNU readline in callback mode, so the loop can wait in select() and notice Ctrl-C
 * at the prompt (the line is dropped) as well as during a run (the array stops before its next clock, see
 * engine.c). History is kept between sessions; tab completes commands, cells, symbols, registers and files.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "dbg.h"

/* Readline calls its line and completion handlers with no context pointer, so the session they serve has to be
 * reachable from a static. It is set only while dbg_console runs. */
static dbg_t *console_session;

enum { HISTORY_LINES = 1000 };

static void on_line(char *line)
{
    dbg_t *d = console_session;
    if (line == NULL) { /* Ctrl-D */
        printf("\n");
        d->quit = true;
        rl_callback_handler_remove();
        return;
    }
    if (line[strspn(line, " \t")] != '\0') {
        HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
        if (last == NULL || strcmp(last->line, line) != 0)
            add_history(line);
        free(d->repeat);
        d->repeat = strdup(line);
        dbg_execute(d, line);
    } else if (d->repeat != NULL) {
        dbg_execute(d, d->repeat); /* as in gdb: an empty line does the last command again (step, next, x...) */
    }
    free(line);
    dbg_sigint_take(); /* a Ctrl-C that came while a command other than a run worked is spent */
    if (d->quit)
        rl_callback_handler_remove(); /* no new prompt after quit */
}

static bool takes_files(const char *line)
{
    const char *p = line + strspn(line, " \t");
    char word[32];
    size_t n = strcspn(p, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p);
    const dbg_command_t *c = dbg_command_find(word);
    return c != NULL && (c->complete == dbg_complete_files || c->handler == dbg_cmd_snapshot);
}

/* Where words start: blanks only for file names; in expressions also @ ( [ . ) and operators, so "(3,2).a"
 * completes "a" and "break 0x1000 @3," completes "3,". A comma stays inside a word: cells are "X,Y". */
static char *word_breaks(void)
{
    char *line = strndup(rl_line_buffer, (size_t)rl_point);
    bool files = line != NULL && takes_files(line);
    /* The command's own name breaks at blanks only: "reverse-c" completes to reverse-continue. */
    bool first = line != NULL && strpbrk(line + strspn(line, " \t"), " \t") == NULL;
    free(line);
    return files || first ? " \t\n" : " \t\n\"'@$><=;|&{([.)+-*/%!~^";
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    rl_attempted_completion_over = 1; /* no file names unless the command takes them */
    char *line = strndup(rl_line_buffer, (size_t)end);
    if (line == NULL)
        return NULL;
    dbg_str_t words = {NULL, 0, 0};
    dbg_complete(console_session, line, text, &words);
    size_t n = 0;
    for (size_t i = 0; i < words.len; i += strlen(words.s + i) + 1)
        n++;
    char **matches = NULL;
    if (n == 0 && takes_files(line)) {
        rl_attempted_completion_over = 0;
    } else if (n > 0 && (matches = calloc(n + 2, sizeof *matches)) != NULL) {
        /* matches[0] is what replaces the text: the longest prefix all candidates share. */
        size_t k = 1, common = strlen(words.s);
        for (size_t i = 0; i < words.len; i += strlen(words.s + i) + 1) {
            const char *w = words.s + i;
            size_t c = 0;
            while (c < common && w[c] == words.s[c])
                c++;
            common = c;
            matches[k++] = strdup(w);
        }
        matches[0] = strndup(words.s, common);
        if (n == 1) { /* readline's convention: a single match stands alone in matches[0] */
            free(matches[0]);
            matches[0] = matches[1];
            matches[1] = NULL;
        }
    }
    dbg_str_free(&words);
    free(line);
    return matches;
}

int dbg_console(dbg_t *d, const char *history)
{
    console_session = d;
    rl_readline_name = "iwarp";
    rl_attempted_completion_function = complete;
    rl_completion_word_break_hook = word_breaks;
    rl_catch_signals = 0; /* Ctrl-C is ours: see engine.c */
    using_history();
    stifle_history(HISTORY_LINES);
    if (history != NULL)
        read_history(history);
    dbg_sigint_install();
    rl_callback_handler_install("(iwarp) ", on_line);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    while (!d->quit) {
        int fd = fileno(rl_instream ? rl_instream : stdin);
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(fd, &fds);
        /* Look at the Ctrl-C flag with SIGINT blocked, then wait with it unblocked, atomically (pselect): a
         * Ctrl-C that comes in between is not lost. Commands run with SIGINT unblocked, so it stops a run. */
        sigprocmask(SIG_BLOCK, &block, &old);
        if (dbg_sigint_take()) {
            /* Ctrl-C at the prompt: drop what was typed and prompt again, as a shell does. */
            rl_free_line_state();
            rl_callback_sigcleanup();
            printf("^C\n");
            rl_replace_line("", 0);
            rl_on_new_line();
            rl_redisplay();
        }
        int r = pselect(fd + 1, &fds, NULL, NULL, NULL, &old);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        rl_callback_read_char();
        /* Readline reads typed-ahead keys while it inserts: a key it took but did not act on yet (Enter after a
         * fast paste) waits in rl_pending_input, not in the terminal, so select() would not see it. */
        while (!d->quit && rl_pending_input != 0)
            rl_callback_read_char();
    }
    if (!d->quit)
        rl_callback_handler_remove();
    if (history != NULL && write_history(history) != 0)
        fprintf(stderr, "iwarp debug: could not write the history to %s\n", history);
    clear_history();
    console_session = NULL;
    return 0;
}
