/* Not built with framed: SVGLibraryTests compiles this file (next to Sources/CRsvg) with the installed librsvg headers
 * (pkg-config librsvg-2.0) to check that rsvg_abi.h and crsvg.h declare what they say. */
#include <librsvg/rsvg.h>
#include <stddef.h>
#include "crsvg.h"
#include "rsvg_abi.h"

#define SAME_LAYOUT(ours, theirs, field) \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "." #field)
_Static_assert(sizeof(crsvg_gboolean) == sizeof(gboolean), "gboolean");
_Static_assert(sizeof(crsvg_GError) == sizeof(GError), "GError");
SAME_LAYOUT(crsvg_GError, GError, domain);
SAME_LAYOUT(crsvg_GError, GError, code);
SAME_LAYOUT(crsvg_GError, GError, message);
_Static_assert(sizeof(crsvg_RsvgRectangle) == sizeof(RsvgRectangle), "RsvgRectangle");
SAME_LAYOUT(crsvg_RsvgRectangle, RsvgRectangle, x);
SAME_LAYOUT(crsvg_RsvgRectangle, RsvgRectangle, y);
SAME_LAYOUT(crsvg_RsvgRectangle, RsvgRectangle, width);
SAME_LAYOUT(crsvg_RsvgRectangle, RsvgRectangle, height);
_Static_assert(sizeof(crsvg_RsvgLength) == sizeof(RsvgLength), "RsvgLength");
SAME_LAYOUT(crsvg_RsvgLength, RsvgLength, length);
SAME_LAYOUT(crsvg_RsvgLength, RsvgLength, unit);
_Static_assert(CRSVG_RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA == RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA, "flag");
#define SAME_UNIT(ours, theirs) _Static_assert((int)(ours) == (int)(theirs), #ours)
SAME_UNIT(CRSVG_UNIT_PERCENT, RSVG_UNIT_PERCENT);
SAME_UNIT(CRSVG_UNIT_PX, RSVG_UNIT_PX);
SAME_UNIT(CRSVG_UNIT_EM, RSVG_UNIT_EM);
SAME_UNIT(CRSVG_UNIT_EX, RSVG_UNIT_EX);
SAME_UNIT(CRSVG_UNIT_IN, RSVG_UNIT_IN);
SAME_UNIT(CRSVG_UNIT_CM, RSVG_UNIT_CM);
SAME_UNIT(CRSVG_UNIT_MM, RSVG_UNIT_MM);
SAME_UNIT(CRSVG_UNIT_PT, RSVG_UNIT_PT);
SAME_UNIT(CRSVG_UNIT_PC, RSVG_UNIT_PC);

/* The signatures the function pointers in rsvg.c are declared with, in the real types. */
#define SAME_TYPE(function, type) _Static_assert(__builtin_types_compatible_p(__typeof__(&function), type), #function)
SAME_TYPE(g_memory_input_stream_new_from_data, GInputStream *(*)(const void *, gssize, GDestroyNotify));
SAME_TYPE(rsvg_handle_new_from_stream_sync,
          RsvgHandle *(*)(GInputStream *, GFile *, RsvgHandleFlags, GCancellable *, GError **));
SAME_TYPE(rsvg_handle_set_dpi, void (*)(RsvgHandle *, double));
SAME_TYPE(rsvg_handle_get_intrinsic_dimensions,
          void (*)(RsvgHandle *, gboolean *, RsvgLength *, gboolean *, RsvgLength *, gboolean *, RsvgRectangle *));
SAME_TYPE(rsvg_handle_get_intrinsic_size_in_pixels, gboolean (*)(RsvgHandle *, gdouble *, gdouble *));
SAME_TYPE(rsvg_handle_render_document, gboolean (*)(RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **));
SAME_TYPE(g_object_unref, void (*)(gpointer));
SAME_TYPE(g_error_free, void (*)(GError *));
_Static_assert(sizeof(gssize) == sizeof(ptrdiff_t) && sizeof(RsvgHandleFlags) == sizeof(int), "sizes");

int main(void) { return 0; }
