import Foundation
import Glibc
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// Running a program with big input and output at once: nothing blocks, nothing is lost.
/// The time limits catch a hang (a run that waits for itself), not slowness: a test counts as
/// started before its body gets a thread, and the long synchronous team-store suites can hold
/// the shared test threads for minutes, so a tight limit failed healthy runs (2 cores, make test).
@Suite(.tags(.unit))
struct SubprocessTests {
    /// `cat` echoes its input while it still reads it: a parent that blocked writing its input
    /// (the child blocked writing output nobody drained) would hang here. Sizes from below one
    /// pipe buffer to many, with random bytes (seeded).
    @Test(.timeLimit(.minutes(10)), arguments: [0, 1, 4_095, 65_536, 65_537, 1_000_000, 4_000_000])
    func bigInputAndOutputFlowBothWays(size: Int) throws {
        var random = SplitMix64(seed: UInt64(size) &+ 7)
        let input = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let result = try #require(Subprocess.run(["cat"], environment: ["PATH": "/usr/bin:/bin"], input: input))
        #expect(result.status == 0)
        #expect(result.stdout.count == input.count)
        #expect(result.stdout == input)
    }

    /// A child that exits without reading its input is no error for the parent (no SIGPIPE).
    @Test(.timeLimit(.minutes(10)))
    func aChildThatIgnoresItsInputStillReportsItsExit() throws {
        let input = [UInt8](repeating: 0x41, count: 1_000_000)
        let result = try #require(Subprocess.run(["sh", "-c", "echo done; exit 3"], environment: ["PATH": "/usr/bin:/bin"], input: input))
        #expect(result.status == 3)
        #expect(result.output == "done\n")
    }

    /// Both ends of every pipe are closed on exec, so a child started by another thread never
    /// holds this run's pipes open (two runs at once then each waited for the other's input).
    @Test func pipesAreClosedOnExec() throws {
        let ends = try #require(Subprocess.makePipe())
        defer { ends.forEach { close($0) } }
        for fd in ends { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0) }
    }

    /// Runs at once from several threads, each echoing its own input through `cat`.
    @Test(.timeLimit(.minutes(10)))
    func runsAtOnceFromManyThreadsEachFinish() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let input = [UInt8](repeating: UInt8(index), count: 200_000)
                    let result = Subprocess.run(["cat"], environment: ["PATH": "/usr/bin:/bin"], input: input)
                    return result?.stdout == input
                }
            }
            for try await echoed in group { #expect(echoed) }
        }
    }

    /// A cancelled run stops at once, its whole process group with it (the child's own child
    /// too), and says it was cancelled, not timed out.
    @Test(.timeLimit(.minutes(10)))
    func aCancelledRunKillsItsGroupAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let pidFile = directory.path + "/grandchild"
        let cancellation = Subprocess.Cancellation()
        let script = "sleep 300 & echo $! > \"$1\"; echo started; wait"
        let canceller = WorkerThread.start {
            // Cancels once the grandchild is running (its pid written), however long that takes.
            while (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") != true { usleep(10_000) }
            cancellation.cancel()
        }
        let result = try #require(Subprocess.run(["sh", "-c", script, "sh", pidFile], environment: ["PATH": "/usr/bin:/bin"],
                                                 cancellation: cancellation))
        canceller?.wait()
        #expect(result.cancelled)
        #expect(!result.timedOut)
        #expect(!result.succeeded)
        let grandchild = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed with its group; once reaped by init it no longer exists (a zombie may linger a moment).
        var gone = false
        for _ in 0..<500 where !gone {
            gone = kill(grandchild, 0) != 0 || (try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the grandchild was killed with the group")
    }

    /// A run never cancelled ends as it would without a cancellation.
    @Test func anUncancelledRunEndsNormally() throws {
        let result = try #require(Subprocess.run(["sh", "-c", "echo ok"], environment: ["PATH": "/usr/bin:/bin"], cancellation: .init()))
        #expect(result.succeeded && result.output == "ok\n" && !result.cancelled)
    }
}
