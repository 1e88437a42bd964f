import Vapor

enum MediaSetup {
    static func library(_ app: Application, config: AppConfig, secrets: Secrets) throws -> MediaLibrary {
        let store: any MediaStore
        switch config.mediaStore {
        case .folder:
            store = try LocalMediaStore(root: URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("media"))
        case .s3:
            store = S3MediaStore(settings: config.s3)
        }
        return try MediaLibrary(
            store: store,
            signer: MediaURLSigner(secret: secrets.urlSigningKey, baseURL: config.publicBaseURL),
            limits: ImageLimits(maxBytes: config.mediaMaxBytes, maxPixels: config.mediaMaxMegapixels * 1_000_000, minSide: config.mediaMinSide),
            threadPool: app.threadPool,
            workRoot: URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("uploads"))
    }
}
