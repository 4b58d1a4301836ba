/* libtiff's function table (ccodecs_tifflibrary.h). */
#include <pthread.h>
#include "ccodecs_common.h"
#include "ccodecs_tifflibrary.h"

struct ccodecs_libtiff_functions libtiff;

/* Set once under pthread_once and never changed after. */
static int loaded;
static char load_message[CCODECS_MESSAGE_SIZE];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#define SYMBOL(name) {#name, (void **)&libtiff.name},
    static const ccodecs_symbol symbols[] = {LIBTIFF_FUNCTIONS(SYMBOL)};
#undef SYMBOL
    loaded = ccodecs_load_library("libtiff.so.6", "TIFF needs libtiff 4.5 or later (Debian: libtiff6)",
                                  symbols, sizeof symbols / sizeof symbols[0], load_message);
}

int ccodecs_libtiff(char *message) {
    pthread_once(&once, load);
    if (loaded != CCODECS_OK) ccodecs_message(message, "%s", load_message);
    return loaded;
}
