/* The hooks through which the wrappers hand work to framed's own engines (CFramedEngines).
 *
 * A wrapper takes a table of hooks when a picture is opened or a band is written, and calls
 * only through it: a NULL table means that the plain library does that part. The wrappers never
 * name an engine; CFramedEngines fills the tables (framed_engines.h, one table an engine) and
 * depends on this header and ccodecs_jpeglib.h, one way; the Swift layer (FramedRaster's
 * Engines) picks which tables to pass. Swift sees the tables only as opaque pointers
 * (ccodecs.h declares their struct tags); their members are for C. Every hook runs on the
 * thread that called the wrapper, unless it says otherwise. */
#ifndef CCODECS_HOOKS_H
#define CCODECS_HOOKS_H

#include "ccodecs_jpeglib.h"

/* ---- JPEG decoding (jpegdecode.c, ccodecs_jpeg_open) ------------------------------------- */

/* Leaving a progressive file's unused AC scans unread. */
struct ccodecs_jpeg_scans_engine {
    /* Called after jpeg_read_header of a progressive file, with the output size worked out
     * (jpeg_calc_output_dimensions), inside the reader's error jump: may have the reader's
     * source pass over AC scans whose coefficients the scale never uses
     * (ccodecs_jpeg_leave_unread). Returns what must live as long as the reader (given back to
     * release), or NULL when it left every scan in. */
    void *(*leave_unused)(ccodecs_jpeg_decompressor *reader);
    void (*release)(void *state);
};

/* Decoding a progressive picture's chroma on a second thread, beside the reader's luma. */
struct ccodecs_jpeg_split_engine {
    /* Called after jpeg_read_header of a progressive file whose scans were all left in, with
     * the output size worked out, inside the reader's error jump, unless the reader is to keep
     * to one thread: may start a second decompressor on a thread of its own and turn the
     * reader to decoding luma alone (gray output, chroma's scans left unread). Returns its
     * state, or NULL when it did not (the reader is then as it was). */
    void *(*start)(ccodecs_jpeg_decompressor *reader);
    /* After the reader's jpeg_start_decompress: waits for the second decompressor's scans,
     * counts its warnings in reader->errors.out, and checks that the two agree; CCODECS_OK, or
     * a status with `message`. */
    int (*join)(void *split, ccodecs_jpeg_decompressor *reader, char *message);
    /* Each output row in turn, after the reader's row of luma: `rgba` from `luma` and the
     * second decompressor's row. Warnings are counted in `out`; a failure is a status with
     * `message` (the hook keeps its own error jump). */
    int (*row)(void *split, const uint8_t *luma, uint8_t *rgba, uint32_t width, ccodecs_decoded *out, char *message);
    /* After the last row, before the reader's jpeg_finish_decompress. */
    int (*finish)(void *split, ccodecs_decoded *out, char *message);
    /* Waits for its thread if it still runs, and frees everything. */
    void (*release)(void *split);
};

/* framed's own entropy decoding of a baseline picture at 1/8, 1/4, 3/8 or 1/2. */
struct ccodecs_jpeg_reduced_engine {
    /* Called after jpeg_read_header of a single-scan file, the output size worked out at a
     * scale below full size, inside the reader's error jump; `data_start` is the input offset
     * of the first entropy-coded byte. Returns a plan, or NULL when the engine does not take
     * the file (libjpeg then decodes it). `always_split` (tests): on two threads whatever the
     * size, the second one's part always used. */
    void *(*plan)(ccodecs_jpeg_decompressor *reader, const ccodecs_input *input, size_t data_start,
                  int always_split);
    /* Decodes into `pixels` (placed by `layout`) on `threads` threads, publishing stored rows
     * to `reader`'s watcher (*published: how many); the threads it used, or 0 when the file
     * holds anything it does not decode exactly as libjpeg: then libjpeg decodes the file and
     * must leave the published rows as they are. Called inside the reader's error jump. */
    int (*decode)(void *plan, uint8_t *pixels, ccodecs_layout layout, int threads, ccodecs_reader *reader,
                  uint32_t *published);
    void (*release)(void *plan);
};

/* ---- PNG decoding (png.c, ccodecs_png_open) ---------------------------------------------- */

/* What a PNG reader knows of the file when its image data is to be read. */
typedef struct {
    const ccodecs_input *input;
    size_t first_chunk;       /* offset of the first IDAT chunk (its length field) */
    size_t end;               /* bytes of the input that may be read */
    uint32_t width, height;
    int color_type, bit_depth;
    int threads;              /* ccodecs_reader_set_threads */
} ccodecs_png_data;

/* Reading a PNG's image data (the IDAT chunks) in place of libpng's rows. */
struct ccodecs_png_data_engine {
    /* Whether it reads a picture of this IHDR (colour type and bit depth as PNG numbers them),
     * interlaced or not, with or without tRNS. */
    int (*takes)(int color_type, int bit_depth, int interlaced, int has_trns);
    /* Reads the image data as libpng would give it after png_set_expand, png_set_scale_16,
     * png_set_gray_to_rgb and png_set_add_alpha, with libpng's checks up to the end of the
     * zlib stream (CCODECS_ERROR with libpng's words); each row written where `layout` puts
     * it, stored rows published to `reader`'s watcher, warnings counted in `out`; *after: the
     * offset of the first chunk after the image data, which png.c then reads with libpng. */
    int (*read)(const ccodecs_png_data *data, uint8_t *pixels, ccodecs_layout layout, ccodecs_reader *reader,
                ccodecs_decoded *out, size_t *after, char *message);
};

/* The samples of a pixel of a PNG colour type (palette: its one index); 0 for a type that does
 * not exist. */
int ccodecs_png_samples(int color_type);

/* ---- Deflating filtered rows (deflate.c, ccodecs_deflate_rows) --------------------------- */

/* A raw deflate writer (RFC 1951) in place of zlib for a band of flat rows at level 1. */
struct ccodecs_deflate_engine {
    /* A stream written into `out` (`capacity` bytes, at least ccodecs_deflate_rows_bound of
     * the band); NULL when out of memory. */
    void *(*begin)(uint8_t *out, size_t capacity);
    /* Appends `size` bytes; 0 when `out` is full. */
    int (*write)(void *writer, const uint8_t *data, size_t size);
    /* Ends the stream: with its final block when `last`, else byte-aligned and open (as zlib's
     * Z_SYNC_FLUSH) so that another band's stream can follow. The bytes written, 0 when full. */
    size_t (*finish)(void *writer, int last);
    void (*release)(void *writer);
};

#endif
