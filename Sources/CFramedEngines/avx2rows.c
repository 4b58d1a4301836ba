/* The resampler's loops (CCodecs' ccodecs_sample_loops.h) built for AVX2: framed's resampler
 * rows engine. With it off, or on a processor without AVX2, the same loops built for any
 * x86-64 (CCodecs' samples.c) run, with the same bits.
 *
 * Why: Swift code is built for the first x86-64 only, and eight lanes at a time take less time
 * than four. On the 2-core AMD EPYC where it was first measured, resampling 3000x2000 to
 * 1819x1213 took 17.5 ms with the plain build of these loops and 9.3 ms with this one (45 %
 * less). On a 2-core Xeon (with AVX-512), on one core, the loops alone (2000 rows of 3000 pixels
 * to 1819 with 10 taps, then 1213 vertical rows of 10) take 29.2 ms against 36.1 ms (19 % less);
 * in framed's jobs the resize mostly follows the decode on the second core, where the difference
 * does not show in the wall time (the screenshot's PDF job: 0.083 s against 0.080 s, make bench's
 * engines table). */
#include "ccodecs.h"
#include "ccodecs_sample_loops.h"
#include "framed_engines.h"
#include "avx2.h"

#ifdef FRAMED_HAS_AVX2_VERSIONS
__attribute__((target("avx2"))) static void load_row(const uint8_t *rgba, float *line, size_t pixels,
                                                     const float *unit) {
    ccodecs_load(rgba, line, pixels, unit);
}

__attribute__((target("avx2"))) static void filter_horizontally(const float *line, float *out, size_t width,
                                                                const intptr_t *starts, const intptr_t *counts,
                                                                const float *weights, size_t stride) {
    ccodecs_horizontally(line, out, width, starts, counts, weights, stride);
}

__attribute__((target("avx2"))) static void filter_vertically(const float *const *rows, const float *weights,
                                                              int count, float *sum, size_t n) {
    ccodecs_vertically(rows, weights, count, sum, n);
}

static const ccodecs_sample_loops avx2 = {load_row, filter_horizontally, filter_vertically};
#endif

const ccodecs_sample_loops *framed_engine_avx2rows(void) {
#ifdef FRAMED_HAS_AVX2_VERSIONS
    if (framed_use_avx2()) return &avx2;
#endif
    return NULL;
}
