import CVips
import Foundation
import Vapor
import VipsShim

/// `atelier bench-cutout [--file F] [--runs N] [--concurrency C]`: times the garment cut-out on a
/// photo (default: a 12-megapixel garment on a backdrop, JPEG quality 90, made on the spot) on
/// the image threads, C at once, and prints the median round and the process's peak memory.
/// Used by benchmarks/wardrobe/run.
struct BenchCutoutCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "file", help: "The photo to cut out (default: a generated 4000×3000 garment photo)") var file: String?
        @Option(name: "runs", help: "Rounds to time (default 5)") var runs: Int?
        @Option(name: "concurrency", help: "Cut-outs at once in each round (default 2)") var concurrency: Int?
        @Option(name: "write-photo", help: "Only write the generated 12 MP photo to this path and stop") var writePhoto: String?
        @Flag(name: "baseline", help: "Boot, cut nothing, print the peak memory (the floor under a run)") var baseline: Bool
    }

    var help: String { "Times the closet's garment cut-out on one photo (see benchmarks/wardrobe)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cutout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let photo: URL
        if let file = signature.file {
            photo = URL(fileURLWithPath: file)
        } else {
            photo = signature.writePhoto.map { URL(fileURLWithPath: $0) } ?? work.appendingPathComponent("garment.jpg")
            try Vips.start()
            guard let garment = atelier_vips_demo_garment(4000, 3000, 30, 45, 110, 0) else { throw Vips.lastError() }
            // Sensor-like grain (±12 levels), so the JPEG decodes like a photo rather than flat colour.
            var pixels = try Vips.pixels(VipsImageRef(garment))
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for index in pixels.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let grain = Int(state >> 59) + Int((state >> 40) & 7) - 12
                let value = Int(pixels[index]) + grain
                pixels[index] = UInt8(clamping: value)
            }
            try Vips.image(fromBytes: pixels, width: 4000, height: 3000, bands: 3).with { try Vips.check(atelier_vips_save_jpeg($0, photo.path, 90, 0)) }
        }
        if signature.baseline {
            context.console.print("baseline_peak_rss_mb=\(String(format: "%.1f", BenchMediaCommand.peakResidentMegabytes()))")
            return
        }
        if signature.writePhoto != nil {
            context.console.print("wrote \(photo.path)")
            return
        }
        let runs = max(1, signature.runs ?? 5)
        let concurrency = max(1, signature.concurrency ?? 2)
        let workers = context.application.atelier.media.imageWorkers

        var roundTimes: [Double] = []
        var size = (0, 0)
        for _ in 0..<(runs + 1) {  // the first round warms caches and is not counted
            let started = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        let cutout = try await workers.run { try GarmentCutout.cutOut(photo: photo) }
                        return (cutout.width, cutout.height)
                    }
                }
                for try await result in group { size = result }
            }
            roundTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        }
        let counted = roundTimes.dropFirst().sorted()
        context.console.print("median_round_ms=\(String(format: "%.1f", counted[counted.count / 2])) concurrency=\(concurrency) runs=\(runs) cutout=\(size.0)x\(size.1)")
        context.console.print("peak_rss_mb=\(String(format: "%.1f", BenchMediaCommand.peakResidentMegabytes()))")
    }
}
