/* The GLib, Pango and Cairo types and constants cpango uses, as their ABI has them (for C only;
 * the Swift module sees cpango.h alone). Names are prefixed so that Tests/Fixtures/cpango-abi-check.c
 * can include them beside the real headers and compare. */
#ifndef CPANGO_ABI_H
#define CPANGO_ABI_H

typedef int cpango_gboolean;                                   /* gboolean: gint */
typedef struct { int x, y, width, height; } cpango_PangoRectangle;
typedef struct cpango_PangoLayout cpango_PangoLayout;          /* opaque here */
typedef struct cpango_PangoFontDescription cpango_PangoFontDescription;
typedef struct _cairo cpango_cairo_t;                          /* cairo_t: cairo's own tag */

#define CPANGO_PANGO_SCALE 1024
#define CPANGO_PANGO_ALIGN_CENTER 1                            /* PangoAlignment */
#define CPANGO_PANGO_ELLIPSIZE_END 3                           /* PangoEllipsizeMode */

#endif
