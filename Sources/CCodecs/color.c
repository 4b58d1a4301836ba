/* Colour management with lcms2: decoded pixels to sRGB, and matrix-shaper profiles made from
 * numbers (PNG gAMA/cHRM, test fixtures). Every call works in its own lcms2 context whose
 * error handler keeps the first message (for a warning) and prints nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"
#include "ccodecs_color.h"

/* Keeps the first warning. */
static void warn(char *warning, const char *what, const char *reason) {
    if (warning[0]) return;
    if (reason && reason[0]) ccodecs_message(warning, "%s (%s)", what, reason);
    else ccodecs_message(warning, "%s", what);
}

static const char *space_name(cmsColorSpaceSignature space) {
    switch (space) {
    case cmsSigRgbData: return "an RGB";
    case cmsSigGrayData: return "a gray";
    case cmsSigCmykData: return "a CMYK";
    default: return "an unusual";
    }
}

static int is_cmyk(int pixel_format) {
    return pixel_format == CCODECS_PIXELS_CMYK || pixel_format == CCODECS_PIXELS_CMYK_INVERTED;
}

/* Whether a profile of this colour space describes these pixels. */
static int fits(cmsColorSpaceSignature space, int pixel_format) {
    if (is_cmyk(pixel_format)) return space == cmsSigCmykData;
    if (space == cmsSigRgbData) return 1;
    return space == cmsSigGrayData && pixel_format == CCODECS_PIXELS_GRAY;
}

/* Whether an RGB profile is sRGB in all but name (the same colorants and curves, as in the
 * many files that embed "sRGB IEC61966-2.1"): converting would change nothing but rounding,
 * and leaving the pixels alone lets a JPEG pass through unchanged. */
static int is_srgb(cmsContext context, cmsHPROFILE profile) {
    static const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    static const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    if (cmsGetColorSpace(profile) != cmsSigRgbData || !cmsIsMatrixShaper(profile)) return 0;
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    int same = srgb != NULL;
    for (int c = 0; same && c < 3; c++) {
        const cmsCIEXYZ *a = cmsReadTag(profile, colorants[c]), *b = cmsReadTag(srgb, colorants[c]);
        const cmsToneCurve *ta = cmsReadTag(profile, curves[c]), *tb = cmsReadTag(srgb, curves[c]);
        same = a && b && ta && tb && fabs(a->X - b->X) < 0.002 && fabs(a->Y - b->Y) < 0.002 &&
               fabs(a->Z - b->Z) < 0.002;
        for (int i = 0; same && i <= 64; i++)
            same = fabsf(cmsEvalToneCurveFloat(ta, i / 64.0f) - cmsEvalToneCurveFloat(tb, i / 64.0f)) < 0.002f;
    }
    if (srgb) cmsCloseProfile(srgb);
    return same;
}

/* Converts with `profile` (already known to fit); 0 when lcms2 cannot build the transform. */
static int convert(cmsContext context, cmsHPROFILE profile, uint8_t *pixels, uint32_t width,
                   uint32_t height, int pixel_format, int intent) {
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    if (!srgb) return 0;
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    size_t stride = (size_t)width * 4, count = stride * height;
    cmsUInt32Number in = TYPE_RGBA_8, out = TYPE_RGBA_8, flags = cmsFLAGS_COPY_ALPHA;
    if (space == cmsSigGrayData) in = TYPE_GRAY_8, out = TYPE_RGB_8, flags = 0;
    if (space == cmsSigCmykData) {
        in = pixel_format == CCODECS_PIXELS_CMYK_INVERTED ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
        /* lcms2 makes a CMYK transform a table over the four inks, each node one pass through
         * the whole profile: 23^4 = 279841 nodes with HIGHRESPRECALC, 17^4 = 83521 by default.
         * Building the finer one cost three times the coarser (and three quarters of framing a
         * 12-megapixel CMYK JPEG at 1/4, 750K pixels, for a screen); it is worth it only for a
         * picture of many times its nodes (a print), where the pixels dominate anyway. */
        flags = (uint64_t)width * height >= (uint64_t)16 * 279841 ? cmsFLAGS_HIGHRESPRECALC : 0;
    }
    cmsHTRANSFORM transform = cmsCreateTransformTHR(context, profile, in, srgb, out,
                                                    (cmsUInt32Number)intent, flags);
    cmsCloseProfile(srgb);
    if (!transform) return 0;
    if (space == cmsSigGrayData) {
        /* Gray pixels are R = G = B: a table of the 256 grays does it. */
        uint8_t grays[256], rgb[256 * 3];
        for (int i = 0; i < 256; i++) grays[i] = (uint8_t)i;
        cmsDoTransform(transform, grays, rgb, 256);
        for (size_t i = 0; i < count; i += 4) memcpy(pixels + i, rgb + pixels[i] * 3, 3);
    } else {
        /* In place, row by row: each pixel is 4 bytes in and 4 bytes out. */
        for (uint32_t y = 0; y < height; y++)
            cmsDoTransform(transform, pixels + stride * y, pixels + stride * y, width);
        if (space == cmsSigCmykData)
            for (size_t i = 3; i < count; i += 4) pixels[i] = 255;
    }
    cmsDeleteTransform(transform);
    return 1;
}

/* CMYK to RGB by the naive formula R = (1 - C)(1 - K), when no profile can be had. */
static void convert_by_formula(uint8_t *pixels, size_t count, int inverted) {
    for (size_t i = 0; i < count; i += 4) {
        unsigned k = inverted ? pixels[i + 3] : 255u - pixels[i + 3];
        for (int c = 0; c < 3; c++) {
            unsigned ink = inverted ? pixels[i + c] : 255u - pixels[i + c];
            pixels[i + c] = (uint8_t)((ink * k + 127) / 255);
        }
        pixels[i + 3] = 255;
    }
}

/* The embedded profile, if it opens and fits the pixels; else NULL and a warning. */
static cmsHPROFILE open_embedded(cmsContext context, ccodecs_log *log, const uint8_t *icc,
                                 size_t icc_size, int pixel_format, char *warning) {
    if (icc_size > 0xFFFFFFFFu) {
        warn(warning, "embedded ICC profile ignored", "too large");
        return NULL;
    }
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)icc_size);
    if (!profile) {
        warn(warning, "embedded ICC profile ignored", log->text[0] ? log->text : "unreadable");
        return NULL;
    }
    if (!fits(cmsGetColorSpace(profile), pixel_format)) {
        char reason[CCODECS_MESSAGE_SIZE];
        ccodecs_message(reason, "%s profile for %s pixels", space_name(cmsGetColorSpace(profile)),
                        is_cmyk(pixel_format) ? "CMYK" : pixel_format == CCODECS_PIXELS_GRAY ? "gray" : "RGB");
        warn(warning, "embedded ICC profile ignored", reason);
        cmsCloseProfile(profile);
        return NULL;
    }
    return profile;
}

int ccodecs_color_to_srgb(uint8_t *pixels, uint32_t width, uint32_t height, int pixel_format,
                          const uint8_t *icc, size_t icc_size, int intent,
                          const char *default_cmyk_profile_path, int *converted,
                          char *warning, char *message) {
    message[0] = 0;
    warning[0] = 0;
    *converted = 0;
    if ((!pixels && width && height) || pixel_format < CCODECS_PIXELS_RGBA ||
        pixel_format > CCODECS_PIXELS_GRAY || (intent != CCODECS_INTENT_PERCEPTUAL &&
                                               intent != CCODECS_INTENT_RELATIVE)) {
        ccodecs_message(message, "bad arguments for colour conversion");
        return CCODECS_BAD_ARGUMENT;
    }
    int cmyk = is_cmyk(pixel_format);
    if ((!icc || !icc_size) && !cmyk) return CCODECS_OK;
    ccodecs_log log;
    cmsContext context = ccodecs_lcms_context(&log);
    if (!context) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    if (icc && icc_size) {
        cmsHPROFILE profile = open_embedded(context, &log, icc, icc_size, pixel_format, warning);
        if (profile && !is_srgb(context, profile)) {
            log.text[0] = 0;
            *converted = convert(context, profile, pixels, width, height, pixel_format, intent);
            if (!*converted) warn(warning, "embedded ICC profile ignored", log.text[0] ? log.text : "unusable");
        }
        if (profile) cmsCloseProfile(profile);
    }
    if (cmyk && !*converted && default_cmyk_profile_path) {
        cmsHPROFILE profile = cmsOpenProfileFromFileTHR(context, default_cmyk_profile_path, "r");
        if (profile && cmsGetColorSpace(profile) == cmsSigCmykData)
            *converted = convert(context, profile, pixels, width, height, pixel_format, intent);
        if (profile) cmsCloseProfile(profile);
    }
    if (cmyk && !*converted) {
        convert_by_formula(pixels, (size_t)width * height * 4, pixel_format == CCODECS_PIXELS_CMYK_INVERTED);
        *converted = 1;
        char reason[CCODECS_MESSAGE_SIZE] = "no CMYK profile given";
        if (default_cmyk_profile_path)
            ccodecs_message(reason, "cannot use %s", default_cmyk_profile_path);
        warn(warning, "CMYK converted without a colour profile", reason);
    }
    cmsDeleteContext(context);
    return CCODECS_OK;
}

/* An RGB (or gray) matrix-shaper profile of these chromaticities (white x y, red, green, blue;
 * NULL: sRGB's) and this curve per channel, written into `out`. */
static int make_profile(const double *chromaticities, int gray, int parametric_type, const double *parameters,
                        ccodecs_buffer *out, char *message) {
    static const double srgb[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};
    const double *c = chromaticities ? chromaticities : srgb;
    memset(out, 0, sizeof *out);
    message[0] = 0;
    int valid = 1;
    for (int i = 0; i < 8; i++) valid = valid && c[i] >= 0 && c[i] <= 1 && (i % 2 == 0 || c[i] > 0);
    if (!valid) {
        ccodecs_message(message, "gamma or chromaticities out of range");
        return CCODECS_BAD_ARGUMENT;
    }
    ccodecs_log log;
    cmsContext context = ccodecs_lcms_context(&log);
    cmsToneCurve *curve = context ? cmsBuildParametricToneCurve(context, parametric_type, parameters) : NULL;
    cmsHPROFILE profile = NULL;
    if (curve) {
        cmsCIExyY white = {c[0], c[1], 1};
        cmsCIExyYTRIPLE primaries = {{c[2], c[3], 1}, {c[4], c[5], 1}, {c[6], c[7], 1}};
        cmsToneCurve *curves[3] = {curve, curve, curve};
        profile = gray ? cmsCreateGrayProfileTHR(context, &white, curve)
                       : cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    }
    cmsUInt32Number size = 0;
    int status = CCODECS_OK;
    if (!profile || !cmsSaveProfileToMem(profile, NULL, &size)) {
        status = context ? CCODECS_ERROR : CCODECS_NO_MEMORY;
        ccodecs_message(message, "cannot make an ICC profile (%s)",
                        log.text[0] ? log.text : context ? "lcms2 refused the numbers" : "out of memory");
    } else if (!(out->data = malloc(size)) || !cmsSaveProfileToMem(profile, out->data, &size)) {
        status = out->data ? CCODECS_ERROR : CCODECS_NO_MEMORY;
        ccodecs_message(message, "cannot make an ICC profile (%s)", out->data ? "lcms2 cannot write it" : "out of memory");
        free(out->data);
        memset(out, 0, sizeof *out);
    } else {
        out->size = out->capacity = size;
    }
    if (profile) cmsCloseProfile(profile);
    if (curve) cmsFreeToneCurve(curve);
    if (context) cmsDeleteContext(context);
    return status;
}

int ccodecs_icc_profile(const double *chromaticities, double gamma, int gray,
                        ccodecs_buffer *out, char *message) {
    if (!(gamma > 0.01 && gamma < 100)) {
        memset(out, 0, sizeof *out);
        ccodecs_message(message, "gamma or chromaticities out of range");
        return CCODECS_BAD_ARGUMENT;
    }
    return make_profile(chromaticities, gray, 1, &gamma, out, message);
}

int ccodecs_icc_profile_h273(const double *chromaticities, int transfer, ccodecs_buffer *out, char *message) {
    /* lcms2's type 4 curve: Y = (aX + b)^g for X >= d, else cX; {g, a, b, c, d}. */
    static const double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    static const double bt709[5] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
    static const double smpte240[5] = {1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4.0, 0.0913};
    double gamma;
    switch (transfer) {
    case 2: case 13: return make_profile(chromaticities, 0, 4, srgb, out, message);
    case 1: case 6: case 14: case 15: return make_profile(chromaticities, 0, 4, bt709, out, message);
    case 7: return make_profile(chromaticities, 0, 4, smpte240, out, message);
    case 4: gamma = 2.2; return make_profile(chromaticities, 0, 1, &gamma, out, message);
    case 5: gamma = 2.8; return make_profile(chromaticities, 0, 1, &gamma, out, message);
    case 8: gamma = 1.0; return make_profile(chromaticities, 0, 1, &gamma, out, message);
    default:
        memset(out, 0, sizeof *out);
        ccodecs_message(message, "transfer characteristics %d have no ICC profile", transfer);
        return CCODECS_UNSUPPORTED;
    }
}
