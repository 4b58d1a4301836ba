/* A JPEG encoded in parts on two threads: framed's own encoder of the JPEGs that SVG and PDF
 * embed, built on libjpeg's (ccodecs_jpeg_encode_rgb).
 *
 * Why: libjpeg encodes on one thread, and a re-encoded picture is a good part of an SVG or PDF
 * job (the bench's jpeg24 PDF re-encodes a 1819x1213 picture). Measured on a 2-core Xeon: that
 * picture at quality 90 takes 9.5 ms whole, 5.0 ms in two parts on two threads (the medians of
 * 11 encodes); in the PDF job itself the difference is lost in the rest (0.095 s with the engine
 * and without, make bench's engines table).
 *
 * How: a baseline picture of 32 rows of MCUs or more is written with a restart interval of
 * half its rows of MCUs (framed_engine_jpeg_parts); each half is encoded apart, as a file of its
 * own with that interval, and the halves are joined: the first with its SOF's height set to the
 * whole picture's, then each further part's entropy-coded data after a restart marker. Those
 * are the bytes that libjpeg writes for the whole picture with that restart interval, whatever
 * the number of threads; what the engine adds to a plain encode is the restart markers (a plain
 * libjpeg encode has none: with this engine off, framed's JPEGs differ by those markers). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ccodecs_common.h"
#include "framed_engines.h"

/* In parts, a baseline JPEG of at least twice this many rows of MCUs is written with a
 * restart interval of half of them, whatever the thread count, so that the halves can be
 * encoded on two threads and joined. */
#define MIN_PART_MCU_ROWS 16

/* Pictures of fewer pixels are encoded on one thread (a thread's start would cost more than
 * it saves). Their bytes are the same either way. */
#define PARALLEL_PIXELS (1u << 19)

void framed_engine_jpeg_parts(uint32_t width, uint32_t height, int flags, framed_jpeg_parts *split) {
    *split = (framed_jpeg_parts){1, height, 0};
    if (width == 0 || height == 0 ||
        flags & (CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_ARITHMETIC | CCODECS_JPEG_RESTARTS | CCODECS_JPEG_RESTARTS_7))
        return;
    /* The MCU of libjpeg's defaults: luma 2x2 (4:2:0), or as the test flags set it. */
    int one = (flags & (CCODECS_JPEG_GRAYSCALE | CCODECS_JPEG_CHROMA_444)) != 0;
    uint32_t mcu_width = one ? 8 : 16, mcu_height = one || (flags & CCODECS_JPEG_CHROMA_422) ? 8 : 16;
    uint64_t per_row = ((uint64_t)width + mcu_width - 1) / mcu_width, rows = ((uint64_t)height + mcu_height - 1) / mcu_height;
    uint64_t least = flags & FRAMED_ENGINE_JPEG_PART_ROWS_1 ? 1 : MIN_PART_MCU_ROWS;
    uint64_t part = flags & FRAMED_ENGINE_JPEG_PART_ROWS_1 ? 1 : (rows + 1) / 2;
    /* A DRI holds at most 65535 MCUs: more parts, if a part can still have `least` rows. */
    if (per_row * part > 65535) part = 65535 / per_row;
    if (part < least || rows < 2 * least || part >= rows) return;
    split->parts = (int)((rows + part - 1) / part);
    split->part_rows = (uint32_t)(part * mcu_height);
    split->interval = (unsigned)(part * per_row);
}

/* One part of an encode in parts, and what came of it. */
typedef struct {
    const uint8_t *rgba;
    uint32_t width, rows;
    int quality, flags;
    double dpi;
    unsigned interval;
    ccodecs_buffer out;
    int status;
    char message[CCODECS_MESSAGE_SIZE];
} encode_part;

typedef struct {
    encode_part *parts;
    int count;
    int next; /* atomic: the next part to take */
} encode_parts;

static void *encode_parts_run(void *argument) {
    encode_parts *all = argument;
    for (int i; (i = __atomic_fetch_add(&all->next, 1, __ATOMIC_RELAXED)) < all->count;) {
        encode_part *part = &all->parts[i];
        part->status = ccodecs_jpeg_encode_rgb(part->rgba, part->width, part->rows, part->quality, part->dpi,
                                               part->flags, part->interval, &part->out, part->message);
    }
    return NULL;
}

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* In a part's bytes: where its entropy-coded data begins (after its SOS), and where its SOF's
 * height is; 0 if the bytes are not laid out as libjpeg writes them. */
static size_t part_layout(const ccodecs_buffer *part, size_t *height_at) {
    const uint8_t *b = part->data;
    size_t i = 2;
    while (i + 4 <= part->size && b[i] == 0xFF) {
        size_t length = be16(b + i + 2);
        if (b[i + 1] == 0xC0 && height_at) *height_at = i + 5;
        if (b[i + 1] == 0xDA) return i + 2 + length <= part->size ? i + 2 + length : 0;
        i += 2 + length;
    }
    return 0;
}

/* The parts joined into one JPEG: the first with its SOF's height set to the whole
 * picture's, then each further part's entropy-coded data after a restart marker (RST0, RST1,
 * ... RST7, RST0 ...), then EOI. These are the bytes that libjpeg writes for the whole
 * picture with the parts' restart interval: each of its restarts starts afresh (DC predictions
 * 0, whole bytes), as each part's encode does. */
static int join_parts(encode_part *parts, int count, uint32_t height, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    size_t height_at = 0;
    int status = CCODECS_OK;
    for (int i = 0; i < count && !status; i++) {
        ccodecs_buffer *part = &parts[i].out;
        size_t data = part_layout(part, i == 0 ? &height_at : NULL);
        int ends = part->size >= 2 && part->data[part->size - 2] == 0xFF && part->data[part->size - 1] == 0xD9;
        uint8_t restart[2] = {0xFF, (uint8_t)(0xD0 + ((i - 1) & 7))};
        if (!data || !ends || (i == 0 && !height_at)) {
            ccodecs_message(message, "JPEG encoding: a part is not laid out as libjpeg lays out a file");
            status = CCODECS_ERROR;
        } else if ((i > 0 && ccodecs_append(out, restart, 2)) ||
                   ccodecs_append(out, part->data + (i ? data : 0), part->size - 2 - (i ? data : 0))) {
            status = CCODECS_NO_MEMORY;
        }
    }
    static const uint8_t eoi[2] = {0xFF, 0xD9};
    if (!status && ccodecs_append(out, eoi, 2)) status = CCODECS_NO_MEMORY;
    if (status == CCODECS_NO_MEMORY) ccodecs_message(message, "out of memory");
    if (status) {
        free(out->data);
        memset(out, 0, sizeof *out);
        return status;
    }
    out->data[height_at] = (uint8_t)(height >> 8);
    out->data[height_at + 1] = (uint8_t)height;
    return CCODECS_OK;
}

int framed_engine_jpeg_encode_in_parts(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, double dpi,
                                       int flags, int threads, ccodecs_buffer *out, char *message) {
    framed_jpeg_parts split;
    framed_engine_jpeg_parts(width, height, flags, &split);
    flags &= ~FRAMED_ENGINE_JPEG_PART_ROWS_1;
    if (split.parts == 1 || threads < 2 || (uint64_t)width * height < PARALLEL_PIXELS)
        return ccodecs_jpeg_encode_rgb(rgba, width, height, quality, dpi, flags, split.interval, out, message);
    encode_part *parts = calloc((size_t)split.parts, sizeof *parts);
    if (!parts) {
        ccodecs_message(message, "out of memory");
        memset(out, 0, sizeof *out);
        return CCODECS_NO_MEMORY;
    }
    for (int i = 0; i < split.parts; i++) {
        uint32_t first = (uint32_t)i * split.part_rows;
        parts[i] = (encode_part){.rgba = rgba + (size_t)first * width * 4, .width = width,
                                 .rows = height - first < split.part_rows ? height - first : split.part_rows,
                                 .quality = quality, .flags = flags, .dpi = dpi, .interval = split.interval};
    }
    encode_parts all = {parts, split.parts, 0};
    int helpers = (threads < split.parts ? threads : split.parts) - 1, started = 0;
    pthread_t helper[helpers > 0 ? helpers : 1];
    while (started < helpers && pthread_create(&helper[started], NULL, encode_parts_run, &all) == 0) started++;
    encode_parts_run(&all); /* with no helper started, this thread encodes every part */
    for (int i = 0; i < started; i++) pthread_join(helper[i], NULL);
    int status = CCODECS_OK;
    for (int i = 0; i < split.parts && !status; i++)
        if ((status = parts[i].status)) memcpy(message, parts[i].message, CCODECS_MESSAGE_SIZE);
    if (!status) status = join_parts(parts, split.parts, height, out, message);
    for (int i = 0; i < split.parts; i++) free(parts[i].out.data);
    free(parts);
    return status;
}

