/* Libraries' complaints kept for framed's one-line messages instead of printed: lcms2's and
 * libtiff's error handlers, shared by the files that open those libraries. For C only: not part
 * of the Swift module (module.modulemap). */
#ifndef CCODECS_LOGS_H
#define CCODECS_LOGS_H

#include <stdarg.h>
#include <lcms2.h>
#include <tiffio.h>
#include "ccodecs.h"

/* A library's first complaint, "" while there is none. */
typedef struct {
    char text[CCODECS_MESSAGE_SIZE];
} ccodecs_log;

/* A new lcms2 context (cmsCreateContext) whose error handler keeps the first message in `log`
 * (cleared here) and prints nothing; NULL when lcms2 has no memory. Free it with
 * cmsDeleteContext. */
cmsContext ccodecs_lcms_context(ccodecs_log *log);

/* libtiff's error handler for TIFFOpenOptionsSetErrorHandlerExtR, with a ccodecs_log as its
 * user data: keeps the first error ("module: text" when libtiff names a module). */
int ccodecs_tiff_on_error(TIFF *tiff, void *log, const char *module, const char *format, va_list args);

/* libtiff's warning handler (TIFFOpenOptionsSetWarningHandlerExtR): warnings are dropped,
 * since whatever they announce that matters comes back as an error or a field's value. */
int ccodecs_tiff_on_warning(TIFF *tiff, void *log, const char *module, const char *format, va_list args);

#endif
