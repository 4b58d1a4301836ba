/* The AC scans of a progressive JPEG, for a decode to leave unread those it does not need:
 * framed's scans engine (leave_unused, at 1/8), and the list the split decoder shares out
 * (jpegsplit.c).
 *
 * At 1/8 scale libjpeg turns each 8x8 block of a component whose DCT_scaled_size is 1 into one
 * pixel from its DC coefficient alone (jpeg_idct_1x1): that component's AC coefficients are
 * decoded and never used. In a progressive file they come in scans of their own (an AC scan
 * holds one component), and for luma those scans are most of the file: 82 % of the bench's
 * 12-megapixel progressive JPEG. Leaving them out of what libjpeg reads gives the same pixels
 * in a fraction of the time (measured on a 2-core Xeon, FRAMED_ENGINES on and -jpegscans: that
 * JPEG at 1/8 in 50 ms against 184 ms, framed-bench decode, medians of 9; a 300x200 thumbnail
 * of it in 0.058 against 0.187 s, make bench's engines table), as long as libjpeg's block smoothing (which guesses missing AC
 * coefficients from neighbouring DCs, and changes DCs too) stays off: the reader turns it off,
 * and leaves scans out only of a file whose own scans bring every coefficient of every
 * component to full precision, where libjpeg would not smooth either.
 *
 * The same list lets two decompressors share a file (jpegsplit.c): one reads every scan but
 * chroma's AC scans, the other every scan but luma's.
 *
 * The walk is careful rather than complete: anything it does not expect (a second frame, DNL,
 * a progression libjpeg would warn about, no EOI) makes it leave every scan in, and libjpeg
 * then reads the file as it always did. Damage inside a scan left out goes unseen. */
#include <stdlib.h>
#include <string.h>
#include "ccodecs_hooks.h"
#include "framed_engines.h"
#include "jpegscans.h"

/* The bytes of the input from `offset` on: at least `want` of them unless the input ends first
 * (*count says how many; 0 at the end). -1 when the file cannot be read. */
static int look(ccodecs_window *c, size_t offset, size_t want, const uint8_t **bytes, size_t *count) {
    ptrdiff_t n = ccodecs_window_look(c, offset, want, c->input->size, bytes);
    if (n < 0) return -1;
    *count = (size_t)n;
    return 0;
}

/* The offset of the marker that ends the entropy-coded data starting at `offset`: the 0xFF of
 * the first 0xFF xx that is neither a stuffed zero (FF 00) nor a restart marker (FF D0-D7),
 * after any fill bytes (FF FF). 0 if the input ends first or cannot be read. */
static size_t end_of_scan(ccodecs_window *c, size_t offset) {
    for (;;) {
        const uint8_t *bytes;
        size_t count;
        if (look(c, offset, 2, &bytes, &count) || count < 2) return 0;
        const uint8_t *ff = memchr(bytes, 0xFF, count - 1);
        if (!ff) {
            offset += count - 1;
            continue;
        }
        size_t at = offset + (size_t)(ff - bytes);
        uint8_t next = ff[1];
        if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) offset = at + 2;
        else if (next == 0xFF) offset = at + 1; /* a fill byte: the marker is the last FF */
        else return at;
    }
}

/* Per component, how many low bits of each coefficient are still missing after the scans so
 * far (libjpeg's coef_bits): -1 until the first scan that holds the coefficient. */
typedef struct {
    int id;
    int bits[64];
} progression;

/* Applies one scan's spectral band and successive approximation to a component, as libjpeg's
 * start_pass_phuff_decoder does, but refusing (0) where libjpeg would warn of a bogus
 * progression or stop with invalid parameters. */
static int apply_scan(progression *p, int ss, int se, int ah, int al) {
    if (al > 13 || (ah != 0 && ah != al + 1)) return 0;
    if (ss > 0 && p->bits[0] < 0) return 0; /* AC before DC */
    for (int k = ss; k <= se; k++) {
        if (ah == 0 ? p->bits[k] >= 0 : p->bits[k] != ah) return 0;
        p->bits[k] = al;
    }
    return 1;
}

/* Walks the markers of a progressive JPEG from its SOI to its EOI and lists, in file order,
 * its AC scans that start at or after offset `from`: at most `capacity` into `spans`; the
 * number listed is returned, 0 when the walk is not sure of the file. `window` is
 * CCODECS_READ_CHUNK bytes of scratch for a file input. */
static size_t ac_scans(const ccodecs_input *input, size_t from, uint8_t *window, ccodecs_span *spans,
                       size_t capacity) {
    ccodecs_window c = {.input = input, .buffer = window, .capacity = CCODECS_READ_CHUNK};
    progression components[4];
    int component_count = 0;
    size_t found = 0, offset = 2;
    const uint8_t *bytes;
    size_t count;
    if (look(&c, 0, 2, &bytes, &count) || count < 2 || bytes[0] != 0xFF || bytes[1] != 0xD8) return 0;
    for (;;) {
        if (look(&c, offset, 4, &bytes, &count) || count < 2 || bytes[0] != 0xFF) return 0;
        size_t at = offset;
        while (bytes[1] == 0xFF) /* fill bytes before the marker */
            if (look(&c, ++offset, 4, &bytes, &count) || count < 2) return 0;
        uint8_t marker = bytes[1];
        if (marker == 0xD9) break; /* EOI */
        /* Tables, restart interval, APPn and COM, or a frame or scan; not DNL, a stray RST,
         * SOI or TEM, nor the reserved markers libjpeg discards inside a scan. */
        int expected = marker == 0xC4 || marker == 0xCC || marker == 0xDB || marker == 0xDD ||
                       marker == 0xFE || (marker >= 0xE0 && marker <= 0xEF) || (marker >= 0xC0 && marker <= 0xCF) ||
                       marker == 0xDA;
        if (count < 4 || !expected) return 0;
        size_t length = (size_t)bytes[2] << 8 | bytes[3];
        if (length < 2) return 0;
        if (marker == 0xC2 || marker == 0xCA) { /* progressive SOF, Huffman or arithmetic */
            if (component_count || look(&c, offset, 2 + length, &bytes, &count) || count < 2 + length)
                return 0;
            int n = length >= 8 ? bytes[9] : 0;
            if (n < 1 || n > 4 || length < 8 + 3 * (size_t)n) return 0;
            for (int i = 0; i < n; i++) {
                components[i].id = bytes[10 + 3 * i];
                for (int k = 0; k < 64; k++) components[i].bits[k] = -1;
            }
            component_count = n;
        } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xCC) {
            return 0; /* any other frame */
        } else if (marker == 0xDA) {
            if (!component_count || look(&c, offset, 2 + length, &bytes, &count) || count < 2 + length)
                return 0;
            int n = length >= 3 ? bytes[4] : 0;
            if (n < 1 || n > component_count || length != 6 + 2 * (size_t)n) return 0;
            const uint8_t *band = bytes + 5 + 2 * n;
            int ss = band[0], se = band[1], ah = band[2] >> 4, al = band[2] & 15;
            if (ss > se || se > 63 || (ss == 0 && se != 0) || (ss > 0 && n != 1)) return 0;
            for (int i = 0; i < n; i++) {
                int id = bytes[5 + 2 * i], j = 0;
                while (j < component_count && components[j].id != id) j++;
                if (j == component_count || !apply_scan(&components[j], ss, se, ah, al)) return 0;
            }
            int component = bytes[5]; /* the one component of an AC scan */
            size_t end = end_of_scan(&c, offset + 2 + length); /* moves a file's window */
            if (!end) return 0;
            if (ss > 0 && at >= from) {
                if (found == capacity) return 0;
                spans[found++] = (ccodecs_span){at, end, component};
            }
            offset = end;
            continue;
        }
        offset += 2 + length;
    }
    /* libjpeg smooths unless every coefficient arrived whole: then leave everything in. */
    if (!component_count) return 0;
    for (int i = 0; i < component_count; i++)
        for (int k = 0; k < 64; k++)
            if (components[i].bits[k] != 0) return 0;
    return found;
}

size_t framed_jpeg_ac_scans(const ccodecs_jpeg_source *src, ccodecs_span *spans) {
    uint8_t *window = NULL;
    if (!src->input.data && !(window = malloc(CCODECS_READ_CHUNK))) return 0;
    size_t listed = ac_scans(&src->input, ccodecs_jpeg_source_position(src), window, spans, CCODECS_JPEG_MAX_SCANS);
    free(window);
    return listed;
}

/* The scans engine: after the header, with the scale set, has the reader's source pass over
 * the AC scans of the components that the scale shrinks to one pixel a block (at 1/8), whose
 * AC coefficients the decode would never use, and turns off the block smoothing that would
 * guess them. Any file the walk is not sure of is read whole. */
static void *leave_unused(ccodecs_jpeg_decompressor *reader) {
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
    if (!count) return NULL;
    ccodecs_span *spans = malloc(CCODECS_JPEG_MAX_SCANS * sizeof *spans);
    if (!spans) return NULL;
    size_t listed = framed_jpeg_ac_scans(&reader->source, spans);
    if (!listed || !ccodecs_jpeg_leave_unread(cinfo, &reader->source, spans, listed, ids)) {
        free(spans);
        return NULL;
    }
    return spans; /* the source passes over those kept */
}

static const struct ccodecs_jpeg_scans_engine engine = {leave_unused, free};

const struct ccodecs_jpeg_scans_engine *framed_engine_jpegscans(void) { return &engine; }
