/// Serializes `JSONValue` trees: pretty-printed with sorted keys for files and
/// `--json` output (stable diffs and golden files), or compact for JSON Lines.
@usableFromInline
package struct JSONWriter: Sendable {
    @usableFromInline
    package enum Style: Sendable { case pretty, compact }

    package var style: Style
    package var sortKeys: Bool

    package init(style: Style = .pretty, sortKeys: Bool = true) {
        self.style = style
        self.sortKeys = sortKeys
    }

    /// The text of `value`, ending in a newline when pretty.
    package func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(value, indent: 0, into: &out)
        if style == .pretty { out.append(0x0A) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 bytes of `value`, ending in a newline when pretty.
    package func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(value, indent: 0, into: &out)
        if style == .pretty { out.append(0x0A) }
        return out
    }

    package func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: Self.append("null", to: &out)
        case .bool(let flag): Self.append(flag ? "true" : "false", to: &out)
        case .number(let text): Self.appendUTF8(text, to: &out)
        case .string(let text): Self.writeString(text, into: &out)
        case .array(let items):
            guard !items.isEmpty else { Self.append("[]", to: &out); return }
            out.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &out)
                write(item, indent: indent + 1, into: &out)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { Self.append("{}", to: &out); return }
            out.append(UInt8(ascii: "{"))
            let entries = sortKeys ? Self.sorted(object.entries) : object.entries
            for (offset, entry) in entries.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &out)
                Self.writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if style == .pretty { out.append(UInt8(ascii: " ")) }
                write(entry.value, indent: indent + 1, into: &out)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ indent: Int, into out: inout [UInt8]) {
        guard style == .pretty else { return }
        out.append(0x0A)
        let count = indent * 2
        guard count <= Self.spaces.utf8CodeUnitCount else {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
            return
        }
        out.append(contentsOf: UnsafeBufferPointer(start: Self.spaces.utf8Start, count: count))
    }

    /// Indentation, copied from here rather than built space by space.
    private static let spaces: StaticString = "                                                                "

    /// Appends literal ASCII text (`null`, `[]`) from the binary's own bytes.
    @inline(__always)
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 straight from its storage.
    @inline(__always)
    private static func appendUTF8(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out.append(contentsOf: text.utf8) }
    }

    /// Entries in byte order of their keys. Objects read from files the tool wrote, and
    /// those built in key order, are already sorted: one pass over them, no sort.
    package static func sorted(_ entries: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        var inOrder = true
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices.dropFirst() where !JSONKey.precedes(entries[index - 1].key, entries[index].key) {
                inOrder = false
                return
            }
        }
        return inOrder ? entries : entries.sorted { JSONKey.precedes($0.key, $1.key) }
    }

    @usableFromInline
    package static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them straight from their storage, in runs between
        // the bytes that need an escape (a request body kept as a string is full of quotes).
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                appendEscape(bytes[index], to: &out)
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return true
        }
        if copied != true {
            for byte in text.utf8 {
                if needsEscape(byte) { appendEscape(byte, to: &out) } else { out.append(byte) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: "\\u00".utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }
}
