/* A C++ guard around libheif's decoding (heifguard.cpp). For C only: not part of the Swift module
 * (module.modulemap). */
#ifndef CCODECS_HEIFGUARD_H
#define CCODECS_HEIFGUARD_H

#include <libheif/heif.h>
#include "ccodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* heif_decode_image, as looked up in libheif. */
typedef struct heif_error (*ccodecs_heif_decode_function)(const struct heif_image_handle *, struct heif_image **,
                                                          enum heif_colorspace, enum heif_chroma,
                                                          const struct heif_decoding_options *);

/* Calls `decode` and puts its result in `error`: CCODECS_OK. When it throws instead,
 * CCODECS_NO_MEMORY for std::bad_alloc, CCODECS_ERROR for anything else; `error` is untouched. */
int ccodecs_heif_decode_guarded(ccodecs_heif_decode_function decode, const struct heif_image_handle *handle,
                                struct heif_image **image, enum heif_colorspace colorspace, enum heif_chroma chroma,
                                const struct heif_decoding_options *options, struct heif_error *error);

#ifdef __cplusplus
}
#endif

#endif
