/* libjpeg plumbing shared by the wrappers' JPEG files (jpegheader.c, jpegdecode.c,
 * jpegencode.c) and by framed's own JPEG engines (CFramedEngines): the error manager that turns
 * libjpeg's errors into a status and a message through a setjmp, the cap on scans, the source
 * that reads a ccodecs_input a chunk at a time (and can pass over listed scans), and the
 * watching of a multi-scan decode's coefficient arrays. The engines depend on this header, and
 * nothing here knows of them. For C only: not part of the Swift module.
 *
 * libjpeg reports errors by calling error_exit, which must not return: ours longjmps back into
 * the function that called setjmp(errors->jump). State that must survive the jump (libjpeg
 * structs, allocations) lives in a caller's frame or on the heap, never in locals of the
 * function holding setjmp. */
#ifndef CCODECS_JPEGLIB_H
#define CCODECS_JPEGLIB_H

#include <stdio.h> /* before jpeglib.h */
#include <setjmp.h>
#include <jpeglib.h>
#include "ccodecs_common.h"

/* libjpeg's error manager for one compressor or decompressor. */
typedef struct {
    struct jpeg_error_mgr pub; /* first: libjpeg sees only this */
    jmp_buf jump;              /* where an error jumps to: set it before calling libjpeg */
    char *message;             /* CCODECS_MESSAGE_SIZE bytes: the error's text */
    ccodecs_decoded *out;      /* where warnings are counted */
    int hit_end;               /* libjpeg ran out of data (JWRN_JPEG_EOF) */
    int status;                /* set before the jump */
} ccodecs_jpeg_errors;

/* Sets up `errors` (message emptied) and returns what cinfo->err takes. */
struct jpeg_error_mgr *ccodecs_jpeg_errors_init(ccodecs_jpeg_errors *errors, char *message, ccodecs_decoded *out);

/* Each scan of a progressive (or multi-scan) JPEG is a pass over the whole picture, and a
 * small file can hold thousands of scans that each cost a full pass (the "pathological
 * progressive JPEG" that libjpeg-turbo's own tools and fuzzers cap): more scans than this are
 * refused as an error. Ordinary progressive files have about 10. */
#define CCODECS_JPEG_MAX_SCANS 500

/* A progress monitor (jpeg_progress_mgr.progress_monitor) that bails out through the error
 * jump past CCODECS_JPEG_MAX_SCANS: libjpeg calls it before it absorbs each row of MCUs in
 * jpeg_start_decompress (and between output passes). */
void ccodecs_jpeg_count_scans(j_common_ptr cinfo);

/* Bytes [start, end) of the input, from a scan's SOS marker to the marker after its data, and
 * the id of its one component: an AC scan that a source can pass over. */
typedef struct {
    size_t start, end;
    int component;
} ccodecs_span;

/* A libjpeg source over a ccodecs_input. Memory is handed over whole, as jpeg_mem_src does;
 * a file a chunk at a time (pread into CCODECS_READ_CHUNK bytes), and what libjpeg skips
 * (markers it does not keep) is not read at all. At the end of the data comes a warning and
 * a fake EOI marker, as from jpeg_mem_src, so that a truncated picture decodes alike from
 * either. Scans listed in `unread` (ccodecs_jpeg_leave_unread) are passed over as if the file
 * did not hold them. */
typedef struct {
    struct jpeg_source_mgr pub; /* first: libjpeg sees only this */
    ccodecs_input input;
    size_t offset;              /* the first byte of the input not yet handed to libjpeg */
    JOCTET *chunk;              /* files only */
    const ccodecs_span *unread; /* in file order */
    size_t unread_count, next_unread;
} ccodecs_jpeg_source;

/* Has `cinfo` read from `input` (which must outlive the decompression) through `src`. Call
 * after jpeg_create_decompress, inside the error jump. */
void ccodecs_jpeg_use_input(j_decompress_ptr cinfo, ccodecs_jpeg_source *src, const ccodecs_input *input);

/* The input offset of the next byte libjpeg will read. */
size_t ccodecs_jpeg_source_position(const ccodecs_jpeg_source *src);

/* Of the scans listed in `spans` (`listed` of them, in file order, at or after the next byte
 * libjpeg reads), keeps those whose component id is marked in `ids` and has the source pass
 * over them: `spans` becomes that list, and must outlive the decompression. Turns libjpeg's
 * block smoothing off, which would guess their coefficients. Whether any was kept. */
int ccodecs_jpeg_leave_unread(j_decompress_ptr cinfo, ccodecs_jpeg_source *src, ccodecs_span *spans, size_t listed,
                              const uint8_t ids[256]);

/* A coefficient array libjpeg was asked for: width blocks by height rows. */
typedef struct {
    jvirt_barray_ptr array;
    JDIMENSION width, height;
    boolean pre_zero;
    int scratch; /* an unused component's: its rows all become one scratch row */
} ccodecs_jpeg_block_array;

/* One decompressor's coefficient arrays (a multi-scan JPEG keeps every block of the picture),
 * seen through the memory-manager methods that libjpeg calls for them. */
typedef struct {
    jvirt_barray_ptr (*request)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*realize)(j_common_ptr);
    ccodecs_jpeg_block_array blocks[MAX_COMPONENTS]; /* in component order, as jdcoefct.c asks */
    int count;
    unsigned unused; /* bit c: component c's coefficients are never looked at */
} ccodecs_jpeg_coefficients;

/* Wraps this decompressor's memory-manager methods so that, once libjpeg has made its
 * coefficient arrays and before they are first written, each array held in one piece is
 * advised onto 2 MB pages, and the rows of a component marked in `unused` all point to one
 * scratch row (its array is never touched and takes no memory). Call before
 * jpeg_start_decompress; `arrays` must outlive the decompression. */
void ccodecs_jpeg_watch_coefficients(j_decompress_ptr cinfo, ccodecs_jpeg_coefficients *arrays, unsigned unused);

/* A libjpeg decompressor and everything it needs across calls, on the heap: what a JPEG reader
 * is built on (jpegdecode.c), and framed's split decoder's second one (CFramedEngines). */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    ccodecs_jpeg_errors errors;
    struct jpeg_progress_mgr progress;
    ccodecs_jpeg_source source;
    ccodecs_jpeg_coefficients arrays;
} ccodecs_jpeg_decompressor;

/* jpeg_create_decompress, the scan cap (ccodecs_jpeg_count_scans) and the source over `input`.
 * Call with d->cinfo.err set (ccodecs_jpeg_errors_init), inside the error jump. */
void ccodecs_jpeg_begin(ccodecs_jpeg_decompressor *d, const ccodecs_input *input);

#endif
