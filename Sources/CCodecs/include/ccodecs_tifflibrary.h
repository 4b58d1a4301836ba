/* libtiff, opened when the first TIFF is read or written (ccodecs_libraries.h): the functions
 * that tiff.c and tiffencode.c call, through `libtiff`. For C only: not part of the Swift module
 * (module.modulemap). */
#ifndef CCODECS_TIFFLIBRARY_H
#define CCODECS_TIFFLIBRARY_H

#include <tiffio.h>
#include "ccodecs_libraries.h"

#define LIBTIFF_FUNCTIONS(X) \
    X(TIFFOpenOptionsAlloc) \
    X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFClientOpenExt) \
    X(TIFFClose) \
    X(TIFFGetField) \
    X(TIFFGetFieldDefaulted) \
    X(TIFFSetField) \
    X(TIFFIsTiled) \
    X(TIFFReadDirectory) \
    X(TIFFSetDirectory) \
    X(TIFFSetSubDirectory) \
    X(TIFFStripSize) \
    X(TIFFTileSize) \
    X(TIFFComputeStrip) \
    X(TIFFComputeTile) \
    X(TIFFReadEncodedStrip) \
    X(TIFFReadEncodedTile) \
    X(TIFFRGBAImageOK) \
    X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageGet) \
    X(TIFFRGBAImageEnd) \
    X(TIFFWriteScanline) \
    X(TIFFWriteDirectory)

/* The functions, set by ccodecs_libtiff and never changed after. */
extern struct ccodecs_libtiff_functions {
    LIBTIFF_FUNCTIONS(CCODECS_SLOT)
} libtiff;

/* Opens libtiff the first time (thread-safe); CCODECS_OK, or CCODECS_UNSUPPORTED with a message
 * when it is missing. Call it before anything in `libtiff`. */
int ccodecs_libtiff(char *message);

#endif
