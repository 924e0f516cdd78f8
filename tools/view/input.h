/* The viewer's controls: one table of keys (it drives the key handling and the help overlay) and the
 * speed ladder. */
#ifndef VIEW_INPUT_H
#define VIEW_INPUT_H

#include <SDL.h>
#include <stddef.h>

typedef enum view_action {
    ACT_NONE,
    ACT_QUIT,
    ACT_PLAY, /* play / pause */
    ACT_STEP, /* one clock on (pauses) */
    ACT_BACK, /* one clock back (pauses) */
    ACT_FASTER,
    ACT_SLOWER,
    ACT_FULL,      /* full speed, or back to the speed before */
    ACT_JUMP_BACK, /* 100 clocks */
    ACT_JUMP_ON,
    ACT_HOME,
    ACT_END,
    ACT_PREV_MARK, /* to the previous mark (phase switch, message) */
    ACT_NEXT_MARK,
    ACT_HELP,
    ACT_LEGEND,
    ACT_FPS,
    ACT_SHOT,    /* screenshot of the window to a PNG */
    ACT_ZOOM_IN, /* larger cells around the middle (the wheel zooms at the pointer) */
    ACT_ZOOM_OUT,
    ACT_ZOOM_FIT,    /* the whole array again */
    ACT_TEXT_LARGER, /* the presentation scale: text and panels */
    ACT_TEXT_SMALLER,
    ACT_CHANNEL_NEXT, /* the selected cell's next channel in use: its pathway is traced */
    ACT_CHANNEL_PREV,
    ACT_ESCAPE, /* close the help, else forget the channel, else deselect the cell */
} view_action_t;

typedef struct view_key_help {
    const char *keys;
    const char *what;
} view_key_help_t;

/* What a key press does (ACT_NONE: nothing). */
view_action_t view_key_action(SDL_Keycode key);
/* The rows of the help overlay. */
const view_key_help_t *view_key_help(unsigned *n);

/* Speeds in clocks per second, slowest first; the last step is full speed (0). */
const double *view_speeds(unsigned *n);
void view_speed_label(double speed, char *buf, size_t cap);

#endif
