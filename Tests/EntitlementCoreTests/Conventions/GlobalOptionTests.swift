import Foundation
import Testing
@testable import EntitlementCore

/// Options before the command, the last value winning, -q and --color everywhere, --version --json, help.
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
