/* libtiff's function table (ccodecs_tifflibrary.h). */
#include "ccodecs_common.h"
#include "ccodecs_tifflibrary.h"

struct ccodecs_libtiff_functions libtiff;

static ccodecs_library opened = CCODECS_LIBRARY_INIT;

int ccodecs_libtiff(char *message) {
#define SYMBOL(name) {#name, (void **)&libtiff.name},
    static const ccodecs_symbol symbols[] = {LIBTIFF_FUNCTIONS(SYMBOL)};
#undef SYMBOL
    return ccodecs_open_library(&opened, "libtiff.so.6", "TIFF needs libtiff 4.5 or later (Debian: libtiff6)",
                                symbols, sizeof symbols / sizeof symbols[0], NULL, message);
}
