#ifndef FRAMED_CCAIRO_SHIM_H
#define FRAMED_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>
#endif
