/* Not built with framed: TitleTextLibraryTests compiles this file (next to Sources/CPango) with the installed Pango headers
 * (pkg-config pangocairo) to check that pango_abi.h and cpango.h declare what they say. */
#include <pango/pangocairo.h>
#include <stddef.h>
#include "cpango.h"
#include "pango_abi.h"

#define SAME_LAYOUT(ours, theirs, field) \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "." #field)
_Static_assert(sizeof(cpango_gboolean) == sizeof(gboolean), "gboolean");
_Static_assert(sizeof(cpango_PangoRectangle) == sizeof(PangoRectangle), "PangoRectangle");
SAME_LAYOUT(cpango_PangoRectangle, PangoRectangle, x);
SAME_LAYOUT(cpango_PangoRectangle, PangoRectangle, y);
SAME_LAYOUT(cpango_PangoRectangle, PangoRectangle, width);
SAME_LAYOUT(cpango_PangoRectangle, PangoRectangle, height);
_Static_assert(CPANGO_PANGO_SCALE == PANGO_SCALE, "PANGO_SCALE");
_Static_assert(CPANGO_PANGO_ALIGN_CENTER == (int)PANGO_ALIGN_CENTER, "PANGO_ALIGN_CENTER");
_Static_assert(CPANGO_PANGO_ELLIPSIZE_END == (int)PANGO_ELLIPSIZE_END, "PANGO_ELLIPSIZE_END");
_Static_assert(sizeof(PangoAlignment) == sizeof(int) && sizeof(PangoEllipsizeMode) == sizeof(int), "enum sizes");

/* The signatures the function pointers in pango.c are declared with, in the real types. */
#define SAME_TYPE(function, type) _Static_assert(__builtin_types_compatible_p(__typeof__(&function), type), #function)
SAME_TYPE(pango_cairo_create_layout, PangoLayout *(*)(cairo_t *));
SAME_TYPE(pango_cairo_show_layout, void (*)(cairo_t *, PangoLayout *));
SAME_TYPE(pango_font_description_new, PangoFontDescription *(*)(void));
SAME_TYPE(pango_font_description_set_family, void (*)(PangoFontDescription *, const char *));
SAME_TYPE(pango_font_description_set_absolute_size, void (*)(PangoFontDescription *, double));
SAME_TYPE(pango_font_description_free, void (*)(PangoFontDescription *));
SAME_TYPE(pango_layout_set_font_description, void (*)(PangoLayout *, const PangoFontDescription *));
SAME_TYPE(pango_layout_set_text, void (*)(PangoLayout *, const char *, int));
SAME_TYPE(pango_layout_set_width, void (*)(PangoLayout *, int));
SAME_TYPE(pango_layout_set_ellipsize, void (*)(PangoLayout *, PangoEllipsizeMode));
SAME_TYPE(pango_layout_set_alignment, void (*)(PangoLayout *, PangoAlignment));
SAME_TYPE(pango_layout_set_single_paragraph_mode, void (*)(PangoLayout *, gboolean));
SAME_TYPE(pango_layout_get_extents, void (*)(PangoLayout *, PangoRectangle *, PangoRectangle *));
SAME_TYPE(g_object_unref, void (*)(gpointer));
SAME_TYPE(cairo_move_to, void (*)(cairo_t *, double, double));

int main(void) { return 0; }
