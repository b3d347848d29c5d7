import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Inputs a careless or hostile user gives, and what the tool must do with them.
@Suite(.tags(.cli))
struct RobustnessTests {
    let directory = TemporaryDirectory()

    @Test func anOptionWithoutItsValueNeverSwallowsTheNextFlag() {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "swallow", "premium", "--duration", "1d", "--reason", "--dry-run", "--store", store])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: option '--reason' needs a value"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/swallow.json"))
        let explicit = runCLI(["grant", "swallow", "premium", "--duration", "1d", "--reason=--dry-run", "--store", store, "--json"])
        #expect(explicit.exitCode == 0)
        #expect(explicit.stdout.contains("\"reason\": \"--dry-run\""))
    }

    @Test func emptyValuesAreUsageErrorsAndRepeatedFlagsCountOnce() {
        #expect(runCLI(["check", "x", "--store", ""]).exitCode == 2)
        #expect(runCLI(["check", "x", "-q", "--quiet", "--store", demoStorePath]).exitCode == 1)
        #expect(runCLI(["grant", " padded ", "premium", "--duration", "1d", "--store", demoStorePath]).stderr.contains("white space"))
    }

    @Test func aBrokenConfigurationIsReportedEvenForUnknownUsers() {
        let store = directory.copyOfDemoStore()
        writeFile(store + "/config.json", "{")
        for arguments in [["check", "nobody"], ["status", "nobody"], ["history", "nobody"], ["check", "--profile-id", "nope"]] {
            let result = runCLI(arguments + ["--store", store])
            #expect(result.exitCode == 4, "\(arguments)")
            #expect(result.stderr.contains("config.json: invalid JSON at line 1, column 2"))
        }
    }

    @Test func controlCharactersInConfigurationErrorsAreEscaped() {
        let store = directory.copyOfDemoStore()
        writeFile(store + "/config.json", "{\"entitlements\": {\"a\\u001b[31mb\": {\"products\": [1]}}}")
        let result = runCLI(["check", "lifetime", "--store", store])
        #expect(result.exitCode == 4)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains("\\u{1b}[31mb"))
    }

    @Test func idsThatAreEqualOnlyAsUnicodeAreDifferentProfiles() {
        let store = directory.copyOfDemoStore()
        let nfc = "Jos\u{E9}", nfd = "Jose\u{301}"
        writeFile(store + "/profiles/" + ProfileFileName.name(for: nfc) + ".json", #"{"customer_user_id": "\#(nfd)"}"#)
        let result = runCLI(["status", nfc, "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("misplaced profile"))
        #expect(ProfileFileName.name(for: nfc) != ProfileFileName.name(for: nfd))
    }

    @Test func repeatedTransactionIDsOfOneStoreAreRejected() {
        let store = directory.copyOfDemoStore()
        let transaction = #"{"transaction_id": "t1", "product_id": "com.example.lifetime", "store": "app_store", "type": "non_consumable_purchase", "purchased_at": "2025-01-01"}"#
        writeFile(store + "/profiles/dup.json", #"{"customer_user_id": "dup", "transactions": [\#(transaction), \#(transaction)]}"#)
        let result = runCLI(["check", "dup", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("transactions[1].transaction_id: 't1' of store app_store repeats transactions[0]"))
    }

    @Test func numbersOutOfRangeAreDataErrorsNotInfinity() {
        let store = directory.copyOfDemoStore()
        writeFile(store + "/profiles/rich.json", #"{"customer_user_id": "rich", "transactions": [{"transaction_id": "t1", "product_id": "p", "store": "app_store", "type": "consumable_purchase", "purchased_at": "2025-01-01", "price": 1e400, "currency": "USD"}]}"#)
        let result = runCLI(["status", "rich", "--store", store, "--json"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("transactions[0].price: 1e400 is out of range"))
    }

    @Test func batchCheckAppliesTheSingleCheckRulesToEveryLine() throws {
        let long = String(repeating: "x", count: 5000)
        let result = runCLI(["check", "--stdin", "--store", demoStorePath], stdin: "lifetime\n\(long)\n")
        #expect(result.exitCode == 2)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try JSONParser.parse(String(lines[1])).objectValue?["error"]?["message"] == .string("the user id is longer than 4096 bytes."))
        #expect(try JSONParser.parse(String(lines[1])).objectValue?["error"]?["code"] == .string("invalid_user_id"))
    }

    @Test func unconfiguredEntitlementsStillExitOneButSayWhy() {
        let result = runCLI(["check", "lifetime", "premuim", "--store", demoStorePath])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("Did you mean 'premium'?"))
        #expect(runCLI(["check", "lifetime", "premuim", "--store", demoStorePath, "-q"]).stderr.isEmpty)
    }

    @Test func batchAnswersKeepTheInputOrderWhenCheckedInParallel() throws {
        let users = try FileManager.default.contentsOfDirectory(atPath: demoStorePath + "/profiles").map { String($0.dropLast(5)) }.sorted()
        // Far more lines than the parallel threshold, in a shuffled but fixed order.
        let input = (0..<40).flatMap { round in users.indices.map { users[($0 * 7 + round) % users.count] } } + ["nobody"]
        let result = runCLI(["check", "--stdin", "--store", demoStorePath], stdin: input.joined(separator: "\n"))
        #expect(result.exitCode == 1)
        let lines = try result.stdout.split(separator: "\n").map { try #require(try JSONParser.parse(String($0)).objectValue) }
        #expect(lines.map { $0["customer_user_id"]?.stringValue } == input.map { Optional($0) })
        var single: [String: JSONValue] = [:]
        for user in users {
            single[user] = try JSONParser.parse(runCLI(["check", user, "--store", demoStorePath, "--json"]).stdout).objectValue?["state"]
        }
        for (line, user) in zip(lines, input) where user != "nobody" {
            #expect(line["state"] == single[user], "\(user)")
        }
    }

    @Test(arguments: ["2026-01-15T12:00:60Z", "2026-01-15T23:59:60Z", "9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59-05:00", "0000-06-01"])
    func datesTheToolCouldNotWriteBackAreRefused(_ text: String) {
        #expect(ISODate.parse(text) == nil)
        #expect(runCLI(["check", "lifetime", "--store", demoStorePath, "--at", text]).exitCode == 2)
    }

    @Test func theLastWritableInstantRoundTrips() throws {
        let last = try #require(ISODate.parse("9999-12-31T23:59:59Z"))
        #expect(ISODate.format(last) == "9999-12-31T23:59:59Z")
        #expect(ISODate.parse("0001-01-01") != nil)
    }

    @Test func aBadLockTimeoutFromTheEnvironmentIsAUsageError() {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "u", "premium", "--duration", "1d", "--store", store], environment: ["ENTITLEMENT_LOCK_TIMEOUT": "soon"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: invalid ENTITLEMENT_LOCK_TIMEOUT: 'soon'; expected seconds, 0 or more."))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/u.json"))
        let flagWins = runCLI(["grant", "u", "premium", "--duration", "1d", "--lock-timeout", "1", "--store", store],
                              environment: ["ENTITLEMENT_LOCK_TIMEOUT": "soon"])
        #expect(flagWins.exitCode == 0)
    }
}
