import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// What grant, revoke and import print, with a fixed clock and ids in sequence (Context.newID),
/// compared with files in Golden/. Temporary paths are shown as STORE and FIXTURES.
@Suite(.tags(.cli))
struct MutationGoldenTests {
    let directory = TemporaryDirectory()
    let ids = SequentialIDs()

    func run(_ arguments: [String], store: String, now: Date = demoDate) -> CLIResult {
        var result = runCLI(arguments + ["--store", store, "--actor", "dana"], now: now, newID: ids.generator)
        for (path, name) in [(store, "STORE"), (ImportTests.fixtures, "FIXTURES")] {
            result.stdout = result.stdout.replacingOccurrences(of: path, with: name)
            result.stderr = result.stderr.replacingOccurrences(of: path, with: name)
        }
        return result
    }

    @Test func grantAndRevoke() {
        let store = directory.copyOfDemoStore()
        var out = ""
        for arguments in [
            ["grant", "newcomer", "premium", "--duration", "1m", "--reason", "Beta tester"],
            ["grant", "newcomer", "premium", "--duration", "7d", "--idempotency-key", "K-1"],
            ["grant", "newcomer", "sports", "--lifetime", "--dry-run"],
            ["revoke", "newcomer", "premium", "--reason", "Granted by mistake", "--yes"],
            ["grant", "newcomer", "premium", "--duration", "7d", "--idempotency-key", "K-1"],
            ["revoke", "active-renewing", "premium", "--yes"],
        ] {
            let result = run(arguments, store: store)
            out += "$ entitlement \(arguments.joined(separator: " "))\n\(result.stdout)\(result.stderr)-> exit \(result.exitCode)\n\n"
        }
        expectGolden(out, named: "grant-revoke.txt")
    }

    @Test func grantAndRevokeJSON() {
        let store = directory.copyOfDemoStore()
        let grant = run(["grant", "newcomer", "premium", "--until", "2026-03-01", "--json"], store: store)
        let revoke = run(["revoke", "newcomer", "premium", "--json", "--yes"], store: store)
        expectGolden(grant.stdout + revoke.stdout, named: "grant-revoke.json")
    }

    @Test func importTextAndJSON() {
        let store = ImportTests.Store()
        let files = ["revenuecat/subscriber-active.json", "adapty/profile-trial.json"].map { ImportTests.fixtures + "/" + $0 }
        let text = run(["import"] + files + ["--dry-run", "--update-config"], store: store.path, now: ImportTests.clock)
        expectGolden(text.stdout, named: "import.txt")
        let json = run(["import"] + files + ["--json", "--update-config"], store: store.path, now: ImportTests.clock)
        expectGolden(json.stdout, named: "import.json")
    }
}
