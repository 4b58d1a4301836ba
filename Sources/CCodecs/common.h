/* Helpers shared by the codec files; not part of the public header. */
#ifndef CCODECS_COMMON_H
#define CCODECS_COMMON_H

#include "ccodecs.h"

/* printf into a CCODECS_MESSAGE_SIZE buffer. */
void ccodecs_message(char *message, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* CCODECS_TOO_LARGE (with a message) if width * height is over max_pixels or would not fit
 * in memory as RGBA8, else CCODECS_OK. */
int ccodecs_check_size(uint32_t width, uint32_t height, size_t max_pixels, char *message);

/* CCODECS_BAD_ARGUMENT (with a message) unless scale_denom is 1, 2, 4 or 8, else CCODECS_OK. */
int ccodecs_check_scale(int scale_denom, char *message);

/* Appends to a growing malloc'd buffer; CCODECS_NO_MEMORY on failure. */
int ccodecs_append(ccodecs_buffer *buffer, const uint8_t *bytes, size_t count);

/* Keeps the first warning's text and counts them all. */
void ccodecs_note_warning(ccodecs_decoded *out, const char *text);

#endif
