/* The ICC profiles of print files, with lcms2: sRGB made from its definition, and the facts
 * of a profile given by the user. Each call works in its own lcms2 context, which keeps
 * lcms2's first complaint for the message and prints nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"
#include "ccodecs_print.h"

/* The sRGB tone curve (IEC 61966-2-1): linear below 0.04045, a 2.4 power above. */
static double srgb_to_linear(double v) {
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static int set_text(cmsContext context, cmsHPROFILE profile, cmsTagSignature tag, const char *text) {
    cmsMLU *mlu = cmsMLUalloc(context, 1);
    int ok = mlu && cmsMLUsetASCII(mlu, "en", "US", text) && cmsWriteTag(profile, tag, mlu);
    if (mlu) cmsMLUfree(mlu);
    return ok;
}

int ccodecs_srgb_profile(ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    ccodecs_log log;
    cmsContext context = ccodecs_lcms_context(&log);
    if (!context) {
        ccodecs_message(message, "cannot make the sRGB profile (out of memory)");
        return CCODECS_NO_MEMORY;
    }
    enum { steps = 1024 };
    cmsUInt16Number table[steps];
    for (int i = 0; i < steps; i++) {
        table[i] = (cmsUInt16Number)lround(srgb_to_linear((double)i / (steps - 1)) * 65535);
    }
    cmsToneCurve *curve = cmsBuildTabulatedToneCurve16(context, steps, table);
    cmsHPROFILE profile = NULL;
    if (curve) {
        cmsCIExyY white = {0.3127, 0.3290, 1};
        cmsCIExyYTRIPLE primaries = {{0.64, 0.33, 1}, {0.30, 0.60, 1}, {0.15, 0.06, 1}};
        cmsToneCurve *curves[3] = {curve, curve, curve};
        profile = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    }
    int status = CCODECS_OK;
    cmsUInt32Number size = 0;
    if (profile) {
        cmsSetProfileVersion(profile, 2.1);
        if (!set_text(context, profile, cmsSigProfileDescriptionTag, "sRGB IEC61966-2.1")
            || !set_text(context, profile, cmsSigCopyrightTag, "No copyright, use freely")) {
            cmsCloseProfile(profile);
            profile = NULL;
        }
    }
    if (!profile || !cmsSaveProfileToMem(profile, NULL, &size)) {
        status = CCODECS_ERROR;
        ccodecs_message(message, "cannot make the sRGB profile (%s)", log.text[0] ? log.text : "lcms2 refused");
    } else if (!(out->data = malloc(size))) {
        status = CCODECS_NO_MEMORY;
        ccodecs_message(message, "cannot make the sRGB profile (out of memory)");
    } else if (!cmsSaveProfileToMem(profile, out->data, &size)) {
        status = CCODECS_ERROR;
        ccodecs_message(message, "cannot make the sRGB profile (lcms2 cannot write it)");
        free(out->data);
        memset(out, 0, sizeof *out);
    } else {
        out->size = out->capacity = size;
        /* lcms2 stamps the header with the clock's time (bytes 24-35, six big-endian numbers);
         * a fixed date, 2000-01-01 00:00:00, keeps the profile the same bytes on every run. A
         * version 2 profile has no ID (MD5) over the header to update. */
        static const uint8_t fixed_date[12] = {0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
        if (size >= 36) memcpy(out->data + 24, fixed_date, sizeof fixed_date);
    }
    if (profile) cmsCloseProfile(profile);
    if (curve) cmsFreeToneCurve(curve);
    cmsDeleteContext(context);
    return status;
}

int ccodecs_icc_read_facts(const uint8_t *icc, size_t size, ccodecs_icc_facts *facts, char *message) {
    memset(facts, 0, sizeof *facts);
    message[0] = 0;
    if (!icc || size < 132 || size > 0xFFFFFFFFu) {
        ccodecs_message(message, "not an ICC profile (too short)");
        return CCODECS_ERROR;
    }
    ccodecs_log log;
    cmsContext context = ccodecs_lcms_context(&log);
    if (!context) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    int status = CCODECS_OK;
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(context, icc, (cmsUInt32Number)size);
    cmsHPROFILE srgb = NULL;
    cmsHTRANSFORM transform = NULL;
    if (!profile) {
        status = CCODECS_ERROR;
        ccodecs_message(message, "lcms2 cannot read it (%s)", log.text[0] ? log.text : "no reason given");
        goto done;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    facts->color_space = (uint32_t)space;
    facts->device_class = (uint32_t)cmsGetDeviceClass(profile);
    facts->components = (int)cmsChannelsOf(space);
    facts->version = cmsGetProfileVersion(profile);
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", facts->description, sizeof facts->description);
    facts->description[sizeof facts->description - 1] = 0;
    if (space != cmsSigRgbData && space != cmsSigCmykData) goto done;  /* the caller names the space */
    srgb = cmsCreate_sRGBProfileTHR(context);
    cmsUInt32Number format = space == cmsSigRgbData ? TYPE_RGB_8 : TYPE_CMYK_8;
    if (srgb) transform = cmsCreateTransformTHR(context, srgb, TYPE_RGB_8, profile, format, INTENT_RELATIVE_COLORIMETRIC, 0);
    if (!transform) {
        status = CCODECS_ERROR;
        ccodecs_message(message, "lcms2 cannot convert colours into this profile (%s)",
                        log.text[0] ? log.text : "it has no tables for output");
    }
done:
    if (transform) cmsDeleteTransform(transform);
    if (srgb) cmsCloseProfile(srgb);
    if (profile) cmsCloseProfile(profile);
    cmsDeleteContext(context);
    return status;
}
