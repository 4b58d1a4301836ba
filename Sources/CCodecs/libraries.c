/* Libraries opened on first use (see ccodecs_libraries.h). */
#include <dlfcn.h>
#include "ccodecs_common.h"
#include "ccodecs_libraries.h"

int ccodecs_load_library(const char *soname, const char *needs, const ccodecs_symbol *symbols, size_t count,
                         char *message) {
    /* RTLD_LOCAL: the library's symbols, and those of the libraries it brings, stay out of the
     * way of framed's own. */
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        ccodecs_message(message, "%s: %s", needs, dlerror());
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
