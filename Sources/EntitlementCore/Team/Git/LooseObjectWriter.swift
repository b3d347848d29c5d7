#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes git objects straight into `.git/objects` as loose objects.
///
/// A commit then costs no process per file or directory. The objects are zlib streams of
/// stored (uncompressed) blocks, which every git reads; `git gc` packs them later.
struct LooseObjectWriter {
    let objectsDirectory: String
    var durable = true

    /// Stores an object of `type` with `content` unless it exists; returns its id.
    @discardableResult
    func write(type: String, content: [UInt8]) throws(EntitlementError) -> String {
        let raw = Array("\(type) \(content.count)\0".utf8) + content
        let id = SHA1.hex(SHA1.digest(raw))
        let directory = "\(objectsDirectory)/\(id.prefix(2))"
        let path = "\(directory)/\(id.dropFirst(2))"
        if GitFiles.exists(path) { return id }
        try GitFiles.makeDirectory(directory)
        try GitFiles.writeAtomically(Self.zlibStored(raw), to: path, durable: durable)
        return id
    }

    /// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, 3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(length & 0xFF)); out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF)); out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: data[offset..<(offset + length)])
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: adler >> UInt32(shift))) }
        return out
    }
}
