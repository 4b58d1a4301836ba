/* The deflate writers on the same PNG-filtered rows of flat pictures: framed's own
 * (CFramedEngines' fastdeflate.c), zlib's level 1 (default strategy and Z_RLE) and libdeflate
 * (levels 1-6); each stream is inflated back and checked. Times: the median of RUNS, on one core.
 * Then ccodecs_deflate_rows as framed calls it (planes and filtering included), one band, with
 * the own writer and with zlib. Built and run by Benchmarks/deflate-writers.sh, which makes the
 * inputs; the figures in fastdeflate.c's opening comment come from it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <png.h>
#include <zlib.h>
#include <libdeflate.h>
#include "ccodecs.h"
#include "ccodecs_hooks.h"
#include "framed_engines.h"

#define RUNS 15

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double median(double *v, int n) { qsort(v, n, sizeof *v, cmp); return v[n / 2]; }

/* RGBA rows of a PNG (libpng's simplified API). */
static uint8_t *load(const char *path, uint32_t *w, uint32_t *h) {
    png_image image; memset(&image, 0, sizeof image); image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) { fprintf(stderr, "%s: %s\n", path, image.message); exit(1); }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *rgba = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) { fprintf(stderr, "%s\n", image.message); exit(1); }
    *w = image.width; *h = image.height;
    return rgba;
}

static int paeth(int a, int b, int c) {
    int p = b - c, q = a - c, pa = abs(p), pb = abs(q), pc = abs(p + q);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* The plane's rows Paeth-filtered as ccodecs_deflate_rows filters them (filter byte 4 each). */
static uint8_t *filtered(const uint8_t *rgba, uint32_t w, uint32_t h, int plane, size_t *size) {
    int bpp = plane == CCODECS_PLANE_RGBA ? 4 : plane == CCODECS_PLANE_RGB ? 3 : 1;
    size_t count = (size_t)w * bpp;
    uint8_t *rows = calloc(2 * count, 1), *out = malloc((count + 1) * h);
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *cur = rows + (y & 1) * count, *above = rows + ((y + 1) & 1) * count;
        if (y == 0) memset(above, 0, count);
        for (uint32_t x = 0; x < w; x++)
            for (int k = 0; k < bpp; k++)
                cur[x * bpp + k] = rgba[((size_t)y * w + x) * 4 + (plane == CCODECS_PLANE_ALPHA ? 3 : k)];
        uint8_t *o = out + (size_t)y * (count + 1);
        o[0] = 4;
        for (size_t i = 0; i < count; i++) {
            int a = i >= (size_t)bpp ? cur[i - bpp] : 0, b = above[i], c = i >= (size_t)bpp ? above[i - bpp] : 0;
            o[1 + i] = (uint8_t)(cur[i] - paeth(a, b, c));
        }
    }
    free(rows);
    *size = (count + 1) * h;
    return out;
}

static uint8_t *check_buf;
static void check(const uint8_t *raw, size_t n, const uint8_t *stream, size_t size, const char *who) {
    z_stream z; memset(&z, 0, sizeof z);
    inflateInit2(&z, -15);
    z.next_in = (uint8_t *)stream; z.avail_in = (uInt)size; z.next_out = check_buf; z.avail_out = (uInt)n + 16;
    int r = inflate(&z, Z_FINISH);
    if (r != Z_STREAM_END || z.total_out != n || memcmp(check_buf, raw, n)) { fprintf(stderr, "%s: does not inflate back\n", who); exit(1); }
    inflateEnd(&z);
}

static size_t zlib1(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int strategy) {
    z_stream z; memset(&z, 0, sizeof z);
    deflateInit2(&z, 1, Z_DEFLATED, -15, 8, strategy);
    z.next_in = (uint8_t *)in; z.avail_in = (uInt)n; z.next_out = out; z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    size_t s = cap - z.avail_out;
    deflateEnd(&z);
    return s;
}

static void measure(const char *name, const char *path, int plane) {
    uint32_t w, h; uint8_t *rgba = load(path, &w, &h);
    size_t n; uint8_t *raw = filtered(rgba, w, h, plane, &n);
    size_t cap = n + n / 8 + 1024; uint8_t *out = malloc(cap);
    check_buf = realloc(check_buf, n + 16);
    double t[RUNS]; size_t size = 0;
    printf("%s: %ux%u, %.2f MB of filtered rows\n", name, w, h, n / 1e6);
    printf("  %-34s %8s %9s %8s\n", "writer (deflating alone, one core)", "ms", "bytes", "vs own");
    const struct ccodecs_deflate_engine *own = framed_engine_fastdeflate();
    size_t own_size = 0;
    for (int r = 0; r < RUNS; r++) { double s = now(); void *lz = own->begin(out, cap); own->write(lz, raw, n); size = own->finish(lz, 1); own->release(lz); t[r] = now() - s; }
    check(raw, n, out, size, "own"); own_size = size;
    printf("  %-34s %8.1f %9zu %+7.1f%%\n", "framed's own (fastdeflate.c)", 1e3 * median(t, RUNS), size, 0.0);
    for (int strategy = 0; strategy < 2; strategy++) {
        int st = strategy ? Z_RLE : Z_DEFAULT_STRATEGY;
        for (int r = 0; r < RUNS; r++) { double s = now(); size = zlib1(raw, n, out, cap, st); t[r] = now() - s; }
        check(raw, n, out, size, "zlib");
        printf("  %-34s %8.1f %9zu %+7.1f%%\n", strategy ? "zlib level 1, Z_RLE" : "zlib level 1", 1e3 * median(t, RUNS), size, 100.0 * ((double)size / own_size - 1));
    }
    for (int level = 1; level <= 6; level++) {
        struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
        for (int r = 0; r < RUNS; r++) { double s = now(); size = libdeflate_deflate_compress(c, raw, n, out, cap); t[r] = now() - s; }
        libdeflate_free_compressor(c);
        check(raw, n, out, size, "libdeflate");
        char label[64]; snprintf(label, sizeof label, "libdeflate %s level %d", LIBDEFLATE_VERSION_STRING, level);
        printf("  %-34s %8.1f %9zu %+7.1f%%\n", label, 1e3 * median(t, RUNS), size, 100.0 * ((double)size / own_size - 1));
    }
    /* End to end as framed calls it (planes and Paeth filtering included), one band. */
    size_t bound = ccodecs_deflate_rows_bound(w, h, plane); uint8_t *band = malloc(bound);
    char message[CCODECS_MESSAGE_SIZE];
    for (int writer = 0; writer < 2; writer++) {
        size_t written; uint32_t adler;
        for (int r = 0; r < RUNS; r++) { double s = now(); ccodecs_deflate_rows(rgba, w, 0, h, plane, 1, 1, writer ? NULL : own, band, bound, &written, &adler, message); t[r] = now() - s; }
        printf("  %-34s %8.1f %9zu\n", writer ? "ccodecs_deflate_rows, zlib" : "ccodecs_deflate_rows, own writer", 1e3 * median(t, RUNS), written);
    }
    free(band); free(out); free(raw); free(rgba);
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: measure RGB.png ALPHA.png CANVAS.png\n"); return 2; }
    measure("the screenshot's 300-dpi picture, RGB plane (png-rgba's PDF)", argv[1], CCODECS_PLANE_RGB);
    measure("the same picture's alpha plane (its /SMask)", argv[2], CCODECS_PLANE_ALPHA);
    measure("a framed PNG canvas, RGBA (png-rgba x2's output)", argv[3], CCODECS_PLANE_RGBA);
    return 0;
}
