import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// One row of the expected-verdict tables in Fixtures/import/README.md.
    struct FixtureCase: CustomTestStringConvertible, Sendable {
        let file: String
        /// The user the document names; nil: the document names none and the test passes --user.
        let user: String?
        /// Pass `--at 2026-03-15T12:00:00Z` (documents without their own time).
        let at: Bool
        let entitlement: String
        let state: String
        /// `agree`, `disagree`, or nil when the document states no verdict about it.
        let verdict: String?
        let transactions: Int
        let renewals: Int
        /// The store's config.json, when not the fixtures' shared one.
        let config: String?

        init(_ file: String, user: String?, at: Bool = false, _ state: String, of entitlement: String = "premium",
             verdict: String?, transactions: Int, renewals: Int, config: String? = nil) {
            self.config = config
            self.file = file
            self.user = user
            self.at = at
            self.entitlement = entitlement
            self.state = state
            self.verdict = verdict
            self.transactions = transactions
            self.renewals = renewals
        }

        var testDescription: String { "\(file) \(entitlement)" }

        var effectiveUser: String { user ?? "fixture-user" }

        var arguments: [String] {
            [ImportTests.fixtures + "/" + file] + (user == nil ? ["--user", "fixture-user"] : []) + (at ? ["--at", ImportTests.documentTimeText] : [])
        }

        /// Imports the file into a fresh store and checks counts, the vendor verdict and our state.
        func check(sourceLocation: SourceLocation = #_sourceLocation) {
            let store = ImportTests.Store(config: config.flatMap { readFile(ImportTests.fixtures + "/" + $0) })
            let (result, summary) = store.importJSON(arguments)
            #expect(result.exitCode == 0, "\(result.stderr)", sourceLocation: sourceLocation)
            let document = summary.document()
            #expect(document.value["user"]?.stringValue == effectiveUser, sourceLocation: sourceLocation)
            #expect(document.added == transactions, "transactions added", sourceLocation: sourceLocation)
            #expect(document.renewalsAdded == renewals, "renewal info added", sourceLocation: sourceLocation)
            let row = document.verdict(entitlement)
            #expect(row?["result"]?.stringValue == verdict, sourceLocation: sourceLocation)
            if verdict != nil { #expect(row?["ours"]?.stringValue == state, sourceLocation: sourceLocation) }
            #expect(store.state(effectiveUser, entitlement) == state, "state at the document time", sourceLocation: sourceLocation)
        }
    }
}
