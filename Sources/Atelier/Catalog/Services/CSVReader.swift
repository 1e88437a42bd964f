import Foundation

/// Reads RFC 4180 CSV: comma-separated, fields optionally in double quotes (a quoted field may hold
/// commas, line breaks and doubled quotes), records ended by CRLF, LF or CR, an optional UTF-8 BOM.
/// A quote inside an unquoted field is kept as it is; text after a closing quote is an error.
enum CSVReader {
    struct Failure: Error, Equatable, Sendable {
        /// 1-based record number (the row a spreadsheet shows).
        var record: Int
        var message: String
    }

    static func records(_ data: Data) throws(Failure) -> [[String]] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure(record: 1, message: "the file is not UTF-8 text")
        }
        return try records(text)
    }

    static func records(_ text: String) throws(Failure) -> [[String]] {
        var bytes = Array(text.utf8)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }

        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = bytes.startIndex
        var inRecord = false

        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            endField()
            records.append(record)
            record = []
            inRecord = false
        }
        /// Consumes a line break at `index` (CRLF counts as one); false when there is none.
        func consumeLineBreak() -> Bool {
            guard index < bytes.endIndex else { return false }
            if bytes[index] == cr {
                index += 1
                if index < bytes.endIndex, bytes[index] == lf { index += 1 }
                return true
            }
            if bytes[index] == lf {
                index += 1
                return true
            }
            return false
        }

        while index < bytes.endIndex {
            inRecord = true
            if bytes[index] == quote, field.isEmpty {
                let startedAt = records.count + 1
                index += 1
                var closed = false
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    index += 1
                    if byte == quote {
                        if index < bytes.endIndex, bytes[index] == quote {
                            field.append(quote)
                            index += 1
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        field.append(byte)
                    }
                }
                guard closed else { throw Failure(record: startedAt, message: "a quoted field is never closed") }
                if index == bytes.endIndex { break }
                if bytes[index] == comma {
                    index += 1
                    endField()
                } else if consumeLineBreak() {
                    endRecord()
                } else {
                    throw Failure(record: records.count + 1, message: "text follows a closing quote (write a quote inside quotes as \"\")")
                }
                continue
            }
            let byte = bytes[index]
            if byte == comma {
                index += 1
                endField()
            } else if consumeLineBreak() {
                endRecord()
            } else {
                field.append(byte)
                index += 1
            }
        }
        // The last record, unless the text ended with a line break (or was empty).
        if inRecord { endRecord() }
        return records
    }
}
