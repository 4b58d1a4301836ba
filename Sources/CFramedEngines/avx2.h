/* Code built twice, for any processor of its family and for AVX2, picked at run time by
 * framed_use_avx2() (not by target_clones, whose ifunc resolver runs before a sanitizer's
 * runtime is up): the reduced-scale JPEG decoder's IDCTs and colour conversion, and the
 * resampler's loops (avx2rows.c). Private to CFramedEngines. */
#ifndef FRAMED_AVX2_H
#define FRAMED_AVX2_H

#if defined(__x86_64__) || defined(__i386__)
#define FRAMED_HAS_AVX2_VERSIONS 1
#endif

/* Whether the AVX2 versions are built and the processor runs them. */
static inline int framed_use_avx2(void) {
#ifdef FRAMED_HAS_AVX2_VERSIONS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

#endif
