// Non-variadic wrappers around the libvips calls Atelier uses: Swift cannot call C variadic
// functions. Each returns 0 on success and -1 on failure (message in vips_error_buffer()).
#ifndef ATELIER_VIPS_SHIM_H
#define ATELIER_VIPS_SHIM_H

#include <stddef.h>
#include <vips/vips.h>

int atelier_vips_init(void);

/// Sets the calling thread's nice value to at least `niceness` (Linux keeps it per thread; threads
/// started from this one inherit it). Image work runs at a lower priority than requests.
int atelier_lower_thread_priority(int niceness);

/// Opens an image lazily: only the header is read until pixels are needed. Truncated or damaged
/// files fail when the pixels are read.
VipsImage *atelier_vips_open(const char *path);

int atelier_vips_autorotate(VipsImage *in, VipsImage **out);
int atelier_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
/// quarter_turns: 1 = 90°, 2 = 180°, 3 = 270° clockwise.
int atelier_vips_rotate(VipsImage *in, VipsImage **out, int quarter_turns);
/// Removes any alpha channel over a solid background colour; converts to 8-bit sRGB.
int atelier_vips_flatten_srgb(VipsImage *in, VipsImage **out, double red, double green, double blue);
/// Downsizes to `width` pixels wide, keeping the aspect ratio; never upsizes.
int atelier_vips_resize_to_width(VipsImage *in, VipsImage **out, int width);
/// Decodes every pixel now (into memory), so later steps never re-read the file.
VipsImage *atelier_vips_materialize(VipsImage *in);

int atelier_vips_save_jpeg(VipsImage *in, const char *path, int quality, int progressive);
int atelier_vips_save_webp(VipsImage *in, const char *path, int quality);
int atelier_vips_save_png(VipsImage *in, const char *path);
int atelier_vips_save_jpeg_buffer(VipsImage *in, void **buffer, size_t *length, int quality);

int atelier_vips_without_metadata(VipsImage *in, VipsImage **out);
int atelier_vips_whiten_background(VipsImage *in, VipsImage **out, double red, double green, double blue, double threshold);

/// Opens a photo already shrunk to fit a `box`×`box` square (never enlarged), turned upright:
/// JPEGs are shrunk while decoding, so a 12 MP photo never sits in memory at full size.
int atelier_vips_thumbnail_file(const char *path, VipsImage **out, int box);
/// 8-bit sRGB with an alpha band (opaque added when the image had none).
int atelier_vips_to_srgb_alpha(VipsImage *in, VipsImage **out);
/// Resizes to exactly `width`×`height` (the aspect ratio may change): masks onto their photo.
int atelier_vips_resize_exact(VipsImage *in, VipsImage **out, int width, int height);
/// One 8-bit band of lightness: a mask image (any format, with or without alpha) as 0…255.
int atelier_vips_to_mask(VipsImage *in, VipsImage **out);
/// Appends `alpha` (one band) to an sRGB image.
int atelier_vips_with_alpha(VipsImage *in, VipsImage *alpha, VipsImage **out);
/// A `width`×`height` sRGB canvas with alpha, filled with r,g,b,a.
VipsImage *atelier_vips_canvas(int width, int height, double r, double g, double b, double a);
/// Scales by `scale` and turns by `degrees` (clockwise) about the centre; RGBA in, RGBA out,
/// with transparent corners.
int atelier_vips_similarity(VipsImage *in, VipsImage **out, double scale, double degrees);
/// Draws `overlay` (RGBA) over `base` (RGBA) with its top-left corner at x,y (may be negative).
int atelier_vips_composite_over(VipsImage *base, VipsImage *overlay, VipsImage **out, int x, int y);
/// Writes an animated WebP from `count` equal-sized frames shown `delay_ms` each.
int atelier_vips_save_animated_webp(VipsImage **frames, int count, int delay_ms, const char *path, int quality);
int atelier_vips_save_png_buffer(VipsImage *in, void **buffer, size_t *length);

/// Tests only: writes a HEIC (HEVC) file.
int atelier_vips_save_heic(VipsImage *in, const char *path);

/// Tests only: writes a JPEG with an EXIF orientation tag (and whatever else `in` carries).
int atelier_vips_save_jpeg_keep_metadata(VipsImage *in, const char *path, int quality);
/// Draws a test image: a horizontal gradient with a marker square in the top-left corner.
VipsImage *atelier_vips_test_pattern(int width, int height);
void atelier_vips_set_orientation(VipsImage *image, int orientation);
void atelier_vips_set_string(VipsImage *image, const char *name, const char *value);

/// Demo data only: a garment silhouette (shape 0 top, 1 dress, 2 trousers, 3 bag) in r,g,b.
VipsImage *atelier_vips_demo_garment(int width, int height, double r, double g, double b, int shape);

#endif
