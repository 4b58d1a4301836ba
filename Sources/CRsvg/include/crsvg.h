/* librsvg for framed, loaded when the first SVG picture is met (dlopen), not at start: linking it
 * would load 27 more shared libraries (GLib, Pango, HarfBuzz, libxml2, ICU...) into every run of
 * framed, 9 ms and 8 MB before a byte of a JPEG is read. The functions below wrap the few calls
 * framed makes; Swift never sees a GLib type. */
#ifndef CRSVG_H
#define CRSVG_H

#include <stddef.h>
#include <stdint.h>

/* Message buffers hold this many bytes, the terminating zero included. */
#define CRSVG_MESSAGE_SIZE 256

enum {
    CRSVG_OK = 0,
    CRSVG_ERROR = 1,    /* librsvg refused the document or failed to draw it (message says why) */
    CRSVG_MISSING = 2,  /* librsvg-2.so.2 (2.52 or later) cannot be loaded (message says why) */
};

/* An SVG document parsed by librsvg (an RsvgHandle). */
typedef struct crsvg_document crsvg_document;

/* Loads librsvg once per process (later calls return the first answer): CRSVG_OK or
 * CRSVG_MISSING. Thread-safe. */
int crsvg_library(char *message);

/* Parses `size` bytes (which must start as an SVG, not gzip) into *document with
 * rsvg_handle_new_from_stream_sync: no base file, so librsvg loads no URL but data: ones; and
 * RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA, so a JPEG in a data: URL goes into PDF and SVG as its own
 * bytes. Not RSVG_HANDLE_FLAG_UNLIMITED: libxml2 keeps its limits on depth and entities. The
 * bytes are read during the call only. */
int crsvg_open(const uint8_t *bytes, size_t size, crsvg_document **document, char *message);

/* CSS units as librsvg names them (RsvgUnit). */
enum {
    CRSVG_UNIT_PERCENT = 0, CRSVG_UNIT_PX, CRSVG_UNIT_EM, CRSVG_UNIT_EX, CRSVG_UNIT_IN, CRSVG_UNIT_CM,
    CRSVG_UNIT_MM, CRSVG_UNIT_PT, CRSVG_UNIT_PC,
};

/* What the root <svg> says of its size (rsvg_handle_get_intrinsic_dimensions and
 * rsvg_handle_get_intrinsic_size_in_pixels at 96 dpi). */
typedef struct {
    double width, height;                   /* the width and height properties, in their units */
    int width_unit, height_unit;            /* CRSVG_UNIT_* (percent when absent: SVG 2's auto) */
    int has_viewbox;
    double viewbox_width, viewbox_height;
    int has_pixels;                         /* both in absolute or font units: */
    double pixel_width, pixel_height;       /* then the size in CSS px */
} crsvg_dimensions;

void crsvg_dimensions_of(crsvg_document *document, crsvg_dimensions *dimensions);

/* rsvg_handle_render_document onto `cairo` (a cairo_t *) in the viewport x, y, width, height of
 * its user space. */
int crsvg_render(crsvg_document *document, void *cairo, double x, double y, double width, double height,
                 char *message);

/* Frees the document (g_object_unref); NULL is ignored. */
void crsvg_close(crsvg_document *document);

/* For a child process that runs librsvg for framed (FramedRender's SVGSandbox), before it loads
 * the library: it ends when its parent does (PR_SET_PDEATHSIG; at once if the parent `parent`
 * has gone already), writes no core file, and its private writable memory (RLIMIT_DATA: the
 * heap and anonymous maps, not the libraries' code nor the memory shared with the parent) may
 * grow by at most `data_limit` bytes from what it is now, so that a drawing that would take
 * more fails there. 0, or -1 when
 * a limit could not be set (errno says why). */
int crsvg_sandbox_setup(long parent, unsigned long long data_limit);

#endif
