/* Libraries opened on first use (see ccodecs_libraries.h). */
#include <dlfcn.h>
#include <string.h>
#include "ccodecs_common.h"
#include "ccodecs_libraries.h"

/* dlerror()'s text when mmap failed for want of address space or memory: glibc's loader gives no
 * errno, only these words. */
static int out_of_memory(const char *why) {
    return why && (strstr(why, "failed to map segment") || strstr(why, "Cannot allocate memory")
                   || strstr(why, "cannot allocate"));
}

static int load(const char *soname, const char *needs, const ccodecs_symbol *symbols, size_t count, char *message) {
    /* RTLD_LOCAL: the library's symbols, and those of the libraries it brings, stay out of the
     * way of framed's own. */
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        if (out_of_memory(why)) {
            ccodecs_message(message, "out of memory (opening %s)", soname);
            return CCODECS_NO_MEMORY;
        }
        ccodecs_message(message, "%s: %s", needs, why ? why : "cannot be opened");
        return CCODECS_UNSUPPORTED;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            ccodecs_message(message, "%s: %s has no %s", needs, soname, symbols[i].name);
            return CCODECS_UNSUPPORTED;
        }
    }
    return CCODECS_OK;
}

int ccodecs_open_library(ccodecs_library *library, const char *soname, const char *needs,
                         const ccodecs_symbol *symbols, size_t count, void (*ready)(void), char *message) {
    pthread_mutex_lock(&library->mutex);
    if (library->status == -1 || library->status == CCODECS_NO_MEMORY) {
        library->message[0] = 0;
        library->status = load(soname, needs, symbols, count, library->message);
        if (library->status == CCODECS_OK && ready) ready();
    }
    int status = library->status;
    if (status != CCODECS_OK) ccodecs_message(message, "%s", library->message);
    pthread_mutex_unlock(&library->mutex);
    return status;
}
