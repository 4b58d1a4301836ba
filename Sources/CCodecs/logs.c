/* The libraries' error handlers that keep their first complaint (ccodecs_logs.h). */
#include <stdio.h>
#include "ccodecs_common.h"
#include "ccodecs_logs.h"

static void on_lcms_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    ccodecs_log *log = cmsGetContextUserData(context);
    if (log && !log->text[0]) ccodecs_message(log->text, "%s", text);
}

cmsContext ccodecs_lcms_context(ccodecs_log *log) {
    log->text[0] = 0;
    cmsContext context = cmsCreateContext(NULL, log);
    if (context) cmsSetLogErrorHandlerTHR(context, on_lcms_error);
    return context;
}

int ccodecs_tiff_on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff;
    ccodecs_log *log = user;
    if (log && !log->text[0]) {
        char text[CCODECS_MESSAGE_SIZE];
        vsnprintf(text, sizeof text, format, args);
        if (module && module[0]) ccodecs_message(log->text, "%s: %s", module, text);
        else ccodecs_message(log->text, "%s", text);
    }
    return 1;
}

int ccodecs_tiff_on_warning(TIFF *tiff, void *log, const char *module, const char *format, va_list args) {
    (void)tiff, (void)log, (void)module, (void)format, (void)args;
    return 1;
}
