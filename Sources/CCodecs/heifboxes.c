/* What a HEIF file's items code, read from its boxes and its codecs' headers without decoding,
 * for what libheif 1.15's API does not tell: the size each decoder is asked to decode. libheif
 * checks a picture's size against its `ispe` box only, but libde265 allocates what the HEVC
 * sequence parameter sets say (pic_width/height_in_luma_samples), dav1d what the AV1 frame
 * headers say (or the sequence header's maximum), and a grid asks for each of its tiles: a few
 * kilobytes whose ispe says 64x64 can code 16384x16384 pixels. Read here: the meta box (pitm,
 * iinf, iloc, iref, iprp with ipco and ipma, idat), the hvcC and av1C properties, and the
 * parameter sets, sequence headers and frame headers in the items' data, a few bytes of each. */
#include <stdlib.h>
#include <string.h>
#include "ccodecs_common.h"
#include "ccodecs_heif.h"
#include "ccodecs_heifboxes.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
/* The most of what a file may list (libheif's own limits are alike): more is refused. */
#define MAX_ITEMS 20000
#define MAX_EXTENTS 32
#define MAX_PROPERTIES 20000
#define MAX_META (64u << 20)
/* Image items nest (a grid of tiles, an identity of a grid): deeper than this is refused. */
#define MAX_DEPTH 8
/* NAL units and OBUs walked in an item's data, and bytes of one read to find a size. */
#define MAX_UNITS 100000
#define HEADER_BYTES 1024

/* ---- bytes and bits ---- */

typedef struct {
    const uint8_t *p;
    size_t size, at;
    int bad;                      /* read past the end */
} bytes;

static uint64_t take(bytes *b, int count) {
    if (b->bad || count > 8 || b->size - b->at < (size_t)count || b->at > b->size) {
        b->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < count; i++) v = v << 8 | b->p[b->at++];
    return v;
}

typedef struct {
    const uint8_t *p;
    size_t bits, at;
    int bad;
} bitreader;

static uint64_t bits(bitreader *r, int count) {
    uint64_t v = 0;
    for (int i = 0; i < count; i++) {
        if (r->at >= r->bits) {
            r->bad = 1;
            return 0;
        }
        v = v << 1 | ((r->p[r->at >> 3] >> (7 - (r->at & 7))) & 1);
        r->at++;
    }
    return v;
}

/* HEVC's ue(v). */
static uint64_t golomb(bitreader *r) {
    int zeros = 0;
    while (!r->bad && bits(r, 1) == 0)
        if (++zeros > 32) {
            r->bad = 1;
            return 0;
        }
    return ((uint64_t)1 << zeros) - 1 + bits(r, zeros);
}

/* AV1's uvlc(). */
static uint64_t uvlc(bitreader *r) {
    int zeros = 0;
    while (!r->bad && bits(r, 1) == 0) zeros++;
    if (zeros >= 32) return UINT32_MAX;
    return bits(r, zeros) + ((uint64_t)1 << zeros) - 1;
}

/* ---- the boxes ---- */

typedef struct {
    uint64_t offset, length;      /* in the file, or in idat (construction method 1) */
} extent;

typedef struct {
    uint32_t id, type;
    int method;                   /* 0: file offsets, 1: idat offsets, else unread */
    uint64_t base;
    extent extents[MAX_EXTENTS];
    int extent_count;
    int properties_at, property_count;  /* its property indexes in boxes.associations */
    int done;                     /* 1: coded_size being worked out, 2: worked out */
    uint64_t width, height;       /* coded_size's answer */
} item;

typedef struct {
    uint32_t type, from, to;
} reference;

typedef struct {
    uint32_t type;
    size_t at, size;              /* the payload, in meta */
} property;

struct ccodecs_heif_boxes {
    const ccodecs_input *input;
    uint8_t *meta;                /* the meta box's payload (after its version and flags) */
    size_t meta_size;
    size_t idat_at, idat_size;    /* in meta; idat_size 0 without one */
    uint32_t primary;
    item *items;
    int item_count;
    reference *references;
    int reference_count;
    property *properties;         /* ipco's boxes, property index i at i - 1 */
    int property_count;
    int *associations;            /* property indexes, items' runs (item.properties_at) */
    int association_count;
};

/* The next box inside [b->at, end): its type, and its payload as [*payload, *payload_end).
 * 0 at the end or at a box that does not fit. */
static int next_box(bytes *b, size_t end, uint32_t *type, size_t *payload, size_t *payload_end) {
    if (b->at + 8 > end) return 0;
    size_t start = b->at;
    uint64_t size = take(b, 4);
    *type = (uint32_t)take(b, 4);
    if (size == 1) size = take(b, 8);
    else if (size == 0) size = end - start;
    if (b->bad || size < b->at - start || size > end - start) return 0;
    *payload = b->at;
    *payload_end = start + (size_t)size;
    b->at = *payload_end;
    return 1;
}

static item *find_item(const ccodecs_heif_boxes *boxes, uint32_t id) {
    for (int i = 0; i < boxes->item_count; i++)
        if (boxes->items[i].id == id) return &boxes->items[i];
    return NULL;
}

static int parse_iinf(ccodecs_heif_boxes *boxes, bytes b, size_t end) {
    int version = (int)take(&b, 1);
    take(&b, 3);
    uint64_t count = take(&b, version == 0 ? 2 : 4);
    if (b.bad || count > MAX_ITEMS) return 0;
    if (!(boxes->items = calloc(count ? count : 1, sizeof *boxes->items))) return -1;
    uint32_t type;
    size_t payload, payload_end;
    while (boxes->item_count < (int)count && next_box(&b, end, &type, &payload, &payload_end)) {
        if (type != FOURCC('i', 'n', 'f', 'e')) continue;
        bytes e = {b.p, payload_end, payload, 0};
        int v = (int)take(&e, 1);
        take(&e, 3);
        if (v < 2) continue;
        item *it = &boxes->items[boxes->item_count];
        it->id = (uint32_t)take(&e, v == 2 ? 2 : 4);
        take(&e, 2);
        it->type = (uint32_t)take(&e, 4);
        it->method = -1;
        if (!e.bad) boxes->item_count++;
    }
    return 1;
}

static int parse_iloc(ccodecs_heif_boxes *boxes, bytes b) {
    int version = (int)take(&b, 1);
    take(&b, 3);
    int sizes = (int)take(&b, 1), more = (int)take(&b, 1);
    int offset_size = sizes >> 4, length_size = sizes & 15, base_size = more >> 4;
    int index_size = version >= 1 ? more & 15 : 0;
    uint64_t count = take(&b, version < 2 ? 2 : 4);
    if (b.bad || count > MAX_ITEMS) return 0;
    for (uint64_t i = 0; i < count && !b.bad; i++) {
        uint32_t id = (uint32_t)take(&b, version < 2 ? 2 : 4);
        int method = version >= 1 ? (int)(take(&b, 2) & 15) : 0;
        take(&b, 2);
        uint64_t base = take(&b, base_size);
        uint64_t extents = take(&b, 2);
        item *it = find_item(boxes, id);
        if (it) {
            it->method = method;
            it->base = base;
        }
        for (uint64_t k = 0; k < extents && !b.bad; k++) {
            take(&b, index_size);
            uint64_t offset = take(&b, offset_size), length = take(&b, length_size);
            if (it && it->extent_count < MAX_EXTENTS) it->extents[it->extent_count++] = (extent){offset, length};
            else if (it) return 0;
        }
    }
    return !b.bad;
}

static int parse_iref(ccodecs_heif_boxes *boxes, bytes b, size_t end) {
    int version = (int)take(&b, 1);
    take(&b, 3);
    int id_size = version == 0 ? 2 : 4;
    uint32_t type;
    size_t payload, payload_end;
    while (!b.bad && next_box(&b, end, &type, &payload, &payload_end)) {
        bytes r = {b.p, payload_end, payload, 0};
        uint32_t from = (uint32_t)take(&r, id_size);
        uint64_t count = take(&r, 2);
        for (uint64_t k = 0; k < count && !r.bad; k++) {
            uint32_t to = (uint32_t)take(&r, id_size);
            if (r.bad) break;
            if (boxes->reference_count >= MAX_ITEMS * 4) return 0;
            if (boxes->reference_count % 1024 == 0) {
                reference *grown = realloc(boxes->references, ((size_t)boxes->reference_count + 1024) * sizeof *grown);
                if (!grown) return -1;
                boxes->references = grown;
            }
            boxes->references[boxes->reference_count++] = (reference){type, from, to};
        }
    }
    return 1;
}

static int parse_iprp(ccodecs_heif_boxes *boxes, bytes b, size_t end) {
    uint32_t type;
    size_t payload, payload_end;
    while (next_box(&b, end, &type, &payload, &payload_end)) {
        bytes inner = {b.p, payload_end, payload, 0};
        if (type == FOURCC('i', 'p', 'c', 'o')) {
            uint32_t kind;
            size_t at, stop;
            while (next_box(&inner, payload_end, &kind, &at, &stop)) {
                if (boxes->property_count >= MAX_PROPERTIES) return 0;
                if (boxes->property_count % 256 == 0) {
                    property *grown = realloc(boxes->properties, ((size_t)boxes->property_count + 256) * sizeof *grown);
                    if (!grown) return -1;
                    boxes->properties = grown;
                }
                boxes->properties[boxes->property_count++] = (property){kind, at, stop - at};
            }
        } else if (type == FOURCC('i', 'p', 'm', 'a')) {
            int version = (int)take(&inner, 1), flags = (int)take(&inner, 3);
            uint64_t count = take(&inner, 4);
            if (inner.bad || count > MAX_ITEMS) return 0;
            for (uint64_t i = 0; i < count && !inner.bad; i++) {
                item *it = find_item(boxes, (uint32_t)take(&inner, version < 1 ? 2 : 4));
                int associations = (int)take(&inner, 1);
                if (it) it->properties_at = boxes->association_count, it->property_count = 0;
                for (int k = 0; k < associations && !inner.bad; k++) {
                    int index = (flags & 1) ? (int)(take(&inner, 2) & 0x7FFF) : (int)(take(&inner, 1) & 0x7F);
                    if (!it) continue;
                    if (boxes->association_count % 1024 == 0) {
                        int *grown = realloc(boxes->associations, ((size_t)boxes->association_count + 1024) * sizeof *grown);
                        if (!grown) return -1;
                        boxes->associations = grown;
                    }
                    if (boxes->association_count >= MAX_ITEMS * 16) return 0;
                    boxes->associations[boxes->association_count++] = index;
                    it->property_count++;
                }
            }
        }
    }
    return 1;
}

void ccodecs_heif_boxes_close(ccodecs_heif_boxes *boxes) {
    if (!boxes) return;
    free(boxes->meta);
    free(boxes->items);
    free(boxes->references);
    free(boxes->properties);
    free(boxes->associations);
    free(boxes);
}

int ccodecs_heif_boxes_open(const ccodecs_input *input, ccodecs_heif_boxes **opened, char *message) {
    *opened = NULL;
    ccodecs_heif_boxes *boxes = calloc(1, sizeof *boxes);
    if (!boxes) goto memory;
    boxes->input = input;
    /* The top-level boxes, to the meta box. */
    uint64_t at = 0;
    uint8_t head[16];
    for (int count = 0; count < 1000; count++) {
        ptrdiff_t got = ccodecs_input_read(input, (size_t)at, head, sizeof head);
        if (got < 8) break;
        bytes b = {head, (size_t)got, 0, 0};
        uint64_t size = take(&b, 4);
        uint32_t type = (uint32_t)take(&b, 4);
        if (size == 1) size = take(&b, 8);
        else if (size == 0) size = input->size - at;
        if (b.bad || size < b.at || size > input->size - at) break;
        if (type == FOURCC('m', 'e', 't', 'a')) {
            if (size - b.at < 4 || size > MAX_META) break;
            boxes->meta_size = (size_t)(size - b.at - 4);
            if (!(boxes->meta = malloc(boxes->meta_size ? boxes->meta_size : 1))) goto memory;
            if (ccodecs_input_read(input, (size_t)(at + b.at + 4), boxes->meta, boxes->meta_size) != (ptrdiff_t)boxes->meta_size) {
                ccodecs_message(message, "the HEIF file is cut short in its meta box");
                ccodecs_heif_boxes_close(boxes);
                return CCODECS_ERROR;
            }
            break;
        }
        at += size;
    }
    if (!boxes->meta) {
        ccodecs_message(message, "the HEIF file has no readable meta box");
        ccodecs_heif_boxes_close(boxes);
        return CCODECS_ERROR;
    }
    /* The meta box's children; iinf first, which the others name items of. */
    bytes b = {boxes->meta, boxes->meta_size, 0, 0};
    uint32_t type;
    size_t payload, payload_end;
    int ok = 1;
    while (ok > 0 && next_box(&b, boxes->meta_size, &type, &payload, &payload_end))
        if (type == FOURCC('i', 'i', 'n', 'f')) ok = parse_iinf(boxes, (bytes){boxes->meta, payload_end, payload, 0}, payload_end);
    b.at = 0;
    while (ok > 0 && next_box(&b, boxes->meta_size, &type, &payload, &payload_end)) {
        bytes inner = {boxes->meta, payload_end, payload, 0};
        switch (type) {
        case FOURCC('p', 'i', 't', 'm'): {
            int version = (int)take(&inner, 1);
            take(&inner, 3);
            boxes->primary = (uint32_t)take(&inner, version == 0 ? 2 : 4);
            break;
        }
        case FOURCC('i', 'l', 'o', 'c'):
            if (boxes->items) ok = parse_iloc(boxes, inner);
            break;
        case FOURCC('i', 'r', 'e', 'f'): ok = parse_iref(boxes, inner, payload_end); break;
        case FOURCC('i', 'p', 'r', 'p'): if (boxes->items) ok = parse_iprp(boxes, inner, payload_end); break;
        case FOURCC('i', 'd', 'a', 't'):
            boxes->idat_at = payload;
            boxes->idat_size = payload_end - payload;
            break;
        default: break;
        }
    }
    if (ok < 0) goto memory;
    if (!ok) {
        ccodecs_message(message, "the HEIF file's item boxes are corrupt or list too much");
        ccodecs_heif_boxes_close(boxes);
        return CCODECS_ERROR;
    }
    *opened = boxes;
    return CCODECS_OK;
memory:
    ccodecs_heif_boxes_close(boxes);
    ccodecs_message(message, "out of memory");
    return CCODECS_NO_MEMORY;
}

uint32_t ccodecs_heif_boxes_primary(const ccodecs_heif_boxes *boxes) { return boxes->primary; }

/* The payload of the item's first property of `type`, NULL without one. */
static const uint8_t *find_property(const ccodecs_heif_boxes *boxes, const item *it, uint32_t type, size_t *size) {
    for (int k = 0; k < it->property_count; k++) {
        int index = boxes->associations[it->properties_at + k];
        if (index < 1 || index > boxes->property_count) continue;
        const property *p = &boxes->properties[index - 1];
        if (p->type == type) {
            *size = p->size;
            return boxes->meta + p->at;
        }
    }
    return NULL;
}

int ccodecs_heif_boxes_ispe(const ccodecs_heif_boxes *boxes, uint32_t id, uint32_t *width, uint32_t *height) {
    const item *it = find_item(boxes, id);
    size_t size = 0;
    const uint8_t *ispe = it ? find_property(boxes, it, FOURCC('i', 's', 'p', 'e'), &size) : NULL;
    bytes b = {ispe, size, 4, 0};
    *width = (uint32_t)take(&b, 4);
    *height = (uint32_t)take(&b, 4);
    return ispe && !b.bad;
}

void ccodecs_heif_boxes_largest_ispe(const ccodecs_heif_boxes *boxes, uint32_t *width, uint32_t *height) {
    *width = *height = 0;
    for (int i = 0; i < boxes->item_count; i++) {
        uint32_t w, h;
        if (ccodecs_heif_boxes_ispe(boxes, boxes->items[i].id, &w, &h) && (uint64_t)w * h >= (uint64_t)*width * *height)
            *width = w, *height = h;
    }
}

/* Up to `count` bytes of the item's data from `offset` on (its extents one after the other;
 * an extent of length 0 runs to the end of the file or of idat): how many there are. */
static size_t item_read(const ccodecs_heif_boxes *boxes, const item *it, uint64_t offset, uint8_t *to, size_t count) {
    size_t done = 0;
    if (it->method != 0 && it->method != 1) return 0;  /* construction from other items: none here */
    for (int e = 0; e < it->extent_count && done < count; e++) {
        uint64_t start = it->base + it->extents[e].offset, length = it->extents[e].length;
        uint64_t limit = it->method == 1 ? boxes->idat_size : boxes->input->size;
        if (start > limit) return done;
        if (length == 0 || length > limit - start) length = limit - start;
        if (offset >= length) {
            offset -= length;
            continue;
        }
        size_t want = count - done;
        if (want > length - offset) want = (size_t)(length - offset);
        if (it->method == 1) {
            memcpy(to + done, boxes->meta + boxes->idat_at + start + offset, want);
        } else {
            ptrdiff_t got = ccodecs_input_read(boxes->input, (size_t)(start + offset), to + done, want);
            if (got < 0) return done;
            done += (size_t)got;
            if ((size_t)got < want) return done;
            offset = 0;
            continue;
        }
        done += want;
        offset = 0;
    }
    return done;
}

/* ---- HEVC ---- */

/* The size an HEVC sequence parameter set (a NAL unit, header included) says each picture
 * has; 0 when it is not one that libde265 reads (another layer's) or is cut short. */
static void hevc_sps(const uint8_t *nal, size_t size, uint64_t *width, uint64_t *height) {
    *width = *height = 0;
    if (size < 3 || ((nal[0] >> 1) & 63) != 33 || ((nal[0] & 1) << 5 | nal[1] >> 3) != 0) return;
    /* The payload without emulation prevention (00 00 03 -> 00 00). */
    uint8_t rbsp[HEADER_BYTES];
    size_t n = 0;
    int zeros = 0;
    for (size_t i = 2; i < size && n < sizeof rbsp; i++) {
        if (zeros >= 2 && nal[i] == 3) {
            zeros = 0;
            continue;
        }
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        rbsp[n++] = nal[i];
    }
    bitreader r = {rbsp, n * 8, 0, 0};
    bits(&r, 4);                                   /* sps_video_parameter_set_id */
    int sub_layers = (int)bits(&r, 3);             /* sps_max_sub_layers_minus1 */
    bits(&r, 1);
    bits(&r, 96);                                  /* profile_tier_level: general part */
    int profile_present[8] = {0}, level_present[8] = {0};
    for (int i = 0; i < sub_layers; i++) profile_present[i] = (int)bits(&r, 1), level_present[i] = (int)bits(&r, 1);
    if (sub_layers > 0)
        for (int i = sub_layers; i < 8; i++) bits(&r, 2);
    for (int i = 0; i < sub_layers; i++) bits(&r, (profile_present[i] ? 88 : 0) + (level_present[i] ? 8 : 0));
    golomb(&r);                                    /* sps_seq_parameter_set_id */
    if (golomb(&r) == 3) bits(&r, 1);              /* chroma_format_idc, separate_colour_plane_flag */
    uint64_t w = golomb(&r), h = golomb(&r);
    if (!r.bad) *width = w, *height = h;
}

static void keep_larger(uint64_t w, uint64_t h, uint64_t *width, uint64_t *height) {
    if (w * h > *width * *height || (w * h == *width * *height && w > *width)) *width = w, *height = h;
}

static void hevc_size(const ccodecs_heif_boxes *boxes, const item *it, uint64_t *width, uint64_t *height) {
    size_t size = 0;
    const uint8_t *hvcc = find_property(boxes, it, FOURCC('h', 'v', 'c', 'C'), &size);
    int length_size = 4;
    uint64_t w, h;
    if (hvcc && size >= 23) {
        length_size = (hvcc[21] & 3) + 1;
        bytes b = {hvcc, size, 22, 0};
        int arrays = (int)take(&b, 1);
        for (int a = 0; a < arrays && !b.bad; a++) {
            take(&b, 1);
            uint64_t count = take(&b, 2);
            for (uint64_t k = 0; k < count && !b.bad; k++) {
                uint64_t length = take(&b, 2);
                if (b.bad || length > size - b.at) break;
                hevc_sps(hvcc + b.at, (size_t)length, &w, &h);
                keep_larger(w, h, width, height);
                b.at += (size_t)length;
            }
        }
    }
    /* The item's data: NAL units, each after its length. */
    uint64_t offset = 0;
    uint8_t unit[HEADER_BYTES + 4];
    for (int count = 0; count < MAX_UNITS; count++) {
        size_t got = item_read(boxes, it, offset, unit, (size_t)length_size + 2);
        if (got < (size_t)length_size + 2) break;
        uint64_t length = 0;
        for (int i = 0; i < length_size; i++) length = length << 8 | unit[i];
        if (((unit[length_size] >> 1) & 63) == 33) {
            size_t want = length < HEADER_BYTES ? (size_t)length : HEADER_BYTES;
            got = item_read(boxes, it, offset + (uint64_t)length_size, unit, want);
            hevc_sps(unit, got, &w, &h);
            keep_larger(w, h, width, height);
        }
        offset += (uint64_t)length_size + length;
    }
}

/* ---- AV1 ---- */

typedef struct {
    int valid, reduced, frame_id_numbers, id_length, order_hint_bits, decoder_model, equal_interval;
    int presentation_length, removal_length, operating_points, screen_content, integer_mv;
    int decoder_model_for[32], idc[32];
    int width_bits, height_bits;
    uint64_t max_width, max_height;
} sequence;

/* A sequence header OBU's payload (AV1 5.5), as far as frame headers need it. */
static void av1_sequence(const uint8_t *p, size_t size, sequence *s) {
    sequence q = {0};
    bitreader r = {p, size * 8, 0, 0};
    bits(&r, 3);
    bits(&r, 1);
    q.reduced = (int)bits(&r, 1);
    if (q.reduced) {
        bits(&r, 5);
        q.operating_points = 1;
    } else {
        if (bits(&r, 1)) {                         /* timing_info_present_flag */
            bits(&r, 64);
            q.equal_interval = (int)bits(&r, 1);
            if (q.equal_interval) uvlc(&r);
            q.decoder_model = (int)bits(&r, 1);
        }
        int delay_length = 0;
        if (q.decoder_model) {
            delay_length = (int)bits(&r, 5) + 1;
            bits(&r, 32);
            q.removal_length = (int)bits(&r, 5) + 1;
            q.presentation_length = (int)bits(&r, 5) + 1;
        }
        int initial_display_delay = (int)bits(&r, 1);
        q.operating_points = (int)bits(&r, 5) + 1;
        for (int i = 0; i < q.operating_points; i++) {
            q.idc[i] = (int)bits(&r, 12);
            if (bits(&r, 5) > 7) bits(&r, 1);
            if (q.decoder_model) {
                q.decoder_model_for[i] = (int)bits(&r, 1);
                if (q.decoder_model_for[i]) bits(&r, 2 * delay_length + 1);
            }
            if (initial_display_delay && bits(&r, 1)) bits(&r, 4);
        }
    }
    q.width_bits = (int)bits(&r, 4) + 1;
    q.height_bits = (int)bits(&r, 4) + 1;
    q.max_width = bits(&r, q.width_bits) + 1;
    q.max_height = bits(&r, q.height_bits) + 1;
    if (!q.reduced) q.frame_id_numbers = (int)bits(&r, 1);
    if (q.frame_id_numbers) {
        int delta = (int)bits(&r, 4) + 2;
        q.id_length = (int)bits(&r, 3) + 1 + delta;
    }
    bits(&r, 3);                                   /* use_128x128, filter_intra, intra_edge */
    q.screen_content = 2, q.integer_mv = 2;        /* SELECT */
    if (!q.reduced) {
        bits(&r, 4);                               /* interintra, masked, warped, dual filter */
        int order_hint = (int)bits(&r, 1);
        if (order_hint) bits(&r, 2);
        q.screen_content = bits(&r, 1) ? 2 : (int)bits(&r, 1);
        if (q.screen_content > 0) q.integer_mv = bits(&r, 1) ? 2 : (int)bits(&r, 1);
        if (order_hint) q.order_hint_bits = (int)bits(&r, 3) + 1;
    }
    if (r.bad) return;
    q.valid = 1;
    *s = q;
}

/* The size a frame header OBU's payload says the frame has (AV1 5.9: an intra frame's
 * frame_size(); the sequence's maximum without an override), or, for a frame whose size comes
 * from the frames before it, the most its sequence header's bits can say. Nothing for a frame
 * that shows one decoded before. */
static void av1_frame(const uint8_t *p, size_t size, const sequence *s, int temporal, int spatial,
                      uint64_t *width, uint64_t *height) {
    uint64_t largest_w = (uint64_t)1 << s->width_bits, largest_h = (uint64_t)1 << s->height_bits;
    bitreader r = {p, size * 8, 0, 0};
    int type = 0, show = 1, error_resilient = 1, override = 0;
    if (!s->reduced) {
        if (bits(&r, 1)) return;                   /* show_existing_frame */
        type = (int)bits(&r, 2);
        show = (int)bits(&r, 1);
        if (show && s->decoder_model && !s->equal_interval) bits(&r, s->presentation_length);
        if (!show) bits(&r, 1);                    /* showable_frame */
        error_resilient = type == 3 || (type == 0 && show) ? 1 : (int)bits(&r, 1);
    }
    int intra = type == 0 || type == 2;
    bits(&r, 1);                                   /* disable_cdf_update */
    int screen = s->screen_content == 2 ? (int)bits(&r, 1) : s->screen_content;
    if (screen && s->integer_mv == 2) bits(&r, 1);  /* force_integer_mv */
    if (s->frame_id_numbers) bits(&r, s->id_length);
    override = type == 3 ? 1 : s->reduced ? 0 : (int)bits(&r, 1);
    bits(&r, s->order_hint_bits);
    if (!(intra || error_resilient)) bits(&r, 3);  /* primary_ref_frame */
    if (s->decoder_model && bits(&r, 1)) {         /* buffer_removal_time_present_flag */
        for (int i = 0; i < s->operating_points; i++) {
            if (!s->decoder_model_for[i]) continue;
            int idc = s->idc[i];
            if (idc == 0 || (((idc >> temporal) & 1) && ((idc >> (spatial + 8)) & 1))) bits(&r, s->removal_length);
        }
    }
    uint64_t w = s->max_width, h = s->max_height;
    if (!intra) {
        /* An inter frame's size may come from the frames it refers to, read further on than is
         * worth following here: the most the bits can say. */
        w = largest_w, h = largest_h;
    } else {
        if (!(type == 0 && show)) {
            int refresh = (int)bits(&r, 8);        /* refresh_frame_flags */
            if (refresh != 0xFF && error_resilient && s->order_hint_bits) bits(&r, 8 * s->order_hint_bits);
        }
        if (override) {
            w = bits(&r, s->width_bits) + 1;
            h = bits(&r, s->height_bits) + 1;
        }
    }
    if (r.bad) w = largest_w, h = largest_h;
    keep_larger(w, h, width, height);
}

/* The OBUs of `p`, one after the other (av1C's configOBUs, or one OBU of an item's data with
 * the first bytes of its payload): the sequence headers and frame headers among them. An OBU
 * without a size runs to the end, and one whose size runs past it is read as far as it goes:
 * a header needs only its first bytes. */
static void av1_obus(const uint8_t *p, size_t size, sequence *s, uint64_t *width, uint64_t *height) {
    size_t at = 0;
    while (at < size) {
        int header = p[at++];
        int type = (header >> 3) & 15, temporal = 0, spatial = 0;
        if ((header >> 2) & 1) {                   /* obu_extension_flag */
            if (at >= size) return;
            temporal = p[at] >> 5, spatial = (p[at] >> 3) & 3;
            at++;
        }
        uint64_t length = size - at;
        if ((header >> 1) & 1) {                   /* obu_has_size_field: leb128 */
            length = 0;
            for (int i = 0;; i++) {
                if (at >= size || i >= 8) return;
                length |= (uint64_t)(p[at] & 127) << (7 * i);
                if (!(p[at++] & 128)) break;
            }
            if (length > size - at) length = size - at;
        }
        if (type == 1) av1_sequence(p + at, (size_t)length, s);
        else if ((type == 3 || type == 6 || type == 7) && s->valid) av1_frame(p + at, (size_t)length, s, temporal, spatial, width, height);
        at += (size_t)length;
    }
}

static void av1_size(const ccodecs_heif_boxes *boxes, const item *it, uint64_t *width, uint64_t *height) {
    sequence s = {0};
    size_t size = 0;
    const uint8_t *av1c = find_property(boxes, it, FOURCC('a', 'v', '1', 'C'), &size);
    if (av1c && size > 4) av1_obus(av1c + 4, size - 4, &s, width, height);
    /* The item's data, an OBU at a time: its header and its payload's first bytes. */
    uint8_t window[HEADER_BYTES + 16];
    uint64_t offset = 0;
    for (int count = 0; count < MAX_UNITS; count++) {
        size_t got = item_read(boxes, it, offset, window, sizeof window);
        if (got == 0) break;
        size_t at = (window[0] >> 2) & 1 ? 2 : 1;
        uint64_t length = 0;
        int sized = (window[0] >> 1) & 1;
        if (sized) {
            for (int i = 0;; i++) {
                if (at >= got || i >= 8) return;
                length |= (uint64_t)(window[at] & 127) << (7 * i);
                if (!(window[at++] & 128)) break;
            }
        }
        av1_obus(window, sized && at + length < got ? at + (size_t)length : got, &s, width, height);
        /* Without a size field, the OBU runs to the end of the data. */
        if (!sized || at > got) break;
        offset += at + length;
    }
    if (*width == 0 && s.valid) keep_larger(s.max_width, s.max_height, width, height);
}

/* ---- derived images ---- */

/* The items `from` refers to by `type`, in order: how many, the first `room` in `to`. */
static int referenced(const ccodecs_heif_boxes *boxes, uint32_t from, uint32_t type, uint32_t *to, int room) {
    int n = 0;
    for (int i = 0; i < boxes->reference_count; i++) {
        if (boxes->references[i].from != from || boxes->references[i].type != type) continue;
        if (n < room) to[n] = boxes->references[i].to;
        n++;
    }
    return n;
}

static int coded(const ccodecs_heif_boxes *boxes, uint32_t id, int depth, uint64_t *width, uint64_t *height,
                 char *message);

/* A grid's or an overlay's size: its canvas (from its data), or its tiles or layers decoded
 * side by side when they hold more. */
static int derived(const ccodecs_heif_boxes *boxes, item *it, int depth, uint64_t *width, uint64_t *height,
                   char *message) {
    uint8_t data[32];
    size_t got = item_read(boxes, it, 0, data, sizeof data);
    bytes b = {data, got, 0, 0};
    int grid = it->type == FOURCC('g', 'r', 'i', 'd');
    take(&b, 1);
    int large = (int)take(&b, 1) & 1;
    int rows = 1, columns = 1;
    if (grid) rows = (int)take(&b, 1) + 1, columns = (int)take(&b, 1) + 1;
    else take(&b, 8);                              /* an overlay's fill colour */
    uint64_t canvas_w = take(&b, large ? 4 : 2), canvas_h = take(&b, large ? 4 : 2);
    if (b.bad) return CCODECS_OK;                  /* libheif refuses it */
    keep_larger(canvas_w, canvas_h, width, height);
    int count = referenced(boxes, it->id, FOURCC('d', 'i', 'm', 'g'), NULL, 0);
    uint32_t *parts = malloc(sizeof *parts * (size_t)(count ? count : 1));
    if (!parts) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    referenced(boxes, it->id, FOURCC('d', 'i', 'm', 'g'), parts, count);
    uint64_t part_w = 0, part_h = 0, stacked = 0;
    int status = CCODECS_OK;
    for (int i = 0; i < count && !status; i++) {
        uint64_t w = 0, h = 0;
        status = coded(boxes, parts[i], depth + 1, &w, &h, message);
        if (w > part_w) part_w = w;
        if (h > part_h) part_h = h;
        stacked += h;
    }
    free(parts);
    if (status) return status;
    /* A grid's tiles are all alike: columns of them side by side, rows of them one above the
     * other, covering its canvas (the rest would be nothing libheif decodes, the canvas only
     * the header's word). An overlay's layers are decoded one after the other: stacked; its
     * canvas is its fill colour where they leave it. */
    if (grid) {
        if (part_w && (canvas_w > part_w * (uint64_t)columns || canvas_h > part_h * (uint64_t)rows)) {
            ccodecs_message(message, "its %llux%llu grid is more than its %dx%d tiles of %llux%llu cover",
                            (unsigned long long)canvas_w, (unsigned long long)canvas_h, columns, rows,
                            (unsigned long long)part_w, (unsigned long long)part_h);
            return CCODECS_ERROR;
        }
        keep_larger(part_w * (uint64_t)columns, part_h * (uint64_t)rows, width, height);
        return CCODECS_OK;
    }
    keep_larger(part_w, stacked, width, height);
    return ccodecs_check_canvas(canvas_w, canvas_h, part_w * stacked, "layers", message);
}

static int coded(const ccodecs_heif_boxes *boxes, uint32_t id, int depth, uint64_t *width, uint64_t *height,
                 char *message) {
    *width = *height = 0;
    item *it = find_item(boxes, id);
    if (!it) return CCODECS_OK;
    if (depth > MAX_DEPTH || it->done == 1) {
        ccodecs_message(message, "its images refer to each other deeper than %d levels", MAX_DEPTH);
        return CCODECS_ERROR;
    }
    if (it->done == 2) {
        *width = it->width, *height = it->height;
        return CCODECS_OK;
    }
    it->done = 1;
    int status = CCODECS_OK;
    switch (it->type) {
    case FOURCC('h', 'v', 'c', '1'): hevc_size(boxes, it, width, height); break;
    case FOURCC('a', 'v', '0', '1'): av1_size(boxes, it, width, height); break;
    case FOURCC('g', 'r', 'i', 'd'):
    case FOURCC('i', 'o', 'v', 'l'): status = derived(boxes, it, depth, width, height, message); break;
    case FOURCC('i', 'd', 'e', 'n'): {
        uint32_t source;
        if (referenced(boxes, id, FOURCC('d', 'i', 'm', 'g'), &source, 1) > 0)
            status = coded(boxes, source, depth + 1, width, height, message);
        break;
    }
    default: break;
    }
    it->done = 2;
    it->width = *width, it->height = *height;
    return status;
}

/* Whether the item is an alpha plane (its auxC type), which libheif decodes with the image it
 * belongs to. */
static int is_alpha(const ccodecs_heif_boxes *boxes, const item *it) {
    size_t size = 0;
    const uint8_t *auxc = find_property(boxes, it, FOURCC('a', 'u', 'x', 'C'), &size);
    if (!auxc || size < 5) return 0;
    static const char *const alpha[] = {"urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"};
    const char *urn = (const char *)auxc + 4;
    size_t length = strnlen(urn, size - 4);
    for (int i = 0; i < 2; i++)
        if (length == strlen(alpha[i]) && !memcmp(urn, alpha[i], length)) return 1;
    return 0;
}

int ccodecs_heif_boxes_coded(ccodecs_heif_boxes *boxes, uint32_t id, uint64_t *width, uint64_t *height, char *message) {
    uint64_t w = 0, h = 0;
    int status = coded(boxes, id, 0, width, height, message);
    /* Its alpha plane, decoded as a picture of its own. */
    for (int i = 0; i < boxes->reference_count && !status; i++) {
        const reference *ref = &boxes->references[i];
        const item *alpha = ref->type == FOURCC('a', 'u', 'x', 'l') && ref->to == id ? find_item(boxes, ref->from) : NULL;
        if (!alpha || !is_alpha(boxes, alpha)) continue;
        status = coded(boxes, ref->from, 1, &w, &h, message);
        keep_larger(w, h, width, height);
    }
    return status;
}

int ccodecs_heif_coded_size(const ccodecs_input *input, uint32_t id, uint64_t *width, uint64_t *height, char *message) {
    *width = *height = 0;
    message[0] = 0;
    ccodecs_heif_boxes *boxes;
    int status = ccodecs_heif_boxes_open(input, &boxes, message);
    if (status) return status;
    status = ccodecs_heif_boxes_coded(boxes, id ? id : boxes->primary, width, height, message);
    ccodecs_heif_boxes_close(boxes);
    return status;
}
