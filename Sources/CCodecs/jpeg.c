/* libjpeg-turbo wrappers. libjpeg reports errors by calling error_exit, which must not
 * return: ours longjmps back into the *_run function that called setjmp. State that must
 * survive the jump (libjpeg structs, allocations) lives in the public function's frame or
 * in the caller's structs, never in locals of the function holding setjmp.
 * APP1 (EXIF) and APP2 (ICC) markers are kept; CMYK and YCCK come out as CMYK samples for
 * color.c to convert. */
#include <stdio.h> /* before jpeglib.h */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include "common.h"
#include "ccodecs_color.h"

typedef struct {
    struct jpeg_error_mgr pub; /* first: libjpeg sees only this */
    jmp_buf jump;
    char *message;
    ccodecs_decoded *out;      /* where warnings are counted */
    int hit_end;               /* libjpeg ran out of data (JWRN_JPEG_EOF) */
    int status;                /* set before the jump */
} jpeg_errors;

static void on_error(j_common_ptr cinfo) {
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->pub.format_message(cinfo, text);
    if (errors->hit_end)
        ccodecs_message(errors->message, "premature end of data (%s)", text);
    else
        ccodecs_message(errors->message, "%s", text);
    errors->status = errors->pub.msg_code == JERR_OUT_OF_MEMORY ? CCODECS_NO_MEMORY : CCODECS_ERROR;
    longjmp(errors->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace output */
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->pub.format_message(cinfo, text);
    if (errors->pub.msg_code == JWRN_JPEG_EOF) errors->hit_end = 1;
    ccodecs_note_warning(errors->out, text);
}

/* Each scan of a progressive (or multi-scan) JPEG is a pass over the whole picture, and a
 * small file can hold thousands of scans that each cost a full pass (the "pathological
 * progressive JPEG" that libjpeg-turbo's own tools and fuzzers cap): more scans than this are
 * refused as an error. Ordinary progressive files have about 10. */
#define CCODECS_JPEG_MAX_SCANS 500

/* libjpeg calls this before it absorbs each row of MCUs in jpeg_start_decompress (and
 * between output passes): past the scan limit it bails out through the error jump. */
static void count_scans(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number <= CCODECS_JPEG_MAX_SCANS) return;
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    ccodecs_message(errors->message, "more than %d scans (a pathological progressive JPEG)",
                    CCODECS_JPEG_MAX_SCANS);
    errors->status = CCODECS_ERROR;
    longjmp(errors->jump, 1);
}

/* Whether `size` bytes could hold the entropy-coded data of this picture. A Huffman-coded
 * scan spends at least one bit on each 8x8 block (its DC difference; sequential scans also an
 * end-of-block code), so a file with fewer bits than the picture has blocks is cut short
 * beyond anything worth decoding: refused before the pixels are allocated, rather than
 * allocating a huge picture for a few bytes and filling it with gray. Arithmetic coding has
 * no such floor and is let through (the --max-pixels limit still bounds it). */
static int could_hold_blocks(struct jpeg_decompress_struct *cinfo, size_t size) {
    if (cinfo->arith_code) return 1;
    uint64_t blocks = 0;
    for (int c = 0; c < cinfo->num_components; c++)
        blocks += (uint64_t)cinfo->comp_info[c].width_in_blocks * cinfo->comp_info[c].height_in_blocks;
    return blocks <= (uint64_t)size * 8;
}

static struct jpeg_error_mgr *errors_init(jpeg_errors *errors, char *message, ccodecs_decoded *out) {
    memset(errors, 0, sizeof *errors);
    jpeg_std_error(&errors->pub);
    errors->pub.error_exit = on_error;
    errors->pub.emit_message = on_message;
    errors->message = message;
    errors->out = out;
    message[0] = 0;
    return &errors->pub;
}

/* JFIF density as dots per inch, 0 when the file gives only an aspect ratio. */
static double density_dpi(int unit, unsigned density) {
    if (unit == 1) return density;
    if (unit == 2) return density * 2.54;
    return 0;
}

static ccodecs_color_space color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return CCODECS_COLOR_GRAY;
    case JCS_RGB: return CCODECS_COLOR_RGB;
    case JCS_YCbCr: return CCODECS_COLOR_YCBCR;
    case JCS_CMYK: return CCODECS_COLOR_CMYK;
    case JCS_YCCK: return CCODECS_COLOR_YCCK;
    default: return CCODECS_COLOR_UNKNOWN;
    }
}

/* Asks libjpeg to keep the markers that hold EXIF (APP1) and ICC profiles (APP2). */
static void save_markers(struct jpeg_decompress_struct *cinfo) {
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
}

/* The first APP1 marker that starts with "Exif\0": *exif points past its 6-byte header. */
static int find_exif(struct jpeg_decompress_struct *cinfo, const uint8_t **exif, size_t *size) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && !memcmp(m->data, "Exif", 5)) {
            *exif = m->data + 6;
            *size = m->data_length - 6;
            return 1;
        }
    return 0;
}

static int has_icc(struct jpeg_decompress_struct *cinfo) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 2 && m->data_length > 14 && !memcmp(m->data, "ICC_PROFILE", 12))
            return 1;
    return 0;
}

/* Picks the output colour space and says how its pixels are to be read: CMYK stays CMYK
 * (libjpeg turns YCCK into CMYK), Adobe's marker meaning inverted samples. */
static void choose_output(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out) {
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        cinfo->out_color_space = JCS_CMYK;
        out->pixel_format = cinfo->saw_Adobe_marker ? CCODECS_PIXELS_CMYK_INVERTED : CCODECS_PIXELS_CMYK;
        return;
    }
    cinfo->out_color_space = JCS_EXT_RGBA; /* gray and RGB sources too (libjpeg-turbo) */
    out->pixel_format = cinfo->jpeg_color_space == JCS_GRAYSCALE ? CCODECS_PIXELS_GRAY : CCODECS_PIXELS_RGBA;
}

/* Copies the EXIF and the (reassembled) ICC profile into `out`. */
static int keep_metadata(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out, char *message) {
    const uint8_t *exif;
    size_t size;
    if (find_exif(cinfo, &exif, &size)) {
        if (!(out->exif = malloc(size))) {
            ccodecs_message(message, "out of memory");
            return CCODECS_NO_MEMORY;
        }
        memcpy(out->exif, exif, size);
        out->exif_size = size;
    }
    JOCTET *icc = NULL;
    unsigned icc_size = 0;
    if (jpeg_read_icc_profile(cinfo, &icc, &icc_size)) { /* malloc'd; bad chunks: a warning */
        out->icc = icc;
        out->icc_size = icc_size;
    }
    return CCODECS_OK;
}

static int info_run(struct jpeg_decompress_struct *cinfo, jpeg_errors *errors,
                    const uint8_t *data, size_t size, ccodecs_image_info *info) {
    if (setjmp(errors->jump)) return errors->status;
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, data, size);
    save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->components = cinfo->num_components;
    info->bit_depth = cinfo->data_precision;
    info->color_space = color_space(cinfo->jpeg_color_space);
    info->progressive = cinfo->progressive_mode;
    info->dpi_x = density_dpi(cinfo->density_unit, cinfo->X_density);
    info->dpi_y = density_dpi(cinfo->density_unit, cinfo->Y_density);
    info->has_icc = has_icc(cinfo);
    info->orientation = 1;
    const uint8_t *exif;
    size_t exif_size;
    if (find_exif(cinfo, &exif, &exif_size)) {
        info->orientation = ccodecs_exif_orientation(exif, exif_size);
        if (info->dpi_x <= 0) info->dpi_x = info->dpi_y = ccodecs_exif_dpi(exif, exif_size);
    }
    return CCODECS_OK;
}

int ccodecs_jpeg_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message) {
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    ccodecs_decoded warnings = {0};
    memset(&cinfo, 0, sizeof cinfo);
    memset(info, 0, sizeof *info);
    cinfo.err = errors_init(&errors, message, &warnings);
    int status = info_run(&cinfo, &errors, data, size, info);
    jpeg_destroy_decompress(&cinfo);
    return status;
}

static int decode_run(struct jpeg_decompress_struct *cinfo, jpeg_errors *errors,
                      struct jpeg_progress_mgr *progress, const uint8_t *data, size_t size,
                      int scale_denom, size_t max_pixels, ccodecs_decoded *out) {
    if (setjmp(errors->jump)) return errors->status;
    int status;
    jpeg_create_decompress(cinfo);
    progress->progress_monitor = count_scans;
    cinfo->progress = progress;
    jpeg_mem_src(cinfo, data, size);
    save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    out->width = cinfo->image_width;
    out->height = cinfo->image_height;
    out->dpi_x = density_dpi(cinfo->density_unit, cinfo->X_density);
    out->dpi_y = density_dpi(cinfo->density_unit, cinfo->Y_density);
    /* The source size bounds libjpeg's own memory (progressive coefficient buffers). */
    if ((status = ccodecs_check_size(out->width, out->height, max_pixels, errors->message)))
        return status;
    if (!could_hold_blocks(cinfo, size)) {
        ccodecs_message(errors->message, "%zu bytes cannot hold a %ux%u picture (the file is cut short)",
                        size, (unsigned)out->width, (unsigned)out->height);
        return CCODECS_ERROR;
    }
    if ((status = keep_metadata(cinfo, out, errors->message))) return status;
    choose_output(cinfo, out);
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned)scale_denom;
    jpeg_start_decompress(cinfo);
    out->width = cinfo->output_width;
    out->height = cinfo->output_height;
    out->scale_denom = scale_denom;
    size_t stride = (size_t)out->width * 4;
    out->pixels = malloc(stride * out->height);
    if (!out->pixels) {
        ccodecs_message(errors->message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = out->pixels + stride * cinfo->output_scanline;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return CCODECS_OK;
}

int ccodecs_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, size_t max_pixels,
                        ccodecs_decoded *out, char *message) {
    memset(out, 0, sizeof *out);
    if (ccodecs_check_scale(scale_denom, message)) return CCODECS_BAD_ARGUMENT;
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    struct jpeg_progress_mgr progress;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&progress, 0, sizeof progress);
    cinfo.err = errors_init(&errors, message, out);
    int status = decode_run(&cinfo, &errors, &progress, data, size, scale_denom, max_pixels, out);
    jpeg_destroy_decompress(&cinfo);
    if (status) ccodecs_decoded_release(out);
    return status;
}

/* A destination manager that appends to a ccodecs_buffer (jpeg_mem_dest would leave a
 * stale pointer behind if an error struck after it grew its buffer). */
typedef struct {
    struct jpeg_destination_mgr pub;
    ccodecs_buffer *out;
    JOCTET chunk[16384];
} buffer_destination;

static void destination_init(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = sizeof dest->chunk;
}

static boolean destination_empty(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    if (ccodecs_append(dest->out, dest->chunk, sizeof dest->chunk))
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    destination_init(cinfo);
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    if (ccodecs_append(dest->out, dest->chunk, sizeof dest->chunk - dest->pub.free_in_buffer))
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
}

/* in_space: JCS_EXT_RGBA or JCS_CMYK, 4 bytes a pixel either way. */
static int encode_run(struct jpeg_compress_struct *cinfo, jpeg_errors *errors,
                      buffer_destination *dest, const uint8_t *rgba, J_COLOR_SPACE in_space,
                      uint32_t width, uint32_t height, int quality, double dpi, int flags) {
    if (setjmp(errors->jump)) return errors->status;
    jpeg_create_compress(cinfo);
    cinfo->dest = &dest->pub;
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = in_space;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    if (in_space == JCS_CMYK) {
        jpeg_set_colorspace(cinfo, flags & CCODECS_JPEG_YCCK ? JCS_YCCK : JCS_CMYK);
        cinfo->write_Adobe_marker = (flags & (CCODECS_JPEG_ADOBE | CCODECS_JPEG_YCCK)) != 0;
    }
    if (flags & CCODECS_JPEG_GRAYSCALE) jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    if (flags & CCODECS_JPEG_PROGRESSIVE) jpeg_simple_progression(cinfo);
    if (flags & CCODECS_JPEG_ARITHMETIC) cinfo->arith_code = TRUE;
    if (dpi > 0) {
        cinfo->density_unit = 1;
        cinfo->X_density = cinfo->Y_density = (UINT16)(dpi < 65535 ? dpi + 0.5 : 65535);
    }
    jpeg_start_compress(cinfo, TRUE);
    size_t stride = (size_t)width * 4;
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + stride * cinfo->next_scanline);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return CCODECS_OK;
}

static int encode(const uint8_t *rgba, J_COLOR_SPACE in_space, uint32_t width, uint32_t height,
                  int quality, double dpi, int flags, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    struct jpeg_compress_struct cinfo;
    jpeg_errors errors;
    ccodecs_decoded warnings = {0};
    buffer_destination dest = {
        .pub = {.init_destination = destination_init,
                .empty_output_buffer = destination_empty,
                .term_destination = destination_term},
        .out = out};
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = errors_init(&errors, message, &warnings);
    int status = encode_run(&cinfo, &errors, &dest, rgba, in_space, width, height, quality, dpi, flags);
    jpeg_destroy_compress(&cinfo);
    if (status) {
        free(out->data);
        memset(out, 0, sizeof *out);
    }
    return status;
}

int ccodecs_jpeg_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                            double dpi, int flags, ccodecs_buffer *out, char *message) {
    return encode(rgba, JCS_EXT_RGBA, width, height, quality, dpi, flags, out, message);
}

int ccodecs_jpeg_encode_cmyk(const uint8_t *cmyk, uint32_t width, uint32_t height, int quality,
                             int flags, ccodecs_buffer *out, char *message) {
    return encode(cmyk, JCS_CMYK, width, height, quality, 0, flags, out, message);
}
