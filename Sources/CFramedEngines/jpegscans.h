/* A progressive JPEG's AC scans, listed for a decode to leave unread those it does not need
 * (jpegscans.c): the scans engine's own use, and the split decoder's (jpegsplit.c). Private to
 * CFramedEngines. */
#ifndef FRAMED_JPEGSCANS_H
#define FRAMED_JPEGSCANS_H

#include "ccodecs_jpeglib.h"

/* The AC scans of the file `src` reads that start at or after the next byte libjpeg reads, in
 * file order, into `spans` (room for CCODECS_JPEG_MAX_SCANS); the number listed. 0 (leave
 * every scan in) when the file is not one whose scans can be left out safely (see
 * jpegscans.c), or cannot be read. */
size_t framed_jpeg_ac_scans(const ccodecs_jpeg_source *src, ccodecs_span *spans);

#endif
