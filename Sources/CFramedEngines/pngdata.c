/* framed's own reading of a PNG's image data, for the pictures that almost every photo and
 * screenshot is (takes): framed's PNG reader engine. libpng reads the chunks before it (the
 * wrapper, png.c).
 *
 * Why not libpng's rows: png_read_row inflates a row, unfilters it and converts it, all on one
 * thread, and for 16-bit RGB its Paeth unfiltering is a byte loop with a branch a byte (a third
 * of the decode). Here one thread reads the chunks and inflates into a ring of filtered rows
 * while the calling thread unfilters and converts them (SSE2 Paeth where there is SSE2). With
 * one thread the same steps take turns. Measured on a 2-core Xeon, FRAMED_ENGINES on and
 * -pngdata: the bench's 3000x2000 16-bit PNG decodes in 0.215 s against 0.371 s through libpng's
 * rows, its RGBA screenshot in 30 against 54 ms (framed-bench decode, medians of 9), and the
 * 16-bit PNG's job takes 0.210 against 0.382 s (make bench's engines table).
 *
 * The pixels are those libpng gives with png_set_scale_16, png_set_gray_to_rgb and
 * png_set_add_alpha (the tests and the PNG fuzz target compare the two), and so are the checks
 * up to the end of the zlib stream: each IDAT's CRC-32, not the stream's Adler-32 (png.c asks
 * libpng to skip it too). The chunks after the image data are png.c's to read. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <png.h> /* png_get_uint_32 */
#include <zlib.h>
#include "ccodecs_hooks.h"
#include "ccodecs_paeth.h"
#include "framed_engines.h"

/* Not interlaced, 8 or 16 bits a sample, gray, gray and alpha, RGB or RGBA, without tRNS:
 * others go through libpng's rows. */
static int takes(int color_type, int bit_depth, int interlaced, int has_trns) {
    int type_ok = color_type == 0 || color_type == 2 || color_type == 4 || color_type == 6;
    return type_ok && (bit_depth == 8 || bit_depth == 16) && !interlaced && !has_trns;
}

/* Input is read and inflated in pieces of this many bytes; a piece of output is published to
 * the other thread at once. */
#define PIECE 32768

/* File input is read ahead this many bytes at a time: chunk headers, data and CRCs come out
 * of one read rather than three a chunk (encoders write IDAT chunks of 8 or 32 KB). */
#define WINDOW (256u << 10)

/* The ring holds about this many bytes of filtered rows, and at least two rows: the row being
 * unfiltered and the one above it (so no more than libpng's own two row buffers). */
#define RING_BYTES (1u << 20)

/* Pictures with fewer bytes of rows are read on the calling thread alone. */
#define THREAD_MIN_BYTES (1u << 20)

typedef struct {
    const ccodecs_png_data *data;
    size_t channels, bpp;     /* samples a pixel; bytes a pixel as stored */
    size_t rowbytes, slot;    /* bytes of a row's samples; with its filter byte */
    uint64_t total;           /* bytes of all filtered rows */
    uint8_t *ring;            /* `slots` filtered rows */
    uint32_t slots;

    /* The reading side (the second thread, if any). */
    z_stream z;
    int z_ready;
    ccodecs_window window;    /* file input: WINDOW bytes read ahead (buffer malloc'd) */
    size_t next_chunk;        /* offset of the next chunk's length field */
    size_t chunk_at, chunk_left; /* the current IDAT chunk: its next data byte, how many remain */
    uint32_t crc;             /* of the current chunk's type and data so far */
    uint64_t produced;        /* bytes of filtered rows inflated */
    int stream_ended;         /* zlib has seen the end of the stream */
    char warning[CCODECS_MESSAGE_SIZE]; /* "" or the reading side's warning */

    /* Shared, under `lock` when there are two threads. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint32_t rows_in;         /* rows inflated in full */
    uint32_t rows_free;       /* rows whose slots may be written over */
    int done;                 /* the reading side has stopped */
    int status;               /* its status when done */
    int stop;                 /* the converting side gave up */
    char message[CCODECS_MESSAGE_SIZE];
} data_reader;

/* The reading side's failure (its message is read once it is done). */
static int fail(data_reader *r, int status, const char *text) {
    ccodecs_message(r->message, "%s", text);
    return status;
}

/* The reading side's failure for what inflate returned: a status, or CCODECS_OK when zlib
 * may go on (Z_OK, Z_BUF_ERROR: it needs more input or room; Z_STREAM_END). */
static int inflate_failure(data_reader *r, int z) {
    if (z == Z_OK || z == Z_BUF_ERROR || z == Z_STREAM_END) return CCODECS_OK;
    if (z == Z_MEM_ERROR) return fail(r, CCODECS_NO_MEMORY, "out of memory");
    return fail(r, CCODECS_ERROR, r->z.msg ? r->z.msg : "Decompression error");
}

/* `count` input bytes (at most WINDOW) at `offset`: where they are in memory, or in the
 * read-ahead window, read again from `offset` on when they are not all in it. Else an error
 * status. Call only when zlib holds no input from the window. */
static int view(data_reader *r, size_t offset, size_t count, const uint8_t **bytes) {
    if (offset > r->data->end || count > r->data->end - offset) return fail(r, CCODECS_ERROR, "premature end of data");
    ptrdiff_t got = ccodecs_window_look(&r->window, offset, count, r->data->end, bytes);
    if (got < 0) return fail(r, CCODECS_UNREADABLE, strerror(errno));
    if ((size_t)got < count) return fail(r, CCODECS_ERROR, "premature end of data"); /* it shrank */
    return CCODECS_OK;
}

/* Ends the current chunk (checking its CRC-32) and opens the next one, which must be IDAT;
 * zero-length chunks are passed over. */
static int next_chunk(data_reader *r, int first) {
    const uint8_t *bytes;
    int status;
    if (!first) {
        if ((status = view(r, r->next_chunk - 4, 4, &bytes))) return status;
        if (png_get_uint_32(bytes) != r->crc) return fail(r, CCODECS_ERROR, "IDAT: CRC error");
    }
    if ((status = view(r, r->next_chunk, 8, &bytes))) return status;
    if (memcmp(bytes + 4, "IDAT", 4)) return fail(r, CCODECS_ERROR, "Not enough image data");
    uint32_t length = png_get_uint_32(bytes);
    if (length > 0x7fffffffu) return fail(r, CCODECS_ERROR, "PNG unsigned integer out of range");
    r->chunk_at = r->next_chunk + 8;
    r->chunk_left = length;
    r->next_chunk = r->chunk_at + (size_t)length + 4;
    r->crc = (uint32_t)crc32(0, bytes + 4, 4);
    return CCODECS_OK;
}

/* The next piece (at most PIECE bytes) of the current chunk's data, its CRC-32 counted. */
static int take_piece(data_reader *r, const uint8_t **bytes, size_t *count) {
    *count = r->chunk_left < PIECE ? r->chunk_left : PIECE;
    int status = view(r, r->chunk_at, *count, bytes);
    if (status) return status;
    r->crc = (uint32_t)crc32(r->crc, *bytes, (uInt)*count);
    r->chunk_at += *count;
    r->chunk_left -= *count;
    return CCODECS_OK;
}

/* Gives zlib the next piece of image data, opening the next IDAT when this one is over. */
static int feed(data_reader *r) {
    int status;
    while (r->chunk_left == 0)
        if ((status = next_chunk(r, 0))) return status;
    const uint8_t *bytes;
    size_t count;
    if ((status = take_piece(r, &bytes, &count))) return status;
    r->z.next_in = (Bytef *)bytes;
    r->z.avail_in = (uInt)count;
    return CCODECS_OK;
}

/* Inflates into the ring until r->produced reaches `limit` (at most the free part of the ring,
 * and all rows at most). */
static int inflate_to(data_reader *r, uint64_t limit) {
    uint64_t ring_bytes = (uint64_t)r->slots * r->slot;
    while (r->produced < limit) {
        if (r->z.avail_in == 0) {
            int status = feed(r);
            if (status) return status;
        }
        uint64_t at = r->produced % ring_bytes, room = ring_bytes - at;
        if (room > limit - r->produced) room = limit - r->produced;
        r->z.next_out = r->ring + at;
        r->z.avail_out = (uInt)room;
        int z = inflate(&r->z, Z_NO_FLUSH);
        r->produced += room - r->z.avail_out;
        if (z == Z_STREAM_END) {
            r->stream_ended = 1;
            if (r->produced < r->total) return fail(r, CCODECS_ERROR, "Not enough image data");
            break;
        }
        int status = inflate_failure(r, z);
        if (status) return status;
    }
    return CCODECS_OK;
}

/* After the last row, what libpng's png_read_finish_IDAT does: inflate on to the end of the
 * zlib stream (through further IDAT chunks if need be; more rows, or bytes after the stream's
 * end, are only a warning), then check the CRC-32 of the chunk where it ends. */
static int finish_stream(data_reader *r) {
    uint8_t scratch[256];
    while (!r->stream_ended) {
        if (r->z.avail_in == 0) {
            int status = feed(r);
            if (status) return status;
        }
        r->z.next_out = scratch;
        r->z.avail_out = sizeof scratch;
        int z = inflate(&r->z, Z_NO_FLUSH);
        if (r->z.avail_out < sizeof scratch) {
            ccodecs_message(r->warning, "IDAT: Too much image data");
            break;
        }
        if (z == Z_STREAM_END) r->stream_ended = 1;
        int status = inflate_failure(r, z);
        if (status) return status;
    }
    if (r->stream_ended && !r->warning[0] && (r->z.avail_in > 0 || r->chunk_left > 0))
        ccodecs_message(r->warning, "IDAT: Extra compressed data");
    /* The rest of the chunk, for its CRC. */
    int status;
    while (r->chunk_left > 0) {
        const uint8_t *bytes;
        size_t count;
        if ((status = take_piece(r, &bytes, &count))) return status;
    }
    const uint8_t *crc;
    if ((status = view(r, r->next_chunk - 4, 4, &crc))) return status;
    return png_get_uint_32(crc) == r->crc ? CCODECS_OK : fail(r, CCODECS_ERROR, "IDAT: CRC error");
}

/* How far the reading side may inflate now. */
static uint64_t inflate_limit(const data_reader *r) {
    uint64_t limit = ((uint64_t)r->rows_free + r->slots) * r->slot;
    return limit < r->total ? limit : r->total;
}

/* The second thread: inflates a piece at a time, waiting while the ring is full. */
static void *reading_thread(void *context) {
    data_reader *r = context;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->stop && r->produced >= inflate_limit(r)) pthread_cond_wait(&r->changed, &r->lock);
        if (r->stop) break;
        uint64_t limit = inflate_limit(r);
        pthread_mutex_unlock(&r->lock);
        if (limit > r->produced + PIECE) limit = r->produced + PIECE;
        int status = inflate_to(r, limit);
        if (!status && r->produced == r->total) {
            pthread_mutex_lock(&r->lock);
            r->rows_in = (uint32_t)(r->produced / r->slot); /* the last rows go first */
            pthread_cond_broadcast(&r->changed);
            pthread_mutex_unlock(&r->lock);
            status = finish_stream(r);
        }
        pthread_mutex_lock(&r->lock);
        r->rows_in = (uint32_t)(r->produced / r->slot);
        if (status || r->produced == r->total) {
            r->status = status;
            r->done = 1;
        }
        pthread_cond_broadcast(&r->changed);
        if (r->done) break;
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

#if defined(__SSE2__) && defined(__x86_64__) /* 64-bit moves into vectors */
/* `bpp` (3 to 8) bytes at p into the low lanes of a vector of 16-bit lanes. Inlined with a
 * constant bpp, the copies become plain loads and stores. */
static inline __attribute__((always_inline)) __m128i load_pixel(const uint8_t *p, size_t bpp) {
    uint64_t v = 0;
    memcpy(&v, p, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)v), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void store_pixel(uint8_t *p, __m128i pixel, size_t bpp) {
    uint64_t v = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pixel, pixel));
    memcpy(p, &v, bpp);
}

/* Paeth for pixels of 3 to 8 bytes, a pixel at a time in 16-bit lanes (as libpng does for 3
 * and 4 bytes). */
static inline __attribute__((always_inline)) void unpaeth_sse2(uint8_t *row, const uint8_t *prev,
                                                               size_t rowbytes, size_t bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= rowbytes; i += bpp) {
        __m128i b = load_pixel(prev + i, bpp), x = load_pixel(row + i, bpp);
        a = _mm_and_si128(_mm_add_epi16(x, ccodecs_paeth_epi16(a, b, c)), _mm_set1_epi16(0xff));
        store_pixel(row + i, a, bpp);
        c = b;
    }
}
#endif

/* Undoes the row's filter in place (`prev`: the row above, unfiltered; zeros for the first). */
static int unfilter(int filter, uint8_t *row, const uint8_t *prev, size_t rowbytes, size_t bpp) {
    size_t i;
    switch (filter) {
    case 0:
        break;
    case 1:
        for (i = bpp; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        break;
    case 2:
        for (i = 0; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        break;
    case 3:
        for (i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + (prev[i] >> 1));
        for (; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + prev[i]) >> 1));
        break;
    case 4:
#if defined(__SSE2__) && defined(__x86_64__)
        switch (bpp) { /* each its own copy, with bpp constant */
        case 3: unpaeth_sse2(row, prev, rowbytes, 3); return 1;
        case 4: unpaeth_sse2(row, prev, rowbytes, 4); return 1;
        case 6: unpaeth_sse2(row, prev, rowbytes, 6); return 1;
        case 8: unpaeth_sse2(row, prev, rowbytes, 8); return 1;
        }
#endif
        for (i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        for (; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + ccodecs_paeth(row[i - bpp], prev[i], prev[i - bpp]));
        break;
    default:
        return 0;
    }
    return 1;
}

/* A 16-bit sample (big-endian) to 8 bits as libpng's png_set_scale_16: round(v * 255 / 65535). */
static inline uint8_t scale16(const uint8_t *p) {
    uint32_t v = (uint32_t)p[0] << 8 | p[1];
    return (uint8_t)((v * 255 + 32895) >> 16);
}

/* One unfiltered row to RGBA8. */
static void convert(const uint8_t *row, uint8_t *rgba, uint32_t width, size_t channels, int sixteen) {
    if (!sixteen && channels == 4) {
        memcpy(rgba, row, (size_t)width * 4);
        return;
    }
    size_t step = sixteen ? 2 : 1;
    for (uint32_t x = 0; x < width; x++, rgba += 4) {
        uint8_t s[4];
        for (size_t k = 0; k < channels; k++, row += step) s[k] = sixteen ? scale16(row) : row[0];
        switch (channels) {
        case 1: rgba[0] = rgba[1] = rgba[2] = s[0]; rgba[3] = 0xff; break;
        case 2: rgba[0] = rgba[1] = rgba[2] = s[0]; rgba[3] = s[1]; break;
        case 3: rgba[0] = s[0]; rgba[1] = s[1]; rgba[2] = s[2]; rgba[3] = 0xff; break;
        default: memcpy(rgba, s, 4); break;
        }
    }
}

/* Waits until row y has been inflated (two threads), or inflates it (one). */
static int wait_for_row(data_reader *r, uint32_t y, int threaded) {
    if (!threaded) {
        if (r->rows_in > y) return CCODECS_OK;
        int status = inflate_to(r, inflate_limit(r));
        r->rows_in = (uint32_t)(r->produced / r->slot);
        return status;
    }
    pthread_mutex_lock(&r->lock);
    while (r->rows_in <= y && !r->done) pthread_cond_wait(&r->changed, &r->lock);
    int status = r->rows_in > y ? CCODECS_OK : r->status ? r->status : CCODECS_ERROR;
    pthread_mutex_unlock(&r->lock);
    return status;
}

/* Rows before `rows` are no longer needed: their slots may be written over. */
static void free_rows(data_reader *r, uint32_t rows, int threaded) {
    if (!threaded) {
        r->rows_free = rows;
        return;
    }
    pthread_mutex_lock(&r->lock);
    r->rows_free = rows;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

/* The converting side: each row in turn, unfiltered in its slot (the row above stays in its
 * slot until this one is done), converted into place. */
static int convert_rows(data_reader *r, uint8_t *pixels, ccodecs_layout layout, ccodecs_reader *reader,
                        uint8_t *zeros, uint8_t *spare, int threaded, char *message) {
    const ccodecs_png_data *data = r->data;
    uint32_t width = data->width;
    size_t stride = (size_t)width * 4;
    int stored = ccodecs_layout_is_stored(layout, width);
    const uint8_t *prev = zeros;
    for (uint32_t y = 0; y < data->height; y++) {
        int status = wait_for_row(r, y, threaded);
        if (status) {
            ccodecs_message(message, "%s", r->message); /* the reading side has stopped */
            return status;
        }
        uint8_t *slot = r->ring + (size_t)(y % r->slots) * r->slot;
        if (!unfilter(slot[0], slot + 1, prev, r->rowbytes, r->bpp)) {
            ccodecs_message(message, "bad adaptive filter value");
            return CCODECS_ERROR;
        }
        uint8_t *to = stored ? pixels + stride * y : spare;
        convert(slot + 1, to, width, r->channels, data->bit_depth == 16);
        if (stored)
            ccodecs_rows_published(reader, y + 1);
        else
            ccodecs_place_row(pixels, layout, y, spare, width);
        prev = slot + 1;
        free_rows(r, y, threaded); /* row y is the next one's row above */
    }
    /* The end of the stream and the last CRC, as libpng checks them. */
    int status;
    if (threaded) {
        pthread_mutex_lock(&r->lock);
        while (!r->done) pthread_cond_wait(&r->changed, &r->lock);
        status = r->status;
        pthread_mutex_unlock(&r->lock);
    } else {
        status = finish_stream(r);
    }
    if (status) ccodecs_message(message, "%s", r->message);
    return status;
}

static int read_data(const ccodecs_png_data *data, uint8_t *pixels, ccodecs_layout layout, ccodecs_reader *reader,
                     ccodecs_decoded *out, size_t *after, char *message) {
    if (!takes(data->color_type, data->bit_depth, 0, 0) || !data->width || !data->height) {
        ccodecs_message(message, "unsupported PNG layout for framed's reader");
        return CCODECS_BAD_ARGUMENT;
    }
    data_reader r = {.data = data, .channels = (size_t)ccodecs_png_samples(data->color_type)};
    r.bpp = r.channels * (size_t)(data->bit_depth / 8);
    r.rowbytes = (size_t)data->width * r.bpp;
    r.slot = r.rowbytes + 1;
    r.total = (uint64_t)r.slot * data->height;
    uint64_t slots = RING_BYTES / r.slot;
    if (slots < 2) slots = 2;
    if (slots > data->height) slots = data->height;
    r.slots = (uint32_t)slots;
    r.next_chunk = data->first_chunk;

    int threaded = data->threads > 1 && r.total >= THREAD_MIN_BYTES;
    int status = CCODECS_NO_MEMORY;
    uint8_t *zeros = calloc(1, r.rowbytes);
    uint8_t *spare = ccodecs_layout_is_stored(layout, data->width) ? NULL : malloc((size_t)data->width * 4);
    r.ring = malloc((size_t)r.slots * r.slot);
    r.window = (ccodecs_window){.input = data->input, .capacity = WINDOW};
    if (!data->input->data) r.window.buffer = malloc(WINDOW);
    int allocated = zeros && r.ring && (data->input->data || r.window.buffer) &&
                    (spare || ccodecs_layout_is_stored(layout, data->width));
    if (allocated) {
        if (inflateInit(&r.z) == Z_OK) {
            r.z_ready = 1;
            status = CCODECS_OK;
        }
    }
    if (status) {
        ccodecs_message(message, "out of memory");
    } else {
        /* Every IDAT byte is under its chunk's CRC-32, checked here; zlib's Adler-32 need not be. */
        inflateValidate(&r.z, 0);
        if ((status = next_chunk(&r, 1))) ccodecs_message(message, "%s", r.message);
    }
    pthread_t thread;
    if (!status && threaded) {
        pthread_mutex_init(&r.lock, NULL);
        pthread_cond_init(&r.changed, NULL);
        if (pthread_create(&thread, NULL, reading_thread, &r)) {
            pthread_cond_destroy(&r.changed);
            pthread_mutex_destroy(&r.lock);
            threaded = 0; /* no thread: the calling one does both */
        }
    }
    if (!status) {
        status = convert_rows(&r, pixels, layout, reader, zeros, spare, threaded, message);
        if (threaded) {
            pthread_mutex_lock(&r.lock);
            r.stop = 1;
            pthread_cond_broadcast(&r.changed);
            pthread_mutex_unlock(&r.lock);
            pthread_join(thread, NULL);
            pthread_cond_destroy(&r.changed);
            pthread_mutex_destroy(&r.lock);
        }
    }
    if (!status && r.warning[0]) ccodecs_note_warning(out, r.warning);
    *after = r.next_chunk;
    if (r.z_ready) inflateEnd(&r.z);
    free(r.window.buffer);
    free(r.ring);
    free(spare);
    free(zeros);
    return status;
}

static const struct ccodecs_png_data_engine engine = {takes, read_data};

const struct ccodecs_png_data_engine *framed_engine_pngdata(void) { return &engine; }
