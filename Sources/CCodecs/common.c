#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

void ccodecs_free(void *pointer) { free(pointer); }

void ccodecs_message(char *message, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, CCODECS_MESSAGE_SIZE, format, args);
    va_end(args);
}

int ccodecs_check_size(uint32_t width, uint32_t height, size_t max_pixels, char *message) {
    uint64_t pixels = (uint64_t)width * height;
    if (pixels <= max_pixels && pixels <= SIZE_MAX / 4) return CCODECS_OK;
    ccodecs_message(message, "picture is %ux%u pixels, over the limit of %zu pixels",
                    (unsigned)width, (unsigned)height, max_pixels);
    return CCODECS_TOO_LARGE;
}

int ccodecs_append(ccodecs_buffer *buffer, const uint8_t *bytes, size_t count) {
    if (count > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity - buffer->size < count) {
            if (capacity > SIZE_MAX / 2) return CCODECS_NO_MEMORY;
            capacity *= 2;
        }
        uint8_t *data = realloc(buffer->data, capacity);
        if (!data) return CCODECS_NO_MEMORY;
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size += count;
    return CCODECS_OK;
}

void ccodecs_note_warning(ccodecs_decoded *out, const char *text) {
    if (out->warnings++ == 0) ccodecs_message(out->warning, "%s", text);
}

void ccodecs_decoded_release(ccodecs_decoded *decoded) {
    if (!decoded) return;
    free(decoded->pixels);
    free(decoded->icc);
    free(decoded->exif);
    decoded->pixels = NULL;
    decoded->icc = NULL;
    decoded->exif = NULL;
    decoded->icc_size = 0;
    decoded->exif_size = 0;
}

int ccodecs_check_scale(int scale_denom, char *message) {
    if (scale_denom == 1 || scale_denom == 2 || scale_denom == 4 || scale_denom == 8) return CCODECS_OK;
    ccodecs_message(message, "scale denominator %d is not 1, 2, 4 or 8", scale_denom);
    return CCODECS_BAD_ARGUMENT;
}
