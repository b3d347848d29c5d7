import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// `grant --stdin` plans on every core: its results, new ids and files must be exactly
/// those of granting each line in turn.
@Suite(.tags(.unit))
struct BulkGrantOrderTests {
    static let now = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15T12:00:00Z

    /// Random input: existing and new customers, repeats, bad lines, an unreadable profile.
    static func input(_ random: inout SplitMix64) -> String {
        let demo = ["active-renewing", "expired", "grace-period", "manual-active", "manual-scheduled", "lifetime", "refunded", "trial"]
        func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        var lines: [String] = []
        for _ in 0..<(20 + Int(random.next() % 80)) {
            switch random.next() % 10 {
            case 0: lines.append(lines.isEmpty ? "repeat" : pick(lines))
            case 1: lines.append(pick(["  padded", "bad\u{1}id", ""]))
            case 2: lines.append("broken")
            case 3, 4: lines.append(pick(demo))
            default: lines.append("new-\(random.next() % 1000)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func parallelPlanningMatchesOneLineAtATime(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xB01C + seed)
        let lines = BulkGrantInput.parse(Array(Self.input(&random).utf8))
        let directory = TemporaryDirectory()
        let root = directory.copyOfDemoStore()
        writeFile(root + "/profiles/broken.json", "{")
        let store = EntitlementStore(root: root)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        let template = GrantRequest(userID: "", entitlement: "premium", term: .duration(GrantDuration.parse("7d")!!),
                                    reason: "property", actor: "tester")

        // The reference: each line in turn against the store as it was, ids drawn in input order.
        let referenceIDs = IDSequence()
        var expected: [[UInt8]] = []
        var expectedFiles: [String: [UInt8]] = [:]
        let bulk = BulkGrant(store: store, engine: engine, template: template, now: Self.now, newID: { IDSequence().next() })
        for line in lines {
            var result = BulkGrant.Result(line: line)
            if line.problem != nil {
                result.error = bulk.lineError(line)
            } else if line.duplicateOf == nil, let userID = line.userID {
                do {
                    var request = template
                    request.userID = userID
                    let existing = try store.loadProfile(userID: userID)
                    let transactionID = "manual-" + referenceIDs.next()
                    let outcome = try GrantPlanner.apply(request, to: existing, now: Self.now, newTransactionID: transactionID,
                                                         newProfileID: ProfileIdentity.derived(for: userID))
                    result.outcome = outcome
                    result.level = engine.evaluate("premium", for: outcome.profile, at: Self.now).accessLevel
                    expectedFiles[store.profilePath(for: userID)] = JSONWriter().bytes(outcome.profile.json)
                } catch let error as EntitlementError {
                    result.error = error
                } catch let error as GrantError {
                    result.error = .grant(error)
                }
            }
            expected.append(BulkGrantReport.jsonLine(result, dryRun: false, at: Self.now))
        }

        let ids = IDSequence()
        var parallel = BulkGrant(store: store, engine: engine, template: template, now: Self.now, newID: { ids.next() })
        parallel.batchSize = 1 + Int(random.next() % 40)
        parallel.commitLines = 1 + Int(random.next() % 60)
        var emitted: [[UInt8]] = []
        var progress: [Int] = []
        _ = try parallel.run(lines, progress: { progress.append($0) }) { emitted.append(BulkGrantReport.jsonLine($0, dryRun: false, at: Self.now)) }

        #expect(emitted.count == expected.count)
        for (index, (got, want)) in zip(emitted, expected).enumerated() where got != want {
            Issue.record("line \(index + 1) (batch size \(parallel.batchSize), commits of \(parallel.commitLines)): \(String(decoding: got, as: UTF8.self)) != \(String(decoding: want, as: UTF8.self))")
        }
        for (path, bytes) in expectedFiles {
            #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == bytes, "\(path)")
        }
        #expect(progress == progress.sorted() && progress.last == lines.count)
        #expect(!FileManager.default.fileExists(atPath: root + "/.journal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/.tmp").isEmpty)
    }
}
