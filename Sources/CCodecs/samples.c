/* The resampler's inner loops (Resampler.swift): its two filter passes over rows of Floats,
 * and its rows of Float sums as RGBA8. */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "ccodecs_common.h"

/* Each sum is multiplications then additions, never fused (a fused multiply-add rounds once
 * where these round twice), so that the plain and AVX2 builds give the same bits. */
#pragma STDC FP_CONTRACT OFF

typedef float floats4 __attribute__((vector_size(16)));
typedef float floats8 __attribute__((vector_size(32)));

/* The horizontal pass: the eight lanes hold a pixel's even tap (0-3) and its odd tap (4-7), so
 * the two halves are the two sums that the pass keeps. Compiled twice (below). */
static inline __attribute__((always_inline)) void horizontally(const float *line, float *out, size_t width,
                                                               const intptr_t *starts, const intptr_t *counts,
                                                               const float *weights, size_t stride) {
    for (size_t x = 0; x < width; x++, out += 4, weights += stride) {
        const float *p = line + 4 * starts[x], *q = weights;
        intptr_t n = counts[x], k = 0;
        floats8 pair = {0, 0, 0, 0, 0, 0, 0, 0};
        for (; k + 2 <= n; k += 2, p += 8, q += 8) {
            floats8 v, w;
            memcpy(&v, p, sizeof v);
            memcpy(&w, q, sizeof w);
            pair += v * w;
        }
        floats4 even = {pair[0], pair[1], pair[2], pair[3]}, odd = {pair[4], pair[5], pair[6], pair[7]};
        if (k < n) {
            floats4 v, w;
            memcpy(&v, p, sizeof v);
            memcpy(&w, q, sizeof w);
            even += v * w;
        }
        floats4 sum = even + odd;
        memcpy(out, &sum, sizeof sum);
    }
}

/* The vertical pass, eight floats at a time (the rest one by one, the same sums). */
static inline __attribute__((always_inline)) void vertically(const float *const *rows, const float *weights,
                                                             int count, float *sum, size_t n) {
    memset(sum, 0, n * sizeof *sum);
    int k = 0;
    for (; k + 4 <= count; k += 4) {
        const float *r0 = rows[k], *r1 = rows[k + 1], *r2 = rows[k + 2], *r3 = rows[k + 3];
        float w0 = weights[k], w1 = weights[k + 1], w2 = weights[k + 2], w3 = weights[k + 3];
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            floats8 a, b, c, d, s;
            memcpy(&a, r0 + i, sizeof a);
            memcpy(&b, r1 + i, sizeof b);
            memcpy(&c, r2 + i, sizeof c);
            memcpy(&d, r3 + i, sizeof d);
            memcpy(&s, sum + i, sizeof s);
            s += (a * w0 + b * w1) + (c * w2 + d * w3);
            memcpy(sum + i, &s, sizeof s);
        }
        for (; i < n; i++) sum[i] += (r0[i] * w0 + r1[i] * w1) + (r2[i] * w2 + r3[i] * w3);
    }
    if (count - k >= 2) {
        const float *r0 = rows[k], *r1 = rows[k + 1];
        float w0 = weights[k], w1 = weights[k + 1];
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            floats8 a, b, s;
            memcpy(&a, r0 + i, sizeof a);
            memcpy(&b, r1 + i, sizeof b);
            memcpy(&s, sum + i, sizeof s);
            s += a * w0 + b * w1;
            memcpy(sum + i, &s, sizeof s);
        }
        for (; i < n; i++) sum[i] += r0[i] * w0 + r1[i] * w1;
        k += 2;
    }
    if (k < count) {
        const float *r0 = rows[k];
        float w0 = weights[k];
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            floats8 a, s;
            memcpy(&a, r0 + i, sizeof a);
            memcpy(&s, sum + i, sizeof s);
            s += a * w0;
            memcpy(sum + i, &s, sizeof s);
        }
        for (; i < n; i++) sum[i] += r0[i] * w0;
    }
}

/* A row of RGBA8 as Floats for the passes: each sample as it is, alpha 255 for an opaque
 * picture; with `premultiplied`, colour times unit[alpha] (alpha / 255). */
static inline __attribute__((always_inline)) void load(const uint8_t *rgba, float *line, size_t pixels,
                                                       const float *unit) {
    if (unit) {
        for (size_t i = 0; i < pixels; i++, rgba += 4, line += 4) {
            float f = unit[rgba[3]];
            line[0] = (float)rgba[0] * f;
            line[1] = (float)rgba[1] * f;
            line[2] = (float)rgba[2] * f;
            line[3] = (float)rgba[3];
        }
        return;
    }
    size_t i = 0;
    for (; i + 2 <= pixels; i += 2, rgba += 8, line += 8) {
        typedef uint8_t bytes8 __attribute__((vector_size(8)));
        bytes8 b;
        memcpy(&b, rgba, sizeof b);
        floats8 v = __builtin_convertvector(b, floats8);
        v[3] = 255;
        v[7] = 255;
        memcpy(line, &v, sizeof v);
    }
    for (; i < pixels; i++, rgba += 4, line += 4) {
        line[0] = (float)rgba[0];
        line[1] = (float)rgba[1];
        line[2] = (float)rgba[2];
        line[3] = 255;
    }
}

static void load_plain(const uint8_t *rgba, float *line, size_t pixels, const float *unit) {
    load(rgba, line, pixels, unit);
}

static void horizontally_plain(const float *line, float *out, size_t width, const intptr_t *starts,
                               const intptr_t *counts, const float *weights, size_t stride) {
    horizontally(line, out, width, starts, counts, weights, stride);
}

static void vertically_plain(const float *const *rows, const float *weights, int count, float *sum, size_t n) {
    vertically(rows, weights, count, sum, n);
}

#ifdef CCODECS_HAS_AVX2_VERSIONS
__attribute__((target("avx2"))) static void load_avx2(const uint8_t *rgba, float *line, size_t pixels,
                                                      const float *unit) {
    load(rgba, line, pixels, unit);
}

__attribute__((target("avx2"))) static void horizontally_avx2(const float *line, float *out, size_t width,
                                                              const intptr_t *starts, const intptr_t *counts,
                                                              const float *weights, size_t stride) {
    horizontally(line, out, width, starts, counts, weights, stride);
}

__attribute__((target("avx2"))) static void vertically_avx2(const float *const *rows, const float *weights,
                                                            int count, float *sum, size_t n) {
    vertically(rows, weights, count, sum, n);
}
#endif

void ccodecs_load_row(const uint8_t *rgba, float *line, size_t pixels, const float *unit, int allow_avx2) {
#ifdef CCODECS_HAS_AVX2_VERSIONS
    if (allow_avx2 && ccodecs_use_avx2()) {
        load_avx2(rgba, line, pixels, unit);
        return;
    }
#endif
    (void)allow_avx2;
    load_plain(rgba, line, pixels, unit);
}

void ccodecs_filter_horizontally(const float *line, float *out, size_t width, const intptr_t *starts,
                                 const intptr_t *counts, const float *weights, size_t stride, int allow_avx2) {
#ifdef CCODECS_HAS_AVX2_VERSIONS
    if (allow_avx2 && ccodecs_use_avx2()) {
        horizontally_avx2(line, out, width, starts, counts, weights, stride);
        return;
    }
#endif
    (void)allow_avx2;
    horizontally_plain(line, out, width, starts, counts, weights, stride);
}

void ccodecs_filter_vertically(const float *const *rows, const float *weights, int count, float *sum, size_t n,
                               int allow_avx2) {
#ifdef CCODECS_HAS_AVX2_VERSIONS
    if (allow_avx2 && ccodecs_use_avx2()) {
        vertically_avx2(rows, weights, count, sum, n);
        return;
    }
#endif
    (void)allow_avx2;
    vertically_plain(rows, weights, count, sum, n);
}

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
