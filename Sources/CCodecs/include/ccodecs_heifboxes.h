/* A HEIF file's boxes read by framed itself (heifboxes.c), for what libheif's API does not
 * tell: what each item codes. For C only: not part of the Swift module (module.modulemap). */
#ifndef CCODECS_HEIFBOXES_H
#define CCODECS_HEIFBOXES_H

#include "ccodecs.h"

typedef struct ccodecs_heif_boxes ccodecs_heif_boxes;

/* Reads the meta box of the HEIF at `input` (at most 64 MB) and its items, properties and
 * references. CCODECS_ERROR when there is none or it lists more than libheif reads. */
int ccodecs_heif_boxes_open(const ccodecs_input *input, ccodecs_heif_boxes **boxes, char *message);
void ccodecs_heif_boxes_close(ccodecs_heif_boxes *boxes);

/* The primary item's id (pitm), 0 without one. */
uint32_t ccodecs_heif_boxes_primary(const ccodecs_heif_boxes *boxes);

/* The item's ispe: 1 with its size, 0 without one. */
int ccodecs_heif_boxes_ispe(const ccodecs_heif_boxes *boxes, uint32_t id, uint32_t *width, uint32_t *height);

/* The largest ispe of any item (0x0 without any). */
void ccodecs_heif_boxes_largest_ispe(const ccodecs_heif_boxes *boxes, uint32_t *width, uint32_t *height);

/* The largest picture the decoders are asked to code to decode item `id` (see
 * ccodecs_heif_coded_size). */
int ccodecs_heif_boxes_coded(ccodecs_heif_boxes *boxes, uint32_t id, uint64_t *width, uint64_t *height, char *message);

#endif
