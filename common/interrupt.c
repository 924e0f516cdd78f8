#include "interrupt.h"

#include <signal.h>
#include <string.h>

/* The project's one mutable global (with the bookkeeping of arming it): a signal handler can reach nothing
 * else, and sig_atomic_t is the only type it may write. Armed around long work, read at clean points. */
static volatile sig_atomic_t interrupted;
static struct sigaction previous, previous_term;
static unsigned armed; /* nesting: a bench arms it, and each run inside it does too */

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void interrupt_arm(void)
{
    if (armed++ > 0)
        return; /* already armed by the work around this one: a Ctrl-C it saw must stay seen */
    interrupted = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &previous);
    /* A kill (or a job scheduler's end of time) stops the work the same way, so its temporary files go and what
     * it did is reported. */
    sigaction(SIGTERM, &sa, &previous_term);
}

void interrupt_disarm(void)
{
    if (armed > 0 && --armed == 0) {
        sigaction(SIGINT, &previous, NULL);
        sigaction(SIGTERM, &previous_term, NULL);
    }
}

bool interrupt_requested(void)
{
    return interrupted != 0;
}
