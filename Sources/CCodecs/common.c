/* The helpers of ccodecs_common.h, and the reader calls of ccodecs.h that every codec shares. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include "ccodecs_common.h"

void ccodecs_free(void *pointer) { free(pointer); }

void ccodecs_message(char *message, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, CCODECS_MESSAGE_SIZE, format, args);
    va_end(args);
}

int ccodecs_check_size(uint32_t width, uint32_t height, size_t max_pixels, char *message) {
    uint64_t pixels = (uint64_t)width * height;
    if (pixels <= max_pixels && pixels <= SIZE_MAX / 4) return CCODECS_OK;
    ccodecs_message(message, "picture is %ux%u pixels, over the limit of %zu pixels",
                    (unsigned)width, (unsigned)height, max_pixels);
    return CCODECS_TOO_LARGE;
}

int ccodecs_check_canvas(uint64_t width, uint64_t height, uint64_t covered, const char *what, char *message) {
    uint64_t canvas = width * height;
    if (canvas <= CCODECS_CANVAS_FREE_PIXELS || canvas / CCODECS_CANVAS_RATIO <= covered) return CCODECS_OK;
    ccodecs_message(message, "its %llux%llu canvas is more than %d times the %llu pixel%s of its %s", (unsigned long long)width,
                    (unsigned long long)height, CCODECS_CANVAS_RATIO, (unsigned long long)covered, covered == 1 ? "" : "s", what);
    return CCODECS_UNSUPPORTED;
}

int ccodecs_append(ccodecs_buffer *buffer, const uint8_t *bytes, size_t count) {
    if (count > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity - buffer->size < count) {
            if (capacity > SIZE_MAX / 2) return CCODECS_NO_MEMORY;
            capacity *= 2;
        }
        uint8_t *data = realloc(buffer->data, capacity);
        if (!data) return CCODECS_NO_MEMORY;
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size += count;
    return CCODECS_OK;
}

void ccodecs_note_warning(ccodecs_decoded *out, const char *text) {
    if (out->warnings++ == 0) ccodecs_message(out->warning, "%s", text);
}

void ccodecs_decoded_release(ccodecs_decoded *decoded) {
    if (!decoded) return;
    free(decoded->pixels);
    free(decoded->icc);
    free(decoded->exif);
    decoded->pixels = NULL;
    decoded->icc = NULL;
    decoded->exif = NULL;
    decoded->icc_size = 0;
    decoded->exif_size = 0;
}

int ccodecs_check_scale(int scale_eighths, char *message) {
    if (scale_eighths == 1 || scale_eighths == 2 || scale_eighths == 3 || scale_eighths == 4 || scale_eighths == 8)
        return CCODECS_OK;
    ccodecs_message(message, "scale %d/8 is not 1/8, 2/8, 3/8, 4/8 or 8/8", scale_eighths);
    return CCODECS_BAD_ARGUMENT;
}

ptrdiff_t ccodecs_input_read(const ccodecs_input *input, size_t offset, void *to, size_t count) {
    /* libheif asks for 0 bytes into no buffer (an empty box): memcpy may not be given NULL. */
    if (count == 0 || offset >= input->size) return 0;
    if (count > input->size - offset) count = input->size - offset;
    if (input->data) {
        memcpy(to, input->data + offset, count);
        return (ptrdiff_t)count;
    }
    size_t done = 0;
    while (done < count) {
        ssize_t n = pread(input->fd, (uint8_t *)to + done, count - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break; /* the file is shorter than when it was opened */
        done += (size_t)n;
    }
    return (ptrdiff_t)done;
}

ptrdiff_t ccodecs_window_look(ccodecs_window *window, size_t offset, size_t want, size_t end,
                              const uint8_t **bytes) {
    const ccodecs_input *input = window->input;
    if (end > input->size) end = input->size;
    if (input->data) {
        *bytes = input->data + offset;
        return offset < end ? (ptrdiff_t)(end - offset) : 0;
    }
    *bytes = window->buffer;
    if (offset >= end) return 0;
    if (offset < window->at || offset + want > window->at + window->size) {
        size_t count = end - offset < window->capacity ? end - offset : window->capacity;
        ptrdiff_t got = ccodecs_input_read(input, offset, window->buffer, count);
        if (got < 0) return -1;
        window->at = offset;
        window->size = (size_t)got;
    }
    *bytes = window->buffer + (offset - window->at);
    size_t held = window->at + window->size - offset;
    return (ptrdiff_t)(held < end - offset ? held : end - offset);
}

void ccodecs_expand_gray(uint8_t *restrict rgba, const uint8_t *restrict gray, size_t width) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint32_t spread = 0x00010101u, opaque = 0xFF000000u;
#else
    const uint32_t spread = 0x01010100u, opaque = 0x000000FFu;
#endif
    for (size_t x = 0; x < width; x++) {
        uint32_t pixel = gray[x] * spread | opaque;
        memcpy(rgba + 4 * x, &pixel, 4);
    }
}

int ccodecs_layout_is_stored(ccodecs_layout layout, uint32_t width) {
    return layout.origin == 0 && layout.step_x == 1 && layout.step_y == (ptrdiff_t)width;
}

void ccodecs_place_row(uint8_t *pixels, ccodecs_layout layout, uint32_t y, const uint8_t *row, uint32_t width) {
    uint8_t *start = pixels + (layout.origin + (ptrdiff_t)y * layout.step_y) * 4;
    if (layout.step_x == 1) {
        memcpy(start, row, (size_t)width * 4);
        return;
    }
    ptrdiff_t step = layout.step_x * 4;
    for (uint32_t x = 0; x < width; x++, start += step) memcpy(start, row + (size_t)x * 4, 4);
}

void ccodecs_gather_row(const uint8_t *pixels, ccodecs_layout layout, uint32_t y, uint8_t *row, uint32_t width) {
    const uint8_t *start = pixels + (layout.origin + (ptrdiff_t)y * layout.step_y) * 4;
    ptrdiff_t step = layout.step_x * 4;
    for (uint32_t x = 0; x < width; x++, start += step) memcpy(row + (size_t)x * 4, start, 4);
}

int ccodecs_reader_read(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout,
                        ccodecs_decoded *out, char *message) {
    message[0] = 0;
    if (!reader || !pixels || !out) {
        ccodecs_message(message, "bad arguments for reading pixels");
        return CCODECS_BAD_ARGUMENT;
    }
    return reader->read(reader, pixels, layout, out, message);
}

int ccodecs_reader_publish_rows(ccodecs_reader *reader, uint32_t *counter) {
    if (!reader || !reader->streams_rows) return 0;
    reader->rows_ready = counter;
    return 1;
}

void ccodecs_reader_set_threads(ccodecs_reader *reader, int threads) {
    if (reader) reader->threads = threads > 0 ? threads : 1;
}

uint32_t ccodecs_rows_ready(const uint32_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

void ccodecs_rows_set(uint32_t *counter, uint32_t rows) {
    __atomic_store_n(counter, rows, __ATOMIC_RELEASE);
}

void ccodecs_rows_published(ccodecs_reader *reader, uint32_t rows) {
    if (reader->rows_ready) ccodecs_rows_set(reader->rows_ready, rows);
}

void ccodecs_reader_close(ccodecs_reader *reader) {
    if (reader) reader->close(reader);
}

/* The reader of ccodecs_reader_over_pixels: nothing of its own. */
static int read_decoded(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout,
                        ccodecs_decoded *out, char *message) {
    (void)reader;
    if (!out->pixels) {
        ccodecs_message(message, "the pixels were read already");
        return CCODECS_BAD_ARGUMENT;
    }
    size_t stride = (size_t)out->width * 4;
    for (uint32_t y = 0; y < out->height; y++)
        ccodecs_place_row(pixels, layout, y, out->pixels + stride * y, out->width);
    free(out->pixels);
    out->pixels = NULL;
    return CCODECS_OK;
}

static void close_decoded(ccodecs_reader *reader) { free(reader); }

int ccodecs_reader_over_pixels(ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    if (!(*reader = malloc(sizeof **reader))) {
        ccodecs_decoded_release(out);
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    (*reader)->read = read_decoded;
    (*reader)->close = close_decoded;
    (*reader)->rows_ready = NULL;
    (*reader)->streams_rows = 0;
    (*reader)->threads = 1;
    return CCODECS_OK;
}

int ccodecs_read_all(ccodecs_reader *reader, ccodecs_decoded *out, char *message) {
    ccodecs_layout stored = {0, 1, (ptrdiff_t)out->width};
    uint8_t *pixels = malloc((size_t)out->width * out->height * 4);
    int status = pixels ? ccodecs_reader_read(reader, pixels, stored, out, message) : CCODECS_NO_MEMORY;
    if (!pixels) ccodecs_message(message, "out of memory");
    ccodecs_reader_close(reader);
    if (status) {
        free(pixels);
        ccodecs_decoded_release(out);
        return status;
    }
    free(out->pixels); /* a reader over pixels has freed them already */
    out->pixels = pixels;
    return CCODECS_OK;
}

/* `value` rounded up to a whole number of huge pages. */
static uintptr_t huge_up(uintptr_t value) { return (value + CCODECS_HUGE_PAGE - 1) & ~(uintptr_t)(CCODECS_HUGE_PAGE - 1); }

void ccodecs_advise_huge_pages(void *start, size_t size) {
    uintptr_t first = huge_up((uintptr_t)start), end = ((uintptr_t)start + size) & ~(uintptr_t)(CCODECS_HUGE_PAGE - 1);
    if (end > first) (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
}

void *ccodecs_huge_alloc(size_t size) {
    if (size == 0 || size > SIZE_MAX / 2 - CCODECS_HUGE_PAGE) return NULL;
    /* Whole huge pages, so that the last one is not split into 4 KB ones. Map a huge page
     * more than that, then unmap the unaligned head and what is left past the end. */
    size = huge_up(size);
    uint8_t *mapped = mmap(NULL, size + CCODECS_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return NULL;
    uint8_t *start = (uint8_t *)huge_up((uintptr_t)mapped);
    size_t head = (size_t)(start - mapped), tail = CCODECS_HUGE_PAGE - head;
    if (head) munmap(mapped, head);
    if (tail) munmap(start + size, tail);
    (void)madvise(start, size, MADV_HUGEPAGE);
    return start;
}

void ccodecs_huge_free(void *memory, size_t size) {
    if (memory) munmap(memory, huge_up(size));
}
