import Testing
@testable import EntitlementCore

/// Running a program with big input and output at once: nothing blocks, nothing is lost.
struct SubprocessTests {
    /// `cat` echoes its input while it still reads it: a parent that blocked writing its input
    /// (the child blocked writing output nobody drained) would hang here. Sizes from below one
    /// pipe buffer to many, with random bytes (seeded).
    @Test(.timeLimit(.minutes(1)), arguments: [0, 1, 4_095, 65_536, 65_537, 1_000_000, 4_000_000])
    func bigInputAndOutputFlowBothWays(size: Int) throws {
        var random = SplitMix64(seed: UInt64(size) &+ 7)
        let input = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let result = try #require(Subprocess.run(["cat"], environment: ["PATH": "/usr/bin:/bin"], input: input))
        #expect(result.status == 0)
        #expect(result.stdout.count == input.count)
        #expect(result.stdout == input)
    }

    /// A child that exits without reading its input is no error for the parent (no SIGPIPE).
    @Test(.timeLimit(.minutes(1)))
    func aChildThatIgnoresItsInputStillReportsItsExit() throws {
        let input = [UInt8](repeating: 0x41, count: 1_000_000)
        let result = try #require(Subprocess.run(["sh", "-c", "echo done; exit 3"], environment: ["PATH": "/usr/bin:/bin"], input: input))
        #expect(result.status == 3)
        #expect(result.output == "done\n")
    }
}
