/* Pango for framed's text (a window's title), loaded with dlopen when the first text is drawn, not
 * at start: linking libpangocairo would load GLib, HarfBuzz, fontconfig and FreeType into every
 * run of framed, most of which draw no text. The functions below wrap the few calls framed makes;
 * Swift never sees a GLib or Pango type. */
#ifndef CPANGO_H
#define CPANGO_H

#include <stddef.h>

/* Message buffers hold this many bytes, the terminating zero included. */
#define CPANGO_MESSAGE_SIZE 256

enum {
    CPANGO_OK = 0,
    CPANGO_ERROR = 1,    /* the text could not be drawn (message says why) */
    CPANGO_MISSING = 2,  /* libpangocairo-1.0.so.0 cannot be loaded (message says why) */
};

/* Loads Pango once per process (later calls return the first answer): CPANGO_OK or
 * CPANGO_MISSING. Thread-safe. */
int cpango_library(char *message);

/* Draws `length` bytes of UTF-8 `text` as one line (a line break shows as a glyph) onto `cairo`
 * (a cairo_t *) with its current source, in the font `family` at `size` user-space units:
 * centred in the box x, y, width, height of user space, vertically by the line's logical
 * extents, shaped and ordered by Pango (bidirectional text included), and ellipsised at its
 * end when wider than the box. Nothing is drawn when the box has no width. */
int cpango_show_line(void *cairo, const char *text, size_t length, const char *family, double size,
                     double x, double y, double width, double height, char *message);

#endif
