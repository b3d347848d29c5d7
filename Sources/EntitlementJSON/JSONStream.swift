import FoundationEssentials
import EntitlementBasics

/// Writes JSON text straight into bytes, as `JSONWriter` would write the same tree, without
/// building the tree: for output that is computed as it is written (`status --json`,
/// `check --stdin`). The caller writes each object's keys in byte order (the writer's
/// sorted order); debug builds check it.
///
/// The bytes go into a `ByteSink`: a stream is passed `inout` and never copied. Its writes are
/// `@inlinable`: `status --json` and `check --stdin` write through it from the CLI module.
@usableFromInline
package struct JSONStream {
    @usableFromInline package let sink: ByteSink
    @usableFromInline package let style: JSONWriter.Style
    @usableFromInline var depth = 0
    /// True until the open container has its first member.
    @usableFromInline var first = true
    #if DEBUG
    @usableFromInline var lastKeys: [[UInt8]?] = [nil]
    #endif

    package init(style: JSONWriter.Style = .pretty, capacity: Int = 1024) {
        self.style = style
        sink = ByteSink(capacity: capacity)
    }

    /// A stream that writes into `sink`, after what it holds (a batch reuses one sink).
    package init(style: JSONWriter.Style, into sink: ByteSink) {
        self.style = style
        self.sink = sink
    }

    /// A copy of the bytes written.
    package var bytes: [UInt8] { sink.array }

    @inlinable package mutating func beginObject() { open(UInt8(ascii: "{")) }
    @inlinable package mutating func endObject() { close(UInt8(ascii: "}")) }
    @inlinable mutating func beginArray() { open(UInt8(ascii: "[")) }
    @inlinable mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next member of the open object.
    @inlinable @inline(__always)
    package mutating func key(_ key: StaticString) {
        startMember()
        sink.append(UInt8(ascii: "\""))
        sink.append(key)
        sink.append(UInt8(ascii: "\""))
        #if DEBUG
        checkOrder(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        #endif
        afterKey()
    }

    /// A key that is not a literal (an entitlement or product id); literals take `key(_:)`.
    @inlinable
    package mutating func key(named key: String) {
        startMember()
        Self.writeString(key, into: sink)
        #if DEBUG
        let keyBytes = Array(key.utf8)
        keyBytes.withUnsafeBufferPointer { checkOrder($0) }
        #endif
        afterKey()
    }

    /// Starts the next element of the open array.
    @inlinable package mutating func element() { startMember() }

    @inlinable @inline(__always)
    package mutating func string(_ text: String?) {
        guard let text else { return null() }
        Self.writeString(text, into: sink)
    }

    /// `JSONWriter.writeString` into a sink, with the common case (nothing to escape)
    /// copied straight from the string's storage.
    @inlinable @inline(__always)
    package static func writeString(_ text: String, into sink: ByteSink) {
        // The string's own storage, borrowed: a mutable copy for `withUTF8` cost a retain
        // and a release per string written (atomic, and a miss on a string not yet touched).
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return false }
            sink.append(UInt8(ascii: "\""))
            sink.append(utf8)
            sink.append(UInt8(ascii: "\""))
            return true
        } ?? false
        if !plain {
            var escaped: [UInt8] = []
            JSONWriter.writeString(text, into: &escaped)
            sink.append(escaped)
        }
    }

    @inlinable @inline(__always)
    package mutating func bool(_ flag: Bool) { literal(flag ? "true" : "false") }
    @inlinable @inline(__always)
    package mutating func null() { literal("null") }

    /// A date as `ISODate.format` writes it, or null.
    @inlinable @inline(__always)
    package mutating func date(_ date: Date?) {
        guard let date else { return null() }
        sink.append(UInt8(ascii: "\""))
        ISODate.append(date, to: sink)
        sink.append(UInt8(ascii: "\""))
    }

    /// An integer, in decimal.
    @inlinable
    package mutating func int(_ number: Int) {
        var text = String(number)
        text.withUTF8 { sink.append($0) }
    }

    /// A tree value, written by `JSONWriter` at this depth.
    package mutating func value(_ value: JSONValue) {
        var bytes: [UInt8] = []
        JSONWriter(style: style).write(value, indent: depth, into: &bytes)
        sink.append(bytes)
    }

    /// Appends bytes written elsewhere (a newline between records).
    @inlinable package mutating func raw(_ byte: UInt8) { sink.append(byte) }

    /// A value the caller writes itself, in this stream's spelling, at the current depth
    /// (a renderer's fast path for a large value).
    @inlinable
    package mutating func value(writtenBy write: (_ depth: Int, _ sink: ByteSink) -> Void) {
        write(depth, sink)
    }

    // MARK: Layout

    @inlinable @inline(__always)
    mutating func literal(_ text: StaticString) {
        sink.append(text)
    }

    @inlinable
    mutating func open(_ bracket: UInt8) {
        sink.append(bracket)
        depth += 1
        first = true
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    @inlinable
    mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !first { newline() }
        sink.append(bracket)
        first = false
        #if DEBUG
        lastKeys.removeLast()
        #endif
    }

    @inlinable @inline(__always)
    mutating func startMember() {
        if !first { sink.append(UInt8(ascii: ",")) }
        first = false
        newline()
    }

    @inlinable @inline(__always)
    mutating func afterKey() {
        sink.append(UInt8(ascii: ":"))
        if style == .pretty { sink.append(UInt8(ascii: " ")) }
    }

    @inlinable @inline(__always)
    mutating func newline() {
        guard style == .pretty else { return }
        sink.append(0x0A)
        let count = depth * 2
        guard count <= Self.spaces.utf8CodeUnitCount else { return sink.append(Array(repeating: UInt8(ascii: " "), count: count)) }
        sink.append(UnsafeBufferPointer(start: Self.spaces.utf8Start, count: count))
    }

    @usableFromInline static let spaces: StaticString = "                                "

    /// Debug builds only; not inlinable, so that the inlined writes need not see `JSONKey`.
    @usableFromInline
    mutating func checkOrder(_ key: UnsafeBufferPointer<UInt8>) {
        #if DEBUG
        if let last = lastKeys[lastKeys.count - 1] {
            assert(last.withUnsafeBufferPointer { JSONKey.compare($0, key) < 0 }, "keys out of order: \(String(decoding: key, as: UTF8.self))")
        }
        lastKeys[lastKeys.count - 1] = Array(key)
        #endif
    }
}
