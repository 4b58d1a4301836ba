/* libjpeg's YCbCr to RGB conversion, which framed's JPEG engines share: the reduced-scale decoder
 * (jpegreduced.c, eight pixels at a time) and the split progressive decoder (jpegsplit.c, one at
 * a time). Private to CFramedEngines. */
#ifndef FRAMED_YCC_H
#define FRAMED_YCC_H

#include <stdint.h>

/* libjpeg's conversion (jdcolor.c build_ycc_rgb_table, 16 fraction bits), which its SIMD
 * versions match exactly (checked at every scale on 4:2:0, 4:2:2 and 4:4:4). Its multipliers:
 * FIX(1.40200), FIX(1.77200), FIX(0.71414) and FIX(0.34414). */
enum { FRAMED_YCC_CR_R = 91881, FRAMED_YCC_CB_B = 116130, FRAMED_YCC_CR_G = 46802, FRAMED_YCC_CB_G = 22554 };

typedef struct {
    int cr_r[256], cb_b[256];
    int64_t cr_g[256], cb_g[256];
} framed_ycc_tables;

static inline void framed_ycc_tables_init(framed_ycc_tables *tables) {
    const int64_t half = (int64_t)1 << 15;
    for (int i = 0, x = -128; i < 256; i++, x++) {
        tables->cr_r[i] = (int)((FRAMED_YCC_CR_R * (int64_t)x + half) >> 16);
        tables->cb_b[i] = (int)((FRAMED_YCC_CB_B * (int64_t)x + half) >> 16);
        tables->cr_g[i] = -FRAMED_YCC_CR_G * (int64_t)x;
        tables->cb_g[i] = -FRAMED_YCC_CB_G * (int64_t)x + half;
    }
}

/* One pixel of Y, Cb, Cr as opaque RGBA. */
static inline void framed_ycc_pixel(const framed_ycc_tables *t, uint8_t *rgba, int y, int cb, int cr) {
    int r = y + t->cr_r[cr], g = y + (int)((t->cb_g[cb] + t->cr_g[cr]) >> 16), b = y + t->cb_b[cb];
    rgba[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    rgba[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    rgba[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
    rgba[3] = 255;
}

#endif
