/* libwebp wrappers. libwebp reports errors by return values (no longjmp): each failure
 * becomes a status and a message here. */
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
#include "ccodecs_common.h"
#include "ccodecs_color.h"
#include "ccodecs_webp.h"

/* A VP8StatusCode as a status and a message. */
static int vp8_status(VP8StatusCode code, char *message) {
    switch (code) {
    case VP8_STATUS_OK: return CCODECS_OK;
    case VP8_STATUS_OUT_OF_MEMORY: ccodecs_message(message, "out of memory"); return CCODECS_NO_MEMORY;
    case VP8_STATUS_INVALID_PARAM: ccodecs_message(message, "invalid WebP decoding parameter"); return CCODECS_BAD_ARGUMENT;
    case VP8_STATUS_UNSUPPORTED_FEATURE: ccodecs_message(message, "unsupported WebP feature"); return CCODECS_UNSUPPORTED;
    case VP8_STATUS_SUSPENDED:
    case VP8_STATUS_NOT_ENOUGH_DATA: ccodecs_message(message, "truncated WebP data"); return CCODECS_ERROR;
    case VP8_STATUS_BITSTREAM_ERROR: ccodecs_message(message, "corrupt WebP bitstream"); return CCODECS_ERROR;
    default: ccodecs_message(message, "WebP decoding failed (status %d)", (int)code); return CCODECS_ERROR;
    }
}

/* WebPGetFeatures, with NULL data refused up front. */
static int features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features, char *message) {
    if (!data || size == 0) {
        ccodecs_message(message, "no WebP data");
        return CCODECS_ERROR;
    }
    return vp8_status(WebPGetFeatures(data, size, features), message);
}

/* The payload of the first `fourcc` chunk (WebPDemuxGetChunk), pointing into the file; EXIF
 * without the "Exif\0\0" prefix that some writers copy from JPEG. 0 if there is none. */
static int find_chunk(const WebPDemuxer *demux, const char *fourcc, const uint8_t **bytes, size_t *size) {
    WebPChunkIterator chunk;
    if (!demux || !WebPDemuxGetChunk(demux, fourcc, 1, &chunk)) return 0;
    *bytes = chunk.chunk.bytes;
    *size = chunk.chunk.size;
    WebPDemuxReleaseChunkIterator(&chunk);
    if (!strcmp(fourcc, "EXIF") && *size >= 6 && !memcmp(*bytes, "Exif\0\0", 6)) {
        *bytes += 6;
        *size -= 6;
    }
    return *size > 0;
}

/* A malloc'd copy of a chunk's payload; CCODECS_NO_MEMORY on failure. */
static int copy_chunk(const WebPDemuxer *demux, const char *fourcc, uint8_t **copy, size_t *copy_size,
                      char *message) {
    const uint8_t *bytes;
    size_t size;
    if (!find_chunk(demux, fourcc, &bytes, &size)) return CCODECS_OK;
    if (!(*copy = malloc(size))) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    memcpy(*copy, bytes, size);
    *copy_size = size;
    return CCODECS_OK;
}

int ccodecs_webp_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message) {
    WebPBitstreamFeatures header;
    memset(info, 0, sizeof *info);
    int status = features(data, size, &header, message);
    if (status) return status;
    info->width = (uint32_t)header.width;
    info->height = (uint32_t)header.height;
    info->has_alpha = header.has_alpha || header.has_animation;  /* a canvas may show through */
    info->components = header.has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->color_space = CCODECS_COLOR_RGB;
    info->orientation = 1;
    /* The chunks present so far (WebPDemuxPartial): ICCP comes before the image data, EXIF
     * usually after it. */
    WebPData webp = {data, size};
    WebPDemuxer *demux = WebPDemuxPartial(&webp, NULL);
    const uint8_t *bytes;
    size_t count;
    WebPIterator frame;
    if (header.has_animation && demux && WebPDemuxGetFrame(demux, 1, &frame)) {
        status = ccodecs_check_canvas((uint64_t)header.width, (uint64_t)header.height,
                                      (uint64_t)frame.width * (uint64_t)frame.height, "first frame", message);
        WebPDemuxReleaseIterator(&frame);
        if (status) {
            WebPDemuxDelete(demux);
            return status;
        }
    }
    info->has_icc = find_chunk(demux, "ICCP", &bytes, &count);
    if (find_chunk(demux, "EXIF", &bytes, &count)) {
        info->orientation = ccodecs_exif_orientation(bytes, count);
        info->dpi_x = info->dpi_y = ccodecs_exif_dpi(bytes, count);
    }
    WebPDemuxDelete(demux);
    return CCODECS_OK;
}

/* ---- gathering the chunks decoding reads ---- */

/* The most bytes an ICCP or EXIF chunk may hold: more is no profile or EXIF. */
#define METADATA_LIMIT ((uint64_t)16 << 20)
/* The most chunks walked: a file of more is walked no further (an animation of that many
 * frames; bytes past it are no part of what is decoded). */
#define MAX_CHUNKS 100000

static uint32_t le32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }

static int printable(const uint8_t *fourcc) {
    for (int i = 0; i < 4; i++)
        if (fourcc[i] < 0x20 || fourcc[i] > 0x7E) return 0;
    return 1;
}

/* Appends the chunk at `offset` (its 8-byte header and `size` bytes of payload, padded to even;
 * what the file holds of it before `end` when it is cut short, adding what it lacks to
 * *missing). */
static int copy_whole_chunk(const ccodecs_input *input, uint64_t offset, uint64_t size, uint64_t end,
                            ccodecs_buffer *out, uint64_t *missing, char *message) {
    uint64_t total = 8 + size + (size & 1);
    if (offset + total > end) {
        *missing += offset + total - end;
        total = end - offset;
    }
    if (total > out->capacity - out->size) {
        uint8_t *data = realloc(out->data, out->size + total);
        if (!data) {
            ccodecs_message(message, "out of memory");
            return CCODECS_NO_MEMORY;
        }
        out->data = data;
        out->capacity = out->size + total;
    }
    ptrdiff_t got = ccodecs_input_read(input, (size_t)offset, out->data + out->size, (size_t)total);
    if (got < 0) {
        ccodecs_message(message, "cannot read the WebP file");
        return CCODECS_UNREADABLE;
    }
    out->size += (size_t)got;
    *missing += total - (uint64_t)got;
    return CCODECS_OK;
}

int ccodecs_webp_gather(const ccodecs_input *input, ccodecs_buffer *out, uint32_t *frames, char *message) {
    memset(out, 0, sizeof *out);
    *frames = 0;
    message[0] = 0;
    uint8_t head[64];
    ptrdiff_t got = ccodecs_input_read(input, 0, head, sizeof head);
    if (got < 0) {
        ccodecs_message(message, "cannot read the WebP file");
        return CCODECS_UNREADABLE;
    }
    /* What libwebp makes of the first chunks: the canvas (a still picture's size). */
    WebPBitstreamFeatures header;
    int status = features(head, (size_t)got, &header, message);
    if (status) return status;
    uint64_t riff = le32(head + 4), end = 8 + riff + (riff & 1);
    if (end > input->size) end = input->size;
    /* The picture's data (its image chunks, or an animation's first frame) may take what a
     * picture of the canvas's size takes in any format framed reads: 8 bytes a pixel, and a
     * megabyte. */
    uint64_t image_limit = (uint64_t)header.width * (uint64_t)header.height * 8 + ((uint64_t)1 << 20), image = 0;
    int extended = 0, have_icc = 0, have_exif = 0, have_image = 0, have_anim = 0;
    /* What the chunks kept lack of their sizes, in a file cut short: the RIFF size says so
     * still, so that libwebp finds the data truncated. */
    uint64_t missing = 0;
    if ((status = copy_whole_chunk(input, 0, 4, 12, out, &missing, message))) return status;  /* RIFF, size, WEBP */
    uint8_t chunk[8];
    uint64_t offset = 12;
    for (int count = 0; count < MAX_CHUNKS && offset + 8 <= end; count++) {
        if (ccodecs_input_read(input, (size_t)offset, chunk, 8) != 8 || !printable(chunk)) break;
        uint64_t size = le32(chunk + 4), next = offset + 8 + size + (size & 1);
        int keep = 0;
        if (count == 0) {
            extended = !memcmp(chunk, "VP8X", 4);
            keep = 1;
        } else if (!memcmp(chunk, "ICCP", 4) && !have_icc) {
            keep = have_icc = 1;
        } else if (!memcmp(chunk, "EXIF", 4) && !have_exif) {
            keep = have_exif = 1;
        } else if (!memcmp(chunk, "ANIM", 4) && !have_anim) {
            keep = have_anim = 1;
        } else if (!memcmp(chunk, "ANMF", 4)) {
            keep = ++*frames == 1;
        } else if (!have_image && (!memcmp(chunk, "ALPH", 4) || !memcmp(chunk, "VP8 ", 4) || !memcmp(chunk, "VP8L", 4))) {
            keep = 1;
            have_image = memcmp(chunk, "ALPH", 4) != 0;
        }
        int is_image = !memcmp(chunk, "ANMF", 4) || !memcmp(chunk, "ALPH", 4) || !memcmp(chunk, "VP8 ", 4)
                    || !memcmp(chunk, "VP8L", 4);
        if (keep && is_image && (image += size) > image_limit) {
            ccodecs_message(message, "its %.*s chunk claims %llu bytes, more than a %dx%d picture takes", chunk[3] == ' ' ? 3 : 4,
                            (const char *)chunk, (unsigned long long)size, header.width, header.height);
            status = CCODECS_ERROR;
        } else if (keep && !is_image && count > 0 && size > METADATA_LIMIT) {
            ccodecs_message(message, "its %.4s chunk claims %llu bytes, more than metadata holds", (const char *)chunk,
                            (unsigned long long)size);
            status = CCODECS_ERROR;
        } else if (keep) {
            status = copy_whole_chunk(input, offset, size, end, out, &missing, message);
        }
        if (status) break;
        /* A simple file (VP8 or VP8L alone) is its one chunk. */
        if (!extended) break;
        offset = next;
    }
    /* A file cut short anywhere (in a chunk left out, or in a chunk's header) is cut short for
     * libwebp too. */
    if (8 + riff + (riff & 1) > input->size && missing == 0) missing = 1;
    if (!status) {
        uint64_t riff_size = out->size - 8 + missing;
        uint32_t size = riff_size > UINT32_MAX ? UINT32_MAX : (uint32_t)riff_size;
        for (int i = 0; i < 4; i++) out->data[4 + i] = (uint8_t)(size >> (8 * i));
    } else {
        free(out->data);
        memset(out, 0, sizeof *out);
    }
    return status;
}

/* ICCP and EXIF chunks (WebPDemux) into out->icc and out->exif, and the resolution that the
 * EXIF claims (WebP has no other). A container that the demuxer refuses carries no metadata
 * for us; the decoder proper then judges the bitstream. */
static int read_metadata(const WebPData *webp, ccodecs_decoded *out, char *message) {
    WebPDemuxer *demux = WebPDemux(webp);
    if (!demux) return CCODECS_OK;
    int status = copy_chunk(demux, "ICCP", &out->icc, &out->icc_size, message);
    if (!status) status = copy_chunk(demux, "EXIF", &out->exif, &out->exif_size, message);
    if (out->exif) out->dpi_x = out->dpi_y = ccodecs_exif_dpi(out->exif, out->exif_size);
    WebPDemuxDelete(demux);
    return status;
}

/* A still picture with WebPDecode into our own buffer, scaled by libwebp's rescaler. */
static int decode_still(const uint8_t *data, size_t size, int scale_eighths, ccodecs_decoded *out,
                        char *message) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        ccodecs_message(message, "libwebp version mismatch");
        return CCODECS_ERROR;
    }
    if (scale_eighths < 8) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)(((uint64_t)out->width * (uint64_t)scale_eighths + 7) / 8);
        config.options.scaled_height = (int)(((uint64_t)out->height * (uint64_t)scale_eighths + 7) / 8);
        out->width = (uint32_t)config.options.scaled_width;
        out->height = (uint32_t)config.options.scaled_height;
        out->scale_eighths = scale_eighths;
    }
    size_t stride = (size_t)out->width * 4;
    if (!(out->pixels = malloc(stride * out->height))) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    config.options.use_threads = 1;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out->pixels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * out->height;
    int status = vp8_status(WebPDecode(data, size, &config), message);
    WebPFreeDecBuffer(&config.output);  /* external memory: frees nothing of ours */
    return status;
}

/* The first frame of an animation, on its canvas: the canvas transparent (as
 * WebPAnimDecoder starts every animation), the frame decoded by WebPDecode straight into its
 * place, scaled by scale_eighths/8 with libwebp's rescaler like a still picture (the frame's
 * edges rounded out to whole pixels of the scaled canvas). Nothing but the one canvas is
 * allocated: a tiny file whose canvas is huge and whose frame is small costs the canvas, at the
 * scale the output needs, not WebPAnimDecoder's three canvases at full size. */
static int decode_first_frame(const WebPData *webp, int scale_eighths, uint32_t frames, ccodecs_decoded *out,
                              char *message) {
    WebPDemuxer *demux = WebPDemux(webp);
    WebPIterator frame;
    if (!demux || !WebPDemuxGetFrame(demux, 1, &frame)) {
        WebPDemuxDelete(demux);
        ccodecs_message(message, "corrupt or truncated animated WebP");
        return CCODECS_ERROR;
    }
    /* The first frame is what is framed: a canvas it covers too little of is refused. */
    int status = ccodecs_check_canvas(out->width, out->height, (uint64_t)frame.width * (uint64_t)frame.height,
                                      "first frame", message);
    if (status) {
        WebPDemuxReleaseIterator(&frame);
        WebPDemuxDelete(demux);
        return status;
    }
    if (frames == 0) frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    uint64_t e = scale_eighths < 8 ? (uint64_t)scale_eighths : 8;
    /* The canvas and the frame's place on it, in the output's pixels. */
    uint32_t width = (uint32_t)(((uint64_t)out->width * e + 7) / 8), height = (uint32_t)(((uint64_t)out->height * e + 7) / 8);
    uint32_t x0 = (uint32_t)((uint64_t)frame.x_offset * e / 8), y0 = (uint32_t)((uint64_t)frame.y_offset * e / 8);
    uint32_t x1 = (uint32_t)(((uint64_t)(frame.x_offset + frame.width) * e + 7) / 8);
    uint32_t y1 = (uint32_t)(((uint64_t)(frame.y_offset + frame.height) * e + 7) / 8);
    if (x1 > width) x1 = width;
    if (y1 > height) y1 = height;
    size_t stride = (size_t)width * 4;
    WebPDecoderConfig config;
    if (x1 <= x0 || y1 <= y0 || !WebPInitDecoderConfig(&config)) {
        ccodecs_message(message, "corrupt WebP animation frame");
        status = CCODECS_ERROR;
    } else if (!(out->pixels = calloc((size_t)height, stride))) {
        ccodecs_message(message, "out of memory");
        status = CCODECS_NO_MEMORY;
    } else {
        out->width = width;
        out->height = height;
        if (e < 8) out->scale_eighths = (int)e;
        if (x1 - x0 != (uint32_t)frame.width || y1 - y0 != (uint32_t)frame.height) {
            config.options.use_scaling = 1;
            config.options.scaled_width = (int)(x1 - x0);
            config.options.scaled_height = (int)(y1 - y0);
        }
        config.options.use_threads = 1;
        config.output.colorspace = MODE_RGBA;
        config.output.is_external_memory = 1;
        config.output.u.RGBA.rgba = out->pixels + (size_t)y0 * stride + (size_t)x0 * 4;
        config.output.u.RGBA.stride = (int)stride;
        config.output.u.RGBA.size = (size_t)(y1 - y0 - 1) * stride + (size_t)(x1 - x0) * 4;
        status = vp8_status(WebPDecode(frame.fragment.bytes, frame.fragment.size, &config), message);
        WebPFreeDecBuffer(&config.output);  /* external memory: frees nothing of ours */
        /* Where the first frame does not cover the canvas, the canvas is transparent. */
        size_t bytes = stride * height;
        for (size_t i = 3; !status && i < bytes && !out->has_alpha; i += 4) out->has_alpha = out->pixels[i] != 255;
        if (!status && frames > 1) ccodecs_note_warning(out, "animated WebP: only the first frame is used");
    }
    WebPDemuxReleaseIterator(&frame);
    WebPDemuxDelete(demux);
    return status;
}

int ccodecs_webp_decode(const uint8_t *data, size_t size, int scale_eighths, size_t max_pixels, uint32_t frames,
                        ccodecs_decoded *out, char *message) {
    memset(out, 0, sizeof *out);
    if (ccodecs_check_scale(scale_eighths, message)) return CCODECS_BAD_ARGUMENT;
    WebPBitstreamFeatures header;
    int status = features(data, size, &header, message);
    if (status) return status;
    out->width = (uint32_t)header.width;
    out->height = (uint32_t)header.height;
    out->has_alpha = header.has_alpha;
    if ((status = ccodecs_check_size(out->width, out->height, max_pixels, message))) return status;
    WebPData webp = {data, size};
    if (!(status = read_metadata(&webp, out, message)))
        status = header.has_animation ? decode_first_frame(&webp, scale_eighths, frames, out, message)
                                      : decode_still(data, size, scale_eighths, out, message);
    if (status) ccodecs_decoded_release(out);
    return status;
}

/* A WebPEncodingError as a message. */
static const char *encoding_error(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "picture too large for WebP (16383 pixels a side at most)";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "WebP partition overflow (try a lower quality)";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "WebP file would be over 4 GB";
    default: return "WebP encoding failed";
    }
}

/* Adds ICCP / EXIF chunks to an encoded still picture (WebPMuxCreate, WebPMuxSetChunk,
 * WebPMuxAssemble); the result replaces *webp. */
static int add_metadata(WebPData *webp, const uint8_t *icc, size_t icc_size,
                        const uint8_t *exif, size_t exif_size, char *message) {
    WebPMux *mux = WebPMuxCreate(webp, 0);
    WebPData assembled = {NULL, 0};
    WebPData icc_data = {icc, icc_size}, exif_data = {exif, exif_size};
    WebPMuxError error = mux ? WEBP_MUX_OK : WEBP_MUX_MEMORY_ERROR;
    if (error == WEBP_MUX_OK && icc && icc_size) error = WebPMuxSetChunk(mux, "ICCP", &icc_data, 1);
    if (error == WEBP_MUX_OK && exif && exif_size) error = WebPMuxSetChunk(mux, "EXIF", &exif_data, 1);
    if (error == WEBP_MUX_OK) error = WebPMuxAssemble(mux, &assembled);
    WebPMuxDelete(mux);
    if (error != WEBP_MUX_OK) {
        ccodecs_message(message, "cannot add WebP metadata (mux error %d)", (int)error);
        return error == WEBP_MUX_MEMORY_ERROR ? CCODECS_NO_MEMORY : CCODECS_ERROR;
    }
    WebPDataClear(webp);
    *webp = assembled;
    return CCODECS_OK;
}

int ccodecs_webp_open(const uint8_t *data, size_t size, int scale_eighths, size_t max_pixels, uint32_t frames,
                      ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    *reader = NULL;
    int status = ccodecs_webp_decode(data, size, scale_eighths, max_pixels, frames, out, message);
    return status ? status : ccodecs_reader_over_pixels(out, reader, message);
}

int ccodecs_webp_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, float quality,
                             const uint8_t *icc, size_t icc_size,
                             const uint8_t *exif, size_t exif_size,
                             ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    if (!rgba || width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        ccodecs_message(message, "cannot encode a %ux%u picture as WebP", (unsigned)width, (unsigned)height);
        return CCODECS_BAD_ARGUMENT;
    }
    /* The advanced API (WebPConfig, WebPPictureImportRGBA, WebPEncode) rather than
     * WebPEncodeLosslessRGBA, which does not keep RGB under transparent pixels. */
    WebPConfig config;
    WebPPicture picture;
    WebPMemoryWriter writer;
    int lossless = quality < 0;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, lossless ? 75 : (quality > 100 ? 100 : quality))
        || !WebPPictureInit(&picture)) {
        ccodecs_message(message, "libwebp version mismatch");
        return CCODECS_ERROR;
    }
    config.lossless = lossless;
    config.exact = lossless;
    picture.use_argb = lossless;
    picture.width = (int)width;
    picture.height = (int)height;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int status = CCODECS_OK;
    if (!WebPPictureImportRGBA(&picture, rgba, (int)width * 4) || !WebPEncode(&config, &picture)) {
        ccodecs_message(message, "%s", encoding_error(picture.error_code));
        status = picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY
                         || picture.error_code == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY
                     ? CCODECS_NO_MEMORY : CCODECS_ERROR;
    }
    WebPPictureFree(&picture);
    WebPData webp = {writer.mem, writer.size};
    if (!status && ((icc && icc_size) || (exif && exif_size)))
        status = add_metadata(&webp, icc, icc_size, exif, exif_size, message);
    if (!status && (status = ccodecs_append(out, webp.bytes, webp.size)))
        ccodecs_message(message, "out of memory");
    WebPDataClear(&webp);
    if (status) {
        free(out->data);
        memset(out, 0, sizeof *out);
    }
    return status;
}
