/* Ctrl-C (or SIGTERM) for long work: while armed, SIGINT and SIGTERM only raise a flag that the work checks at its clean points (between
 * slices of clocks, between cases), so it can stop there and still report what it did (status 130). */
#ifndef TOOLS_INTERRUPT_H
#define TOOLS_INTERRUPT_H

#include <stdbool.h>

/* Installs the handler (the previous one comes back on the matching disarm) and clears the flag; nested arms
 * (a run inside a bench) keep the outer one's handler and flag. */
void interrupt_arm(void);
void interrupt_disarm(void);
/* Whether Ctrl-C was pressed since interrupt_arm. */
bool interrupt_requested(void);

#endif
