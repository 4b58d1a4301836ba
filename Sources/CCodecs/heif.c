/* libheif wrappers (HEIC, AVIF). libheif reports errors by return values: each becomes a status
 * and a message here. The file is read through a heif_reader over the ccodecs_input, so libheif
 * reads its boxes and the items it decodes, and nothing else. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include "ccodecs_common.h"
#include "ccodecs_color.h"
#include "ccodecs_heif.h"
#include "ccodecs_heifboxes.h"
#include "ccodecs_heifguard.h"
#include "ccodecs_libraries.h"

/* The libheif functions called here, looked up when the first HEIF picture comes
 * (ccodecs_libraries.h). */
#define LIBHEIF_FUNCTIONS(X) \
    X(heif_init) \
    X(heif_context_alloc) \
    X(heif_context_free) \
    X(heif_context_read_from_reader) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_get_primary_image_ID) \
    X(heif_context_set_max_decoding_threads) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_ispe_width) \
    X(heif_image_handle_get_ispe_height) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_release) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_decode_image) \
    X(heif_image_get_width) \
    X(heif_image_get_height) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_nclx_color_profile) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_is_premultiplied_alpha) \
    X(heif_image_release) \
    X(heif_nclx_color_profile_free)

/* Written once, under `library`'s mutex, before any caller reads it. */
static struct {
    LIBHEIF_FUNCTIONS(CCODECS_SLOT)
} libheif;
static ccodecs_library library = CCODECS_LIBRARY_INIT;

/* Registers libheif's default decoders once for the life of the process (heif_init is counted;
 * a matching heif_deinit would unregister them after every picture). */
static void initialise(void) { (void)libheif.heif_init(NULL); }

static int open_libheif(char *message) {
#define SYMBOL(name) {#name, (void **)&libheif.name},
    static const ccodecs_symbol symbols[] = {LIBHEIF_FUNCTIONS(SYMBOL)};
#undef SYMBOL
    return ccodecs_open_library(&library, "libheif.so.1", "HEIC and AVIF pictures need libheif 1.15 or later (Debian: libheif1)",
                                symbols, sizeof symbols / sizeof symbols[0], initialise, message);
}

/* ---- reading through a ccodecs_input ---- */

typedef struct {
    const ccodecs_input *input;
    int64_t position;
} source;

static int64_t source_position(void *user) { return ((source *)user)->position; }

static int source_read(void *data, size_t size, void *user) {
    source *s = user;
    if (s->position < 0) return -1;
    ptrdiff_t got = ccodecs_input_read(s->input, (size_t)s->position, data, size);
    if (got < 0 || (size_t)got != size) return -1;
    s->position += (int64_t)size;
    return 0;
}

static int source_seek(int64_t position, void *user) {
    source *s = user;
    if (position < 0 || (uint64_t)position > s->input->size) return -1;
    s->position = position;
    return 0;
}

static enum heif_reader_grow_status source_wait(int64_t size, void *user) {
    source *s = user;
    return size >= 0 && (uint64_t)size <= s->input->size ? heif_reader_grow_status_size_reached
                                                          : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader reader_functions = {
    .reader_api_version = 1,
    .get_position = source_position,
    .read = source_read,
    .seek = source_seek,
    .wait_for_file_size = source_wait,
};

/* A libheif error as a status and a message (one line: libheif's may run over several). */
static int heif_status(struct heif_error error, char *message) {
    if (error.code == heif_error_Ok) return CCODECS_OK;
    const char *text = error.message && error.message[0] ? error.message : "unknown error";
    int status = CCODECS_ERROR;
    switch (error.code) {
    case heif_error_Memory_allocation_error:
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    case heif_error_Unsupported_feature:
    case heif_error_Unsupported_filetype:
        ccodecs_message(message, "unsupported HEIF content (%s)", text);
        status = CCODECS_UNSUPPORTED;
        break;
    default: ccodecs_message(message, "%s", text); break;
    }
    for (char *c = message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = c[1] ? ';' : 0;
    return status;
}

/* The file's context and its primary image. */
typedef struct {
    source from;
    struct heif_context *context;
    struct heif_image_handle *primary;
} opened;

static void close_file(opened *file) {
    if (file->primary) libheif.heif_image_handle_release(file->primary);
    if (file->context) libheif.heif_context_free(file->context);
    file->primary = NULL;
    file->context = NULL;
}

/* Opens the file's context and primary image. libheif refuses, as it reads the boxes, an item
 * whose ispe has a side over `side_limit` (its own limit is 32768, which a panorama within the
 * pixel limit can pass): that is CCODECS_TOO_LARGE here, *width and *height the largest ispe
 * in the file (read by heifboxes.c: libheif tells no size then), and the message libheif's. */
static int open_file(const ccodecs_input *input, int side_limit, opened *file, uint32_t *width, uint32_t *height,
                     char *message) {
    memset(file, 0, sizeof *file);
    *width = *height = 0;
    int loaded = open_libheif(message);
    if (loaded != CCODECS_OK) return loaded;
    file->from.input = input;
    if (!input || input->size == 0) {
        ccodecs_message(message, "no HEIF data");
        return CCODECS_ERROR;
    }
    if (!(file->context = libheif.heif_context_alloc())) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    libheif.heif_context_set_maximum_image_size_limit(file->context, side_limit);
    struct heif_error error = libheif.heif_context_read_from_reader(file->context, &reader_functions, &file->from, NULL);
    int status = heif_status(error, message);
    if (error.subcode == heif_suberror_Security_limit_exceeded) {
        ccodecs_heif_boxes *boxes;
        char ignored[CCODECS_MESSAGE_SIZE];
        if (ccodecs_heif_boxes_open(input, &boxes, ignored) == CCODECS_OK) {
            ccodecs_heif_boxes_largest_ispe(boxes, width, height);
            ccodecs_heif_boxes_close(boxes);
            status = CCODECS_TOO_LARGE;
        }
    }
    if (!status) status = heif_status(libheif.heif_context_get_primary_image_handle(file->context, &file->primary), message);
    if (status) close_file(file);
    return status;
}

/* The EXIF block of an image ("Exif" metadata: a 4-byte offset to the TIFF header, then the
 * data), malloc'd from the TIFF header on; NULL when there is none or it cannot be read. */
static uint8_t *exif_block(const struct heif_image_handle *handle, size_t *size) {
    heif_item_id id;
    if (libheif.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) < 1) return NULL;
    size_t total = libheif.heif_image_handle_get_metadata_size(handle, id);
    if (total < 4 + 8 || total > (64u << 20)) return NULL;
    uint8_t *data = malloc(total);
    if (!data) return NULL;
    if (libheif.heif_image_handle_get_metadata(handle, id, data).code != heif_error_Ok) {
        free(data);
        return NULL;
    }
    uint32_t offset = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
    if (offset > total - 4 - 8) {
        free(data);
        return NULL;
    }
    *size = total - 4 - offset;
    memmove(data, data + 4 + offset, *size);
    return data;
}

/* The resolution the EXIF claims, 0 without one. */
static double exif_dpi(const struct heif_image_handle *handle) {
    size_t size = 0;
    uint8_t *exif = exif_block(handle, &size);
    double dpi = exif ? ccodecs_exif_dpi(exif, size) : 0;
    free(exif);
    return dpi;
}

/* Whether an nclx description is sRGB's (or leaves everything unspecified). */
static int nclx_is_srgb(const struct heif_color_profile_nclx *nclx) {
    int primaries = nclx->color_primaries, transfer = nclx->transfer_characteristics;
    return (primaries == heif_color_primaries_ITU_R_BT_709_5 || primaries == heif_color_primaries_unspecified)
        && (transfer == heif_transfer_characteristic_IEC_61966_2_1 || transfer == heif_transfer_characteristic_unspecified);
}

/* Whether the handle comes with a colour description that is not sRGB. */
static int has_profile(const struct heif_image_handle *handle) {
    enum heif_color_profile_type type = libheif.heif_image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC)
        return libheif.heif_image_handle_get_raw_color_profile_size(handle) > 0;
    struct heif_color_profile_nclx *nclx = NULL;
    if (libheif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok || !nclx) return 0;
    int other = !nclx_is_srgb(nclx);
    libheif.heif_nclx_color_profile_free(nclx);
    return other;
}

int ccodecs_heif_info(const ccodecs_input *input, ccodecs_image_info *info, char *message) {
    memset(info, 0, sizeof *info);
    message[0] = 0;
    opened file;
    /* No side limit but libheif's int: nothing is decoded here. A picture libheif cannot open
     * for its size has that size here, for the caller's pixel limit to refuse. */
    uint32_t large_width, large_height;
    int status = open_file(input, INT_MAX, &file, &large_width, &large_height, message);
    if (status == CCODECS_TOO_LARGE) {
        info->width = info->stored_width = large_width;
        info->height = info->stored_height = large_height;
        info->components = 3;
        info->bit_depth = 8;
        info->color_space = CCODECS_COLOR_RGB;
        info->orientation = 1;
        return CCODECS_OK;
    }
    if (status) return status;
    const struct heif_image_handle *handle = file.primary;
    int width = libheif.heif_image_handle_get_width(handle), height = libheif.heif_image_handle_get_height(handle);
    int stored_width = libheif.heif_image_handle_get_ispe_width(handle);
    int stored_height = libheif.heif_image_handle_get_ispe_height(handle);
    if (width <= 0 || height <= 0) {
        ccodecs_message(message, "the primary image has no size");
        close_file(&file);
        return CCODECS_ERROR;
    }
    info->width = (uint32_t)width;
    info->height = (uint32_t)height;
    info->stored_width = stored_width > 0 ? (uint32_t)stored_width : info->width;
    info->stored_height = stored_height > 0 ? (uint32_t)stored_height : info->height;
    info->has_alpha = libheif.heif_image_handle_has_alpha_channel(handle) != 0;
    info->components = info->has_alpha ? 4 : 3;
    int bits = libheif.heif_image_handle_get_luma_bits_per_pixel(handle);
    info->bit_depth = bits > 0 ? bits : 8;
    info->color_space = CCODECS_COLOR_RGB;
    info->orientation = 1;
    info->has_icc = has_profile(handle);
    info->dpi_x = info->dpi_y = exif_dpi(handle);
    heif_item_id id = 0;
    if (libheif.heif_context_get_primary_image_ID(file.context, &id).code != heif_error_Ok) id = 0;
    close_file(&file);
    /* What decoding will code, for the caller's pixel limit (framed layout refuses what framing
     * would); unknown when framed cannot read the boxes, which decoding then refuses. */
    ccodecs_heif_boxes *boxes = NULL;
    uint64_t coded_width = 0, coded_height = 0;
    char ignored[CCODECS_MESSAGE_SIZE];
    if (id && ccodecs_heif_boxes_open(input, &boxes, ignored) == CCODECS_OK
        && ccodecs_heif_boxes_coded(boxes, id, &coded_width, &coded_height, ignored) == CCODECS_OK) {
        info->coded_width = coded_width > UINT32_MAX ? UINT32_MAX : (uint32_t)coded_width;
        info->coded_height = coded_height > UINT32_MAX ? UINT32_MAX : (uint32_t)coded_height;
    }
    ccodecs_heif_boxes_close(boxes);
    return CCODECS_OK;
}

/* ---- decoding ---- */

typedef struct {
    ccodecs_reader base;
    struct heif_image *image;
    int bits;           /* bits a sample: 8 (interleaved), or 10, 12 or 16 (16-bit planes) */
    int alpha;          /* the image has an alpha channel */
    int premultiplied;  /* ... that multiplies the colours */
    int rgba;           /* 8-bit interleaved RGBA (even when opaque: CCODECS_HEIF_RGBA) */
    uint8_t *row;       /* one RGBA row */
} heif_state;

/* Row y of the decoded image as straight RGBA8: from interleaved 8-bit RGB(A), or from planes
 * of 16-bit samples of `bits` bits (libheif's planar RGB, which needs one copy of the picture
 * where its interleaved 16-bit output needs three), rounded to the nearest 8-bit value:
 * (v * 255 + max / 2) / max. */
static void convert_row(const heif_state *state, const uint8_t *const *planes, const int *strides, uint32_t y,
                        uint32_t width, uint8_t *out) {
    if (state->bits == 8) {
        const uint8_t *in = planes[0] + (size_t)strides[0] * y;
        if (state->rgba) {
            memcpy(out, in, (size_t)width * 4);
        } else {
            for (uint32_t x = 0; x < width; x++, in += 3, out += 4) {
                out[0] = in[0], out[1] = in[1], out[2] = in[2], out[3] = 255;
            }
            return;
        }
    } else {
        uint32_t max = (1u << state->bits) - 1, channels = state->alpha ? 4 : 3;
        for (uint32_t c = 0; c < channels; c++) {
            const uint8_t *row = planes[c] + (size_t)strides[c] * y;
            for (uint32_t x = 0; x < width; x++) {
                uint16_t v;
                memcpy(&v, row + 2 * (size_t)x, 2);
                uint32_t value = v > max ? max : v;
                out[4 * (size_t)x + c] = (uint8_t)((value * 255 + max / 2) / max);
            }
        }
        if (!state->alpha)
            for (uint32_t x = 0; x < width; x++) out[4 * (size_t)x + 3] = 255;
    }
    if (state->alpha && state->premultiplied) {
        for (uint32_t x = 0; x < width; x++, out += 4) {
            unsigned a = out[3];
            for (int c = 0; c < 3; c++) {
                unsigned v = a ? (out[c] * 255u + a / 2) / a : 0;
                out[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
}

static int heif_read(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout, ccodecs_decoded *out,
                     char *message) {
    heif_state *state = (heif_state *)reader;
    if (!state->image) {
        ccodecs_message(message, "the pixels were read already");
        return CCODECS_BAD_ARGUMENT;
    }
    static const enum heif_channel interleaved[1] = {heif_channel_interleaved},
                                   separate[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
    const uint8_t *planes[4] = {NULL};
    int strides[4] = {0}, count = state->bits == 8 ? 1 : state->alpha ? 4 : 3;
    for (int c = 0; c < count; c++) {
        planes[c] = libheif.heif_image_get_plane_readonly(state->image, state->bits == 8 ? interleaved[0] : separate[c],
                                                          &strides[c]);
        if (!planes[c] || strides[c] <= 0) {
            ccodecs_message(message, "libheif gave no pixels");
            return CCODECS_ERROR;
        }
    }
    for (uint32_t y = 0; y < out->height; y++) {
        convert_row(state, planes, strides, y, out->width, state->row);
        ccodecs_place_row(pixels, layout, y, state->row, out->width);
    }
    /* The decoded image is the largest thing held: let it go now. */
    libheif.heif_image_release(state->image);
    state->image = NULL;
    return CCODECS_OK;
}

int ccodecs_heif_rgba(ccodecs_reader *reader, uint8_t **pixels, size_t *stride) {
    heif_state *state = (heif_state *)reader;
    if (!state || state->base.read != heif_read || !state->image || !state->rgba) return 0;
    int bytes = 0;
    uint8_t *plane = libheif.heif_image_get_plane(state->image, heif_channel_interleaved, &bytes);
    if (!plane || bytes <= 0) return 0;
    int width = libheif.heif_image_get_width(state->image, heif_channel_interleaved);
    int height = libheif.heif_image_get_height(state->image, heif_channel_interleaved);
    if (state->premultiplied) {
        for (int y = 0; y < height; y++) {
            uint8_t *p = plane + (size_t)bytes * (size_t)y;
            for (int x = 0; x < width; x++, p += 4) {
                unsigned a = p[3];
                for (int c = 0; c < 3; c++) {
                    unsigned v = a ? (p[c] * 255u + a / 2) / a : 0;
                    p[c] = (uint8_t)(v > 255 ? 255 : v);
                }
            }
        }
        state->premultiplied = 0;
    }
    *pixels = plane;
    *stride = (size_t)bytes;
    return 1;
}

static void heif_close(ccodecs_reader *reader) {
    heif_state *state = (heif_state *)reader;
    if (state->image) libheif.heif_image_release(state->image);
    free(state->row);
    free(state);
}

/* The thumbnail of `primary` to decode for a picture of at least need_width x need_height: the
 * smallest that has them, the primary's shape (within a pixel) and its alpha. NULL: none. */
static struct heif_image_handle *pick_thumbnail(const struct heif_image_handle *primary, uint32_t need_width,
                                                uint32_t need_height, heif_item_id *id) {
    if (need_width == 0 || need_height == 0) return NULL;
    heif_item_id ids[8];
    int count = libheif.heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, 8);
    uint64_t width = (uint64_t)libheif.heif_image_handle_get_width(primary);
    uint64_t height = (uint64_t)libheif.heif_image_handle_get_height(primary);
    int alpha = libheif.heif_image_handle_has_alpha_channel(primary) != 0;
    struct heif_image_handle *best = NULL;
    for (int i = 0; i < count; i++) {
        struct heif_image_handle *thumbnail = NULL;
        if (libheif.heif_image_handle_get_thumbnail(primary, ids[i], &thumbnail).code != heif_error_Ok || !thumbnail) continue;
        int w = libheif.heif_image_handle_get_width(thumbnail), h = libheif.heif_image_handle_get_height(thumbnail);
        uint64_t tw = w > 0 ? (uint64_t)w : 0, th = h > 0 ? (uint64_t)h : 0;
        uint64_t cross = tw * height > th * width ? tw * height - th * width : th * width - tw * height;
        int fits = tw >= need_width && th >= need_height && tw < width && th < height
                && cross <= (width > height ? width : height) && (libheif.heif_image_handle_has_alpha_channel(thumbnail) != 0) == alpha;
        if (fits && (!best || tw < (uint64_t)libheif.heif_image_handle_get_width(best))) {
            if (best) libheif.heif_image_handle_release(best);
            best = thumbnail;
            *id = ids[i];
        } else {
            libheif.heif_image_handle_release(thumbnail);
        }
    }
    return best;
}

/* The colour profile of the decoded image into out->icc: the ICC profile, or one made from
 * an nclx description that is not sRGB's (a warning when there is no such profile). */
static int read_profile(const struct heif_image_handle *handle, const struct heif_image *image,
                        ccodecs_decoded *out, char *message) {
    enum heif_color_profile_type type = libheif.heif_image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        size_t size = libheif.heif_image_handle_get_raw_color_profile_size(handle);
        if (size == 0) return CCODECS_OK;
        if (!(out->icc = malloc(size))) {
            ccodecs_message(message, "out of memory");
            return CCODECS_NO_MEMORY;
        }
        if (libheif.heif_image_handle_get_raw_color_profile(handle, out->icc).code != heif_error_Ok) {
            free(out->icc);
            out->icc = NULL;
            ccodecs_note_warning(out, "the HEIF colour profile cannot be read; taken as sRGB");
            return CCODECS_OK;
        }
        out->icc_size = size;
        return CCODECS_OK;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (libheif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok || !nclx) {
        nclx = NULL;
        if (libheif.heif_image_get_nclx_color_profile(image, &nclx).code != heif_error_Ok) nclx = NULL;
    }
    if (!nclx) return CCODECS_OK;
    int status = CCODECS_OK;
    if (!nclx_is_srgb(nclx)) {
        double chromaticities[8] = {nclx->color_primary_white_x, nclx->color_primary_white_y,
                                    nclx->color_primary_red_x, nclx->color_primary_red_y,
                                    nclx->color_primary_green_x, nclx->color_primary_green_y,
                                    nclx->color_primary_blue_x, nclx->color_primary_blue_y};
        int unspecified = nclx->color_primaries == heif_color_primaries_unspecified;
        ccodecs_buffer profile;
        char reason[CCODECS_MESSAGE_SIZE];
        status = ccodecs_icc_profile_h273(unspecified ? NULL : chromaticities, (int)nclx->transfer_characteristics,
                                          &profile, reason);
        if (status == CCODECS_OK) {
            out->icc = profile.data;
            out->icc_size = profile.size;
        } else if (status == CCODECS_NO_MEMORY) {
            ccodecs_message(message, "out of memory");
        } else {
            char text[CCODECS_MESSAGE_SIZE];
            ccodecs_message(text, "HEIF colour (nclx primaries %d, transfer %d) taken as sRGB: %s",
                            (int)nclx->color_primaries, (int)nclx->transfer_characteristics, reason);
            ccodecs_note_warning(out, text);
            status = CCODECS_OK;
        }
    }
    libheif.heif_nclx_color_profile_free(nclx);
    return status;
}

/* libheif's HEVC decoder (libde265) starts a worker thread for each picture or grid tile and,
 * when it cannot, waits for that thread forever. Threads started and joined here first leave
 * their stacks in glibc's cache, where the decoder's threads (made with the same default
 * attributes, right after) find them: a process short of memory gets an error here instead of
 * a hang there. `count`: the decoding threads libheif may run, each with its decoder's worker. */
static void *idle(void *argument) { return argument; }
static int decoder_threads_can_start(int count) {
    pthread_t started[8];
    int n = 0;
    if (count > 8) count = 8;
    while (n < count && pthread_create(&started[n], NULL, idle, NULL) == 0) n++;
    for (int i = 0; i < n; i++) pthread_join(started[i], NULL);
    return n == count;
}

/* Whether `bytes` cannot be had now (a probe, given back at once). Decoding asks first for four
 * times the decoded picture (the HEVC decoder's planes and tables, and the converted copy):
 * libheif's HEVC decoder (libde265) throws std::bad_alloc from its worker thread when an
 * allocation fails there, which nothing can catch, and libheif reports other allocation
 * failures as a decoder error or an unsupported colour conversion. After such a failure the
 * same probe tells those messages apart from out of memory (the decoder has given back what it
 * took by then). */
static int memory_was_short(size_t bytes) {
    void *probe = malloc(bytes);
    free(probe);
    return probe == NULL;
}

/* CCODECS_TOO_LARGE (out->width and out->height the size) when item `id` codes more than
 * max_pixels (ccodecs_heif_boxes_coded), else CCODECS_OK; out's size is kept then. A file whose
 * boxes framed cannot read, though libheif could, is refused: what it codes is unknown. */
static int check_coded_size(const ccodecs_input *input, heif_item_id id, size_t max_pixels, ccodecs_decoded *out,
                            char *message) {
    ccodecs_heif_boxes *boxes;
    int status = ccodecs_heif_boxes_open(input, &boxes, message);
    uint64_t width = 0, height = 0;
    if (!status) status = ccodecs_heif_boxes_coded(boxes, id, &width, &height, message);
    ccodecs_heif_boxes_close(boxes);
    if (status || (width <= UINT32_MAX && height <= UINT32_MAX && width * height <= max_pixels)) return status;
    out->width = width > UINT32_MAX ? UINT32_MAX : (uint32_t)width;
    out->height = height > UINT32_MAX ? UINT32_MAX : (uint32_t)height;
    (void)ccodecs_check_size(out->width, out->height, max_pixels, message);
    return CCODECS_TOO_LARGE;
}

int ccodecs_heif_open(const ccodecs_input *input, int flags, uint32_t need_width, uint32_t need_height,
                      int threads, size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader,
                      char *message) {
    memset(out, 0, sizeof *out);
    *reader = NULL;
    message[0] = 0;
    opened file;
    /* libheif's own limit a side: the pixel limit, which no side of a picture within it passes. */
    int side_limit = max_pixels < INT_MAX ? (int)max_pixels : INT_MAX;
    int status = open_file(input, side_limit, &file, &out->width, &out->height, message);
    if (status == CCODECS_TOO_LARGE && (uint64_t)out->width * out->height <= max_pixels) {
        ccodecs_message(message, "HEIF pictures of more than %d pixels a side are not supported", INT_MAX);
        status = CCODECS_UNSUPPORTED;
    }
    if (status) return status;
    int keep = (flags & CCODECS_HEIF_KEEP_STORED) != 0;
    const struct heif_image_handle *primary = file.primary;
    int width = libheif.heif_image_handle_get_width(primary), height = libheif.heif_image_handle_get_height(primary);
    int coded_width = libheif.heif_image_handle_get_ispe_width(primary);
    int coded_height = libheif.heif_image_handle_get_ispe_height(primary);
    if (coded_width <= 0 || coded_height <= 0) coded_width = width, coded_height = height;
    if (width <= 0 || height <= 0) {
        ccodecs_message(message, "the primary image has no size");
        close_file(&file);
        return CCODECS_ERROR;
    }
    /* Both the coded pixels and the ones shown must be within the limit. */
    out->width = (uint32_t)coded_width;
    out->height = (uint32_t)coded_height;
    status = ccodecs_check_size(out->width, out->height, max_pixels, message);
    if (!status && !keep) {
        out->width = (uint32_t)width;
        out->height = (uint32_t)height;
        status = ccodecs_check_size(out->width, out->height, max_pixels, message);
    }
    if (status) {
        close_file(&file);
        return status;
    }
    out->dpi_x = out->dpi_y = exif_dpi(primary);

    heif_item_id id = 0;
    struct heif_image_handle *thumbnail = keep ? NULL : pick_thumbnail(primary, need_width, need_height, &id);
    const struct heif_image_handle *handle = thumbnail ? thumbnail : primary;
    if (!thumbnail && libheif.heif_context_get_primary_image_ID(file.context, &id).code != heif_error_Ok) id = 0;
    /* What the decoders will be asked to code (the HEVC or AV1 headers' sizes, a grid's tiles),
     * whatever the ispe says, within the limit too. */
    status = id ? check_coded_size(input, id, max_pixels, out, message) : CCODECS_OK;
    int alpha = libheif.heif_image_handle_has_alpha_channel(handle) != 0;
    int bits = libheif.heif_image_handle_get_luma_bits_per_pixel(handle);
    if (bits < 8) bits = 8;
    if (!status && bits > 16) {
        ccodecs_message(message, "%d-bit HEIF samples are not supported", bits);
        status = CCODECS_UNSUPPORTED;
    }
    struct heif_image *image = NULL;
    if (!status) {
        struct heif_decoding_options *options = libheif.heif_decoding_options_alloc();
        if (!options) {
            ccodecs_message(message, "out of memory");
            status = CCODECS_NO_MEMORY;
        } else {
            options->ignore_transformations = (uint8_t)keep;
            int decoding_threads = threads > 0 ? threads : 1;
            libheif.heif_context_set_max_decoding_threads(file.context, decoding_threads);
            enum heif_chroma chroma = bits > 8 ? heif_chroma_444
                                    : alpha || (flags & CCODECS_HEIF_RGBA) ? heif_chroma_interleaved_RGBA
                                                                           : heif_chroma_interleaved_RGB;
            size_t needs = (size_t)libheif.heif_image_handle_get_width(handle)
                           * (size_t)libheif.heif_image_handle_get_height(handle) * (bits > 8 ? 8 : 4) * 4;
            if (!decoder_threads_can_start(2 * decoding_threads)) {
                ccodecs_message(message, "out of memory (the decoder's threads cannot start)");
                status = CCODECS_NO_MEMORY;
            } else if (memory_was_short(needs)) {
                ccodecs_message(message, "out of memory");
                status = CCODECS_NO_MEMORY;
            } else {
                struct heif_error error;
                status = ccodecs_heif_decode_guarded(libheif.heif_decode_image, handle, &image, heif_colorspace_RGB,
                                                     chroma, options, &error);
                if (status == CCODECS_OK) status = heif_status(error, message);
                else if (status == CCODECS_NO_MEMORY) ccodecs_message(message, "out of memory");
                else ccodecs_message(message, "libheif failed while decoding");
                if (status && status != CCODECS_NO_MEMORY && memory_was_short(needs)) {
                    ccodecs_message(message, "out of memory");
                    status = CCODECS_NO_MEMORY;
                }
            }
            libheif.heif_decoding_options_free(options);
        }
    }
    if (!status) {
        enum heif_channel channel = bits > 8 ? heif_channel_R : heif_channel_interleaved;
        int w = libheif.heif_image_get_width(image, channel), h = libheif.heif_image_get_height(image, channel);
        int range = libheif.heif_image_get_bits_per_pixel_range(image, channel);
        if (w <= 0 || h <= 0 || (uint64_t)w * (uint64_t)h > (uint64_t)out->width * out->height
            || (thumbnail == NULL && (!keep ? (w != width || h != height) : (w != coded_width || h != coded_height)))) {
            ccodecs_message(message, "libheif decoded %dx%d pixels for a %dx%d picture", w, h, width, height);
            status = CCODECS_ERROR;
        } else {
            if (thumbnail) {
                out->full_width = out->width;
                out->full_height = out->height;
            }
            out->width = (uint32_t)w;
            out->height = (uint32_t)h;
            if (bits > 8) bits = range >= 9 && range <= 16 ? range : bits;
            /* Planes of 16-bit samples: every plane of the picture's size. */
            for (int c = 0; bits > 8 && c < (alpha ? 4 : 3) && !status; c++) {
                static const enum heif_channel channels[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
                if (libheif.heif_image_get_width(image, channels[c]) != w || libheif.heif_image_get_height(image, channels[c]) != h
                    || libheif.heif_image_get_bits_per_pixel_range(image, channels[c]) != bits) {
                    ccodecs_message(message, "libheif decoded planes of different sizes");
                    status = CCODECS_ERROR;
                }
            }
        }
    }
    if (!status) status = read_profile(handle, image, out, message);
    heif_state *state = NULL;
    if (!status && (!(state = calloc(1, sizeof *state)) || !(state->row = malloc((size_t)out->width * 4)))) {
        ccodecs_message(message, "out of memory");
        status = CCODECS_NO_MEMORY;
    }
    if (!status) {
        out->has_alpha = alpha;
        out->pixel_format = CCODECS_PIXELS_RGBA;
        state->base.read = heif_read;
        state->base.close = heif_close;
        state->base.threads = 1;
        state->image = image;
        state->bits = bits;
        state->alpha = alpha;
        state->premultiplied = alpha && libheif.heif_image_is_premultiplied_alpha(image);
        state->rgba = bits == 8 && (alpha || (flags & CCODECS_HEIF_RGBA));
        *reader = &state->base;
        image = NULL;
    } else if (state) {
        free(state->row);
        free(state);
    }
    if (image) libheif.heif_image_release(image);
    if (thumbnail) libheif.heif_image_handle_release(thumbnail);
    close_file(&file);
    if (status) ccodecs_decoded_release(out);
    return status;
}
