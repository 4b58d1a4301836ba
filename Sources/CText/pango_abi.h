/* The few Pango, GLib and Cairo types and constants that ctext uses, declared as their stable
 * ABI has them (Pango 1.46 and later, GLib 2, Cairo 1.x). FramedRenderTests' TextLibraryTests
 * compiles Tests/Fixtures/pango-abi-check.c against the installed headers to hold them to it. */
#ifndef CTEXT_PANGO_ABI_H
#define CTEXT_PANGO_ABI_H

typedef struct ctext_PangoFontMap ctext_PangoFontMap;
typedef struct ctext_PangoContext ctext_PangoContext;
typedef struct ctext_PangoLayout ctext_PangoLayout;
typedef struct ctext_PangoFont ctext_PangoFont;
typedef struct ctext_PangoFontDescription ctext_PangoFontDescription;
typedef struct ctext_cairo_t ctext_cairo_t;
typedef struct ctext_cairo_font_options_t ctext_cairo_font_options_t;
typedef int ctext_gboolean;

typedef struct { int x, y, width, height; } ctext_PangoRectangle;

#define CTEXT_PANGO_SCALE 1024

enum { CTEXT_PANGO_ALIGN_LEFT = 0, CTEXT_PANGO_ALIGN_CENTER = 1, CTEXT_PANGO_ALIGN_RIGHT = 2 };
enum { CTEXT_PANGO_WRAP_WORD_CHAR = 2 };
enum { CTEXT_PANGO_ELLIPSIZE_END = 3 };
enum { CTEXT_PANGO_DIRECTION_LTR = 0, CTEXT_PANGO_DIRECTION_RTL = 1 };
enum { CTEXT_PANGO_VARIANT_NORMAL = 0, CTEXT_PANGO_VARIANT_SMALL_CAPS = 1 };
enum { CTEXT_CAIRO_ANTIALIAS_GRAY = 2, CTEXT_CAIRO_HINT_STYLE_NONE = 1, CTEXT_CAIRO_HINT_METRICS_OFF = 1 };

#endif
