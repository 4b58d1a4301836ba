/*
 * ccodecs HEIF: wrappers over libheif (HEIC through libde265, AVIF through dav1d or aom).
 * Same conventions as ccodecs.h: a CCODECS_* status, a one-line message in a
 * CCODECS_MESSAGE_SIZE buffer. The file is read through a ccodecs_input, where libheif asks
 * (its boxes, then the items it decodes): never whole.
 */
#ifndef CCODECS_HEIF_H
#define CCODECS_HEIF_H

#include "ccodecs.h"

/* The primary image's header: width and height as libheif shows it, after the file's own
 * transformations (irot, imir, clap); stored_width/stored_height its coded size (ispe);
 * has_alpha; bit_depth (luma); has_icc when an ICC profile, or an nclx colour description
 * other than sRGB's, comes with it; dpi from its EXIF. orientation is 1: the EXIF orientation
 * of a HEIF file only describes what irot and imir already do, and is never applied. */
int ccodecs_heif_info(const ccodecs_input *input, ccodecs_image_info *info, char *message);

/* Flags for ccodecs_heif_open. */
#define CCODECS_HEIF_KEEP_STORED 1   /* the coded pixels: irot, imir and clap are not applied */
#define CCODECS_HEIF_RGBA 2          /* an 8-bit picture decoded as RGBA even when opaque, for
                                        ccodecs_heif_rgba */

/* Opens and decodes the primary image (grid pictures included) with libheif, on up to
 * `threads` threads (its tiles), to RGBA8 read by ccodecs_reader_read: 10- and 12-bit samples
 * rounded to 8 bits, premultiplied alpha made straight. Refuses a picture whose coded or
 * shown size is over max_pixels before decoding (CCODECS_TOO_LARGE, out->width/height set).
 * With need_width and need_height (0: the full picture), a thumbnail that the file stores for
 * it is decoded instead when it has at least those pixels, the same shape and the same alpha
 * (out->full_width/full_height then give the picture's size). out->icc gets the ICC profile,
 * or one made from the nclx primaries and transfer when they are not sRGB's (a transfer
 * that has no such profile, PQ or HLG, is taken as sRGB's, with a warning); out->dpi from the
 * EXIF. The EXIF is not handed on: its orientation is not to be applied. */
int ccodecs_heif_open(const ccodecs_input *input, int flags, uint32_t need_width, uint32_t need_height,
                      int threads, size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader,
                      char *message);

/* The largest picture the decoders are asked to code to decode item `id` of the HEIF at
 * `input` (0: the primary image), from the file's boxes and its codecs' headers, without
 * decoding: an HEVC image's largest sequence parameter set (pic_width/height_in_luma_samples,
 * in its hvcC or its data), an AV1 image's largest frame (its frame headers' sizes, the
 * sequence header's maximum without an override, or the most the sequence header's bits can
 * say for an inter frame), a grid's canvas or its tiles side by side (columns of the largest
 * tile's width, rows of its height), whichever holds more, an overlay's canvas or its layers
 * one above the other, an identity's source, and the alpha plane that belongs to it. This is
 * what libde265 and dav1d allocate, whatever the ispe box says. Images that refer to each
 * other deeper than 8 levels: CCODECS_ERROR. */
int ccodecs_heif_coded_size(const ccodecs_input *input, uint32_t id, uint64_t *width, uint64_t *height, char *message);

/* The decoded picture in libheif's own buffer, when it is 8-bit interleaved RGBA (a picture with
 * alpha, or opened with CCODECS_HEIF_RGBA): straight RGBA rows *stride bytes apart, out->width
 * x out->height, before colour conversion; 1, or 0 when the picture is not held so (more than
 * 8 bits, or read already). For a caller that resizes from there rather than have
 * ccodecs_reader_read copy it. Valid until the reader is closed. */
int ccodecs_heif_rgba(ccodecs_reader *reader, uint8_t **pixels, size_t *stride);

#endif
