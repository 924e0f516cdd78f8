/* Running a tool as a person does: a shell command, its output and its exit status. */
#ifndef TESTS_SUPPORT_COMMAND_H
#define TESTS_SUPPORT_COMMAND_H

#include <stdio.h>

/* Everything left to read from F, NUL-terminated (to be freed; the test fails if it cannot). */
char *command_read_all(FILE *f);

/* Runs CMD with /bin/sh and reads its standard output into *out (NUL-terminated, to be freed; the test fails
 * if it cannot). Returns the exit status, or -1 when the command did not exit normally. */
int command_run(const char *cmd, char **out);

#endif
