/*
 * ccodecs for print: the ICC profiles a print file carries (sRGB made by lcms2, and the facts
 * of a profile a user gives), and the TIFF a photo lab takes (libtiff). Same conventions as
 * ccodecs.h: a status, a one-line message in a CCODECS_MESSAGE_SIZE buffer, malloc'd results.
 */
#ifndef CCODECS_PRINT_H
#define CCODECS_PRINT_H

#include "ccodecs.h"

/* sRGB IEC61966-2.1 (D65 white, Rec. 709 primaries, the sRGB tone curve tabulated in 1024
 * steps) as a version 2.1 display-class ICC profile made by lcms2, a few kilobytes: the form
 * that old readers (photo labs' software, PDF/X preflight) know best. Its header is dated
 * 2000-01-01, so the bytes are the same on every run. */
int ccodecs_srgb_profile(ccodecs_buffer *out, char *message);

/* What a print file needs to know of an ICC profile. */
typedef struct {
    int components;           /* 3 for RGB, 4 for CMYK, else the profile's channel count */
    uint32_t color_space;     /* the header's data colour space signature ('RGB ', 'CMYK'...) */
    uint32_t device_class;    /* the header's device class ('prtr', 'mntr', 'scnr'...) */
    double version;           /* 2.1, 4.3... */
    char description[128];    /* the profile's description (ASCII), "" if none */
} ccodecs_icc_facts;

/* Reads a profile's facts with lcms2 and checks that colours can be converted into it (an
 * output intent must take colours): CCODECS_ERROR with a message when lcms2 cannot read it or
 * cannot convert sRGB into it. */
int ccodecs_icc_read_facts(const uint8_t *icc, size_t size, ccodecs_icc_facts *facts, char *message);

/* TIFF compressions for ccodecs_tiff_encode_rgb. */
#define CCODECS_TIFF_LZW     1
#define CCODECS_TIFF_DEFLATE 2

/* An 8-bit RGB TIFF (alpha dropped: the pixels must be opaque) through libtiff, written in
 * memory: strips of about 64 KB compressed losslessly (LZW or Deflate, with the horizontal
 * predictor), the resolution in pixels per inch (XResolution, YResolution, ResolutionUnit
 * inch) when dpi > 0, the ICC profile (tag 34675) when icc is not NULL, and software
 * (tag 305, Software: framed's mark on its outputs) when it is not NULL. */
int ccodecs_tiff_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, double dpi,
                            const uint8_t *icc, size_t icc_size, int compression, const char *software,
                            ccodecs_buffer *out, char *message);

/* A soft proof through an output intent's ICC profile (RGB or CMYK): lcms2's proofing transform
 * from sRGB into the press (relative colorimetric) and back to sRGB on screen (absolute
 * colorimetric: the paper's white shows), and its gamut check. Pixels are Cairo's opaque ARGB32
 * words on a little-endian machine: the bytes B, G, R, A; alpha is kept. */
typedef struct ccodecs_proof ccodecs_proof;

/* Makes the transforms for `icc`; with `warning` (R, G, B; NULL for none) ccodecs_proof_rows
 * paints the pixels out of gamut that colour. Close the proof with ccodecs_proof_close. */
int ccodecs_proof_open(const uint8_t *icc, size_t size, const uint8_t *warning, ccodecs_proof **out,
                       char *message);

/* Proofs `height` rows of `width` pixels, `stride` bytes apart, in place. */
void ccodecs_proof_rows(const ccodecs_proof *proof, uint8_t *pixels, size_t stride, uint32_t width,
                        uint32_t height);

/* Sets out_of_gamut[y * width + x] to 1 where the press cannot print the pixel's colour, 0
 * elsewhere; the pixels are only read. It may make a checking transform of its own (whose alarm
 * colour the plain proof of these pixels never gives), kept for the next call. Needs about
 * 4 bytes a pixel and 2 MB of scratch. */
int ccodecs_proof_gamut(ccodecs_proof *proof, const uint8_t *pixels, size_t stride, uint32_t width,
                        uint32_t height, uint8_t *out_of_gamut, char *message);

void ccodecs_proof_close(ccodecs_proof *proof);

#endif
