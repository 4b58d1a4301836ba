/* A progressive YCbCr picture decoded by two libjpeg decompressors at once: framed's split
 * progressive decoder, at 1/2, 3/8 and 1/4 scale (and at 1/8 when the scans engine leaves every
 * scan in).
 *
 * Why: a progressive file's scans are all read, on one thread, before its first row comes out,
 * and luma's scans are most of that work (140 of 156 ms for the bench's 12 MP progressive JPEG
 * at 1/4), and chroma's are read beside them. Measured on a 2-core Xeon, FRAMED_ENGINES on and
 * -jpegsplit: that JPEG at 1/4 decodes in 0.175-0.208 s with this engine against 0.192-0.224 s
 * on one decompressor (framed-bench decode, three medians of 9), and its PNG job takes 0.183
 * against 0.198 s (make bench's engines table).
 *
 * How: each decompressor reads the same file with the other's AC scans left unread (jpegscans.c
 * lists them, the wrapper's source passes over them): the reader's decodes luma (its output is
 * gray), a second one on its own thread decodes chroma (its YCbCr output's Y is not used);
 * their rows are merged with libjpeg's own conversion (ycc.h). The AC scans of each component
 * depend only on that component's earlier scans, and libjpeg's upsampling of chroma and
 * conversion of each pixel only on that pixel's samples, so the pixels are those of one
 * decompressor. Neither keeps the other's coefficients (ccodecs_jpeg_watch_coefficients). Not
 * at full size, where the rows to merge are many and the reading of them (on one thread, after
 * the scans) outweighs the gain: 162 -> 176 ms for that JPEG. Anything the walk is not sure of
 * leaves the reader as it was. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ccodecs_hooks.h"
#include "framed_engines.h"
#include "jpegscans.h"
#include "ycc.h"

/* The second decompressor, over the same input, for the chroma; and the list of scans the
 * reader's source passes over. */
typedef struct {
    ccodecs_jpeg_decompressor chroma;
    ccodecs_span chroma_unread[CCODECS_JPEG_MAX_SCANS];
    ccodecs_span reader_unread[CCODECS_JPEG_MAX_SCANS];
    ccodecs_decoded warnings; /* while it runs on its own thread */
    char message[CCODECS_MESSAGE_SIZE];
    uint8_t *ycc;             /* a row of its output */
    pthread_t thread;
    int running, status;
    framed_ycc_tables tables;
} split_decoder;

/* The chroma decoder's own reading of the header, with its error jump. The reader's list of
 * AC scans (`listed` of them, from offset `from` on) serves it too, as its header ends at the
 * same byte. */
static int chroma_open(split_decoder *split, const ccodecs_input *input, unsigned scale_eighths,
                       const ccodecs_span *spans, size_t listed, size_t from, const uint8_t ids[256]) {
    ccodecs_jpeg_decompressor *d = &split->chroma;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->errors.jump)) return d->errors.status;
    ccodecs_jpeg_begin(d, input);
    jpeg_read_header(cinfo, TRUE);
    cinfo->scale_num = scale_eighths;
    cinfo->scale_denom = 8;
    cinfo->out_color_space = JCS_YCbCr;
    memcpy(split->chroma_unread, spans, listed * sizeof *spans);
    if (ccodecs_jpeg_source_position(&d->source) != from ||
        !ccodecs_jpeg_leave_unread(cinfo, &d->source, split->chroma_unread, listed, ids)) {
        ccodecs_message(split->message, "the scans cannot be shared out");
        return CCODECS_ERROR;
    }
    ccodecs_jpeg_watch_coefficients(cinfo, &d->arrays, 1u); /* its luma is never looked at */
    return CCODECS_OK;
}

/* The chroma decoder's jpeg_start_decompress, which reads all its scans, on its own thread. */
static void *chroma_run(void *argument) {
    split_decoder *split = argument;
    if (setjmp(split->chroma.errors.jump)) {
        split->status = split->chroma.errors.status;
        return NULL;
    }
    jpeg_start_decompress(&split->chroma.cinfo);
    /* From here on its luma is not inverse-transformed (decompress_data passes over a component
     * not needed), which would double the reader's own work: the Y of its rows is left as it
     * was, and not used. */
    split->chroma.cinfo.comp_info[0].component_needed = FALSE;
    split->status = CCODECS_OK;
    return NULL;
}

static void *start(ccodecs_jpeg_decompressor *reader) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    unsigned scale_eighths = cinfo->scale_num;
    if (!cinfo->progressive_mode || cinfo->jpeg_color_space != JCS_YCbCr || cinfo->num_components != 3 ||
        cinfo->out_color_space != JCS_EXT_RGBA || cinfo->scale_denom != 8 || scale_eighths >= 8)
        return NULL;
    split_decoder *split = calloc(1, sizeof *split);
    if (!split) return NULL;
    size_t listed = framed_jpeg_ac_scans(&reader->source, split->reader_unread);
    uint8_t luma[256] = {0}, chroma_ids[256] = {0};
    luma[cinfo->comp_info[0].component_id & 255] = 1;
    chroma_ids[cinfo->comp_info[1].component_id & 255] = chroma_ids[cinfo->comp_info[2].component_id & 255] = 1;
    int has_luma = 0, has_chroma = 0;
    for (size_t i = 0; i < listed; i++) {
        has_luma |= luma[split->reader_unread[i].component];
        has_chroma |= chroma_ids[split->reader_unread[i].component];
    }
    if (!has_luma || !has_chroma) {
        free(split);
        return NULL;
    }
    split->chroma.cinfo.err = ccodecs_jpeg_errors_init(&split->chroma.errors, split->message, &split->warnings);
    size_t from = ccodecs_jpeg_source_position(&reader->source);
    if (chroma_open(split, &reader->source.input, scale_eighths, split->reader_unread, listed, from, luma) != CCODECS_OK) {
        jpeg_destroy_decompress(&split->chroma.cinfo);
        free(split);
        return NULL;
    }
    framed_ycc_tables_init(&split->tables);
    if (pthread_create(&split->thread, NULL, chroma_run, split)) {
        jpeg_destroy_decompress(&split->chroma.cinfo);
        free(split);
        return NULL;
    }
    split->running = 1;
    ccodecs_jpeg_leave_unread(cinfo, &reader->source, split->reader_unread, listed, chroma_ids);
    cinfo->out_color_space = JCS_GRAYSCALE; /* luma alone: the chroma's coefficients are not used */
    ccodecs_jpeg_watch_coefficients(cinfo, &reader->arrays, 6u);
    return split;
}

/* Waits for the chroma decoder's thread, if it runs, and takes its warnings (counted with the
 * reader's, in `out`; the first one's text is the reader's, if it has one, rather than the
 * file's first). */
static int wait_for_chroma(split_decoder *split, ccodecs_decoded *out, char *message) {
    if (!split->running) return CCODECS_OK;
    pthread_join(split->thread, NULL);
    split->running = 0;
    if (split->warnings.warnings) {
        if (!out->warnings) memcpy(out->warning, split->warnings.warning, sizeof out->warning);
        out->warnings += split->warnings.warnings;
    }
    if (split->status) ccodecs_message(message, "%s", split->message);
    return split->status;
}

static int join(void *state, ccodecs_jpeg_decompressor *reader, char *message) {
    split_decoder *split = state;
    int status = wait_for_chroma(split, reader->errors.out, message);
    if (status) return status;
    struct jpeg_decompress_struct *chroma = &split->chroma.cinfo;
    if (chroma->output_width != reader->cinfo.output_width || chroma->output_height != reader->cinfo.output_height) {
        ccodecs_message(message, "the luma and chroma decoders disagree on the size");
        return CCODECS_ERROR;
    }
    return CCODECS_OK;
}

/* The chroma decoder's errors while rows are read jump here. */
static int row(void *state, const uint8_t *restrict luma, uint8_t *restrict rgba, uint32_t width,
               ccodecs_decoded *out, char *message) {
    split_decoder *split = state;
    ccodecs_jpeg_decompressor *d = &split->chroma;
    d->errors.out = out;
    if (setjmp(d->errors.jump)) {
        ccodecs_message(message, "%s", split->message);
        return d->errors.status;
    }
    if (!split->ycc)
        split->ycc = (*d->cinfo.mem->alloc_small)((j_common_ptr)&d->cinfo, JPOOL_IMAGE, (size_t)width * 3);
    jpeg_read_scanlines(&d->cinfo, &split->ycc, 1);
    const uint8_t *ycc = split->ycc;
    for (uint32_t x = 0; x < width; x++)
        framed_ycc_pixel(&split->tables, rgba + 4 * (size_t)x, luma[x], ycc[3 * x + 1], ycc[3 * x + 2]);
    return CCODECS_OK;
}

static int finish(void *state, ccodecs_decoded *out, char *message) {
    split_decoder *split = state;
    ccodecs_jpeg_decompressor *d = &split->chroma;
    d->errors.out = out;
    if (setjmp(d->errors.jump)) {
        ccodecs_message(message, "%s", split->message);
        return d->errors.status;
    }
    jpeg_finish_decompress(&d->cinfo);
    return CCODECS_OK;
}

static void release(void *state) {
    split_decoder *split = state;
    char ignored[CCODECS_MESSAGE_SIZE];
    ccodecs_decoded warnings = {0};
    wait_for_chroma(split, &warnings, ignored);
    jpeg_destroy_decompress(&split->chroma.cinfo);
    free(split);
}

static const struct ccodecs_jpeg_split_engine engine = {start, join, row, finish, release};

const struct ccodecs_jpeg_split_engine *framed_engine_jpegsplit(void) { return &engine; }
