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

#include <pthread.h>
#include <stddef.h>
#include "ccodecs.h"

/* A function to look up, and where to put it. */
typedef struct {
    const char *name;
    void **slot;
} ccodecs_symbol;

/* A table member for the function `name`: a pointer of the function's own type. */
#define CCODECS_SLOT(name) __typeof__(name) *name;

/* One library's state: opened once, or tried again after the process ran out of memory. */
typedef struct {
    pthread_mutex_t mutex;
    int status; /* -1 until tried; then CCODECS_OK, CCODECS_UNSUPPORTED or CCODECS_NO_MEMORY */
    char message[CCODECS_MESSAGE_SIZE];
} ccodecs_library;

#define CCODECS_LIBRARY_INIT {PTHREAD_MUTEX_INITIALIZER, -1, ""}

/* dlopen(soname, RTLD_NOW | RTLD_LOCAL), then dlsym for each symbol, then `ready` (may be NULL),
 * the first time it is called for `library`; later calls return the same status and message.
 * CCODECS_OK; CCODECS_UNSUPPORTED with "<needs>: <why>" in `message` when the library or one of
 * its functions is missing; CCODECS_NO_MEMORY with "out of memory" when the process had no room
 * to map it, in which case the next call tries again. The library is never closed.
 * Thread-safe: the table is written under the library's mutex, before any caller reads it. */
int ccodecs_open_library(ccodecs_library *library, const char *soname, const char *needs,
                         const ccodecs_symbol *symbols, size_t count, void (*ready)(void), char *message);

#endif
