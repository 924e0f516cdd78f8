/* The key table: each binding once, with the words the help overlay shows for it. */
#include "input.h"

#include <stdio.h>

typedef struct key_binding {
    SDL_Keycode key;
    view_action_t action;
} key_binding_t;

static const key_binding_t bindings[] = {
    {SDLK_SPACE, ACT_PLAY},      {SDLK_RETURN, ACT_PLAY},    {SDLK_RIGHT, ACT_STEP},       {SDLK_PERIOD, ACT_STEP},
    {SDLK_LEFT, ACT_BACK},       {SDLK_COMMA, ACT_BACK},     {SDLK_UP, ACT_FASTER},        {SDLK_PLUS, ACT_TEXT_LARGER},
    {SDLK_EQUALS, ACT_TEXT_LARGER},   {SDLK_KP_PLUS, ACT_TEXT_LARGER}, {SDLK_DOWN, ACT_SLOWER},      {SDLK_MINUS, ACT_TEXT_SMALLER},
    {SDLK_KP_MINUS, ACT_TEXT_SMALLER}, {SDLK_f, ACT_FULL},         {SDLK_PAGEUP, ACT_JUMP_BACK}, {SDLK_PAGEDOWN, ACT_JUMP_ON},
    {SDLK_HOME, ACT_HOME},       {SDLK_END, ACT_END},        {SDLK_p, ACT_PREV_MARK},      {SDLK_n, ACT_NEXT_MARK},
    {SDLK_h, ACT_HELP},          {SDLK_QUESTION, ACT_HELP},  {SDLK_SLASH, ACT_HELP},       {SDLK_F1, ACT_HELP},
    {SDLK_l, ACT_LEGEND},        {SDLK_r, ACT_FPS},          {SDLK_s, ACT_SHOT},           {SDLK_ESCAPE, ACT_ESCAPE},
    {SDLK_q, ACT_QUIT},          {SDLK_i, ACT_ZOOM_IN},      {SDLK_o, ACT_ZOOM_OUT},       {SDLK_0, ACT_ZOOM_FIT},
    {SDLK_RIGHTBRACKET, ACT_CHANNEL_NEXT}, {SDLK_TAB, ACT_CHANNEL_NEXT}, {SDLK_LEFTBRACKET, ACT_CHANNEL_PREV},
};

static const view_key_help_t help[] = {
    {"Space", "play / pause"},
    {"\u2192  or  .", "one clock on (pauses)"},
    {"\u2190  or  ,", "one clock back (pauses)"},
    {"\u2191 \u2193  or  wheel", "faster / slower (1 clock/s to full speed)"},
    {"+  -", "larger / smaller text, for a projector"},
    {"F", "full speed, and back"},
    {"PgUp  PgDn", "100 clocks back / on"},
    {"Home  End", "start / end of the run"},
    {"P  N", "previous / next mark (phase, message)"},
    {"timeline", "click or drag to scrub"},
    {"click a cell", "its channels, registers, source line"},
    {"[  ]  or  Tab", "trace the pathway of a channel"},
    {"I  O  0", "zoom in / out / the whole array"},
    {"wheel, drag", "on the grid: zoom at the pointer, pan"},
    {"L", "legend on / off"},
    {"R", "frame rate on / off"},
    {"S", "screenshot: iwarp-view-CLOCK.png"},
    {"H  or  ?", "this help;  Esc closes it"},
    {"Q", "quit"},
};

view_action_t view_key_action(SDL_Keycode key)
{
    for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
        if (bindings[i].key == key)
            return bindings[i].action;
    return ACT_NONE;
}

const view_key_help_t *view_key_help(unsigned *n)
{
    *n = sizeof help / sizeof help[0];
    return help;
}

/* 1 clock per second is slow enough to follow one word hop by hop; 1-2-5 steps up from there. */
static const double speeds[] = {1,    2,    5,    10,    20,    50,    100,    200,    500,
                                1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 0};

const double *view_speeds(unsigned *n)
{
    *n = sizeof speeds / sizeof speeds[0];
    return speeds;
}

void view_speed_label(double speed, char *buf, size_t cap)
{
    if (speed <= 0)
        snprintf(buf, cap, "full speed");
    else if (speed >= 1000)
        snprintf(buf, cap, "%gk clocks/s", speed / 1000);
    else
        snprintf(buf, cap, "%g clock%s/s", speed, speed == 1 ? "" : "s");
}
