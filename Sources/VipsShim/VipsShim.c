#define _GNU_SOURCE
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "VipsShim.h"
#include <vips/vector.h>
#include <malloc.h>
#include <string.h>

int atelier_vips_init(void) {
    if (VIPS_INIT("atelier")) return -1;
    // glibc gives every thread its own malloc arena; with libvips' worker threads that multiplies
    // resident memory for nothing. Two arenas are plenty.
    mallopt(M_ARENA_MAX, 2);
    // One worker thread per image: the server runs one image per core at once (MediaLibrary), so
    // more threads per image would only add buffers.
    vips_concurrency_set(1);
    // A few decoders at a time per core is plenty; libvips' cache is not useful for one-shot uploads.
    vips_cache_set_max(0);
    // No run-time generated SIMD code (liborc): with several uploads decoding at once, liborc
    // crashed the server with a bad pointer dereference in its generated code (seen in CI on
    // 2026-11-24: tests/faults/test_media_races.py, four identical uploads at a time, S3 backend).
    // libvips then uses its plain C paths; ingest stays well inside its target (docs/benchmarks.md).
    vips_vector_set_enabled(FALSE);
    return 0;
}

VipsImage *atelier_vips_open(const char *path) {
    // Sequential: the decoder streams top to bottom into whatever reads it (our one in-memory
    // copy), instead of keeping a full-size copy of its own.
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

int atelier_vips_autorotate(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

int atelier_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

int atelier_vips_rotate(VipsImage *in, VipsImage **out, int quarter_turns) {
    VipsAngle angle = VIPS_ANGLE_D0;
    switch (((quarter_turns % 4) + 4) % 4) {
        case 1: angle = VIPS_ANGLE_D90; break;
        case 2: angle = VIPS_ANGLE_D180; break;
        case 3: angle = VIPS_ANGLE_D270; break;
        default: return vips_copy(in, out, NULL);
    }
    return vips_rot(in, out, angle, NULL);
}

int atelier_vips_flatten_srgb(VipsImage *in, VipsImage **out, double red, double green, double blue) {
    VipsImage *srgb = NULL, *flat = NULL;
    if (vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
    if (vips_image_hasalpha(srgb)) {
        VipsArrayDouble *background = vips_array_double_newv(3, red, green, blue);
        int failed = vips_flatten(srgb, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(srgb);
        if (failed) return -1;
    } else {
        flat = srgb;
    }
    int failed = vips_cast(flat, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(flat);
    return failed ? -1 : 0;
}

int atelier_vips_resize_to_width(VipsImage *in, VipsImage **out, int width) {
    return vips_thumbnail_image(in, out, width, "height", 100000, "size", VIPS_SIZE_DOWN, NULL);
}

VipsImage *atelier_vips_materialize(VipsImage *in) {
    return vips_image_copy_memory(in);
}

int atelier_vips_save_jpeg(VipsImage *in, const char *path, int quality, int progressive) {
    // Progressive JPEG and optimised Huffman tables make libjpeg keep every coefficient of the
    // image in memory: fine for a 2000 px variant, wasteful for a 12 MP original.
    return vips_jpegsave(in, path, "Q", quality, "strip", TRUE, "optimize_coding", progressive ? TRUE : FALSE,
                         "interlace", progressive ? TRUE : FALSE, NULL);
}

int atelier_vips_save_webp(VipsImage *in, const char *path, int quality) {
    return vips_webpsave(in, path, "Q", quality, "strip", TRUE, NULL);
}

int atelier_vips_save_png(VipsImage *in, const char *path) {
    return vips_pngsave(in, path, "strip", TRUE, NULL);
}

int atelier_vips_save_jpeg_buffer(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

int atelier_vips_save_jpeg_keep_metadata(VipsImage *in, const char *path, int quality) {
    return vips_jpegsave(in, path, "Q", quality, NULL);
}

VipsImage *atelier_vips_test_pattern(int width, int height) {
    VipsImage *x = NULL, *scaled = NULL, *bands = NULL, *marker = NULL, *out = NULL;
    if (vips_xyz(&x, width, height, NULL)) return NULL;
    VipsImage *xy[2] = {NULL, NULL};
    if (vips_extract_band(x, &xy[0], 0, NULL) || vips_extract_band(x, &xy[1], 1, NULL)) { g_object_unref(x); return NULL; }
    // Red follows x, green follows y, blue is constant: orientation is visible in the pixels.
    VipsImage *red = NULL, *green = NULL, *blue = NULL;
    vips_linear1(xy[0], &red, 255.0 / (width > 1 ? width - 1 : 1), 0, NULL);
    vips_linear1(xy[1], &green, 255.0 / (height > 1 ? height - 1 : 1), 0, NULL);
    vips_linear1(xy[0], &blue, 0, 96, NULL);
    VipsImage *channels[3] = {red, green, blue};
    vips_bandjoin(channels, &bands, 3, NULL);
    vips_cast(bands, &scaled, VIPS_FORMAT_UCHAR, NULL);
    out = vips_image_copy_memory(scaled);
    if (out) {
        vips_image_set_int(out, "atelier-test", 1);
        vips_copy(out, &marker, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
        g_object_unref(out);
        out = marker;
    }
    g_object_unref(x); g_object_unref(xy[0]); g_object_unref(xy[1]);
    g_object_unref(red); g_object_unref(green); g_object_unref(blue);
    g_object_unref(bands); g_object_unref(scaled);
    return out;
}

void atelier_vips_set_orientation(VipsImage *image, int orientation) {
    vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
}

void atelier_vips_set_string(VipsImage *image, const char *name, const char *value) {
    vips_image_set_string(image, name, value);
}

int atelier_vips_whiten_background(VipsImage *in, VipsImage **out, double red, double green, double blue, double threshold) {
    // Pixels whose colour is within `threshold` (mean absolute difference per channel) of the
    // border colour become white. No connectivity: a garment of the same colour as the backdrop
    // is whitened too.
    double minus[3] = {-red, -green, -blue};
    double ones[3] = {1, 1, 1};
    VipsImage *diff = NULL, *absolute = NULL, *mean = NULL, *mask = NULL, *white = NULL;
    int failed = vips_linear(in, &diff, ones, minus, 3, NULL)
        || vips_abs(diff, &absolute, NULL)
        || vips_bandmean(absolute, &mean, NULL)
        || vips_relational_const1(mean, &mask, VIPS_OPERATION_RELATIONAL_LESS, threshold, NULL);
    if (!failed) {
        double white_pixel[3] = {255, 255, 255};
        failed = vips_black(&white, in->Xsize, in->Ysize, "bands", 3, NULL);
        if (!failed) {
            VipsImage *filled = NULL;
            failed = vips_linear(white, &filled, ones, white_pixel, 3, "uchar", TRUE, NULL);
            if (!failed) failed = vips_ifthenelse(mask, filled, in, out, NULL);
            if (filled) g_object_unref(filled);
        }
    }
    if (diff) g_object_unref(diff);
    if (absolute) g_object_unref(absolute);
    if (mean) g_object_unref(mean);
    if (mask) g_object_unref(mask);
    if (white) g_object_unref(white);
    return failed ? -1 : 0;
}

int atelier_vips_without_metadata(VipsImage *in, VipsImage **out) {
    // Savers' own "strip" is not enough (libvips 8.14's WebP saver still writes EXIF), so the
    // fields themselves go: EXIF, XMP, IPTC, orientation and any embedded profile.
    if (vips_copy(in, out, NULL)) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields && fields[i]; i++) {
        const char *name = fields[i];
        if (vips_isprefix("exif-", name) || vips_isprefix("xmp-", name) || vips_isprefix("iptc-", name)
            || vips_isprefix("icc-profile-", name) || strcmp(name, VIPS_META_ORIENTATION) == 0
            || vips_isprefix("heif-", name) || vips_isprefix("png-comment", name)) {
            vips_image_remove(*out, name);
        }
    }
    g_strfreev(fields);
    return 0;
}

int atelier_vips_save_heic(VipsImage *in, const char *path) {
    return vips_heifsave(in, path, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
}

/// Demo data: a flat garment silhouette (0 top, 1 dress, 2 trousers, 3 bag) in the given colour on
/// a warm backdrop, so seeded products have photos that look like products and not test cards.
VipsImage *atelier_vips_demo_garment(int width, int height, double r, double g, double b, int shape) {
    VipsImage *black = NULL, *tinted = NULL, *cast = NULL, *canvas = NULL, *out = NULL;
    double backdrop[3] = {241, 236, 229};
    double zero[3] = {0, 0, 0};
    if (vips_black(&black, width, height, "bands", 3, NULL)) return NULL;
    if (vips_linear(black, &tinted, zero, backdrop, 3, NULL)) { g_object_unref(black); return NULL; }
    if (vips_cast(tinted, &cast, VIPS_FORMAT_UCHAR, NULL)) { g_object_unref(black); g_object_unref(tinted); return NULL; }
    canvas = vips_image_copy_memory(cast);
    g_object_unref(black); g_object_unref(tinted); g_object_unref(cast);
    if (!canvas) return NULL;
    double ink[3] = {r, g, b};
    double W = width, H = height;
    #define RECT(x0, y0, x1, y1) vips_draw_rect(canvas, ink, 3, (int)(W * (x0)), (int)(H * (y0)), (int)(W * ((x1) - (x0))), (int)(H * ((y1) - (y0))), "fill", TRUE, NULL)
    switch (shape % 4) {
    case 0:
        RECT(0.30, 0.22, 0.70, 0.86);
        RECT(0.16, 0.22, 0.30, 0.50);
        RECT(0.70, 0.22, 0.84, 0.50);
        vips_draw_circle(canvas, backdrop, 3, (int)(W * 0.5), (int)(H * 0.22), (int)(W * 0.07), "fill", TRUE, NULL);
        break;
    case 1:
        for (int i = 0; i < 14; i++) {
            double t = i / 13.0;
            double half = 0.09 + 0.22 * t;
            RECT(0.5 - half, 0.18 + 0.05 * i, 0.5 + half, 0.18 + 0.05 * (i + 1));
        }
        RECT(0.40, 0.10, 0.44, 0.20);
        RECT(0.56, 0.10, 0.60, 0.20);
        break;
    case 2:
        RECT(0.30, 0.12, 0.70, 0.24);
        RECT(0.30, 0.24, 0.485, 0.90);
        RECT(0.515, 0.24, 0.70, 0.90);
        break;
    default:
        vips_draw_circle(canvas, ink, 3, (int)(W * 0.5), (int)(H * 0.42), (int)(W * 0.17), "fill", TRUE, NULL);
        vips_draw_circle(canvas, backdrop, 3, (int)(W * 0.5), (int)(H * 0.42), (int)(W * 0.12), "fill", TRUE, NULL);
        RECT(0.24, 0.42, 0.76, 0.82);
        break;
    }
    #undef RECT
    vips_copy(canvas, &out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(canvas);
    return out;
}

int atelier_lower_thread_priority(int niceness) {
#ifdef __linux__
    pid_t thread = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    if (errno == 0 && current >= niceness) return 0;
    return setpriority(PRIO_PROCESS, (id_t)thread, niceness);
#else
    (void)niceness;
    return 0;
#endif
}

int atelier_vips_resize_exact(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

int atelier_vips_to_mask(VipsImage *in, VipsImage **out) {
    VipsImage *grey = NULL, *flat = NULL, *band = NULL;
    int failed = vips_colourspace(in, &grey, VIPS_INTERPRETATION_B_W, NULL);
    if (!failed && vips_image_hasalpha(grey)) {
        // A mask drawn as transparency: the alpha is the mask.
        failed = vips_extract_band(grey, &band, 1, NULL);
    } else if (!failed) {
        failed = vips_extract_band(grey, &band, 0, NULL);
    }
    if (!failed) failed = vips_cast(band, out, VIPS_FORMAT_UCHAR, NULL);
    if (grey) g_object_unref(grey);
    if (flat) g_object_unref(flat);
    if (band) g_object_unref(band);
    return failed ? -1 : 0;
}

int atelier_vips_with_alpha(VipsImage *in, VipsImage *alpha, VipsImage **out) {
    VipsImage *joined = NULL;
    if (vips_bandjoin2(in, alpha, &joined, NULL)) return -1;
    int failed = vips_copy(joined, out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(joined);
    return failed ? -1 : 0;
}

VipsImage *atelier_vips_canvas(int width, int height, double r, double g, double b, double a) {
    VipsImage *black = NULL, *tinted = NULL, *cast = NULL, *out = NULL;
    double ones[4] = {0, 0, 0, 0};
    double fill[4] = {r, g, b, a};
    if (vips_black(&black, width, height, "bands", 4, NULL)) return NULL;
    if (!vips_linear(black, &tinted, ones, fill, 4, NULL) && !vips_cast(tinted, &cast, VIPS_FORMAT_UCHAR, NULL)) {
        vips_copy(cast, &out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    }
    if (black) g_object_unref(black);
    if (tinted) g_object_unref(tinted);
    if (cast) g_object_unref(cast);
    return out;
}

int atelier_vips_similarity(VipsImage *in, VipsImage **out, double scale, double degrees) {
    VipsImage *premultiplied = NULL, *turned = NULL, *straight = NULL;
    // Premultiplied, so transparent pixels lend no colour to the edges they are blended into.
    int failed = vips_premultiply(in, &premultiplied, NULL)
        || vips_similarity(premultiplied, &turned, "scale", scale, "angle", degrees, NULL)
        || vips_unpremultiply(turned, &straight, NULL)
        || vips_cast(straight, out, VIPS_FORMAT_UCHAR, NULL);
    if (premultiplied) g_object_unref(premultiplied);
    if (turned) g_object_unref(turned);
    if (straight) g_object_unref(straight);
    return failed ? -1 : 0;
}

int atelier_vips_composite_over(VipsImage *base, VipsImage *overlay, VipsImage **out, int x, int y) {
    VipsImage *blended = NULL;
    if (vips_composite2(base, overlay, &blended, VIPS_BLEND_MODE_OVER, "x", x, "y", y, NULL)) return -1;
    int failed = vips_cast(blended, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(blended);
    return failed ? -1 : 0;
}

int atelier_vips_save_animated_webp(VipsImage **frames, int count, int delay_ms, const char *path, int quality) {
    if (count < 1) return -1;
    int height = vips_image_get_height(frames[0]);
    VipsImage *strip = NULL;
    if (vips_arrayjoin(frames, &strip, count, "across", 1, NULL)) return -1;
    VipsImage *copy = NULL;
    if (vips_copy(strip, &copy, NULL)) { g_object_unref(strip); return -1; }
    g_object_unref(strip);
    vips_image_set_int(copy, "page-height", height);
    int *delays = g_new(int, count);
    for (int i = 0; i < count; i++) delays[i] = delay_ms;
    vips_image_set_array_int(copy, "delay", delays, count);
    vips_image_set_int(copy, "loop", 0);
    g_free(delays);
    int failed = vips_webpsave(copy, path, "Q", quality, "strip", TRUE, NULL);
    g_object_unref(copy);
    return failed ? -1 : 0;
}

int atelier_vips_save_png_buffer(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "compression", 6, "strip", TRUE, NULL);
}

int atelier_vips_thumbnail_file(const char *path, VipsImage **out, int box) {
    return vips_thumbnail(path, out, box, "height", box, "size", VIPS_SIZE_DOWN, NULL);
}

int atelier_vips_to_srgb_alpha(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL, *cast = NULL;
    int failed = vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL) || vips_cast(srgb, &cast, VIPS_FORMAT_UCHAR, NULL);
    if (!failed) failed = vips_image_hasalpha(cast) ? vips_copy(cast, out, NULL) : vips_addalpha(cast, out, NULL);
    if (srgb) g_object_unref(srgb);
    if (cast) g_object_unref(cast);
    return failed ? -1 : 0;
}
