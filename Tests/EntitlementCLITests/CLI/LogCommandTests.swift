import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `entitlement log` in-process on plain stores (fixed clock), and on a team store with
/// real git through the binary.
@Suite(.tags(.cli))
struct LogCommandTests {
    static let day: TimeInterval = 86_400

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// A store where three agents grant, revoke and restore across customers on known days.
    static func busyStore(_ directory: TemporaryDirectory) -> String {
        let store = directory.path + "/store"
        _ = runCLI(["init", "--store", store, "--entitlement", "premium", "--entitlement", "sports"])
        let start = ISODate.parse("2026-03-01T10:00:00Z")!
        func at(_ days: Double) -> Date { start.addingTimeInterval(days * day) }
        _ = runCLI(["grant", "bob", "premium", "--duration", "1m", "--actor", "Dana <dana@example.com>", "--reason", "INC-1", "--store", store], now: at(0))
        _ = runCLI(["grant", "amy", "sports", "--duration", "1w", "--actor", "lee", "--reason", "promo", "--store", store], now: at(1))
        _ = runCLI(["revoke", "bob", "premium", "--yes", "--actor", "lee", "--reason", "fraud", "--store", store], now: at(2))
        _ = runCLI(["restore", "bob", "premium", "--actor", "Dana <dana@example.com>", "--reason", "not fraud", "--store", store], now: at(3))
        _ = runCLI(["grant", "cy", "premium", "--lifetime", "--actor", "lee", "--store", store], now: at(40))
        return store
    }

    @Test func listsEveryEventAcrossCustomersOldestFirst() throws {
        let directory = TemporaryDirectory()
        let store = Self.busyStore(directory)
        let result = runCLI(["log", "--store", store, "--output", "jsonl"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let records = try Self.lines(result.stdout)
        #expect(records.map { $0["event"] as? String } == ["grant", "grant", "revocation", "restore", "grant"])
        #expect(records.map { $0["customer_user_id"] as? String } == ["bob", "amy", "bob", "bob", "cy"])
        #expect(records[2]["actor"] as? String == "lee" && records[2]["reason"] as? String == "fraud")
        #expect(records[1]["entitlement"] as? [String] == ["sports"])
        #expect(records.allSatisfy { $0["transaction_id"] is String && $0["commit"] == nil })
    }

    @Test func filtersByPeriodActorEntitlementEventAndLimit() throws {
        let directory = TemporaryDirectory()
        let store = Self.busyStore(directory)
        func customers(_ arguments: [String]) throws -> [String] {
            let result = runCLI(["log", "--store", store, "--output", "jsonl"] + arguments)
            #expect(result.exitCode == 0, "\(result.stderr)")
            return try Self.lines(result.stdout).map { "\($0["customer_user_id"] as! String):\($0["event"] as! String)" }
        }
        // --since inclusive, --until exclusive, at the instants the events were recorded.
        #expect(try customers(["--since", "2026-03-02T10:00:00Z", "--until", "2026-03-04T10:00:00Z"]) == ["amy:grant", "bob:revocation"])
        #expect(try customers(["--since", "2026-03-02T10:00:01Z", "--until", "2026-03-04T10:00:01Z"]) == ["bob:revocation", "bob:restore"])
        #expect(try customers(["--actor", "dana@example.com"]) == ["bob:grant", "bob:restore"])
        #expect(try customers(["--actor", "Dana <dana@example.com>", "--event", "restore"]) == ["bob:restore"])
        #expect(try customers(["--entitlement", "sports"]) == ["amy:grant"])
        #expect(try customers(["--event", "revocation,restore", "--event", "grant", "--limit", "2"]) == ["bob:restore", "cy:grant"])
        #expect(try customers(["--event", "transfer"]).isEmpty)
        #expect(try customers(["--event", "import"]).isEmpty)
    }

    @Test func formatsAndRefusals() throws {
        let directory = TemporaryDirectory()
        let store = Self.busyStore(directory)
        let csv = runCLI(["log", "--store", store, "--output", "csv", "--event", "revocation"])
        #expect(csv.stdout == "at,customer_user_id,event,entitlement,actor,reason,transaction_id,store,product_id\r\n"
            + "2026-03-03T10:00:00Z,bob,revocation,premium,lee,fraud,\(try #require(csv.stdout.split(separator: ",").dropFirst(14).first)),manual,\r\n")
        #expect(runCLI(["log", "--store", store, "--since", "2030-01-01"]).stdout == "No events.\n")
        #expect(runCLI(["log", "--store", store, "--event", "grnt"]).exitCode == 2)
        #expect(runCLI(["log", "--store", store, "--since", "2026-03-02", "--until", "2026-03-01"]).exitCode == 2)
        #expect(runCLI(["log", "--store", store, "--entitlement", "premum"]).exitCode == 3)
        #expect(runCLI(["log", "--store", directory.path + "/none"]).exitCode != 0)
    }

    @Test func anUnreadableProfileIsNamedAndTheRestListed() throws {
        let directory = TemporaryDirectory()
        let store = Self.busyStore(directory)
        let path = runCLI(["path", "amy", "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        let result = runCLI(["log", "--store", store, "--output", "jsonl"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains(path))
        #expect(try Self.lines(result.stdout).count == 4)
    }
}
