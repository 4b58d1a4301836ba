/* TIFF for photo labs through libtiff: 8-bit RGB in strips, compressed losslessly, with the
 * resolution and the ICC profile, written into memory through libtiff's client I/O. libtiff's
 * errors and warnings go to handlers of this call (TIFFOpenOptions, libtiff 4.5), never to
 * standard error nor to a process-wide handler. */
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"
#include "ccodecs_print.h"
#include "ccodecs_tifflibrary.h"

/* A file in memory: the bytes written so far (size) and where libtiff is (position). */
typedef struct {
    ccodecs_buffer *out;
    uint64_t position;
    int failed;
    ccodecs_log log;                   /* libtiff's first error */
} memory_file;

static int reserve(memory_file *file, uint64_t end) {
    ccodecs_buffer *b = file->out;
    if (end <= b->capacity) return 1;
    if (end > SIZE_MAX / 2) return 0;
    size_t capacity = b->capacity ? b->capacity : 65536;
    while (capacity < end) capacity *= 2;
    uint8_t *grown = realloc(b->data, capacity);
    if (!grown) return 0;
    b->data = grown;
    b->capacity = capacity;
    return 1;
}

static tmsize_t file_read(thandle_t handle, void *buffer, tmsize_t count) {
    memory_file *file = handle;
    if (count <= 0 || file->position >= file->out->size) return 0;
    uint64_t available = file->out->size - file->position;
    size_t n = (uint64_t)count < available ? (size_t)count : (size_t)available;
    memcpy(buffer, file->out->data + file->position, n);
    file->position += n;
    return (tmsize_t)n;
}

static tmsize_t file_write(thandle_t handle, void *buffer, tmsize_t count) {
    memory_file *file = handle;
    if (count < 0) return -1;
    uint64_t end = file->position + (uint64_t)count;
    if (!reserve(file, end)) {
        file->failed = 1;
        return -1;
    }
    if (file->position > file->out->size) memset(file->out->data + file->out->size, 0, file->position - file->out->size);
    memcpy(file->out->data + file->position, buffer, (size_t)count);
    file->position = end;
    if (end > file->out->size) file->out->size = (size_t)end;
    return count;
}

static toff_t file_seek(thandle_t handle, toff_t offset, int whence) {
    memory_file *file = handle;
    uint64_t base = whence == SEEK_CUR ? file->position : whence == SEEK_END ? file->out->size : 0;
    file->position = base + offset;
    return file->position;
}

static int file_close(thandle_t handle) { (void)handle; return 0; }
static toff_t file_size(thandle_t handle) { return ((memory_file *)handle)->out->size; }
static int file_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void file_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

int ccodecs_tiff_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, double dpi,
                            const uint8_t *icc, size_t icc_size, int compression, const char *software,
                            ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    if (!rgba || width == 0 || height == 0 || width > 0x7FFFFFFF / 3 || (icc && (icc_size == 0 || icc_size > 0xFFFFFFFFu))) {
        ccodecs_message(message, "a TIFF cannot be %ux%u pixels", width, height);
        return CCODECS_BAD_ARGUMENT;
    }
    int loaded = ccodecs_libtiff(message);
    if (loaded) return loaded;
    memory_file file = {.out = out};
    TIFFOpenOptions *options = libtiff.TIFFOpenOptionsAlloc();
    uint8_t *row = malloc((size_t)width * 3);
    if (!options || !row) {
        libtiff.TIFFOpenOptionsFree(options);
        free(row);
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    libtiff.TIFFOpenOptionsSetErrorHandlerExtR(options, ccodecs_tiff_on_error, &file.log);
    libtiff.TIFFOpenOptionsSetWarningHandlerExtR(options, ccodecs_tiff_on_warning, &file.log);
    /* "wl": little-endian classic TIFF; "m" would stop libtiff mapping, which it cannot here anyway. */
    TIFF *tiff = libtiff.TIFFClientOpenExt("framed output", "wl", &file, file_read, file_write, file_seek, file_close,
                                           file_size, file_map, file_unmap, options);
    int ok = tiff != NULL;
    if (ok) {
        uint32_t rows_per_strip = (uint32_t)(65536 / ((size_t)width * 3));
        if (rows_per_strip < 1) rows_per_strip = 1;
        if (rows_per_strip > height) rows_per_strip = height;
        ok = libtiff.TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width)
            && libtiff.TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height)
            && libtiff.TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8)
            && libtiff.TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 3)
            && libtiff.TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB)
            && libtiff.TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG)
            && libtiff.TIFFSetField(tiff, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT)
            && libtiff.TIFFSetField(tiff, TIFFTAG_COMPRESSION,
                                    compression == CCODECS_TIFF_DEFLATE ? COMPRESSION_ADOBE_DEFLATE : COMPRESSION_LZW)
            && libtiff.TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL)
            && libtiff.TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
        if (ok && dpi > 0) {
            ok = libtiff.TIFFSetField(tiff, TIFFTAG_XRESOLUTION, (float)dpi)
                && libtiff.TIFFSetField(tiff, TIFFTAG_YRESOLUTION, (float)dpi)
                && libtiff.TIFFSetField(tiff, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
        }
        if (ok && icc) ok = libtiff.TIFFSetField(tiff, TIFFTAG_ICCPROFILE, (uint32_t)icc_size, icc);
        if (ok && software) ok = libtiff.TIFFSetField(tiff, TIFFTAG_SOFTWARE, software);
        const size_t stride = (size_t)width * 4;
        for (uint32_t y = 0; ok && y < height; y++) {
            const uint8_t *p = rgba + stride * y;
            for (uint32_t x = 0; x < width; x++) {
                row[3 * x] = p[4 * x];
                row[3 * x + 1] = p[4 * x + 1];
                row[3 * x + 2] = p[4 * x + 2];
            }
            ok = libtiff.TIFFWriteScanline(tiff, row, y, 0) == 1;
        }
        if (ok) ok = libtiff.TIFFWriteDirectory(tiff);
        libtiff.TIFFClose(tiff);
    }
    libtiff.TIFFOpenOptionsFree(options);
    free(row);
    if (ok && !file.failed) return CCODECS_OK;
    int status = file.failed ? CCODECS_NO_MEMORY : CCODECS_ERROR;
    ccodecs_message(message, "%s", file.failed ? "out of memory" : file.log.text[0] ? file.log.text : "libtiff failed");
    free(out->data);
    memset(out, 0, sizeof *out);
    return status;
}
