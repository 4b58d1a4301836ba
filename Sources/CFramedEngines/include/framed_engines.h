/*
 * framed's own engines: code written where a library measured too slow, each in a file of its
 * own that opens with its measured figure. This header is the Swift module CFramedEngines.
 *
 * None is required: the wrappers (CCodecs) reach an engine only through a table of hooks they
 * are handed (ccodecs_hooks.h), or the Swift layer calls an engine's function in place of the
 * plain one; without them the libraries do all the work. FramedRaster's `Engines` picks which
 * (the FRAMED_ENGINES environment variable, read once). Engines depend on CCodecs, never the
 * other way round.
 */
#ifndef FRAMED_ENGINES_H
#define FRAMED_ENGINES_H

#include "ccodecs.h"

/* ---- The tables the wrappers take (each always the same, for the program's life) ---- */

/* jpegscans.c: at 1/8, a progressive JPEG's AC scans that the scale leaves unused are not read
 * (ccodecs_jpeg_engines.scans). */
const struct ccodecs_jpeg_scans_engine *framed_engine_jpegscans(void);

/* jpegsplit.c: below full size, a progressive YCbCr JPEG's chroma is decoded on a second thread
 * beside its luma (ccodecs_jpeg_engines.split). */
const struct ccodecs_jpeg_split_engine *framed_engine_jpegsplit(void);

/* jpegreduced.c: at 1/8, 1/4, 3/8 and 1/2, a baseline JPEG's entropy-coded data is decoded by
 * framed, on one thread or two, with libjpeg's pixels (ccodecs_jpeg_engines.reduced). */
const struct ccodecs_jpeg_reduced_engine *framed_engine_jpegreduced(void);

/* pngdata.c: most PNGs' image data is read by framed, inflated on a second thread while the
 * calling one unfilters (ccodecs_png_open). */
const struct ccodecs_png_data_engine *framed_engine_pngdata(void);

/* fastdeflate.c: flat pictures' filtered rows are deflated by framed's own writer
 * (ccodecs_deflate_rows). */
const struct ccodecs_deflate_engine *framed_engine_fastdeflate(void);

/* ---- Functions the Swift layer calls in place of the plain ones ---- */

/* avx2rows.c: the resampler's loops built for AVX2, in place of ccodecs_sample_loops_portable;
 * NULL when the processor has no AVX2 (or is not x86). */
const ccodecs_sample_loops *framed_engine_avx2rows(void);

/* jpegparts.c: how a baseline JPEG encode is laid out in parts: `parts` bands of `part_rows`
 * pixel rows (the last one fewer, maybe), each `interval` MCUs, which is the file's restart
 * interval (1 part: no restart markers). */
typedef struct {
    int parts;
    uint32_t part_rows;
    unsigned interval;
} framed_jpeg_parts;

/* A flag for the two functions below (beside CCODECS_JPEG_*), for tests: parts of one row of
 * MCUs each. */
#define FRAMED_ENGINE_JPEG_PART_ROWS_1 (1 << 16)

/* The parts of a width x height encode with these flags: a baseline picture of 32 rows of MCUs
 * or more is split in two halves of whole rows of MCUs (more when a half would be over the
 * 65535 MCUs that a restart interval can hold); anything else is one part. */
void framed_engine_jpeg_parts(uint32_t width, uint32_t height, int flags, framed_jpeg_parts *parts);

/* ccodecs_jpeg_encode_rgb in parts (framed_engine_jpeg_parts), with restart markers between
 * them: a picture of half a megapixel or more is encoded on up to `threads` threads, the parts
 * apart and then joined; the bytes are the same whatever `threads` is. */
int framed_engine_jpeg_encode_in_parts(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, double dpi,
                                       int flags, int threads, ccodecs_buffer *out, char *message);

/* ---- For tests ---- */

/* `count` pixels of Y, Cb and Cr as opaque RGBA, as libjpeg converts them (jdcolor.c): the
 * way the reduced engine does, eight pixels at a time from the products that libjpeg's tables
 * hold, or (one_at_a_time) each pixel through those tables. */
void framed_engine_ycc_to_rgba(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, uint8_t *rgba, size_t count,
                               int one_at_a_time);

#endif
