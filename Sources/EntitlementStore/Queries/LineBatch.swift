import Synchronization
import EntitlementBasics

/// The loop of a `--stdin` that answers line by line (`check --stdin`): input is read a
/// chunk at a time, split into lines (`LineBuffer`), the lines of a chunk are answered on
/// every core, and the parts are handed on in input order before the next chunk is read.
/// So output keeps pace with input, and memory holds one chunk at a time.
///
/// What a line's answer is and how it is printed are the caller's: `answer` fills a `Part`
/// on a worker thread, `collect` takes the parts in order on the calling thread.
package struct LineBatch<Part: Sendable> {
    /// Below this many lines in a chunk, one thread answers faster than two.
    static var parallelThreshold: Int { 64 }

    private let workers: Int
    private let parts: PartSlots<Part>
    private var buffer = LineBuffer()
    /// Input line numbers, 1-based; blank lines count (as in `grant --stdin`).
    private var lineNumber = 0

    /// `makePart` makes each thread's part once; a part is kept from chunk to chunk, so its
    /// buffers are reused (`answer` empties it first).
    package init(workers: Int = Parallel.workers, makePart: () -> Part) {
        self.workers = workers
        parts = PartSlots((0..<workers).map { _ in makePart() })
    }

    /// Reads `nextChunk` until it returns nil or `stop` says so; after each chunk's parts
    /// are collected, `afterChunk` runs (a flush, so that answers stream).
    package mutating func run(nextChunk: () -> [UInt8]?, stop: () -> Bool, afterChunk: () -> Void,
                              answer: @Sendable (_ thread: Int, _ part: inout Part, _ lines: ArraySlice<NumberedLine>) -> Void,
                              collect: (inout Part) -> Void) {
        while !stop(), let chunk = nextChunk() {
            answerLines(buffer.feed(chunk), answer: answer, collect: collect)
            afterChunk()
        }
        if let last = buffer.finish() { answerLines([last], answer: answer, collect: collect) }
    }

    private mutating func answerLines(_ slices: [ArraySlice<UInt8>], answer: @Sendable (Int, inout Part, ArraySlice<NumberedLine>) -> Void,
                                      collect: (inout Part) -> Void) {
        guard !slices.isEmpty else { return }
        let lines = slices.map { slice in
            lineNumber += 1
            return NumberedLine(number: lineNumber, bytes: slice)
        }
        let count = lines.count < Self.parallelThreshold || workers == 1 ? 1 : workers
        let size = (lines.count + count - 1) / count
        let parts = self.parts
        WorkerThread.perform(count) { index in
            var part = parts.take(index)
            answer(index, &part, lines[min(index * size, lines.count)..<min((index + 1) * size, lines.count)])
            parts.set(index, part)
        }
        for index in 0..<count {
            var part = parts.take(index)
            collect(&part)
            parts.set(index, part)  // its buffers, for the next chunk
        }
    }
}

/// One input line and its 1-based number.
package struct NumberedLine: Sendable {
    package let number: Int
    package let bytes: ArraySlice<UInt8>
}

/// Per-thread parts of one chunk, moved out while a thread works on one (so that its
/// buffers are never shared, and can be reused).
private final class PartSlots<Part: Sendable>: Sendable {
    private let parts: Mutex<[Part?]>

    init(_ parts: [Part]) { self.parts = Mutex(parts.map { $0 }) }

    func set(_ index: Int, _ part: Part) {
        parts.withLock { $0[index] = part }
    }

    func take(_ index: Int) -> Part {
        parts.withLock { parts in
            defer { parts[index] = nil }
            return parts[index]!
        }
    }
}
