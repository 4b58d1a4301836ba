/* What jpegheader.c gives the JPEG reader (jpegdecode.c) from a header libjpeg has read. Private
 * to CCodecs. */
#ifndef CCODECS_JPEGHEADER_H
#define CCODECS_JPEGHEADER_H

#include "ccodecs_jpeglib.h"

/* Asks libjpeg to keep the markers that hold EXIF (APP1) and ICC profiles (APP2). Before
 * jpeg_read_header. */
void ccodecs_jpeg_save_markers(struct jpeg_decompress_struct *cinfo);

/* JFIF density as dots per inch, 0 when the file gives only an aspect ratio. */
double ccodecs_jpeg_density_dpi(int unit, unsigned density);

/* Whether `size` bytes could hold the entropy-coded data of this picture (see jpegheader.c). */
int ccodecs_jpeg_could_hold_blocks(struct jpeg_decompress_struct *cinfo, size_t size);

/* Copies the EXIF and the (reassembled) ICC profile into `out`. */
int ccodecs_jpeg_keep_metadata(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out, char *message);

/* Picks the output colour space and sets out->pixel_format to say how its pixels are read. */
void ccodecs_jpeg_choose_output(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out);

#endif
