import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// A typo'd customer id does not silently become a new customer, and
/// lookups of an unknown customer suggest a near stored id.
@Suite(.tags(.cli))
struct NearCustomerTests {
    let directory = TemporaryDirectory()

    /// A store with alice@customer.com and bob@customer.com.
    func store() -> String {
        let store = directory.copyOfDemoStore()
        for user in ["alice@customer.com", "bob@customer.com"] {
            #expect(runCLI(["grant", user, "premium", "--duration", "7d", "--store", store]).exitCode == 0)
        }
        return store
    }

    @Test func grantThatCreatesACustomerSaysSoWithTheNearId() {
        let store = store()
        let result = runCLI(["grant", "alcie@customer.com", "premium", "--duration", "7d", "--store", store])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "Note: new customer 'alcie@customer.com' (no profile existed). Did you mean 'alice@customer.com'?\n")
        let far = runCLI(["grant", "zed", "premium", "--duration", "7d", "--store", store])
        #expect(far.stderr == "Note: new customer 'zed' (no profile existed).\n")
        let existing = runCLI(["grant", "alice@customer.com", "premium", "--duration", "7d", "--store", store])
        #expect(existing.stderr.isEmpty)
    }

    @Test func grantNoteIsJSONUnderJSON() throws {
        let store = store()
        let result = runCLI(["grant", "bbo@customer.com", "premium", "--duration", "7d", "--store", store, "--json"])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONParser.parse(result.stderr).objectValue)
        #expect(object["note"] == .string("new customer 'bbo@customer.com' (no profile existed). Did you mean 'bob@customer.com'?"))
    }

    @Test(arguments: ["status", "history"])
    func unknownCustomerGetsDidYouMean(_ command: String) {
        let store = store()
        let result = runCLI([command, "alice@custmoer.com", "--store", store])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("Error: no profile for user 'alice@custmoer.com'\nDid you mean 'alice@customer.com'?\n"))
        let far = runCLI([command, "nobody-like-that", "--store", store])
        #expect(far.stderr.contains("Check the id, or look it up with --profile-id."))
    }

    @Test func checkSuggestsOnlyToAPersonOnAMiss() {
        let store = store()
        let person = runCLI(["check", "Alice@customer.com", "premium", "--store", store], terminal: true)
        #expect(person.exitCode == 1)
        #expect(person.stderr == "Note: no profile for 'Alice@customer.com'. Did you mean 'alice@customer.com'?\n")
        let script = runCLI(["check", "Alice@customer.com", "premium", "--store", store])
        #expect(script.exitCode == 1)
        #expect(script.stderr.isEmpty)
        let strict = runCLI(["check", "alice@customer.co", "premium", "--strict", "--store", store])
        #expect(strict.exitCode == 3)
        #expect(strict.stderr.contains("Did you mean 'alice@customer.com'?"))
        let hit = runCLI(["check", "alice@customer.com", "premium", "--store", store], terminal: true)
        #expect(hit.exitCode == 0)
        #expect(hit.stderr.isEmpty)
    }

    @Test(arguments: [
        ("alice@customer.com", "alice@customer.con", 1), ("alice", "alcie", 1), ("abc", "xyz", 3), ("abcd", "wxyz", nil), ("Alice", "alice", 0), ("user1", "user1", 0),
        ("ab", "ba", 1), ("kitten", "sitting", 3), ("kitten", "sittingxx", nil),
    ] as [(String, String, Int?)])
    func boundedDistance(_ a: String, _ b: String, _ expected: Int?) {
        var near = NearNames(target: Array(a.utf8))
        let found = Array(b.utf8).withUnsafeBufferPointer { near.within(3, of: $0) }
        #expect(found == expected)
    }

    /// The banded distance equals the whole table's (`Suggestion.editDistance`) wherever it is
    /// within the limit, and is nil elsewhere: strings over a small alphabet, so that near ones
    /// are common, from a fixed seed, each kept across calls as a store's names are.
    @Test func bandedDistanceEqualsTheWholeTable() {
        var generator = SplitMix64(seed: 35)
        let alphabet = Array("abA-".utf8)
        func word() -> [UInt8] { (0..<Int(generator.next() % 9 + 1)).map { _ in alphabet[Int(generator.next() % 4)] } }
        for _ in 0..<300 {
            let target = word()
            var near = NearNames(target: target)
            for _ in 0..<20 {
                let name = word()
                for limit in 0...3 {
                    let whole = Suggestion.editDistance(Array(String(decoding: target, as: UTF8.self).lowercased()), Array(String(decoding: name, as: UTF8.self).lowercased()))
                    let found = name.withUnsafeBufferPointer { near.within(limit, of: $0) }
                    #expect(found == (whole <= limit ? whole : nil), "\(target) \(name) \(limit)")
                }
            }
        }
    }

    // MARK: The kept list of names (docs/store-format.md, "The profile name list")

    /// A writer that creates a profile keeps the list; the near id then comes from it, and
    /// no profile folder is listed (the walk cost 0.4–0.7 s at 100k profiles).
    @Test func nearIdComesFromTheKeptListNotTheFolders() {
        var store = EntitlementStore(root: store())
        let listings = WorkCounter()
        store.nameListings = listings
        #expect(FileManager.default.fileExists(atPath: store.root + "/" + ProfileNameIndex.fileName))
        #expect(store.nearUserID(to: "alcie@customer.com") == "alice@customer.com")
        #expect(store.nearUserID(to: "bbo@customer.com") == "bob@customer.com")
        #expect(store.nearUserID(to: "zed") == nil)
        #expect(listings.steps == 0)
    }

    /// A store no writer of this version has touched has no list: the folders answer.
    @Test func withoutAListTheFoldersAnswer() {
        var store = EntitlementStore(root: directory.copyOfDemoStore())
        let listings = WorkCounter()
        store.nameListings = listings
        let stored = try! FileManager.default.contentsOfDirectory(atPath: store.profilesPath).sorted().first!.dropLast(5)
        #expect(store.nearUserID(to: String(stored) + "x") == String(stored))
        #expect(listings.steps == 1)
    }

    /// A listed name whose profile is gone is no suggestion; a profile added by hand is found by the folders then.
    @Test func aListedNameWithoutItsProfileIsNoSuggestion() throws {
        var store = EntitlementStore(root: store())
        try FileManager.default.removeItem(atPath: store.profilePath(for: "alice@customer.com"))
        let listings = WorkCounter()
        store.nameListings = listings
        #expect(store.nearUserID(to: "alcie@customer.com") == nil)
        #expect(listings.steps == 1)
    }

    /// Names added past a quarter of the list (and 64 KiB) are folded into it, sorted, without repeats.
    @Test func addedNamesAreFoldedIntoTheSortedList() throws {
        var store = EntitlementStore(root: directory.store())
        store.durable = false
        let first = (0..<10).map { Profile(customerUserID: "first-\($0)") }
        _ = try store.withWriteLock { () throws(EntitlementError) -> [String] in try store.save(configuration: nil, profiles: first) }
        let added = store.root + "/" + ProfileNameIndex.addedFileName
        #expect(!FileManager.default.fileExists(atPath: added))  // built from the folders with them
        _ = try store.withWriteLock { () throws(EntitlementError) -> [String] in try store.save(configuration: nil, profiles: [Profile(customerUserID: "second")]) }
        #expect(readFile(added) == "second\n")
        let many = (0..<5000).map { Profile(customerUserID: "customer-number-\($0)") }
        _ = try store.withWriteLock { () throws(EntitlementError) -> [String] in try store.save(configuration: nil, profiles: many) }
        #expect(!FileManager.default.fileExists(atPath: added))
        let list = try #require(readFile(store.root + "/" + ProfileNameIndex.fileName))
        let names = list.split(separator: "\n").dropFirst().map(String.init)
        #expect(names == (first + [Profile(customerUserID: "second")] + many).map { $0.customerUserID }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}
