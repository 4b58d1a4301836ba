/* libjpeg plumbing shared by the wrappers' JPEG files and framed's JPEG engines
 * (ccodecs_jpeglib.h): the error manager, the scan cap, the source over a ccodecs_input, the
 * scans it can pass over, and the watching of coefficient arrays. */
#include <errno.h>
#include <string.h>
#include <jerror.h>
#include "ccodecs_jpeglib.h"

static void on_error(j_common_ptr cinfo) {
    ccodecs_jpeg_errors *errors = (ccodecs_jpeg_errors *)cinfo->err;
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
    ccodecs_jpeg_errors *errors = (ccodecs_jpeg_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->pub.format_message(cinfo, text);
    if (errors->pub.msg_code == JWRN_JPEG_EOF) errors->hit_end = 1;
    ccodecs_note_warning(errors->out, text);
}

struct jpeg_error_mgr *ccodecs_jpeg_errors_init(ccodecs_jpeg_errors *errors, char *message, ccodecs_decoded *out) {
    memset(errors, 0, sizeof *errors);
    jpeg_std_error(&errors->pub);
    errors->pub.error_exit = on_error;
    errors->pub.emit_message = on_message;
    errors->message = message;
    errors->out = out;
    message[0] = 0;
    return &errors->pub;
}

void ccodecs_jpeg_count_scans(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number <= CCODECS_JPEG_MAX_SCANS) return;
    ccodecs_jpeg_errors *errors = (ccodecs_jpeg_errors *)cinfo->err;
    ccodecs_message(errors->message, "more than %d scans (a pathological progressive JPEG)",
                    CCODECS_JPEG_MAX_SCANS);
    errors->status = CCODECS_ERROR;
    longjmp(errors->jump, 1);
}

/* Moves the offset past any unread scans it has reached; the number of bytes from there to
 * the next one (SIZE_MAX if none is left). */
static size_t pass_unread(ccodecs_jpeg_source *src) {
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
    ccodecs_jpeg_errors *errors = (ccodecs_jpeg_errors *)cinfo->err;
    ccodecs_message(errors->message, "%s", strerror(errno));
    errors->status = CCODECS_UNREADABLE;
    longjmp(errors->jump, 1);
}

static boolean source_fill(j_decompress_ptr cinfo) {
    static const JOCTET eoi[2] = {0xFF, JPEG_EOI};
    ccodecs_jpeg_source *src = (ccodecs_jpeg_source *)cinfo->src;
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
    ccodecs_jpeg_source *src = (ccodecs_jpeg_source *)cinfo->src;
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

void ccodecs_jpeg_use_input(j_decompress_ptr cinfo, ccodecs_jpeg_source *src, const ccodecs_input *input) {
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

size_t ccodecs_jpeg_source_position(const ccodecs_jpeg_source *src) {
    return src->offset - src->pub.bytes_in_buffer;
}

int ccodecs_jpeg_leave_unread(j_decompress_ptr cinfo, ccodecs_jpeg_source *src, ccodecs_span *spans, size_t listed,
                              const uint8_t ids[256]) {
    size_t kept = 0;
    for (size_t i = 0; i < listed; i++)
        if (ids[spans[i].component]) spans[kept++] = spans[i];
    if (!kept) return 0;
    cinfo->do_block_smoothing = FALSE;
    src->unread = spans;
    src->unread_count = kept;
    size_t from = ccodecs_jpeg_source_position(src);
    if (spans[0].start < src->offset) { /* already handed over: take it back */
        src->pub.bytes_in_buffer = spans[0].start - from;
        src->offset = spans[0].start;
    }
    return 1;
}

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
    ccodecs_jpeg_coefficients *arrays = cinfo->client_data;
    int c = arrays->count;
    /* An unused component's rows all become one scratch row: zeroing it again for each row
     * first written (as pre_zero asks) would be 24 MB of memset for a 12 MP picture, and the
     * DC scans write every row before any is read. */
    int scratch = c < MAX_COMPONENTS && arrays->unused >> c & 1 &&
                  is_component_array((j_decompress_ptr)cinfo, c, width, height);
    jvirt_barray_ptr array = arrays->request(cinfo, pool, scratch ? FALSE : pre_zero, width, height, access_rows);
    if (c < MAX_COMPONENTS)
        arrays->blocks[arrays->count++] = (ccodecs_jpeg_block_array){array, width, height, pre_zero, scratch};
    return array;
}

/* After libjpeg's own realize_virt_arrays, before the arrays are first written.
 * - Each array held in one piece is advised onto 2 MB pages: a 12 MP progressive picture's
 *   are 36 MB, some 8,800 faults of 4 KB otherwise (prog12 job: 169 -> 159 ms).
 * - The rows of a component whose coefficients this decompressor never looks at all point
 *   to one scratch row, so that its array is never touched and takes no memory: the DC scans
 *   still write its blocks' DCs (and the chroma half of framed's split decoder does not keep
 *   24 MB of luma it does not read).
 * libjpeg-turbo has no backing store (jmemnobs.c): an array that realize_virt_arrays returns
 * is whole, and access_virt_barray hands out its own array of row pointers, one for each row.
 * Reading row 0 (pre-zeroed arrays only, as the decoder's are) zeroes that row once more. */
static void realize_arrays(j_common_ptr cinfo) {
    ccodecs_jpeg_coefficients *arrays = cinfo->client_data;
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

void ccodecs_jpeg_watch_coefficients(j_decompress_ptr cinfo, ccodecs_jpeg_coefficients *arrays, unsigned unused) {
    struct jpeg_memory_mgr *mem = cinfo->mem;
    memset(arrays, 0, sizeof *arrays);
    arrays->unused = unused;
    arrays->request = mem->request_virt_barray;
    arrays->realize = mem->realize_virt_arrays;
    cinfo->client_data = arrays;
    mem->request_virt_barray = request_blocks;
    mem->realize_virt_arrays = realize_arrays;
}

void ccodecs_jpeg_begin(ccodecs_jpeg_decompressor *d, const ccodecs_input *input) {
    jpeg_create_decompress(&d->cinfo);
    d->progress.progress_monitor = ccodecs_jpeg_count_scans;
    d->cinfo.progress = &d->progress;
    ccodecs_jpeg_use_input(&d->cinfo, &d->source, input);
}
