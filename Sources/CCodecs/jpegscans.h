/* Scans of a progressive JPEG that a reduced decode can leave unread (jpegscans.c). */
#ifndef CCODECS_JPEGSCANS_H
#define CCODECS_JPEGSCANS_H

#include "ccodecs_common.h"

/* An AC scan: bytes [start, end) of the input, from its SOS marker to the marker after its
 * data, and the id of its one component. */
typedef struct {
    size_t start, end;
    int component;
} ccodecs_span;

/* Walks the markers of a progressive JPEG from its SOI to its EOI and lists, in file order,
 * its AC scans that start at or after offset `from`: at most `capacity` into `spans`; the
 * number listed is returned. 0 (leave every scan in) when the file is not one whose scans can
 * be left out safely: see jpegscans.c. `window` is CCODECS_READ_CHUNK bytes of scratch for a
 * file input. */
size_t ccodecs_jpeg_ac_scans(const ccodecs_input *input, size_t from, uint8_t *window, ccodecs_span *spans,
                             size_t capacity);

#endif
