/* giflib wrappers. giflib reports errors by return values and an error code: each becomes a
 * status and a message here. The file is read through the ccodecs_input, as giflib asks for
 * bytes; only the records up to the first image (and the record after it) are read. */
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>
#include "ccodecs_common.h"
#include "ccodecs_gif.h"

typedef struct {
    ccodecs_input input;
    size_t position;
} source;

static int source_read(GifFileType *gif, GifByteType *to, int count) {
    source *s = gif->UserData;
    if (count <= 0) return 0;
    ptrdiff_t got = ccodecs_input_read(&s->input, s->position, to, (size_t)count);
    if (got <= 0) return 0;
    s->position += (size_t)got;
    return (int)got;
}

/* giflib's error code as a status and a message. */
static int gif_status(int code, char *message) {
    const char *text = GifErrorString(code);
    switch (code) {
    case D_GIF_ERR_NOT_ENOUGH_MEM:
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    case D_GIF_ERR_READ_FAILED:
    case D_GIF_ERR_EOF_TOO_SOON:
        ccodecs_message(message, "truncated GIF data");
        return CCODECS_ERROR;
    default:
        ccodecs_message(message, "%s", text ? text : "corrupt GIF data");
        return CCODECS_ERROR;
    }
}

/* What comes before the first image: the screen, the transparent colour of the first image
 * (its graphic control extension), the image's place and colour map. */
typedef struct {
    GifFileType *gif;
    source s;
    int transparent;           /* the first image's transparent index, -1 if none */
    uint32_t width, height;    /* the canvas */
    uint32_t left, top, image_width, image_height;
    int interlaced;
    const ColorMapObject *colors;
} gif_head;

static void close_head(gif_head *head) {
    if (head->gif) DGifCloseFile(head->gif, NULL);
    head->gif = NULL;
}

/* Skips the rest of an extension's sub-blocks. */
static int skip_extension(GifFileType *gif, GifByteType *block) {
    while (block)
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return GIF_ERROR;
    return GIF_OK;
}

static int read_head(const ccodecs_input *input, gif_head *head, char *message) {
    memset(head, 0, sizeof *head);
    head->s.input = *input;
    head->transparent = -1;
    int error = 0;
    if (!(head->gif = DGifOpen(&head->s, source_read, &error))) return gif_status(error, message);
    GifFileType *gif = head->gif;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return gif_status(gif->Error, message);
        if (type == TERMINATE_RECORD_TYPE) {
            ccodecs_message(message, "the GIF holds no image");
            return CCODECS_ERROR;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return gif_status(gif->Error, message);
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                /* block[0] is the size; packed fields, delay (2 bytes), transparent index. */
                head->transparent = (block[1] & 1) ? block[4] : -1;
            }
            if (skip_extension(gif, block) == GIF_ERROR) return gif_status(gif->Error, message);
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) {
            ccodecs_message(message, "unexpected GIF record");
            return CCODECS_ERROR;
        }
        if (DGifGetImageDesc(gif) == GIF_ERROR) return gif_status(gif->Error, message);
        break;
    }
    const GifImageDesc *image = &gif->Image;
    if (image->Left < 0 || image->Top < 0 || image->Width <= 0 || image->Height <= 0) {
        ccodecs_message(message, "the GIF's first image has no size");
        return CCODECS_ERROR;
    }
    head->left = (uint32_t)image->Left, head->top = (uint32_t)image->Top;
    head->image_width = (uint32_t)image->Width, head->image_height = (uint32_t)image->Height;
    head->interlaced = image->Interlace != 0;
    /* The canvas is the logical screen, grown to hold the first image if it goes past it. */
    uint32_t right = head->left + head->image_width, bottom = head->top + head->image_height;
    head->width = gif->SWidth > 0 && (uint32_t)gif->SWidth > right ? (uint32_t)gif->SWidth : right;
    head->height = gif->SHeight > 0 && (uint32_t)gif->SHeight > bottom ? (uint32_t)gif->SHeight : bottom;
    head->colors = image->ColorMap ? image->ColorMap : gif->SColorMap;
    if (!head->colors || !head->colors->Colors || head->colors->ColorCount <= 0) {
        ccodecs_message(message, "the GIF has no colour map");
        return CCODECS_ERROR;
    }
    return CCODECS_OK;
}

/* Whether the first image leaves some of the canvas transparent. */
static int head_has_alpha(const gif_head *head) {
    return head->transparent >= 0 || head->left > 0 || head->top > 0 || head->image_width < head->width
        || head->image_height < head->height;
}

/* The first image is what is framed: a screen it covers too little of is refused. */
static int check_canvas(const gif_head *head, char *message) {
    return ccodecs_check_canvas(head->width, head->height, (uint64_t)head->image_width * head->image_height, "first frame",
                                message);
}

int ccodecs_gif_info(const ccodecs_input *input, ccodecs_image_info *info, char *message) {
    memset(info, 0, sizeof *info);
    message[0] = 0;
    gif_head head;
    int status = read_head(input, &head, message);
    if (!status) status = check_canvas(&head, message);
    if (!status) {
        info->width = head.width;
        info->height = head.height;
        info->components = 1;
        info->bit_depth = 8;
        info->color_space = CCODECS_COLOR_PALETTE;
        info->has_alpha = head_has_alpha(&head);
        info->progressive = head.interlaced;
        info->orientation = 1;
    }
    close_head(&head);
    return status;
}

typedef struct {
    ccodecs_reader base;
    gif_head head;
    uint8_t *indices;  /* a row of the image's colour indices */
    uint8_t *row;      /* a row of the canvas, RGBA */
} gif_state;

static int gif_read(ccodecs_reader *reader, uint8_t *pixels, ccodecs_layout layout, ccodecs_decoded *out,
                    char *message) {
    gif_state *state = (gif_state *)reader;
    gif_head *head = &state->head;
    if (!head->gif) {
        ccodecs_message(message, "the pixels were read already");
        return CCODECS_BAD_ARGUMENT;
    }
    uint32_t width = head->width;
    /* The canvas outside the image is transparent. */
    memset(state->row, 0, (size_t)width * 4);
    for (uint32_t y = 0; y < head->top; y++) ccodecs_place_row(pixels, layout, y, state->row, width);
    for (uint32_t y = head->top + head->image_height; y < head->height; y++)
        ccodecs_place_row(pixels, layout, y, state->row, width);
    /* Interlaced rows come in four passes: every 8th from 0, every 8th from 4, every 4th
     * from 2, every 2nd from 1. */
    static const uint32_t starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    int passes = head->interlaced ? 4 : 1;
    const GifColorType *colors = head->colors->Colors;
    int count = head->colors->ColorCount;
    for (int pass = 0; pass < passes; pass++) {
        uint32_t start = head->interlaced ? starts[pass] : 0, step = head->interlaced ? steps[pass] : 1;
        for (uint32_t r = start; r < head->image_height; r += step) {
            if (DGifGetLine(head->gif, state->indices, (int)head->image_width) == GIF_ERROR)
                return gif_status(head->gif->Error, message);
            uint8_t *to = state->row + (size_t)head->left * 4;
            for (uint32_t x = 0; x < head->image_width; x++, to += 4) {
                int index = state->indices[x];
                if (index == head->transparent || index >= count) {
                    memset(to, 0, 4);
                } else {
                    to[0] = colors[index].Red, to[1] = colors[index].Green, to[2] = colors[index].Blue, to[3] = 255;
                }
            }
            ccodecs_place_row(pixels, layout, head->top + r, state->row, width);
        }
    }
    /* Another image after this one makes an animation: look at the next records only. */
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(head->gif, &type) == GIF_ERROR || type == TERMINATE_RECORD_TYPE) break;
        if (type == IMAGE_DESC_RECORD_TYPE) {
            ccodecs_note_warning(out, "animated GIF: only the first frame is used");
            break;
        }
        if (type != EXTENSION_RECORD_TYPE) break;
        int code;
        GifByteType *block = NULL;
        if (DGifGetExtension(head->gif, &code, &block) == GIF_ERROR || skip_extension(head->gif, block) == GIF_ERROR) break;
    }
    close_head(head);
    return CCODECS_OK;
}

static void gif_close(ccodecs_reader *reader) {
    gif_state *state = (gif_state *)reader;
    close_head(&state->head);
    free(state->indices);
    free(state->row);
    free(state);
}

int ccodecs_gif_open(const ccodecs_input *input, size_t max_pixels, ccodecs_decoded *out, ccodecs_reader **reader,
                     char *message) {
    memset(out, 0, sizeof *out);
    *reader = NULL;
    message[0] = 0;
    gif_state *state = calloc(1, sizeof *state);
    if (!state) {
        ccodecs_message(message, "out of memory");
        return CCODECS_NO_MEMORY;
    }
    state->base.read = gif_read;
    state->base.close = gif_close;
    state->base.threads = 1;
    int status = read_head(input, &state->head, message);
    if (!status) {
        out->width = state->head.width;
        out->height = state->head.height;
        status = ccodecs_check_size(out->width, out->height, max_pixels, message);
    }
    if (!status) status = check_canvas(&state->head, message);
    if (!status && (!(state->indices = malloc(state->head.image_width))
                    || !(state->row = malloc((size_t)state->head.width * 4)))) {
        ccodecs_message(message, "out of memory");
        status = CCODECS_NO_MEMORY;
    }
    if (status) {
        gif_close(&state->base);
        ccodecs_decoded_release(out);
        return status;
    }
    out->has_alpha = head_has_alpha(&state->head);
    out->pixel_format = CCODECS_PIXELS_RGBA;
    *reader = &state->base;
    return CCODECS_OK;
}
