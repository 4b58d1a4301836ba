/*
 * ccodecs: setjmp-safe wrappers over libjpeg(-turbo), libpng and zlib, and the resampler's
 * portable loops (ccodecs_color.h: lcms2 and libexif; ccodecs_webp.h: libwebp).
 *
 * Every function returns a status (CCODECS_OK = 0) and, on failure, writes a short
 * one-line message into `message`, a caller-provided buffer of CCODECS_MESSAGE_SIZE bytes.
 * setjmp/longjmp never leave this library. Memory handed out (pixels, encoded bytes) comes
 * from malloc and is released with ccodecs_free.
 *
 * framed's own engines (CFramedEngines) can take parts of the work: a decoder or writer here
 * takes a table of hooks (NULL: the plain library does that part), which Swift passes as an
 * opaque pointer (the struct tags below; their members are in ccodecs_hooks.h, for C).
 */
#ifndef CCODECS_H
#define CCODECS_H

#include <stddef.h>
#include <stdint.h>

#define CCODECS_MESSAGE_SIZE 200

/* Status codes (plain macros so that Swift sees them as Int32). */
#define CCODECS_OK 0
#define CCODECS_ERROR 1        /* the codec refused the data (corrupt, truncated header, ...) */
#define CCODECS_TOO_LARGE 2    /* width * height over max_pixels; width/height are filled in */
#define CCODECS_UNSUPPORTED 3  /* valid data that this library cannot convert */
#define CCODECS_NO_MEMORY 4
#define CCODECS_BAD_ARGUMENT 5
#define CCODECS_UNREADABLE 6   /* reading the file failed; the message is the system's reason */

/* Tables of hooks into framed's engines (ccodecs_hooks.h; filled by CFramedEngines). */
struct ccodecs_jpeg_scans_engine;
struct ccodecs_jpeg_split_engine;
struct ccodecs_jpeg_reduced_engine;
struct ccodecs_png_data_engine;
struct ccodecs_deflate_engine;

typedef enum {
    CCODECS_COLOR_UNKNOWN = 0,
    CCODECS_COLOR_GRAY,
    CCODECS_COLOR_RGB,
    CCODECS_COLOR_YCBCR,
    CCODECS_COLOR_CMYK,
    CCODECS_COLOR_YCCK,
    CCODECS_COLOR_PALETTE
} ccodecs_color_space;

/* What a file's header says. */
typedef struct {
    uint32_t width, height;
    int components;                   /* channels stored in the file (palette PNG: 1) */
    int bit_depth;                    /* bits per sample in the file */
    ccodecs_color_space color_space;
    int has_alpha;                    /* alpha channel or PNG tRNS */
    int progressive;                  /* progressive JPEG or interlaced PNG */
    double dpi_x, dpi_y;              /* resolution claimed by JFIF / pHYs, else EXIF; 0 if none */
    int orientation;                  /* EXIF orientation 1-8 (1 without EXIF); 0 if not read */
    int has_icc;                      /* an ICC profile is embedded (PNG: or gAMA/cHRM call for one) */
    uint32_t stored_width, stored_height; /* HEIF: the coded size before the file's own
                                         transformations (ispe, before irot/imir/clap), which
                                         --no-auto-orient keeps; 0 elsewhere */
    uint32_t coded_width, coded_height; /* HEIF: the largest picture the decoders will be asked
                                         to code (the HEVC or AV1 headers, a grid's tiles),
                                         whatever the ispe says, UINT32_MAX past it; 0 where
                                         unknown and elsewhere */
} ccodecs_image_info;

/* How the 4 bytes of each decoded pixel are to be read. */
#define CCODECS_PIXELS_RGBA 0          /* straight R, G, B, A */
#define CCODECS_PIXELS_CMYK 1          /* C, M, Y, K, 255 = full ink */
#define CCODECS_PIXELS_CMYK_INVERTED 2 /* Adobe's inverted CMYK (APP14): 0 = full ink */
#define CCODECS_PIXELS_GRAY 3          /* gray expanded to R = G = B, A (a gray profile applies) */

/* A decoded picture: 4 bytes a pixel (see pixel_format), rows of width * 4 bytes, no padding.
 * Release everything it owns with ccodecs_decoded_release. */
typedef struct {
    uint8_t *pixels;                  /* malloc'd */
    int pixel_format;                 /* CCODECS_PIXELS_* */
    uint8_t *icc;                     /* embedded ICC profile (malloc'd), NULL if none */
    size_t icc_size;
    uint8_t *exif;                    /* raw EXIF, from the TIFF header on (malloc'd), NULL if none */
    size_t exif_size;
    uint32_t width, height;           /* output size (after JPEG scaling) */
    int has_alpha;                    /* source had an alpha channel or tRNS */
    double dpi_x, dpi_y;              /* 0 if none */
    int warnings;                     /* warnings counted (not printed) while decoding */
    char warning[CCODECS_MESSAGE_SIZE]; /* text of the first warning, "" if none */
    int scale_eighths;                /* the scale actually used, in eighths (1, 2, 3, 4, 8);
                                         0 is read as 8 (full size) */
    int decoders;                     /* JPEG: 2 when a progressive picture's chroma was decoded
                                         on a second thread beside its luma (the split engine),
                                         else 1 */
    int entropy_threads;              /* JPEG: threads of framed's own entropy decoding (a baseline
                                         picture at 1/8, 1/4, 3/8 or 1/2, the reduced engine), 0
                                         when libjpeg's did it */
    int engine_rows;                  /* PNG: 1 when an engine read the image data, 0 when
                                         libpng's rows did */
    int orientation;                  /* the orientation stated outside EXIF (TIFF's tag), 1-8;
                                         0: EXIF's (out->exif) is the one */
    uint32_t full_width, full_height; /* when the pixels come from a smaller version that the
                                         file stores (a HEIF thumbnail, a TIFF pyramid level):
                                         the size of the picture they stand for; 0 otherwise */
} ccodecs_decoded;

/* Where encoded bytes come from: `size` bytes at `data`; or, when data is NULL, the first
 * `size` bytes of the regular file open as `fd`, read with pread a chunk at a time
 * (CCODECS_READ_CHUNK bytes), so that a file is never held whole while it is decoded. */
typedef struct {
    const uint8_t *data;
    int fd;
    size_t size;
} ccodecs_input;

#define CCODECS_READ_CHUNK 65536

/* Where decoded pixels go: stored pixel (x, y) is written at pixel
 * origin + x * step_x + y * step_y of the destination, which turns a picture upright by its
 * EXIF orientation while it is decoded. {0, 1, width} keeps the stored layout. */
typedef struct {
    ptrdiff_t origin, step_x, step_y;
} ccodecs_layout;

/* A picture whose header has been read, ready to decode its pixels into a buffer the caller
 * owns (so that they are never copied): ccodecs_*_open, then ccodecs_reader_read, then
 * ccodecs_reader_close. Opaque. */
typedef struct ccodecs_reader ccodecs_reader;

/* Encoded bytes. */
typedef struct {
    uint8_t *data;                    /* malloc'd; free with ccodecs_free */
    size_t size;
    size_t capacity;                  /* internal */
} ccodecs_buffer;

/* Flags for ccodecs_jpeg_encode_rgb (and ccodecs_jpeg_encode_cmyk). */
#define CCODECS_JPEG_GRAYSCALE   1
#define CCODECS_JPEG_PROGRESSIVE 2
#define CCODECS_JPEG_ARITHMETIC  4    /* arithmetic coding instead of Huffman (for tests) */
#define CCODECS_JPEG_ADOBE       8    /* CMYK only: write an Adobe APP14 marker */
#define CCODECS_JPEG_YCCK        16   /* CMYK only: store as YCCK (implies the Adobe marker) */
#define CCODECS_JPEG_CHROMA_444  32   /* colour: chroma at full size rather than 4:2:0 (photo-lab outputs, tests) */
#define CCODECS_JPEG_CHROMA_422  64   /* colour: chroma at half width, full height (for tests) */
#define CCODECS_JPEG_RESTARTS    128  /* a restart marker after each row of MCUs (for tests) */
#define CCODECS_JPEG_RESTARTS_7  256  /* a restart marker after every 7 MCUs (for tests) */

/* Flags for ccodecs_jpeg_open. CCODECS_JPEG_ONE_THREAD: no thread is started for the file (the
 * split engine is not asked). */
#define CCODECS_JPEG_ONE_THREAD  2

/* The engines a JPEG reader may hand work to; a NULL member: libjpeg does that part, and all
 * NULL (or no table): libjpeg decodes the file as its own tools would, one decompressor
 * reading every scan. */
typedef struct {
    /* At 1/8, a progressive file's AC scans of the components that come out one pixel a block
     * are not read (their pixels do not depend on them). */
    const struct ccodecs_jpeg_scans_engine *scans;
    /* At other scales below full size, a progressive YCbCr picture's chroma is decoded on a
     * second thread beside its luma (decoders is 2). */
    const struct ccodecs_jpeg_split_engine *split;
    /* At 1/8 and 3/8 a baseline file's entropy-coded data is decoded by framed, on two threads
     * when it is large (entropy_threads); at 1/4 and 1/2, but only on two threads. */
    const struct ccodecs_jpeg_reduced_engine *reduced;
    /* Tests: the reduced engine uses its second thread whatever the size, and always uses
     * what that thread decoded. */
    int reduced_always_split;
} ccodecs_jpeg_engines;

void ccodecs_free(void *pointer);

/* Frees the pixels, ICC profile and EXIF of a decoded picture and zeroes those fields. */
void ccodecs_decoded_release(ccodecs_decoded *decoded);

/* JPEG header only: size, components, colour space, JFIF (else EXIF) density, progressive
 * flag, EXIF orientation, whether an ICC profile (APP2) is there. */
int ccodecs_jpeg_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message);

/* JPEG to RGBA8, scaled by scale_eighths/8 with libjpeg's DCT scaling (1/8, 2/8, 3/8, 4/8 or
 * 8/8): output is ceil(w*e/8) x ceil(h*e/8); `engines` as for ccodecs_jpeg_open.
 * Refuses source images over max_pixels before allocating. A truncated scan is a success
 * with out->warnings > 0 (the missing part is gray). Fills out->exif (APP1) and out->icc (APP2).
 * CMYK and YCCK decode to CMYK (pixel_format CMYK, or CMYK_INVERTED with an Adobe marker);
 * gray to CCODECS_PIXELS_GRAY. */
int ccodecs_jpeg_decode(const uint8_t *data, size_t size, int scale_eighths, const ccodecs_jpeg_engines *engines,
                        size_t max_pixels, ccodecs_decoded *out, char *message);

/* ccodecs_jpeg_info over a ccodecs_input (a file is read in chunks). */
int ccodecs_jpeg_info_input(const ccodecs_input *input, ccodecs_image_info *info, char *message);

/* The first step of ccodecs_jpeg_decode: reads the header, checks the size and fills `out`
 * as decoding would (width and height after scaling, pixel_format, icc, exif, dpi,
 * scale_eighths) but for its pixels, which ccodecs_reader_read then decodes. The input must
 * stay valid (same data, same open fd) until the reader is closed. On failure *reader is
 * NULL and `out` is released. flags: CCODECS_JPEG_ONE_THREAD. `engines` (copied; NULL: none)
 * says which of framed's engines may take part. */
int ccodecs_jpeg_open(const ccodecs_input *input, int scale_eighths, int flags, const ccodecs_jpeg_engines *engines,
                      size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader, char *message);

/* PNG header (chunks up to the first IDAT; eXIf anywhere) from a ccodecs_input (a file is
 * read in chunks). */
int ccodecs_png_info_input(const ccodecs_input *input, ccodecs_image_info *info, char *message);

/* Opens a PNG (any colour type, depth, interlace) for decoding to RGBA8, as ccodecs_jpeg_open:
 * 16-bit samples are scaled to 8; out->icc gets iCCP (or a profile made from gAMA/cHRM when
 * there is neither iCCP nor sRGB and they differ from sRGB's) and out->exif gets eXIf. The
 * image data is read by `engine` when it takes the picture (out->engine_rows), else (and with
 * NULL) by libpng's rows. */
int ccodecs_png_open(const ccodecs_input *input, size_t max_pixels, const struct ccodecs_png_data_engine *engine,
                     ccodecs_decoded *out, ccodecs_reader **reader, char *message);

/* Decodes the opened picture into `pixels` (out->width * out->height * 4 bytes), each stored
 * pixel where `layout` puts it (the layout must be a one-to-one map onto the buffer); `out`
 * is the one given to open (warnings are counted in it). Then colour conversion
 * (ccodecs_color_to_srgb) applies to the buffer as to out->pixels. Call it at most once. */
int ccodecs_reader_read(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout,
                        ccodecs_decoded *out, char *message);

/* Lets another thread follow ccodecs_reader_read: while it runs, the reader stores in *counter
 * (atomically, with release order) how many rows at the top of the buffer hold their final
 * pixels, as it writes each row once in the stored layout. Returns 1 when the rows come out
 * that way while the file is still being read (baseline JPEG; PNG that is not interlaced);
 * 0 when they come only after the whole file was read (progressive JPEG, whose scans are read
 * when it is opened; interlaced PNG; WebP), and then *counter is not touched. The caller
 * stores the whole height when reading (and any colour conversion) is over. Call before
 * ccodecs_reader_read. */
int ccodecs_reader_publish_rows(ccodecs_reader *reader, uint32_t *counter);

/* How many threads ccodecs_reader_read may keep busy (1 when never set: only the calling
 * thread): the engines that decode on two threads do so only when given two. Call before
 * ccodecs_reader_read. */
void ccodecs_reader_set_threads(ccodecs_reader *reader, int threads);

/* *counter read atomically with acquire order: the rows it counts can then be read. */
uint32_t ccodecs_rows_ready(const uint32_t *counter);

/* Stores `rows` in *counter atomically with release order. */
void ccodecs_rows_set(uint32_t *counter, uint32_t rows);

/* Frees the reader (NULL is fine); `out` keeps its metadata until ccodecs_decoded_release. */
void ccodecs_reader_close(ccodecs_reader *reader);

/* RGBA8 (alpha ignored) to a JPEG (quality 1-100) by libjpeg on the calling thread; dpi > 0
 * writes JFIF density; restart_interval > 0 writes a restart marker after every that many MCUs.
 * flags: CCODECS_JPEG_GRAYSCALE, CCODECS_JPEG_PROGRESSIVE and those marked for tests. */
int ccodecs_jpeg_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, double dpi, int flags,
                            unsigned restart_interval, ccodecs_buffer *out, char *message);

/* `size` bytes of `data` as a zlib stream (RFC 1950, for PDF's FlateDecode) at zlib `level`
 * (0-9), through zlib's compress2. */
int ccodecs_deflate(const uint8_t *data, size_t size, int level, ccodecs_buffer *out, char *message);

/* `size` bytes of a zlib stream (RFC 1950, a PDF's FlateDecode) inflated through zlib: at most
 * `limit` bytes (CCODECS_TOO_LARGE past it); a stream that is corrupt or cut short is
 * CCODECS_ERROR. */
int ccodecs_inflate(const uint8_t *data, size_t size, size_t limit, ccodecs_buffer *out, char *message);

/* A row of `pixels` RGBA Float sums (0...255 give or take the filter's overshoot; with alpha,
 * premultiplied) as straight RGBA8: each clamped to 0...255 and rounded half up, the colour
 * divided by alpha first (0 where alpha rounds to 0), alpha 255 when not premultiplied. */
void ccodecs_store_rgba(const float *sum, uint8_t *out, size_t pixels, int premultiplied);

/* The resampler's loops, as a table so that a build of framed's own (CFramedEngines'
 * framed_engine_avx2rows) can stand in for the portable one; every build gives the same bits. */
typedef struct {
    /* A row of `pixels` RGBA8 pixels as the resampler's Floats: each sample as it is, alpha 255
     * when `unit` is NULL (an opaque picture); else premultiplied, each colour times
     * unit[alpha], a table of alpha / 255. */
    void (*load_row)(const uint8_t *rgba, float *line, size_t pixels, const float *unit);
    /* The horizontal pass over one row of `width` output pixels, four Floats each: pixel x is
     * the sum over its taps k < counts[x] of source pixel starts[x] + k of `line` times
     * weights[x * stride + 4k ...] (each weight four times, one per channel), the even taps
     * and the odd taps summed apart and then added. */
    void (*filter_horizontally)(const float *line, float *out, size_t width, const intptr_t *starts,
                                const intptr_t *counts, const float *weights, size_t stride);
    /* The vertical pass: sum[i] = the sum over k < count of rows[k][i] * weights[k] for i < n,
     * four rows at a time as (r0 w0 + r1 w1) + (r2 w2 + r3 w3), then two, then one. */
    void (*filter_vertically)(const float *const *rows, const float *weights, int count, float *sum, size_t n);
} ccodecs_sample_loops;

/* The loops built for any processor of the family (x86-64: SSE2, four lanes). */
const ccodecs_sample_loops *ccodecs_sample_loops_portable(void);

/* Which samples of RGBA8 rows ccodecs_deflate_rows compresses. */
enum {
    CCODECS_PLANE_RGB = 0,            /* R, G, B: 3 samples a pixel */
    CCODECS_PLANE_GRAY = 1,           /* R only (for pictures with R = G = B): 1 sample */
    CCODECS_PLANE_ALPHA = 2,          /* A only: 1 sample */
    CCODECS_PLANE_RGBA = 3,           /* all four: 4 samples */
};

/* Rows first_row to first_row + rows - 1 of RGBA8 rows of `width` pixels, reduced to one plane,
 * each row PNG-filtered (Paeth, filter byte 4; the row above first_row is its predictor, none
 * for row 0) and compressed as raw deflate (RFC 1951) at zlib `level` (with run-length matches
 * only, Z_RLE, when the filtered rows are mostly not zero: photos; at level 1 when they are
 * mostly zero, by `writer` when there is one, framed's own, else by zlib) into `out` (`capacity`
 * bytes, at least ccodecs_deflate_rows_bound; *written says how many were used). A part that
 * is not `last` ends with a sync flush (byte-aligned, not final) so that parts concatenate
 * into one deflate stream; the last part ends the stream. *adler is the Adler-32 of the
 * filtered bytes, for the zlib trailer (ccodecs_adler32_combine joins the parts'). What PDF's
 * FlateDecode with /Predictor 15, and a PNG's IDAT, read back. */
int ccodecs_deflate_rows(const uint8_t *rgba, uint32_t width, uint32_t first_row, uint32_t rows,
                         int plane, int level, int last, const struct ccodecs_deflate_engine *writer,
                         uint8_t *out, size_t capacity, size_t *written, uint32_t *adler, char *message);

/* The most bytes ccodecs_deflate_rows can write for `rows` rows. */
size_t ccodecs_deflate_rows_bound(uint32_t width, uint32_t rows, int plane);

/* The Adler-32 of `size` bytes after `adler` (1 to start), as zlib's adler32 (SSE2 here). */
uint32_t ccodecs_adler32(uint32_t adler, const uint8_t *data, size_t size);

/* zlib's adler32_combine: the Adler-32 of A then B from theirs and B's length. */
uint32_t ccodecs_adler32_combine(uint32_t a, uint32_t b, uint64_t b_length);

/* zlib's crc32: the CRC-32 of `size` bytes continued from `crc` (0 to start). */
uint32_t ccodecs_crc32(uint32_t crc, const uint8_t *data, size_t size);

/* Asks the kernel to back the whole 2 MB pages inside [start, start + size) with 2 MB pages
 * (madvise MADV_HUGEPAGE) before a large buffer is first written: one fault a 2 MB page
 * instead of 512. A kernel without transparent huge pages ignores it. */
void ccodecs_advise_huge_pages(void *start, size_t size);

/* The size of a huge page: what ccodecs_huge_alloc rounds to. */
#define CCODECS_HUGE_PAGE ((size_t)2 << 20)

/* `size` bytes of fresh (zeroed) memory that begin on a 2 MB boundary and are advised onto
 * 2 MB pages, mapped with mmap; NULL when out of memory. Unlike a malloc'd buffer, whose first
 * and last partial 2 MB stay on 4 KB pages (a fault each), all of it is: a buffer that is about
 * to be written whole and freed soon. Free it with ccodecs_huge_free and the same size. */
void *ccodecs_huge_alloc(size_t size);

/* Unmaps memory from ccodecs_huge_alloc (NULL: nothing). */
void ccodecs_huge_free(void *memory, size_t size);

#endif
