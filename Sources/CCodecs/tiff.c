/* libtiff wrappers. libtiff reports errors through a handler given to each TIFF (libtiff 4.5's
 * TIFFOpenOptions): the first one is kept as the message, nothing is printed, and warnings are
 * not counted (libtiff warns about every tag it does not know). The file is read through the
 * ccodecs_input with pread, where libtiff seeks; no memory map. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"
#include "ccodecs_tiff.h"
#include "ccodecs_tifflibrary.h"

/* ---- opening ---- */

typedef struct {
    ccodecs_input input;
    uint64_t position;
    ccodecs_log error;                 /* libtiff's first error */
} source;

static tmsize_t source_read(thandle_t handle, void *buffer, tmsize_t size) {
    source *s = handle;
    if (size < 0) return -1;
    ptrdiff_t got = ccodecs_input_read(&s->input, (size_t)s->position, buffer, (size_t)size);
    if (got > 0) s->position += (uint64_t)got;
    return got;
}

static tmsize_t source_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle, (void)buffer, (void)size;
    return -1;
}

static toff_t source_seek(thandle_t handle, toff_t offset, int whence) {
    source *s = handle;
    uint64_t base = whence == SEEK_CUR ? s->position : whence == SEEK_END ? s->input.size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    s->position = base + offset;
    return s->position;
}

static int source_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t source_size(thandle_t handle) { return ((source *)handle)->input.size; }

static int source_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle, (void)base, (void)size;
    return 0;
}

static void source_unmap(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

/* Opens the TIFF over `s` (whose input is set); NULL with a message on failure. */
static TIFF *open_tiff(source *s, char *message) {
    s->position = 0;
    s->error.text[0] = 0;
    if (s->input.size == 0) {
        ccodecs_message(message, "no TIFF data");
        return NULL;
    }
    TIFFOpenOptions *options = libtiff.TIFFOpenOptionsAlloc();
    if (!options) {
        ccodecs_message(message, "out of memory");
        return NULL;
    }
    libtiff.TIFFOpenOptionsSetErrorHandlerExtR(options, ccodecs_tiff_on_error, &s->error);
    libtiff.TIFFOpenOptionsSetWarningHandlerExtR(options, ccodecs_tiff_on_warning, &s->error);
    TIFF *tiff = libtiff.TIFFClientOpenExt("TIFF", "rm", s, source_read, source_write, source_seek, source_close, source_size,
                                           source_map, source_unmap, options);
    libtiff.TIFFOpenOptionsFree(options);
    if (!tiff) ccodecs_message(message, "%s", s->error.text[0] ? s->error.text : "not a readable TIFF");
    return tiff;
}

/* A failure that libtiff explained (or `fallback`), as CCODECS_ERROR. */
static int tiff_error(const source *s, char *message, const char *fallback) {
    ccodecs_message(message, "%s", s->error.text[0] ? s->error.text : fallback);
    return CCODECS_ERROR;
}

/* ---- what a directory holds ---- */

typedef struct {
    uint32_t width, height;
    uint16_t bits, samples, photometric, planar, orientation, compression;
    uint32_t subfile;            /* SubfileType */
    int colors;                  /* colour samples a pixel: 1 (gray, palette), 3 (RGB), 4 (CMYK) */
    int alpha;                   /* 1 when the sample after the colours is alpha */
    int associated;              /* ... premultiplied */
    int own;                     /* read by this file's loops; 0: through TIFFRGBAImage */
    int tiled;
    uint32_t tile_width, tile_height, rows_per_strip;
} page;

/* Reads the current directory's fields. CCODECS_UNSUPPORTED for samples nothing here reads. */
static int read_page(TIFF *tiff, page *p, char *message) {
    memset(p, 0, sizeof *p);
    uint16_t sample_format = SAMPLEFORMAT_UINT, inkset = INKSET_CMYK, extra_count = 0;
    uint16_t *extra = NULL;
    if (!libtiff.TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &p->width) || !libtiff.TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &p->height)
        || p->width == 0 || p->height == 0) {
        ccodecs_message(message, "the TIFF has no picture size");
        return CCODECS_ERROR;
    }
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &p->bits);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &p->samples);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &p->planar);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &p->orientation);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &p->compression);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &sample_format);
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_SUBFILETYPE, &p->subfile);
    libtiff.TIFFGetField(tiff, TIFFTAG_INKSET, &inkset);
    libtiff.TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (!libtiff.TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &p->photometric)) {
        /* No Photometric tag: what libtiff's RGBA interface assumes. */
        p->photometric = p->samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
        libtiff.TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, p->photometric);
    }
    if (p->orientation < 1 || p->orientation > 8) p->orientation = 1;
    if (sample_format != SAMPLEFORMAT_UINT && sample_format != SAMPLEFORMAT_VOID) {
        ccodecs_message(message, "TIFF with %s samples is not supported",
                        sample_format == SAMPLEFORMAT_IEEEFP ? "floating-point" : "signed or complex");
        return CCODECS_UNSUPPORTED;
    }
    p->tiled = libtiff.TIFFIsTiled(tiff);
    if (p->tiled) {
        libtiff.TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &p->tile_width);
        libtiff.TIFFGetField(tiff, TIFFTAG_TILELENGTH, &p->tile_height);
        if (p->tile_width == 0 || p->tile_height == 0) {
            ccodecs_message(message, "the TIFF's tiles have no size");
            return CCODECS_ERROR;
        }
    } else {
        libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &p->rows_per_strip);
        if (p->rows_per_strip == 0 || p->rows_per_strip > p->height) p->rows_per_strip = p->height;
    }

    int bits = p->bits, deep = bits == 8 || bits == 16, small = bits == 1 || bits == 2 || bits == 4;
    switch (p->photometric) {
    case PHOTOMETRIC_MINISWHITE:
    case PHOTOMETRIC_MINISBLACK: p->colors = 1; p->own = deep || (small && p->samples == 1); break;
    case PHOTOMETRIC_RGB: p->colors = 3; p->own = deep; break;
    case PHOTOMETRIC_PALETTE: p->colors = 1; p->own = (small || bits == 8) && p->samples == 1; break;
    case PHOTOMETRIC_SEPARATED:
        p->colors = 4;
        p->own = deep && inkset == INKSET_CMYK;
        break;
    case PHOTOMETRIC_YCBCR:
        p->colors = 3;
        if (p->compression == COMPRESSION_JPEG && bits == 8) {
            /* libjpeg turns YCbCr into RGB as it decodes: RGB samples from here on. */
            libtiff.TIFFSetField(tiff, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
            p->own = 1;
        }
        break;
    default: p->colors = 3; break;
    }
    if (p->samples < p->colors) p->own = 0;
    if (p->own) {
        int extras = p->samples - p->colors;
        if (extras > 0 && p->colors != 4) {
            int type = extra_count > 0 && extra ? extra[0] : EXTRASAMPLE_UNSPECIFIED;
            p->alpha = 1;
            p->associated = type == EXTRASAMPLE_ASSOCALPHA;
        }
        return CCODECS_OK;
    }
    char reason[1024];
    if (!libtiff.TIFFRGBAImageOK(tiff, reason)) {
        ccodecs_message(message, "unsupported TIFF: %s", reason);
        return CCODECS_UNSUPPORTED;
    }
    TIFFRGBAImage image;
    if (!libtiff.TIFFRGBAImageBegin(&image, tiff, 0, reason)) {
        ccodecs_message(message, "unsupported TIFF: %s", reason);
        return CCODECS_UNSUPPORTED;
    }
    p->alpha = image.alpha != 0;
    p->associated = 1;  /* the RGBA interface multiplies unassociated alpha in */
    libtiff.TIFFRGBAImageEnd(&image);
    return CCODECS_OK;
}

/* The resolution tags in dots per inch; 0 without them or without a unit. */
static double resolution(TIFF *tiff) {
    float x = 0;
    uint16_t unit = RESUNIT_INCH;
    if (!libtiff.TIFFGetField(tiff, TIFFTAG_XRESOLUTION, &x) || !(x > 0) || x > 1e6) return 0;
    libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_RESOLUTIONUNIT, &unit);
    return unit == RESUNIT_INCH ? x : unit == RESUNIT_CENTIMETER ? x * 2.54 : 0;
}

static ccodecs_color_space color_space(const page *p) {
    switch (p->photometric) {
    case PHOTOMETRIC_MINISWHITE:
    case PHOTOMETRIC_MINISBLACK: return CCODECS_COLOR_GRAY;
    case PHOTOMETRIC_PALETTE: return CCODECS_COLOR_PALETTE;
    case PHOTOMETRIC_SEPARATED: return CCODECS_COLOR_CMYK;
    case PHOTOMETRIC_YCBCR: return CCODECS_COLOR_YCBCR;
    default: return CCODECS_COLOR_RGB;
    }
}

int ccodecs_tiff_info(const ccodecs_input *input, ccodecs_image_info *info, char *message) {
    memset(info, 0, sizeof *info);
    message[0] = 0;
    int loaded = ccodecs_libtiff(message);
    if (loaded) return loaded;
    source s = {.input = *input};
    TIFF *tiff = open_tiff(&s, message);
    if (!tiff) return CCODECS_ERROR;
    page p;
    int status = read_page(tiff, &p, message);
    if (!status) {
        info->width = p.width;
        info->height = p.height;
        info->components = p.samples;
        info->bit_depth = p.bits;
        info->color_space = color_space(&p);
        info->has_alpha = p.alpha;
        info->orientation = p.orientation;
        info->dpi_x = info->dpi_y = resolution(tiff);
        uint32_t icc_size = 0;
        void *icc = NULL;
        info->has_icc = libtiff.TIFFGetField(tiff, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0;
    }
    libtiff.TIFFClose(tiff);
    return status;
}

/* ---- decoding ---- */

typedef struct {
    ccodecs_reader base;
    source s;
    TIFF *tiff;
    page p;
    uint8_t palette[256][3];
    uint8_t *buffer;             /* a strip or a tile, of every plane (planar files) */
    size_t plane_size;           /* bytes of a strip or tile of one plane (planar) or of all */
    uint8_t *band;               /* RGBA rows: a strip, a row of tiles, or the RGBA interface's band */
    uint32_t band_top, band_rows;/* the rows the band holds */
    TIFFRGBAImage rgba;          /* libtiff's RGBA interface, for what the loops here do not read */
    int rgba_open;
} tiff_state;

/* Sample `index` of a row of `bits`-bit samples. */
static inline uint32_t sample_at(const uint8_t *row, size_t index, int bits) {
    if (bits == 8) return row[index];
    if (bits == 16) {
        uint16_t v;
        memcpy(&v, row + 2 * index, 2);
        return v;
    }
    size_t bit = index * (size_t)bits;
    return (uint32_t)(row[bit >> 3] >> (8 - bits - (int)(bit & 7))) & ((1u << bits) - 1);
}

/* A sample as 8 bits, rounded. */
static inline uint8_t to8(uint32_t v, int bits) {
    switch (bits) {
    case 8: return (uint8_t)v;
    case 16: return (uint8_t)((v * 255 + 32767) / 65535);
    default: return (uint8_t)(v * 255 / ((1u << bits) - 1));
    }
}

/* Straight colour from a colour premultiplied by alpha, both `bits` bits. */
static inline uint32_t unpremultiply(uint32_t c, uint32_t a, uint32_t max) {
    if (a == 0) return 0;
    uint64_t v = ((uint64_t)c * max + a / 2) / a;
    return v > max ? max : (uint32_t)v;
}

/* `count` pixels of stored samples as RGBA8 (CMYK8 for CMYK). `planes[k]` is the row of plane
 * k (planar files) or planes[0] the interleaved row; `first` is the first pixel's index in it. */
static void convert(const tiff_state *state, const uint8_t *const *planes, size_t first, uint32_t count, uint8_t *out) {
    const page *p = &state->p;
    int bits = p->bits, planar = p->planar == PLANARCONFIG_SEPARATE;
    size_t samples = planar ? 1 : p->samples;
    uint32_t max = (1u << bits) - 1;
    int channels = p->colors + (p->alpha ? 1 : 0);
    /* The common case at speed: 8-bit interleaved RGB, RGBA, gray. */
    if (bits == 8 && !planar && !p->associated && p->photometric != PHOTOMETRIC_PALETTE
        && p->photometric != PHOTOMETRIC_MINISWHITE) {
        const uint8_t *in = planes[0] + first * samples;
        if (p->colors == 3) {
            for (uint32_t x = 0; x < count; x++, in += samples, out += 4)
                out[0] = in[0], out[1] = in[1], out[2] = in[2], out[3] = p->alpha ? in[3] : 255;
            return;
        }
        if (p->colors == 1 && !p->alpha && samples == 1) {
            ccodecs_expand_gray(out, in, count);
            return;
        }
    }
    for (uint32_t x = 0; x < count; x++, out += 4) {
        uint32_t v[5];
        size_t at = first + x;
        for (int c = 0; c < channels; c++)
            v[c] = planar ? sample_at(planes[c], at, bits) : sample_at(planes[0], at * samples + (size_t)c, bits);
        switch (p->photometric) {
        case PHOTOMETRIC_PALETTE: {
            const uint8_t *rgb = state->palette[v[0] & 255];
            out[0] = rgb[0], out[1] = rgb[1], out[2] = rgb[2], out[3] = 255;
            break;
        }
        case PHOTOMETRIC_SEPARATED:
            for (int c = 0; c < 4; c++) out[c] = to8(v[c], bits);
            break;
        default: {
            uint32_t a = p->alpha ? v[p->colors] : max;
            for (int c = 0; c < p->colors; c++) {
                uint32_t value = p->photometric == PHOTOMETRIC_MINISWHITE ? max - v[c] : v[c];
                if (p->associated) value = unpremultiply(value, a, max);
                v[c] = value;
            }
            if (p->colors == 1) v[1] = v[2] = v[0];
            out[0] = to8(v[0], bits), out[1] = to8(v[1], bits), out[2] = to8(v[2], bits), out[3] = to8(a, bits);
            break;
        }
        }
    }
}

/* The palette as 8-bit RGB: 16-bit entries rounded, or taken as 8-bit ones when none is over
 * 255 (as old writers stored them, and as libtiff's RGBA interface reads them). */
static int read_palette(tiff_state *state, char *message) {
    uint16_t *r = NULL, *g = NULL, *b = NULL;
    if (!libtiff.TIFFGetField(state->tiff, TIFFTAG_COLORMAP, &r, &g, &b) || !r || !g || !b) {
        ccodecs_message(message, "palette TIFF without a colour map");
        return CCODECS_ERROR;
    }
    size_t entries = (size_t)1 << state->p.bits;
    int eight = 1;
    for (size_t i = 0; i < entries; i++) eight = eight && r[i] < 256 && g[i] < 256 && b[i] < 256;
    memset(state->palette, 0, sizeof state->palette);
    for (size_t i = 0; i < entries; i++) {
        const uint16_t *channels[3] = {r, g, b};
        for (int c = 0; c < 3; c++)
            state->palette[i][c] = eight ? (uint8_t)channels[c][i] : to8(channels[c][i], 16);
    }
    return CCODECS_OK;
}

/* Reads strip or tile `index` of each plane into the buffer; each must hold `need` bytes. */
static int read_chunk(tiff_state *state, uint32_t index_of_plane0, uint32_t per_plane, size_t need, char *message) {
    int planes = state->p.planar == PLANARCONFIG_SEPARATE ? state->p.colors + state->p.alpha : 1;
    for (int k = 0; k < planes; k++) {
        uint32_t index = index_of_plane0 + (uint32_t)k * per_plane;
        uint8_t *to = state->buffer + (size_t)k * state->plane_size;
        tmsize_t got = state->p.tiled ? libtiff.TIFFReadEncodedTile(state->tiff, index, to, (tmsize_t)state->plane_size)
                                      : libtiff.TIFFReadEncodedStrip(state->tiff, index, to, (tmsize_t)state->plane_size);
        if (got < 0) return tiff_error(&state->s, message, "cannot decode the TIFF's data");
        if ((size_t)got < need) {
            ccodecs_message(message, "%s %u is short (%zd of %zu bytes)", state->p.tiled ? "tile" : "strip",
                            (unsigned)index, (ptrdiff_t)got, need);
            return CCODECS_ERROR;
        }
    }
    return CCODECS_OK;
}

/* Bytes of a row of `pixels` pixels of one plane (planar) or of every sample. */
static size_t row_bytes(const page *p, uint32_t pixels) {
    size_t samples = p->planar == PLANARCONFIG_SEPARATE ? 1 : p->samples;
    return ((size_t)pixels * samples * p->bits + 7) / 8;
}

#define RGBA_BAND 64

/* Decodes the next band of rows into state->band as RGBA (CMYK) rows: a strip, a row of
 * tiles, or RGBA_BAND rows through libtiff's RGBA interface. Sets state->band_top and
 * state->band_rows; the bands come from the top, one after the other. */
static int next_band(tiff_state *state, char *message) {
    const page *p = &state->p;
    uint32_t y0 = state->band_top + state->band_rows;
    if (y0 >= p->height) {
        ccodecs_message(message, "no rows left to read");
        return CCODECS_BAD_ARGUMENT;
    }
    size_t band_stride = (size_t)p->width * 4;
    if (!p->own) {
        uint32_t rows = p->height - y0 < RGBA_BAND ? p->height - y0 : RGBA_BAND;
        state->rgba.row_offset = (int)y0;
        state->rgba.col_offset = 0;
        if (!libtiff.TIFFRGBAImageGet(&state->rgba, (uint32_t *)(void *)state->band, p->width, rows))
            return tiff_error(&state->s, message, "cannot decode the TIFF's data");
        for (uint32_t r = 0; r < rows; r++) {
            uint8_t *row = state->band + band_stride * r;
            for (uint32_t x = 0; x < p->width; x++, row += 4) {
                uint32_t packed;
                memcpy(&packed, row, 4);
                uint32_t a = TIFFGetA(packed);
                row[0] = (uint8_t)TIFFGetR(packed), row[1] = (uint8_t)TIFFGetG(packed), row[2] = (uint8_t)TIFFGetB(packed);
                row[3] = (uint8_t)a;
                if (p->alpha && a != 255)
                    for (int c = 0; c < 3; c++) row[c] = (uint8_t)unpremultiply(row[c], a, 255);
            }
        }
        state->band_top = y0, state->band_rows = rows;
        return CCODECS_OK;
    }
    int planar = p->planar == PLANARCONFIG_SEPARATE;
    if (!p->tiled) {
        size_t bytes = row_bytes(p, p->width);
        uint32_t per_plane = planar ? libtiff.TIFFComputeStrip(state->tiff, 0, 1) : 0;
        uint32_t rows = p->height - y0 < p->rows_per_strip ? p->height - y0 : p->rows_per_strip;
        int status = read_chunk(state, y0 / p->rows_per_strip, per_plane, bytes * rows, message);
        if (status) return status;
        for (uint32_t r = 0; r < rows; r++) {
            const uint8_t *planes[5];
            for (int k = 0; k < 5; k++) planes[k] = state->buffer + (size_t)k * state->plane_size + bytes * r;
            convert(state, planes, 0, p->width, state->band + band_stride * r);
        }
        state->band_top = y0, state->band_rows = rows;
        return CCODECS_OK;
    }
    size_t bytes = row_bytes(p, p->tile_width);
    uint32_t per_plane = planar ? libtiff.TIFFComputeTile(state->tiff, 0, 0, 0, 1) : 0;
    uint32_t rows = p->height - y0 < p->tile_height ? p->height - y0 : p->tile_height;
    for (uint32_t x0 = 0; x0 < p->width; x0 += p->tile_width) {
        uint32_t columns = p->width - x0 < p->tile_width ? p->width - x0 : p->tile_width;
        int status = read_chunk(state, libtiff.TIFFComputeTile(state->tiff, x0, y0, 0, 0), per_plane,
                                bytes * p->tile_height, message);
        if (status) return status;
        for (uint32_t r = 0; r < rows; r++) {
            const uint8_t *planes[5];
            for (int k = 0; k < 5; k++) planes[k] = state->buffer + (size_t)k * state->plane_size + bytes * r;
            convert(state, planes, 0, columns, state->band + band_stride * r + (size_t)x0 * 4);
        }
    }
    state->band_top = y0, state->band_rows = rows;
    return CCODECS_OK;
}

/* Ends the reading: the RGBA interface and the file are closed. */
static void finish(tiff_state *state) {
    if (state->rgba_open) libtiff.TIFFRGBAImageEnd(&state->rgba);
    state->rgba_open = 0;
    if (state->tiff) libtiff.TIFFClose(state->tiff);
    state->tiff = NULL;
}

static int tiff_read(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout, ccodecs_decoded *out,
                     char *message) {
    (void)out;
    tiff_state *state = (tiff_state *)reader;
    if (!state->tiff || state->band_rows > 0) {
        ccodecs_message(message, "the pixels were read already");
        return CCODECS_BAD_ARGUMENT;
    }
    int status = CCODECS_OK;
    while (!status && state->band_top + state->band_rows < state->p.height) {
        status = next_band(state, message);
        for (uint32_t r = 0; !status && r < state->band_rows; r++)
            ccodecs_place_row(pixels, layout, state->band_top + r, state->band + (size_t)state->p.width * 4 * r,
                              state->p.width);
        if (!status) ccodecs_rows_published(&state->base, state->band_top + state->band_rows);
    }
    finish(state);
    return status;
}

uint32_t ccodecs_tiff_band_rows(const ccodecs_reader *reader) {
    const tiff_state *state = (const tiff_state *)reader;
    if (!state || state->base.read != tiff_read) return 0;
    const page *p = &state->p;
    return !p->own ? RGBA_BAND : p->tiled ? p->tile_height : p->rows_per_strip;
}

int ccodecs_tiff_band(ccodecs_reader *reader, uint8_t *rows, uint32_t *first, uint32_t *count, char *message) {
    tiff_state *state = (tiff_state *)reader;
    message[0] = 0;
    *first = *count = 0;
    if (!state || state->base.read != tiff_read || !state->tiff || !rows) {
        ccodecs_message(message, "no rows left to read");
        return CCODECS_BAD_ARGUMENT;
    }
    uint8_t *own = state->band;
    state->band = rows;
    int status = next_band(state, message);
    state->band = own;
    if (status || state->band_top + state->band_rows >= state->p.height) finish(state);
    if (!status) *first = state->band_top, *count = state->band_rows;
    return status;
}

static void tiff_close(ccodecs_reader *reader) {
    tiff_state *state = (tiff_state *)reader;
    finish(state);
    free(state->buffer);
    free(state->band);
    free(state);
}

/* A directory to read instead of the first page: the current one, or a SubIFD. */
typedef struct {
    int directory;       /* a directory of the main chain, or -1 */
    uint64_t offset;     /* a SubIFD's offset, when directory is -1 */
    uint32_t width;
} level;

#define MAX_LEVELS 32

/* Whether the current directory is a reduced version of `first` with at least need pixels. */
static int usable_level(TIFF *tiff, const page *first, uint32_t need_width, uint32_t need_height, page *p) {
    char ignored[CCODECS_MESSAGE_SIZE];
    if (read_page(tiff, p, ignored) || !(p->subfile & FILETYPE_REDUCEDIMAGE)) return 0;
    uint64_t w = first->width, h = first->height;
    uint64_t cross = (uint64_t)p->width * h > (uint64_t)p->height * w ? (uint64_t)p->width * h - (uint64_t)p->height * w
                                                                       : (uint64_t)p->height * w - (uint64_t)p->width * h;
    return p->width >= need_width && p->height >= need_height && p->width < first->width && p->height < first->height
        && cross <= (w > h ? w : h) && p->photometric == first->photometric && p->samples == first->samples
        && p->bits == first->bits && p->alpha == first->alpha;
}

/* Walks the directories: how many pages (a reduced-resolution directory belongs to the page
 * before it), and the smallest pyramid level of the first page with the pixels needed. Leaves
 * the directory to decode current (the first page's, or that level's). */
static int choose_directory(tiff_state *state, uint32_t need_width, uint32_t need_height, int *pages,
                            char *message) {
    TIFF *tiff = state->tiff;
    page first = state->p;
    level best = {0, 0, first.width};
    /* SubIFDs of the first page. */
    uint16_t count = 0;
    uint64_t *offsets = NULL, subifds[MAX_LEVELS];
    if (libtiff.TIFFGetField(tiff, TIFFTAG_SUBIFD, &count, &offsets) && offsets) {
        if (count > MAX_LEVELS) count = MAX_LEVELS;
        memcpy(subifds, offsets, count * sizeof *subifds);
    } else {
        count = 0;
    }
    *pages = 1;
    int first_page_done = 0;
    for (int directory = 1; directory < 100000 && libtiff.TIFFReadDirectory(tiff); directory++) {
        uint32_t subfile = 0;
        libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_SUBFILETYPE, &subfile);
        if (!(subfile & FILETYPE_REDUCEDIMAGE)) {
            ++*pages;
            first_page_done = 1;
            continue;
        }
        page p;
        if (!first_page_done && need_width && usable_level(tiff, &first, need_width, need_height, &p) && p.width < best.width)
            best = (level){directory, 0, p.width};
    }
    for (uint16_t i = 0; i < count && need_width; i++) {
        page p;
        if (libtiff.TIFFSetSubDirectory(tiff, subifds[i]) && usable_level(tiff, &first, need_width, need_height, &p)
            && p.width < best.width)
            best = (level){-1, subifds[i], p.width};
    }
    /* Errors in the directories walked past are not the picture's. */
    state->s.error.text[0] = 0;
    int ok = best.directory >= 0 ? libtiff.TIFFSetDirectory(tiff, (tdir_t)best.directory)
                                 : libtiff.TIFFSetSubDirectory(tiff, best.offset);
    if (!ok) return tiff_error(&state->s, message, "cannot read the TIFF directory again");
    return read_page(tiff, &state->p, message);
}

int ccodecs_tiff_open(const ccodecs_input *input, uint32_t need_width, uint32_t need_height, size_t max_pixels,
                      ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    memset(out, 0, sizeof *out);
    *reader = NULL;
    message[0] = 0;
    int loaded = ccodecs_libtiff(message);
    if (loaded) return loaded;
    tiff_state *state = calloc(1, sizeof *state);
    if (!state) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    state->base.read = tiff_read;
    state->base.close = tiff_close;
    state->base.threads = 1;
    state->s.input = *input;
    int status = CCODECS_OK, pages = 1;
    if (!(state->tiff = open_tiff(&state->s, message))) status = CCODECS_ERROR;
    if (!status) status = read_page(state->tiff, &state->p, message);
    uint32_t full_width = state->p.width, full_height = state->p.height;
    if (!status) {
        out->width = full_width;
        out->height = full_height;
        status = ccodecs_check_size(full_width, full_height, max_pixels, message);
    }
    if (!status) {
        out->orientation = state->p.orientation;
        out->dpi_x = out->dpi_y = resolution(state->tiff);
        uint32_t icc_size = 0;
        void *icc = NULL;
        if (libtiff.TIFFGetField(state->tiff, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0) {
            if ((out->icc = malloc(icc_size))) {
                memcpy(out->icc, icc, icc_size);
                out->icc_size = icc_size;
            } else {
                status = CCODECS_NO_MEMORY;
                ccodecs_message(message, "out of memory");
            }
        }
    }
    if (!status) {
        /* The need is for the upright picture; a transposing orientation swaps it. */
        if (state->p.orientation >= 5) {
            uint32_t swap = need_width;
            need_width = need_height, need_height = swap;
        }
        status = choose_directory(state, need_width, need_height, &pages, message);
    }
    const page *p = &state->p;
    /* A tile is decoded whole (libtiff allocates it): one larger than the pixel limit is over it,
     * however small the picture (a 64x64 picture in tiles of 1048576x1048576). */
    if (!status && p->tiled) {
        out->width = p->tile_width;
        out->height = p->tile_height;
        status = ccodecs_check_size(p->tile_width, p->tile_height, max_pixels, message);
    }
    if (!status && p->photometric == PHOTOMETRIC_PALETTE && p->own) status = read_palette(state, message);
    if (!status) {
        size_t chunk = p->own ? (size_t)(p->tiled ? libtiff.TIFFTileSize(state->tiff) : libtiff.TIFFStripSize(state->tiff)) : 0;
        size_t planes = p->planar == PLANARCONFIG_SEPARATE ? (size_t)(p->colors + p->alpha) : 1;
        size_t band_rows = !p->own ? RGBA_BAND : p->tiled ? p->tile_height : p->rows_per_strip;
        state->plane_size = chunk;
        if ((p->own && chunk == 0) || (chunk && planes > SIZE_MAX / chunk)) {
            status = tiff_error(&state->s, message, "the TIFF's strips or tiles have no size");
        } else if ((chunk && !(state->buffer = malloc(chunk * planes)))
                   || (band_rows > SIZE_MAX / 4 / p->width)
                   || !(state->band = malloc((size_t)p->width * 4 * band_rows))) {
            status = CCODECS_NO_MEMORY;
            ccodecs_message(message, "out of memory");
        }
    }
    if (!status && !p->own) {
        char reason[1024];
        /* Stop at the first strip or tile that cannot be read (stoponerr 1): otherwise libtiff
         * goes on past any but the first of a band, leaving the last one's pixels in its place,
         * and the failure is never told. */
        if (!libtiff.TIFFRGBAImageBegin(&state->rgba, state->tiff, 1, reason)) {
            ccodecs_message(message, "unsupported TIFF: %s", reason);
            status = CCODECS_UNSUPPORTED;
        } else {
            state->rgba_open = 1;
            state->rgba.req_orientation = state->rgba.orientation;  /* the stored order: no flip */
        }
    }
    if (!status) {
        out->width = p->width;
        out->height = p->height;
        if (p->width != full_width || p->height != full_height) {
            out->full_width = full_width;
            out->full_height = full_height;
            out->dpi_x = out->dpi_y = resolution(state->tiff);
        }
        out->has_alpha = p->alpha && p->colors != 4;
        out->pixel_format = p->colors == 4 && p->own ? CCODECS_PIXELS_CMYK
                          : p->colors == 1 && p->photometric != PHOTOMETRIC_PALETTE ? CCODECS_PIXELS_GRAY
                                                                                   : CCODECS_PIXELS_RGBA;
        if (pages > 1) {
            char text[CCODECS_MESSAGE_SIZE];
            ccodecs_message(text, "TIFF of %d pages: only the first is used, %d left out", pages, pages - 1);
            ccodecs_note_warning(out, text);
        }
        state->base.streams_rows = 1;
        *reader = &state->base;
        return CCODECS_OK;
    }
    tiff_close(&state->base);
    ccodecs_decoded_release(out);
    return status;
}
