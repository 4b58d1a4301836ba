/* What the libraries write on their own (cmessages.h). */
#define _GNU_SOURCE
#include "cmessages.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* GLib's structured log, as its ABI has it (GLib 2.50 and later: gmessages.h). */
typedef struct {
    const char *key;
    const void *value;
    ptrdiff_t length;  /* gssize: -1 for a NUL-terminated string */
} cmessages_GLogField;
enum {
    CMESSAGES_G_LOG_FLAG_FATAL = 1 << 1,
    CMESSAGES_G_LOG_LEVEL_ERROR = 1 << 2,
    CMESSAGES_G_LOG_WRITER_HANDLED = 1,
};
typedef int (*cmessages_writer)(int level, const cmessages_GLogField *fields, size_t count, void *data);

/* Writes all of `text`, retrying short writes. */
static void write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(2, text, length);
        if (n <= 0) return;
        text += n;
        length -= (size_t)n;
    }
}

/* A field's text into `out` (at most `size` bytes with the zero), line breaks and tabs as spaces. */
static void field_text(const cmessages_GLogField *field, char *out, size_t size) {
    size_t n = 0;
    if (field && field->value) {
        const char *text = field->value;
        size_t length = field->length < 0 ? strlen(text) : (size_t)field->length;
        for (size_t i = 0; i < length && n + 1 < size; i++) {
            char c = text[i];
            out[n++] = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
        }
    }
    out[n] = 0;
}

static _Atomic(cmessages_fatal_handler) fatal_handler;

void cmessages_on_fatal(cmessages_fatal_handler handler) { atomic_store(&fatal_handler, handler); }

static int writer(int level, const cmessages_GLogField *fields, size_t count, void *data) {
    (void)data;
    if (!(level & (CMESSAGES_G_LOG_LEVEL_ERROR | CMESSAGES_G_LOG_FLAG_FATAL))) return CMESSAGES_G_LOG_WRITER_HANDLED;
    const cmessages_GLogField *message = NULL, *domain = NULL;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(fields[i].key, "MESSAGE") == 0) message = &fields[i];
        if (strcmp(fields[i].key, "GLIB_DOMAIN") == 0) domain = &fields[i];
    }
    char line[600], text[480], where[64];
    field_text(message, text, sizeof text);
    field_text(domain, where, sizeof where);
    cmessages_fatal_handler handler = atomic_load(&fatal_handler);
    if (handler) handler(where[0] ? where : "GLib", text);
    int n = snprintf(line, sizeof line, "framed: %s: %s\n", where[0] ? where : "GLib", text);
    if (n > 0) write_all(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    return CMESSAGES_G_LOG_WRITER_HANDLED;
}

static pthread_mutex_t glib_lock = PTHREAD_MUTEX_INITIALIZER;
static int glib_routed;

void cmessages_route_glib_log(void *library) {
    /* GLib allows one writer per process, set once: the first caller's library names GLib, and
     * every library framed opens links the same one. */
    pthread_mutex_lock(&glib_lock);
    if (!glib_routed) {
        void (*set_writer)(cmessages_writer, void *, void (*)(void *)) =
            (void (*)(cmessages_writer, void *, void (*)(void *)))dlsym(library, "g_log_set_writer_func");
        if (set_writer) {
            set_writer(writer, NULL, NULL);
            glib_routed = 1;
        }
    }
    pthread_mutex_unlock(&glib_lock);
}

static atomic_int quiet;

static ssize_t stderr_write(void *cookie, const char *buffer, size_t size) {
    (void)cookie;
    if (atomic_load(&quiet) == 0) write_all(buffer, size);
    return (ssize_t)size;
}

void cmessages_quiet_stderr_stream(void) {
    cookie_io_functions_t functions = {NULL, stderr_write, NULL, NULL};
    FILE *stream = fopencookie(NULL, "w", functions);
    if (!stream) return;
    setvbuf(stream, NULL, _IONBF, 0);
    stderr = stream;
}

void cmessages_quiet_begin(void) { atomic_fetch_add(&quiet, 1); }
void cmessages_quiet_end(void) { atomic_fetch_sub(&quiet, 1); }
