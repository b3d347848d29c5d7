/// A git pack (version 2) of whole objects and its index (`.idx`, version 2), as bytes.
///
/// `ObjectWriter` writes a commit of many files (an `ingest` batch, a bulk grant) as one
/// pack instead of a loose file per object: two files to write and fsync, not thousands.
/// Objects are stored whole (no deltas), each a zlib stream of stored blocks, which every
/// git reads; `git gc` recompresses them later. The formats are git's
/// `Documentation/gitformat-pack.txt`.
struct PackFile {
    /// The object types a pack entry header names (git's `OBJ_COMMIT` … `OBJ_BLOB`).
    static let typeCodes: [String: UInt8] = ["commit": 1, "tree": 2, "blob": 3, "tag": 4]

    /// The `.pack` file: header, entries, SHA-1 trailer.
    private(set) var pack: [UInt8]
    /// The `.idx` file.
    private(set) var index: [UInt8]
    /// The pack's checksum in hex: git names the files `pack-<checksum>.pack` and `.idx`.
    private(set) var name: String

    /// Packs `objects` (id as 20 bytes, type, content); ids must be distinct.
    init(_ objects: [(id: [UInt8], type: String, content: [UInt8])]) {
        var pack: [UInt8] = Array("PACK".utf8)
        Self.appendBigEndian(UInt32(2), to: &pack)
        Self.appendBigEndian(UInt32(objects.count), to: &pack)
        var entries: [(id: [UInt8], crc: UInt32, offset: UInt64)] = []
        entries.reserveCapacity(objects.count)
        for object in objects {
            let start = pack.count
            pack += Self.entryHeader(type: Self.typeCodes[object.type] ?? 3, size: object.content.count)
            pack += ObjectWriter.zlibStored(object.content)
            entries.append((object.id, CRC32.checksum(pack[start...]), UInt64(start)))
        }
        let checksum = SHA1.digest(pack)
        pack += checksum
        self.pack = pack
        self.index = Self.indexFile(entries.sorted { $0.id.lexicographicallyPrecedes($1.id) }, packChecksum: checksum)
        self.name = SHA1.hex(checksum)
    }

    /// An entry's header: the type in bits 6–4 of the first byte, the size in its low four
    /// bits and then seven bits a byte, least significant first; the top bit says "more".
    static func entryHeader(type: UInt8, size: Int) -> [UInt8] {
        var remaining = size >> 4
        var byte = (type << 4) | UInt8(size & 0x0F)
        var header: [UInt8] = []
        while remaining > 0 {
            header.append(byte | 0x80)
            byte = UInt8(remaining & 0x7F)
            remaining >>= 7
        }
        header.append(byte)
        return header
    }

    /// The version 2 index: fan-out table, sorted ids, CRC-32s, offsets (those from 2 GiB on
    /// in a table of 8-byte offsets), the pack's checksum and the index's own.
    private static func indexFile(_ sorted: [(id: [UInt8], crc: UInt32, offset: UInt64)], packChecksum: [UInt8]) -> [UInt8] {
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63]
        appendBigEndian(UInt32(2), to: &index)
        var counts = [UInt32](repeating: 0, count: 256)
        for entry in sorted { counts[Int(entry.id[0])] += 1 }
        var running: UInt32 = 0
        for count in counts {
            running += count
            appendBigEndian(running, to: &index)
        }
        for entry in sorted { index += entry.id }
        for entry in sorted { appendBigEndian(entry.crc, to: &index) }
        var large: [UInt64] = []
        for entry in sorted {
            if entry.offset < 0x8000_0000 {
                appendBigEndian(UInt32(entry.offset), to: &index)
            } else {
                appendBigEndian(0x8000_0000 | UInt32(large.count), to: &index)
                large.append(entry.offset)
            }
        }
        for offset in large {
            appendBigEndian(UInt32(offset >> 32), to: &index)
            appendBigEndian(UInt32(offset & 0xFFFF_FFFF), to: &index)
        }
        index += packChecksum
        index += SHA1.digest(index)
        return index
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib's `crc32`): the pack index's check of each entry.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { value -> UInt32 in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }
}
