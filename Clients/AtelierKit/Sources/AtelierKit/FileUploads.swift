import AtelierAPI
import Foundation

extension MediaClient {
    /// Uploads a photo from a file without reading it into memory, reporting bytes sent
    /// (`FileUpload.progress`). `contentType`: the image's type, or `application/octet-stream`.
    public func uploadMedia(file: URL, contentType: String, query: Operations.UploadMedia.Input.Query = .init()) -> FileUpload<Components.Schemas.Image> {
        var items: [URLQueryItem] = []
        if let visibility = query.visibility { items.append(.init(name: "visibility", value: visibility.rawValue)) }
        if let crop = query.crop { items.append(.init(name: "crop", value: crop)) }
        if let rotate = query.rotate { items.append(.init(name: "rotate", value: String(rotate.rawValue))) }
        if let background = query.background { items.append(.init(name: "background", value: background.rawValue)) }
        return FileUploader(session: session).upload(
            file, method: "POST", path: "/media", query: items, contentType: contentType, as: Components.Schemas.Image.self)
    }
}

extension EditorClient {
    /// Uploads an issue's PDF edition in one language from a file (up to 50 MB), streamed from
    /// disk with progress; it replaces an earlier one.
    public func uploadIssuePDF(file: URL, issueId: String, lang: String) -> FileUpload<Components.Schemas.MagazineEditorIssue> {
        let path = "/magazine/editor/issues/\(issueId)/pdfs/\(lang.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-"))) ?? lang)"
        return FileUploader(session: session).upload(file, method: "PUT", path: path, contentType: "application/pdf", as: Components.Schemas.MagazineEditorIssue.self)
    }
}
