/* The GLib and librsvg types crsvg uses, as their ABI has them (for C only; the Swift module sees
 * crsvg.h alone). Names are prefixed so that Tests/Fixtures/rsvg-abi-check.c can include them beside the real
 * headers and compare. */
#ifndef CRSVG_ABI_H
#define CRSVG_ABI_H

#include <stdint.h>

typedef int crsvg_gboolean;                              /* gboolean: gint */
typedef struct {                                         /* GError */
    uint32_t domain;                                     /* GQuark */
    int code;
    char *message;
} crsvg_GError;
typedef struct crsvg_GInputStream crsvg_GInputStream;    /* GInputStream, opaque here */
typedef struct crsvg_RsvgHandle crsvg_RsvgHandle;        /* RsvgHandle, opaque here */
typedef struct _cairo crsvg_cairo_t;                     /* cairo_t: cairo's own tag */
typedef struct { double x, y, width, height; } crsvg_RsvgRectangle;
typedef struct { double length; int unit; } crsvg_RsvgLength;   /* RsvgUnit: an enum, int-sized */

#define CRSVG_RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA (1 << 1)

#endif
