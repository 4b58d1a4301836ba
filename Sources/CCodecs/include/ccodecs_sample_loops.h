/* The resampler's loops (Resampler.swift) as inline bodies, compiled twice: by samples.c for any
 * processor (what runs with framed's engines off) and by CFramedEngines' avx2rows.c for AVX2,
 * the two giving the same bits. For C only: not part of the Swift module. */
#ifndef CCODECS_SAMPLE_LOOPS_H
#define CCODECS_SAMPLE_LOOPS_H

#include <stdint.h>
#include <string.h>

/* Each sum is multiplications then additions, never fused (a fused multiply-add rounds once
 * where these round twice), so that the plain and AVX2 builds give the same bits. (The pragma
 * holds for the rest of each file that includes this header.) */
#pragma STDC FP_CONTRACT OFF

typedef float ccodecs_floats4 __attribute__((vector_size(16)));
typedef float ccodecs_floats8 __attribute__((vector_size(32)));

/* The horizontal pass: the eight lanes hold a pixel's even tap (0-3) and its odd tap (4-7), so
 * the two halves are the two sums that the pass keeps. Compiled twice (samples.c, avx2rows.c). */
static inline __attribute__((always_inline)) void ccodecs_horizontally(const float *line, float *out, size_t width,
                                                                       const intptr_t *starts, const intptr_t *counts,
                                                                       const float *weights, size_t stride) {
    for (size_t x = 0; x < width; x++, out += 4, weights += stride) {
        const float *p = line + 4 * starts[x], *q = weights;
        intptr_t n = counts[x], k = 0;
        ccodecs_floats8 pair = {0, 0, 0, 0, 0, 0, 0, 0};
        for (; k + 2 <= n; k += 2, p += 8, q += 8) {
            ccodecs_floats8 v, w;
            memcpy(&v, p, sizeof v);
            memcpy(&w, q, sizeof w);
            pair += v * w;
        }
        ccodecs_floats4 even = {pair[0], pair[1], pair[2], pair[3]}, odd = {pair[4], pair[5], pair[6], pair[7]};
        if (k < n) {
            ccodecs_floats4 v, w;
            memcpy(&v, p, sizeof v);
            memcpy(&w, q, sizeof w);
            even += v * w;
        }
        ccodecs_floats4 sum = even + odd;
        memcpy(out, &sum, sizeof sum);
    }
}

/* The vertical pass, eight floats at a time (the rest one by one, the same sums). */
static inline __attribute__((always_inline)) void ccodecs_vertically(const float *const *rows, const float *weights,
                                                                     int count, float *sum, size_t n) {
    memset(sum, 0, n * sizeof *sum);
    int k = 0;
    for (; k + 4 <= count; k += 4) {
        const float *r0 = rows[k], *r1 = rows[k + 1], *r2 = rows[k + 2], *r3 = rows[k + 3];
        float w0 = weights[k], w1 = weights[k + 1], w2 = weights[k + 2], w3 = weights[k + 3];
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            ccodecs_floats8 a, b, c, d, s;
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
            ccodecs_floats8 a, b, s;
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
            ccodecs_floats8 a, s;
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
static inline __attribute__((always_inline)) void ccodecs_load(const uint8_t *rgba, float *line, size_t pixels,
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
        ccodecs_floats8 v = __builtin_convertvector(b, ccodecs_floats8);
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

#endif
