import AtelierAPI
import Foundation

/// Bytes of a file sent so far, and its size: what a screen's progress bar draws.
public typealias UploadProgress = (sent: Int64, total: Int64)

extension MediaClient {
    /// Starts a photo upload whose progress a screen shows: `show` gets the bytes sent as they go,
    /// and nil once the upload ended (sent, failed or cancelled).
    @MainActor
    func uploadShowingProgress(file: URL, contentType: String, _ show: @escaping @MainActor (UploadProgress?) -> Void) -> FileUpload<Components.Schemas.Image> {
        let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize).map(Int64.init) ?? 0
        let transfer = uploadMedia(file: file, contentType: contentType)
        show((0, size))
        Task { @MainActor in
            for await sent in transfer.progress { show((sent, size)) }
            show(nil)
        }
        return transfer
    }
}
