/* Animations for slides: frames drawn by the renderer, written as an animated GIF by giflib: one palette for the
 * whole animation (its frequent colours exactly, the rest by median cut), and after the first frame only the
 * rectangle that changed, what did not change in it transparent. */
#ifndef VIEW_ANIM_H
#define VIEW_ANIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct anim_gif anim_gif_t;

/* Starts a GIF of w x h frames shown `fps` a second, looping forever. NULL with "path: why" in err. */
anim_gif_t *anim_gif_open(const char *path, int w, int h, double fps, char *err, size_t errlen);
/* First, every frame once, in any order (0xAARRGGBB pixels, pitch bytes a row): the palette is chosen from
 * their colours. Returns 0, or -1 with a message. */
int anim_gif_learn(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen);
/* Then adds the frames, in order. A colour not learnt is drawn as its nearest in the palette. Returns 0, or -1
 * with a message. */
int anim_gif_frame(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen);
/* Finishes the file and puts it in place (file.h: whole or not at all). Returns 0, or -1 with a message;
 * either way a is freed. */
int anim_gif_close(anim_gif_t *a, char *err, size_t errlen);
/* Drops an unfinished animation (the target is left as it was). */
void anim_gif_abort(anim_gif_t *a);

#endif
