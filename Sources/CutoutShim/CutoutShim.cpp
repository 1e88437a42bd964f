#include "CutoutShim.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <vector>

namespace {

// Keeps the connected garment: the largest foreground region and any other region at least a
// tenth of its size (a pair of shoes), and fills small holes that GrabCut leaves inside it.
void tidy(cv::Mat &foreground) {
    cv::Mat labels, stats, centroids;
    int count = cv::connectedComponentsWithStats(foreground, labels, stats, centroids, 8, CV_32S);
    int largest = 0;
    for (int i = 1; i < count; i++) largest = std::max(largest, stats.at<int>(i, cv::CC_STAT_AREA));
    cv::Mat kept = cv::Mat::zeros(foreground.size(), CV_8U);
    for (int i = 1; i < count; i++) {
        if (stats.at<int>(i, cv::CC_STAT_AREA) * 10 >= largest) kept.setTo(255, labels == i);
    }
    cv::Mat holes;
    cv::bitwise_not(kept, holes);
    count = cv::connectedComponentsWithStats(holes, labels, stats, centroids, 4, CV_32S);
    for (int i = 1; i < count; i++) {
        int x = stats.at<int>(i, cv::CC_STAT_LEFT), y = stats.at<int>(i, cv::CC_STAT_TOP);
        int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        bool touchesEdge = x == 0 || y == 0 || x + w == holes.cols || y + h == holes.rows;
        if (!touchesEdge && stats.at<int>(i, cv::CC_STAT_AREA) * 50 < largest) kept.setTo(255, labels == i);
    }
    foreground = kept;
}

// The backdrop each pixel would show without the garment: a Coons patch between the four edges
// of the frame (exact for plain and linear-gradient backdrops). Edges are smoothed along their
// length first, so texture and noise average out.
cv::Mat backdropEstimate(const cv::Mat &image, int border) {
    int width = image.cols, height = image.rows;
    cv::Mat img;
    image.convertTo(img, CV_32FC3);
    auto edgeRow = [&](int y0) {
        cv::Mat row;
        cv::reduce(img.rowRange(y0, y0 + border), row, 0, cv::REDUCE_AVG);
        cv::blur(row, row, cv::Size(std::max(3, width / 20) | 1, 1));
        return row;
    };
    auto edgeCol = [&](int x0) {
        cv::Mat col;
        cv::reduce(img.colRange(x0, x0 + border), col, 1, cv::REDUCE_AVG);
        cv::blur(col, col, cv::Size(1, std::max(3, height / 20) | 1));
        return col;
    };
    cv::Mat top = edgeRow(0), bottom = edgeRow(height - border), left = edgeCol(0), right = edgeCol(width - border);
    cv::Vec3f c00 = top.at<cv::Vec3f>(0, 0), c10 = top.at<cv::Vec3f>(0, width - 1);
    cv::Vec3f c01 = bottom.at<cv::Vec3f>(0, 0), c11 = bottom.at<cv::Vec3f>(0, width - 1);
    cv::Mat estimate(height, width, CV_32FC3);
    for (int y = 0; y < height; y++) {
        float v = height > 1 ? float(y) / float(height - 1) : 0;
        for (int x = 0; x < width; x++) {
            float u = width > 1 ? float(x) / float(width - 1) : 0;
            cv::Vec3f value = (1 - u) * left.at<cv::Vec3f>(y, 0) + u * right.at<cv::Vec3f>(y, 0)
                + (1 - v) * top.at<cv::Vec3f>(0, x) + v * bottom.at<cv::Vec3f>(0, x)
                - ((1 - u) * (1 - v) * c00 + u * (1 - v) * c10 + (1 - u) * v * c01 + u * v * c11);
            estimate.at<cv::Vec3f>(y, x) = value;
        }
    }
    return estimate;
}

// How far the frame's own pixels stray from the estimate: the noise a backdrop pixel may carry.
float backdropNoise(const cv::Mat &image, const cv::Mat &estimate, int border) {
    double sum = 0;
    long count = 0;
    for (int y = 0; y < image.rows; y++) {
        for (int x = 0; x < image.cols; x++) {
            if (y >= border && y < image.rows - border && x >= border && x < image.cols - border) continue;
            cv::Vec3b p = image.at<cv::Vec3b>(y, x);
            cv::Vec3f e = estimate.at<cv::Vec3f>(y, x);
            sum += cv::norm(cv::Vec3f(p[0], p[1], p[2]) - e);
            count++;
        }
    }
    return count ? float(sum / count) : 0;
}

// A pixel the backdrop explains: close to the estimate, or the estimate in shadow (the same
// hue, darker). Such pixels start as "probably backdrop", the rest as "probably garment".
bool explainedByBackdrop(cv::Vec3b pixel, cv::Vec3f backdrop, float noise) {
    cv::Vec3f p(pixel[0], pixel[1], pixel[2]);
    if (cv::norm(p - backdrop) <= 2.5f * noise + 8) return true;
    float pl = p[0] + p[1] + p[2], bl = backdrop[0] + backdrop[1] + backdrop[2];
    if (pl < 1 || bl < 1) return false;
    float ratio = pl / bl;
    // A soft shadow darkens the backdrop by at most about a third; anything darker is a garment
    // (a mid-grey shirt on a white sheet has the backdrop's hue too).
    if (ratio < 0.62f || ratio > 1.0f) return false;
    cv::Vec3f chroma = p / pl - backdrop / bl;
    return cv::norm(chroma) < 0.025f + noise / bl;
}

}  // namespace

extern "C" int atelier_cutout_grabcut(const uint8_t *rgb, int width, int height, int border, int iterations, uint8_t *mask) {
    if (!rgb || !mask || width <= 2 * border + 2 || height <= 2 * border + 2 || border < 1 || iterations < 1) return -1;
    try {
        cv::Mat image(height, width, CV_8UC3, const_cast<uint8_t *>(rgb));
        cv::Mat labels(height, width, CV_8U, cv::Scalar(cv::GC_PR_FGD));
        labels.rowRange(0, border).setTo(cv::GC_BGD);
        labels.rowRange(height - border, height).setTo(cv::GC_BGD);
        labels.colRange(0, border).setTo(cv::GC_BGD);
        labels.colRange(width - border, width).setTo(cv::GC_BGD);

        cv::Mat estimate = backdropEstimate(image, border);
        float noise = backdropNoise(image, estimate, border);
        cv::Mat seeded = labels.clone();
        long garmentPixels = 0;
        for (int y = border; y < height - border; y++) {
            for (int x = border; x < width - border; x++) {
                if (explainedByBackdrop(image.at<cv::Vec3b>(y, x), estimate.at<cv::Vec3f>(y, x), noise))
                    seeded.at<uchar>(y, x) = cv::GC_PR_BGD;
                else
                    garmentPixels++;
            }
        }
        // A garment almost the backdrop's colour leaves too few seeds for a colour model; then
        // GrabCut starts from the frame alone.
        if (garmentPixels * 200 >= long(width) * height) labels = seeded;

        // GrabCut starts its colour models with k-means from OpenCV's per-thread generator;
        // a fixed seed makes the result depend on the pixels alone.
        cv::theRNG().state = 0x41544c52;
        cv::Mat background, foreground;
        cv::grabCut(image, labels, cv::Rect(), background, foreground, iterations, cv::GC_INIT_WITH_MASK);

        cv::Mat garment = (labels == cv::GC_FGD) | (labels == cv::GC_PR_FGD);
        tidy(garment);
        cv::Mat out(height, width, CV_8U, mask);
        garment.copyTo(out);
        return 0;
    } catch (...) {
        return -1;
    }
}
