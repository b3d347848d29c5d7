import Foundation
import Testing
import EntitlementTestSupport

/// Compares `actual` with a golden file in Tests/EntitlementCLITests/Golden.
/// `RECORD_SNAPSHOTS=1 make test` re-records them, on purpose only: a recording run fails
/// ("Recorded new baseline"), so it can never pass by accident; run again without it.
package func expectGolden(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let path = repositoryRoot + "/Tests/EntitlementCLITests/Golden/\(name)"
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        writeFile(path, actual)
        Issue.record("Recorded new baseline Golden/\(name); run the tests again without RECORD_SNAPSHOTS.", sourceLocation: sourceLocation)
        return
    }
    guard let expected = readFile(path) else {
        Issue.record("missing golden file \(name); run RECORD_SNAPSHOTS=1 make test", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
}
