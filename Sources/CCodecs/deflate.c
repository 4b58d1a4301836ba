/* zlib streams (RFC 1950) for PDF FlateDecode and PNG rows: the rows PNG-filtered here and
 * deflated by zlib (libpng links it anyway), or by a writer of framed's own that the caller
 * hands in (ccodecs_hooks.h; CFramedEngines' fastdeflate.c) for flat pictures' bands. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ccodecs.h"
#include "ccodecs_common.h"
#include "ccodecs_hooks.h"
#include "ccodecs_paeth.h"

int ccodecs_deflate(const uint8_t *data, size_t size, int level, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    if (level < 0 || level > 9) {
        ccodecs_message(message, "zlib level %d is not 0 to 9", level);
        return CCODECS_BAD_ARGUMENT;
    }
    uLong bound = compressBound((uLong)size);
    out->data = malloc(bound > 0 ? bound : 1);
    if (!out->data) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    uLongf written = bound;
    int status = compress2(out->data, &written, size ? data : (const Bytef *)"", (uLong)size, level);
    if (status != Z_OK) {
        free(out->data);
        memset(out, 0, sizeof *out);
        ccodecs_message(message, "zlib: %s", status == Z_MEM_ERROR ? "out of memory" : "cannot compress");
        return status == Z_MEM_ERROR ? CCODECS_NO_MEMORY : CCODECS_BAD_ARGUMENT;
    }
    out->size = written;
    out->capacity = bound;
    return CCODECS_OK;
}

int ccodecs_inflate(const uint8_t *data, size_t size, size_t limit, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    size_t capacity = size < limit / 4 ? size * 4 + 64 : limit;
    if (capacity > limit) capacity = limit;
    int result = CCODECS_OK, status = Z_OK;
    out->data = malloc(capacity > 0 ? capacity : 1);
    if (!out->data) result = CCODECS_NO_MEMORY;
    z.next_in = (Bytef *)data;
    while (result == CCODECS_OK && status != Z_STREAM_END) {
        if (out->size == capacity) {
            if (capacity >= limit) { result = CCODECS_TOO_LARGE; break; }
            size_t grown = capacity > limit / 2 ? limit : capacity * 2;
            uint8_t *bigger = realloc(out->data, grown);
            if (!bigger) { result = CCODECS_NO_MEMORY; break; }
            out->data = bigger;
            capacity = grown;
        }
        /* zlib counts in uInt: feed and take at most 1 GB at a time. */
        size_t consumed = (size_t)(z.next_in - (const Bytef *)data);
        size_t in_left = size - consumed, out_left = capacity - out->size;
        z.avail_in = (uInt)(in_left < (1u << 30) ? in_left : (1u << 30));
        z.next_out = out->data + out->size;
        z.avail_out = (uInt)(out_left < (1u << 30) ? out_left : (1u << 30));
        uInt before = z.avail_out;
        status = inflate(&z, Z_NO_FLUSH);
        out->size += before - z.avail_out;
        if (status == Z_MEM_ERROR) result = CCODECS_NO_MEMORY;
        else if (status == Z_NEED_DICT || status == Z_DATA_ERROR) result = CCODECS_ERROR;
        else if (status == Z_BUF_ERROR && z.avail_in == 0 && z.avail_out > 0) result = CCODECS_ERROR; /* cut short */
    }
    inflateEnd(&z);
    if (result != CCODECS_OK) {
        free(out->data);
        memset(out, 0, sizeof *out);
        ccodecs_message(message, result == CCODECS_NO_MEMORY ? "out of memory"
                        : result == CCODECS_TOO_LARGE ? "inflates to more than the limit" : "zlib: the data is corrupt or cut short");
        return result;
    }
    out->capacity = capacity;
    return CCODECS_OK;
}

/* One row of a plane, PNG Paeth-filtered: the filter byte 4, then each sample minus the Paeth
 * predictor of its left, upper and upper-left neighbours (0 outside the picture; `above` is a
 * row of zeros for the picture's first row). Filtering reads only the unfiltered rows, so with
 * SSE2 sixteen samples go at a time, in 16-bit lanes. */
static void paeth_row(uint8_t *restrict out, const uint8_t *restrict raw, const uint8_t *restrict above,
                      size_t count, size_t bpp) {
    out[0] = 4;
    out++;
    /* No left neighbour: the predictor is the sample above. */
    size_t i;
    for (i = 0; i < bpp && i < count; i++) out[i] = (uint8_t)(raw[i] - above[i]);
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= count; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(raw + i));
        __m128i a = _mm_loadu_si128((const __m128i *)(raw + i - bpp));
        __m128i b = _mm_loadu_si128((const __m128i *)(above + i));
        __m128i c = _mm_loadu_si128((const __m128i *)(above + i - bpp));
        __m128i low = ccodecs_paeth_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero),
                                          _mm_unpacklo_epi8(c, zero));
        __m128i high = ccodecs_paeth_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero),
                                           _mm_unpackhi_epi8(c, zero));
        _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi8(x, _mm_packus_epi16(low, high)));
    }
#endif
    for (; i < count; i++) out[i] = (uint8_t)(raw[i] - ccodecs_paeth(raw[i - bpp], above[i], above[i - bpp]));
}

/* Byte `k` of each of `width` RGBA8 pixels (a gray plane: k = 0; alpha: k = 3). With SSE2
 * sixteen pixels at a time: each 32-bit lane shifted down to its byte, then packed. */
static void one_sample(uint8_t *restrict out, const uint8_t *restrict rgba, size_t width, int k) {
    size_t x = 0;
#ifdef __SSE2__
    const __m128i low_byte = _mm_set1_epi32(0xFF);
    const __m128i shift = _mm_cvtsi32_si128(8 * k);
    for (; x + 16 <= width; x += 16) {
        __m128i v[4];
        for (int i = 0; i < 4; i++)
            v[i] = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128((const __m128i *)(rgba + 4 * (x + 4 * (size_t)i))), shift),
                                 low_byte);
        _mm_storeu_si128((__m128i *)(out + x),
                         _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3])));
    }
#endif
    for (; x < width; x++) out[x] = rgba[4 * x + (size_t)k];
}

/* The plane's samples of one RGBA8 row. RGB: each pixel's four bytes copied three bytes apart,
 * so that the next pixel's copy overwrites the alpha (a load and a store a pixel, where byte by
 * byte was three of each: a third of the PDF's deflate_rows for a 1819x1213 screenshot). */
static void plane_row(uint8_t *restrict out, const uint8_t *restrict rgba, uint32_t width, int plane) {
    size_t x = 0;
    switch (plane) {
    case CCODECS_PLANE_RGB:
        for (; x + 1 < width; x++) memcpy(out + 3 * x, rgba + 4 * x, 4);
        for (; x < width; x++) memcpy(out + 3 * x, rgba + 4 * x, 3);
        break;
    case CCODECS_PLANE_GRAY:
        one_sample(out, rgba, width, 0);
        break;
    case CCODECS_PLANE_RGBA:
        memcpy(out, rgba, (size_t)width * 4);
        break;
    default:
        one_sample(out, rgba, width, 3);
        break;
    }
}

static size_t plane_samples(int plane) {
    return plane == CCODECS_PLANE_RGBA ? 4 : plane == CCODECS_PLANE_RGB ? 3 : 1;
}

/* zlib's strategy for a band of rows. A photo leaves few zero samples after Paeth filtering,
 * and the short matches that zlib's level 1 finds in it cost more than they save: run-length
 * matches alone (Z_RLE) give a 5 to 13 % smaller stream in half to two thirds of the time
 * (measured on the benchmark's photos at 1819x1213). A flat picture (a screenshot, a mat)
 * leaves mostly zeros, and there longer matches pay (Z_RLE was 12 % larger on the screenshot).
 * Decided from every eighth row of the band (`current`, `above` and `filtered`: scratch rows). */
static int band_strategy(const uint8_t *rgba, uint32_t width, uint32_t first_row, uint32_t rows, int plane,
                         uint8_t *current, uint8_t *above, uint8_t *filtered) {
    size_t bpp = plane_samples(plane), count = (size_t)width * bpp, stride = (size_t)width * 4;
    uint64_t zeros = 0, samples = 0;
    for (uint32_t r = 0; r < rows; r += 8) {
        uint32_t y = first_row + r;
        if (y > 0)
            plane_row(above, rgba + stride * (y - 1), width, plane);
        else
            memset(above, 0, count);
        plane_row(current, rgba + stride * y, width, plane);
        paeth_row(filtered, current, above, count, bpp);
        for (size_t i = 1; i <= count; i++) zeros += filtered[i] == 0;
        samples += count;
    }
    return zeros * 2 >= samples ? Z_DEFAULT_STRATEGY : Z_RLE;
}

size_t ccodecs_deflate_rows_bound(uint32_t width, uint32_t rows, int plane) {
    size_t n = ((size_t)width * plane_samples(plane) + 1) * rows;
    /* zlib's own conservative bound for any level and settings (deflateBound without a
     * stream, zlib 1.2.12's deflate.c), with room to spare for the sync flush's 5 bytes. */
    return n + (n >> 3) + (n >> 8) + (n >> 9) + 64;
}

int ccodecs_deflate_rows(const uint8_t *rgba, uint32_t width, uint32_t first_row, uint32_t rows,
                         int plane, int level, int last, const struct ccodecs_deflate_engine *writer,
                         uint8_t *out, size_t capacity, size_t *written, uint32_t *adler, char *message) {
    message[0] = 0;
    *written = 0;
    *adler = 1;
    if (level < 0 || level > 9 || plane < CCODECS_PLANE_RGB || plane > CCODECS_PLANE_RGBA || width == 0
        || capacity < ccodecs_deflate_rows_bound(width, rows, plane) || capacity > UINT32_MAX) {
        ccodecs_message(message, "bad arguments (level %d, plane %d, width %u, capacity %zu)", level, plane,
                        width, capacity);
        return CCODECS_BAD_ARGUMENT;
    }
    size_t bpp = plane_samples(plane), count = (size_t)width * bpp;
    size_t stride = (size_t)width * 4;
    /* Two plane rows (this one and the one above, zeros above the first) and the filtered row. */
    uint8_t *work = calloc(3 * count + 1, 1);
    if (!work) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    uint8_t *current = work, *above = work + count, *filtered = work + 2 * count;

    int strategy = level > 0 ? band_strategy(rgba, width, first_row, rows, plane, current, above, filtered)
                             : Z_DEFAULT_STRATEGY;
    memset(work, 0, 3 * count + 1);
    /* A flat picture's band at level 1 goes to the writer handed in, if any (framed's own,
     * fastdeflate.c, takes some 40 % less time than zlib's level 1 there). */
    void *lz = NULL;
    int own = writer && level == 1 && strategy == Z_DEFAULT_STRATEGY;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (own) {
        if (!(lz = writer->begin(out, capacity))) {
            free(work);
            ccodecs_message(message, "out of memory");
            return CCODECS_NO_MEMORY;
        }
    } else if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) {
        free(work);
        ccodecs_message(message, "zlib: out of memory");
        return CCODECS_NO_MEMORY;
    }
    z.next_out = out;
    z.avail_out = (uInt)capacity;

    uint32_t sum = 1;
    int status = Z_OK;
    if (first_row > 0) plane_row(above, rgba + stride * (first_row - 1), width, plane);
    for (uint32_t r = 0; r < rows && status == Z_OK; r++) {
        plane_row(current, rgba + stride * (first_row + r), width, plane);
        paeth_row(filtered, current, above, count, bpp);
        sum = ccodecs_adler32(sum, filtered, count + 1);
        if (own) {
            if (!writer->write(lz, filtered, count + 1)) status = Z_BUF_ERROR; /* cannot happen */
        } else {
            z.next_in = filtered;
            z.avail_in = (uInt)(count + 1);
            int flush = r + 1 < rows ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH);
            status = deflate(&z, flush);
            if (status == Z_STREAM_END || (status == Z_OK && z.avail_in == 0 && flush != Z_FINISH)) status = Z_OK;
            else if (status == Z_OK) status = Z_BUF_ERROR; /* the bound was too small: cannot happen */
        }
        uint8_t *swap = above; above = current; current = swap;
    }
    if (own) {
        *written = status == Z_OK ? writer->finish(lz, last) : 0;
        if (!*written) status = Z_BUF_ERROR;
        writer->release(lz);
    } else {
        if (rows == 0 && last) status = deflate(&z, Z_FINISH) == Z_STREAM_END ? Z_OK : Z_BUF_ERROR;
        *written = capacity - z.avail_out;
        deflateEnd(&z);
    }
    free(work);
    if (status != Z_OK) {
        *written = 0;
        ccodecs_message(message, own ? "cannot compress" : "zlib: cannot compress");
        return CCODECS_BAD_ARGUMENT;
    }
    *adler = sum;
    return CCODECS_OK;
}

uint32_t ccodecs_adler32(uint32_t adler, const uint8_t *data, size_t size) {
    enum { MOD = 65521, CHUNK = 5552 }; /* the most bytes before the sums must be reduced */
    uint64_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    while (size > 0) {
        size_t chunk = size < CHUNK ? size : CHUNK;
        size -= chunk;
#ifdef __SSE2__
        /* Sixteen bytes at a time: s2 gains 16 * s1 (s1 as it was before them) and each byte
         * weighted 16 down to 1; s1 gains their sum. */
        size_t blocks = chunk / 16;
        if (blocks) {
            const __m128i zero = _mm_setzero_si128();
            const __m128i first = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
            const __m128i second = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
            __m128i sums = zero, before = zero, weighted = zero;
            for (size_t b = 0; b < blocks; b++, data += 16) {
                __m128i bytes = _mm_loadu_si128((const __m128i *)data);
                before = _mm_add_epi32(before, sums);
                sums = _mm_add_epi32(sums, _mm_sad_epu8(bytes, zero));
                weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(bytes, zero), first));
                weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(bytes, zero), second));
            }
            uint32_t lane[4];
            uint64_t total = 0, prior = 0, mixed = 0;
            _mm_storeu_si128((__m128i *)lane, sums);
            total = (uint64_t)lane[0] + lane[2];
            _mm_storeu_si128((__m128i *)lane, before);
            prior = (uint64_t)lane[0] + lane[2];
            _mm_storeu_si128((__m128i *)lane, weighted);
            mixed = (uint64_t)lane[0] + lane[1] + lane[2] + lane[3];
            s2 += 16 * blocks * s1 + 16 * prior + mixed;
            s1 += total;
            chunk -= blocks * 16;
        }
#endif
        for (; chunk > 0; chunk--) {
            s1 += *data++;
            s2 += s1;
        }
        s1 %= MOD;
        s2 %= MOD;
    }
    return (uint32_t)(s2 << 16 | s1);
}

uint32_t ccodecs_adler32_combine(uint32_t a, uint32_t b, uint64_t b_length) {
    return (uint32_t)adler32_combine(a, b, (z_off_t)b_length);
}

uint32_t ccodecs_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    uLong sum = crc;
    while (size > 0) {
        uInt part = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
        sum = crc32(sum, data, part);
        data += part;
        size -= part;
    }
    return (uint32_t)sum;
}
