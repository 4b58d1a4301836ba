/* Scans of a progressive JPEG that a reduced decode can leave unread (jpegscans.c). */
#ifndef CCODECS_JPEGSCANS_H
#define CCODECS_JPEGSCANS_H

#include "common.h"

/* Bytes [start, end) of the input. */
typedef struct {
    size_t start, end;
} ccodecs_span;

/* Walks the markers of a progressive JPEG from its SOI to its EOI and lists, in file order,
 * the AC scans (each from its SOS marker to the marker after its data) of the components
 * whose ids are in unused_ids, starting at or after offset `from`: at most `capacity` into
 * `spans`; the number listed is returned. 0 (leave every scan in) when the file is not one
 * whose scans can be left out safely: see jpegscans.c. `window` is CCODECS_READ_CHUNK bytes
 * of scratch for a file input. */
size_t ccodecs_jpeg_unused_scans(const ccodecs_input *input, const int *unused_ids, int unused_count,
                                 size_t from, uint8_t *window, ccodecs_span *spans, size_t capacity);

#endif
