/// The objects `git cat-file --batch` printed, in request order (nil for a missing one).
enum GitBatchOutput {
    struct Object {
        var id: String
        var type: String
        var content: [UInt8]
    }

    static func parse(_ bytes: [UInt8]) -> [Object?] {
        var scanner = Scanner()
        scanner.scan(bytes, atEnd: true)
        return scanner.objects
    }

    /// Reads the answers as they arrive: each call parses only what came since the last one.
    struct Scanner {
        private(set) var objects: [Object?] = []
        private var offset = 0

        /// Parses every whole answer in `bytes` past those already parsed. With `atEnd`, a
        /// header whose object is cut short counts as a missing object (as `parse` always did).
        mutating func scan(_ bytes: [UInt8], atEnd: Bool = false) {
            while offset < bytes.count, let newline = bytes[offset...].firstIndex(of: 0x0A) {
                let header = String(decoding: bytes[offset..<newline], as: UTF8.self).split(separator: " ")
                guard header.count == 3, let size = Int(header[2]) else {
                    // `<name> missing`, `<name> ambiguous`.
                    objects.append(nil)
                    offset = newline + 1
                    continue
                }
                let start = newline + 1
                guard start + size <= bytes.count else {
                    if atEnd { objects.append(nil); offset = start; continue }
                    return
                }
                // The object is followed by a newline, which may not have arrived yet.
                guard atEnd || start + size < bytes.count else { return }
                objects.append(Object(id: String(header[0]), type: String(header[1]), content: Array(bytes[start..<(start + size)])))
                offset = start + size + 1
            }
        }
    }
}
