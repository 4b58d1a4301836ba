/* The resampler's rows of Float sums (Resampler.swift) as RGBA8, four lanes at a time. */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "ccodecs.h"

/* Clamped to 0...255 and rounded half up (truncating x + 0.5), as Swift's
 * UInt8(Int32(min(max(x, 0), 255) + 0.5)). */
static uint8_t sample(float x) {
    float clamped = x > 0 ? x : 0;
    clamped = clamped < 255 ? clamped : 255;
    return (uint8_t)(int32_t)(clamped + 0.5f);
}

void ccodecs_store_rgba(const float *sum, uint8_t *out, size_t pixels, int premultiplied) {
#ifdef __SSE2__
    const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(255), half = _mm_set1_ps(0.5f);
    const __m128 alpha_lane = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
    for (size_t i = 0; i < pixels; i++, sum += 4, out += 4) {
        __m128 v = _mm_loadu_ps(sum);
        float a = 255;
        if (premultiplied) {
            a = sum[3] > 0 ? sum[3] : 0;
            a = a < 255 ? a : 255;
            if (a < 0.5f) {
                memset(out, 0, 4);
                continue;
            }
            /* Clamping the straight colour to 0...255 is clamping the premultiplied one to
             * 0...alpha (Lanczos rings overshoot both ways). */
            v = _mm_mul_ps(v, _mm_set1_ps(255 / a));
        }
        v = _mm_or_ps(_mm_andnot_ps(alpha_lane, v), _mm_and_ps(alpha_lane, _mm_set1_ps(a)));
        v = _mm_add_ps(_mm_min_ps(_mm_max_ps(v, zero), top), half);
        __m128i q = _mm_cvttps_epi32(v);
        q = _mm_packus_epi16(_mm_packs_epi32(q, q), q);
        int32_t word = _mm_cvtsi128_si32(q);
        memcpy(out, &word, 4);
    }
#else
    for (size_t i = 0; i < pixels; i++, sum += 4, out += 4) {
        float a = 255, f = 1;
        if (premultiplied) {
            a = sum[3] > 0 ? sum[3] : 0;
            a = a < 255 ? a : 255;
            if (a < 0.5f) {
                memset(out, 0, 4);
                continue;
            }
            f = 255 / a;
        }
        for (int c = 0; c < 3; c++) out[c] = sample(premultiplied ? sum[c] * f : sum[c]);
        out[3] = premultiplied ? sample(a) : 255;
    }
#endif
}
