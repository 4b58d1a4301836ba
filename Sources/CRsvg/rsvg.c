/* librsvg through dlopen (see crsvg.h). The few GLib and librsvg types used are declared here as
 * their stable ABI has them (librsvg 2.52 and later, GLib 2): FramedRenderTests'
 * SVGLibraryTests compiles Tests/Fixtures/rsvg-abi-check.c against the installed headers to hold them to it. */
#define _GNU_SOURCE
#include "crsvg.h"
#include "rsvg_abi.h"

#include <dlfcn.h>
#include "cmessages.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* The functions taken from the library, set by load() under the `loading` mutex (until it loads them all) and never
 * changed after: read-only state shared by every thread. */
static struct {
    int status;
    char message[CRSVG_MESSAGE_SIZE];
    crsvg_GInputStream *(*memory_stream)(const void *data, ptrdiff_t size, void (*destroy)(void *));
    crsvg_RsvgHandle *(*new_from_stream)(crsvg_GInputStream *stream, void *base_file, int flags,
                                         void *cancellable, crsvg_GError **error);
    void (*set_dpi)(crsvg_RsvgHandle *handle, double dpi);
    void (*intrinsic_dimensions)(crsvg_RsvgHandle *handle, crsvg_gboolean *has_width, crsvg_RsvgLength *width,
                                 crsvg_gboolean *has_height, crsvg_RsvgLength *height,
                                 crsvg_gboolean *has_viewbox, crsvg_RsvgRectangle *viewbox);
    crsvg_gboolean (*intrinsic_pixels)(crsvg_RsvgHandle *handle, double *width, double *height);
    crsvg_gboolean (*render_document)(crsvg_RsvgHandle *handle, crsvg_cairo_t *cr,
                                      const crsvg_RsvgRectangle *viewport, crsvg_GError **error);
    void (*object_unref)(void *object);
    void (*error_free)(crsvg_GError *error);
} api;

/* Guards load(): it runs until it has an answer other than "out of memory". */
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static int answered;

static void note(char *message, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void note(char *message, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, CRSVG_MESSAGE_SIZE, format, args);
    va_end(args);
}

static void load(void) {
    /* Never unloaded: GLib's type system cannot be. RTLD_LOCAL: librsvg's symbols (and those of
     * the libraries it brings) stay out of the way of framed's own. */
    void *library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        if (reason && (strstr(reason, "failed to map segment") || strstr(reason, "Cannot allocate memory"))) {
            /* Short of memory (address space): not missing; tried again at the next call. */
            api.status = CRSVG_ERROR;
            note(api.message, "out of memory");
            return;
        }
        api.status = CRSVG_MISSING;
        note(api.message, "SVG pictures need librsvg 2.52 or later (Debian: librsvg2-2): %s", reason ? reason : "cannot be loaded");
        return;
    }
    cmessages_route_glib_log(library);
    /* dlsym on the library's handle also finds the GLib and GIO functions it depends on. */
    struct { const char *name; void **slot; } symbols[] = {
        {"g_memory_input_stream_new_from_data", (void **)&api.memory_stream},
        {"rsvg_handle_new_from_stream_sync", (void **)&api.new_from_stream},
        {"rsvg_handle_set_dpi", (void **)&api.set_dpi},
        {"rsvg_handle_get_intrinsic_dimensions", (void **)&api.intrinsic_dimensions},
        {"rsvg_handle_get_intrinsic_size_in_pixels", (void **)&api.intrinsic_pixels},
        {"rsvg_handle_render_document", (void **)&api.render_document},
        {"g_object_unref", (void **)&api.object_unref},
        {"g_error_free", (void **)&api.error_free},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            api.status = CRSVG_MISSING;
            note(api.message, "SVG pictures need librsvg 2.52 or later (Debian: librsvg2-2): %s is missing",
                 symbols[i].name);
            return;
        }
    }
    api.status = CRSVG_OK;
}

int crsvg_library(char *message) {
    pthread_mutex_lock(&loading);
    if (!answered) {
        cmessages_quiet_begin();
        load();
        cmessages_quiet_end();
        answered = api.status != CRSVG_ERROR;
    }
    int status = api.status;
    if (status != CRSVG_OK && message) note(message, "%s", api.message);
    pthread_mutex_unlock(&loading);
    return status;
}

/* The GError's message into `message`, and the error freed. */
static int failed(crsvg_GError *error, const char *fallback, char *message) {
    const char *text = error && error->message ? error->message : fallback;
    /* librsvg's messages can span lines; framed's errors are one line. */
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < CRSVG_MESSAGE_SIZE; c++) {
        message[n++] = (*c == '\n' || *c == '\r' || *c == '\t') ? ' ' : *c;
    }
    while (n > 0 && message[n - 1] == ' ') n--;
    message[n] = 0;
    if (error) api.error_free(error);
    return CRSVG_ERROR;
}

int crsvg_open(const uint8_t *bytes, size_t size, crsvg_document **document, char *message) {
    *document = NULL;
    if (crsvg_library(message) != CRSVG_OK) return CRSVG_MISSING;
    if (size > (size_t)PTRDIFF_MAX) return failed(NULL, "too large", message);
    /* The stream reads the caller's bytes in place (no destroy function: they are not ours). */
    crsvg_GInputStream *stream = api.memory_stream(bytes, (ptrdiff_t)size, NULL);
    if (!stream) return failed(NULL, "out of memory", message);
    crsvg_GError *error = NULL;
    cmessages_quiet_begin();
    crsvg_RsvgHandle *handle = api.new_from_stream(stream, NULL, CRSVG_RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA, NULL, &error);
    cmessages_quiet_end();
    api.object_unref(stream);
    if (!handle) return failed(error, "cannot read the SVG", message);
    if (error) api.error_free(error);
    api.set_dpi(handle, 96);
    *document = (crsvg_document *)handle;
    return CRSVG_OK;
}

void crsvg_dimensions_of(crsvg_document *document, crsvg_dimensions *out) {
    crsvg_RsvgHandle *handle = (crsvg_RsvgHandle *)document;
    crsvg_gboolean has_width = 0, has_height = 0, has_viewbox = 0;
    crsvg_RsvgLength width = {0, 0}, height = {0, 0};
    crsvg_RsvgRectangle viewbox = {0, 0, 0, 0};
    api.intrinsic_dimensions(handle, &has_width, &width, &has_height, &height, &has_viewbox, &viewbox);
    memset(out, 0, sizeof *out);
    /* Since 2.54 a missing width or height is reported as SVG 2's initial value, 100%. */
    out->width = has_width ? width.length : 1;
    out->width_unit = has_width ? width.unit : CRSVG_UNIT_PERCENT;
    out->height = has_height ? height.length : 1;
    out->height_unit = has_height ? height.unit : CRSVG_UNIT_PERCENT;
    out->has_viewbox = has_viewbox != 0;
    out->viewbox_width = has_viewbox ? viewbox.width : 0;
    out->viewbox_height = has_viewbox ? viewbox.height : 0;
    double w = 0, h = 0;
    out->has_pixels = api.intrinsic_pixels(handle, &w, &h) != 0;
    out->pixel_width = out->has_pixels ? w : 0;
    out->pixel_height = out->has_pixels ? h : 0;
}

int crsvg_render(crsvg_document *document, void *cairo, double x, double y, double width, double height,
                 char *message) {
    crsvg_RsvgRectangle viewport = {x, y, width, height};
    crsvg_GError *error = NULL;
    cmessages_quiet_begin();
    int drawn = api.render_document((crsvg_RsvgHandle *)document, (crsvg_cairo_t *)cairo, &viewport, &error);
    cmessages_quiet_end();
    if (!drawn) return failed(error, "cannot draw the SVG", message);
    if (error) api.error_free(error);
    return CRSVG_OK;
}

void crsvg_close(crsvg_document *document) {
    if (document) api.object_unref(document);
}

/* The private writable memory the process has mapped already (VmData in /proc/self/status), in
 * bytes; 0 when unknown. A sanitizer's shadow memory is terabytes of it. */
static unsigned long long data_in_use(void) {
    FILE *status = fopen("/proc/self/status", "re");
    if (!status) return 0;
    char line[256];
    unsigned long long kilobytes = 0;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmData:", 7) == 0) {
            kilobytes = strtoull(line + 7, NULL, 10);
            break;
        }
    }
    fclose(status);
    return kilobytes * 1024;
}

int crsvg_sandbox_setup(long parent, unsigned long long data_limit) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    if ((long)getppid() != parent) raise(SIGKILL);
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    struct rlimit data;
    if (getrlimit(RLIMIT_DATA, &data) != 0) return -1;
    /* What the process holds already, and the limit on top of it. */
    unsigned long long held = data_in_use();
    rlim_t wanted = held > ~0ULL - data_limit ? RLIM_INFINITY : (rlim_t)(held + data_limit);
    if (data.rlim_max != RLIM_INFINITY && wanted > data.rlim_max) wanted = data.rlim_max;
    if (data.rlim_cur == RLIM_INFINITY || wanted < data.rlim_cur) {
        data.rlim_cur = wanted;
        if (setrlimit(RLIMIT_DATA, &data) != 0) return -1;
    }
    return 0;
}
