/* Pango through dlopen (see ctext.h). The types and constants used are declared in pango_abi.h
 * as the libraries' stable ABI has them. */
#define _GNU_SOURCE
#include "ctext.h"
#include "pango_abi.h"

#include <dlfcn.h>
#include "cmessages.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The functions taken from the libraries, set by load() under the `loading` mutex (until it loads them all) and never
 * changed after: read-only state shared by every thread. */
static struct {
    int status;
    char message[CTEXT_MESSAGE_SIZE];
    ctext_PangoFontMap *(*font_map_default)(void);
    ctext_PangoContext *(*create_context)(ctext_PangoFontMap *map);
    void (*context_set_font_options)(ctext_PangoContext *context, const ctext_cairo_font_options_t *options);
    void (*update_context)(ctext_cairo_t *cr, ctext_PangoContext *context);
    ctext_PangoLayout *(*layout_new)(ctext_PangoContext *context);
    void (*layout_set_text)(ctext_PangoLayout *layout, const char *text, int length);
    void (*layout_set_width)(ctext_PangoLayout *layout, int width);
    void (*layout_set_wrap)(ctext_PangoLayout *layout, int wrap);
    void (*layout_set_ellipsize)(ctext_PangoLayout *layout, int mode);
    void (*layout_set_single_paragraph)(ctext_PangoLayout *layout, ctext_gboolean setting);
    void (*layout_set_alignment)(ctext_PangoLayout *layout, int alignment);
    void (*layout_set_font)(ctext_PangoLayout *layout, const ctext_PangoFontDescription *description);
    void (*layout_set_line_spacing)(ctext_PangoLayout *layout, float factor);
    void (*layout_get_extents)(ctext_PangoLayout *layout, ctext_PangoRectangle *ink, ctext_PangoRectangle *logical);
    int (*layout_get_line_count)(ctext_PangoLayout *layout);
    int (*layout_get_unknown_glyphs)(ctext_PangoLayout *layout);
    void *(*layout_get_line)(ctext_PangoLayout *layout, int line);
    void (*line_get_extents)(void *line, ctext_PangoRectangle *ink, ctext_PangoRectangle *logical);
    int (*layout_get_direction)(ctext_PangoLayout *layout, int index);
    void (*show_layout)(ctext_cairo_t *cr, ctext_PangoLayout *layout);
    void (*layout_path)(ctext_cairo_t *cr, ctext_PangoLayout *layout);
    ctext_PangoFontDescription *(*description_new)(void);
    void (*description_set_family)(ctext_PangoFontDescription *d, const char *family);
    void (*description_set_style)(ctext_PangoFontDescription *d, int style);
    void (*description_set_variant)(ctext_PangoFontDescription *d, int variant);
    void (*description_set_weight)(ctext_PangoFontDescription *d, int weight);
    void (*description_set_stretch)(ctext_PangoFontDescription *d, int stretch);
    void (*description_set_absolute_size)(ctext_PangoFontDescription *d, double size);
    const char *(*description_get_family)(const ctext_PangoFontDescription *d);
    void (*description_free)(ctext_PangoFontDescription *d);
    ctext_PangoFont *(*load_font)(ctext_PangoFontMap *map, ctext_PangoContext *context,
                                  const ctext_PangoFontDescription *d);
    ctext_PangoFontDescription *(*font_describe)(ctext_PangoFont *font);
    void (*object_unref)(void *object);
    ctext_cairo_font_options_t *(*options_create)(void);
    void (*options_set_antialias)(ctext_cairo_font_options_t *options, int antialias);
    void (*options_set_hint_style)(ctext_cairo_font_options_t *options, int style);
    void (*options_set_hint_metrics)(ctext_cairo_font_options_t *options, int metrics);
    void (*options_destroy)(ctext_cairo_font_options_t *options);
    void (*cairo_move_to)(ctext_cairo_t *cr, double x, double y);
    int (*cairo_status)(ctext_cairo_t *cr);
} api;

/* Guards load(): it runs until it has an answer other than "out of memory". */
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static int answered;

static void note(char *message, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void note(char *message, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, CTEXT_MESSAGE_SIZE, format, args);
    va_end(args);
}

static void load(void) {
    /* Never unloaded: GLib's type system cannot be. RTLD_LOCAL keeps Pango's symbols (and those
     * of the libraries it brings) out of the way of framed's own. */
    void *library = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        if (reason && (strstr(reason, "failed to map segment") || strstr(reason, "Cannot allocate memory"))) {
            /* Short of memory (address space): not missing; tried again at the next call. */
            api.status = CTEXT_ERROR;
            note(api.message, "out of memory");
            return;
        }
        api.status = CTEXT_MISSING;
        note(api.message, "text needs Pango 1.46 or later (Debian: libpangocairo-1.0-0): %s", reason ? reason : "cannot be loaded");
        return;
    }
    cmessages_route_glib_log(library);
    /* dlsym on the library's handle also finds the Pango, GLib and Cairo functions it depends on. */
    struct { const char *name; void **slot; } symbols[] = {
        {"pango_cairo_font_map_get_default", (void **)&api.font_map_default},
        {"pango_font_map_create_context", (void **)&api.create_context},
        {"pango_cairo_context_set_font_options", (void **)&api.context_set_font_options},
        {"pango_cairo_update_context", (void **)&api.update_context},
        {"pango_layout_new", (void **)&api.layout_new},
        {"pango_layout_set_text", (void **)&api.layout_set_text},
        {"pango_layout_set_width", (void **)&api.layout_set_width},
        {"pango_layout_set_wrap", (void **)&api.layout_set_wrap},
        {"pango_layout_set_ellipsize", (void **)&api.layout_set_ellipsize},
        {"pango_layout_set_single_paragraph_mode", (void **)&api.layout_set_single_paragraph},
        {"pango_layout_set_alignment", (void **)&api.layout_set_alignment},
        {"pango_layout_set_font_description", (void **)&api.layout_set_font},
        {"pango_layout_set_line_spacing", (void **)&api.layout_set_line_spacing},
        {"pango_layout_get_extents", (void **)&api.layout_get_extents},
        {"pango_layout_get_line_count", (void **)&api.layout_get_line_count},
        {"pango_layout_get_unknown_glyphs_count", (void **)&api.layout_get_unknown_glyphs},
        {"pango_layout_get_line_readonly", (void **)&api.layout_get_line},
        {"pango_layout_line_get_extents", (void **)&api.line_get_extents},
        {"pango_layout_get_direction", (void **)&api.layout_get_direction},
        {"pango_cairo_show_layout", (void **)&api.show_layout},
        {"pango_cairo_layout_path", (void **)&api.layout_path},
        {"pango_font_description_new", (void **)&api.description_new},
        {"pango_font_description_set_family", (void **)&api.description_set_family},
        {"pango_font_description_set_style", (void **)&api.description_set_style},
        {"pango_font_description_set_variant", (void **)&api.description_set_variant},
        {"pango_font_description_set_weight", (void **)&api.description_set_weight},
        {"pango_font_description_set_stretch", (void **)&api.description_set_stretch},
        {"pango_font_description_set_absolute_size", (void **)&api.description_set_absolute_size},
        {"pango_font_description_get_family", (void **)&api.description_get_family},
        {"pango_font_description_free", (void **)&api.description_free},
        {"pango_font_map_load_font", (void **)&api.load_font},
        {"pango_font_describe", (void **)&api.font_describe},
        {"g_object_unref", (void **)&api.object_unref},
        {"cairo_font_options_create", (void **)&api.options_create},
        {"cairo_font_options_set_antialias", (void **)&api.options_set_antialias},
        {"cairo_font_options_set_hint_style", (void **)&api.options_set_hint_style},
        {"cairo_font_options_set_hint_metrics", (void **)&api.options_set_hint_metrics},
        {"cairo_font_options_destroy", (void **)&api.options_destroy},
        {"cairo_move_to", (void **)&api.cairo_move_to},
        {"cairo_status", (void **)&api.cairo_status},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            api.status = CTEXT_MISSING;
            note(api.message, "text needs Pango 1.46 or later (Debian: libpangocairo-1.0-0): %s is missing",
                 symbols[i].name);
            return;
        }
    }
    api.status = CTEXT_OK;
}

int ctext_library(char *message) {
    pthread_mutex_lock(&loading);
    if (!answered) {
        cmessages_quiet_begin();
        load();
        cmessages_quiet_end();
        answered = api.status != CTEXT_ERROR;
    }
    int status = api.status;
    if (status != CTEXT_OK && message) note(message, "%s", api.message);
    pthread_mutex_unlock(&loading);
    return status;
}

struct ctext_layout {
    ctext_PangoContext *context;
    ctext_PangoLayout *layout;
    int right_to_left;
    double leading;  /* CSS's line height less the first line's own, in user-space units */
};

/* A font description for `font`; NULL when out of memory. */
static ctext_PangoFontDescription *describe(const ctext_font *font) {
    ctext_PangoFontDescription *d = api.description_new();
    if (!d) return NULL;
    api.description_set_family(d, font->families);
    api.description_set_style(d, font->style);
    api.description_set_variant(d, font->small_caps ? CTEXT_PANGO_VARIANT_SMALL_CAPS : CTEXT_PANGO_VARIANT_NORMAL);
    api.description_set_weight(d, font->weight);
    api.description_set_stretch(d, font->stretch);
    api.description_set_absolute_size(d, font->size * CTEXT_PANGO_SCALE);
    return d;
}

/* A context of this thread's font map (Pango's default font map is one per thread), with
 * framed's font options when `unhinted`, else the surface's own (a one-line title, hinted as
 * a window's title is, crisp at 1x). */
static ctext_PangoContext *new_context(int unhinted) {
    ctext_PangoContext *context = api.create_context(api.font_map_default());
    if (!context || !unhinted) return context;
    ctext_cairo_font_options_t *options = api.options_create();
    api.options_set_antialias(options, CTEXT_CAIRO_ANTIALIAS_GRAY);
    api.options_set_hint_style(options, CTEXT_CAIRO_HINT_STYLE_NONE);
    api.options_set_hint_metrics(options, CTEXT_CAIRO_HINT_METRICS_OFF);
    api.context_set_font_options(context, options);  /* copied */
    api.options_destroy(options);
    return context;
}

/* ctext_layout_new and ctext_line_new: wrapped lines, or one line ellipsised at its end. */
static int make_layout(const char *text, size_t length, const ctext_font *font, double width, int align,
                       void *cairo, int one_line, ctext_layout **out, char *message) {
    *out = NULL;
    if (ctext_library(message) != CTEXT_OK) return CTEXT_MISSING;
    if (length > 1u << 20) { note(message, "the text is too long"); return CTEXT_ERROR; }
    /* Pango validates the text as UTF-8 up to a NUL and complains on stderr about the rest. */
    if (memchr(text, 0, length)) { note(message, "the text holds a NUL character"); return CTEXT_ERROR; }
    if (!(font->size > 0 && font->size < 1e5) || !(width < 1e6)) {
        note(message, "the text's size is out of range");
        return CTEXT_ERROR;
    }
    ctext_layout *result = calloc(1, sizeof *result);
    if (!result) { note(message, "out of memory"); return CTEXT_ERROR; }
    result->context = new_context(!one_line);
    if (!result->context) { free(result); note(message, "out of memory"); return CTEXT_ERROR; }
    if (cairo) api.update_context((ctext_cairo_t *)cairo, result->context);
    result->layout = api.layout_new(result->context);
    ctext_PangoFontDescription *d = describe(font);
    if (!result->layout || !d) {
        if (d) api.description_free(d);
        ctext_layout_free(result);
        note(message, "out of memory");
        return CTEXT_ERROR;
    }
    api.layout_set_font(result->layout, d);  /* copied */
    api.description_free(d);
    if (one_line) api.layout_set_single_paragraph(result->layout, 1);
    api.layout_set_text(result->layout, text, (int)length);
    if (width > 0) {
        api.layout_set_width(result->layout, (int)(width * CTEXT_PANGO_SCALE));
        if (one_line) api.layout_set_ellipsize(result->layout, CTEXT_PANGO_ELLIPSIZE_END);
        else api.layout_set_wrap(result->layout, CTEXT_PANGO_WRAP_WORD_CHAR);
    }
    /* Pango's layouts find each paragraph's direction (auto_dir) and then swap left and right
     * for a right-to-left one: its LEFT is CSS's start. CSS's left and right are the page's. */
    result->right_to_left = api.layout_get_direction(result->layout, 0) == CTEXT_PANGO_DIRECTION_RTL;
    int alignment;
    switch (align) {
    case CTEXT_ALIGN_START: alignment = CTEXT_PANGO_ALIGN_LEFT; break;
    case CTEXT_ALIGN_END: alignment = CTEXT_PANGO_ALIGN_RIGHT; break;
    case CTEXT_ALIGN_LEFT: alignment = result->right_to_left ? CTEXT_PANGO_ALIGN_RIGHT : CTEXT_PANGO_ALIGN_LEFT; break;
    case CTEXT_ALIGN_RIGHT: alignment = result->right_to_left ? CTEXT_PANGO_ALIGN_LEFT : CTEXT_PANGO_ALIGN_RIGHT; break;
    default: alignment = CTEXT_PANGO_ALIGN_CENTER; break;
    }
    api.layout_set_alignment(result->layout, alignment);
    if (font->line_height > 0) {
        /* Pango spaces baselines by a factor of each line's own height: the factor that makes
         * the first line's height the distance asked for. */
        void *line = api.layout_get_line(result->layout, 0);
        ctext_PangoRectangle ink, logical = {0, 0, 0, 0};
        if (line) api.line_get_extents(line, &ink, &logical);
        if (logical.height > 0) {
            api.layout_set_line_spacing(result->layout,
                                        (float)(font->line_height * CTEXT_PANGO_SCALE / logical.height));
            /* CSS gives each line the line height, half the extra above it and half below:
             * Pango's spacing gives the lines after the first theirs; the first gets it here. */
            result->leading = font->line_height - (double)logical.height / CTEXT_PANGO_SCALE;
        }
    }
    *out = result;
    return CTEXT_OK;
}

/* make_layout in a quiet section: fontconfig, loaded by Pango's first font, writes to stderr. */
static int new_layout(const char *text, size_t length, const ctext_font *font, double width, int align,
                      void *cairo, int one_line, ctext_layout **out, char *message) {
    cmessages_quiet_begin();
    int status = make_layout(text, length, font, width, align, cairo, one_line, out, message);
    cmessages_quiet_end();
    return status;
}

int ctext_layout_new(const char *text, size_t length, const ctext_font *font, double width, int align,
                     void *cairo, ctext_layout **out, char *message) {
    return new_layout(text, length, font, width, align, cairo, 0, out, message);
}

int ctext_line_new(const char *text, size_t length, const ctext_font *font, double width, int align,
                   void *cairo, ctext_layout **out, char *message) {
    return new_layout(text, length, font, width, align, cairo, 1, out, message);
}

void ctext_layout_extents(ctext_layout *layout, ctext_extents *out) {
    ctext_PangoRectangle ink = {0, 0, 0, 0}, logical = {0, 0, 0, 0};
    api.layout_get_extents(layout->layout, &ink, &logical);
    memset(out, 0, sizeof *out);
    const double k = 1.0 / CTEXT_PANGO_SCALE;
    out->width = logical.width * k;
    out->height = logical.height * k + layout->leading;
    out->ink_x = ink.x * k;
    out->ink_y = ink.y * k + layout->leading / 2;
    out->ink_width = ink.width * k;
    out->ink_height = ink.height * k;
    out->lines = api.layout_get_line_count(layout->layout);
    out->unknown_glyphs = api.layout_get_unknown_glyphs(layout->layout);
    out->right_to_left = layout->right_to_left;
}

int ctext_layout_draw(ctext_layout *layout, void *cairo, double x, double y, char *message) {
    ctext_cairo_t *cr = (ctext_cairo_t *)cairo;
    api.update_context(cr, layout->context);
    api.cairo_move_to(cr, x, y + layout->leading / 2);
    cmessages_quiet_begin();
    api.show_layout(cr, layout->layout);
    cmessages_quiet_end();
    if (api.cairo_status(cr) != 0) { note(message, "Cairo could not draw the text"); return CTEXT_ERROR; }
    return CTEXT_OK;
}

int ctext_layout_path(ctext_layout *layout, void *cairo, double x, double y, char *message) {
    ctext_cairo_t *cr = (ctext_cairo_t *)cairo;
    api.update_context(cr, layout->context);
    api.cairo_move_to(cr, x, y + layout->leading / 2);
    api.layout_path(cr, layout->layout);
    if (api.cairo_status(cr) != 0) { note(message, "Cairo could not outline the text"); return CTEXT_ERROR; }
    return CTEXT_OK;
}

void ctext_layout_free(ctext_layout *layout) {
    if (!layout) return;
    if (layout->layout) api.object_unref(layout->layout);
    if (layout->context) api.object_unref(layout->context);
    free(layout);
}

int ctext_font_family(const ctext_font *font, char *family, size_t size, char *message) {
    if (size > 0) family[0] = 0;
    if (ctext_library(message) != CTEXT_OK) return CTEXT_MISSING;
    ctext_PangoContext *context = new_context(1);
    ctext_PangoFontDescription *d = context ? describe(font) : NULL;
    if (!d) {
        if (context) api.object_unref(context);
        note(message, "out of memory");
        return CTEXT_ERROR;
    }
    cmessages_quiet_begin();
    ctext_PangoFont *loaded = api.load_font(api.font_map_default(), context, d);
    cmessages_quiet_end();
    api.description_free(d);
    api.object_unref(context);
    if (!loaded) { note(message, "no font can be loaded (is fontconfig set up?)"); return CTEXT_ERROR; }
    ctext_PangoFontDescription *chosen = api.font_describe(loaded);
    api.object_unref(loaded);
    const char *name = chosen ? api.description_get_family(chosen) : NULL;
    if (size > 0) snprintf(family, size, "%s", name ? name : "");
    if (chosen) api.description_free(chosen);
    return CTEXT_OK;
}
