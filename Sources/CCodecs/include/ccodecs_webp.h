/*
 * ccodecs WebP: wrappers over libwebp (decode), libwebpdemux (chunks, animation) and
 * libwebpmux (adding ICCP/EXIF). Same conventions as ccodecs.h: a CCODECS_* status, a
 * one-line message in a CCODECS_MESSAGE_SIZE buffer, malloc'd results.
 */
#ifndef CCODECS_WEBP_H
#define CCODECS_WEBP_H

#include "ccodecs.h"

/* The WebP at the start of `input` gathered into one buffer for libwebp (which decodes from
 * memory only), read from the file a chunk at a time: its RIFF header, with the size made that
 * of what follows, and the chunks decoding reads: the first (VP8X, or the one image chunk of a
 * simple file), the first ICCP, EXIF and ANIM, and the image (ALPH and VP8, or VP8L) or an
 * animation's first frame (ANMF); not XMP, later frames, or unknown chunks, whose bytes are
 * never read. The walk stops at a chunk whose four-character code is not printable, and after
 * 100000 chunks. *frames is how many frames (ANMF) an animation has, 0 for a still picture.
 * The picture's data may claim what a picture of the canvas's size takes in any format framed
 * reads, 8 bytes a pixel and a megabyte, and an ICCP or EXIF chunk 16 MB: a chunk that claims
 * more is refused (CCODECS_ERROR) unread. A file cut short keeps what it holds. */
int ccodecs_webp_gather(const ccodecs_input *input, ccodecs_buffer *out, uint32_t *frames, char *message);

/* WebP header (WebPGetFeatures): width, height, has_alpha; components is 4 with alpha,
 * else 3; bit_depth 8; color_space RGB (after decoding); progressive 0. From the chunks
 * present (WebPDemuxPartial): has_icc (ICCP), orientation and dpi from EXIF. Works on a file
 * cut short after its header. An animated file reports its canvas size, and has_alpha since
 * its canvas may show through; one whose canvas its first frame covers too little of
 * (ccodecs_check_canvas) is refused, here and by ccodecs_webp_decode. */
int ccodecs_webp_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message);

/* WebP (lossy, lossless, with or without alpha) to straight RGBA8, scaled by scale_eighths/8
 * (1, 2, 3, 4 or 8) with libwebp's scaler to ceil(w*e/8) x ceil(h*e/8). Refuses a picture over
 * max_pixels from its header, before allocating (CCODECS_TOO_LARGE, out->width/height set).
 * ICCP and EXIF chunks are copied into out->icc / out->exif (EXIF from the TIFF header on);
 * dpi comes from the EXIF; out->scale_eighths is the scale used.
 * An animation decodes to its first frame on its transparent canvas, both scaled alike (the
 * frame decoded straight into its place: one canvas is all that is allocated), with a warning
 * saying so when it has more than one frame: `frames` of them (ccodecs_webp_gather's count),
 * or, when 0, as many as `data` holds. Truncated or corrupt data: CCODECS_ERROR. */
int ccodecs_webp_decode(const uint8_t *data, size_t size, int scale_eighths, size_t max_pixels, uint32_t frames,
                        ccodecs_decoded *out, char *message);

/* ccodecs_webp_decode as the first step of a ccodecs_reader (ccodecs.h): libwebp decodes
 * in one call, so the pixels are decoded here and ccodecs_reader_read copies them into
 * place. */
int ccodecs_webp_open(const uint8_t *data, size_t size, int scale_eighths, size_t max_pixels, uint32_t frames,
                      ccodecs_decoded *out, ccodecs_reader **reader, char *message);

/* RGBA8 (rows of width * 4 bytes) to WebP: lossy at quality (0-100), or lossless (exact RGB
 * under transparent pixels too) when quality < 0. Alpha is kept when any pixel is not
 * opaque. icc / exif (NULL or empty for none) are added as ICCP / EXIF chunks. */
int ccodecs_webp_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, float quality,
                             const uint8_t *icc, size_t icc_size,
                             const uint8_t *exif, size_t exif_size,
                             ccodecs_buffer *out, char *message);

#endif
