/* framed's own deflate writer (fastdeflate.c), for the filtered rows of flat pictures. Not part
 * of the public header. */
#ifndef CCODECS_FASTDEFLATE_H
#define CCODECS_FASTDEFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ccodecs_lz ccodecs_lz;

/* A raw deflate stream (RFC 1951) being written into `out` (`capacity` bytes). NULL when out
 * of memory. The stream takes at most 5 bytes more than its input per 64 KB, plus 10. */
ccodecs_lz *ccodecs_lz_new(uint8_t *out, size_t capacity);

/* Appends `size` bytes to the stream. 0 when `out` is full (cannot happen with a capacity of
 * ccodecs_deflate_rows_bound). */
int ccodecs_lz_write(ccodecs_lz *lz, const uint8_t *data, size_t size);

/* Ends the stream: with its final block when `last`, else with an empty stored block that
 * leaves it byte-aligned and open (zlib's Z_SYNC_FLUSH), so that another stream can follow.
 * The bytes written, or 0 when `out` is full. */
size_t ccodecs_lz_finish(ccodecs_lz *lz, int last);

void ccodecs_lz_free(ccodecs_lz *lz);

#endif
