/* EXIF through libexif: the orientation tag and the resolution of IFD0. libexif wants an
 * "Exif\0\0" header in front of the TIFF data, so a copy gets one. Nothing is logged. */
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>
#include "ccodecs_color.h"

static const uint8_t exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};

/* The EXIF data, or NULL when it cannot be read. Release with exif_data_unref. */
static ExifData *load(const uint8_t *exif, size_t size) {
    if (!exif) return NULL;
    if (size >= 6 && memcmp(exif, "Exif", 4) == 0) {
        exif += 6;
        size -= 6;
    }
    if (size < 8 || size > 0xFFFFFF00u) return NULL;
    uint8_t *copy = malloc(size + 6);
    ExifData *data = copy ? exif_data_new() : NULL;
    if (data) {
        memcpy(copy, exif_header, 6);
        memcpy(copy + 6, exif, size);
        /* Read what is there, do not "fix" it by adding the tags the standard requires. */
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        exif_data_load_data(data, copy, (unsigned)(size + 6));
    }
    free(copy);
    return data;
}

static ExifEntry *entry(ExifData *data, ExifTag tag, ExifFormat format) {
    ExifEntry *e = exif_content_get_entry(data->ifd[EXIF_IFD_0], tag);
    if (!e || e->format != format || e->components < 1 || !e->data) return NULL;
    return e->size >= exif_format_get_size(format) ? e : NULL;
}

int ccodecs_exif_orientation(const uint8_t *exif, size_t size) {
    ExifData *data = load(exif, size);
    if (!data) return 1;
    ExifEntry *e = entry(data, EXIF_TAG_ORIENTATION, EXIF_FORMAT_SHORT);
    int value = e ? exif_get_short(e->data, exif_data_get_byte_order(data)) : 1;
    exif_data_unref(data);
    return value >= 1 && value <= 8 ? value : 1;
}

double ccodecs_exif_dpi(const uint8_t *exif, size_t size) {
    ExifData *data = load(exif, size);
    if (!data) return 0;
    ExifByteOrder order = exif_data_get_byte_order(data);
    ExifEntry *x = entry(data, EXIF_TAG_X_RESOLUTION, EXIF_FORMAT_RATIONAL);
    ExifEntry *unit = entry(data, EXIF_TAG_RESOLUTION_UNIT, EXIF_FORMAT_SHORT);
    double dpi = 0;
    if (x) {
        ExifRational r = exif_get_rational(x->data, order);
        int u = unit ? exif_get_short(unit->data, order) : 2; /* inches by default */
        if (r.denominator && (u == 2 || u == 3))
            dpi = (double)r.numerator / r.denominator * (u == 3 ? 2.54 : 1);
    }
    exif_data_unref(data);
    return dpi;
}
