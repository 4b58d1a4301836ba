/* The resampler's inner loops (Resampler.swift): its two filter passes over rows of Floats
 * (ccodecs_sample_loops.h) built for any processor of the family, and its rows of Float sums
 * as RGBA8. framed's AVX2 build of the same loops is an engine (CFramedEngines' avx2rows.c). */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "ccodecs.h"
#include "ccodecs_sample_loops.h"

static void load_row(const uint8_t *rgba, float *line, size_t pixels, const float *unit) {
    ccodecs_load(rgba, line, pixels, unit);
}

static void filter_horizontally(const float *line, float *out, size_t width, const intptr_t *starts,
                                const intptr_t *counts, const float *weights, size_t stride) {
    ccodecs_horizontally(line, out, width, starts, counts, weights, stride);
}

static void filter_vertically(const float *const *rows, const float *weights, int count, float *sum, size_t n) {
    ccodecs_vertically(rows, weights, count, sum, n);
}

static const ccodecs_sample_loops portable = {load_row, filter_horizontally, filter_vertically};

const ccodecs_sample_loops *ccodecs_sample_loops_portable(void) { return &portable; }

/* x clamped to 0...255, as Swift's min(max(x, 0), 255). */
static inline float clamp255(float x) {
    float low = x > 0 ? x : 0;
    return low < 255 ? low : 255;
}

void ccodecs_store_rgba(const float *sum, uint8_t *out, size_t pixels, int premultiplied) {
#ifdef __SSE2__
    const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(255), half = _mm_set1_ps(0.5f);
    const __m128 alpha_lane = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
#endif
    for (size_t i = 0; i < pixels; i++, sum += 4, out += 4) {
        float a = 255, f = 1;
        if (premultiplied) {
            a = clamp255(sum[3]);
            if (a < 0.5f) {
                memset(out, 0, 4);
                continue;
            }
            /* Clamping the straight colour to 0...255 is clamping the premultiplied one to
             * 0...alpha (Lanczos rings overshoot both ways). */
            f = 255 / a;
        }
        /* Each sample clamped to 0...255 and rounded half up (truncating x + 0.5), as Swift's
         * UInt8(Int32(min(max(x, 0), 255) + 0.5)). */
#ifdef __SSE2__
        __m128 v = _mm_loadu_ps(sum);
        if (premultiplied) v = _mm_mul_ps(v, _mm_set1_ps(f));
        v = _mm_or_ps(_mm_andnot_ps(alpha_lane, v), _mm_and_ps(alpha_lane, _mm_set1_ps(a)));
        v = _mm_add_ps(_mm_min_ps(_mm_max_ps(v, zero), top), half);
        __m128i q = _mm_cvttps_epi32(v);
        q = _mm_packus_epi16(_mm_packs_epi32(q, q), q);
        int32_t word = _mm_cvtsi128_si32(q);
        memcpy(out, &word, 4);
#else
        for (int c = 0; c < 3; c++) out[c] = (uint8_t)(int32_t)(clamp255(premultiplied ? sum[c] * f : sum[c]) + 0.5f);
        out[3] = (uint8_t)(int32_t)(a + 0.5f);
#endif
    }
}
