import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// A customer with thousands of aliases costs linear work: `verify` reads the profile once for
/// all of its alias entries (counted in bytes read through the file system seam, never a
/// clock), and the alias index changes of a write take one lookup per alias (counted entries).
/// Each size is 4× the last; linear work grows about 4×, the old per-entry reads 16×.
@Suite(.tags(.unit))
struct AliasWorkTests {
    static let sizes = [250, 1_000, 4_000]

    /// A store whose one customer lists `count` aliases, each with its index entry.
    static func store(_ count: Int, in directory: TemporaryDirectory) -> String {
        let root = directory.store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["monthly"]}}}"#)
        let aliases = (0..<count).map { "anon-\($0)" }
        let profile = IngestLikeProfile.json(user: "many", aliases: aliases)
        writeFile(root + "/profiles/many.json", profile)
        try! FileManager.default.createDirectory(atPath: root + "/index/alias", withIntermediateDirectories: true)
        for alias in aliases { writeFile(root + "/index/alias/\(alias)", "many") }
        return root
    }

    @Test func verifyReadsEachCustomerOnceForItsAliases() throws {
        var bytes: [Int] = []
        for size in Self.sizes {
            let directory = TemporaryDirectory()
            let counter = ReadCounter()
            let store = counter.counting(EntitlementStore(root: Self.store(size, in: directory)))
            let report = try StoreVerifier(store: store).run()
            #expect(report.isClean, "\(report.problems.prefix(3))")
            bytes.append(counter.bytes)
        }
        for (smaller, larger) in zip(bytes, bytes.dropFirst()) {
            #expect(Double(larger) < 6 * Double(smaller), "bytes read grew \(Double(larger) / Double(smaller))×: \(bytes)")
        }
    }

    @Test func aliasIndexChangesAreOneEntryPerAlias() throws {
        for size in Self.sizes {
            let directory = TemporaryDirectory()
            let store = EntitlementStore(root: directory.store())
            var profile = Profile(profileID: "p", customerUserID: "many", createdAt: Date(timeIntervalSince1970: 0))
            profile.raw[IngestRecordKeys.aliases] = .array((0..<size).map { .string("anon-\($0)") })
            // The same customer twice in one write (two events in a batch): still one entry per alias.
            let changes = try store.aliasIndexChanges(for: [profile, profile])
            #expect(changes.count == size)
            #expect(Set(changes.map(\.path)).count == size)
        }
    }
}

/// A profile as ingest writes one with aliases.
enum IngestLikeProfile {
    static func json(user: String, aliases: [String]) -> String {
        let list = aliases.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"schema_version": 1, "customer_user_id": "\#(user)", "aliases": [\#(list)], "transactions": []}"#
    }
}
