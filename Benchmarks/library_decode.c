/* The floor of the benchmark's HEIC and TIFF jobs: what decoding the file costs in the library
 * alone, which no tool that reads it through that library can beat.
 *
 *   library_decode heic FILE    libheif: the primary image to its decoder's own planes (no
 *                               conversion to RGB)
 *   library_decode tiff FILE    libtiff: every strip or tile of the first page decoded
 *                               (TIFFReadEncodedStrip/Tile), nothing converted
 *
 * Built by Benchmarks/bench.sh with the system's compiler: cc -O2 library_decode.c -lheif -ltiff. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <tiffio.h>

static int heic(const char *path) {
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_error error = heif_context_read_from_file(context, path, NULL);
    if (!error.code) error = heif_context_get_primary_image_handle(context, &handle);
    if (!error.code) error = heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, NULL);
    if (error.code) fprintf(stderr, "library_decode: %s\n", error.message);
    if (image) heif_image_release(image);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return error.code ? 1 : 0;
}

static int tiff(const char *path) {
    TIFF *tiff = TIFFOpen(path, "r");
    if (!tiff) return 1;
    int tiled = TIFFIsTiled(tiff);
    tmsize_t size = tiled ? TIFFTileSize(tiff) : TIFFStripSize(tiff);
    uint32_t count = tiled ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff);
    void *buffer = size > 0 ? malloc((size_t)size) : NULL;
    int status = buffer ? 0 : 1;
    for (uint32_t i = 0; i < count && !status; i++)
        if ((tiled ? TIFFReadEncodedTile(tiff, i, buffer, size) : TIFFReadEncodedStrip(tiff, i, buffer, size)) < 0) status = 1;
    free(buffer);
    TIFFClose(tiff);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: library_decode heic|tiff FILE\n");
        return 2;
    }
    if (!strcmp(argv[1], "heic")) return heic(argv[2]);
    if (!strcmp(argv[1], "tiff")) return tiff(argv[2]);
    fprintf(stderr, "library_decode: unknown format %s\n", argv[1]);
    return 2;
}
