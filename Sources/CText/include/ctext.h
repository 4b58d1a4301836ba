/* Text for framed (captions), shaped by Pango and HarfBuzz and drawn through pangocairo, loaded
 * with dlopen when the first text is measured, not at start: linking Pango would load some 27
 * more shared libraries (GLib, HarfBuzz, fontconfig, FriBidi...) into every run of framed. Swift
 * never sees a GLib type: a layout is an opaque pointer that ctext_layout_free releases. */
#ifndef CTEXT_H
#define CTEXT_H

#include <stddef.h>

/* Message buffers hold this many bytes, the terminating zero included. */
#define CTEXT_MESSAGE_SIZE 256

enum {
    CTEXT_OK = 0,
    CTEXT_ERROR = 1,    /* Pango refused the text or the drawing failed (message says why) */
    CTEXT_MISSING = 2,  /* libpangocairo-1.0.so.0 (1.46 or later) cannot be loaded (message says why) */
};

/* A font as CSS describes it, in Pango's terms. */
typedef struct {
    const char *families;   /* comma-separated family names, fontconfig's generic ones allowed */
    int style;              /* CTEXT_STYLE_* */
    int small_caps;         /* 0 or 1 */
    int weight;             /* CSS weight, 1 to 1000 */
    int stretch;            /* CTEXT_STRETCH_* (Pango's PangoStretch) */
    double size;            /* in user-space units: points, as framed draws */
    double line_height;     /* CSS line-height in user-space units (each line's height, the extra
                               split above and below it); 0: the font's own */
} ctext_font;

enum { CTEXT_STYLE_NORMAL = 0, CTEXT_STYLE_OBLIQUE = 1, CTEXT_STYLE_ITALIC = 2 };
enum {
    CTEXT_STRETCH_ULTRA_CONDENSED = 0, CTEXT_STRETCH_EXTRA_CONDENSED, CTEXT_STRETCH_CONDENSED,
    CTEXT_STRETCH_SEMI_CONDENSED, CTEXT_STRETCH_NORMAL, CTEXT_STRETCH_SEMI_EXPANDED, CTEXT_STRETCH_EXPANDED,
    CTEXT_STRETCH_EXTRA_EXPANDED, CTEXT_STRETCH_ULTRA_EXPANDED,
};

/* CSS text-align: left and right are the page's sides; start and end follow the text's
 * direction (the right side for a right-to-left paragraph's start). */
enum { CTEXT_ALIGN_LEFT = 0, CTEXT_ALIGN_CENTER, CTEXT_ALIGN_RIGHT, CTEXT_ALIGN_START, CTEXT_ALIGN_END };

/* Text laid out in lines (a PangoLayout). */
typedef struct ctext_layout ctext_layout;

/* Loads pangocairo once per process (later calls return the first answer): CTEXT_OK or
 * CTEXT_MISSING. Thread-safe. */
int ctext_library(char *message);

/* Lays out `length` bytes of UTF-8 `text` in `font`, wrapped at word boundaries (inside a word
 * when one word is wider) to `width` user-space units, aligned as `align` says. With `cairo` (a
 * cairo_t *) the layout is made for drawing on it; without, for measuring. Both use the same font
 * options (no hinting, no hinted metrics, grey antialiasing), so that lines break in the same
 * places on every surface and at every scale. */
int ctext_layout_new(const char *text, size_t length, const ctext_font *font, double width, int align,
                     void *cairo, ctext_layout **layout, char *message);

/* As ctext_layout_new, but one line (line breaks show as glyphs) ellipsised at its end when it
 * is wider than `width`, with the font options of `cairo`'s surface (hinted on an image): a
 * window's title. */
int ctext_line_new(const char *text, size_t length, const ctext_font *font, double width, int align,
                   void *cairo, ctext_layout **layout, char *message);

/* What a layout measures, in user-space units from its top-left corner. */
typedef struct {
    double width, height;                               /* the logical box: the lines' advance and height */
    double ink_x, ink_y, ink_width, ink_height;         /* where the glyphs put ink */
    int lines;
    int unknown_glyphs;                                 /* characters no installed font has */
    int right_to_left;                                  /* the first paragraph's direction */
} ctext_extents;

void ctext_layout_extents(ctext_layout *layout, ctext_extents *extents);

/* Draws the layout with its top-left corner at x, y of `cairo`'s user space, in the current
 * source colour. */
int ctext_layout_draw(ctext_layout *layout, void *cairo, double x, double y, char *message);

/* Adds the layout's glyph outlines to `cairo`'s current path with its top-left corner at x, y
 * (pango_cairo_layout_path): the same glyphs ctext_layout_draw draws, as a path an SVG writer
 * can copy (cairo_copy_path). */
int ctext_layout_path(ctext_layout *layout, void *cairo, double x, double y, char *message);

/* Frees the layout; NULL is ignored. */
void ctext_layout_free(ctext_layout *layout);

/* The family fontconfig gives for `font` (its first family, or the fallback it picks), into
 * `family` (at most `size` bytes, the zero included). */
int ctext_font_family(const ctext_font *font, char *family, size_t size, char *message);

#endif
