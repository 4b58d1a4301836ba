/* Baseline JPEGs at 1/8, 1/4, 3/8 and 1/2 scale, entropy-decoded by framed rather than by libjpeg.
 *
 * Why: at 1/8, libjpeg makes one pixel of a luma block from its DC coefficient alone
 * (jpeg_idct_1x1) and 2x2 pixels of a 4:2:0 chroma block from 25 of its coefficients
 * (jpeg_idct_2x2), yet every coefficient must be Huffman-decoded to find where the next block
 * starts. That is nearly all of the decode (about 150 ms for a 48 MP file), on one core. At 1/4
 * (jpeg_idct_2x2 for luma, jpeg_idct_4x4 for 4:2:0 chroma), 3/8 (jpeg_idct_3x3 and
 * jpeg_idct_6x6) and 1/2 (jpeg_idct_4x4 and jpeg_idct_islow) the Huffman decoding is still most
 * of it. Measured on a 2-core Xeon, FRAMED_ENGINES on and -jpegreduced: the bench's 24 MP JPEG
 * at 1/8 decodes in 63 ms with this engine, 104 ms with libjpeg's (framed-bench decode, medians
 * of 9), and its PNG job takes 0.075 against 0.119 s (make bench's engines table).
 *
 * How: one thread decodes from the start of the entropy-coded data; a second one starts at a
 * byte in the middle, with no idea where a block begins there. Huffman codes fall into step
 * within a few blocks, so once the first thread reaches an MCU boundary where the second one
 * has been, the rest of the picture is the second thread's. Its DC coefficients were predicted
 * from 0, and are shifted by the first thread's predictions at that point. It keeps per MCU
 * only what the output needs: the DC of each block, and for a block of more than one pixel the
 * part of its IDCT that does not depend on the DC. At 1/4, 3/8 and 1/2 that is more bytes than the
 * pixels it makes, so it is kept in chunks, each freed as soon as its pixels are written. The
 * two threads then share that writing: the second takes the last rows of MCUs.
 *
 * A file with restart markers is simpler: DC predictions start again from 0 after each
 * marker, and counting markers (FF followed by RST0-7, found without decoding) tells which MCU
 * follows each. So the second thread starts past a marker near the middle after which a row of
 * MCUs begins, and writes pixels directly, keeping nothing.
 *
 * Rows are published to the caller's watcher (a resize that follows the decode) as they are
 * written, in order. At 1/8 and 3/8 this decoder also runs on one thread (it is a little
 * faster than libjpeg at 1/8, and libjpeg has no SIMD IDCTs for 3/8); at 1/4 and 1/2 only on
 * two, since libjpeg's SIMD IDCTs beat these on one core.
 *
 * Exactly libjpeg's pixels: the tables are the ones libjpeg's jpeg_read_header read, and the
 * arithmetic is that of jpeg_idct_1x1, jpeg_idct_2x2, jpeg_idct_3x3, jpeg_idct_4x4,
 * jpeg_idct_6x6, jpeg_idct_islow (whose SIMD versions agree with the C ones while their values
 * stay in 16 bits, which is checked),
 * range limiting and YCbCr to RGB. Any file that strays from what this handles exactly
 * (other samplings, corrupt or cut-short data, a restart marker missing or out of order, no
 * EOI right after the data, values out of range) makes reduced_decode return 0, and libjpeg
 * decodes the file, warnings and all. */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "ccodecs_hooks.h"
#include "framed_engines.h"
#include "avx2.h"
#include "ycc.h"

typedef struct framed_reduced framed_reduced;

/* The IDCTs and colour conversion are also built for AVX2 (FRAMED_HAS_AVX2_VERSIONS), used
 * when the processor has it. */

/* ------------------------------------------------------------------------------------------ */
/* Huffman tables                                                                              */

#define FAST_BITS 10
#define MAX_BLOCKS 10       /* blocks in an MCU (JPEG's own limit) */
#define EOB 0x80            /* fast entry: end of block (AC), or a DC difference of 0 */
#define PARTIAL 0x40        /* fast entry: the code only; `value` extra bits follow */

/* What the next FAST_BITS bits start with. length 0: a longer code (or none), see slow_symbol;
 * else `length` bits to take, and: run <= 15, a whole coefficient (code and extra bits; run
 * of zeros before it, its value); EOB; or PARTIAL | run, the code only, `value` extra bits. */
typedef struct {
    int16_t value;
    uint8_t run, length;
} fast_entry;

typedef struct {
    fast_entry fast[1 << FAST_BITS];
    int32_t maxcode[18];  /* the largest code of each length, -1 if none */
    int32_t offset[18];   /* code + offset: the symbol's index in `symbols` */
    uint8_t symbols[256];
} huffman_table;

static int extend(uint32_t bits, int size) {
    return bits < (1u << (size - 1)) ? (int)bits - (1 << size) + 1 : (int)bits;
}

/* Builds the decoding table of a DHT, with the checks of libjpeg's jpeg_make_d_derived_tbl
 * (0 where libjpeg would refuse the table). */
static int build_table(huffman_table *table, const JHUFF_TBL *huff, int is_dc) {
    int sizes[257], count = 0;
    uint32_t codes[257];
    memset(table, 0, sizeof *table);
    for (int length = 1; length <= 16; length++)
        for (int i = 0; i < huff->bits[length]; i++) {
            if (count >= 256) return 0;
            sizes[count++] = length;
        }
    sizes[count] = 0;
    uint32_t code = 0;
    for (int p = 0, size = sizes[0]; sizes[p];) {
        while (sizes[p] == size) codes[p++] = code++;
        if (code >= (1u << size)) return 0;
        code <<= 1;
        size++;
    }
    for (int length = 1, p = 0; length <= 16; length++) {
        if (huff->bits[length]) {
            table->offset[length] = p - (int32_t)codes[p];
            p += huff->bits[length];
            table->maxcode[length] = (int32_t)codes[p - 1];
        } else {
            table->maxcode[length] = -1;
        }
    }
    table->maxcode[17] = INT32_MAX;
    memcpy(table->symbols, huff->huffval, 256);
    for (int i = 0; i < count; i++) {
        int symbol = huff->huffval[i], run = symbol >> 4, size = symbol & 15, length = sizes[i];
        if (is_dc && symbol > 15) return 0;
        if (length > FAST_BITS) continue;
        for (uint32_t j = 0; j < (1u << (FAST_BITS - length)); j++) {
            uint32_t index = (codes[i] << (FAST_BITS - length)) | j;
            fast_entry entry;
            if (is_dc) run = 0;
            if (size == 0 && run != 15) { /* AC: end of block (libjpeg's too for runs 1-14); DC: 0 */
                entry = (fast_entry){0, is_dc ? 0 : EOB, (uint8_t)length};
            } else if (length + size <= FAST_BITS) {
                uint32_t bits = size ? (index >> (FAST_BITS - length - size)) & ((1u << size) - 1) : 0;
                entry = (fast_entry){(int16_t)(size ? extend(bits, size) : 0), (uint8_t)run,
                                     (uint8_t)(length + size)};
            } else {
                entry = (fast_entry){(int16_t)size, (uint8_t)(PARTIAL | run), (uint8_t)length};
            }
            table->fast[index] = entry;
        }
    }
    return 1;
}

/* A code longer than FAST_BITS: its symbol and length, or -1 for bits that are no code. */
static int slow_symbol(uint64_t bits, const huffman_table *table, int *length) {
    uint32_t code = (uint32_t)(bits >> 48);
    for (int l = FAST_BITS + 1; l <= 16; l++) {
        int32_t c = (int32_t)(code >> (16 - l));
        if (c <= table->maxcode[l]) {
            *length = l;
            return table->symbols[(table->offset[l] + c) & 0xFF];
        }
    }
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Bits of entropy-coded data                                                                  */

#define KEEP 16 /* bytes carried over between chunks of a file */

/* Reads the entropy-coded data as libjpeg's jpeg_fill_bit_buffer does: FF 00 is a data byte
 * FF, FF followed by more FF and then 00 too (the extra FFs are fill), FF followed by
 * anything else is a marker, after which come zero bits. */
typedef struct {
    const ccodecs_input *input;
    uint8_t *chunk;             /* files: CCODECS_READ_CHUNK + KEEP bytes; NULL for memory */
    const uint8_t *p, *end;     /* the next byte to take; the end of the bytes at hand */
    size_t end_offset;          /* input offset of `end` */
    uint64_t bits;              /* left-aligned */
    int count;                  /* how many of `bits` are held */
    int64_t taken;              /* data bytes taken in (stuffing and fill not counted) */
    int64_t zeros;              /* zero bytes fed after the data ended */
    int ended, marker;          /* reached a marker (its code; 0: the input ended) */
    int64_t marker_at;          /* `taken` when it was reached */
    size_t watch;               /* input offset before which skipped stuffing is counted */
    int64_t skipped_before;     /* stuffing and fill bytes at offsets below `watch` */
} bit_reader;

static int reader_open(bit_reader *r, const ccodecs_input *input, size_t offset, size_t watch) {
    memset(r, 0, sizeof *r);
    r->input = input;
    r->watch = watch;
    if (input->data) {
        r->p = input->data + offset;
        r->end = input->data + input->size;
        r->end_offset = input->size;
        return 1;
    }
    r->chunk = malloc(CCODECS_READ_CHUNK + KEEP);
    r->p = r->end = r->chunk;
    r->end_offset = offset;
    return r->chunk != NULL;
}

static void reader_close(bit_reader *r) { free(r->chunk); }

/* At least `want` (at most KEEP) bytes at r->p, unless the input ends first: how many. A file
 * that cannot be read ends there (the decode then fails, and libjpeg reports why). */
static size_t at_hand(bit_reader *r, size_t want) {
    size_t have = (size_t)(r->end - r->p);
    if (have >= want || !r->chunk || r->end_offset >= r->input->size) return have;
    memmove(r->chunk, r->p, have);
    ptrdiff_t got = ccodecs_input_read(r->input, r->end_offset, r->chunk + have, CCODECS_READ_CHUNK);
    if (got <= 0) {
        r->end_offset = r->input->size;
        got = 0;
    }
    r->p = r->chunk;
    r->end = r->chunk + have + got;
    r->end_offset += (size_t)got;
    return have + (size_t)got;
}

static size_t offset_of(const bit_reader *r, const uint8_t *p) { return r->end_offset - (size_t)(r->end - p); }

/* Bits of data taken so far, in the unstuffed stream from where the reader started. */
static int64_t consumed(const bit_reader *r) { return (r->taken + r->zeros) * 8 - r->count; }

static __attribute__((noinline)) void refill_slow(bit_reader *r) {
    while (r->count <= 56) {
        unsigned byte = 0;
        if (r->ended) {
            r->zeros++;
        } else if (at_hand(r, 2) == 0) {
            r->ended = 1;
            r->marker_at = r->taken;
            r->zeros++;
        } else if (*r->p != 0xFF) {
            byte = *r->p++;
            r->taken++;
        } else {
            size_t k = 1;
            while (k < KEEP && at_hand(r, k + 1) > k && r->p[k] == 0xFF) k++;
            if (at_hand(r, k + 1) <= k || k == KEEP) { /* input ends in FFs, or too many */
                r->ended = 1;
                r->marker = -1;
                r->marker_at = r->taken;
                r->zeros++;
            } else if (r->p[k] == 0x00) {
                if (offset_of(r, r->p) < r->watch) r->skipped_before += (int64_t)k;
                byte = 0xFF;
                r->p += k + 1;
                r->taken++;
            } else {
                r->ended = 1;
                r->marker = r->p[k];
                r->marker_at = r->taken;
                r->zeros++;
            }
        }
        r->bits |= (uint64_t)byte << (56 - r->count);
        r->count += 8;
    }
}

/* At least 57 bits held. */
static inline __attribute__((always_inline)) void refill(bit_reader *r) {
    if (r->end - r->p >= 8) {
        uint64_t word;
        memcpy(&word, r->p, 8);
        word = __builtin_bswap64(word);
        uint64_t inverted = ~word;
        if (!((inverted - 0x0101010101010101ULL) & ~inverted & 0x8080808080808080ULL)) { /* no FF */
            int n = (63 - r->count) >> 3;
            int count = r->count + 8 * n;
            r->bits |= (word >> r->count) & ~(~0ULL >> count);
            r->count = count;
            r->p += n;
            r->taken += n;
            return;
        }
    }
    refill_slow(r);
}

/* Whether bits past the data (the zeros after a marker, which libjpeg warns of) were taken:
 * the rest of the picture would be made of them. */
static int past_the_data(const bit_reader *r) { return r->ended && consumed(r) > 8 * r->marker_at; }

/* Whether the data ends at bit `end` (of this reader's stream) as a valid file's does before
 * `marker`: the rest of that byte is padding, and then comes the marker (after any fill
 * bytes), as libjpeg needs to go on without a warning. Reads on to the marker. */
static int ends_at_marker(bit_reader *r, int64_t end, int marker) {
    while (!r->ended) {
        r->bits = 0;
        r->count = 0;
        refill_slow(r);
    }
    return r->marker == marker && (end + 7) / 8 == r->marker_at;
}

static int ends_at_eoi(bit_reader *r, int64_t end) { return ends_at_marker(r, end, JPEG_EOI); }

/* Restart interval `n` (from 0) ends at bit `end`: its RSTn mod 8 marker must come next. Then
 * the reader goes on past it, counting from 0 again. 0 when anything else comes (libjpeg
 * would warn and resynchronise). */
static int take_restart(bit_reader *r, int64_t end, int64_t n) {
    if (!ends_at_marker(r, end, JPEG_RST0 + (int)(n & 7))) return 0;
    size_t k = 0; /* r->p is at the marker's FF: fill FFs, then the code, all at hand */
    while (r->p[k] == 0xFF) k++;
    r->p += k + 1;
    r->bits = 0;
    r->count = 0;
    r->taken = r->zeros = r->marker_at = 0;
    r->ended = r->marker = 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The plan: what the header says, in the form the decode wants                                */

/* Zigzag index to natural index, with libjpeg's 16 extra entries (jpeg_natural_order). */
static const uint8_t natural[80] = {
     0,  1,  8, 16,  9,  2,  3, 10, 17, 24, 32, 25, 18, 11,  4,  5, 12, 19, 26, 33,
    40, 48, 41, 34, 27, 20, 13,  6,  7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36,
    29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54,
    47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

#define NOT_READ 64       /* slot of a coefficient that a block's IDCT does not read */
#define MAX_MCU_SIDE 16   /* output pixels across (and down) an MCU */

/* Which IDCT makes a block's pixels: its output side, 1 (jpeg_idct_1x1), 2 (jpeg_idct_2x2),
 * 3 (jpeg_idct_3x3), 4 (jpeg_idct_4x4), 6 (jpeg_idct_6x6) or 8 (jpeg_idct_islow), as libjpeg
 * picks it for the block's component (DCT_scaled_size: at 1/4, 4:2:0 chroma gets 4x4 from a
 * block where luma gets 2x2; at 3/8, 6x6 where luma gets 3x3). The sizes whose AC
 * coefficients are kept, in the order of a plan's `slots`: */
static const int kept_sizes[5] = {2, 3, 4, 6, 8};

static int size_index(int size) {
    int i = 0;
    while (kept_sizes[i] != size) i++;
    return i;
}

/* The int16s a block of `size` keeps after its DC: its size x size values; past 2x2 rounded up
 * to whole groups of eight (put_mcu limits them eight at a time; 3x3 and 6x6 pad with 0). */
static int kept_values(int size) { return size > 2 ? (size * size + 7) / 8 * 8 : size * size; }

typedef struct {
    const huffman_table *dc, *ac;
    int component;   /* index in comp_info: 0 = Y (or gray), 1 = Cb, 2 = Cr */
    int size;        /* output pixels across the block: 1, 2, 3, 4, 6 or 8 */
    int x, y;        /* its top-left pixel in the MCU's output */
    int slot;        /* its first int16 in an MCU's record: the DC, then kept_values(size) */
    int slots;       /* blocks of more than one pixel: its row of the plan's `slots` */
} block_plan;

struct framed_reduced {
    ccodecs_input input;
    size_t data_start;
    uint32_t width, height;          /* output size */
    int luma_size;                   /* output pixels across a luma block: 1, 2, 3 or 4 */
    int components;                  /* 1 (gray) or 3 (YCbCr) */
    int blocks;
    block_plan block[MAX_BLOCKS];
    int record_size;                 /* int16s kept per MCU: 1 per 1x1 block, 1 + kept_values per other */
    int mcu_width, mcu_height;       /* output pixels per MCU */
    int64_t mcus_per_row, mcu_rows, mcus;
    int always_split;                /* ccodecs_jpeg_engines.reduced_always_split (tests) */
    int64_t restart_interval;        /* MCUs between restart markers, 0 for none */
    int avx2;                        /* the processor has AVX2 (and the AVX2 versions were built) */
    int16_t quant[3][64];            /* each component's multipliers, natural order (ISLOW_MULT_TYPE) */
    uint8_t slots[5][80];            /* by kept_sizes: zigzag index -> natural index, or NOT_READ */
    uint8_t range[1024];             /* libjpeg's post-IDCT range limit, by value & 1023 */
    framed_ycc_tables ycc;
    huffman_table tables[6];
};

/* Whether the IDCT of a block of `size` reads the coefficient at natural index `n`:
 * jpeg_idct_2x2 skips rows and columns 2, 4 and 6; jpeg_idct_4x4 skips row and column 4;
 * jpeg_idct_3x3 and jpeg_idct_6x6 read the first 3 and 6 rows and columns. */
static int is_read(int size, int n) {
    int row = n / 8, column = n % 8;
    if (size == 2) return (row == 0 || row % 2) && (column == 0 || column % 2);
    if (size == 4) return row != 4 && column != 4;
    if (size == 3 || size == 6) return row < size && column < size;
    return 1;
}

/* A plan to decode the single scan of the JPEG whose header libjpeg has read (the output size
 * worked out at 1/8, 1/4, 3/8 or 1/2), from `data_start`, the offset of its first
 * entropy-coded byte in `input`; NULL when the file is not one this decoder handles, or out of
 * memory. always_split (tests): on two threads whatever the size, the first waiting for the
 * second where they meet, so that the second one's part is always used. */
static void *reduced_plan(ccodecs_jpeg_decompressor *reader, const ccodecs_input *input, size_t data_start,
                          int always_split) {
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    if (cinfo->progressive_mode || cinfo->arith_code || cinfo->data_precision != 8 ||
        cinfo->comps_in_scan != cinfo->num_components || cinfo->Ss != 0 || cinfo->Se != 63 || cinfo->Ah ||
        cinfo->Al || cinfo->output_width == 0 || cinfo->dct_method != JDCT_ISLOW)
        return NULL;
#if JPEG_LIB_VERSION >= 70
    int luma_size = cinfo->min_DCT_h_scaled_size == cinfo->min_DCT_v_scaled_size ? cinfo->min_DCT_h_scaled_size : 0;
#else
    int luma_size = cinfo->min_DCT_scaled_size;
#endif
    if (luma_size < 1 || luma_size > 4) return NULL; /* 1/8, 1/4, 3/8 or 1/2 */
    int gray = cinfo->num_components == 1 && cinfo->jpeg_color_space == JCS_GRAYSCALE &&
               cinfo->out_color_space == JCS_GRAYSCALE;
    int ycc = cinfo->num_components == 3 && cinfo->jpeg_color_space == JCS_YCbCr &&
              cinfo->out_color_space == JCS_EXT_RGBA;
    if (!gray && !ycc) return NULL;
    framed_reduced *plan = calloc(1, sizeof *plan);
    if (!plan) return NULL;
    plan->input = *input;
    plan->data_start = data_start;
    plan->always_split = always_split;
    plan->restart_interval = cinfo->restart_interval;
    plan->avx2 = framed_use_avx2();
    plan->width = cinfo->output_width;
    plan->height = cinfo->output_height;
    plan->luma_size = luma_size;
    plan->components = cinfo->num_components;
    int interleaved = cinfo->comps_in_scan > 1, tables = 0, luma = luma_size;
    plan->mcu_width = (interleaved ? cinfo->max_h_samp_factor : 1) * luma;
    plan->mcu_height = (interleaved ? cinfo->max_v_samp_factor : 1) * luma;
    if (plan->mcu_width > MAX_MCU_SIDE || plan->mcu_height > MAX_MCU_SIDE) goto refuse;
    if (interleaved) {
        plan->mcus_per_row = ((int64_t)cinfo->image_width + 8 * cinfo->max_h_samp_factor - 1) / (8 * cinfo->max_h_samp_factor);
        plan->mcu_rows = ((int64_t)cinfo->image_height + 8 * cinfo->max_v_samp_factor - 1) / (8 * cinfo->max_v_samp_factor);
    } else {
        plan->mcus_per_row = cinfo->cur_comp_info[0]->width_in_blocks;
        plan->mcu_rows = cinfo->cur_comp_info[0]->height_in_blocks;
    }
    plan->mcus = plan->mcus_per_row * plan->mcu_rows;
    for (int i = 0; i < cinfo->comps_in_scan; i++) {
        jpeg_component_info *component = cinfo->cur_comp_info[i];
        int c = component->component_index;
#if JPEG_LIB_VERSION >= 70
        int scaled = component->DCT_h_scaled_size == component->DCT_v_scaled_size ? component->DCT_h_scaled_size : 0;
#else
        int scaled = component->DCT_scaled_size;
#endif
        int h = interleaved ? component->h_samp_factor : 1, v = interleaved ? component->v_samp_factor : 1;
        /* Each component must come out at the output's size without upsampling (at 1/8,
         * luma one pixel a block and 4:2:0 chroma 2x2 a block; at 1/4, 2x2 and 4x4...). */
        if (c < 0 || c >= plan->components || scaled < 1 || scaled > 8 || scaled == 5 || scaled == 7 ||
            h * scaled != plan->mcu_width || v * scaled != plan->mcu_height || plan->blocks + h * v > MAX_BLOCKS)
            goto refuse;
        JQUANT_TBL *quant = component->quant_tbl_no >= 0 && component->quant_tbl_no < NUM_QUANT_TBLS
            ? cinfo->quant_tbl_ptrs[component->quant_tbl_no] : NULL;
        JHUFF_TBL *dc = component->dc_tbl_no >= 0 && component->dc_tbl_no < NUM_HUFF_TBLS
            ? cinfo->dc_huff_tbl_ptrs[component->dc_tbl_no] : NULL;
        JHUFF_TBL *ac = component->ac_tbl_no >= 0 && component->ac_tbl_no < NUM_HUFF_TBLS
            ? cinfo->ac_huff_tbl_ptrs[component->ac_tbl_no] : NULL;
        if (!quant || !dc || !ac) goto refuse;
        huffman_table *dc_table = &plan->tables[tables++], *ac_table = &plan->tables[tables++];
        if (!build_table(dc_table, dc, 1) || !build_table(ac_table, ac, 0)) goto refuse;
        /* As libjpeg's jddctmgr.c: quantval (UINT16) as ISLOW_MULT_TYPE (short). */
        for (int n = 0; n < 64; n++) plan->quant[c][n] = (int16_t)quant->quantval[n];
        for (int y = 0; y < v; y++)
            for (int x = 0; x < h; x++) {
                block_plan *block = &plan->block[plan->blocks++];
                *block = (block_plan){dc_table, ac_table, c, scaled, x * scaled, y * scaled, plan->record_size,
                                      scaled == 1 ? 0 : size_index(scaled)};
                plan->record_size += scaled == 1 ? 1 : 1 + kept_values(scaled);
            }
    }
    for (int s = 0; s < 5; s++)
        for (int k = 0; k < 80; k++)
            plan->slots[s][k] = (uint8_t)(k < 64 && is_read(kept_sizes[s], natural[k]) ? natural[k] : NOT_READ);
    /* jdmaster.c prepare_range_limit_table, seen from IDCT_range_limit: x (masked to 10 bits,
     * read as signed) + 128, clamped. */
    for (int i = 0; i < 1024; i++) {
        int x = (i < 512 ? i : i - 1024) + 128;
        plan->range[i] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
    }
    framed_ycc_tables_init(&plan->ycc);
    return plan;
refuse:
    free(plan);
    return NULL;
}

static void reduced_free(void *plan) { free(plan); }

/* ------------------------------------------------------------------------------------------ */
/* Blocks                                                                                      */

#define LIMIT_16 16383          /* values kept well inside 16 bits, where SIMD and C agree */
#define LIMIT_8X8 8191          /* jpeg_idct_islow's inputs and first-pass values: its sums fit 32 bits */
#define LIMIT_A 8191            /* a DC-free column-0 value: 4 * dc + it stays inside 16 bits */
#define LIMIT_SUM (1 << 29)

/* The IDCTs below give the part of libjpeg's output that does not depend on the DC: with
 * dc = the block's dequantized DC, output (x, y) is range_limit[(dc + e[y * size + x] + 4) >> 3]
 * when |dc| <= 2047. Shown by writing libjpeg's descales out: in pass 1 the DC adds dc << B to
 * column 0 for some B at least the descale, so it leaves it as exactly 4 * dc; in pass 2, 4 * dc
 * goes in shifted left by D - 5, where D is the final descale (20 in jpeg_idct_2x2, 19 in
 * jpeg_idct_4x4, 18 in jpeg_idct_3x3, jpeg_idct_6x6 and jpeg_idct_islow), so the output is
 * (dc * 2^(D-3) + S + 2^(D-1)) >> D for the DC-free sum S, which is
 * (dc + floor(S / 2^(D-3)) + 4) >> 3. The zero-column and
 * zero-row shortcuts give the same values. Each returns 0 when a value leaves the range where
 * libjpeg-turbo's SIMD versions (16-bit lanes, 32-bit sums) give what the C code gives; within
 * it, every sum below fits the 32 bits it is computed in.
 *
 * Both passes work on all eight columns (then all rows) at once, in vectors of eight 32-bit
 * lanes: `in` holds the dequantized coefficients by rows, in[0][0] (the DC) being 0. */
typedef int32_t lanes __attribute__((vector_size(32)));

/* Whether any lane of `v` is outside +-limit. (Vectors go by pointer: by value, their ABI
 * would depend on AVX being on.) */
static inline __attribute__((always_inline)) int outside(const lanes *v, int32_t limit) {
    lanes out = (*v > limit) | (*v < -limit);
    int32_t any = 0;
    for (int i = 0; i < 8; i++) any |= out[i];
    return any != 0;
}

/* Eight 16-bit lanes: a row of coefficients, multipliers or results. */
typedef int16_t lanes16 __attribute__((vector_size(16)));

/* Rows become columns: t[k][y] = m[y][k], rows past `rows` taken as 0. Interleaving pairs of
 * rows, then pairs of pairs, then halves (unpack and permute, when AVX2 is on). */
static inline __attribute__((always_inline)) void transpose(const lanes *m, int rows, lanes t[8]) {
    lanes r[8], p[8], q[8];
    for (int y = 0; y < 8; y++) r[y] = y < rows ? m[y] : (lanes){0};
    for (int y = 0; y < 8; y += 2) {
        p[y] = __builtin_shufflevector(r[y], r[y + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        p[y + 1] = __builtin_shufflevector(r[y], r[y + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int y = 0; y < 8; y += 4)
        for (int i = 0; i < 2; i++) {
            q[y + 2 * i] = __builtin_shufflevector(p[y + i], p[y + 2 + i], 0, 1, 8, 9, 4, 5, 12, 13);
            q[y + 2 * i + 1] = __builtin_shufflevector(p[y + i], p[y + 2 + i], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int k = 0; k < 4; k++) {
        t[k] = __builtin_shufflevector(q[k], q[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        t[k + 4] = __builtin_shufflevector(q[k], q[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* Row y of `size` values from out[x][y] >> shift, for x and y below `size`. */
static inline __attribute__((always_inline)) void store_rows(const lanes out[8], int size, int shift, int16_t *e) {
    lanes rows[8];
    transpose(out, size, rows);
    for (int y = 0; y < size; y++) {
        lanes16 narrow = __builtin_convertvector(rows[y] >> shift, lanes16);
        memcpy(e + y * size, &narrow, (size_t)size * sizeof(int16_t));
    }
}

/* jpeg_idct_2x2's odd part (jidctred.c). */
static inline __attribute__((always_inline)) void idct2_odd(const lanes x[8], lanes *odd) {
    *odd = x[7] * -5906 + x[5] * 6967 + x[3] * -10426 + x[1] * 29692; /* FIX(...) at 13 bits */
}

/* jpeg_idct_2x2 (jidctred.c): columns and rows 0, 1, 3, 5, 7. */
static inline __attribute__((always_inline)) int idct2_without_dc(const lanes in[8], int16_t e[4]) {
    lanes odd, even = in[0] * 32768, ws[2], t[8], row_odd;
    int32_t a[2]; /* column 0, which pass 2 shifts rather than multiplies */
    idct2_odd(in, &odd);
    if (outside(&odd, LIMIT_SUM)) return 0;
    ws[0] = (even + odd + 4096) >> 13;
    ws[1] = (even - odd + 4096) >> 13;
    for (int y = 0; y < 2; y++) {
        a[y] = ws[y][0];
        if (a[y] > LIMIT_A || a[y] < -LIMIT_A) return 0;
        ws[y][0] = 0;
        if (outside(&ws[y], LIMIT_16)) return 0;
    }
    transpose(ws, 2, t);
    idct2_odd(t, &row_odd);
    if (outside(&row_odd, LIMIT_SUM)) return 0;
    for (int y = 0; y < 2; y++) {
        e[2 * y] = (int16_t)((a[y] * 32768 + row_odd[y]) >> 17);
        e[2 * y + 1] = (int16_t)((a[y] * 32768 - row_odd[y]) >> 17);
    }
    return 1;
}

/* jpeg_idct_4x4's 1-D step (jidctred.c) on x[0..7] (x[4] not read), before the descale. */
static inline __attribute__((always_inline)) void idct4_line(const lanes x[8], lanes out[4]) {
    enum { F0211 = 1730, F0509 = 4176, F0601 = 4926, F0765 = 6270, F0899 = 7373,
           F1061 = 8697, F1451 = 11893, F1847 = 15137, F2172 = 17799, F2562 = 20995 };
    lanes even = x[0] * 16384, rotated = x[2] * F1847 - x[6] * F0765;
    lanes tmp10 = even + rotated, tmp12 = even - rotated;
    lanes tmp0 = x[7] * -F0211 + x[5] * F1451 - x[3] * F2172 + x[1] * F1061;
    lanes tmp2 = x[7] * -F0509 - x[5] * F0601 + x[3] * F0899 + x[1] * F2562;
    out[0] = tmp10 + tmp2;
    out[3] = tmp10 - tmp2;
    out[1] = tmp12 + tmp0;
    out[2] = tmp12 - tmp0;
}

/* jpeg_idct_4x4 (jidctred.c): columns and rows other than 4. */
static inline __attribute__((always_inline)) int idct4_without_dc(const lanes in[8], int16_t e[16]) {
    lanes ws[4], t[8], out[4];
    idct4_line(in, ws);
    for (int y = 0; y < 4; y++) {
        ws[y] = (ws[y] + 2048) >> 12;
        ws[y][4] = 0; /* not read */
        if (ws[y][0] > LIMIT_A || ws[y][0] < -LIMIT_A || outside(&ws[y], LIMIT_16)) return 0;
    }
    transpose(ws, 4, t);
    idct4_line(t, out);
    store_rows(out, 4, 16, e);
    return 1;
}

/* jpeg_idct_3x3's 1-D step (jidctint.c) on x[0..2], before the descale (and without the
 * rounding that pass 1 adds to its DC term). */
static inline __attribute__((always_inline)) void idct3_line(const lanes x[8], lanes *out) {
    enum { F0707 = 5793, F1224 = 10033 }; /* FIX(0.707106781), FIX(1.224744871) */
    lanes even = x[0] * 8192, tmp12 = x[2] * F0707, odd = x[1] * F1224;
    lanes tmp10 = even + tmp12;
    out[0] = tmp10 + odd;
    out[2] = tmp10 - odd;
    out[1] = even - tmp12 - tmp12;
}

/* The two passes of jidctint.c's IDCTs whose 1-D step is one function (`line`, the same in
 * both passes) for `size` outputs: pass 1 descales by 11 bits (CONST_BITS - PASS1_BITS) and its
 * values must stay inside +-limit; pass 2's are kept by store_rows, 15 bits down (the final 18
 * less the 3 that the DC's formula leaves). */
static inline __attribute__((always_inline)) int two_passes(const lanes in[8], int size,
                                                            void (*line)(const lanes x[8], lanes *out),
                                                            int32_t limit, int16_t *e) {
    lanes ws[8], t[8], out[8];
    line(in, ws);
    for (int y = 0; y < size; y++) {
        ws[y] = (ws[y] + 1024) >> 11;
        if (outside(&ws[y], limit)) return 0;
    }
    transpose(ws, size, t);
    line(t, out);
    store_rows(out, size, 15, e);
    return 1;
}

/* jpeg_idct_3x3 (jidctint.c): rows and columns 0-2, in plain C in libjpeg-turbo (its values
 * are 64-bit there; here every sum fits 32 bits, since inputs and first-pass values stay
 * inside +-LIMIT_16). Its final descale is 18 bits, as jpeg_idct_islow's. */
static inline __attribute__((always_inline)) int idct3_without_dc(const lanes in[8], int16_t e[16]) {
    if (!two_passes(in, 3, idct3_line, LIMIT_16, e)) return 0;
    memset(e + 9, 0, 7 * sizeof(int16_t));
    return 1;
}

/* jpeg_idct_6x6's sums (jidctint.c) on x[0..5], before the descale: its outputs 0 and 5 are
 * tmp10 +- tmp0, 2 and 3 tmp12 +- tmp2, 1 and 4 middle +- odd1, odd1 scaled as each pass
 * wants it. */
typedef struct {
    lanes tmp10, tmp12, middle, tmp0, tmp2, odd1;
} idct6_parts;

static inline __attribute__((always_inline)) void idct6_parts_of(const lanes x[8], int32_t rounding, idct6_parts *p) {
    enum { F0366 = 2998, F0707 = 5793, F1224 = 10033 }; /* FIX(0.366025404), FIX(0.707106781), FIX(1.224744871) */
    lanes even = x[0] * 8192 + rounding, c4 = x[4] * F0707, c2 = x[2] * F1224;
    lanes tmp1 = even + c4;
    p->middle = even - c4 - c4;
    p->tmp10 = tmp1 + c2;
    p->tmp12 = tmp1 - c2;
    lanes z1 = x[1], z2 = x[3], z3 = x[5], c5 = (z1 + z3) * F0366;
    p->tmp0 = c5 + (z1 + z2) * 8192;
    p->tmp2 = c5 + (z3 - z2) * 8192;
    p->odd1 = z1 - z2 - z3;
}

/* jpeg_idct_6x6 (jidctint.c): rows and columns 0-5, in plain C in libjpeg-turbo, as
 * jpeg_idct_3x3. Pass 1 descales the even part of rows 1 and 4 (rounding included) before it
 * adds their odd part, z1 - z2 - z3 times 4 (PASS1_BITS); pass 2 adds that part times 2^13 and
 * descales at the end, as for the other rows. */
static inline __attribute__((always_inline)) int idct6_without_dc(const lanes in[8], int16_t e[40]) {
    idct6_parts p;
    lanes ws[6], t[8], out[6];
    idct6_parts_of(in, 1024, &p);
    lanes middle = p.middle >> 11, odd1 = p.odd1 * 4;
    ws[0] = (p.tmp10 + p.tmp0) >> 11;
    ws[5] = (p.tmp10 - p.tmp0) >> 11;
    ws[1] = middle + odd1;
    ws[4] = middle - odd1;
    ws[2] = (p.tmp12 + p.tmp2) >> 11;
    ws[3] = (p.tmp12 - p.tmp2) >> 11;
    for (int y = 0; y < 6; y++)
        if (outside(&ws[y], LIMIT_16)) return 0;
    transpose(ws, 6, t);
    idct6_parts_of(t, 0, &p);
    odd1 = p.odd1 * 8192;
    out[0] = p.tmp10 + p.tmp0;
    out[5] = p.tmp10 - p.tmp0;
    out[1] = p.middle + odd1;
    out[4] = p.middle - odd1;
    out[2] = p.tmp12 + p.tmp2;
    out[3] = p.tmp12 - p.tmp2;
    store_rows(out, 6, 15, e);
    memset(e + 36, 0, 4 * sizeof(int16_t));
    return 1;
}

/* jpeg_idct_islow's 1-D step (jidctint.c) on x[0..7], before the descale. */
static inline __attribute__((always_inline)) void idct8_line(const lanes x[8], lanes *out) {
    enum { F0298 = 2446, F0390 = 3196, F0541 = 4433, F0765 = 6270, F0899 = 7373, F1175 = 9633,
           F1501 = 12299, F1847 = 15137, F1961 = 16069, F2053 = 16819, F2562 = 20995, F3072 = 25172 };
    lanes z1 = (x[2] + x[6]) * F0541;
    lanes tmp2 = z1 - x[6] * F1847, tmp3 = z1 + x[2] * F0765;
    lanes tmp0 = (x[0] + x[4]) * 8192, tmp1 = (x[0] - x[4]) * 8192;
    lanes tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    lanes z3 = x[7] + x[3], z4 = x[5] + x[1], z5 = (z3 + z4) * F1175;
    lanes o1 = (x[7] + x[1]) * -F0899, o2 = (x[5] + x[3]) * -F2562;
    z3 = z3 * -F1961 + z5;
    z4 = z4 * -F0390 + z5;
    lanes t0 = x[7] * F0298 + o1 + z3, t1 = x[5] * F2053 + o2 + z4;
    lanes t2 = x[3] * F3072 + o2 + z3, t3 = x[1] * F1501 + o1 + z4;
    out[0] = tmp10 + t3;
    out[7] = tmp10 - t3;
    out[1] = tmp11 + t2;
    out[6] = tmp11 - t2;
    out[2] = tmp12 + t1;
    out[5] = tmp12 - t1;
    out[3] = tmp13 + t0;
    out[4] = tmp13 - t0;
}

/* jpeg_idct_islow (jidctint.c), libjpeg's 8x8 IDCT at its default dct_method. */
static inline __attribute__((always_inline)) int idct8_without_dc(const lanes in[8], int16_t e[64]) {
    for (int k = 0; k < 8; k++)
        if (outside(&in[k], LIMIT_8X8)) return 0;
    return two_passes(in, 8, idct8_line, LIMIT_8X8, e);
}

/* The block's DC-free output, from its coefficients (natural order, DC not read). Compiled
 * twice, below: for any x86-64 (or other) processor, and for one with AVX2, where the vectors
 * of eight lanes fit a register. (Picked at run time by `plan->avx2`, not by target_clones,
 * whose ifunc resolver runs before a sanitizer's runtime is up.) */
static inline __attribute__((always_inline)) int idct_without_dc(int size, const int16_t coef[64],
                                                                 const int16_t quant[64], int16_t *e) {
    lanes in[8];
    int32_t out_of_range = 0;
    for (int k = 0; k < 8; k++) {
        lanes16 c, q;
        memcpy(&c, coef + k * 8, sizeof c);
        memcpy(&q, quant + k * 8, sizeof q);
        in[k] = __builtin_convertvector(c, lanes) * __builtin_convertvector(q, lanes);
        out_of_range |= outside(&in[k], LIMIT_16);
    }
    in[0][0] = 0; /* coef[0] is 0 already: the DC is not kept there */
    if (out_of_range) return 0;
    switch (size) {
    case 2: return idct2_without_dc(in, e);
    case 3: return idct3_without_dc(in, e);
    case 4: return idct4_without_dc(in, e);
    case 6: return idct6_without_dc(in, e);
    default: return idct8_without_dc(in, e);
    }
}

static int idct_plain(int size, const int16_t coef[64], const int16_t quant[64], int16_t *e) {
    return idct_without_dc(size, coef, quant, e);
}

#ifdef FRAMED_HAS_AVX2_VERSIONS
__attribute__((target("avx2"))) static int idct_avx2(int size, const int16_t coef[64], const int16_t quant[64],
                                                     int16_t *e) {
    return idct_without_dc(size, coef, quant, e);
}
#endif

static int idct(const framed_reduced *plan, int size, const int16_t coef[64], const int16_t quant[64], int16_t *e) {
#ifdef FRAMED_HAS_AVX2_VERSIONS
    if (plan->avx2) return idct_avx2(size, coef, quant, e);
#endif
    return idct_plain(size, coef, quant, e);
}

#define PEEK(n) ((uint32_t)(bits >> (64 - (n))))
#define TAKE(n) do { bits <<= (n); count -= (n); } while (0)
#define SAVE() do { r->bits = bits; r->count = count; } while (0)
#define LOAD() do { bits = r->bits; count = r->count; } while (0)
#define ENSURE() do { if (count < 32) { SAVE(); refill(r); LOAD(); } } while (0)

/* A block's AC coefficients: each value goes to coef[slots[zigzag index]], which is its natural
 * index or NOT_READ (a slot past the 64, written without a branch); none are kept when `slots`
 * is NULL (which the compiler sees, this being inlined). 0 for bits that are no code, or a
 * block past 64. */
static inline __attribute__((always_inline)) int decode_ac(bit_reader *r, const huffman_table *table,
                                                           const uint8_t *slots, int16_t *coef) {
    uint64_t bits = r->bits;
    int count = r->count;
    for (int k = 1; k < 64;) {
        ENSURE();
        fast_entry entry = table->fast[PEEK(FAST_BITS)];
        int run, value;
        if (__builtin_expect(entry.length != 0 && entry.run < 16, 1)) {
            TAKE(entry.length);
            run = entry.run;
            value = entry.value;
        } else if (entry.length && entry.run == EOB) {
            TAKE(entry.length);
            break;
        } else {
            int size;
            if (entry.length) {
                TAKE(entry.length);
                run = entry.run & 15;
                size = entry.value;
            } else {
                int length, symbol = slow_symbol(bits, table, &length);
                if (symbol < 0) return 0;
                TAKE(length);
                run = symbol >> 4;
                size = symbol & 15;
                if (size == 0 && run != 15) break;
            }
            ENSURE();
            value = size ? extend(PEEK(size), size) : 0;
            if (size) TAKE(size);
        }
        k += run;
        if (k > 63) return 0;
        if (slots) coef[slots[k]] = (int16_t)value;
        k++;
    }
    SAVE();
    return 1;
}

/* Decodes one MCU into `record` (each block's DC as libjpeg stores it, and for a block of more
 * than one pixel its idct_without_dc), predicting DCs from `prediction`. 0 for bits that are
 * no code, a block past 64 coefficients, a DC prediction past +-2^29 or values out of range. */
static inline __attribute__((always_inline)) int decode_mcu(const framed_reduced *plan, bit_reader *r,
                                                            int32_t prediction[3], int16_t *record) {
    uint64_t bits = r->bits;
    int count = r->count;
    for (int b = 0; b < plan->blocks; b++) {
        const block_plan *block = &plan->block[b];
        const huffman_table *table = block->dc;
        int16_t coef[64 + 1]; /* natural order, and the NOT_READ slot */
        if (block->size > 1) memset(coef, 0, sizeof coef);
        /* DC difference */
        ENSURE();
        int diff;
        fast_entry entry = table->fast[PEEK(FAST_BITS)];
        if (entry.length && !(entry.run & PARTIAL)) {
            TAKE(entry.length);
            diff = entry.value;
        } else {
            int size;
            if (entry.length) {
                TAKE(entry.length);
                size = entry.value;
            } else {
                int length;
                size = slow_symbol(bits, table, &length);
                if (size < 0) return 0;
                TAKE(length);
            }
            ENSURE();
            diff = size ? extend(PEEK(size), size) : 0;
            if (size) TAKE(size);
        }
        int32_t dc = prediction[block->component] + diff;
        if (dc > LIMIT_SUM || dc < -LIMIT_SUM) return 0;
        prediction[block->component] = dc;
        record[block->slot] = (int16_t)dc;
        /* AC coefficients: kept only where the block's IDCT reads them */
        SAVE();
        int ok = block->size > 1 ? decode_ac(r, block->ac, plan->slots[block->slots], coef)
                                 : decode_ac(r, block->ac, NULL, NULL);
        if (!ok) return 0;
        LOAD();
        if (block->size > 1) {
            int16_t *e = &record[block->slot + 1];
            int read = 0; /* whether a coefficient that the block's IDCT reads (DC aside) is not 0 */
            for (int n = 1; n < 64; n++) read |= coef[n];
            if (!read) /* idct_without_dc's values when only the DC is there */
                memset(e, 0, (size_t)kept_values(block->size) * sizeof(int16_t));
            else if (!idct(plan, block->size, coef, plan->quant[block->component], e))
                return 0;
        }
    }
    SAVE();
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Pixels                                                                                      */

/* Where decoded MCUs become rows: their samples go to planes a row of MCUs high, which are
 * turned into RGBA rows and placed once the row of MCUs is complete. */
typedef struct {
    const framed_reduced *plan;
    uint8_t *planes;        /* components x mcu_height rows of plane_width samples */
    size_t plane_width;     /* mcus_per_row * mcu_width */
    uint8_t *row;           /* one RGBA row, for layouts that turn the picture */
    uint8_t *pixels;
    ccodecs_layout layout;
    int stored;             /* the layout keeps the stored order */
    ccodecs_reader *reader; /* told of each row written in the stored layout */
    uint32_t published;     /* rows written and published */
} pixel_sink;

/* The top `rows` rows are written: the watcher, if any, is told (rows are published only in
 * the stored layout). */
static void sink_publish(pixel_sink *sink, uint32_t rows) {
    if (!sink->stored) return;
    sink->published = rows;
    if (sink->reader) ccodecs_rows_published(sink->reader, rows);
}

static uint8_t *plane_row(const pixel_sink *sink, int component, int y) {
    return sink->planes + ((size_t)component * (size_t)sink->plan->mcu_height + (size_t)y) * sink->plane_width;
}

/* `count` pixels of Y, Cb, Cr as opaque RGBA: libjpeg's ycc_rgb_convert, its tables' values
 * worked out eight pixels at a time (they are those products, rounded as the tables are).
 * Compiled twice, as idct_without_dc is. */
static inline __attribute__((always_inline)) void ycc_to_rgba(const framed_ycc_tables *tables, const uint8_t *y,
                                                              const uint8_t *cb, const uint8_t *cr, uint8_t *rgba,
                                                              size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8, rgba += 32) {
        lanes luma, blue, red;
        for (int k = 0; k < 8; k++) {
            luma[k] = y[i + k];
            blue[k] = cb[i + k] - 128;
            red[k] = cr[i + k] - 128;
        }
        lanes r = luma + ((red * FRAMED_YCC_CR_R + 32768) >> 16);
        lanes g = luma + ((blue * -FRAMED_YCC_CB_G + 32768 + red * -FRAMED_YCC_CR_G) >> 16);
        lanes b = luma + ((blue * FRAMED_YCC_CB_B + 32768) >> 16);
        const lanes zero = {0}, full = zero + 255;
        r = __builtin_elementwise_min(__builtin_elementwise_max(r, zero), full);
        g = __builtin_elementwise_min(__builtin_elementwise_max(g, zero), full);
        b = __builtin_elementwise_min(__builtin_elementwise_max(b, zero), full);
        for (int k = 0; k < 8; k++) {
            rgba[4 * k] = (uint8_t)r[k];
            rgba[4 * k + 1] = (uint8_t)g[k];
            rgba[4 * k + 2] = (uint8_t)b[k];
            rgba[4 * k + 3] = 255;
        }
    }
    for (; i < count; i++, rgba += 4) framed_ycc_pixel(tables, rgba, y[i], cb[i], cr[i]);
}

static void ycc_plain(const framed_ycc_tables *tables, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                      uint8_t *rgba, size_t count) {
    ycc_to_rgba(tables, y, cb, cr, rgba, count);
}

#ifdef FRAMED_HAS_AVX2_VERSIONS
__attribute__((target("avx2"))) static void ycc_avx2(const framed_ycc_tables *tables, const uint8_t *y,
                                                     const uint8_t *cb, const uint8_t *cr, uint8_t *rgba,
                                                     size_t count) {
    ycc_to_rgba(tables, y, cb, cr, rgba, count);
}
#endif

static void ycc(int avx2, const framed_ycc_tables *tables, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                uint8_t *rgba, size_t count) {
#ifdef FRAMED_HAS_AVX2_VERSIONS
    if (avx2) {
        ycc_avx2(tables, y, cb, cr, rgba, count);
        return;
    }
#endif
    (void)avx2;
    ycc_plain(tables, y, cb, cr, rgba, count);
}

void framed_engine_ycc_to_rgba(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, uint8_t *rgba, size_t count,
                               int one_at_a_time) {
    framed_ycc_tables tables;
    framed_ycc_tables_init(&tables);
    if (one_at_a_time) {
        for (size_t i = 0; i < count; i++) framed_ycc_pixel(&tables, rgba + 4 * i, y[i], cb[i], cr[i]);
        return;
    }
    ycc(framed_use_avx2(), &tables, y, cb, cr, rgba, count);
}

/* Row `y` of the current row of MCUs, as RGBA into `rgba`. */
static void convert_row(const pixel_sink *sink, int y, uint8_t *rgba) {
    const framed_reduced *plan = sink->plan;
    const uint8_t *luma = plane_row(sink, 0, y);
    if (plan->components == 1) {
        ccodecs_expand_gray(rgba, luma, plan->width);
    } else {
        ycc(plan->avx2, &plan->ycc, luma, plane_row(sink, 1, y), plane_row(sink, 2, y), rgba, plan->width);
    }
}

/* A sample (dc + e + 4) >> 3 through libjpeg's range limit, which within [-512, 511] is the
 * value + 128, clamped. 0 for a value outside that range. */
static inline int limit_sample(int dc, int e, uint8_t *sample) {
    int value = (dc + e + 4) >> 3;
    *sample = (uint8_t)(value < -128 ? 0 : value > 127 ? 255 : value + 128);
    return value <= 511 && value >= -512;
}

/* Eight of them, as limit_sample. */
static inline int limit_eight(const int16_t e[8], int dc, uint8_t samples[8]) {
#ifdef __SSE2__
    /* A sum that saturates is far outside the range, and found so. */
    __m128i values = _mm_srai_epi16(_mm_adds_epi16(_mm_loadu_si128((const __m128i *)e), _mm_set1_epi16((short)(dc + 4))), 3);
    __m128i bad = _mm_or_si128(_mm_cmpgt_epi16(values, _mm_set1_epi16(511)), _mm_cmplt_epi16(values, _mm_set1_epi16(-512)));
    values = _mm_add_epi16(values, _mm_set1_epi16(128));
    _mm_storel_epi64((__m128i *)samples, _mm_packus_epi16(values, values));
    return _mm_movemask_epi8(bad) == 0;
#else
    int ok = 1;
    for (int k = 0; k < 8; k++) ok &= limit_sample(dc, e[k], &samples[k]);
    return ok;
#endif
}

/* Writes MCU `index` from its record, each component's DCs shifted by `shift` (mod 2^16, as
 * libjpeg's JCOEF holds them). 0 for values out of the range handled exactly. */
static int put_mcu(pixel_sink *sink, int64_t index, const int16_t *record, const int16_t shift[3]) {
    const framed_reduced *plan = sink->plan;
    int64_t column = index % plan->mcus_per_row;
    size_t x0 = (size_t)column * (size_t)plan->mcu_width;
    for (int b = 0; b < plan->blocks; b++) {
        const block_plan *block = &plan->block[b];
        int c = block->component, size = block->size;
        int16_t dc = (int16_t)(record[block->slot] + shift[c]);
        int dequantized = dc * plan->quant[c][0]; /* libjpeg's DEQUANTIZE: short times short */
        uint8_t *out = plane_row(sink, c, block->y) + x0 + (size_t)block->x;
        if (size == 1) {
            *out = plan->range[((dequantized + 4) >> 3) & 1023];
            continue;
        }
        if (dequantized > 2047 || dequantized < -2047) return 0;
        const int16_t *e = &record[block->slot + 1];
        if (size == 2) {
            int ok = 1;
            for (int y = 0; y < 2; y++, out += sink->plane_width)
                for (int x = 0; x < 2; x++) ok &= limit_sample(dequantized, e[y * 2 + x], &out[x]);
            if (!ok) return 0;
            continue;
        }
        /* Eight samples at a time, then the block's rows. */
        uint8_t samples[64];
        for (int i = 0; i < kept_values(size); i += 8)
            if (!limit_eight(e + i, dequantized, samples + i)) return 0;
        for (int y = 0; y < size; y++) memcpy(out + (size_t)y * sink->plane_width, samples + y * size, (size_t)size);
    }
    if (column == plan->mcus_per_row - 1) {
        size_t stride = (size_t)plan->width * 4;
        uint32_t top = (uint32_t)(index / plan->mcus_per_row) * (uint32_t)plan->mcu_height;
        for (uint32_t y = 0; y < (uint32_t)plan->mcu_height && top + y < plan->height; y++) {
            if (sink->stored) {
                convert_row(sink, (int)y, sink->pixels + (size_t)(top + y) * stride);
                sink_publish(sink, top + y + 1);
            } else {
                convert_row(sink, (int)y, sink->row);
                ccodecs_place_row(sink->pixels, sink->layout, top + y, sink->row, plan->width);
            }
        }
    }
    return 1;
}

/* A sink over `pixels`, publishing its rows to `reader` (NULL: not publishing). 0 when out of
 * memory. */
static int sink_open(pixel_sink *sink, const framed_reduced *plan, uint8_t *pixels, ccodecs_layout layout,
                     ccodecs_reader *reader) {
    size_t plane_width = (size_t)plan->mcus_per_row * (size_t)plan->mcu_width;
    *sink = (pixel_sink){plan, malloc(plane_width * (size_t)plan->mcu_height * (size_t)plan->components),
                         plane_width, malloc((size_t)plan->width * 4), pixels, layout,
                         ccodecs_layout_is_stored(layout, plan->width), reader, 0};
    return sink->planes && sink->row;
}

static void sink_close(pixel_sink *sink) {
    free(sink->planes);
    free(sink->row);
}

/* ------------------------------------------------------------------------------------------ */
/* The second thread                                                                           */

#define MAX_RESETS 1024 /* before it falls into step, and after the data: a few */

/* Records are kept in chunks of this many bytes, each freed once its MCUs are in place: at 1/4
 * and 1/2 the records of half a picture take more room than its pixels. A chunk is one 2 MB
 * page (ccodecs_huge_alloc): with 4 KB pages, the faults of 18 MB of records for a 24 MP
 * picture at 1/2 cost the second thread about 5 ms. */
#define CHUNK_BYTES CCODECS_HUGE_PAGE

/* The second thread's work: MCUs decoded from a byte in the middle of the data ("records"),
 * with where each began; where it had to start again after bits that were no code. */
typedef struct {
    const framed_reduced *plan;
    size_t start;              /* input offset of its first byte */
    bit_reader reader;
    int16_t **chunks;          /* capacity / chunk_mcus + 1 of them, allocated as needed */
    int64_t chunk_mcus;        /* records in a chunk */
    uint32_t *begins;          /* bits from `start` to each record */
    int64_t capacity;
    int64_t published;         /* records whose data may be read (atomic) */
    int done, stop;            /* atomic: it has decoded all it will; it is to stop decoding */
    /* Once done, it waits to be told to turn the last rows of MCUs into pixels, or to leave. */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int tail_go, tail_stop;    /* under lock */
    pixel_sink tail_sink;
    int64_t tail_first, tail_index, tail_count;
    int16_t tail_shift[3];
    int tail_status;
    int64_t resets[MAX_RESETS], reset_ends[MAX_RESETS]; /* record index, and where the one before ended */
    int reset_count, overflowed;
    int64_t end;               /* bits from `start` to the end of its last record */
    pthread_t thread;
} second_half;

/* Record `index` of the second half. */
static int16_t *record_at(const second_half *half, int64_t index) {
    return half->chunks[index / half->chunk_mcus] + (index % half->chunk_mcus) * half->plan->record_size;
}

static void free_chunks(second_half *half, int64_t first, int64_t end) {
    for (int64_t i = first; i < end; i++) {
        ccodecs_huge_free(half->chunks[i], CHUNK_BYTES);
        half->chunks[i] = NULL;
    }
}

/* Records first..first+count-1 as MCUs index.., DCs shifted by `shift`; each chunk freed once
 * its last record is put, unless it begins before `keep_below` (another thread's records).
 * 0 for a value out of range. */
static int put_records(second_half *half, pixel_sink *sink, int64_t first, int64_t index, int64_t count,
                       const int16_t shift[3], int64_t keep_below) {
    for (int64_t i = first; i < first + count; i++) {
        if (!put_mcu(sink, index + i - first, record_at(half, i), shift)) return 0;
        int64_t chunk = i / half->chunk_mcus;
        if ((i + 1) % half->chunk_mcus == 0 && chunk * half->chunk_mcus >= keep_below)
            free_chunks(half, chunk, chunk + 1);
    }
    return 1;
}

static void *second_half_run(void *argument) {
    second_half *half = argument;
    const framed_reduced *plan = half->plan;
    bit_reader *r = &half->reader;
    int32_t prediction[3] = {0, 0, 0};
    int64_t count = 0, last_end = 0;
    while (count < half->capacity && !__atomic_load_n(&half->stop, __ATOMIC_RELAXED)) {
        if (r->count < 32) refill(r);
        if (r->ended && r->count <= 8 * r->zeros) break; /* every bit of data taken */
        int64_t begin = consumed(r);
        if (begin > UINT32_MAX) break;
        int32_t saved[3] = {prediction[0], prediction[1], prediction[2]};
        int16_t **chunk = &half->chunks[count / half->chunk_mcus];
        if (!*chunk && !(*chunk = ccodecs_huge_alloc(CHUNK_BYTES))) break;
        if (!decode_mcu(plan, r, prediction, record_at(half, count))) {
            /* Not an MCU boundary after all: on from the next byte. */
            memcpy(prediction, saved, sizeof saved);
            if (r->count < 32) refill(r);
            int drop = r->count & 7 ? r->count & 7 : 8;
            r->bits <<= drop;
            r->count -= drop;
            if (half->reset_count == MAX_RESETS) {
                half->overflowed = 1;
                break;
            }
            half->resets[half->reset_count] = count;
            half->reset_ends[half->reset_count++] = last_end;
            continue;
        }
        half->begins[count] = (uint32_t)begin;
        last_end = consumed(r);
        __atomic_store_n(&half->published, ++count, __ATOMIC_RELEASE);
    }
    half->end = last_end;
    if (!r->ended) { /* stopped early, or out of room: not to be used past here */
        half->overflowed = 1;
    }
    pthread_mutex_lock(&half->lock);
    __atomic_store_n(&half->done, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&half->changed);
    while (!half->tail_go && !half->tail_stop) pthread_cond_wait(&half->changed, &half->lock);
    int go = half->tail_go;
    pthread_mutex_unlock(&half->lock);
    if (go)
        half->tail_status = put_records(half, &half->tail_sink, half->tail_first, half->tail_index, half->tail_count,
                                        half->tail_shift, half->tail_first);
    return NULL;
}

/* Ends the second thread: tells it to leave unless it was given the tail, and joins it. */
static void end_second_thread(second_half *half) {
    __atomic_store_n(&half->stop, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&half->lock);
    half->tail_stop = 1;
    pthread_cond_broadcast(&half->changed);
    pthread_mutex_unlock(&half->lock);
    pthread_join(half->thread, NULL);
}

/* Where record `index` of the second half ended, or -1 if it did not end where the next
 * began (a reset there) and is not the last. */
static int64_t record_end(const second_half *half, int64_t index, int64_t count) {
    for (int i = 0; i < half->reset_count; i++)
        if (half->resets[i] == index + 1) return half->reset_ends[i];
    return index + 1 < count ? (int64_t)half->begins[index + 1] : half->end;
}

/* Whether records first..first+need-1 follow each other with no reset between. */
static int contiguous(const second_half *half, int64_t first, int64_t need) {
    for (int i = 0; i < half->reset_count; i++)
        if (half->resets[i] > first && half->resets[i] < first + need) return 0;
    return 1;
}

/* The second half (its thread done decoding) from its record j on, for MCUs `index` to the
 * end, where the first thread met it with these DC predictions: 1 when its records follow each
 * other up to an EOI and are put in place, 0 when they are not usable, -1 when a value is out
 * of range (libjpeg then decodes the file). The second thread puts the last rows of MCUs while
 * this one puts the first; it has ended when this returns. */
static int take_second_half(second_half *half, pixel_sink *sink, int64_t index, int64_t j,
                            const int32_t prediction[3]) {
    const framed_reduced *plan = half->plan;
    int64_t need = plan->mcus - index, count = half->published;
    int64_t end = half->overflowed || j + need > count || !contiguous(half, j, need) ? -1
        : record_end(half, j + need - 1, count);
    if (end < 0 || !ends_at_eoi(&half->reader, end)) {
        end_second_thread(half);
        return 0;
    }
    /* Its DCs were predicted from 0 at its first record: shift them by the difference from
     * the first half's predictions where the two meet. */
    int16_t shift[3] = {0, 0, 0};
    for (int b = 0; b < plan->blocks; b++) {
        int c = plan->block[b].component;
        int16_t before = j ? record_at(half, j - 1)[plan->block[b].slot] : 0;
        shift[c] = (int16_t)(prediction[c] - before);
    }
    free_chunks(half, 0, j / half->chunk_mcus);
    /* The second thread's part: from the first row of MCUs that begins past half of what is
     * left (rows of MCUs are what a sink turns into pixels). */
    int64_t split = (index + need / 2 + plan->mcus_per_row - 1) / plan->mcus_per_row * plan->mcus_per_row - index;
    int helped = 0;
    if (split < need && sink_open(&half->tail_sink, plan, sink->pixels, sink->layout, NULL)) {
        pthread_mutex_lock(&half->lock);
        half->tail_first = j + split;
        half->tail_index = index + split;
        half->tail_count = need - split;
        memcpy(half->tail_shift, shift, sizeof shift);
        half->tail_go = helped = 1;
        pthread_cond_broadcast(&half->changed);
        pthread_mutex_unlock(&half->lock);
    }
    int ok = put_records(half, sink, j, index, helped ? split : need, shift, 0);
    end_second_thread(half);
    if (helped) {
        ok = ok && half->tail_status;
        sink_close(&half->tail_sink);
        if (ok) sink_publish(sink, plan->height); /* its rows, after this thread's */
    }
    return ok ? 1 : -1;
}

/* ------------------------------------------------------------------------------------------ */

/* Where the second thread starts: halfway through the data, not just after an FF (which
 * could be half of a stuffed pair). 0 when the file cannot be read there. */
static size_t middle_of_data(const framed_reduced *plan) {
    size_t start = plan->data_start + (plan->input.size - plan->data_start) / 2;
    uint8_t bytes[64];
    for (;;) {
        ptrdiff_t got = ccodecs_input_read(&plan->input, start - 1, bytes, sizeof bytes);
        if (got <= 0) return 0;
        ptrdiff_t i = 0;
        while (i < got && bytes[i] == 0xFF) i++;
        start += (size_t)i;
        if (i < got) return start;
    }
}

/* Entropy-coded data smaller than this is decoded on one thread: the second thread would
 * often not be running before the first reached the middle (1 MB take 5 ms; on this 2-core
 * VM a new thread can take a millisecond to start). A 12 MP photo at quality 90 has 4 MB. */
#define SPLIT_BYTES (1u << 20)

/* Decodes MCU `index` at `r`, predicting DCs from `prediction`, and puts it. 0 for anything
 * decode_mcu or put_mcu refuses, or bits taken past the data. */
static inline __attribute__((always_inline)) int decode_and_put(const framed_reduced *plan, bit_reader *r,
                                                                int32_t prediction[3], pixel_sink *sink,
                                                                int64_t index) {
    static const int16_t no_shift[3] = {0, 0, 0};
    int16_t record[MAX_BLOCKS * 65]; /* an 8x8 block: its DC and 64 values */
    if (r->count < 32) refill(r);
    return decode_mcu(plan, r, prediction, record) && put_mcu(sink, index, record, no_shift) && !past_the_data(r);
}

/* Whether to decode on two threads: there are two, and enough data that the second one is
 * running before the first reaches it (or the tests ask). */
static int splits(const framed_reduced *plan, int threads) {
    return threads > 1 && (plan->input.size - plan->data_start >= SPLIT_BYTES || plan->always_split);
}

/* Whether to decode on one thread rather than leave the file to libjpeg: at 1/8, and at 3/8,
 * where libjpeg's IDCTs are plain C; not at 1/4 and 1/2, where on one thread libjpeg's SIMD
 * IDCTs make 2x2, 4x4 and 8x8 blocks faster than this does. */
static int one_thread_pays(const framed_reduced *plan) { return plan->luma_size == 1 || plan->luma_size == 3; }

/* ------------------------------------------------------------------------------------------ */
/* Files with restart markers                                                                  */

/* MCUs from..to-1 of a file with restart markers, `r` at the start of MCU `from`, which begins
 * a restart interval (DC predictions from 0). 0 for anything libjpeg would not decode without
 * a warning, or when *stop is set. */
static int decode_intervals(const framed_reduced *plan, bit_reader *r, pixel_sink *sink, int64_t from, int64_t to,
                            const int *stop) {
    int32_t prediction[3] = {0, 0, 0};
    for (int64_t index = from; index < to; index++) {
        if (index > from && index % plan->restart_interval == 0) {
            if (!take_restart(r, consumed(r), index / plan->restart_interval - 1)) return 0;
            prediction[0] = prediction[1] = prediction[2] = 0;
            if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) return 0;
        }
        if (!decode_and_put(plan, r, prediction, sink, index)) return 0;
    }
    return 1;
}

/* The restart marker nearest past the middle of the data after which a row of MCUs begins:
 * the offset just past it, and that MCU in *mcu. 0 when there is none before two thirds of the
 * data, or markers are out of order (then one thread finds the fault, or libjpeg). Found by
 * reading the bytes for FF: the entropy-coded data holds FF only stuffed (FF 00), as fill
 * (FF FF) or before a marker. */
static size_t restart_near_middle(const framed_reduced *plan, int64_t *mcu) {
    enum { CHUNK = CCODECS_READ_CHUNK };
    size_t data = plan->input.size - plan->data_start;
    size_t middle = plan->data_start + data / 2, limit = plan->data_start + data / 3 * 2, found = 0;
    /* Memory is looked at in place; a file is read a chunk at a time into `buffer`. */
    uint8_t *buffer = plan->input.data ? NULL : malloc(CHUNK);
    ccodecs_window window = {.input = &plan->input, .buffer = buffer, .capacity = CHUNK};
    int64_t markers = 0;
    for (size_t at = plan->data_start; (plan->input.data || buffer) && !found && at < limit;) {
        const uint8_t *bytes;
        ptrdiff_t got = ccodecs_window_look(&window, at, CHUNK, plan->input.size, &bytes);
        if (got > CHUNK) got = CHUNK;
        if (got < 2) break;
        size_t i = 0, next = at + (size_t)got - 1; /* a chunk's last byte is read again with the next */
        for (; i + 1 < (size_t)got; i++) {
            if (bytes[i] != 0xFF || bytes[i + 1] == 0x00 || bytes[i + 1] == 0xFF) continue;
            int code = bytes[i + 1];
            if (code < JPEG_RST0 || code > JPEG_RST0 + 7 || code != JPEG_RST0 + (int)(markers & 7)) {
                next = limit; /* EOI, another marker, or one out of order */
                break;
            }
            markers++;
            int64_t after = markers * plan->restart_interval;
            if (at + i >= middle && after % plan->mcus_per_row == 0 && after < plan->mcus) {
                found = at + i + 2;
                *mcu = after;
                break;
            }
            i++;
        }
        at = next;
    }
    free(buffer);
    return found;
}

/* The part of a file with restart markers that a second thread decodes, from a marker on. */
typedef struct {
    const framed_reduced *plan;
    bit_reader reader;
    pixel_sink sink;
    int64_t from;
    int status, stop; /* stop: atomic */
    pthread_t thread;
} restart_part;

static void *restart_part_run(void *argument) {
    restart_part *part = argument;
    bit_reader *r = &part->reader;
    part->status = decode_intervals(part->plan, r, &part->sink, part->from, part->plan->mcus, &part->stop) &&
                   ends_at_eoi(r, consumed(r));
    return NULL;
}

/* A file with restart markers: on two threads when the data is large, the second starting past
 * a restart marker near the middle, where it knows its MCU (counted by markers) and its DC
 * predictions (0), so that it writes pixels directly. What reduced_decode returns. */
static int decode_with_restarts(framed_reduced *plan, pixel_sink *sink, int split) {
    restart_part *part = NULL;
    int64_t from = plan->mcus;
    size_t start = 0;
    if (split) {
        start = restart_near_middle(plan, &from);
        part = start ? calloc(1, sizeof *part) : NULL;
        if (part) {
            *part = (restart_part){.plan = plan, .from = from};
            int sink_ready = sink_open(&part->sink, plan, sink->pixels, sink->layout, NULL);
            if (!sink_ready || !reader_open(&part->reader, &plan->input, start, 0) ||
                pthread_create(&part->thread, NULL, restart_part_run, part)) {
                reader_close(&part->reader);
                sink_close(&part->sink);
                free(part);
                part = NULL;
            }
        }
        if (!part) from = plan->mcus;
    }
    if (!part && !one_thread_pays(plan)) return 0;
    bit_reader first;
    int ok = reader_open(&first, &plan->input, plan->data_start, 0);
    if (ok) {
        ok = decode_intervals(plan, &first, sink, 0, from, NULL);
        /* Ends where the second thread began: at the marker before its MCU, or at EOI. */
        if (ok && part)
            ok = take_restart(&first, consumed(&first), from / plan->restart_interval - 1) &&
                 offset_of(&first, first.p) == start;
        else if (ok)
            ok = ends_at_eoi(&first, consumed(&first));
        reader_close(&first);
    }
    if (!part) return ok;
    if (!ok) __atomic_store_n(&part->stop, 1, __ATOMIC_RELAXED);
    pthread_join(part->thread, NULL);
    ok = ok && part->status;
    reader_close(&part->reader);
    sink_close(&part->sink);
    free(part);
    if (ok) sink_publish(sink, plan->height); /* its rows, after this thread's */
    return ok ? 2 : 0;
}

static int reduced_decode(void *planned, uint8_t *pixels, ccodecs_layout layout, int threads, ccodecs_reader *reader,
                          uint32_t *published) {
    framed_reduced *plan = planned;
    int status = 0, joined = 0;
    pixel_sink sink;
    int sink_ready = sink_open(&sink, plan, pixels, layout, reader);
    second_half *half = NULL;
    bit_reader first;
    int first_open = 0;
    int split = splits(plan, threads);
    if (sink_ready && plan->restart_interval) {
        status = decode_with_restarts(plan, &sink, split);
        goto done;
    }
    if (!sink_ready || (!split && !one_thread_pays(plan))) goto done;
    if (split) {
        size_t start = middle_of_data(plan);
        half = start ? calloc(1, sizeof *half) : NULL;
        if (half) {
            half->plan = plan;
            half->start = start;
            half->capacity = plan->mcus;
            half->chunk_mcus = CHUNK_BYTES / ((size_t)plan->record_size * sizeof(int16_t));
            half->chunks = calloc((size_t)(half->capacity / half->chunk_mcus + 1), sizeof(int16_t *));
            /* Touched only as far as written. */
            half->begins = malloc((size_t)half->capacity * sizeof(uint32_t));
            pthread_mutex_init(&half->lock, NULL);
            pthread_cond_init(&half->changed, NULL);
            if (!half->chunks || !half->begins || !reader_open(&half->reader, &plan->input, start, 0) ||
                pthread_create(&half->thread, NULL, second_half_run, half)) {
                reader_close(&half->reader);
                pthread_mutex_destroy(&half->lock);
                pthread_cond_destroy(&half->changed);
                free(half->chunks);
                free(half->begins);
                free(half);
                half = NULL;
            }
        }
    }
    if (!reader_open(&first, &plan->input, plan->data_start, half ? half->start : 0)) goto done;
    first_open = 1;
    int32_t prediction[3] = {0, 0, 0};
    int64_t index = 0, j = 0;
    int looking = half != NULL;
    for (; index < plan->mcus; index++) {
        if (looking && offset_of(&first, first.p) > half->start) {
            /* Does an MCU of the second half begin here? Bits measured from its start. */
            int64_t here = consumed(&first) - 8 * ((int64_t)(half->start - plan->data_start) - first.skipped_before);
            int matched = 0;
            for (;;) {
                int64_t published = __atomic_load_n(&half->published, __ATOMIC_ACQUIRE);
                while (j < published && (int64_t)half->begins[j] < here) j++;
                if (j < published) {
                    matched = (int64_t)half->begins[j] == here;
                    break;
                }
                if (__atomic_load_n(&half->done, __ATOMIC_ACQUIRE)) {
                    /* Records published after `published` was read and before `done` was set
                     * are to be looked at first: every one is visible now. */
                    if (j < __atomic_load_n(&half->published, __ATOMIC_ACQUIRE)) continue;
                    looking = 0;
                    break;
                }
                if (!plan->always_split) break;
                sched_yield(); /* tests: until the second thread has been here */
            }
            if (matched) {
                pthread_mutex_lock(&half->lock);
                while (!__atomic_load_n(&half->done, __ATOMIC_ACQUIRE)) pthread_cond_wait(&half->changed, &half->lock);
                pthread_mutex_unlock(&half->lock);
                int taken = take_second_half(half, &sink, index, j, prediction);
                joined = 1;
                if (taken) {
                    status = taken > 0 ? 2 : 0;
                    goto done;
                }
                looking = 0; /* not usable: the first thread decodes the rest itself */
            }
        }
        if (!decode_and_put(plan, &first, prediction, &sink, index)) goto done;
    }
    if (ends_at_eoi(&first, consumed(&first))) status = 1;
done:
    if (half) {
        if (!joined) end_second_thread(half);
        reader_close(&half->reader);
        pthread_mutex_destroy(&half->lock);
        pthread_cond_destroy(&half->changed);
        free_chunks(half, 0, half->capacity / half->chunk_mcus + 1);
        free(half->chunks);
        free(half->begins);
        free(half);
    }
    if (first_open) reader_close(&first);
    if (sink_ready) *published = sink.published;
    else *published = 0;
    sink_close(&sink);
    return status;
}

static const struct ccodecs_jpeg_reduced_engine engine = {reduced_plan, reduced_decode, reduced_free};

const struct ccodecs_jpeg_reduced_engine *framed_engine_jpegreduced(void) { return &engine; }
