/* The viewer module's one entry (view_module.c), which the iwarp binary looks up by name (view_loader.c). */
#ifndef VIEW_MODULE_H
#define VIEW_MODULE_H

#define VIEW_MODULE_ENTRY "iwarp_view_module_run"

/* Runs `iwarp view` or `iwarp demo` (command: "view" or "demo"); returns the exit status. */
typedef int view_module_run_fn(const char *command, int argc, char **argv);

#endif
