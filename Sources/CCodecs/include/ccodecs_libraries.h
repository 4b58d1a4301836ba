/* Codec libraries that only some pictures need (libheif, libtiff), opened with dlopen when the
 * first such picture comes instead of being linked: a run that reads no HEIC or TIFF maps none
 * of them (libheif alone brings four video codecs and about 2 MB of resident pages), and a
 * machine without them still frames every other format. For C only: not part of the Swift
 * module (module.modulemap).
 *
 * Each wrapper lists the functions it calls once, as an X-macro, and makes from that list a
 * table of pointers typed from the library's own header (so a call through the table is checked
 * as a direct call would be) and the names to look up. */
#ifndef CCODECS_LIBRARIES_H
#define CCODECS_LIBRARIES_H

#include <stddef.h>

/* A function to look up, and where to put it. */
typedef struct {
    const char *name;
    void **slot;
} ccodecs_symbol;

/* A table member for the function `name`: a pointer of the function's own type. */
#define CCODECS_SLOT(name) __typeof__(name) *name;

/* dlopen(soname, RTLD_NOW | RTLD_LOCAL), then dlsym for each symbol. CCODECS_OK, or
 * CCODECS_UNSUPPORTED with "<needs>: <why>" in `message` when the library or one of the
 * functions is missing. The library is never closed. Not thread-safe: call it under
 * pthread_once. */
int ccodecs_load_library(const char *soname, const char *needs, const ccodecs_symbol *symbols, size_t count,
                         char *message);

#endif
