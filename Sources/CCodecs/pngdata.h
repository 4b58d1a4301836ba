/* framed's own reading of a PNG's image data (pngdata.c), for png.c; not public. */
#ifndef CCODECS_PNGDATA_H
#define CCODECS_PNGDATA_H

#include "ccodecs_common.h"

/* Samples a pixel of a PNG colour type (palette: its one index); 0 for a type that does not
 * exist. */
int ccodecs_png_samples(int color_type);

/* Whether ccodecs_png_data_read can read a picture of this IHDR (colour type and bit depth as
 * PNG numbers them) with or without tRNS: one that is not interlaced, of 8 or 16 bits a sample,
 * gray, gray and alpha, RGB or RGBA, without tRNS. Others go through libpng's rows. */
int ccodecs_png_data_supported(int color_type, int bit_depth, int interlaced, int has_trns);

/* What ccodecs_png_data_read needs to know of the file. */
typedef struct {
    const ccodecs_input *input;
    size_t first_chunk;       /* offset of the first IDAT chunk (its length field) */
    size_t end;               /* bytes of the input that may be read */
    uint32_t width, height;
    int color_type, bit_depth;
    int threads;              /* 2 or more: the image data is inflated on a second thread */
} ccodecs_png_data;

/* Reads the IDAT chunks from data->first_chunk on: checks each chunk's CRC-32, inflates,
 * unfilters and converts each row to RGBA8 as libpng's png_set_scale_16, png_set_gray_to_rgb and
 * png_set_add_alpha would, writing it where `layout` puts it (stored rows are published to
 * `reader`'s watcher). Then, as libpng, reads on to the end of the zlib stream (more data than
 * the rows is a warning, counted in `out`) and checks that chunk's CRC; the zlib stream's
 * Adler-32 and the chunks after the image data are not read: *after is where they start.
 * CCODECS_ERROR with a message
 * (libpng's words) for a bad CRC, corrupt data, a bad filter type or image data that ends
 * early. */
int ccodecs_png_data_read(const ccodecs_png_data *data, uint8_t *pixels, ccodecs_layout layout,
                          ccodecs_reader *reader, ccodecs_decoded *out, size_t *after, char *message);

#endif
