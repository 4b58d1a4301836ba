/*
 * ccodecs GIF: wrappers over giflib. Same conventions as ccodecs.h. The file is read through a
 * ccodecs_input as giflib asks for bytes.
 */
#ifndef CCODECS_GIF_H
#define CCODECS_GIF_H

#include "ccodecs.h"

/* The header up to the first image: the canvas (logical screen, grown to hold the first image
 * when that goes past it), has_alpha when the first image has a transparent colour or does not
 * cover the canvas, color_space PALETTE, bit_depth 8. A canvas that the first image covers too
 * little of (ccodecs_check_canvas) is refused, here and by ccodecs_gif_open. */
int ccodecs_gif_info(const ccodecs_input *input, ccodecs_image_info *info, char *message);

/* Opens the first image for ccodecs_reader_read, on its canvas: the canvas transparent where
 * the image does not cover it, the image's transparent colour transparent, interlaced rows put
 * in place. Refuses a canvas over max_pixels before allocating. An animation (a second image)
 * gives its first image and a warning. */
int ccodecs_gif_open(const ccodecs_input *input, size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader,
                     char *message);

#endif
