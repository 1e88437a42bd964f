import Foundation
import Testing

@testable import Atelier

/// The automatic cut-out against photos whose true masks are known (GarmentPhotos.swift).
@Suite("Wardrobe: garment cut-outs")
struct GarmentCutoutTests {
    private func cutOut(_ photo: GarmentPhoto, mask deviceMask: Data? = nil) throws -> (Cutout, [UInt8]) {
        let folder = try TestImages.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (jpeg, truth) = try photo.jpeg()
        let file = folder.appendingPathComponent("photo.jpg")
        try jpeg.write(to: file)
        var maskFile: URL?
        if let deviceMask {
            maskFile = folder.appendingPathComponent("mask.png")
            try deviceMask.write(to: maskFile!)
        }
        return (try GarmentCutout.cutOut(photo: file, deviceMask: maskFile), truth)
    }

    private func iou(_ cutout: Cutout, _ truth: [UInt8]) -> Double {
        var intersection = 0, union = 0
        for index in truth.indices {
            let found = cutout.mask[index] >= 128, real = truth[index] != 0
            if found && real { intersection += 1 }
            if found || real { union += 1 }
        }
        return union == 0 ? 0 : Double(intersection) / Double(union)
    }

    @Test("20 photos: mean IoU ≥ 0.90 on plain and gradient backdrops (the textured figure is printed)")
    func quality() throws {
        var plainAndGradient: [Double] = [], textured: [Double] = []
        for (index, photo) in GarmentPhoto.suite.enumerated() {
            let (cutout, truth) = try cutOut(photo)
            #expect(cutout.maskWidth == photo.width && cutout.maskHeight == photo.height)
            let score = iou(cutout, truth)
            print("cut-out \(index): \(photo.shape) on \(photo.backdrop): IoU \(String(format: "%.3f", score))")
            if photo.backdrop == .textured { textured.append(score) } else { plainAndGradient.append(score) }
        }
        let mean = plainAndGradient.reduce(0, +) / Double(plainAndGradient.count)
        let texturedMean = textured.reduce(0, +) / Double(textured.count)
        print("cut-out mean IoU: plain and gradient \(String(format: "%.3f", mean)) (\(plainAndGradient.count) photos), textured \(String(format: "%.3f", texturedMean)) (\(textured.count))")
        #expect(plainAndGradient.count == 16 && textured.count == 4)
        #expect(mean >= 0.90)
    }

    @Test("running the cut-out twice gives identical bytes")
    func deterministic() throws {
        let photo = GarmentPhoto(shape: .dress, backdrop: .textured, colour: (190, 40, 40))
        let (first, _) = try cutOut(photo)
        let (second, _) = try cutOut(photo)
        #expect(first.png == second.png)
        #expect(first.png.count > 1000)
    }

    @Test("a device mask is used as given, even where the photo says otherwise")
    func deviceMask() throws {
        let photo = GarmentPhoto(shape: .top, backdrop: .plain, colour: (30, 45, 110))
        // A rectangle that is not the garment's outline: the result must follow the mask, not the photo.
        var given = [UInt8](repeating: 0, count: photo.width * photo.height)
        for y in 100..<300 { for x in 50..<250 { given[y * photo.width + x] = 255 } }
        let png = try Vips.pngData(try Vips.image(fromBytes: given, width: photo.width, height: photo.height, bands: 1))
        let (cutout, _) = try cutOut(photo, mask: png)
        #expect(cutout.mask == given)
        #expect(cutout.width == 200 + 2 * 6 && cutout.height == 200 + 2 * 6, "cropped to the mask plus its margin")
    }

    @Test("the primary colour is named from the cut-out's pixels, not the backdrop")
    func colourNames() throws {
        let cases: [((UInt8, UInt8, UInt8), ColourName)] = [((30, 45, 110), .navy), ((190, 40, 40), .red), ((60, 140, 70), .green), ((128, 128, 128), .grey)]
        for (rgb, expected) in cases {
            let (cutout, _) = try cutOut(GarmentPhoto(shape: .trousers, backdrop: .gradient, colour: rgb))
            #expect(cutout.colours.first == expected, "\(rgb): \(cutout.colours)")
        }
    }

    @Test("a photo with no garment in it is refused with a specific problem")
    func emptyPhoto() throws {
        let folder = try TestImages.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("empty.jpg")
        try Vips.jpegData(try Vips.image(fromBytes: [UInt8](repeating: 200, count: 320 * 240 * 3), width: 320, height: 240, bands: 3), quality: 90)
            .write(to: file)
        #expect(throws: Problem.self) { try GarmentCutout.cutOut(photo: file) }
    }
}
