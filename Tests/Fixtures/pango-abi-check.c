/* Compiled (never run) by TextLibraryTests against Pango's, GLib's and Cairo's installed headers:
 * the declarations ctext makes by hand (Sources/CText/pango_abi.h, text.c) must match them. */
#include <pango/pangocairo.h>
#include <stddef.h>
#include "ctext.h"
#include "pango_abi.h"

_Static_assert(CTEXT_PANGO_SCALE == PANGO_SCALE, "PANGO_SCALE");
_Static_assert(sizeof(ctext_PangoRectangle) == sizeof(PangoRectangle), "PangoRectangle");
_Static_assert(sizeof(ctext_gboolean) == sizeof(gboolean), "gboolean");
#define SAME_LAYOUT(ours, theirs, field) \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "." #field)
SAME_LAYOUT(ctext_PangoRectangle, PangoRectangle, x);
SAME_LAYOUT(ctext_PangoRectangle, PangoRectangle, y);
SAME_LAYOUT(ctext_PangoRectangle, PangoRectangle, width);
SAME_LAYOUT(ctext_PangoRectangle, PangoRectangle, height);
/* text.c passes and takes these enums as int. */
_Static_assert(sizeof(PangoAlignment) == sizeof(int) && sizeof(PangoWrapMode) == sizeof(int)
               && sizeof(PangoDirection) == sizeof(int) && sizeof(PangoStyle) == sizeof(int)
               && sizeof(PangoVariant) == sizeof(int) && sizeof(PangoWeight) == sizeof(int)
               && sizeof(PangoStretch) == sizeof(int) && sizeof(cairo_antialias_t) == sizeof(int)
               && sizeof(cairo_hint_style_t) == sizeof(int) && sizeof(cairo_hint_metrics_t) == sizeof(int)
               && sizeof(cairo_status_t) == sizeof(int), "enums are ints");
_Static_assert(CTEXT_PANGO_ALIGN_LEFT == PANGO_ALIGN_LEFT && CTEXT_PANGO_ALIGN_CENTER == PANGO_ALIGN_CENTER
               && CTEXT_PANGO_ALIGN_RIGHT == PANGO_ALIGN_RIGHT, "PangoAlignment");
_Static_assert(CTEXT_PANGO_WRAP_WORD_CHAR == PANGO_WRAP_WORD_CHAR, "PangoWrapMode");
_Static_assert(CTEXT_PANGO_ELLIPSIZE_END == PANGO_ELLIPSIZE_END && sizeof(PangoEllipsizeMode) == sizeof(int),
               "PangoEllipsizeMode");
_Static_assert(CTEXT_PANGO_DIRECTION_LTR == PANGO_DIRECTION_LTR && CTEXT_PANGO_DIRECTION_RTL == PANGO_DIRECTION_RTL,
               "PangoDirection");
_Static_assert(CTEXT_PANGO_VARIANT_NORMAL == PANGO_VARIANT_NORMAL && CTEXT_PANGO_VARIANT_SMALL_CAPS == PANGO_VARIANT_SMALL_CAPS,
               "PangoVariant");
_Static_assert(CTEXT_STYLE_NORMAL == PANGO_STYLE_NORMAL && CTEXT_STYLE_OBLIQUE == PANGO_STYLE_OBLIQUE
               && CTEXT_STYLE_ITALIC == PANGO_STYLE_ITALIC, "PangoStyle");
_Static_assert(CTEXT_STRETCH_ULTRA_CONDENSED == PANGO_STRETCH_ULTRA_CONDENSED && CTEXT_STRETCH_NORMAL == PANGO_STRETCH_NORMAL
               && CTEXT_STRETCH_ULTRA_EXPANDED == PANGO_STRETCH_ULTRA_EXPANDED, "PangoStretch");
_Static_assert(CTEXT_CAIRO_ANTIALIAS_GRAY == CAIRO_ANTIALIAS_GRAY && CTEXT_CAIRO_HINT_STYLE_NONE == CAIRO_HINT_STYLE_NONE
               && CTEXT_CAIRO_HINT_METRICS_OFF == CAIRO_HINT_METRICS_OFF, "cairo font options");

/* Each function pointer type text.c declares, assigned from the real function: a mismatch in a
 * parameter or the result is an error (-Werror=incompatible-pointer-types). */
static void check(void) {
    PangoFontMap *(*font_map_default)(void) = pango_cairo_font_map_get_default;
    PangoContext *(*create_context)(PangoFontMap *) = pango_font_map_create_context;
    void (*set_options)(PangoContext *, const cairo_font_options_t *) = pango_cairo_context_set_font_options;
    void (*update)(cairo_t *, PangoContext *) = pango_cairo_update_context;
    PangoLayout *(*layout_new)(PangoContext *) = pango_layout_new;
    void (*set_text)(PangoLayout *, const char *, int) = pango_layout_set_text;
    void (*set_width)(PangoLayout *, int) = pango_layout_set_width;
    void (*set_wrap)(PangoLayout *, PangoWrapMode) = pango_layout_set_wrap;
    void (*set_ellipsize)(PangoLayout *, PangoEllipsizeMode) = pango_layout_set_ellipsize;
    void (*set_single)(PangoLayout *, gboolean) = pango_layout_set_single_paragraph_mode;
    void (*set_alignment)(PangoLayout *, PangoAlignment) = pango_layout_set_alignment;
    void (*set_font)(PangoLayout *, const PangoFontDescription *) = pango_layout_set_font_description;
    void (*set_spacing)(PangoLayout *, float) = pango_layout_set_line_spacing;
    void (*extents)(PangoLayout *, PangoRectangle *, PangoRectangle *) = pango_layout_get_extents;
    int (*line_count)(PangoLayout *) = pango_layout_get_line_count;
    int (*unknown)(PangoLayout *) = pango_layout_get_unknown_glyphs_count;
    PangoLayoutLine *(*get_line)(PangoLayout *, int) = pango_layout_get_line_readonly;
    void (*line_extents)(PangoLayoutLine *, PangoRectangle *, PangoRectangle *) = pango_layout_line_get_extents;
    PangoDirection (*direction)(PangoLayout *, int) = pango_layout_get_direction;
    void (*show)(cairo_t *, PangoLayout *) = pango_cairo_show_layout;
    void (*path)(cairo_t *, PangoLayout *) = pango_cairo_layout_path;
    PangoFontDescription *(*d_new)(void) = pango_font_description_new;
    void (*d_family)(PangoFontDescription *, const char *) = pango_font_description_set_family;
    void (*d_style)(PangoFontDescription *, PangoStyle) = pango_font_description_set_style;
    void (*d_variant)(PangoFontDescription *, PangoVariant) = pango_font_description_set_variant;
    void (*d_weight)(PangoFontDescription *, PangoWeight) = pango_font_description_set_weight;
    void (*d_stretch)(PangoFontDescription *, PangoStretch) = pango_font_description_set_stretch;
    void (*d_size)(PangoFontDescription *, double) = pango_font_description_set_absolute_size;
    const char *(*d_get_family)(const PangoFontDescription *) = pango_font_description_get_family;
    void (*d_free)(PangoFontDescription *) = pango_font_description_free;
    PangoFont *(*load)(PangoFontMap *, PangoContext *, const PangoFontDescription *) = pango_font_map_load_font;
    PangoFontDescription *(*describe)(PangoFont *) = pango_font_describe;
    void (*unref)(gpointer) = g_object_unref;
    cairo_font_options_t *(*o_create)(void) = cairo_font_options_create;
    void (*o_antialias)(cairo_font_options_t *, cairo_antialias_t) = cairo_font_options_set_antialias;
    void (*o_hint_style)(cairo_font_options_t *, cairo_hint_style_t) = cairo_font_options_set_hint_style;
    void (*o_hint_metrics)(cairo_font_options_t *, cairo_hint_metrics_t) = cairo_font_options_set_hint_metrics;
    void (*o_destroy)(cairo_font_options_t *) = cairo_font_options_destroy;
    void (*move_to)(cairo_t *, double, double) = cairo_move_to;
    cairo_status_t (*status)(cairo_t *) = cairo_status;
    (void)font_map_default; (void)create_context; (void)set_options; (void)update; (void)layout_new; (void)set_text;
    (void)set_width; (void)set_wrap; (void)set_ellipsize; (void)set_single; (void)set_alignment; (void)set_font; (void)set_spacing; (void)extents;
    (void)line_count; (void)unknown; (void)get_line; (void)line_extents; (void)direction; (void)show; (void)path; (void)d_new;
    (void)d_family; (void)d_style; (void)d_variant; (void)d_weight; (void)d_stretch; (void)d_size; (void)d_get_family;
    (void)d_free; (void)load; (void)describe; (void)unref; (void)o_create; (void)o_antialias; (void)o_hint_style;
    (void)o_hint_metrics; (void)o_destroy; (void)move_to; (void)status;
}
