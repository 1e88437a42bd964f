import CVips
import Foundation
import Vapor

/// `atelier bench-media FILE [--runs N] [--concurrency C]`: times the upload pipeline (decode,
/// orient, strip, original + 5 widths × JPEG/WebP, placeholder, colour) on one file, in process,
/// and prints the median per image and the process's peak memory. Used by benchmarks/media/run.
struct BenchMediaCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "file", help: "The image to ingest") var file: String
        @Option(name: "runs", help: "Rounds to time (default 5)") var runs: Int?
        @Option(name: "concurrency", help: "Images processed at once in each round (default 1)") var concurrency: Int?
    }

    var help: String { "Times the media pipeline on one image (see benchmarks/media)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let source = URL(fileURLWithPath: signature.file)
        let runs = max(1, signature.runs ?? 5)
        let concurrency = max(1, signature.concurrency ?? 1)
        let limits = context.application.atelier.media.limits
        let workers = context.application.atelier.media.imageWorkers
        _ = try ImageProcessor.detect(file: source)  // fail early on a bad file

        var roundTimes: [Double] = []
        for _ in 0..<(runs + 1) {  // the first round warms caches and is not counted
            let started = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
                        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
                        defer { try? FileManager.default.removeItem(at: work) }
                        _ = try await workers.run {
                            try ImageProcessor.process(file: source, claimed: nil, edits: .init(), limits: limits, workDirectory: work)
                        }
                    }
                }
                try await group.waitForAll()
            }
            roundTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        }
        let counted = roundTimes.dropFirst().sorted()
        let median = counted[counted.count / 2]
        context.console.print("median_round_ms=\(String(format: "%.1f", median)) concurrency=\(concurrency) runs=\(runs)")
        context.console.print("peak_rss_mb=\(String(format: "%.1f", Self.peakResidentMegabytes()))")
        // What libvips itself allocated at most for pixels; the rest of the peak is codecs and malloc.
        context.console.print("vips_pixels_peak_mb=\(String(format: "%.1f", Double(vips_tracked_get_mem_highwater()) / 1_048_576))")
    }

    /// VmHWM from /proc: the most memory this process has held at once.
    static func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
