// A C face for OpenCV's GrabCut, so Swift can call it without C++ interop.
#ifndef ATELIER_CUTOUT_SHIM_H
#define ATELIER_CUTOUT_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Separates a garment from its backdrop. `rgb` is `width`×`height` 8-bit RGB, row by row.
/// `mask` (width×height bytes) receives 255 for the garment and 0 for the backdrop.
/// The model is seeded from a frame of `border` pixels along the edges (taken as backdrop);
/// everything inside starts as "probably garment". The random generator is reset before each
/// call, so the same pixels always give the same mask. Returns 0, or -1 on failure (an
/// image too small for the frame, or OpenCV refusing), with nothing written.
int atelier_cutout_grabcut(const uint8_t *rgb, int width, int height, int border, int iterations, uint8_t *mask);

#ifdef __cplusplus
}
#endif

#endif
