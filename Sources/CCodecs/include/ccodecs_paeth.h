/* PNG's Paeth predictor, for deflate.c (filtering) and framed's PNG reader (CFramedEngines'
 * pngdata.c, unfiltering). For C only: not part of the Swift module. */
#ifndef CCODECS_PAETH_H
#define CCODECS_PAETH_H

#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Of a (left), b (above) and c (above left), the one nearest a + b - c; ties go to a, then b. */
static inline int ccodecs_paeth(int a, int b, int c) {
    int p = b - c, q = a - c;
    int pa = p < 0 ? -p : p, pb = q < 0 ? -q : q, pc = p + q < 0 ? -(p + q) : p + q;
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

#ifdef __SSE2__
static inline __m128i ccodecs_abs_epi16(__m128i x) {
    return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
}

/* `yes` where `mask` is set, else `no`. */
static inline __m128i ccodecs_select(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

/* ccodecs_paeth on eight 16-bit lanes of samples 0-255. */
static inline __m128i ccodecs_paeth_epi16(__m128i a, __m128i b, __m128i c) {
    __m128i p = _mm_sub_epi16(b, c), q = _mm_sub_epi16(a, c);
    __m128i pa = ccodecs_abs_epi16(p), pb = ccodecs_abs_epi16(q), pc = ccodecs_abs_epi16(_mm_add_epi16(p, q));
    __m128i least = _mm_min_epi16(pa, _mm_min_epi16(pb, pc));
    return ccodecs_select(_mm_cmpeq_epi16(least, pa), a, ccodecs_select(_mm_cmpeq_epi16(least, pb), b, c));
}
#endif

#endif
