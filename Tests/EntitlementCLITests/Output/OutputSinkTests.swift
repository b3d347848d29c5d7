import Glibc
import Synchronization
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
import EntitlementTestSupport

extension UnitTests {
    /// `OutputSink`, standard output over a `ByteSink`: what the reader of the descriptor gets.
    struct OutputSinkTests {
        /// Standard output writes a large run straight from the caller's bytes (a batch's
        /// answers for a chunk, a drained `status --json` run), after what it buffered and
        /// before what comes next: the reader sees every byte, in order.
        @Test func largeRunsAreWrittenInOrderWithTheBuffer() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            let runSink = ByteSink(capacity: 70_000)
            runSink.append(Array(repeating: 0x41, count: 70_000))
            let expected = Array("head".utf8) + big + Array("mid".utf8) + Array(repeating: 0x41, count: 70_000) + Array("tail".utf8)
            let received = Mutex<[UInt8]>([])
            let reader = try #require(WorkerThread.start {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let got = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, $0.count) }
                    guard got > 0 else { break }
                    received.withLock { $0 += buffer[..<got] }
                }
            })
            let sink = OutputSink(fileDescriptor: writeEnd)
            sink.write("head")
            sink.write(bytes: big)
            sink.write("mid")
            sink.write(runSink)
            sink.write("tail")
            sink.flush()
            close(writeEnd)
            reader.wait()
            close(readEnd)
            #expect(received.withLock { $0 } == expected)
            #expect(sink.writeError == nil)
        }
    }
}
