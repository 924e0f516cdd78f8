/* Animations for slides: frames drawn by the renderer, written as an animated GIF by giflib (each frame with
 * its own 256-colour palette from giflib's median-cut quantizer; the viewer's flat theme loses little). */
#ifndef VIEW_ANIM_H
#define VIEW_ANIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct anim_gif anim_gif_t;

/* Starts a GIF of w x h frames shown `fps` a second, looping forever. NULL with "path: why" in err. */
anim_gif_t *anim_gif_open(const char *path, int w, int h, double fps, char *err, size_t errlen);
/* Adds a frame of 0xAARRGGBB pixels (pitch bytes a row). Returns 0, or -1 with a message. */
int anim_gif_frame(anim_gif_t *a, const uint32_t *argb, size_t pitch, char *err, size_t errlen);
/* Finishes the file and puts it in place (file.h: whole or not at all). Returns 0, or -1 with a message;
 * either way a is freed. */
int anim_gif_close(anim_gif_t *a, char *err, size_t errlen);
/* Drops an unfinished animation (the target is left as it was). */
void anim_gif_abort(anim_gif_t *a);

#endif
