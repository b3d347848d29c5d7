import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Each way the flat path of `status USER --json` leaves the answer to the full path, one
/// profile apiece: the flat path gives up having written nothing, and the command prints the
/// full path's bytes (or, where the full path reports an error, nothing on standard output).
@Suite(.tags(.cli))
struct FlatStatusFallbackTests {
    typealias F = UnitTests.Fixture
    static let user = "alice@example.com"
    static let at = "2025-03-01T00:00:00Z"
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.premium.monthly", "com.example.premium.annual", "com.example.lifetime"]}, "sports": {"products": ["com.example.sports.monthly", "com.example.premium.annual"]}}}"#

    /// Renewals of one chain (the second starting the second the first ends), a grant, renewal info.
    static let base: String = {
        var profile = F.profile(F.monthlyRenewals + [F.grant("g1", entitlement: "sports", from: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z")],
                                renewals: ["c1": RenewalInfo(willRenew: true)])
        profile.transactions[1].price = 4.99
        profile.transactions[1].currency = "USD"
        return String(decoding: JSONWriter().bytes(profile.json), as: UTF8.self)
    }()

    /// `config` as the store reads it.
    static func configuration() throws -> ProductConfiguration {
        let directory = TemporaryDirectory()
        return try EntitlementStore(root: directory.store(config: config)).loadConfiguration()
    }

    /// `base` with its one occurrence of `old` replaced.
    static func editing(_ old: String, _ new: String) -> String {
        precondition(base.components(separatedBy: old).count == 2, "\(old) occurs once")
        return base.replacingOccurrences(of: old, with: new)
    }

    /// Writes `text` as the customer's profile in a fresh store; compares both paths and the command.
    static func expectFallback(_ text: String, config: String = config, _ comment: Comment, answersFully: Bool = true) throws {
        let directory = TemporaryDirectory()
        let root = directory.store(config: config)
        let store = EntitlementStore(root: root)
        let file = store.profilesPath + "/" + store.layout.profileFile(for: user)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        writeFile(file, text)
        let configuration = try store.loadConfiguration()
        let bytes = Array(text.utf8), date = F.date(at)
        let flat = FlatStatusPaths.attempt(bytes, user: user, configuration: configuration, at: date)
        #expect(!flat.answered && flat.written.isEmpty, comment)
        let full = FlatStatusPaths.full(bytes, user: user, configuration: configuration, at: date)
        #expect((full != nil) == answersFully, comment)
        let result = runCLI(["status", user, "--json", "--store", root, "--at", at])
        if let full {
            #expect(result.exitCode == 0 && Array(result.stdout.utf8) == full, comment)
        } else {
            #expect(result.exitCode != 0 && result.stdout.isEmpty && !result.stderr.isEmpty, comment)
        }
    }

    /// The unedited profile takes the flat path and prints the full answer: the edits below are what send it away.
    @Test func theBaseProfileTakesTheFlatPath() throws {
        let bytes = Array(Self.base.utf8)
        let configuration = try Self.configuration()
        let flat = FlatStatusPaths.flat(bytes, user: Self.user, configuration: configuration, at: F.date(Self.at))
        #expect(flat != nil && flat == FlatStatusPaths.full(bytes, user: Self.user, configuration: configuration, at: F.date(Self.at)))
    }

    @Test func anIDOutsideASCII() throws {
        try Self.expectFallback(Self.editing(#""transaction_id": "c2""#, #""transaction_id": "c2\#u{E9}""#), "id outside ASCII")
    }

    @Test func anEscapeInAString() throws {
        try Self.expectFallback(Self.editing(#""transaction_id": "c2""#, #""transaction_id": "c\u0032""#), "escaped id (c2, spelled with an escape)")
        try Self.expectFallback(Self.editing(#""transaction_id": "c3""#, #""transaction_id": "c\/3""#), "escaped id")
        try Self.expectFallback(Self.editing(#""product_id": "com.example.premium.monthly",\#n      "purchased_at": "2025-02-01"#,
                                             #""product_id": "com.example.premium.m\u006fnthly",\#n      "purchased_at": "2025-02-01"#), "escaped product")
    }

    @Test func restoredRevocations() throws {
        try Self.expectFallback(Self.editing(#""transaction_id": "c3","#, #""restored_revocations": [{"revoked_at": "2025-03-10T00:00:00Z", "restored_at": "2025-03-11T00:00:00Z", "restored_by": "dana"}], "transaction_id": "c3","#), "restored revocations")
    }

    @Test func aStoreWithASpace() throws {
        try Self.expectFallback(Self.editing(#""store": "app_store",\#n      "transaction_id": "c2""#, #""store": "app store",\#n      "transaction_id": "c2""#), "store with a space")
    }

    @Test func aRepeatedIDInOneStore() throws {
        try Self.expectFallback(Self.editing(#""transaction_id": "c3""#, #""transaction_id": "c2""#), "repeated id", answersFully: false)
    }

    @Test func aRenewalKeyOutsideASCII() throws {
        try Self.expectFallback(Self.editing(#""c1": {"#, #""c1\#u{301}": {"#), "renewal key outside ASCII")
    }

    @Test func anotherSchemaVersion() throws {
        try Self.expectFallback(Self.editing(#""schema_version": 1"#, #""schema_version": 2"#), "schema version", answersFully: false)
    }

    @Test func aMisplacedProfile() throws {
        try Self.expectFallback(Self.editing(#""customer_user_id": "alice@example.com""#, #""customer_user_id": "bob@example.com""#),
                                "misplaced", answersFully: false)
    }

    @Test func aConfigurationOutsideASCII() throws {
        try Self.expectFallback(Self.base, config: Self.config.replacingOccurrences(of: #""sports""#, with: #""sp\#u{F6}rts""#), "configuration outside ASCII")
    }

    /// Past 64 transactions ids are checked hashed: a repeat among them still sends the profile to the full path.
    @Test func aRepeatAmongManyTransactions() throws {
        var transactions: [Transaction] = []
        for index in 0..<70 {
            let day = String(format: "2025-01-%02dT00:00:00Z", 1 + index % 28)
            transactions.append(F.purchase("m\(index)", product: F.lifetime, type: .nonConsumablePurchase, from: day, to: nil))
        }
        let bytes = JSONWriter().bytes(F.profile(transactions).json)
        let configuration = try Self.configuration()
        let many = FlatStatusPaths.flat(bytes, user: Self.user, configuration: configuration, at: F.date(Self.at))
        #expect(many != nil && many == FlatStatusPaths.full(bytes, user: Self.user, configuration: configuration, at: F.date(Self.at)))
        transactions[66].transactionID = "m3"
        try Self.expectFallback(String(decoding: JSONWriter().bytes(F.profile(transactions).json), as: UTF8.self), "repeat past 64", answersFully: false)
    }
}
