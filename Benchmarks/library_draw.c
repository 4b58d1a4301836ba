/* The memory floor of the benchmark's SVG diagram: librsvg drawing the diagram alone, linked as
 * Debian ships it (a shared object), with nothing else in the process. framed reads SVG through
 * the same shared object, so no peak RSS it could reach is below this one; rsvg-convert links
 * librsvg into its own binary and maps less of it.
 *
 *   library_draw png FILE OUT WIDTH HEIGHT    the document fitted to WIDTH x HEIGHT pixels on a
 *                                             Cairo image surface, written as PNG
 *   library_draw pdf FILE OUT WIDTH HEIGHT    the same on a Cairo PDF surface (points)
 *
 * Built by Benchmarks/bench.sh with the system's compiler:
 *   cc -O2 library_draw.c $(pkg-config --cflags --libs librsvg-2.0 cairo-pdf) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <librsvg/rsvg.h>

int main(int argc, char **argv) {
    if (argc != 6 || (strcmp(argv[1], "png") && strcmp(argv[1], "pdf"))) {
        fprintf(stderr, "usage: library_draw png|pdf FILE OUT WIDTH HEIGHT\n");
        return 2;
    }
    int pdf = !strcmp(argv[1], "pdf");
    double width = atof(argv[4]), height = atof(argv[5]);
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_file(argv[2], &error);
    if (!handle) {
        fprintf(stderr, "library_draw: %s\n", error->message);
        return 1;
    }
    cairo_surface_t *surface = pdf ? cairo_pdf_surface_create(argv[3], width, height)
                                   : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height);
    cairo_t *cr = cairo_create(surface);
    RsvgRectangle viewport = {0, 0, width, height};
    int status = rsvg_handle_render_document(handle, cr, &viewport, &error) ? 0 : 1;
    if (status) fprintf(stderr, "library_draw: %s\n", error->message);
    cairo_destroy(cr);
    if (!status && !pdf && cairo_surface_write_to_png(surface, argv[3]) != CAIRO_STATUS_SUCCESS) status = 1;
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    return status;
}
