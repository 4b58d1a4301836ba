/* Helpers shared by the wrappers' files and by framed's own engines (CFramedEngines): messages,
 * sizes, inputs read in chunks, readers and their layouts, huge pages. For C only: not part of
 * the Swift module (module.modulemap). */
#ifndef CCODECS_COMMON_H
#define CCODECS_COMMON_H

#include "ccodecs.h"

/* printf into a CCODECS_MESSAGE_SIZE buffer. */
void ccodecs_message(char *message, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* CCODECS_TOO_LARGE (with a message) if width * height is over max_pixels or would not fit
 * in memory as RGBA8, else CCODECS_OK. */
int ccodecs_check_size(uint32_t width, uint32_t height, size_t max_pixels, char *message);

/* A canvas (an animation's, a GIF's logical screen, a HEIF overlay's) is transparent, or one
 * colour, where nothing is drawn on it, and a file says its size in a few bytes: one of more
 * than CCODECS_CANVAS_FREE_PIXELS may be at most CCODECS_CANVAS_RATIO times the pixels drawn on
 * it (`covered`: an animation's first frame, the picture framed). */
#define CCODECS_CANVAS_FREE_PIXELS ((uint64_t)4 << 20)
#define CCODECS_CANVAS_RATIO 64

/* CCODECS_UNSUPPORTED (with a message naming `what` covers it: "first frame") when a canvas of
 * width x height breaks that rule, else CCODECS_OK. */
int ccodecs_check_canvas(uint64_t width, uint64_t height, uint64_t covered, const char *what, char *message);

/* CCODECS_BAD_ARGUMENT (with a message) unless scale_eighths is 1, 2, 3, 4 or 8, else CCODECS_OK. */
int ccodecs_check_scale(int scale_eighths, char *message);

/* Appends to a growing malloc'd buffer; CCODECS_NO_MEMORY on failure. */
int ccodecs_append(ccodecs_buffer *buffer, const uint8_t *bytes, size_t count);

/* Keeps the first warning's text and counts them all. */
void ccodecs_note_warning(ccodecs_decoded *out, const char *text);

/* What every ccodecs_reader starts with: its codec's two steps after open. */
struct ccodecs_reader {
    int (*read)(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout, ccodecs_decoded *out,
                char *message);
    void (*close)(ccodecs_reader *reader);
    uint32_t *rows_ready;             /* ccodecs_reader_publish_rows; NULL: nobody is watching */
    int streams_rows;                 /* rows come out one by one while the file is read */
    int threads;                      /* ccodecs_reader_set_threads; 0 is read as 1 */
};

/* Tells a watcher (ccodecs_reader_publish_rows) that the top `rows` rows hold their final
 * pixels. Only for rows written once, in the stored layout. */
void ccodecs_rows_published(ccodecs_reader *reader, uint32_t rows);

/* A reader over pixels already decoded into out->pixels (malloc'd, for a codec that decodes
 * in one call): reading places them, then frees them. CCODECS_NO_MEMORY on failure (with
 * out released). */
int ccodecs_reader_over_pixels(ccodecs_decoded *out, ccodecs_reader **reader, char *message);

/* Decodes an opened reader into malloc'd out->pixels in the stored layout and closes it (the
 * one-call ccodecs_*_decode functions). On failure, `out` is released. */
int ccodecs_read_all(ccodecs_reader *reader, ccodecs_decoded *out, char *message);

/* Up to `count` bytes of the input from `offset` on, into `to`: the number copied (fewer only
 * at the end of the input), or -1 with errno set when the file cannot be read. */
ptrdiff_t ccodecs_input_read(const ccodecs_input *input, size_t offset, void *to, size_t count);

/* A read-ahead window onto a ccodecs_input, for reading a file where its structure leads:
 * memory is looked at in place, a file read into `buffer` (`capacity` bytes, the owner's) from
 * the offset asked for when the bytes asked for are not all there. */
typedef struct {
    const ccodecs_input *input;
    uint8_t *buffer;
    size_t capacity;
    size_t at, size; /* the input offset of buffer[0], and how many bytes it holds */
} ccodecs_window;

/* The input's bytes from `offset` on, short of `end` (at most the input's size): at least
 * `want` (at most the capacity) unless `end` comes first. Sets *bytes and returns how many
 * there are (0 at `end`), or -1 with errno set when the file cannot be read. */
ptrdiff_t ccodecs_window_look(ccodecs_window *window, size_t offset, size_t want, size_t end,
                              const uint8_t **bytes);

/* A row of gray samples as RGBA (R = G = B, opaque): one 32-bit word a pixel, which
 * compilers vectorise (byte by byte, they do not). */
void ccodecs_expand_gray(uint8_t *restrict rgba, const uint8_t *restrict gray, size_t width);

/* Whether the layout keeps the stored order of a picture `width` pixels wide. */
int ccodecs_layout_is_stored(ccodecs_layout layout, uint32_t width);

/* Writes stored row y (width pixels of 4 bytes) where the layout puts it. */
void ccodecs_place_row(uint8_t *pixels, ccodecs_layout layout, uint32_t y, const uint8_t *row, uint32_t width);

/* Reads back stored row y from where the layout put it (interlaced PNG passes build on it). */
void ccodecs_gather_row(const uint8_t *pixels, ccodecs_layout layout, uint32_t y, uint8_t *row, uint32_t width);

#endif
