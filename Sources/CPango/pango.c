/* Pango through dlopen (see cpango.h). The few GLib, Pango and Cairo types used are declared in
 * pango_abi.h as their stable ABI has them (Pango 1.44 and later, GLib 2): FramedRenderTests'
 * TitleTextLibraryTests compiles Tests/Fixtures/cpango-abi-check.c against the installed headers to
 * hold them to it. */
#define _GNU_SOURCE
#include "cpango.h"
#include "pango_abi.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

/* The functions taken from the library, set once by load() under pthread_once and never changed
 * after: read-only state shared by every thread. */
static struct {
    int status;
    char message[CPANGO_MESSAGE_SIZE];
    cpango_PangoLayout *(*create_layout)(cpango_cairo_t *cr);
    void (*show_layout)(cpango_cairo_t *cr, cpango_PangoLayout *layout);
    cpango_PangoFontDescription *(*font_new)(void);
    void (*font_set_family)(cpango_PangoFontDescription *font, const char *family);
    void (*font_set_absolute_size)(cpango_PangoFontDescription *font, double size);
    void (*font_free)(cpango_PangoFontDescription *font);
    void (*set_font)(cpango_PangoLayout *layout, const cpango_PangoFontDescription *font);
    void (*set_text)(cpango_PangoLayout *layout, const char *text, int length);
    void (*set_width)(cpango_PangoLayout *layout, int width);
    void (*set_ellipsize)(cpango_PangoLayout *layout, int mode);
    void (*set_alignment)(cpango_PangoLayout *layout, int alignment);
    void (*set_single_paragraph)(cpango_PangoLayout *layout, cpango_gboolean setting);
    void (*get_extents)(cpango_PangoLayout *layout, cpango_PangoRectangle *ink, cpango_PangoRectangle *logical);
    void (*object_unref)(void *object);
    void (*move_to)(cpango_cairo_t *cr, double x, double y);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void note(char *message, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void note(char *message, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, CPANGO_MESSAGE_SIZE, format, args);
    va_end(args);
}

static void load(void) {
    /* Never unloaded: GLib's type system cannot be. RTLD_LOCAL: Pango's symbols (and those of the
     * libraries it brings) stay out of the way of framed's own. */
    void *library = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        api.status = CPANGO_MISSING;
        note(api.message, "text needs Pango 1.44 or later (Debian: libpangocairo-1.0-0): %s", dlerror());
        return;
    }
    /* dlsym on the library's handle also finds the Pango, GLib and Cairo functions it depends on
     * (Cairo's is the libcairo.so.2 framed itself is linked with). */
    struct { const char *name; void **slot; } symbols[] = {
        {"pango_cairo_create_layout", (void **)&api.create_layout},
        {"pango_cairo_show_layout", (void **)&api.show_layout},
        {"pango_font_description_new", (void **)&api.font_new},
        {"pango_font_description_set_family", (void **)&api.font_set_family},
        {"pango_font_description_set_absolute_size", (void **)&api.font_set_absolute_size},
        {"pango_font_description_free", (void **)&api.font_free},
        {"pango_layout_set_font_description", (void **)&api.set_font},
        {"pango_layout_set_text", (void **)&api.set_text},
        {"pango_layout_set_width", (void **)&api.set_width},
        {"pango_layout_set_ellipsize", (void **)&api.set_ellipsize},
        {"pango_layout_set_alignment", (void **)&api.set_alignment},
        {"pango_layout_set_single_paragraph_mode", (void **)&api.set_single_paragraph},
        {"pango_layout_get_extents", (void **)&api.get_extents},
        {"g_object_unref", (void **)&api.object_unref},
        {"cairo_move_to", (void **)&api.move_to},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            api.status = CPANGO_MISSING;
            note(api.message, "text needs Pango 1.44 or later (Debian: libpangocairo-1.0-0): %s is missing",
                 symbols[i].name);
            return;
        }
    }
    api.status = CPANGO_OK;
}

int cpango_library(char *message) {
    pthread_once(&once, load);
    if (api.status != CPANGO_OK && message) note(message, "%s", api.message);
    return api.status;
}

int cpango_show_line(void *cairo, const char *text, size_t length, const char *family, double size,
                     double x, double y, double width, double height, char *message) {
    if (cpango_library(message) != CPANGO_OK) return CPANGO_MISSING;
    if (!(width > 0) || !(size > 0) || length == 0) return CPANGO_OK;
    double scaled_width = width * CPANGO_PANGO_SCALE, scaled_size = size * CPANGO_PANGO_SCALE;
    if (length > INT_MAX || !(scaled_width < INT_MAX) || !(scaled_size < INT_MAX)) {
        note(message, "the text or its box is too large");
        return CPANGO_ERROR;
    }
    cpango_cairo_t *cr = (cpango_cairo_t *)cairo;
    cpango_PangoLayout *layout = api.create_layout(cr);
    if (!layout) {
        note(message, "Pango could not make a layout");
        return CPANGO_ERROR;
    }
    cpango_PangoFontDescription *font = api.font_new();
    if (!font) {
        api.object_unref(layout);
        note(message, "Pango could not make a font description");
        return CPANGO_ERROR;
    }
    api.font_set_family(font, family);
    api.font_set_absolute_size(font, scaled_size);
    api.set_font(layout, font);
    api.font_free(font);
    api.set_single_paragraph(layout, 1);
    api.set_text(layout, text, (int)length);
    api.set_width(layout, (int)floor(scaled_width));
    api.set_ellipsize(layout, CPANGO_PANGO_ELLIPSIZE_END);
    api.set_alignment(layout, CPANGO_PANGO_ALIGN_CENTER);
    cpango_PangoRectangle ink = {0, 0, 0, 0}, logical = {0, 0, 0, 0};
    api.get_extents(layout, &ink, &logical);
    double line = (double)logical.height / CPANGO_PANGO_SCALE, top = (double)logical.y / CPANGO_PANGO_SCALE;
    api.move_to(cr, x, y + (height - line) / 2 - top);
    api.show_layout(cr, layout);
    api.object_unref(layout);
    return CPANGO_OK;
}
