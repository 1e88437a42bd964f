import AtelierKit
import Foundation

// An app's process uploading one big file through AtelierKit, as `benchmarks/sdk-upload/run`
// starts it: signs in as an editor, makes an issue, uploads FILE as its PDF edition, and prints
// how far its own resident memory grew above what it used just before the upload (sampled every
// 5 ms from /proc/self/status), as one JSON line.
//
//     AtelierKitUploadBench BASE_URL EMAIL PASSWORD FILE

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }
    return 0
}

final class Peak: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func see(_ kb: Int) { lock.withLock { value = max(value, kb) } }
    var kb: Int { lock.withLock { value } }
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let base = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: AtelierKitUploadBench BASE_URL EMAIL PASSWORD FILE\n".utf8))
    exit(2)
}
let file = URL(fileURLWithPath: arguments[4])
let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
let session = AtelierSession(baseURL: base, tokenStore: InMemoryTokenStore())
try await session.signIn(email: arguments[2], password: arguments[3])
let number = Int.random(in: 100_000...9_999_999)
let issue = try await session.magazineEditing.createIssue(number: number, labels: ["en": "Bench \(number)"])

let before = residentKB()
let peak = Peak()
peak.see(before)
let sampling = Task.detached {
    while !Task.isCancelled {
        peak.see(residentKB())
        try? await Task.sleep(for: .milliseconds(5))
    }
}
let started = ContinuousClock.now
let upload = session.editor.uploadIssuePDF(file: file, issueId: issue.id, lang: "en")
var events = 0
var last: Int64 = 0
var grew = true
for await sent in upload.progress {
    grew = grew && sent > last
    last = sent
    events += 1
}
let updated = try await upload.value
let elapsed = ContinuousClock.now - started
sampling.cancel()
peak.see(residentKB())
let growthMB = Double(peak.kb - before) / 1024
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("""
    {"bytes":\(size),"seconds":\(String(format: "%.2f", seconds)),"rssBeforeMB":\(String(format: "%.1f", Double(before) / 1024)),\
    "peakGrowthMB":\(String(format: "%.2f", growthMB)),"progressEvents":\(events),"progressOnlyGrew":\(grew),\
    "lastProgress":\(last),"pdfStored":\(updated.pdfs.additionalProperties["en"] != nil)}
    """)
