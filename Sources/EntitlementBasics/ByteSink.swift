/// A growing run of bytes written through a pointer: the storage of `JSONStream`.
///
/// `[UInt8].append` checks the array's uniqueness and capacity on every call, and copies a
/// buffer through an iterator; the JSON line of one `check --stdin` answer took about a
/// hundred such appends, a fifth of the batch's instructions. Here an append is one
/// capacity check and a copy. A class, so that a stream passed `inout` never copies it.
/// The appends are `@inlinable` (state `@usableFromInline`): the JSON writers that call them
/// per byte are in other modules, where a call each would cost more than the copy.
/// Its state is `@exclusivity(unchecked)`: inlined into other modules, each access would
/// otherwise be checked at run time, and a sink is written by one writer at a time, with no
/// access that overlaps another (no property is ever passed `inout`).
@usableFromInline
package final class ByteSink {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    /// Where the bytes go on at `drainIfFull()`; nil keeps them all.
    @usableFromInline let drain: ((ByteSink) -> Void)?
    /// How many bytes `drainIfFull()` lets gather before it hands them on.
    @usableFromInline package static let drainThreshold = 64 * 1024

    /// A sink that keeps everything written, or, with `drain`, hands its bytes on in runs of
    /// at least `drainThreshold` bytes whenever the writer calls `drainIfFull()` (a large
    /// document is then written out as it is made, and never held whole).
    package init(capacity: Int = 1024, drain: ((ByteSink) -> Void)? = nil) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        self.drain = drain
    }

    deinit { base.deallocate() }

    /// Lends the bytes written so far to `body`; the sink stays alive while it runs.
    @inlinable
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes written so far.
    package var array: [UInt8] { withBytes { Array($0) } }

    /// Forgets what was written, keeping the memory for the next use.
    @inlinable
    package func removeAll() { count = 0 }

    /// Hands the bytes written to the drain, and forgets them, once there are at least
    /// `drainThreshold` of them; a writer calls it between the parts of a large document.
    @inlinable @inline(__always)
    package func drainIfFull() {
        guard count >= Self.drainThreshold, let drain else { return }
        drain(self)
        count = 0
    }

    @inlinable @inline(__always)
    package func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base[count] = byte
        count += 1
    }

    @inlinable @inline(__always)
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inlinable @inline(__always)
    package func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Lends room for at most `maximum` more bytes; `body` fills a prefix of it and returns
    /// how many bytes it wrote.
    @inlinable @inline(__always)
    package func write(atMost maximum: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        if capacity - count < maximum { grow(maximum) }
        let written = body(UnsafeMutableBufferPointer(start: base + count, count: maximum))
        precondition(written >= 0 && written <= maximum, "wrote outside the room lent")
        count += written
    }

    @usableFromInline
    func grow(_ needed: Int) {
        let newCapacity = max(capacity * 2, count + needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
