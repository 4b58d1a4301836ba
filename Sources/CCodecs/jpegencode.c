/* JPEG encoding through libjpeg: RGBA (alpha ignored) or CMYK samples into a growing buffer,
 * baseline or progressive, with a restart interval when asked for (framed's encoder in parts,
 * CFramedEngines' jpegparts.c, joins such encodes). */
#include <stdlib.h>
#include <string.h>
#include <jerror.h>
#include "ccodecs_color.h"
#include "ccodecs_jpeglib.h"

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
static int encode_run(struct jpeg_compress_struct *cinfo, ccodecs_jpeg_errors *errors,
                      buffer_destination *dest, const uint8_t *rgba, J_COLOR_SPACE in_space,
                      uint32_t width, uint32_t height, int quality, double dpi, int flags, unsigned interval) {
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
    if (flags & (CCODECS_JPEG_CHROMA_444 | CCODECS_JPEG_CHROMA_422) && cinfo->num_components == 3) {
        cinfo->comp_info[0].h_samp_factor = flags & CCODECS_JPEG_CHROMA_422 ? 2 : 1;
        cinfo->comp_info[0].v_samp_factor = 1;
    }
    if (flags & CCODECS_JPEG_RESTARTS) cinfo->restart_in_rows = 1;
    if (flags & CCODECS_JPEG_RESTARTS_7) cinfo->restart_interval = 7;
    if (interval) cinfo->restart_interval = interval;
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
                  int quality, double dpi, int flags, unsigned interval, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    struct jpeg_compress_struct cinfo;
    ccodecs_jpeg_errors errors;
    ccodecs_decoded warnings = {0};
    buffer_destination dest = {
        .pub = {.init_destination = destination_init,
                .empty_output_buffer = destination_empty,
                .term_destination = destination_term},
        .out = out};
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = ccodecs_jpeg_errors_init(&errors, message, &warnings);
    int status = encode_run(&cinfo, &errors, &dest, rgba, in_space, width, height, quality, dpi, flags, interval);
    jpeg_destroy_compress(&cinfo);
    if (status) {
        free(out->data);
        memset(out, 0, sizeof *out);
    }
    return status;
}

int ccodecs_jpeg_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, double dpi, int flags,
                            unsigned restart_interval, ccodecs_buffer *out, char *message) {
    return encode(rgba, JCS_EXT_RGBA, width, height, quality, dpi, flags, restart_interval, out, message);
}

int ccodecs_jpeg_encode_cmyk(const uint8_t *cmyk, uint32_t width, uint32_t height, int quality,
                             int flags, ccodecs_buffer *out, char *message) {
    return encode(cmyk, JCS_CMYK, width, height, quality, 0, flags, 0, out, message);
}
