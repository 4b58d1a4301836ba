/*
 * ccodecs colour and metadata: ICC profiles to sRGB (lcms2), EXIF orientation and resolution
 * (libexif), and a CMYK JPEG encoder for test fixtures. Same conventions as ccodecs.h: a
 * status, a one-line message in a CCODECS_MESSAGE_SIZE buffer, malloc'd results.
 */
#ifndef CCODECS_COLOR_H
#define CCODECS_COLOR_H

#include "ccodecs.h"

/* Rendering intents for ccodecs_color_to_srgb. */
#define CCODECS_INTENT_PERCEPTUAL 0
#define CCODECS_INTENT_RELATIVE   1

/* Converts decoded pixels (width * height * 4 bytes, see CCODECS_PIXELS_*) in place to
 * straight RGBA sRGB, alpha kept (CMYK pixels become opaque).
 *  - RGB profile: RGBA or GRAY pixels; gray profile: GRAY pixels; CMYK profile: CMYK pixels.
 *  - CMYK without a usable profile: the profile file default_cmyk_profile_path (may be NULL),
 *    and when that cannot be used either, a plain formula; both with a warning.
 *  - A profile that is corrupt or does not fit the pixels is ignored, with a warning.
 *  - An RGB profile with sRGB's colorants and curves changes nothing (*converted stays 0).
 * Warnings go to `warning` (CCODECS_MESSAGE_SIZE bytes, "" if none). *converted is set to 1
 * when the pixels were changed. Fails only on bad arguments or lack of memory. */
int ccodecs_color_to_srgb(uint8_t *pixels, uint32_t width, uint32_t height, int pixel_format,
                          const uint8_t *icc, size_t icc_size, int intent,
                          const char *default_cmyk_profile_path, int *converted,
                          char *warning, char *message);

/* A matrix-shaper ICC profile (lcms2's cmsCreateRGBProfile / cmsCreateGrayProfile) whose
 * transfer curve is encoded^gamma. chromaticities: 8 numbers, white x y, red x y, green x y,
 * blue x y; NULL for sRGB's (D65). gray: a gray profile with that white instead. */
int ccodecs_icc_profile(const double *chromaticities, double gamma, int gray,
                        ccodecs_buffer *out, char *message);

/* A matrix-shaper ICC profile for an H.273 (nclx) colour description: these chromaticities
 * (as for ccodecs_icc_profile; NULL: sRGB's) and the curve of `transfer`
 * (transfer_characteristics: 13 and 2, unspecified, sRGB's; 1, 6, 14 and 15 BT.709's; 7 SMPTE
 * 240M's; 4 and 5 gamma 2.2 and 2.8; 8 linear). Others (PQ, HLG, ...): CCODECS_UNSUPPORTED. */
int ccodecs_icc_profile_h273(const double *chromaticities, int transfer, ccodecs_buffer *out, char *message);

/* EXIF (from the TIFF header on, "MM" or "II"; an "Exif\0\0" prefix is skipped) to the
 * orientation tag's value 1-8; 1 when absent or invalid. */
int ccodecs_exif_orientation(const uint8_t *exif, size_t size);

/* EXIF XResolution in dots per inch (ResolutionUnit inch or centimetre); 0 when absent. */
double ccodecs_exif_dpi(const uint8_t *exif, size_t size);

/* CMYK8 (C, M, Y, K per pixel, written as given) to a JPEG, for test fixtures.
 * flags: CCODECS_JPEG_ADOBE, CCODECS_JPEG_YCCK, CCODECS_JPEG_ARITHMETIC. */
int ccodecs_jpeg_encode_cmyk(const uint8_t *cmyk, uint32_t width, uint32_t height, int quality,
                             int flags, ccodecs_buffer *out, char *message);

#endif
