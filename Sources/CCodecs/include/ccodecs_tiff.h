/*
 * ccodecs TIFF: wrappers over libtiff. Same conventions as ccodecs.h. The file is read through
 * a ccodecs_input where libtiff asks (no memory map), and decoded strip by strip or tile by
 * tile straight into the caller's pixels: nothing but a strip (or a row of tiles) is held
 * beside them.
 */
#ifndef CCODECS_TIFF_H
#define CCODECS_TIFF_H

#include "ccodecs.h"

/* The first page's header: size, samples, bits, colour space (gray, RGB, palette, CMYK,
 * YCbCr), has_alpha (an extra sample that is alpha; not for CMYK, which comes out opaque),
 * has_icc, the Orientation tag (orientation), and the resolution tags (dpi; 0 without a unit). */
int ccodecs_tiff_info(const ccodecs_input *input, ccodecs_image_info *info, char *message);

/* Opens the first page for ccodecs_reader_read: 1, 2, 4, 8 and 16-bit gray (min-is-black or
 * min-is-white), palette, RGB and RGBA (associated alpha made straight, unassociated kept),
 * CMYK (pixel_format CMYK, for colour management), contiguous or planar, in strips or tiles,
 * with every compression Debian's libtiff decodes (YCbCr JPEG as RGB); anything else that
 * libtiff's RGBA interface reads goes through it. 16-bit samples are rounded to 8 bits.
 * Refuses a page, or a tile, over max_pixels before decoding (CCODECS_TOO_LARGE, out->width
 * and out->height the size refused). With need_width and need_height (0: full
 * size), a reduced-resolution subfile of that page (a pyramid level: a following directory or
 * a SubIFD) is read instead when it is the smallest with at least those pixels and the same
 * shape and kind of samples (out->full_width/full_height are then the page's size). out->icc
 * gets the ICC profile tag, out->orientation the Orientation tag, dpi the resolution tags. A
 * file of several pages gives a warning naming how many pages were left out. Signed or
 * floating-point samples: CCODECS_UNSUPPORTED. */
int ccodecs_tiff_open(const ccodecs_input *input, uint32_t need_width, uint32_t need_height, size_t max_pixels,
                      ccodecs_decoded *out, ccodecs_reader **reader, char *message);

/* For a caller that takes the rows a band at a time instead of ccodecs_reader_read (a reader
 * from ccodecs_tiff_open): the most rows a band holds (a strip, a row of tiles), and the next
 * band decoded into `rows` (ccodecs_tiff_band_rows() x out->width x 4 bytes: RGBA8, or CMYK8 as
 * out->pixel_format says, in the stored layout), its first row and its row count. Bands come from
 * the top, one after the other: the picture is never held whole. CCODECS_BAD_ARGUMENT when
 * none is left. */
uint32_t ccodecs_tiff_band_rows(const ccodecs_reader *reader);
int ccodecs_tiff_band(ccodecs_reader *reader, uint8_t *rows, uint32_t *first, uint32_t *count, char *message);

#endif
