import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Options before the command, the last value winning, -q and --color everywhere, --version --json, help.
@Suite(.tags(.cli))
struct GlobalOptionTests {
    @Test func globalOptionsBeforeTheCommandMeanWhatTheyMeanAfterIt() throws {
        let before = runCLI(["--store", demoStorePath, "--json", "check", "lifetime"])
        let after = runCLI(["check", "lifetime", "--store", demoStorePath, "--json"])
        #expect(before.exitCode == 0)
        #expect(before.stdout == after.stdout)
        guard case .status(let status) = try Command.parse(["--store=s", "-q", "--color", "never", "status", "alice"]) else {
            Issue.record("not status")
            return
        }
        #expect(status.store == "s")
    }

    /// Before the command, a global option is a setting for any command: applied where the
    /// command uses it, left out where it does not (as git's --no-pager); after the command
    /// name, an option the command does not take is still an error.
    @Test func globalOptionsBeforeACommandThatDoesNotUseThemAreLeftOut() {
        let path = runCLI(["path", "alice", "--store", demoStorePath])
        for leading in [["--no-headers"], ["--output", "csv"], ["--output=tsv", "--no-headers"], ["--output", "table"]] {
            let result = runCLI(leading + ["--store", demoStorePath, "path", "alice"])
            #expect(result.exitCode == 0, "\(leading): \(result.stderr)")
            #expect(result.stdout == path.stdout, "\(leading)")
        }
        // --output json (or jsonl) means --json for a command that prints JSON but no records.
        let json = runCLI(["path", "alice", "--store", demoStorePath, "--json"])
        for format in ["json", "jsonl"] {
            #expect(runCLI(["--store", demoStorePath, "--output", format, "path", "alice"]).stdout == json.stdout)
        }
        // A command without --store (man) runs with one given before it.
        #expect(runCLI(["--store", demoStorePath, "--no-headers", "man"]).stdout == runCLI(["man"]).stdout)
        // Applied where it means something: status prints csv without a header row.
        let csv = runCLI(["--output", "csv", "--no-headers", "--store", demoStorePath, "status", "lifetime"])
        #expect(csv.exitCode == 0 && csv.stdout.hasPrefix("lifetime,premium,active,true,"))
        // A bad value is refused even when it would not apply.
        let bad = runCLI(["--output", "jason", "--store", demoStorePath, "path", "alice"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("Did you mean 'json'?"))
        let badJSON = runCLI(["--output", "jason", "--json", "path", "alice"])
        #expect(badJSON.stderr.hasPrefix("{\"error\":{\"code\":\"usage\""))
        // After the command name the option is the command's, and path has no --no-headers.
        let after = runCLI(["path", "alice", "--store", demoStorePath, "--no-headers"])
        #expect(after.exitCode == 2 && after.stderr.contains("unknown option '--no-headers' for 'path'"))
    }

    @Test func aRepeatedOptionTakesTheLastValue() throws {
        guard case .check(let check) = try Command.parse(["check", "alice", "--at", "2026-01-01", "--at", "2026-01-02", "--store", "a", "--store", "b"]) else {
            Issue.record("not check")
            return
        }
        #expect(check.at == ISODate.parse("2026-01-02"))
        #expect(check.store == "b")
        guard case .initStore(let initStore) = try Command.parse(["init", "--json", "--json", "--entitlement", "a", "--entitlement", "b"]) else {
            Issue.record("not init")
            return
        }
        #expect(initStore.entitlements == ["a", "b"], "a repeatable option keeps every value")
    }

    @Test(arguments: [["status", "multi-entitlement"], ["history", "refunded"], ["path", "alice"], ["check", "lifetime"], ["completions", "bash"], ["man"]])
    func quietPrintsNothingOnStandardOutput(_ arguments: [String]) {
        let store = ["completions", "man"].contains(arguments[0]) ? [] : ["--store", demoStorePath]
        let after = runCLI(arguments + store + ["-q"])
        #expect(after.exitCode == 0, "\(after.stderr)")
        #expect(after.stdout.isEmpty && after.stderr.isEmpty)
        let before = runCLI(["--quiet"] + arguments + store)
        #expect(before.exitCode == 0 && before.stdout.isEmpty)
    }

    @Test func quietStillReportsErrors() {
        let result = runCLI(["-q", "status", "nobody", "--store", demoStorePath])
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasPrefix("Error: no profile for user 'nobody'"))
    }

    @Test func colorAlwaysNeverAndTheEnvironment() {
        let arguments = ["status", "multi-entitlement", "--store", demoStorePath]
        #expect(runCLI(arguments + ["--color", "always"]).stdout.contains("\u{1b}["))
        #expect(!runCLIOnTerminal(arguments + ["--color", "never"], columns: 200).stdout.contains("\u{1b}["))
        #expect(runCLIOnTerminal(arguments, columns: 200).stdout.contains("\u{1b}["))
        #expect(!runCLIOnTerminal(arguments, columns: 200, environment: ["NO_COLOR": "1"]).stdout.contains("\u{1b}["))
        #expect(runCLIOnTerminal(arguments + ["--color", "always"], columns: 200, environment: ["NO_COLOR": "1"]).stdout.contains("\u{1b}["))
        #expect(runCLI(arguments, environment: ["CLICOLOR_FORCE": "1"]).stdout.contains("\u{1b}["))
        #expect(!runCLI(arguments, environment: ["CLICOLOR_FORCE": "0"]).stdout.contains("\u{1b}["))
        #expect(!runCLI(arguments).stdout.contains("\u{1b}["))
    }

    @Test func versionAsJSON() throws {
        let result = runCLI(["--version", "--json"])
        #expect(result.exitCode == 0)
        let object = try JSONParser.parse(Array(result.stdout.utf8))
        guard case .object(let root) = object, case .object(let build) = root["build"] else {
            Issue.record("not an object: \(result.stdout)")
            return
        }
        #expect(root["version"] == .string(CLI.version))
        #expect(build["commit"] == .null && build["commit_known"] == .bool(false))
        if case .string(let compiler) = build["compiler"] { #expect(compiler.hasPrefix("Swift 6")) } else { Issue.record("no compiler") }
        #expect(runCLI(["--json", "--version"]).stdout == result.stdout)
        #expect(runCLI(["--version"]).stdout == "entitlement \(CLI.version)\n")
        #expect(runCLI(["--version", "--store", "x"]).exitCode == 2)
    }

    @Test func helpListsTheEnvironmentVariablesTheToolReads() {
        let help = runCLI(["help"]).stdout
        for variable in ["ENTITLEMENT_STORE", "ENTITLEMENT_ACTOR", "ENTITLEMENT_LOCK_TIMEOUT", "XDG_DATA_HOME", "NO_COLOR", "CLICOLOR_FORCE", "COLUMNS"] {
            #expect(help.contains(variable), "\(variable)")
        }
        // Every variable a declaration reads is listed.
        for spec in Command.specs { for option in spec.options { if let name = option.environmentVariable { #expect(help.contains(name)) } } }
    }

    @Test func hiddenPlumbingIsNotListed() {
        #expect(!runCLI(["help"]).stdout.contains("__complete"))
        #expect(!BashCompletion.script().contains("'__complete'"))
        #expect(!ManPage.render(version: "1").contains(".SS __complete"))
    }
}
