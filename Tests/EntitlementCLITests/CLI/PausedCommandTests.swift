import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `paused` in every command that shows states: `check` (exit 1), `status`, `find --state paused`,
/// `summary`, `check --stdin` (the fast path) and `verify`.
@Suite(.tags(.cli))
struct PausedCommandTests {
    /// One Google Play subscription whose period ended 2026-02-01, paused until 2026-03-01.
    static func store(in directory: TemporaryDirectory, renewal: String = #""is_paused": true, "paused_at": "2026-01-20T00:00:00Z", "resumes_at": "2026-03-01T00:00:00Z""#) -> String {
        let store = directory.store()
        writeFile(store + "/profiles/pia.json", """
            {"customer_user_id": "pia", "transactions": [
              {"transaction_id": "gpa-1", "original_transaction_id": "gpa-1", "product_id": "com.example.monthly", "store": "play_store",
               "type": "subscription_started", "purchased_at": "2026-01-01T00:00:00Z", "expires_at": "2026-02-01T00:00:00Z"}],
             "renewal_info": {"gpa-1": {"will_renew": true, \(renewal)}}}
            """)
        return store
    }

    @Test func checkAnswersPausedWithoutAccess() throws {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        let paused = runCLI(["check", "pia", "premium", "--store", store, "--at", "2026-02-10T00:00:00Z", "--json"])
        #expect(paused.exitCode == 1)
        let object = try #require(try? JSONParser.parse(Array(paused.stdout.utf8)).objectValue)
        #expect(object["state"] == .string("paused") && object["is_active"] == .bool(false))
        #expect(object["resumes_at"] == .string("2026-03-01T00:00:00Z"))
        let before = runCLI(["check", "pia", "premium", "--store", store, "--at", "2026-01-25T00:00:00Z", "--json"])
        #expect(before.exitCode == 0 && before.stdout.contains(#""resumes_at": null"#) && before.stdout.contains(#""state": "active""#))
        let after = runCLI(["check", "pia", "premium", "--store", store, "--at", "2026-03-02T00:00:00Z"])
        #expect(after.exitCode == 1 && after.stdout.contains("expired"))
        let text = runCLI(["check", "pia", "premium", "--store", store, "--at", "2026-02-10T00:00:00Z"])
        #expect(text.stdout.contains("paused") && text.stdout.contains("resumes 2026-03-01"))
    }

    @Test func theFastPathOfCheckStdinAgrees() {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        let result = runCLI(["check", "--stdin", "premium", "--store", store, "--at", "2026-02-10T00:00:00Z", "--output", "jsonl"], stdin: "pia\n")
        #expect(result.stdout.contains(#""resumes_at":"2026-03-01T00:00:00Z""#) && result.stdout.contains(#""state":"paused""#))
    }

    @Test func statusFindAndSummaryShowPaused() {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        let at = ["--at", "2026-02-10T00:00:00Z"]
        let status = runCLI(["status", "pia", "--store", store] + at)
        #expect(status.exitCode == 0 && status.stdout.contains("paused"))
        let find = runCLI(["find", "--state", "paused", "--store", store, "--output", "csv", "--no-headers"] + at)
        #expect(find.exitCode == 0 && find.stdout.hasPrefix("pia,premium,paused,false,"))
        #expect(runCLI(["find", "--state", "paused", "--store", store, "--at", "2026-01-25T00:00:00Z"]).exitCode == 1)
        let summary = runCLI(["summary", "--store", store] + at)
        #expect(summary.stdout.contains("paused") && summary.stdout.contains("PAUSED"))
        let json = runCLI(["summary", "--store", store, "--json"] + at)
        #expect(json.stdout.contains(#""paused": 1"#))
    }

    @Test func verifyReportsContradictoryPauseFacts() {
        let directory = TemporaryDirectory()
        let good = runCLI(["verify", "--store", Self.store(in: directory)])
        #expect(good.exitCode == 0, "\(good.stdout)")
        let other = TemporaryDirectory()
        let store = Self.store(in: other, renewal: #""is_paused": true, "paused_at": "2026-03-01T00:00:00Z", "resumes_at": "2026-02-01T00:00:00Z""#)
        let bad = runCLI(["verify", "--store", store])
        #expect(bad.exitCode == 4 && bad.stdout.contains("renewal_info.gpa-1.resumes_at") && bad.stdout.contains("before paused_at"))
        let third = TemporaryDirectory()
        let stray = runCLI(["verify", "--store", Self.store(in: third, renewal: #""resumes_at": "2026-03-01T00:00:00Z""#)])
        #expect(stray.exitCode == 4 && stray.stdout.contains("is_paused is not true"))
    }
}
