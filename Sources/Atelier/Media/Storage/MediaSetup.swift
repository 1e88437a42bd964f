import Vapor

enum MediaSetup {
    static func library(_ app: Application, config: AppConfig, secrets: Secrets) throws -> MediaLibrary {
        try MediaLibrary(
            store: try store(config),
            signer: MediaURLSigner(secret: secrets.urlSigningKey, baseURL: config.publicBaseURL),
            limits: ImageLimits(maxBytes: config.mediaMaxBytes, maxPixels: config.mediaMaxMegapixels * 1_000_000, minSide: config.mediaMinSide),
            imageWorkers: WorkerThreads(threads: System.coreCount),
            uploadsFolder: URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("uploads"))
    }

    /// The configured media store: `DATA_DIR/media` or the S3 bucket.
    static func store(_ config: AppConfig) throws -> any MediaStore {
        switch config.mediaStore {
        case .folder: try LocalMediaStore(root: folder(config))
        case .s3: S3MediaStore(settings: config.s3)
        }
    }

    static func folder(_ config: AppConfig) -> URL {
        URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("media")
    }
}
