import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `ingest` reads (parses and verifies) the next chunk of 256 requests on a thread of its own
/// while it applies the ones before: the outcome must be exactly that of reading them one after
/// the other. Runs of at most 256 requests read nothing ahead, so they are the reference.
@Suite(.tags(.cli))
struct IngestReadAheadTests {
    typealias F = IngestFixtures

    /// 700 requests for 40 customers in a seeded order: renewals, cancellations, duplicates
    /// of earlier events on both sides of every chunk boundary, and malformed lines among them.
    static func requests(seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        var lines: [String] = []
        for index in 0..<700 {
            let user = "user-\(random.next() % 40)"
            switch index % 97 {
            case 13: lines.append("{\"api_version\": \"1.0\", \"event\": {\"type\": \"RENEWAL\", \"id\": \"bad-\(index)\"}}")  // no customer, no product
            case 50 where index > 256: lines.append(lines[index - 7])  // a retry from the chunk before, or this one
            default:
                let day = Int64(random.next() % 300)
                let type = ["INITIAL_PURCHASE", "RENEWAL", "CANCELLATION", "EXPIRATION"][Int(random.next() % 4)]
                lines.append(F.revenueCat(type, id: "e\(index)", at: day, user: user, transaction: "t\(index)", original: "o-\(user)",
                                          purchasedAt: day, expiresAt: day + 30))
            }
        }
        for boundary in [255, 256, 511, 512] { lines[boundary + 1] = lines[boundary] }  // a duplicate across each boundary
        return lines
    }

    /// The store's profiles and event records, by path, after `runs` (each a list of lines for one `ingest --stdin`).
    static func store(after runs: [[String]]) -> (files: [String: String], summaries: [String]) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        var summaries: [String] = []
        for lines in runs {
            let result = runCLI(["ingest", "--stdin", "--json", "--store", store, "--secrets", secrets], stdin: lines.joined(separator: "\n"))
            #expect(result.exitCode == 2, "\(result.stderr)")  // the malformed lines
            summaries.append(result.stdout)
        }
        var files: [String: String] = [:]
        for folder in ["profiles", "ingest/events"] {
            let root = store + "/" + folder
            for path in (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [] where path.hasSuffix(".json") {
                files[folder + "/" + path] = readFile(root + "/" + path)
            }
        }
        return (files, summaries)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func readingAheadChangesNothing(seed: UInt64) throws {
        let lines = Self.requests(seed: seed)
        let together = Self.store(after: [lines])
        let inParts = Self.store(after: stride(from: 0, to: lines.count, by: 200).map { Array(lines[$0..<min($0 + 200, lines.count)]) })
        #expect(together.files.count > 600)
        let differing = Set(together.files.keys).union(inParts.files.keys).filter { together.files[$0] != inParts.files[$0] }
        #expect(differing.isEmpty, "\(differing.count) files differ, e.g. \(differing.sorted().prefix(3))")
        // The counts of the one run are the sums of the parts' counts.
        let total = try counts(together.summaries[0])
        var summed: [String: Int] = [:]
        for summary in inParts.summaries { for (key, value) in try counts(summary) { summed[key, default: 0] += value } }
        #expect(total == summed)
        #expect(total["malformed"] == 8 && total["duplicate"] == 8, "\(total)")
    }

    private func counts(_ json: String) throws -> [String: Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return object.compactMapValues { $0 as? Int }.filter { $0.key != "exit_code" }
    }
}
