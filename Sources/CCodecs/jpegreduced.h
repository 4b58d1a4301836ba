/* Baseline JPEGs at 1/8, 1/4, 3/8 and 1/2 scale with framed's own entropy decoding (jpegreduced.c),
 * and libjpeg's YCbCr to RGB conversion that it shares with jpeg.c. Not part of the public
 * header. */
#ifndef CCODECS_JPEGREDUCED_H
#define CCODECS_JPEGREDUCED_H

#include <stdint.h>
#include "ccodecs_common.h"

/* libjpeg's YCbCr to RGB conversion (jdcolor.c build_ycc_rgb_table, 16 fraction bits), which
 * its SIMD versions match exactly (checked at every scale on 4:2:0, 4:2:2 and 4:4:4). Its
 * multipliers: FIX(1.40200), FIX(1.77200), FIX(0.71414) and FIX(0.34414). */
enum { CCODECS_YCC_CR_R = 91881, CCODECS_YCC_CB_B = 116130, CCODECS_YCC_CR_G = 46802, CCODECS_YCC_CB_G = 22554 };

typedef struct {
    int cr_r[256], cb_b[256];
    int64_t cr_g[256], cb_g[256];
} ccodecs_ycc_tables;

void ccodecs_ycc_tables_init(ccodecs_ycc_tables *tables);

/* One pixel of Y, Cb, Cr as opaque RGBA. */
static inline void ccodecs_ycc_pixel(const ccodecs_ycc_tables *t, uint8_t *rgba, int y, int cb, int cr) {
    int r = y + t->cr_r[cr], g = y + (int)((t->cb_g[cb] + t->cr_g[cr]) >> 16), b = y + t->cb_b[cb];
    rgba[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    rgba[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    rgba[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
    rgba[3] = 255;
}

typedef struct ccodecs_reduced ccodecs_reduced;

/* A plan to decode the single scan of the JPEG whose header libjpeg has read into `cinfo` (a
 * struct jpeg_decompress_struct, with the output size worked out at scale 1/8, 1/4, 3/8 or 1/2),
 * from `data_start`, the offset of its first entropy-coded byte in `input`. NULL when the file is
 * not one this decoder handles (see jpegreduced.c), or out of memory: libjpeg decodes it.
 * always_split (tests): on two threads whatever the size, the first waiting for the second
 * where they meet, so that the second one's part is always used. */
ccodecs_reduced *ccodecs_reduced_plan(void *cinfo, const ccodecs_input *input, size_t data_start,
                                      int always_split);

/* Decodes the picture into `pixels` (RGBA, placed by `layout`), on `threads` threads (1 or 2;
 * at 1/4 and 1/2 it returns 0 at once unless it can use two). In the stored layout, each row
 * is published to `reader`'s watcher (ccodecs_rows_published) once written; *published is
 * how many were. Returns 1 or 2 (the threads used) when every pixel is written as libjpeg
 * would write it; 0 when the file holds anything the decoder does not handle exactly
 * (corrupt data, a missing EOI, values out of the range where libjpeg's SIMD and C code
 * agree...): then the caller decodes with libjpeg, which also reports the file's faults in
 * its own words, and must leave the rows already published as they are (they hold libjpeg's
 * pixels; others may have been written too, and are to be written again). */
int ccodecs_reduced_decode(ccodecs_reduced *plan, uint8_t *pixels, ccodecs_layout layout, int threads,
                           ccodecs_reader *reader, uint32_t *published);

void ccodecs_reduced_free(ccodecs_reduced *plan);

#endif
