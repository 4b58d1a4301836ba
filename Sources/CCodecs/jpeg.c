/* libjpeg-turbo wrappers. libjpeg reports errors by calling error_exit, which must not
 * return: ours longjmps back into the *_run function that called setjmp. State that must
 * survive the jump (libjpeg structs, allocations) lives in the public function's frame or
 * in the caller's structs, never in locals of the function holding setjmp.
 * APP1 (EXIF) and APP2 (ICC) markers are kept; CMYK and YCCK come out as CMYK samples for
 * color.c to convert. */
#include <stdio.h> /* before jpeglib.h */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include "ccodecs_common.h"
#include "ccodecs_color.h"
#include "jpegscans.h"
#include "jpegreduced.h"

typedef struct {
    struct jpeg_error_mgr pub; /* first: libjpeg sees only this */
    jmp_buf jump;
    char *message;
    ccodecs_decoded *out;      /* where warnings are counted */
    int hit_end;               /* libjpeg ran out of data (JWRN_JPEG_EOF) */
    int status;                /* set before the jump */
} jpeg_errors;

static void on_error(j_common_ptr cinfo) {
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->pub.format_message(cinfo, text);
    if (errors->hit_end)
        ccodecs_message(errors->message, "premature end of data (%s)", text);
    else
        ccodecs_message(errors->message, "%s", text);
    errors->status = errors->pub.msg_code == JERR_OUT_OF_MEMORY ? CCODECS_NO_MEMORY : CCODECS_ERROR;
    longjmp(errors->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace output */
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->pub.format_message(cinfo, text);
    if (errors->pub.msg_code == JWRN_JPEG_EOF) errors->hit_end = 1;
    ccodecs_note_warning(errors->out, text);
}

/* Each scan of a progressive (or multi-scan) JPEG is a pass over the whole picture, and a
 * small file can hold thousands of scans that each cost a full pass (the "pathological
 * progressive JPEG" that libjpeg-turbo's own tools and fuzzers cap): more scans than this are
 * refused as an error. Ordinary progressive files have about 10. */
#define CCODECS_JPEG_MAX_SCANS 500

/* libjpeg calls this before it absorbs each row of MCUs in jpeg_start_decompress (and
 * between output passes): past the scan limit it bails out through the error jump. */
static void count_scans(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number <= CCODECS_JPEG_MAX_SCANS) return;
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    ccodecs_message(errors->message, "more than %d scans (a pathological progressive JPEG)",
                    CCODECS_JPEG_MAX_SCANS);
    errors->status = CCODECS_ERROR;
    longjmp(errors->jump, 1);
}

/* Whether `size` bytes could hold the entropy-coded data of this picture. A Huffman-coded
 * scan spends at least one bit on each 8x8 block (its DC difference; sequential scans also an
 * end-of-block code), so a file with fewer bits than the picture has blocks is cut short
 * beyond anything worth decoding: refused before the pixels are allocated, rather than
 * allocating a huge picture for a few bytes and filling it with gray. Arithmetic coding has
 * no such floor and is let through (the --max-pixels limit still bounds it). */
static int could_hold_blocks(struct jpeg_decompress_struct *cinfo, size_t size) {
    if (cinfo->arith_code) return 1;
    uint64_t blocks = 0;
    for (int c = 0; c < cinfo->num_components; c++)
        blocks += (uint64_t)cinfo->comp_info[c].width_in_blocks * cinfo->comp_info[c].height_in_blocks;
    return blocks <= (uint64_t)size * 8;
}

static struct jpeg_error_mgr *errors_init(jpeg_errors *errors, char *message, ccodecs_decoded *out) {
    memset(errors, 0, sizeof *errors);
    jpeg_std_error(&errors->pub);
    errors->pub.error_exit = on_error;
    errors->pub.emit_message = on_message;
    errors->message = message;
    errors->out = out;
    message[0] = 0;
    return &errors->pub;
}

/* JFIF density as dots per inch, 0 when the file gives only an aspect ratio. */
static double density_dpi(int unit, unsigned density) {
    if (unit == 1) return density;
    if (unit == 2) return density * 2.54;
    return 0;
}

static ccodecs_color_space color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return CCODECS_COLOR_GRAY;
    case JCS_RGB: return CCODECS_COLOR_RGB;
    case JCS_YCbCr: return CCODECS_COLOR_YCBCR;
    case JCS_CMYK: return CCODECS_COLOR_CMYK;
    case JCS_YCCK: return CCODECS_COLOR_YCCK;
    default: return CCODECS_COLOR_UNKNOWN;
    }
}

/* Asks libjpeg to keep the markers that hold EXIF (APP1) and ICC profiles (APP2). */
static void save_markers(struct jpeg_decompress_struct *cinfo) {
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
}

/* The first APP1 marker that starts with "Exif\0": *exif points past its 6-byte header. */
static int find_exif(struct jpeg_decompress_struct *cinfo, const uint8_t **exif, size_t *size) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && !memcmp(m->data, "Exif", 5)) {
            *exif = m->data + 6;
            *size = m->data_length - 6;
            return 1;
        }
    return 0;
}

static int has_icc(struct jpeg_decompress_struct *cinfo) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 2 && m->data_length > 14 && !memcmp(m->data, "ICC_PROFILE", 12))
            return 1;
    return 0;
}

/* Picks the output colour space and says how its pixels are to be read: CMYK stays CMYK
 * (libjpeg turns YCCK into CMYK), Adobe's marker meaning inverted samples. */
static void choose_output(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out) {
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        cinfo->out_color_space = JCS_CMYK;
        out->pixel_format = cinfo->saw_Adobe_marker ? CCODECS_PIXELS_CMYK_INVERTED : CCODECS_PIXELS_CMYK;
        return;
    }
    if (cinfo->jpeg_color_space == JCS_GRAYSCALE) {
        /* One sample a pixel, made RGBA by ccodecs_expand_gray: a third of the instructions of
         * libjpeg-turbo's gray-to-RGBA conversion (callgrind, 12 MP: 38 M against 120 M). */
        cinfo->out_color_space = JCS_GRAYSCALE;
        out->pixel_format = CCODECS_PIXELS_GRAY;
        return;
    }
    cinfo->out_color_space = JCS_EXT_RGBA; /* RGB and YCbCr sources (libjpeg-turbo) */
    out->pixel_format = CCODECS_PIXELS_RGBA;
}

/* Copies the EXIF and the (reassembled) ICC profile into `out`. */
static int keep_metadata(struct jpeg_decompress_struct *cinfo, ccodecs_decoded *out, char *message) {
    const uint8_t *exif;
    size_t size;
    if (find_exif(cinfo, &exif, &size)) {
        if (!(out->exif = malloc(size))) {
            ccodecs_message(message, "out of memory");
            return CCODECS_NO_MEMORY;
        }
        memcpy(out->exif, exif, size);
        out->exif_size = size;
    }
    JOCTET *icc = NULL;
    unsigned icc_size = 0;
    if (jpeg_read_icc_profile(cinfo, &icc, &icc_size)) { /* malloc'd; bad chunks: a warning */
        out->icc = icc;
        out->icc_size = icc_size;
    }
    return CCODECS_OK;
}

/* A libjpeg source over a ccodecs_input. Memory is handed over whole, as jpeg_mem_src does;
 * a file a chunk at a time (pread into CCODECS_READ_CHUNK bytes), and what libjpeg skips
 * (markers it does not keep) is not read at all. At the end of the data comes a warning and
 * a fake EOI marker, as from jpeg_mem_src, so that a truncated picture decodes alike from
 * either. Scans listed in `unread` (leave_unused_scans) are passed over as if the file did
 * not hold them. */
typedef struct {
    struct jpeg_source_mgr pub; /* first: libjpeg sees only this */
    ccodecs_input input;
    size_t offset;              /* the first byte of the input not yet handed to libjpeg */
    JOCTET *chunk;              /* files only */
    const ccodecs_span *unread; /* in file order */
    size_t unread_count, next_unread;
} input_source;

/* Moves the offset past any unread scans it has reached; the number of bytes from there to
 * the next one (SIZE_MAX if none is left). */
static size_t pass_unread(input_source *src) {
    while (src->next_unread < src->unread_count && src->offset >= src->unread[src->next_unread].start) {
        if (src->offset < src->unread[src->next_unread].end) src->offset = src->unread[src->next_unread].end;
        src->next_unread++;
    }
    return src->next_unread < src->unread_count ? src->unread[src->next_unread].start - src->offset : SIZE_MAX;
}

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

/* A read error: the system's reason, through the error jump. */
static void source_unreadable(j_decompress_ptr cinfo) {
    jpeg_errors *errors = (jpeg_errors *)cinfo->err;
    ccodecs_message(errors->message, "%s", strerror(errno));
    errors->status = CCODECS_UNREADABLE;
    longjmp(errors->jump, 1);
}

static boolean source_fill(j_decompress_ptr cinfo) {
    static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
    input_source *src = (input_source *)cinfo->src;
    size_t count = 0, limit = pass_unread(src);
    if (src->input.data) {
        src->pub.next_input_byte = src->input.data + src->offset;
        count = src->input.size - src->offset;
        if (count > limit) count = limit;
    } else {
        size_t want = CCODECS_READ_CHUNK < limit ? CCODECS_READ_CHUNK : limit;
        ptrdiff_t n = ccodecs_input_read(&src->input, src->offset, src->chunk, want);
        if (n < 0) source_unreadable(cinfo);
        src->pub.next_input_byte = src->chunk;
        count = (size_t)n;
    }
    src->offset += count;
    if (count == 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->pub.next_input_byte = eoi;
        count = sizeof eoi;
    }
    src->pub.bytes_in_buffer = count;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long num_bytes) {
    input_source *src = (input_source *)cinfo->src;
    if (num_bytes <= 0) return;
    size_t n = (size_t)num_bytes;
    while (n > src->pub.bytes_in_buffer) {
        n -= src->pub.bytes_in_buffer;
        src->pub.bytes_in_buffer = 0;
        size_t limit = pass_unread(src), unread = src->input.size - src->offset;
        if (unread > limit) unread = limit;
        size_t skip = n < unread ? n : unread;
        src->offset += skip;
        n -= skip;
        if (n == 0) return;
        source_fill(cinfo); /* past the end: the fake EOI, as jpeg_mem_src would */
    }
    src->pub.next_input_byte += n;
    src->pub.bytes_in_buffer -= n;
}

/* Reads from `input` (which must outlive the decompression). Call after jpeg_create_decompress. */
static void use_input(j_decompress_ptr cinfo, input_source *src, const ccodecs_input *input) {
    if (!input->size) ERREXIT(cinfo, JERR_INPUT_EMPTY);
    memset(src, 0, sizeof *src);
    src->input = *input;
    if (!input->data)
        src->chunk = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, CCODECS_READ_CHUNK);
    src->pub.init_source = source_init;
    src->pub.fill_input_buffer = source_fill;
    src->pub.skip_input_data = source_skip;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = source_term;
    cinfo->src = &src->pub;
}

static int info_run(struct jpeg_decompress_struct *cinfo, jpeg_errors *errors, input_source *source,
                    const ccodecs_input *input, ccodecs_image_info *info) {
    if (setjmp(errors->jump)) return errors->status;
    jpeg_create_decompress(cinfo);
    use_input(cinfo, source, input);
    save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->components = cinfo->num_components;
    info->bit_depth = cinfo->data_precision;
    info->color_space = color_space(cinfo->jpeg_color_space);
    info->progressive = cinfo->progressive_mode;
    info->dpi_x = density_dpi(cinfo->density_unit, cinfo->X_density);
    info->dpi_y = density_dpi(cinfo->density_unit, cinfo->Y_density);
    info->has_icc = has_icc(cinfo);
    info->orientation = 1;
    const uint8_t *exif;
    size_t exif_size;
    if (find_exif(cinfo, &exif, &exif_size)) {
        info->orientation = ccodecs_exif_orientation(exif, exif_size);
        if (info->dpi_x <= 0) info->dpi_x = info->dpi_y = ccodecs_exif_dpi(exif, exif_size);
    }
    return CCODECS_OK;
}

int ccodecs_jpeg_info_input(const ccodecs_input *input, ccodecs_image_info *info, char *message) {
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    input_source source;
    ccodecs_decoded warnings = {0};
    memset(&cinfo, 0, sizeof cinfo);
    memset(info, 0, sizeof *info);
    cinfo.err = errors_init(&errors, message, &warnings);
    int status = info_run(&cinfo, &errors, &source, input, info);
    jpeg_destroy_decompress(&cinfo);
    return status;
}

int ccodecs_jpeg_info(const uint8_t *data, size_t size, ccodecs_image_info *info, char *message) {
    ccodecs_input input = {.data = data, .fd = -1, .size = data ? size : 0};
    return ccodecs_jpeg_info_input(&input, info, message);
}

/* A coefficient array libjpeg was asked for: width blocks by height rows. */
typedef struct {
    jvirt_barray_ptr array;
    JDIMENSION width, height;
    boolean pre_zero;
    int scratch; /* an unused component's: its rows all become one scratch row */
} block_array;

/* One decompressor's coefficient arrays (a multi-scan JPEG keeps every block of the picture),
 * seen through the memory-manager methods that libjpeg calls for them (watch_coefficients). */
typedef struct {
    jvirt_barray_ptr (*request)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*realize)(j_common_ptr);
    block_array blocks[MAX_COMPONENTS]; /* in component order, as jdcoefct.c asks for them */
    int count;
    unsigned unused; /* bit c: component c's coefficients are never looked at (split_decode) */
} coefficient_arrays;

/* Whether an array of width x height blocks is component c's, as jinit_d_coef_controller asks
 * for them (in component order, rounded up to whole MCUs). */
static int is_component_array(j_decompress_ptr cinfo, int c, JDIMENSION width, JDIMENSION height) {
    if (c >= cinfo->num_components) return 0;
    const jpeg_component_info *component = &cinfo->comp_info[c];
    JDIMENSION h = (JDIMENSION)component->h_samp_factor, v = (JDIMENSION)component->v_samp_factor;
    return h && v && width == (component->width_in_blocks + h - 1) / h * h &&
           height == (component->height_in_blocks + v - 1) / v * v;
}

static jvirt_barray_ptr request_blocks(j_common_ptr cinfo, int pool, boolean pre_zero, JDIMENSION width,
                                       JDIMENSION height, JDIMENSION access_rows) {
    coefficient_arrays *arrays = cinfo->client_data;
    int c = arrays->count;
    /* An unused component's rows all become one scratch row: zeroing it again for each row
     * first written (as pre_zero asks) would be 24 MB of memset for a 12 MP picture, and the
     * DC scans write every row before any is read. */
    int scratch = c < MAX_COMPONENTS && arrays->unused >> c & 1 &&
                  is_component_array((j_decompress_ptr)cinfo, c, width, height);
    jvirt_barray_ptr array = arrays->request(cinfo, pool, scratch ? FALSE : pre_zero, width, height, access_rows);
    if (c < MAX_COMPONENTS) arrays->blocks[arrays->count++] = (block_array){array, width, height, pre_zero, scratch};
    return array;
}

/* After libjpeg's own realize_virt_arrays, before the arrays are first written.
 * - Each array held in one piece is advised onto 2 MB pages: a 12 MP progressive picture's
 *   are 36 MB, some 8,800 faults of 4 KB otherwise (prog12 job: 169 -> 159 ms).
 * - The rows of a component whose coefficients this decompressor never looks at all point
 *   to one scratch row, so that its array is never touched and takes no memory: the DC scans
 *   still write its blocks' DCs (and the other half of split_decode does not keep 24 MB of
 *   luma it does not read).
 * libjpeg-turbo has no backing store (jmemnobs.c): an array that realize_virt_arrays returns
 * is whole, and access_virt_barray hands out its own array of row pointers, one for each row.
 * Reading row 0 (pre-zeroed arrays only, as the decoder's are) zeroes that row once more. */
static void realize_arrays(j_common_ptr cinfo) {
    coefficient_arrays *arrays = cinfo->client_data;
    arrays->realize(cinfo);
    for (int i = 0; i < arrays->count; i++) {
        JDIMENSION width = arrays->blocks[i].width, height = arrays->blocks[i].height;
        if (!width || !height) continue;
        if (arrays->blocks[i].scratch) {
            /* Row 0 taken as written (the first DC scan writes it, and every row, first). */
            JBLOCKARRAY rows = cinfo->mem->access_virt_barray(cinfo, arrays->blocks[i].array, 0, 1, TRUE);
            JBLOCKROW scratch = (*cinfo->mem->alloc_large)(cinfo, JPOOL_IMAGE, (size_t)width * sizeof(JBLOCK));
            for (JDIMENSION y = 0; y < height; y++) rows[y] = scratch;
        } else if (arrays->blocks[i].pre_zero) {
            JBLOCKARRAY rows = cinfo->mem->access_virt_barray(cinfo, arrays->blocks[i].array, 0, 1, FALSE);
            if (rows[height - 1] == rows[0] + (size_t)(height - 1) * width)
                ccodecs_advise_huge_pages(rows[0], (size_t)height * width * sizeof(JBLOCK));
        }
    }
}

/* Wraps this decompressor's own memory-manager methods for realize_arrays; call before
 * jpeg_start_decompress. `arrays` must outlive the decompression. */
static void watch_coefficients(j_decompress_ptr cinfo, coefficient_arrays *arrays, unsigned unused) {
    struct jpeg_memory_mgr *mem = cinfo->mem;
    memset(arrays, 0, sizeof *arrays);
    arrays->unused = unused;
    arrays->request = mem->request_virt_barray;
    arrays->realize = mem->realize_virt_arrays;
    cinfo->client_data = arrays;
    mem->request_virt_barray = request_blocks;
    mem->realize_virt_arrays = realize_arrays;
}

/* A progressive file's AC scans at or after the next byte libjpeg reads (jpegscans.c); 0 when
 * the walk is not sure of the file (or the file cannot be read). */
static size_t list_ac_scans(input_source *src, ccodecs_span *spans) {
    uint8_t *window = NULL;
    if (!src->input.data && !(window = malloc(CCODECS_READ_CHUNK))) return 0;
    size_t from = src->offset - src->pub.bytes_in_buffer;
    size_t listed = ccodecs_jpeg_ac_scans(&src->input, from, window, spans, CCODECS_JPEG_MAX_SCANS);
    free(window);
    return listed;
}

/* Keeps the scans whose component id is marked in `ids` and has the source pass over
 * them: `spans` (listed by list_ac_scans, `listed` of them) becomes that list. libjpeg's block
 * smoothing, which would guess their coefficients, is turned off. Whether any was left. */
static int leave_unread(j_decompress_ptr cinfo, input_source *src, ccodecs_span *spans, size_t listed,
                        const uint8_t ids[256]) {
    size_t kept = 0;
    for (size_t i = 0; i < listed; i++)
        if (ids[spans[i].component]) spans[kept++] = spans[i];
    if (!kept) return 0;
    cinfo->do_block_smoothing = FALSE;
    src->unread = spans;
    src->unread_count = kept;
    size_t from = src->offset - src->pub.bytes_in_buffer;
    if (spans[0].start < src->offset) { /* already handed over: take it back */
        src->pub.bytes_in_buffer = spans[0].start - from;
        src->offset = spans[0].start;
    }
    return 1;
}

/* What split_decode adds to a reader: a second decompressor over the same input, for the
 * chroma, and the tables of libjpeg's YCbCr to RGB conversion. */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    struct jpeg_progress_mgr progress;
    input_source source;
    coefficient_arrays arrays;
    ccodecs_span unread[CCODECS_JPEG_MAX_SCANS];
    ccodecs_decoded warnings; /* while it runs on its own thread */
    char message[CCODECS_MESSAGE_SIZE];
    pthread_t thread;
    int running, status;
    ccodecs_ycc_tables ycc;
} chroma_decoder;

/* A JPEG between ccodecs_jpeg_open and ccodecs_reader_close: everything libjpeg needs lives
 * here, on the heap, across the two calls (each sets its own error jump). */
typedef struct {
    ccodecs_reader pub; /* first */
    struct jpeg_decompress_struct cinfo;
    jpeg_errors errors;
    struct jpeg_progress_mgr progress;
    input_source source;
    ccodecs_span unread[CCODECS_JPEG_MAX_SCANS]; /* reader_ac_scans, then what is left unread */
    size_t ac_scans;        /* how many reader_ac_scans listed */
    int walked;             /* whether it has */
    coefficient_arrays arrays;
    chroma_decoder *chroma; /* split_decode */
    ccodecs_reduced *reduced; /* a baseline picture at 1/8, 1/4, 3/8 or 1/2: jpegreduced.c */
} jpeg_reader;

/* The file's AC scans (list_ac_scans) into reader->unread, walked once for both
 * leave_unused_scans and split_decode: neither changes the list unless it keeps scans out. */
static size_t reader_ac_scans(jpeg_reader *reader) {
    if (!reader->walked) {
        reader->ac_scans = list_ac_scans(&reader->source, reader->unread);
        reader->walked = 1;
    }
    return reader->ac_scans;
}

/* After jpeg_read_header, with the scale set: has the source pass over the AC scans of the
 * components that the scale shrinks to one pixel a block, whose AC coefficients the
 * decode would never use (jpegscans.c), and turns off the block smoothing that would guess
 * them. Any file the walk is not sure of is read whole. Whether any scan is left unread. */
static int leave_unused_scans(jpeg_reader *reader) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    uint8_t ids[256] = {0};
    int count = 0;
    for (int c = 0; c < cinfo->num_components && c < MAX_COMPONENTS; c++) {
        jpeg_component_info *component = &cinfo->comp_info[c];
#if JPEG_LIB_VERSION >= 70
        if (component->DCT_h_scaled_size == 1 && component->DCT_v_scaled_size == 1)
#else
        if (component->DCT_scaled_size == 1)
#endif
        {
            ids[component->component_id & 255] = 1;
            count++;
        }
    }
    if (!count) return 0;
    size_t listed = reader_ac_scans(reader);
    return listed && leave_unread(cinfo, &reader->source, reader->unread, listed, ids);
}

/* A row of luma (from the reader) and YCbCr (the chroma decoder's; its Y is not used) as RGBA. */
static void merge_row(const chroma_decoder *chroma, uint8_t *restrict rgba, const uint8_t *restrict luma,
                      const uint8_t *restrict ycc, JDIMENSION width) {
    for (JDIMENSION x = 0; x < width; x++)
        ccodecs_ycc_pixel(&chroma->ycc, rgba + 4 * (size_t)x, luma[x], ycc[3 * x + 1], ycc[3 * x + 2]);
}

/* The chroma decoder's own reading of the header, with its error jump. The reader's list of
 * AC scans (`listed` of them, from offset `from` on) serves it too, as its header ends at the
 * same byte. */
static int chroma_open(chroma_decoder *chroma, const ccodecs_input *input, unsigned scale_eighths,
                       const ccodecs_span *spans, size_t listed, size_t from, const uint8_t ids[256]) {
    struct jpeg_decompress_struct *cinfo = &chroma->cinfo;
    if (setjmp(chroma->errors.jump)) return chroma->errors.status;
    jpeg_create_decompress(cinfo);
    chroma->progress.progress_monitor = count_scans;
    cinfo->progress = &chroma->progress;
    use_input(cinfo, &chroma->source, input);
    jpeg_read_header(cinfo, TRUE);
    cinfo->scale_num = scale_eighths;
    cinfo->scale_denom = 8;
    cinfo->out_color_space = JCS_YCbCr;
    memcpy(chroma->unread, spans, listed * sizeof *spans);
    if (chroma->source.offset - chroma->source.pub.bytes_in_buffer != from ||
        !leave_unread(cinfo, &chroma->source, chroma->unread, listed, ids)) {
        ccodecs_message(chroma->message, "the scans cannot be shared out");
        return CCODECS_ERROR;
    }
    watch_coefficients(cinfo, &chroma->arrays, 1u); /* its luma is never looked at */
    return CCODECS_OK;
}

/* The chroma decoder's jpeg_start_decompress, which reads all its scans, on its own thread. */
static void *chroma_run(void *argument) {
    chroma_decoder *chroma = argument;
    if (setjmp(chroma->errors.jump)) {
        chroma->status = chroma->errors.status;
        return NULL;
    }
    jpeg_start_decompress(&chroma->cinfo);
    /* From here on its luma is not inverse-transformed (decompress_data passes over a component
     * not needed), which would double the reader's own work: the Y of its rows is left as it
     * was, and not used. */
    chroma->cinfo.comp_info[0].component_needed = FALSE;
    chroma->status = CCODECS_OK;
    return NULL;
}

/* A progressive YCbCr picture decoded by two libjpeg decompressors at once, each over the same
 * file with the other's AC scans left unread (jpegscans.c): the reader's decodes luma (its
 * output is gray), a second one on its own thread decodes chroma (its YCbCr output's Y is not
 * used); their rows are merged with libjpeg's own conversion. The AC scans of each component
 * depend only on that component's earlier scans, and libjpeg's upsampling of chroma and
 * conversion of each pixel only on that pixel's samples, so the pixels are those of one
 * decompressor; luma's scans are most of the work (140 of 156 ms for the bench's 12 MP
 * progressive JPEG at 1/4), and chroma's run beside them. Neither keeps the other's
 * coefficients (realize_arrays). Not at full size, where the rows to merge are many and the
 * reading of them (on one thread, after the scans) outweighs the gain: 162 -> 176 ms for that
 * JPEG. Called after jpeg_read_header and leave_unused_scans; returns 0 (and leaves the reader
 * as it was) when the file is not such a picture or the walk is not sure of it. */
static int split_decode(jpeg_reader *reader, unsigned scale_eighths) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    if (!cinfo->progressive_mode || cinfo->jpeg_color_space != JCS_YCbCr || cinfo->num_components != 3 ||
        cinfo->out_color_space != JCS_EXT_RGBA || scale_eighths >= 8)
        return 0;
    size_t listed = reader_ac_scans(reader);
    uint8_t luma[256] = {0}, chroma_ids[256] = {0};
    luma[cinfo->comp_info[0].component_id & 255] = 1;
    chroma_ids[cinfo->comp_info[1].component_id & 255] = chroma_ids[cinfo->comp_info[2].component_id & 255] = 1;
    int has_luma = 0, has_chroma = 0;
    for (size_t i = 0; i < listed; i++) {
        has_luma |= luma[reader->unread[i].component];
        has_chroma |= chroma_ids[reader->unread[i].component];
    }
    if (!has_luma || !has_chroma) return 0;
    chroma_decoder *chroma = calloc(1, sizeof *chroma);
    if (!chroma) return 0;
    chroma->cinfo.err = errors_init(&chroma->errors, chroma->message, &chroma->warnings);
    size_t from = reader->source.offset - reader->source.pub.bytes_in_buffer;
    if (chroma_open(chroma, &reader->source.input, scale_eighths, reader->unread, listed, from, luma) != CCODECS_OK) {
        jpeg_destroy_decompress(&chroma->cinfo);
        free(chroma);
        return 0;
    }
    ccodecs_ycc_tables_init(&chroma->ycc);
    if (pthread_create(&chroma->thread, NULL, chroma_run, chroma)) {
        jpeg_destroy_decompress(&chroma->cinfo);
        free(chroma);
        return 0;
    }
    chroma->running = 1;
    reader->chroma = chroma;
    leave_unread(cinfo, &reader->source, reader->unread, listed, chroma_ids);
    cinfo->out_color_space = JCS_GRAYSCALE; /* luma alone: the chroma's coefficients are not used */
    watch_coefficients(cinfo, &reader->arrays, 6u);
    return 1;
}

/* Waits for the chroma decoder's thread, if it runs, and takes its warnings (counted with the
 * reader's; the first one's text is the reader's, if it has one, rather than the file's first). */
static int join_chroma(jpeg_reader *reader, char *message) {
    chroma_decoder *chroma = reader->chroma;
    if (!chroma || !chroma->running) return CCODECS_OK;
    pthread_join(chroma->thread, NULL);
    chroma->running = 0;
    ccodecs_decoded *out = reader->errors.out;
    if (chroma->warnings.warnings) {
        if (!out->warnings) memcpy(out->warning, chroma->warnings.warning, sizeof out->warning);
        out->warnings += chroma->warnings.warnings;
    }
    if (chroma->status) ccodecs_message(message, "%s", chroma->message);
    return chroma->status;
}

static int open_run(jpeg_reader *reader, const ccodecs_input *input, int scale_eighths, int flags,
                    size_t max_pixels, ccodecs_decoded *out) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    jpeg_errors *errors = &reader->errors;
    if (setjmp(errors->jump)) return errors->status;
    int status;
    jpeg_create_decompress(cinfo);
    reader->progress.progress_monitor = count_scans;
    cinfo->progress = &reader->progress;
    use_input(cinfo, &reader->source, input);
    save_markers(cinfo);
    jpeg_read_header(cinfo, TRUE);
    out->width = cinfo->image_width;
    out->height = cinfo->image_height;
    out->dpi_x = density_dpi(cinfo->density_unit, cinfo->X_density);
    out->dpi_y = density_dpi(cinfo->density_unit, cinfo->Y_density);
    /* The source size bounds libjpeg's own memory (progressive coefficient buffers). */
    if ((status = ccodecs_check_size(out->width, out->height, max_pixels, errors->message)))
        return status;
    if (!could_hold_blocks(cinfo, input->size)) {
        ccodecs_message(errors->message, "%zu bytes cannot hold a %ux%u picture (the file is cut short)",
                        input->size, (unsigned)out->width, (unsigned)out->height);
        return CCODECS_ERROR;
    }
    if ((status = keep_metadata(cinfo, out, errors->message))) return status;
    choose_output(cinfo, out);
    cinfo->scale_num = (unsigned)scale_eighths;
    cinfo->scale_denom = 8;
    out->decoders = 1;
    if (cinfo->progressive_mode && !(flags & CCODECS_JPEG_LIBJPEG_ALONE)) {
        jpeg_calc_output_dimensions(cinfo);
        if (!leave_unused_scans(reader) && !(flags & CCODECS_JPEG_ONE_THREAD) && split_decode(reader, cinfo->scale_num))
            out->decoders = 2;
    }
    if (scale_eighths < 8 && !cinfo->progressive_mode && !(flags & CCODECS_JPEG_LIBJPEG_ALONE)) {
        jpeg_calc_output_dimensions(cinfo);
        reader->reduced = ccodecs_reduced_plan(cinfo, input, reader->source.offset - reader->source.pub.bytes_in_buffer,
                                               (flags & CCODECS_JPEG_ALWAYS_SPLIT) != 0);
    }
    /* With a plan for jpegreduced.c, jpeg_start_decompress waits for read_run, should it be
     * needed after all. */
    if (!reader->reduced) {
        if (jpeg_has_multiple_scans(cinfo) && !reader->chroma) watch_coefficients(cinfo, &reader->arrays, 0);
        jpeg_start_decompress(cinfo);
        if ((status = join_chroma(reader, errors->message))) return status;
        if (reader->chroma && (reader->chroma->cinfo.output_width != cinfo->output_width ||
                               reader->chroma->cinfo.output_height != cinfo->output_height)) {
            ccodecs_message(errors->message, "the luma and chroma decoders disagree on the size");
            return CCODECS_ERROR;
        }
    }
    /* A progressive file's scans were all read by jpeg_start_decompress (jpegreduced.c
     * publishes its rows as it writes them). */
    reader->pub.streams_rows = reader->reduced != NULL || !jpeg_has_multiple_scans(cinfo);
    out->width = cinfo->output_width;
    out->height = cinfo->output_height;
    out->scale_eighths = scale_eighths;
    return CCODECS_OK;
}

/* Both error jumps (the reader's, and a split_decode's chroma decoder's) lead here. */
static int read_run(jpeg_reader *reader, uint8_t *pixels, ccodecs_layout layout) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    chroma_decoder *chroma = reader->chroma;
    if (setjmp(reader->errors.jump)) return reader->errors.status;
    if (chroma && setjmp(chroma->errors.jump)) {
        ccodecs_message(reader->errors.message, "%s", chroma->message);
        return chroma->errors.status;
    }
    uint32_t published = 0; /* rows jpegreduced.c published, which libjpeg must leave alone */
    if (reader->reduced) {
        int threads = ccodecs_reduced_decode(reader->reduced, pixels, layout, reader->pub.threads, &reader->pub,
                                             &published);
        ccodecs_reduced_free(reader->reduced);
        reader->reduced = NULL;
        if (threads) {
            reader->errors.out->entropy_threads = threads;
            return CCODECS_OK;
        }
        jpeg_start_decompress(cinfo); /* libjpeg decodes the file after all */
    }
    JDIMENSION width = cinfo->output_width;
    size_t stride = (size_t)width * 4;
    /* Rows go straight into place, or through one row when the layout turns the picture;
     * gray samples through a row of their own, expanded to RGBA on the way, or merged with the
     * chroma decoder's row of YCbCr (split_decode). */
    JSAMPROW row = ccodecs_layout_is_stored(layout, width) ? NULL
        : (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, stride);
    JSAMPROW gray = cinfo->out_color_space != JCS_GRAYSCALE ? NULL
        : (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, width);
    JSAMPROW ycc = !chroma ? NULL : (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, (size_t)width * 3);
    if (published) { /* the same pixels, already being read by the watcher: decoded aside */
        JSAMPROW aside = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, stride);
        while (cinfo->output_scanline < published) jpeg_read_scanlines(cinfo, &aside, 1);
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION y = cinfo->output_scanline;
        JSAMPROW rgba = row ? row : pixels + stride * y, target = gray ? gray : rgba;
        jpeg_read_scanlines(cinfo, &target, 1);
        if (ycc) {
            jpeg_read_scanlines(&chroma->cinfo, &ycc, 1);
            merge_row(chroma, rgba, gray, ycc, width);
        } else if (gray) {
            ccodecs_expand_gray(rgba, gray, width);
        }
        if (row) ccodecs_place_row(pixels, layout, y, row, width);
        else ccodecs_rows_published(&reader->pub, cinfo->output_scanline);
    }
    if (chroma) jpeg_finish_decompress(&chroma->cinfo);
    jpeg_finish_decompress(cinfo);
    return CCODECS_OK;
}

static int jpeg_reader_read(ccodecs_reader *base, uint8_t *pixels, ccodecs_layout layout,
                            ccodecs_decoded *out, char *message) {
    jpeg_reader *reader = (jpeg_reader *)base;
    reader->errors.message = message;
    reader->errors.out = out;
    if (reader->chroma) reader->chroma->errors.out = out;
    return read_run(reader, pixels, layout);
}

static void jpeg_reader_close(ccodecs_reader *base) {
    jpeg_reader *reader = (jpeg_reader *)base;
    if (reader->chroma) {
        char ignored[CCODECS_MESSAGE_SIZE];
        join_chroma(reader, ignored);
        jpeg_destroy_decompress(&reader->chroma->cinfo);
        free(reader->chroma);
    }
    ccodecs_reduced_free(reader->reduced);
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader);
}

int ccodecs_jpeg_open(const ccodecs_input *input, int scale_eighths, int flags, size_t max_pixels,
                      ccodecs_decoded *out, ccodecs_reader **reader, char *message) {
    memset(out, 0, sizeof *out);
    *reader = NULL;
    if (ccodecs_check_scale(scale_eighths, message)) return CCODECS_BAD_ARGUMENT;
    jpeg_reader *opened = calloc(1, sizeof *opened);
    if (!opened) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    opened->pub.read = jpeg_reader_read;
    opened->pub.close = jpeg_reader_close;
    opened->cinfo.err = errors_init(&opened->errors, message, out);
    int status = open_run(opened, input, scale_eighths, flags, max_pixels, out);
    if (status) {
        jpeg_reader_close(&opened->pub);
        ccodecs_decoded_release(out);
        return status;
    }
    *reader = &opened->pub;
    return CCODECS_OK;
}

int ccodecs_jpeg_decode(const uint8_t *data, size_t size, int scale_eighths, size_t max_pixels,
                        ccodecs_decoded *out, char *message) {
    ccodecs_input input = {.data = data, .fd = -1, .size = data ? size : 0};
    ccodecs_reader *reader;
    int status = ccodecs_jpeg_open(&input, scale_eighths, 0, max_pixels, out, &reader, message);
    return status ? status : ccodecs_read_all(reader, out, message);
}

/* A destination manager that appends to a ccodecs_buffer (jpeg_mem_dest would leave a
 * stale pointer behind if an error struck after it grew its buffer). */
typedef struct {
    struct jpeg_destination_mgr pub;
    ccodecs_buffer *out;
    JOCTET chunk[16384];
} buffer_destination;

static void destination_init(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = sizeof dest->chunk;
}

static boolean destination_empty(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    if (ccodecs_append(dest->out, dest->chunk, sizeof dest->chunk))
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    destination_init(cinfo);
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    buffer_destination *dest = (buffer_destination *)cinfo->dest;
    if (ccodecs_append(dest->out, dest->chunk, sizeof dest->chunk - dest->pub.free_in_buffer))
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
}

/* in_space: JCS_EXT_RGBA or JCS_CMYK, 4 bytes a pixel either way. */
static int encode_run(struct jpeg_compress_struct *cinfo, jpeg_errors *errors,
                      buffer_destination *dest, const uint8_t *rgba, J_COLOR_SPACE in_space,
                      uint32_t width, uint32_t height, int quality, double dpi, int flags, unsigned interval) {
    if (setjmp(errors->jump)) return errors->status;
    jpeg_create_compress(cinfo);
    cinfo->dest = &dest->pub;
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = in_space;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    if (in_space == JCS_CMYK) {
        jpeg_set_colorspace(cinfo, flags & CCODECS_JPEG_YCCK ? JCS_YCCK : JCS_CMYK);
        cinfo->write_Adobe_marker = (flags & (CCODECS_JPEG_ADOBE | CCODECS_JPEG_YCCK)) != 0;
    }
    if (flags & CCODECS_JPEG_GRAYSCALE) jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    if (flags & CCODECS_JPEG_PROGRESSIVE) jpeg_simple_progression(cinfo);
    if (flags & CCODECS_JPEG_ARITHMETIC) cinfo->arith_code = TRUE;
    if (flags & (CCODECS_JPEG_CHROMA_444 | CCODECS_JPEG_CHROMA_422) && cinfo->num_components == 3) {
        cinfo->comp_info[0].h_samp_factor = flags & CCODECS_JPEG_CHROMA_422 ? 2 : 1;
        cinfo->comp_info[0].v_samp_factor = 1;
    }
    if (flags & CCODECS_JPEG_RESTARTS) cinfo->restart_in_rows = 1;
    if (flags & CCODECS_JPEG_RESTARTS_7) cinfo->restart_interval = 7;
    if (interval) cinfo->restart_interval = interval;
    if (dpi > 0) {
        cinfo->density_unit = 1;
        cinfo->X_density = cinfo->Y_density = (UINT16)(dpi < 65535 ? dpi + 0.5 : 65535);
    }
    jpeg_start_compress(cinfo, TRUE);
    size_t stride = (size_t)width * 4;
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + stride * cinfo->next_scanline);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return CCODECS_OK;
}

static int encode(const uint8_t *rgba, J_COLOR_SPACE in_space, uint32_t width, uint32_t height,
                  int quality, double dpi, int flags, unsigned interval, ccodecs_buffer *out, char *message) {
    memset(out, 0, sizeof *out);
    struct jpeg_compress_struct cinfo;
    jpeg_errors errors;
    ccodecs_decoded warnings = {0};
    buffer_destination dest = {
        .pub = {.init_destination = destination_init,
                .empty_output_buffer = destination_empty,
                .term_destination = destination_term},
        .out = out};
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = errors_init(&errors, message, &warnings);
    int status = encode_run(&cinfo, &errors, &dest, rgba, in_space, width, height, quality, dpi, flags, interval);
    jpeg_destroy_compress(&cinfo);
    if (status) {
        free(out->data);
        memset(out, 0, sizeof *out);
    }
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* An encode in parts                                                                          */

/* In parts, a baseline JPEG of at least twice this many rows of MCUs is written with a
 * restart interval of half of them, whatever the thread count, so that the halves can be
 * encoded on two threads and joined. */
#define MIN_PART_MCU_ROWS 16

/* Pictures of fewer pixels are encoded on one thread (a thread's start would cost more than
 * it saves). Their bytes are the same either way. */
#define PARALLEL_PIXELS (1u << 19)

void ccodecs_jpeg_encode_split(uint32_t width, uint32_t height, int flags, ccodecs_jpeg_split *split) {
    *split = (ccodecs_jpeg_split){1, height, 0};
    if (!(flags & (CCODECS_JPEG_IN_PARTS | CCODECS_JPEG_PART_ROWS_1)) || width == 0 || height == 0 ||
        flags & (CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_ARITHMETIC | CCODECS_JPEG_RESTARTS | CCODECS_JPEG_RESTARTS_7))
        return;
    /* The MCU of libjpeg's defaults: luma 2x2 (4:2:0), or as the test flags set it. */
    int one = (flags & (CCODECS_JPEG_GRAYSCALE | CCODECS_JPEG_CHROMA_444)) != 0;
    uint32_t mcu_width = one ? 8 : 16, mcu_height = one || (flags & CCODECS_JPEG_CHROMA_422) ? 8 : 16;
    uint64_t per_row = ((uint64_t)width + mcu_width - 1) / mcu_width, rows = ((uint64_t)height + mcu_height - 1) / mcu_height;
    uint64_t least = flags & CCODECS_JPEG_PART_ROWS_1 ? 1 : MIN_PART_MCU_ROWS;
    uint64_t part = flags & CCODECS_JPEG_PART_ROWS_1 ? 1 : (rows + 1) / 2;
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
        part->status = encode(part->rgba, JCS_EXT_RGBA, part->width, part->rows, part->quality, part->dpi,
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

int ccodecs_jpeg_encode_rgb(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                            double dpi, int flags, int threads, ccodecs_buffer *out, char *message) {
    ccodecs_jpeg_split split;
    ccodecs_jpeg_encode_split(width, height, flags, &split);
    if (split.parts == 1 || threads < 2 || (uint64_t)width * height < PARALLEL_PIXELS)
        return encode(rgba, JCS_EXT_RGBA, width, height, quality, dpi, flags, split.interval, out, message);
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

int ccodecs_jpeg_encode_cmyk(const uint8_t *cmyk, uint32_t width, uint32_t height, int quality,
                             int flags, ccodecs_buffer *out, char *message) {
    return encode(cmyk, JCS_CMYK, width, height, quality, 0, flags, 0, out, message);
}
