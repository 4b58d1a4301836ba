/* A JPEG's header through libjpeg: what ccodecs_jpeg_info reports, and what a reader
 * (jpegdecode.c) takes from it: the markers kept (EXIF, ICC), the density, the output colour
 * space, and whether the file could hold its picture. */
#include <stdlib.h>
#include <string.h>
#include "ccodecs_color.h"
#include "jpegheader.h"

/* Whether `size` bytes (those after the header: the scans' data) could hold the entropy-coded
 * data of this picture. A Huffman-coded scan spends at least one bit on each 8x8 block (its DC
 * difference; sequential scans also an end-of-block code), so a file with fewer bits than the
 * picture has blocks is cut short beyond anything worth decoding: refused before the pixels
 * are allocated, rather than allocating a huge picture for a few bytes and filling it with
 * gray. Arithmetic coding can spend less than a bit on a block (its coder adapts to blocks that
 * are all zero), but not much less: one bit for every 64 blocks is allowed, about twenty times
 * what a flat picture needs. Metadata does not count: a file padded with comments claims no
 * more. */
int ccodecs_jpeg_could_hold_blocks(struct jpeg_decompress_struct *cinfo, size_t size) {
    uint64_t blocks = 0;
    for (int c = 0; c < cinfo->num_components; c++)
        blocks += (uint64_t)cinfo->comp_info[c].width_in_blocks * cinfo->comp_info[c].height_in_blocks;
    return blocks <= (uint64_t)size * 8 * (cinfo->arith_code ? 64 : 1);
}

/* JFIF density as dots per inch, 0 when the file gives only an aspect ratio. */
double ccodecs_jpeg_density_dpi(int unit, unsigned density) {
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
void ccodecs_jpeg_save_markers(struct jpeg_decompress_struct *cinfo) {
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
void ccodecs_jpeg_choose_output(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out) {
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        cinfo->out_color_space = JCS_CMYK;
        out->pixel_format = cinfo->saw_Adobe_marker ? CCODECS_PIXELS_CMYK_INVERTED : CCODECS_PIXELS_CMYK;
        return;
    }
    if (cinfo->jpeg_color_space == JCS_GRAYSCALE) {
        /* One sample a pixel, made RGBA by ccodecs_expand_gray: a third of the instructions of
         * libjpeg-turbo's gray-to-RGBA conversion (callgrind, 12 MP: 38 M against 120 M). */
        cinfo->out_color_space = JCS_GRAYSCALE;
        out->pixel_format = CCODECS_PIXELS_GRAY;
        return;
    }
    cinfo->out_color_space = JCS_EXT_RGBA; /* RGB and YCbCr sources (libjpeg-turbo) */
    out->pixel_format = CCODECS_PIXELS_RGBA;
}

/* Copies the EXIF and the (reassembled) ICC profile into `out`. */
int ccodecs_jpeg_keep_metadata(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out, char *message) {
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

static int info_run(struct jpeg_decompress_struct *cinfo, ccodecs_jpeg_errors *errors, ccodecs_jpeg_source *source,
                    const ccodecs_input *input, ccodecs_image_info *info) {
    if (setjmp(errors->jump)) return errors->status;
    jpeg_create_decompress(cinfo);
    ccodecs_jpeg_use_input(cinfo, source, input);
    ccodecs_jpeg_save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->components = cinfo->num_components;
    info->bit_depth = cinfo->data_precision;
    info->color_space = color_space(cinfo->jpeg_color_space);
    info->progressive = cinfo->progressive_mode;
    info->dpi_x = ccodecs_jpeg_density_dpi(cinfo->density_unit, cinfo->X_density);
    info->dpi_y = ccodecs_jpeg_density_dpi(cinfo->density_unit, cinfo->Y_density);
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

int ccodecs_jpeg_info_input(const ccodecs_input *input, ccodecs_image_info *info, char *message) {
    struct jpeg_decompress_struct cinfo;
    ccodecs_jpeg_errors errors;
    ccodecs_jpeg_source source;
    ccodecs_decoded warnings = {0};
    memset(&cinfo, 0, sizeof cinfo);
    memset(info, 0, sizeof *info);
    cinfo.err = ccodecs_jpeg_errors_init(&errors, message, &warnings);
    int status = info_run(&cinfo, &errors, &source, input, info);
    jpeg_destroy_decompress(&cinfo);
    return status;
}

int ccodecs_jpeg_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message) {
    ccodecs_input input = {.data = data, .fd = -1, .size = data ? size : 0};
    return ccodecs_jpeg_info_input(&input, info, message);
}
