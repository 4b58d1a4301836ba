/* framed's own deflate writer (RFC 1951), for the PNG-filtered rows of flat pictures
 * (screenshots, mats, borders), which are mostly runs of zeros: the fastdeflate engine, which
 * ccodecs_deflate_rows hands a flat band at level 1 (zlib's level 1 writes it with the engine off).
 *
 * Measured by Benchmarks/deflate-writers.sh (make bench-deflate): the same filtered rows, one
 * core, the median of 15, on a 2-core Xeon; sizes against this writer's:
 *
 *                            the screenshot at 300 dpi,    a framed PNG canvas,
 *                            RGB plane, 6.6 MB of rows     RGBA, 4.3 MB of rows
 *   this writer              23.6 ms   1,154,795 bytes     11.2 ms   588,537 bytes
 *   zlib level 1             40.5 ms   -4.8 %              24.6 ms   +5.9 %
 *   zlib level 1, Z_RLE      35.1 ms   +9.8 %              23.2 ms   +24.7 %
 *   libdeflate 1.14 level 1  28.1 ms   -2.9 %              16.3 ms   -2.8 %
 *
 * With the filtering (ccodecs_deflate_rows, one band), the RGB plane takes 26.2 ms here and
 * 42.6 ms through zlib; the screenshot's PDF job, whose bands are deflated on two cores, takes
 * 0.085 s with this writer and 0.095 s with zlib's (make bench's engines table). On the same picture's alpha plane (nearly all zeros) this writer takes
 * 0.5 ms for 13 KB, zlib's Z_RLE 2.6 ms for 3.8 KB, libdeflate 5.3 ms for 4.6 KB.
 *
 * Kept rather than libdeflate: libdeflate is slower on one core (19 % and 46 % here), and it
 * writes only whole streams, ending in a final block, so the bands that FlateRows deflates on
 * every core could not be joined into the one zlib stream that a PDF's FlateDecode and a PNG's
 * IDAT take: it would deflate a picture on one core where this writer uses all of them (and it
 * would change framed's output bytes). Nor zlib's Z_RLE, slower and 10-25 % larger on flat rows
 * (photos, where it wins, get it: deflate.c's band_strategy).
 *
 * How: greedy LZ77 over a 32 KB window with one candidate per hash of 4 bytes (the last
 * position seen, kept also for the first positions inside short matches), and each 64 KB of
 * input as one block with its own Huffman codes (or stored, when that is smaller). Codes
 * are always complete, which every inflater accepts. */
#include <stdlib.h>
#include <string.h>
#include "ccodecs_hooks.h"
#include "framed_engines.h"

typedef struct framed_lz framed_lz;

#define WINDOW 32768     /* deflate's largest distance */
#define BLOCK 65535      /* input bytes a block: also a stored block's largest */
#define HASH_BITS 16
#define MIN_MATCH 4
#define MAX_MATCH 258
#define MAX_BITS 15      /* longest literal/length and distance code */
#define MAX_CL_BITS 7    /* longest code-length code */

struct framed_lz {
    uint8_t *out;
    size_t capacity, pos;
    uint64_t bits;           /* output bits not yet written, first bit lowest */
    int count;
    uint8_t *buffer;         /* up to WINDOW bytes already encoded, then the input not yet */
    size_t have, pending;    /* bytes in buffer; where the input not yet encoded starts */
    uint64_t base;           /* stream offset of buffer[0] */
    uint32_t *table;         /* by hash: 1 + the stream offset of the last position, 0: none */
    uint32_t *symbols;       /* a block's: literal (< 256), or MATCH | length << 16 | distance */
    int full;                /* `out` ran out of room */
    uint8_t length_code[MAX_MATCH + 1];   /* by match length */
    uint8_t near_code[513], far_code[256]; /* by distance: up to 512; beyond, by (distance - 1) >> 7 */
};

static int distance_of(const framed_lz *lz, unsigned distance) {
    return distance <= 512 ? lz->near_code[distance] : lz->far_code[(distance - 1) >> 7];
}

#define MATCH 0x80000000u

static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t distance_base[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,    49,    65,    97,    129,
                                           193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* The order in which a dynamic block's header gives the code-length code's lengths. */
static const uint8_t length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};


/* ---- bits out ---- */

static inline void put(framed_lz *lz, uint32_t value, int n) {
    lz->bits |= (uint64_t)value << lz->count;
    lz->count += n;
    if (lz->count >= 32) {
        uint32_t word = (uint32_t)lz->bits;
        for (int i = 0; i < 4; i++) lz->out[lz->pos++] = (uint8_t)(word >> (8 * i));
        lz->bits >>= 32;
        lz->count -= 32;
    }
}

/* Writes out the bits held, the last byte padded with zeros. */
static void align(framed_lz *lz) {
    while (lz->count > 0) {
        lz->out[lz->pos++] = (uint8_t)lz->bits;
        lz->bits >>= 8;
        lz->count -= 8;
    }
    lz->bits = 0;
    lz->count = 0;
}

/* Whether `bytes` more (and the 4 that `put` may write ahead) fit. */
static int room(framed_lz *lz, size_t bytes) {
    if (lz->capacity - lz->pos >= bytes + 8) return 1;
    lz->full = 1;
    return 0;
}

/* ---- Huffman codes ---- */

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Code lengths (at most `limit` bits) for symbols with these frequencies: a Huffman code,
 * made complete (at least two symbols), its longest codes shortened as JPEG's Annex K.3 does,
 * which keeps it complete. */
static void code_lengths(uint32_t *frequency, int n, int limit, uint8_t *length) {
    int used = 0;
    for (int i = 0; i < n; i++) used += frequency[i] != 0;
    for (int i = 0; used < 2 && i < n; i++)
        if (!frequency[i]) {
            frequency[i] = 1;
            used++;
        }
    /* By frequency, rarest first (ties by symbol): each as frequency << 9 | symbol. */
    uint64_t order[320];
    int symbol[320], m = 0;
    for (int i = 0; i < n; i++) {
        length[i] = 0;
        if (frequency[i]) order[m++] = (uint64_t)frequency[i] << 9 | (uint64_t)i;
    }
    qsort(order, (size_t)m, sizeof *order, compare_u64);
    for (int i = 0; i < m; i++) symbol[i] = (int)(order[i] & 511);
    /* Two queues: leaves in order, then the merged nodes, which come out in order too. */
    uint64_t weight[640];
    int parent[640], nodes = m, leaf = 0, inner = m;
    for (int i = 0; i < m; i++) weight[i] = frequency[symbol[i]];
    for (int k = 0; k < m - 1; k++) {
        int pick[2];
        for (int t = 0; t < 2; t++)
            pick[t] = leaf < m && (inner >= nodes || weight[leaf] <= weight[inner]) ? leaf++ : inner++;
        weight[nodes] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = nodes++;
    }
    int depth[640], count[64] = {0};
    depth[nodes - 1] = 0;
    for (int i = nodes - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    for (int i = 0; i < m; i++) count[depth[i] < 63 ? depth[i] : 63]++;
    for (int i = 63; i > limit; i--)
        while (count[i] > 0) {
            int j = i - 2;
            while (count[j] == 0) j--;
            count[i] -= 2;
            count[i - 1]++;
            count[j + 1] += 2;
            count[j]--;
        }
    for (int l = 1, k = m - 1; l <= limit; l++)
        for (int c = 0; c < count[l]; c++) length[symbol[k--]] = (uint8_t)l;
}

/* Canonical codes for the lengths, bit-reversed as deflate writes them. */
static void codes(const uint8_t *length, int n, uint16_t *code) {
    int count[MAX_BITS + 1] = {0}, next[MAX_BITS + 2];
    for (int i = 0; i < n; i++) count[length[i]]++;
    count[0] = 0;
    for (int bits = 1, c = 0; bits <= MAX_BITS; bits++) {
        c = (c + count[bits - 1]) << 1;
        next[bits] = c;
    }
    for (int i = 0; i < n; i++) {
        if (!length[i]) continue;
        unsigned v = (unsigned)next[length[i]]++, reversed = 0;
        for (int b = 0; b < length[i]; b++, v >>= 1) reversed = reversed << 1 | (v & 1);
        code[i] = (uint16_t)reversed;
    }
}

/* ---- blocks ---- */

static uint32_t load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint32_t hash(uint32_t v) { return (v * 2654435761u) >> (32 - HASH_BITS); }

/* Encodes buffer[pending, have) as one block (final or not). */
static int encode_block(framed_lz *lz, int final) {
    const uint8_t *data = lz->buffer + lz->pending;
    size_t n = lz->have - lz->pending, count = 0;
    uint64_t start = lz->base + lz->pending;
    uint32_t lf[286] = {0}, df[30] = {0};
    size_t i = 0;
    while (i + MIN_MATCH <= n) {
        uint32_t v = load32(data + i), h = hash(v), candidate = lz->table[h];
        uint64_t here = start + i;
        lz->table[h] = (uint32_t)(here + 1);
        if (candidate && candidate - 1 >= lz->base && here - (candidate - 1) <= WINDOW) {
            const uint8_t *match = lz->buffer + (candidate - 1 - lz->base);
            if (load32(match) == v) {
                size_t longest = n - i < MAX_MATCH ? n - i : MAX_MATCH, l = MIN_MATCH;
                while (l + 8 <= longest) {
                    uint64_t a, b;
                    memcpy(&a, match + l, 8);
                    memcpy(&b, data + i + l, 8);
                    if (a != b) break;
                    l += 8;
                }
                while (l < longest && match[l] == data[i + l]) l++;
                unsigned distance = (unsigned)(here - (candidate - 1));
                lz->symbols[count++] = MATCH | (uint32_t)l << 16 | distance;
                lf[257 + lz->length_code[l]]++;
                df[distance_of(lz, distance)]++;
                /* The positions just inside a short match, for the matches that follow it. */
                for (size_t q = 1; q < (l < 16 ? l : 2) && i + q + MIN_MATCH <= n; q++)
                    lz->table[hash(load32(data + i + q))] = (uint32_t)(here + q + 1);
                i += l;
                continue;
            }
        }
        lz->symbols[count++] = data[i];
        lf[data[i]]++;
        i++;
    }
    for (; i < n; i++) {
        lz->symbols[count++] = data[i];
        lf[data[i]]++;
    }
    lf[256] = 1;

    uint8_t ll[286], dl[30], cl[19];
    uint16_t lc[286] = {0}, dc[30] = {0}, cc[19] = {0};
    code_lengths(lf, 286, MAX_BITS, ll);
    code_lengths(df, 30, MAX_BITS, dl);
    int hlit = 286, hdist = 30, hclen = 19;
    while (hlit > 257 && !ll[hlit - 1]) hlit--;
    while (hdist > 1 && !dl[hdist - 1]) hdist--;
    uint32_t cf[19] = {0};
    for (int k = 0; k < hlit; k++) cf[ll[k]]++;
    for (int k = 0; k < hdist; k++) cf[dl[k]]++;
    code_lengths(cf, 19, MAX_CL_BITS, cl);
    while (hclen > 4 && !cl[length_order[hclen - 1]]) hclen--;
    codes(ll, 286, lc);
    codes(dl, 30, dc);
    codes(cl, 19, cc);

    /* Its size in bits, against a stored block's. */
    uint64_t size = 3 + 14 + 3 * (uint64_t)hclen;
    for (int k = 0; k < hlit; k++) size += cl[ll[k]];
    for (int k = 0; k < hdist; k++) size += cl[dl[k]];
    for (int k = 0; k < 286; k++) size += (uint64_t)lf[k] * (ll[k] + (k > 256 ? length_extra[k - 257] : 0));
    for (int k = 0; k < 30; k++) size += (uint64_t)df[k] * (dl[k] + distance_extra[k]);
    if (size / 8 + 1 >= n + 5) {
        if (!room(lz, n + 5)) return 0;
        put(lz, (uint32_t)final, 1);
        put(lz, 0, 2);
        align(lz);
        uint8_t header[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)~n, (uint8_t)(~n >> 8)};
        memcpy(lz->out + lz->pos, header, 4);
        memcpy(lz->out + lz->pos + 4, data, n);
        lz->pos += n + 4;
        return 1;
    }
    if (!room(lz, (size_t)(size / 8) + 1)) return 0;
    put(lz, (uint32_t)final, 1);
    put(lz, 2, 2);
    put(lz, (uint32_t)(hlit - 257), 5);
    put(lz, (uint32_t)(hdist - 1), 5);
    put(lz, (uint32_t)(hclen - 4), 4);
    for (int k = 0; k < hclen; k++) put(lz, cl[length_order[k]], 3);
    for (int k = 0; k < hlit; k++) put(lz, cc[ll[k]], cl[ll[k]]);
    for (int k = 0; k < hdist; k++) put(lz, cc[dl[k]], cl[dl[k]]);
    for (size_t s = 0; s < count; s++) {
        uint32_t symbol = lz->symbols[s];
        if (!(symbol & MATCH)) {
            put(lz, lc[symbol], ll[symbol]);
            continue;
        }
        unsigned length = symbol >> 16 & 0x1FF, distance = symbol & 0xFFFF;
        int c = lz->length_code[length], d = distance_of(lz, distance);
        put(lz, lc[257 + c], ll[257 + c]);
        if (length_extra[c]) put(lz, length - length_base[c], length_extra[c]);
        put(lz, dc[d], dl[d]);
        if (distance_extra[d]) put(lz, distance - distance_base[d], distance_extra[d]);
    }
    put(lz, lc[256], ll[256]);
    return 1;
}

/* Encodes the input held, then keeps the last WINDOW bytes for the matches to come. */
static int flush_block(framed_lz *lz, int final) {
    if (lz->have > lz->pending && !encode_block(lz, final)) return 0;
    if (lz->have > WINDOW) {
        size_t shift = lz->have - WINDOW;
        memmove(lz->buffer, lz->buffer + shift, WINDOW);
        lz->base += shift;
        lz->have = WINDOW;
    }
    lz->pending = lz->have;
    return 1;
}

static void lz_release(void *writer);

/* A raw deflate stream (RFC 1951) written into `out` (`capacity` bytes); NULL when out of
 * memory. The stream takes at most 5 bytes more than its input per 64 KB, plus 10. */
static void *lz_begin(uint8_t *out, size_t capacity) {
    framed_lz *lz = calloc(1, sizeof *lz);
    if (!lz) return NULL;
    lz->out = out;
    lz->capacity = capacity;
    lz->buffer = malloc(WINDOW + BLOCK);
    lz->table = calloc((size_t)1 << HASH_BITS, sizeof *lz->table);
    lz->symbols = malloc(BLOCK * sizeof *lz->symbols);
    if (!lz->buffer || !lz->table || !lz->symbols) {
        lz_release(lz);
        return NULL;
    }
    for (int c = 0; c < 29; c++)
        for (unsigned l = length_base[c]; l <= MAX_MATCH && (c == 28 || l < length_base[c + 1]); l++)
            lz->length_code[l] = (uint8_t)c;
    for (int c = 0; c < 30; c++)
        for (unsigned d = distance_base[c]; d <= WINDOW && (c == 29 || d < distance_base[c + 1]); d++) {
            if (d <= 512) lz->near_code[d] = (uint8_t)c;
            else lz->far_code[(d - 1) >> 7] = (uint8_t)c;
        }
    return lz;
}

static int lz_write(void *writer, const uint8_t *data, size_t size) {
    framed_lz *lz = writer;
    while (size > 0) {
        size_t take = BLOCK - (lz->have - lz->pending);
        if (take > size) take = size;
        memcpy(lz->buffer + lz->have, data, take);
        lz->have += take;
        data += take;
        size -= take;
        if (lz->have - lz->pending == BLOCK && !flush_block(lz, 0)) return 0;
    }
    return !lz->full;
}

static size_t lz_finish(void *writer, int last) {
    framed_lz *lz = writer;
    if (lz->have > lz->pending) {
        if (!flush_block(lz, last)) return 0;
        if (last) {
            align(lz);
            return lz->pos;
        }
    } else if (last) { /* an empty final block: fixed codes, end of block alone */
        if (!room(lz, 2)) return 0;
        put(lz, 1, 1);
        put(lz, 1, 2);
        put(lz, 0, 7);
        align(lz);
        return lz->pos;
    }
    if (!room(lz, 5)) return 0; /* an empty stored block: byte-aligned, open */
    put(lz, 0, 3);
    align(lz);
    static const uint8_t empty[4] = {0, 0, 0xFF, 0xFF};
    memcpy(lz->out + lz->pos, empty, 4);
    lz->pos += 4;
    return lz->pos;
}

static void lz_release(void *writer) {
    framed_lz *lz = writer;
    if (!lz) return;
    free(lz->buffer);
    free(lz->table);
    free(lz->symbols);
    free(lz);
}

static const struct ccodecs_deflate_engine engine = {lz_begin, lz_write, lz_finish, lz_release};

const struct ccodecs_deflate_engine *framed_engine_fastdeflate(void) { return &engine; }
