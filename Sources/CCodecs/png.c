/* libpng wrappers. libpng reports errors through our error function, which longjmps to the
 * setjmp in the *_run function; everything that must outlive the jump lives in png_state
 * (owned by the public function) or in the caller's structs.
 * The image data is read by libpng's rows, or by an engine of framed's own that the caller
 * hands in (ccodecs_hooks.h; CFramedEngines' pngdata.c) for the pictures it takes.
 * Colour: iCCP is handed on as it is; gAMA/cHRM that differ from sRGB become an ICC profile
 * (color.c) so that colour management treats every picture alike. eXIf is handed on. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <zlib.h>
#include "ccodecs_common.h"
#include "ccodecs_color.h"
#include "ccodecs_hooks.h"

int ccodecs_png_samples(int color_type) {
    static const int samples[7] = {1, 0, 3, 1, 2, 0, 4};
    return color_type >= 0 && color_type <= 6 ? samples[color_type] : 0;
}

/* What the chunk lengths say (walk_chunks). */
typedef struct {
    size_t readable;          /* the bytes libpng is given (see walk_chunks) */
    uint64_t idat;            /* IDAT bytes present */
    int has_exif;             /* an eXIf chunk, whole, within the readable bytes */
    size_t exif_offset, exif_length;
} png_chunks;

typedef struct {
    ccodecs_input input;      /* reading */
    size_t size, offset;      /* readable bytes (png_chunks.readable); the next one to hand over */
    uint8_t *chunk;           /* files: CCODECS_READ_CHUNK bytes read ahead (malloc'd) */
    const uint8_t *next;      /* the next of them, and how many are left */
    size_t buffered;
    const uint8_t *prefix;    /* bytes handed over before the input's (read_trailer), and how many */
    size_t prefix_left;
    png_chunks chunks;
    char *message;
    int status;               /* set before the jump */
    int image_done;           /* all rows read: later errors are only warnings */
    int passes;               /* 7 for an interlaced picture, else 1 */
    ccodecs_decoded *out;     /* where warnings are counted */
    uint8_t *row;             /* one row, when the layout turns the picture (malloc'd) */
} png_state;

static void on_error(png_structp png, png_const_charp text) {
    png_state *state = png_get_error_ptr(png);
    ccodecs_message(state->message, "%s", text);
    if (!state->status) state->status = CCODECS_ERROR;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    png_state *state = png_get_error_ptr(png);
    if (state->out) ccodecs_note_warning(state->out, text);
}

/* A read error: the system's reason, through the error jump. */
static void unreadable(png_structp png, png_state *state) {
    state->status = CCODECS_UNREADABLE;
    png_error(png, strerror(errno));
}

/* libpng's reads: from memory, or from the file through `chunk`. */
static void read_bytes(png_structp png, png_bytep bytes, size_t count) {
    png_state *state = png_get_io_ptr(png);
    if (state->prefix_left) {
        size_t take = count < state->prefix_left ? count : state->prefix_left;
        memcpy(bytes, state->prefix, take);
        state->prefix += take;
        state->prefix_left -= take;
        bytes += take;
        count -= take;
    }
    if (count > state->size - state->offset) png_error(png, "premature end of data");
    if (state->input.data) {
        memcpy(bytes, state->input.data + state->offset, count);
        state->offset += count;
        return;
    }
    while (count > 0) {
        if (!state->buffered) {
            size_t want = state->size - state->offset;
            if (want > CCODECS_READ_CHUNK) want = CCODECS_READ_CHUNK;
            ptrdiff_t n = ccodecs_input_read(&state->input, state->offset, state->chunk, want);
            if (n < 0) unreadable(png, state);
            if (n == 0) png_error(png, "premature end of data"); /* the file shrank */
            state->next = state->chunk;
            state->buffered = (size_t)n;
        }
        size_t take = count < state->buffered ? count : state->buffered;
        memcpy(bytes, state->next, take);
        bytes += take;
        count -= take;
        state->next += take;
        state->buffered -= take;
        state->offset += take;
    }
}

/* pHYs in pixels per metre as dots per inch; a value that is some whole dpi written in
 * pixels per metre (2835 -> 72) gives that whole dpi back. 0 when absent or unitless. */
static double phys_dpi(png_uint_32 per_metre) {
    double dpi = per_metre * 0.0254;
    double whole = (double)(long)(dpi + 0.5);
    return (png_uint_32)(whole / 0.0254 + 0.5) == per_metre ? whole : dpi;
}

static void read_header(png_structp png, png_infop info, ccodecs_image_info *header) {
    int depth, type, interlace;
    png_uint_32 x, y;
    int unit;
    png_read_info(png, info);
    png_get_IHDR(png, info, &header->width, &header->height, &depth, &type, &interlace, NULL, NULL);
    header->bit_depth = depth;
    header->components = png_get_channels(png, info);
    header->color_space = type == PNG_COLOR_TYPE_PALETTE ? CCODECS_COLOR_PALETTE
                          : (type & PNG_COLOR_MASK_COLOR) ? CCODECS_COLOR_RGB
                                                          : CCODECS_COLOR_GRAY;
    header->has_alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    header->progressive = interlace != PNG_INTERLACE_NONE;
    if (png_get_pHYs(png, info, &x, &y, &unit) && unit == PNG_RESOLUTION_METER) {
        header->dpi_x = phys_dpi(x);
        header->dpi_y = phys_dpi(y);
    }
}

/* Whether gAMA (and cHRM) describe a colour space other than sRGB, with no iCCP or sRGB
 * chunk to say better. If so, *gamma is the decoding exponent (1 / gAMA) and *chromaticities
 * points at cHRM's eight numbers (NULL without cHRM). */
static int wants_profile(png_structp png, png_infop info, double *gamma, double chrm[8],
                         const double **chromaticities) {
    static const double srgb[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};
    double file_gamma;
    if (png_get_valid(png, info, PNG_INFO_iCCP) || png_get_valid(png, info, PNG_INFO_sRGB) ||
        !png_get_gAMA(png, info, &file_gamma) || !(file_gamma > 0))
        return 0;
    int same = fabs(file_gamma * 2.2 - 1) < 0.01;
    *chromaticities = NULL;
    if (png_get_valid(png, info, PNG_INFO_cHRM) &&
        png_get_cHRM(png, info, &chrm[0], &chrm[1], &chrm[2], &chrm[3], &chrm[4], &chrm[5], &chrm[6], &chrm[7])) {
        for (int i = 0; i < 8; i++) same = same && fabs(chrm[i] - srgb[i]) < 0.001;
        *chromaticities = chrm;
    }
    *gamma = 1 / file_gamma;
    return !same;
}

/* Copies iCCP into out->icc, or makes a profile from gAMA/cHRM (a warning if lcms2 cannot). */
static void keep_profile(png_structp png, png_infop info, png_state *state, int gray, ccodecs_decoded *out) {
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 length;
    double gamma, chrm[8];
    const double *chromaticities;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && length) {
        if (!(out->icc = malloc(length))) {
            state->status = CCODECS_NO_MEMORY;
            png_error(png, "out of memory");
        }
        memcpy(out->icc, profile, length);
        out->icc_size = length;
    } else if (wants_profile(png, info, &gamma, chrm, &chromaticities)) {
        ccodecs_buffer made;
        char message[CCODECS_MESSAGE_SIZE];
        if (ccodecs_icc_profile(chromaticities, gamma, gray, &made, message) == CCODECS_OK) {
            out->icc = made.data;
            out->icc_size = made.size;
        } else {
            ccodecs_note_warning(out, message);
        }
    }
}

/* Walks the chunks by their lengths, as libpng walks them (CRCs unchecked), reading only
 * their 8-byte headers, for three things:
 *  - readable: how many of the bytes libpng is given: those up to the end of IEND (bytes after
 *    it, however many, are neither walked nor read), or only those before the first chunk other
 *    than IDAT whose length runs past the end of the file. libpng allocates
 *    a chunk's length before reading it (libpng 1.6.39 does so for eXIf whatever the
 *    chunk_malloc_max), so a 100-byte file claiming a 300 MB chunk would cost 300 MB; cut
 *    there, libpng meets a premature end of data instead: an error before the image data, a
 *    warning after it, as for any truncated file. IDAT is streamed, never allocated whole,
 *    and is left alone.
 *  - idat: the IDAT bytes present (for idat_could_hold).
 *  - the first eXIf chunk, before or after the image data, so that the orientation a decoded
 *    picture gets is always the one its header promised (libpng would skip an eXIf that
 *    follows a bad chunk after the image data, where errors are only warnings).
 * -1 (errno set) when the file cannot be read. */
static int walk_chunks(const ccodecs_input *input, png_chunks *chunks) {
    size_t size = input->size;
    memset(chunks, 0, sizeof *chunks);
    chunks->readable = size;
    for (size_t offset = 8; offset + 8 <= size;) {
        uint8_t header[8];
        ptrdiff_t got = ccodecs_input_read(input, offset, header, sizeof header);
        if (got < 0) return -1;
        if (got < (ptrdiff_t)sizeof header) break; /* the file shrank */
        uint64_t n = png_get_uint_32(header), available = size - offset - 8;
        int idat = !memcmp(header + 4, "IDAT", 4);
        if (idat) chunks->idat += n < available ? n : available;
        if (n > available) {
            if (!idat) chunks->readable = offset;
            break;
        }
        if (n + 12 > size - offset) break; /* its CRC is cut off */
        if (!memcmp(header + 4, "IEND", 4)) {
            /* The end: what follows (a trailer, another file) is no part of the picture. */
            chunks->readable = offset + 12 + (size_t)n;
            break;
        }
        if (!chunks->has_exif && !memcmp(header + 4, "eXIf", 4)) {
            chunks->has_exif = 1;
            chunks->exif_offset = offset + 8;
            chunks->exif_length = (size_t)n;
        }
        offset += 12 + (size_t)n;
    }
    return 0;
}

/* The first eXIf chunk's data (malloc'd), NULL with *status CCODECS_OK if there is none (or
 * it is empty); else the status of the failure, with a message. */
static uint8_t *read_exif(const ccodecs_input *input, const png_chunks *chunks, int *status, char *message) {
    *status = CCODECS_OK;
    if (!chunks->has_exif || !chunks->exif_length) return NULL;
    uint8_t *exif = malloc(chunks->exif_length);
    if (!exif) {
        *status = CCODECS_NO_MEMORY;
        ccodecs_message(message, "out of memory");
        return NULL;
    }
    ptrdiff_t got = ccodecs_input_read(input, chunks->exif_offset, exif, chunks->exif_length);
    if (got == (ptrdiff_t)chunks->exif_length) return exif;
    *status = got < 0 ? CCODECS_UNREADABLE : CCODECS_ERROR;
    ccodecs_message(message, "%s", got < 0 ? strerror(errno) : "premature end of data");
    free(exif);
    return NULL;
}

/* Copies the first eXIf chunk into out->exif. */
static void keep_exif(png_structp png, png_state *state, ccodecs_decoded *out) {
    int status;
    out->exif = read_exif(&state->input, &state->chunks, &status, state->message);
    if (status) {
        state->status = status;
        png_error(png, state->message);
    }
    if (out->exif) out->exif_size = state->chunks.exif_length;
}

/* IHDR's width and height straight from the bytes, so that a huge picture is refused as
 * such even if the file is cut short before the first IDAT. */
static int peek_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    if (size < 24 || png_sig_cmp(data, 0, 8) || memcmp(data + 12, "IHDR", 4)) return 0;
    *width = png_get_uint_32(data + 16);
    *height = png_get_uint_32(data + 20);
    return 1;
}

/* Whether `idat` bytes of IDAT chunks could inflate to the picture that IHDR claims (head:
 * the file's first bytes, `size` of them up to 29). Deflate expands at most 1032:1, and the
 * rows hold at least width * height * bits-per-pixel / 8 bytes however they are interlaced
 * and filtered; a few hundred bytes that claim a picture of gigabytes are a cut-short file
 * (or a bomb that would fail anyway), refused before the pixels are allocated. When IHDR
 * cannot be read, libpng judges. */
static int idat_could_hold(const uint8_t *head, size_t size, uint64_t idat, uint32_t width, uint32_t height) {
    if (size < 29) return 1;
    int depth = head[24], samples = ccodecs_png_samples(head[25]);
    if (!samples || depth < 1 || depth > 16) return 1;
    uint64_t pixels = (uint64_t)width * height;
    if (pixels > UINT64_MAX / 64) return 0;
    return pixels * (uint64_t)(samples * depth) / 8 <= idat * 1032 + 65536;
}

/* Limits set explicitly rather than left to how libpng was built: at most this many ancillary
 * chunks kept (text, sPLT, unknown), and at most this many bytes for a compressed chunk
 * (iCCP, zTXt, iTXt) once inflated. Chunk lengths themselves are bounded by the file's size
 * (walk_chunks above). */
#define CCODECS_PNG_CHUNK_CACHE_MAX 256
#define CCODECS_PNG_CHUNK_MALLOC_MAX (16u << 20)

/* Both readers start here: a read struct over the input that counts warnings. `state` has
 * its input, chunks and size set; a file gets its read-ahead buffer (free it with the state). */
static png_structp create_reader(png_state *state, png_infop *info) {
    if (!state->input.data && !(state->chunk = malloc(CCODECS_READ_CHUNK))) return NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
    if (!png) return NULL;
    *info = png_create_info_struct(png);
    if (!*info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return NULL;
    }
    png_set_chunk_cache_max(png, CCODECS_PNG_CHUNK_CACHE_MAX);
    png_set_chunk_malloc_max(png, CCODECS_PNG_CHUNK_MALLOC_MAX);
    png_set_read_fn(png, state, read_bytes);
    return png;
}

static int info_run(png_structp png, png_infop info, png_state *state, ccodecs_image_info *header) {
    if (setjmp(png_jmpbuf(png))) return state->status;
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    read_header(png, info, header);
    double gamma, chrm[8];
    const double *chromaticities;
    header->has_icc = png_get_valid(png, info, PNG_INFO_iCCP) ||
                      wants_profile(png, info, &gamma, chrm, &chromaticities);
    return CCODECS_OK;
}

int ccodecs_png_info_input(const ccodecs_input *input, ccodecs_image_info *header, char *message) {
    memset(header, 0, sizeof *header);
    message[0] = 0;
    png_state state = {.input = *input, .message = message};
    if (walk_chunks(input, &state.chunks)) {
        ccodecs_message(message, "%s", strerror(errno));
        return CCODECS_UNREADABLE;
    }
    state.size = state.chunks.readable;
    png_infop info = NULL;
    png_structp png = create_reader(&state, &info);
    int status = CCODECS_NO_MEMORY;
    if (!png)
        ccodecs_message(message, "out of memory");
    else
        status = info_run(png, info, &state, header);
    png_destroy_read_struct(&png, &info, NULL);
    free(state.chunk);
    if (status) return status;
    header->orientation = 1;
    uint8_t *exif = read_exif(input, &state.chunks, &status, message);
    if (state.chunks.has_exif && !status) {
        header->orientation = ccodecs_exif_orientation(exif, state.chunks.exif_length);
        if (header->dpi_x <= 0) header->dpi_x = header->dpi_y = ccodecs_exif_dpi(exif, state.chunks.exif_length);
    }
    free(exif);
    return status;
}

/* A PNG between ccodecs_png_open and ccodecs_reader_close; libpng's state lives here, on the
 * heap, across the two calls (each sets its own error jump). */
typedef struct {
    ccodecs_reader pub; /* first */
    png_structp png;
    png_infop info;
    png_state state;
    const struct ccodecs_png_data_engine *engine; /* reads the image data, when it takes it */
    ccodecs_png_data data;
} png_reader;

static int open_run(png_reader *reader, size_t max_pixels, ccodecs_decoded *out) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_state *state = &reader->state;
    if (setjmp(png_jmpbuf(png))) return state->status;
    uint32_t limit = max_pixels < PNG_UINT_31_MAX ? (uint32_t)max_pixels : PNG_UINT_31_MAX;
    png_set_user_limits(png, limit, limit);
    ccodecs_image_info header = {0};
    read_header(png, info, &header);
    /* png_read_info stops after the first IDAT chunk's length and type. */
    int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (reader->engine && !reader->engine->takes(type, depth, header.progressive,
                                                 png_get_valid(png, info, PNG_INFO_tRNS) != 0))
        reader->engine = NULL;
    reader->data = (ccodecs_png_data){.input = &state->input, .first_chunk = state->offset - 8,
                                      .end = state->size, .width = header.width, .height = header.height,
                                      .color_type = type, .bit_depth = depth};
    out->width = header.width;
    out->height = header.height;
    out->has_alpha = header.has_alpha;
    out->dpi_x = header.dpi_x;
    out->dpi_y = header.dpi_y;
    if ((state->status = ccodecs_check_size(out->width, out->height, max_pixels, state->message)))
        return state->status;
    int gray = header.color_space == CCODECS_COLOR_GRAY;
    out->pixel_format = gray ? CCODECS_PIXELS_GRAY : CCODECS_PIXELS_RGBA;
    keep_profile(png, info, state, gray, out);
    keep_exif(png, state, out);

#ifdef PNG_IGNORE_ADLER32
    /* Every IDAT byte is already covered by its chunk's CRC-32, which libpng checks; zlib's
     * Adler-32 of the inflated bytes on top of it was 4 % of decoding a 16-bit photo. */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_expand(png);       /* palette -> RGB, gray 1/2/4 -> 8, tRNS -> alpha */
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    if (!header.has_alpha) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    state->passes = png_set_interlace_handling(png);
    reader->pub.streams_rows = state->passes == 1;
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)out->width * 4) png_error(png, "unexpected row size after transforms");
    return CCODECS_OK;
}

/* A PNG chunk of `length` bytes of `data` written at `to`; returns its size. */
static size_t put_chunk(uint8_t *to, const char *type, const uint8_t *data, uint32_t length) {
    png_save_uint_32(to, length);
    memcpy(to + 4, type, 4);
    if (length) memcpy(to + 8, data, length);
    png_save_uint_32(to + 8 + length, (png_uint_32)crc32(crc32(0, to + 4, 4), data, length));
    return 12 + (size_t)length;
}

static void trailer_run(png_structp png, png_infop info, png_state *state, ccodecs_decoded *out) {
    uint8_t row[8];
    if (setjmp(png_jmpbuf(png))) {
        ccodecs_note_warning(out, state->message);
        return;
    }
    png_read_info(png, info);
    png_read_row(png, row, NULL);
    png_read_end(png, info);
}

/* After an engine read the image data, the chunks from `after` on, read by libpng as
 * png_read_end reads them, so that they give the warnings they gave after libpng's own rows
 * (a missing IEND, a bad CRC, a chunk out of place). libpng is handed a stand-in start (the
 * signature, an IHDR of one pixel of the same colour type and depth, that pixel's IDAT), then
 * the file's bytes from `after` on. */
static void read_trailer(png_reader *reader, size_t after, int color_type, int bit_depth, ccodecs_decoded *out) {
    uint8_t ihdr[13] = {0, 0, 0, 1, 0, 0, 0, 1, (uint8_t)bit_depth, (uint8_t)color_type, 0, 0, 0};
    uint8_t pixel[9] = {0}, idat[64], start[8 + 25 + 12 + sizeof idat];
    uLongf idat_size = sizeof idat;
    if (compress(idat, &idat_size, pixel, 1 + (uLong)(ccodecs_png_samples(color_type) * bit_depth / 8)) != Z_OK) return;
    memcpy(start, "\x89PNG\r\n\x1a\n", 8);
    size_t size = 8 + put_chunk(start + 8, "IHDR", ihdr, sizeof ihdr);
    size += put_chunk(start + size, "IDAT", idat, (uint32_t)idat_size);
    char message[CCODECS_MESSAGE_SIZE] = "";
    png_state trailer = {.input = reader->state.input, .size = reader->state.size, .offset = after,
                         .prefix = start, .prefix_left = size, .message = message, .out = out, .image_done = 1};
    png_infop info = NULL;
    png_structp png = create_reader(&trailer, &info);
    if (png) trailer_run(png, info, &trailer, out); /* out of memory: no warnings to give */
    png_destroy_read_struct(&png, &info, NULL);
    free(trailer.chunk);
}

/* Rows go straight into place, or, when the layout turns the picture, through one row (with
 * an interlaced picture, each pass builds on the row that the passes before it left). */
static int read_run(png_reader *reader, uint8_t *pixels, ccodecs_layout layout, ccodecs_decoded *out) {
    png_structp png = reader->png;
    png_state *state = &reader->state;
    if (setjmp(png_jmpbuf(png))) {
        if (!state->image_done) return state->status;
        ccodecs_note_warning(out, state->message); /* trouble after the last row */
        state->message[0] = 0;
        return CCODECS_OK;
    }
    uint32_t width = out->width;
    size_t stride = (size_t)width * 4;
    int stored = ccodecs_layout_is_stored(layout, width);
    if (reader->engine) {
        reader->data.threads = reader->pub.threads;
        size_t after = 0;
        out->engine_rows = 1;
        state->status = reader->engine->read(&reader->data, pixels, layout, &reader->pub, out, &after, state->message);
        if (!state->status) read_trailer(reader, after, reader->data.color_type, reader->data.bit_depth, out);
        return state->status;
    }
    if (!stored && !(state->row = calloc(1, stride))) {
        state->status = CCODECS_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (int pass = 0; pass < state->passes; pass++) {
        for (uint32_t y = 0; y < out->height; y++) {
            if (stored) {
                png_read_row(png, pixels + stride * y, NULL);
                ccodecs_rows_published(&reader->pub, y + 1); /* nobody watches an interlaced one */
                continue;
            }
            if (pass > 0) ccodecs_gather_row(pixels, layout, y, state->row, width);
            png_read_row(png, state->row, NULL);
            ccodecs_place_row(pixels, layout, y, state->row, width);
        }
    }
    state->image_done = 1;
    png_read_end(png, reader->info);
    return CCODECS_OK;
}

static int png_reader_read(ccodecs_reader *base, uint8_t *pixels, ccodecs_layout layout,
                           ccodecs_decoded *out, char *message) {
    png_reader *reader = (png_reader *)base;
    reader->state.message = message;
    reader->state.out = out;
    reader->state.status = CCODECS_OK;
    return read_run(reader, pixels, layout, out);
}

static void png_reader_close(ccodecs_reader *base) {
    png_reader *reader = (png_reader *)base;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader->state.chunk);
    free(reader->state.row);
    free(reader);
}

int ccodecs_png_open(const ccodecs_input *input, size_t max_pixels, const struct ccodecs_png_data_engine *engine,
                     ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    *reader = NULL;
    png_chunks chunks;
    if (walk_chunks(input, &chunks)) {
        ccodecs_message(message, "%s", strerror(errno));
        return CCODECS_UNREADABLE;
    }
    uint8_t head[29];
    ptrdiff_t got = ccodecs_input_read(input, 0, head, sizeof head);
    if (got < 0) {
        ccodecs_message(message, "%s", strerror(errno));
        return CCODECS_UNREADABLE;
    }
    int status;
    if (peek_size(head, (size_t)got, &out->width, &out->height)) {
        if ((status = ccodecs_check_size(out->width, out->height, max_pixels, message))) return status;
        if (!idat_could_hold(head, (size_t)got, chunks.idat, out->width, out->height)) {
            ccodecs_message(message, "%zu bytes cannot hold a %ux%u picture (the file is cut short)",
                            input->size, (unsigned)out->width, (unsigned)out->height);
            return CCODECS_ERROR;
        }
    }
    png_reader *opened = calloc(1, sizeof *opened);
    if (opened) {
        opened->pub.read = png_reader_read;
        opened->pub.close = png_reader_close;
        opened->pub.threads = 1;
        opened->engine = engine;
        opened->state = (png_state){.input = *input, .size = chunks.readable, .chunks = chunks,
                                    .message = message, .out = out};
        opened->png = create_reader(&opened->state, &opened->info);
    }
    if (!opened || !opened->png) {
        if (opened) png_reader_close(&opened->pub);
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    status = open_run(opened, max_pixels, out);
    if (status) {
        png_reader_close(&opened->pub);
        ccodecs_decoded_release(out);
        return status;
    }
    *reader = &opened->pub;
    return CCODECS_OK;
}

