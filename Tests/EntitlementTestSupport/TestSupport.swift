import Foundation
import Synchronization
import EntitlementBasics

/// The fixed instant the demo store is described at (Fixtures/README.md).
package let demoDate = ISODate.parse("2026-01-15T12:00:00Z")!

/// The repository root, found from this file's path.
package let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

package let demoStorePath = repositoryRoot + "/Fixtures/demo-store"

/// What one in-process run of the CLI printed and returned.
package struct CLIResult {
    package var stdout: String
    package var stderr: String
    package var exitCode: Int32

    package init(stdout: String, stderr: String, exitCode: Int32) {
        self.stdout = stdout
        self.stderr = stderr
        self.exitCode = exitCode
    }
}

/// Ids in sequence (`00000000-0000-4000-8000-000000000001`, …), so output with new ids can be a golden file.
/// Share one across the runs of a test: ids must stay unique within a store.
package final class SequentialIDs: Sendable {
    private let next = Mutex(1)

    package init() {}

    package func callAsFunction() -> String {
        let number = next.withLock { value in
            defer { value += 1 }
            return value
        }
        let digits = String(number)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    package var generator: @Sendable () -> String { { self() } }
}

/// Deterministic ids: `id-1`, `id-2`, … after a prefix.
package final class IDSequence: Sendable {
    private let counter = Mutex(0)
    package let prefix: String

    package init(prefix: String = "") { self.prefix = prefix }

    package func next() -> String {
        "\(prefix)id-\(counter.withLock { value -> Int in value += 1; return value })"
    }
}

/// A clock that gives the instants it was made with, one per reading, then the last again:
/// time passing inside one run, deterministically.
package final class SteppingClock: Sendable {
    private let readings = Mutex(0)
    package let instants: [Date]

    package init(_ instants: [Date]) { self.instants = instants }

    package func next() -> Date { instants[min(readings.withLock { value -> Int in value += 1; return value } - 1, instants.count - 1)] }
}

/// A fresh temporary directory for one test, removed when the value is released.
package final class TemporaryDirectory {
    package let path: String

    package init() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("entitlement-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A copy of the demo store inside this directory.
    package func copyOfDemoStore() -> String {
        let destination = path + "/store"
        try! FileManager.default.copyItem(atPath: demoStorePath, toPath: destination)
        return destination
    }

    /// An empty store with the given configuration JSON.
    package func store(config: String = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.monthly"]}}}"#) -> String {
        let root = path + "/store"
        try! FileManager.default.createDirectory(atPath: root + "/profiles", withIntermediateDirectories: true)
        try! config.write(toFile: root + "/config.json", atomically: true, encoding: .utf8)
        return root
    }
}

package func readFile(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

package func writeFile(_ path: String, _ text: String) {
    try! text.write(toFile: path, atomically: false, encoding: .utf8)
}

/// Whether a program is on PATH; tests that need one skip (with the reason) when it is not.
package func programAvailable(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}
