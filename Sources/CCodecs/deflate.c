/* zlib streams (RFC 1950) for PDF FlateDecode, through zlib itself (libpng links it anyway). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ccodecs.h"
#include "common.h"

int ccodecs_deflate(const uint8_t *data, size_t size, int level, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    if (level < 0 || level > 9) {
        ccodecs_message(message, "zlib level %d is not 0 to 9", level);
        return CCODECS_BAD_ARGUMENT;
    }
    uLong bound = compressBound((uLong)size);
    out->data = malloc(bound > 0 ? bound : 1);
    if (!out->data) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    uLongf written = bound;
    int status = compress2(out->data, &written, size ? data : (const Bytef *)"", (uLong)size, level);
    if (status != Z_OK) {
        free(out->data);
        memset(out, 0, sizeof *out);
        ccodecs_message(message, "zlib: %s", status == Z_MEM_ERROR ? "out of memory" : "cannot compress");
        return status == Z_MEM_ERROR ? CCODECS_NO_MEMORY : CCODECS_BAD_ARGUMENT;
    }
    out->size = written;
    out->capacity = bound;
    return CCODECS_OK;
}
