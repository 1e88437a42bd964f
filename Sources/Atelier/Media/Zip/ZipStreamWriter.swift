import Foundation
import NIOCore

/// Writes a zip archive to a sink as it goes, holding only the current chunk and the small
/// central directory, never the archive. Entries are stored uncompressed: photos are already
/// compressed. Each entry's CRC and sizes follow its data in a data descriptor, so nothing is
/// read twice; Zip64 records are used when offsets or counts pass the classic format's limits.
public struct ZipStreamWriter {
    public typealias Sink = (ByteBuffer) async throws -> Void

    struct CentralEntry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
        var dosTime: UInt16
        var dosDate: UInt16
    }

    private let sink: Sink
    private var offset: UInt64 = 0
    private var entries: [CentralEntry] = []
    /// Offsets and sizes at or above this use Zip64 fields (lowered in tests to exercise them).
    let zip64Threshold: UInt64

    public init(zip64Threshold: UInt64 = 0xFFFF_FFFF, sink: @escaping Sink) {
        self.sink = sink
        self.zip64Threshold = zip64Threshold
    }

    /// Adds one file, streaming its bytes from `content`.
    public mutating func addEntry<Content: AsyncSequence>(name: String, modified: Date, content: Content) async throws
    where Content.Element == ByteBuffer {
        let nameBytes = Array(name.utf8)
        let (dosTime, dosDate) = Self.dosDateTime(modified)
        let entryOffset = offset

        var header = ByteBuffer()
        header.writeInteger(UInt32(0x0403_4B50), endianness: .little)  // local file header
        header.writeInteger(UInt16(45), endianness: .little)  // version needed (Zip64)
        header.writeInteger(UInt16(0x0808), endianness: .little)  // data descriptor follows; UTF-8 names
        header.writeInteger(UInt16(0), endianness: .little)  // stored
        header.writeInteger(dosTime, endianness: .little)
        header.writeInteger(dosDate, endianness: .little)
        header.writeInteger(UInt32(0), endianness: .little)  // CRC, in the descriptor
        header.writeInteger(UInt32(0), endianness: .little)  // sizes, in the descriptor
        header.writeInteger(UInt32(0), endianness: .little)
        header.writeInteger(UInt16(nameBytes.count), endianness: .little)
        header.writeInteger(UInt16(0), endianness: .little)
        header.writeBytes(nameBytes)
        try await emit(header)

        var crc = CRC32()
        var size: UInt64 = 0
        for try await chunk in content {
            chunk.withUnsafeReadableBytes { crc.update($0) }
            size += UInt64(chunk.readableBytes)
            try await emit(chunk)
        }

        var descriptor = ByteBuffer()
        descriptor.writeInteger(UInt32(0x0807_4B50), endianness: .little)
        descriptor.writeInteger(crc.value, endianness: .little)
        if size >= zip64Threshold {
            descriptor.writeInteger(size, endianness: .little)
            descriptor.writeInteger(size, endianness: .little)
        } else {
            descriptor.writeInteger(UInt32(size), endianness: .little)
            descriptor.writeInteger(UInt32(size), endianness: .little)
        }
        try await emit(descriptor)
        entries.append(.init(name: nameBytes, crc: crc.value, size: size, offset: entryOffset, dosTime: dosTime, dosDate: dosDate))
    }

    /// Writes the central directory and the end records. The writer is done afterwards.
    public mutating func finish() async throws {
        let directoryOffset = offset
        var directory = ByteBuffer()
        for entry in entries {
            var extra = ByteBuffer()
            let bigSize = entry.size >= zip64Threshold
            let bigOffset = entry.offset >= zip64Threshold
            if bigSize || bigOffset {
                var fields = ByteBuffer()
                if bigSize {
                    fields.writeInteger(entry.size, endianness: .little)
                    fields.writeInteger(entry.size, endianness: .little)
                }
                if bigOffset { fields.writeInteger(entry.offset, endianness: .little) }
                extra.writeInteger(UInt16(0x0001), endianness: .little)
                extra.writeInteger(UInt16(fields.readableBytes), endianness: .little)
                extra.writeBuffer(&fields)
            }
            directory.writeInteger(UInt32(0x0201_4B50), endianness: .little)
            directory.writeInteger(UInt16(0x031E), endianness: .little)  // made by: Unix, 3.0
            directory.writeInteger(UInt16(45), endianness: .little)
            directory.writeInteger(UInt16(0x0808), endianness: .little)
            directory.writeInteger(UInt16(0), endianness: .little)
            directory.writeInteger(entry.dosTime, endianness: .little)
            directory.writeInteger(entry.dosDate, endianness: .little)
            directory.writeInteger(entry.crc, endianness: .little)
            directory.writeInteger(bigSize ? UInt32.max : UInt32(entry.size), endianness: .little)
            directory.writeInteger(bigSize ? UInt32.max : UInt32(entry.size), endianness: .little)
            directory.writeInteger(UInt16(entry.name.count), endianness: .little)
            directory.writeInteger(UInt16(extra.readableBytes), endianness: .little)
            directory.writeInteger(UInt16(0), endianness: .little)  // comment
            directory.writeInteger(UInt16(0), endianness: .little)  // disk
            directory.writeInteger(UInt16(0), endianness: .little)  // internal attributes
            directory.writeInteger(UInt32(0o100644) << 16, endianness: .little)  // -rw-r--r--
            directory.writeInteger(bigOffset ? UInt32.max : UInt32(entry.offset), endianness: .little)
            directory.writeBytes(entry.name)
            directory.writeBuffer(&extra)
        }
        let directorySize = UInt64(directory.readableBytes)
        try await emit(directory)

        var end = ByteBuffer()
        let needsZip64 = directoryOffset >= zip64Threshold || entries.count >= 0xFFFF || directorySize >= zip64Threshold
        if needsZip64 {
            let zip64EndOffset = offset
            end.writeInteger(UInt32(0x0606_4B50), endianness: .little)  // Zip64 end of central directory
            end.writeInteger(UInt64(44), endianness: .little)
            end.writeInteger(UInt16(45), endianness: .little)
            end.writeInteger(UInt16(45), endianness: .little)
            end.writeInteger(UInt32(0), endianness: .little)
            end.writeInteger(UInt32(0), endianness: .little)
            end.writeInteger(UInt64(entries.count), endianness: .little)
            end.writeInteger(UInt64(entries.count), endianness: .little)
            end.writeInteger(directorySize, endianness: .little)
            end.writeInteger(directoryOffset, endianness: .little)
            end.writeInteger(UInt32(0x0706_4B50), endianness: .little)  // locator
            end.writeInteger(UInt32(0), endianness: .little)
            end.writeInteger(zip64EndOffset, endianness: .little)
            end.writeInteger(UInt32(1), endianness: .little)
        }
        end.writeInteger(UInt32(0x0605_4B50), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)
        end.writeInteger(UInt16(min(entries.count, 0xFFFF)), endianness: .little)
        end.writeInteger(UInt16(min(entries.count, 0xFFFF)), endianness: .little)
        end.writeInteger(needsZip64 ? UInt32.max : UInt32(directorySize), endianness: .little)
        end.writeInteger(needsZip64 ? UInt32.max : UInt32(directoryOffset), endianness: .little)
        end.writeInteger(UInt16(0), endianness: .little)
        try await emit(end)
        entries.removeAll()
    }

    private mutating func emit(_ buffer: ByteBuffer) async throws {
        offset += UInt64(buffer.readableBytes)
        try await sink(buffer)
    }

    static func dosDateTime(_ date: Date) -> (UInt16, UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = max(1980, parts.year ?? 1980)
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }
}
