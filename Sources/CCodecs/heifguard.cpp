/* heif_decode_image with C++ exceptions stopped at the C boundary. libheif 1.15 lets some
 * escape: its HEVC decoder (libde265) throws std::bad_alloc from std::vector when an allocation
 * fails, which would otherwise unwind through framed's C and Swift frames and end the process
 * with std::terminate. */
#include <new>
#include "ccodecs_heifguard.h"

extern "C" int ccodecs_heif_decode_guarded(ccodecs_heif_decode_function decode,
                                           const struct heif_image_handle *handle, struct heif_image **image,
                                           enum heif_colorspace colorspace, enum heif_chroma chroma,
                                           const struct heif_decoding_options *options, struct heif_error *error) {
    try {
        *error = decode(handle, image, colorspace, chroma, options);
        return CCODECS_OK;
    } catch (const std::bad_alloc &) {
        return CCODECS_NO_MEMORY;
    } catch (...) {
        return CCODECS_ERROR;
    }
}
