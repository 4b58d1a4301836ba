/* A JPEG reader through libjpeg (ccodecs_jpeg_open, ccodecs_reader_read): the header read and
 * checked at open, then the rows decoded straight into the caller's buffer, turned as the
 * layout says. APP1 (EXIF) and APP2 (ICC) markers are kept; CMYK and YCCK come out as CMYK
 * samples for color.c to convert.
 *
 * framed's own engines (CFramedEngines) may take parts of the work, through the hook tables
 * in ccodecs_jpeg_engines (ccodecs_hooks.h): leaving a progressive file's unused scans unread,
 * decoding its chroma on a second thread, and decoding a baseline file's entropy-coded data at
 * reduced scales. Without them (NULL), libjpeg decodes the file as its own tools would. */
#include <stdlib.h>
#include <string.h>
#include "ccodecs_hooks.h"
#include "jpegheader.h"

/* A JPEG between ccodecs_jpeg_open and ccodecs_reader_close: everything libjpeg needs lives
 * here, on the heap, across the two calls (each sets its own error jump), with the state of
 * the engines that took part. */
typedef struct {
    ccodecs_reader pub; /* first */
    ccodecs_jpeg_decompressor d;
    ccodecs_jpeg_engines engines;
    void *scans;   /* engines.scans's state: the scans its source passes over */
    void *split;   /* engines.split's: the second decompressor */
    void *reduced; /* engines.reduced's plan */
} jpeg_reader;

/* Hands the file to the engines that take it, after its header: all inside the error jump. */
static void offer_to_engines(jpeg_reader *reader, const ccodecs_input *input, int scale_eighths, int flags,
                             ccodecs_decoded *out) {
    struct jpeg_decompress_struct *cinfo = &reader->d.cinfo;
    const ccodecs_jpeg_engines *engines = &reader->engines;
    if (cinfo->progressive_mode && (engines->scans || engines->split)) {
        jpeg_calc_output_dimensions(cinfo);
        if (engines->scans) reader->scans = engines->scans->leave_unused(&reader->d);
        if (!reader->scans && engines->split && !(flags & CCODECS_JPEG_ONE_THREAD) &&
            (reader->split = engines->split->start(&reader->d)))
            out->decoders = 2;
    }
    if (scale_eighths < 8 && !cinfo->progressive_mode && engines->reduced) {
        jpeg_calc_output_dimensions(cinfo);
        reader->reduced = engines->reduced->plan(&reader->d, input, ccodecs_jpeg_source_position(&reader->d.source),
                                                 engines->reduced_always_split);
    }
}

static int open_run(jpeg_reader *reader, const ccodecs_input *input, int scale_eighths, int flags,
                    size_t max_pixels, ccodecs_decoded *out) {
    struct jpeg_decompress_struct *cinfo = &reader->d.cinfo;
    ccodecs_jpeg_errors *errors = &reader->d.errors;
    if (setjmp(errors->jump)) return errors->status;
    int status;
    ccodecs_jpeg_begin(&reader->d, input);
    ccodecs_jpeg_save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    out->width = cinfo->image_width;
    out->height = cinfo->image_height;
    out->dpi_x = ccodecs_jpeg_density_dpi(cinfo->density_unit, cinfo->X_density);
    out->dpi_y = ccodecs_jpeg_density_dpi(cinfo->density_unit, cinfo->Y_density);
    /* The source size bounds libjpeg's own memory (progressive coefficient buffers). */
    if ((status = ccodecs_check_size(out->width, out->height, max_pixels, errors->message)))
        return status;
    /* The bytes after the header (up to the first scan) hold the picture's data. */
    size_t header = ccodecs_jpeg_source_position(&reader->d.source), data = input->size > header ? input->size - header : 0;
    if (!ccodecs_jpeg_could_hold_blocks(cinfo, data)) {
        ccodecs_message(errors->message, "%zu bytes of data cannot hold a %ux%u picture (the file is cut short)",
                        data, (unsigned)out->width, (unsigned)out->height);
        return CCODECS_ERROR;
    }
    if ((status = ccodecs_jpeg_keep_metadata(cinfo, out, errors->message))) return status;
    ccodecs_jpeg_choose_output(cinfo, out);
    cinfo->scale_num = (unsigned)scale_eighths;
    cinfo->scale_denom = 8;
    out->decoders = 1;
    offer_to_engines(reader, input, scale_eighths, flags, out);
    /* With a plan for the reduced engine, jpeg_start_decompress waits for read_run, should it
     * be needed after all. */
    if (!reader->reduced) {
        if (jpeg_has_multiple_scans(cinfo) && !reader->split) ccodecs_jpeg_watch_coefficients(cinfo, &reader->d.arrays, 0);
        jpeg_start_decompress(cinfo);
        if (reader->split && (status = reader->engines.split->join(reader->split, &reader->d, errors->message)))
            return status;
    }
    /* A progressive file's scans were all read by jpeg_start_decompress (the reduced engine
     * publishes its rows as it writes them). */
    reader->pub.streams_rows = reader->reduced != NULL || !jpeg_has_multiple_scans(cinfo);
    out->width = cinfo->output_width;
    out->height = cinfo->output_height;
    out->scale_eighths = scale_eighths;
    return CCODECS_OK;
}

static int read_run(jpeg_reader *reader, uint8_t *pixels, ccodecs_layout layout) {
    struct jpeg_decompress_struct *cinfo = &reader->d.cinfo;
    ccodecs_jpeg_errors *errors = &reader->d.errors;
    const struct ccodecs_jpeg_split_engine *split = reader->split ? reader->engines.split : NULL;
    if (setjmp(errors->jump)) return errors->status;
    uint32_t published = 0; /* rows the reduced engine published, which libjpeg must leave alone */
    if (reader->reduced) {
        int threads = reader->engines.reduced->decode(reader->reduced, pixels, layout, reader->pub.threads,
                                                      &reader->pub, &published);
        reader->engines.reduced->release(reader->reduced);
        reader->reduced = NULL;
        if (threads) {
            errors->out->entropy_threads = threads;
            return CCODECS_OK;
        }
        jpeg_start_decompress(cinfo); /* libjpeg decodes the file after all */
    }
    JDIMENSION width = cinfo->output_width;
    size_t stride = (size_t)width * 4;
    /* Rows go straight into place, or through one row when the layout turns the picture;
     * gray samples through a row of their own, expanded to RGBA on the way, or made RGBA with
     * the split engine's chroma. */
    JSAMPROW row = ccodecs_layout_is_stored(layout, width) ? NULL
        : (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, stride);
    JSAMPROW gray = cinfo->out_color_space != JCS_GRAYSCALE ? NULL
        : (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, width);
    if (published) { /* the same pixels, already being read by the watcher: decoded aside */
        JSAMPROW aside = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, stride);
        while (cinfo->output_scanline < published) jpeg_read_scanlines(cinfo, &aside, 1);
    }
    int status;
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION y = cinfo->output_scanline;
        JSAMPROW rgba = row ? row : pixels + stride * y, target = gray ? gray : rgba;
        jpeg_read_scanlines(cinfo, &target, 1);
        if (split) {
            if ((status = split->row(reader->split, gray, rgba, width, errors->out, errors->message))) return status;
        } else if (gray) {
            ccodecs_expand_gray(rgba, gray, width);
        }
        if (row) ccodecs_place_row(pixels, layout, y, row, width);
        else ccodecs_rows_published(&reader->pub, cinfo->output_scanline);
    }
    if (split && (status = split->finish(reader->split, errors->out, errors->message))) return status;
    jpeg_finish_decompress(cinfo);
    return CCODECS_OK;
}

static int jpeg_reader_read(ccodecs_reader *base, uint8_t *pixels, ccodecs_layout layout,
                            ccodecs_decoded *out, char *message) {
    jpeg_reader *reader = (jpeg_reader *)base;
    reader->d.errors.message = message;
    reader->d.errors.out = out;
    return read_run(reader, pixels, layout);
}

static void jpeg_reader_close(ccodecs_reader *base) {
    jpeg_reader *reader = (jpeg_reader *)base;
    if (reader->split) reader->engines.split->release(reader->split);
    if (reader->reduced) reader->engines.reduced->release(reader->reduced);
    jpeg_destroy_decompress(&reader->d.cinfo);
    if (reader->scans) reader->engines.scans->release(reader->scans);
    free(reader);
}

int ccodecs_jpeg_open(const ccodecs_input *input, int scale_eighths, int flags, const ccodecs_jpeg_engines *engines,
                      size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    memset(out, 0, sizeof *out);
    *reader = NULL;
    if (ccodecs_check_scale(scale_eighths, message)) return CCODECS_BAD_ARGUMENT;
    jpeg_reader *opened = calloc(1, sizeof *opened);
    if (!opened) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    opened->pub.read = jpeg_reader_read;
    opened->pub.close = jpeg_reader_close;
    if (engines) opened->engines = *engines;
    opened->d.cinfo.err = ccodecs_jpeg_errors_init(&opened->d.errors, message, out);
    int status = open_run(opened, input, scale_eighths, flags, max_pixels, out);
    if (status) {
        jpeg_reader_close(&opened->pub);
        ccodecs_decoded_release(out);
        return status;
    }
    *reader = &opened->pub;
    return CCODECS_OK;
}

int ccodecs_jpeg_decode(const uint8_t *data, size_t size, int scale_eighths, const ccodecs_jpeg_engines *engines,
                        size_t max_pixels, ccodecs_decoded *out, char *message) {
    ccodecs_input input = {.data = data, .fd = -1, .size = data ? size : 0};
    ccodecs_reader *reader;
    int status = ccodecs_jpeg_open(&input, scale_eighths, 0, engines, max_pixels, out, &reader, message);
    return status ? status : ccodecs_read_all(reader, out, message);
}
