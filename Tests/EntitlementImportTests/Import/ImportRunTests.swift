import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// The command around the mappers: dry run, several files, stdin, progress, output.
    @Suite(.tags(.cli))
    struct Run {
        @Test func dryRunWritesNothingAndShowsTheProfile() {
            let store = Store()
            let before = store.snapshot()
            let result = store.importing([fixtures + "/revenuecat/subscriber-active.json", "--dry-run"])
            #expect(result.exitCode == 0)
            #expect(result.stdout.hasPrefix("Dry run: nothing was written.\n"))
            #expect(result.stdout.contains("configuration: sports += com.example.sports.monthly"))
            #expect(result.stdout.contains("The profile would be, at 2026-03-15T12:00:00Z:\nProfile rc-active@example.com"))
            #expect(result.stdout.contains("sports       active"))
            #expect(sameFiles(before, store.snapshot()))
            #expect(!FileManager.default.fileExists(atPath: store.path + "/.lock"), "a dry run takes no lock")
            let (json, summary) = store.importJSON([fixtures + "/revenuecat/subscriber-active.json", "--dry-run"])
            #expect(json.exitCode == 0)
            #expect(summary["dry_run"] == .bool(true))
            #expect(summary["profiles"]?["rc-active@example.com"]?["transactions"]?.arrayValue.count == 2)
            #expect(sameFiles(before, store.snapshot()))
        }

        @Test func aFailedFileAmongSeveralFailsAloneAndTheRunExitsNonZero() {
            let store = Store()
            let files = ["revenuecat/subscriber-active.json", "revenuecat/invalid-wrong-type.json", "adapty/profile-trial.json", "missing.json"]
            let (result, summary) = store.importJSON(files.map { fixtures + "/" + $0 } + ["--at", documentTimeText])
            #expect(result.exitCode == 4, "the first failure's exit code")
            #expect(summary["documents"]?.arrayValue.map { $0["status"]?.stringValue ?? "?" } == ["imported", "failed", "imported", "failed"])
            #expect(summary.document(1).value["error"]?["exit_code"]?.intValue == 4)
            #expect(summary.document(3).value["error"]?["exit_code"]?.intValue == 2)
            #expect(summary["totals"]?["documents"]?["failed"]?.intValue == 2)
            #expect(store.profileNames() == ["adapty-trial@example.com.json", "rc-active@example.com.json"])
            // Under --json each failure is also a JSON error object on standard error, as it happens.
            #expect(result.stderr.contains(#"{"error":{"code":"invalid_import","exit_code":4,"#))
            #expect(result.stderr.contains("\(fixtures)/revenuecat/invalid-wrong-type.json: subscriber.subscriptions["))
            #expect(result.stderr.contains("\"message\":\"\(fixtures)/missing.json: cannot open"))
            let text = store.importing(files.map { fixtures + "/" + $0 })
            #expect(text.stdout.contains("invalid-wrong-type.json: not imported (exit 4): subscriber.subscriptions"))
            #expect(text.stdout.contains("Failed: 2 of 4 documents"))
        }

        @Test func standardInputHoldsJSONLinesOrConcatenatedDocuments() throws {
            let store = Store()
            var lines = ""
            for file in ["entitlements-active.json", "entitlements-canceled.json", "permissions-trailing-commas.json"] {
                let value = try JSONParser.parse(try #require(readFile(fixtures + "/qonversion/" + file)), allowTrailingCommas: true)
                lines += JSONWriter(style: .compact).string(value) + "\n"
            }
            let (result, summary) = store.importJSON(["-", "--user", "q", "--at", documentTimeText], stdin: lines)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(summary["documents"]?.arrayValue.compactMap { $0["file"]?.stringValue } == ["<stdin>#1", "<stdin>#2", "<stdin>#3"])
            #expect(store.profile("q")?.transactions.count == 2 + 1 + 2)
            // Pretty-printed documents one after another work too, and a broken one fails alone, with its own line number.
            let concatenated = try #require(readFile(fixtures + "/revenuecat/subscriber-trial.json")) + "{\"request_date\": 5}\n"
                + (try #require(readFile(fixtures + "/adapty/profile-trial.json")))
            let (mixed, mixedSummary) = Store().importJSON(["-", "--at", documentTimeText], stdin: concatenated)
            #expect(mixed.exitCode == 2)
            #expect(mixedSummary["documents"]?.arrayValue.map { $0["status"]?.stringValue ?? "?" } == ["imported", "failed", "imported"])
            let broken = Store().importing(["-"], stdin: "{\"subscriber\": {}}\n{\"subscriber\": \n")
            #expect(broken.stderr.contains("<stdin>#2: invalid JSON at line 3, column 1"))
        }

        @Test func dashIsAllowedOnce() {
            let result = runCLI(["import", "-", "-", "--store", Store().path])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("'-' (standard input) can be given only once."))
        }

        @Test(arguments: [["--format", "paddle"], ["--at", "last week"], [], ["--user", ""]])
        func usageErrorsComeFirst(_ arguments: [String]) {
            let store = Store()
            let result = runCLI(["import"] + (arguments.isEmpty ? [] : [fixtures + "/revenuecat/subscriber-active.json"]) + arguments + ["--store", store.path])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("See 'entitlement import --help'."))
            #expect(store.profileNames().isEmpty)
        }

        @Test func progressOnlyOnATerminal() {
            let lines = String(repeating: "[]\n", count: 3)
            for terminal in [true, false] {
                let store = Store()
                let stderr = OutputSink(capturingAsTerminal: terminal)
                let context = Context(environment: [:], stdout: OutputSink(capturingAsTerminal: false), stderr: stderr,
                                      stdin: InputSource(text: lines), now: { ImportTests.clock }, loginName: "tester")
                let code = CLI(context: context).run(["import", "-", "--store", store.path])
                #expect(code == 2)
                #expect(stderr.text.contains("\r\u{1B}[Kimport: read 2/3 documents") == terminal)
                #expect(stderr.text.contains("\u{1B}") == terminal)
            }
        }

        @Test func atIsIgnoredWhenTheDocumentHasItsOwnTime() {
            let store = Store()
            let result = store.importing([fixtures + "/revenuecat/subscriber-disagreement.json", "--at", "2026-02-15T12:00:00Z"])
            #expect(result.exitCode == 0)
            #expect(result.stdout.contains("  --at ignored: the document has its own time (request_date)"))
            #expect(result.stdout.contains("vendor verdicts at 2026-03-15T12:00:00Z (request_date):"))
            #expect(result.stdout.contains("DISAGREE"))
        }

        @Test func theUserOptionWinsAndSaysSo() {
            let store = Store()
            let result = store.importing([fixtures + "/adapty/profile-active.json", "--user", "alice", "--at", documentTimeText])
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("the document names user 'adapty-active@example.com' (customer_user_id); importing into 'alice' as --user says."))
            #expect(store.profileNames() == ["alice.json"])
        }

        @Test func importedDataShowsInStatusHistoryAndExplain() {
            let store = Store()
            #expect(store.importing([fixtures + "/appstore/notification-grace-period.json"]).exitCode == 0)
            let user = appleUser(5)
            let status = runCLI(["status", user, "--store", store.path, "--at", documentTimeText])
            #expect(status.stdout.contains("grace_period") && status.stdout.contains("com.example.premium.monthly"))
            let history = runCLI(["history", user, "--store", store.path])
            #expect(history.stdout.contains("2000000000000502") && history.stdout.contains("subscription_renewed"))
            let explain = runCLI(["check", user, "premium", "--store", store.path, "--at", documentTimeText, "--explain"])
            #expect(explain.exitCode == 0)
            #expect(explain.stdout.contains("in billing grace period until 2026-03-30T12:00:00Z"))
        }

        @Test func aProfileThatCannotBeParsedIsNeverRewritten() throws {
            let store = Store()
            let path = EntitlementStore(root: store.path).profilePath(for: "rc-active@example.com")
            writeFile(path, "{ not json")
            let (result, summary) = store.importJSON([fixtures + "/revenuecat/subscriber-active.json", fixtures + "/revenuecat/subscriber-trial.json"])
            #expect(result.exitCode == 4)
            #expect(result.stderr.contains("\"message\":\"\(path): invalid JSON"))
            #expect(readFile(path) == "{ not json")
            #expect(summary.document(0).value["status"]?.stringValue == "failed")
            #expect(summary.document(1).value["status"]?.stringValue == "imported")
            #expect(store.configuration()?.entitlement("sports")?.products.isEmpty == true, "a failed document extends nothing")
        }

        @Test func textSummaryForOneDocument() {
            let store = Store()
            let result = store.importing([fixtures + "/appstore/notification-placeholder.json"])
            let name = fixtures + "/appstore/notification-placeholder.json"
            #expect(result.stdout == """
                \(name): App Store notification DID_RENEW → nothing to import
                  skipped: data.signedTransactionInfo: not a JWS
                  skipped: data.signedRenewalInfo: not a JWS
                  vendor verdicts at 2026-03-15T12:00:00Z (signedDate):
                    not compared   -   vendor status 1 (active)   no decodable transaction
                Total: 0 transactions added, 0 updated, 0 unchanged; 0 renewal info added, 0 updated, 0 unchanged; 0 configuration products added; 0 disagreements, 1 not compared.

                """)
        }
    }
}
