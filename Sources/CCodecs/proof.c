/* The soft proof: a page's sRGB pixels as a press prints them, shown again in sRGB, with
 * lcms2's proofing transform (sRGB -> the output intent's profile -> sRGB), and which of them
 * the press cannot reach (lcms2's gamut check).
 *
 * Into the press: relative colorimetric, the rendering intent a PDF asks for when it names
 * none (ISO 32000 8.6.5.8), without black point compensation. Back to the screen: absolute
 * colorimetric, which keeps the paper's own white (a coated stock's is a little yellow), as
 * lcms2 documents for simulating paper white. The gamut check paints every pixel it finds out
 * of gamut with the context's alarm codes, and leaves the others as the plain proof has them
 * (measured: the same bytes). So where a checking transform's pixel differs from the plain
 * proof's, the colour is out of gamut; where they agree, it is in gamut unless the plain proof
 * happens to be the alarm colour itself. The count therefore uses a checking transform whose
 * alarm colour the plain proof of the pixels counted never gives (the warning's when it is
 * free, else the first free colour): exact, for one checking transform (lcms2 takes some five
 * times as long to build one as a plain proof, sampling the press's gamut on a fine grid).
 * Every transform has a context of its own, whose alarm codes nothing else can change; a
 * transform keeps lcms2's one-pixel cache (the flat mats and paper of a page are long runs of
 * one colour), so it serves one thread at a time. */
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"
#include "ccodecs_print.h"

struct ccodecs_proof {
    uint8_t *icc;
    size_t size;
    /* 0 the plain proof, 1 the warning's check, 2 the count's check (when it is not 1's). */
    cmsContext contexts[3];
    cmsHTRANSFORM transforms[3];
    int has_warning;
    uint8_t alarms[3][3];
};

static void drop(ccodecs_proof *proof, int which) {
    if (proof->transforms[which]) cmsDeleteTransform(proof->transforms[which]);
    if (proof->contexts[which]) cmsDeleteContext(proof->contexts[which]);
    proof->transforms[which] = NULL;
    proof->contexts[which] = NULL;
}

void ccodecs_proof_close(ccodecs_proof *proof) {
    if (!proof) return;
    for (int i = 0; i < 3; i++) drop(proof, i);
    free(proof->icc);
    free(proof);
}

/* Proofing transform `which` of Cairo's opaque pixels (B, G, R, A bytes), in a context of its
 * own whose alarm codes are `alarm` (R, G, B) when it checks the gamut. */
static int make(ccodecs_proof *proof, int which, const uint8_t *alarm, ccodecs_log *log) {
    drop(proof, which);
    cmsContext context = proof->contexts[which] = ccodecs_lcms_context(log);
    if (!context) return CCODECS_NO_MEMORY;
    cmsUInt32Number flags = cmsFLAGS_SOFTPROOFING | cmsFLAGS_COPY_ALPHA;
    if (alarm) {
        cmsUInt16Number codes[cmsMAXCHANNELS] = {0};
        for (int c = 0; c < 3; c++) codes[c] = (cmsUInt16Number)(alarm[c] * 257);
        cmsSetAlarmCodesTHR(context, codes);
        memcpy(proof->alarms[which], alarm, 3);
        flags |= cmsFLAGS_GAMUTCHECK;
    }
    cmsHPROFILE press = cmsOpenProfileFromMemTHR(context, proof->icc, (cmsUInt32Number)proof->size);
    cmsHPROFILE in = cmsCreate_sRGBProfileTHR(context), out = cmsCreate_sRGBProfileTHR(context);
    if (press && in && out)
        proof->transforms[which] = cmsCreateProofingTransformTHR(
            context, in, TYPE_BGRA_8, out, TYPE_BGRA_8, press, INTENT_RELATIVE_COLORIMETRIC,
            INTENT_ABSOLUTE_COLORIMETRIC, flags);
    if (press) cmsCloseProfile(press);
    if (in) cmsCloseProfile(in);
    if (out) cmsCloseProfile(out);
    return proof->transforms[which] ? CCODECS_OK : CCODECS_ERROR;
}

static int failed(int status, ccodecs_log *log, char *message) {
    if (status == CCODECS_NO_MEMORY) ccodecs_message(message, "out of memory");
    else ccodecs_message(message, "lcms2 cannot proof through the profile (%s)", log->text[0] ? log->text : "no transform");
    return status;
}

int ccodecs_proof_open(const uint8_t *icc, size_t size, const uint8_t *warning, ccodecs_proof **out,
                       char *message) {
    message[0] = 0;
    *out = NULL;
    if (!icc || !size || size > 0xFFFFFFFFu) {
        ccodecs_message(message, "bad arguments for a soft proof");
        return CCODECS_BAD_ARGUMENT;
    }
    ccodecs_proof *proof = calloc(1, sizeof *proof);
    if (!proof || !(proof->icc = malloc(size))) {
        free(proof);
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    memcpy(proof->icc, icc, size);
    proof->size = size;
    ccodecs_log log = {{0}};
    int status = make(proof, 0, NULL, &log);
    if (status == CCODECS_OK && warning) {
        proof->has_warning = 1;
        status = make(proof, 1, warning, &log);
    }
    if (status != CCODECS_OK) {
        ccodecs_proof_close(proof);
        return failed(status, &log, message);
    }
    *out = proof;
    return CCODECS_OK;
}

void ccodecs_proof_rows(const ccodecs_proof *proof, uint8_t *pixels, size_t stride, uint32_t width,
                        uint32_t height) {
    cmsHTRANSFORM page = proof->has_warning ? proof->transforms[1] : proof->transforms[0];
    for (uint32_t y = 0; y < height; y++) cmsDoTransform(page, pixels + stride * y, pixels + stride * y, width);
}

int ccodecs_proof_gamut(ccodecs_proof *proof, const uint8_t *pixels, size_t stride, uint32_t width,
                        uint32_t height, uint8_t *out_of_gamut, char *message) {
    message[0] = 0;
    size_t count = (size_t)width * height;
    uint8_t *plain = malloc(count * 4 + 1), *used = calloc(1 << 21, 1);
    uint8_t *checked = malloc((size_t)width * 4 + 1);
    if (!plain || !used || !checked) {
        free(plain), free(used), free(checked);
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    /* The plain proof, and the colours it gives (one bit each of 2^24). */
    for (uint32_t y = 0; y < height; y++) cmsDoTransform(proof->transforms[0], pixels + stride * y, plain + (size_t)width * 4 * y, width);
    for (size_t i = 0; i < count; i++) {
        uint32_t rgb = (uint32_t)plain[4 * i + 2] << 16 | (uint32_t)plain[4 * i + 1] << 8 | plain[4 * i];
        used[rgb >> 3] |= (uint8_t)(1u << (rgb & 7));
    }
#define USED(a) (used[((uint32_t)(a)[0] << 16 | (uint32_t)(a)[1] << 8 | (a)[2]) >> 3] & (1u << ((a)[2] & 7)))
    /* A checking transform whose alarm colour the plain proof does not give here. */
    int which = 1;
    if (!proof->has_warning || USED(proof->alarms[1])) {
        which = 2;
        if (!proof->transforms[2] || USED(proof->alarms[2])) {
            /* A region of 2^24 pixels or more could in theory use every colour: then the last. */
            uint32_t rgb = 0;
            while (rgb < 0xFFFFFFu && (used[rgb >> 3] & (1u << (rgb & 7)))) rgb++;
            uint8_t alarm[3] = {(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb};
            ccodecs_log log = {{0}};
            int status = make(proof, 2, alarm, &log);
            if (status != CCODECS_OK) {
                free(plain), free(used), free(checked);
                return failed(status, &log, message);
            }
        }
    }
#undef USED
    for (uint32_t y = 0; y < height; y++) {
        cmsDoTransform(proof->transforms[which], pixels + stride * y, checked, width);
        const uint8_t *row = plain + (size_t)width * 4 * y;
        uint8_t *flags = out_of_gamut + (size_t)width * y;
        for (uint32_t x = 0; x < width; x++) flags[x] = memcmp(checked + 4 * x, row + 4 * x, 3) != 0;
    }
    free(plain), free(used), free(checked);
    return CCODECS_OK;
}
