import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementTeam
@testable import EntitlementIngest
@testable import EntitlementCLI
import EntitlementTestSupport

/// Issue 23 item 12: a typo'd customer id does not silently become a new customer, and
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
}
