import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// `ByteSink`, `JSONStream`'s storage, holds exactly what an array appended the same
    /// bytes would, through every way of writing and every growth.
    struct ByteSinkTests {
        @Test func holdsWhatAnArrayWouldOverGeneratedWrites() {
            var random = SplitMix64(seed: 14_0020)
            for round in 0..<200 {
                let sink = ByteSink(capacity: round % 7)  // tiny capacities: many growths
                var expected: [UInt8] = []
                for _ in 0..<ProfileGenerator.draw(&random, 300) {
                    let length = ProfileGenerator.draw(&random, 100)
                    let chunk = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    switch ProfileGenerator.draw(&random, 5) {
                    case 0:
                        sink.append(chunk.first ?? 0)
                        expected.append(chunk.first ?? 0)
                    case 1:
                        chunk.withUnsafeBufferPointer { sink.append($0) }
                        expected += chunk
                    case 2:
                        sink.append(chunk)
                        expected += chunk
                    case 3:
                        sink.append("static")
                        expected += Array("static".utf8)
                    default:
                        // Room lent for the whole chunk, a prefix of it written.
                        let written = length / 2
                        sink.write(atMost: length) { room in
                            for index in 0..<written { room[index] = chunk[index] }
                            return written
                        }
                        expected += chunk[..<written]
                    }
                    #expect(sink.count == expected.count)
                }
                #expect(sink.array == expected, "round \(round)")
                sink.removeAll()
                #expect(sink.count == 0 && sink.array.isEmpty)
                sink.append("again")
                #expect(sink.array == Array("again".utf8))
            }
        }

        /// A draining sink hands its bytes on in runs of at least the threshold, only when
        /// the writer asks, and the runs and what is left are every byte, in order.
        @Test func drainsInRunsAndLosesNothing() {
            var random = SplitMix64(seed: 14_0030)
            for round in 0..<60 {
                var drained: [[UInt8]] = []
                let sink = ByteSink(capacity: round % 5) { drained.append($0.array) }
                var expected: [UInt8] = []
                for _ in 0..<ProfileGenerator.draw(&random, 400) {
                    let chunk = (0..<ProfileGenerator.draw(&random, 2_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    sink.append(chunk)
                    expected += chunk
                    let before = sink.count
                    if ProfileGenerator.draw(&random, 3) == 0 {
                        sink.drainIfFull()
                        #expect(sink.count == (before >= ByteSink.drainThreshold ? 0 : before))
                    }
                }
                #expect(drained.allSatisfy { $0.count >= ByteSink.drainThreshold }, "round \(round)")
                #expect(drained.flatMap { $0 } + sink.array == expected, "round \(round)")
            }
            // A sink without a drain keeps everything.
            let keeping = ByteSink()
            keeping.append(Array(repeating: 7, count: ByteSink.drainThreshold + 1))
            keeping.drainIfFull()
            #expect(keeping.count == ByteSink.drainThreshold + 1)
        }

        /// Two streams over one sink write one after the other (a batch's lines).
        @Test func streamsShareASinkInOrder() {
            let sink = ByteSink(capacity: 1)
            for id in ["a", "b"] {
                var stream = JSONStream(style: .compact, into: sink)
                stream.beginObject()
                stream.key("id"); stream.string(id)
                stream.endObject()
                stream.raw(0x0A)
            }
            #expect(String(decoding: sink.array, as: UTF8.self) == "{\"id\":\"a\"}\n{\"id\":\"b\"}\n")
        }
    }
}
