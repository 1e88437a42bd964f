import Fluent
import Foundation
import OpenAPIRuntime
import ZIPFoundation

/// Bulk import of a store's products from a CSV (one row per variant, format in
/// docs/catalog-import.md) and a zip of their photos. Every row is checked before anything is
/// written. A dry run returns the errors in its report; a real run with errors throws a 422 whose
/// field errors read "row 5, brand" and writes nothing. Otherwise the photos are ingested, then all
/// products are created in one transaction; if anything fails, the ingested photos are deleted again.
struct ProductImport {
    struct RowError: Sendable, Equatable, CustomStringConvertible {
        /// The row as a spreadsheet numbers it: the header is row 1, the first product row is 2.
        var row: Int
        /// The header name of the column; "" for the row as a whole.
        var column: String
        var message: String

        var field: String { column.isEmpty ? "row \(row)" : "row \(row), \(column)" }
        var description: String { "\(field): \(message)" }
    }

    /// What the file holds (dry run) or what was imported (real run).
    struct Report: Sendable {
        var products: Int
        var variants: Int
        var photos: Int
        var errors: [RowError]
    }

    static let columns: Set<String> = [
        "handle", "title", "description", "brand", "category", "gender", "price", "original_price", "currency", "colors",
        "color_name", "fabric", "styles", "size", "variant_color", "stock", "sku", "photos", "status", "min_age", "external_url",
    ]
    static let requiredColumns = ["handle", "title", "category", "price", "currency", "size", "photos"]

    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let mediaLibrary: MediaLibrary

    func run(
        storeID: UUID, csv: Data, photos zip: URL?, dryRun: Bool, by user: User, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Report {
        let store = try await StoreAccess(db: db).managedStore(storeID.idString, by: user)
        let archive = try zip.map(Self.openArchive)
        let index = archive.map { PhotoIndex($0, maxBytes: mediaLibrary.limits.maxBytes) }
        let (groups, headerErrors) = Self.parse(csv)
        var errors = headerErrors
        let variantCount = groups.reduce(0) { $0 + $1.count }
        let photoCount = groups.reduce(0) { $0 + Self.list($1[0]["photos"]).count }
        let total = dryRun ? variantCount : 2 * variantCount + photoCount
        var done = 0

        let lookups = try await lookups(for: groups, storeID: storeID)
        var plans: [Planned] = []
        for rows in groups {
            let (planned, rowErrors) = try await plan(rows, lookups: lookups, photos: index, storeID: storeID, user: user)
            plans.append(planned)
            errors += rowErrors
            done += rows.count
            progress?(done, total)
        }
        errors = errors.enumerated().sorted { ($0.element.row, $0.offset) < ($1.element.row, $1.offset) }.map(\.element)
        let report = Report(products: groups.count, variants: variantCount, photos: photoCount, errors: errors)
        if dryRun { return report }
        guard errors.isEmpty, let archive else { throw Self.problem(errors) }

        var ingested: [Media] = []
        do {
            for planIndex in plans.indices {
                for path in plans[planIndex].photos {
                    let media = try await ingest(path, from: archive, by: user, row: plans[planIndex].rows[0].number)
                    ingested.append(media)
                    plans[planIndex].draft.photoIDs.append(try media.requireID())
                    done += 1
                    progress?(done, total)
                }
            }
            let ready = plans
            let written = done
            try await db.transaction { tx in
                let products = ProductService(db: tx, core: core, catalogChanges: catalogChanges, catalogIndexing: catalogIndexing, mediaLibrary: mediaLibrary)
                var done = written
                for plan in ready {
                    do {
                        _ = try await products.create(in: store, draft: plan.draft, by: user)
                    } catch let problem as Problem where problem.status == .unprocessableEntity {
                        throw Self.problem(Self.rowErrors(problem, rows: plan.rows))
                    }
                    done += plan.rows.count
                    progress?(done, total)
                }
            }
            await catalogChanges.announce()
        } catch {
            let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
            for row in ingested { try? await media.delete(row) }
            throw error
        }
        return report
    }

    /// The 422 a real run throws: one field error per row error, named like "row 5, brand".
    static func problem(_ errors: [RowError]) -> Problem {
        let rows = Set(errors.map(\.row)).count
        return Problem.validation(
            errors.map { Problem.FieldError(field: $0.field, message: $0.message) },
            detail: "\(rows) \(rows == 1 ? "row has" : "rows have") problems; nothing was imported.")
    }

    // MARK: Reading the file

    struct Row: Sendable {
        var number: Int
        var values: [String: String]
        subscript(column: String) -> String { values[column]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
    }

    /// One product to create: its rows, its draft (photo ids are filled in once ingested) and its photos' zip paths.
    struct Planned: Sendable {
        var rows: [Row]
        var draft: ProductDraft
        var photos: [String]
    }

    /// The data rows grouped by handle, in the order handles first appear, and the header's errors.
    private static func parse(_ csv: Data) -> ([[Row]], [RowError]) {
        let records: [[String]]
        do {
            records = try CSVReader.records(csv)
        } catch {
            return ([], [RowError(row: error.record, column: "", message: error.message)])
        }
        let names = (records.first ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
        guard names.contains(where: { !$0.isEmpty }) else {
            return ([], [RowError(row: 1, column: "", message: "the file is empty; its first row must name the columns")])
        }
        var errors: [RowError] = []
        var seen = Set<String>()
        for name in names where !name.isEmpty {
            if !columns.contains(name) {
                errors.append(RowError(row: 1, column: name, message: "is not a column we know"))
            } else if !seen.insert(name).inserted {
                errors.append(RowError(row: 1, column: name, message: "appears twice"))
            }
        }
        let missing = requiredColumns.filter { !seen.contains($0) }
        errors += missing.map { RowError(row: 1, column: $0, message: "is missing from the header") }
        guard missing.isEmpty else { return ([], errors) }

        var groups: [[Row]] = []
        var groupOfHandle: [String: Int] = [:]
        for (offset, fields) in records.enumerated().dropFirst() {
            let number = offset + 1
            let blank = { (field: String) in field.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            if fields.allSatisfy(blank) { continue }
            if fields.count > names.count, !fields[names.count...].allSatisfy(blank) {
                errors.append(RowError(row: number, column: "", message: "has more fields than the header has columns"))
            }
            var values: [String: String] = [:]
            for (name, value) in zip(names, fields) where !name.isEmpty && values[name] == nil { values[name] = value }
            let row = Row(number: number, values: values)
            let handle = row["handle"]
            guard !handle.isEmpty else {
                errors.append(RowError(row: number, column: "handle", message: "is required (the rows of one product share it)"))
                continue
            }
            if let group = groupOfHandle[handle] {
                groups[group].append(row)
            } else {
                groupOfHandle[handle] = groups.count
                groups.append([row])
            }
        }
        if groups.isEmpty, errors.isEmpty { errors.append(RowError(row: 2, column: "", message: "there are no products under the header")) }
        return (groups, errors)
    }

    /// A `;`-separated list, without empty items.
    static func list(_ text: String) -> [String] {
        text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func openArchive(_ url: URL) throws -> Archive {
        do {
            return try Archive(url: url, accessMode: .read)
        } catch {
            throw Problem.invalid("photos", "\(url.lastPathComponent) is not a zip file that can be read")
        }
    }

    private func ingest(_ path: String, from archive: Archive, by user: User, row: Int) async throws -> Media {
        var bytes: [UInt8] = []
        do {
            guard let entry = archive[path] else { throw CocoaError(.fileNoSuchFile) }
            bytes.reserveCapacity(Int(entry.uncompressedSize))
            _ = try archive.extract(entry) { bytes.append(contentsOf: $0) }
        } catch {
            throw Self.problem([RowError(row: row, column: "photos", message: "\(path) could not be read from the zip")])
        }
        let upload = MediaService.Upload(
            uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: nil, filename: path), edits: .init(),
            visibility: .private)
        do {
            return try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).ingest(upload, body: HTTPBody(bytes))
        } catch let problem as Problem where problem.status.code < 500 {
            throw Self.problem([RowError(row: row, column: "photos", message: "\(path): \(problem.detail ?? problem.title)")])
        }
    }
}
