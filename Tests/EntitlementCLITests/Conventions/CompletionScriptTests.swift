import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The generated completion scripts and man page: valid for their shells and roff, and working.
/// The shells and groff come from scripts/ensure-tools.sh (run by `make test`); where one is
/// still missing, its test is skipped and says why.
@Suite(.tags(.endToEnd))
struct CompletionScriptTests {
    @Test(.enabled(if: programAvailable("bash"), "bash is not installed (scripts/ensure-tools.sh installs it)"))
    func bashScriptParses() throws {
        let directory = TemporaryDirectory()
        let path = writeTemporary(BashCompletion.script(), named: "entitlement.bash", in: directory)
        let result = try runProgram("bash", ["-n", path])
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    @Test(.enabled(if: programAvailable("zsh"), "zsh is not installed (scripts/ensure-tools.sh installs it)"))
    func zshScriptParses() throws {
        let directory = TemporaryDirectory()
        let path = writeTemporary(ZshCompletion.script(), named: "_entitlement", in: directory)
        let result = try runProgram("zsh", ["-n", path])
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    @Test(.enabled(if: programAvailable("fish"), "fish is not installed (scripts/ensure-tools.sh installs it)"))
    func fishScriptParses() throws {
        let directory = TemporaryDirectory()
        let path = writeTemporary(FishCompletion.script(), named: "entitlement.fish", in: directory)
        let result = try runProgram("fish", ["-n", path])
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    /// Sources the bash script, sets COMP_WORDS and COMP_CWORD, calls the function, prints COMPREPLY.
    func bashComplete(_ words: [String], store: String? = nil, in workingDirectory: String? = nil, cacheHome: String? = nil) throws -> [String] {
        let directory = TemporaryDirectory()
        let script = writeTemporary(BashCompletion.script(), named: "entitlement.bash", in: directory)
        let quoted = ([Binary.path] + words).map(ShellQuote.posix).joined(separator: " ")
        let driver = """
            \(workingDirectory.map { "cd \(ShellQuote.posix($0))" } ?? "")
            source \(ShellQuote.posix(script))
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count)
            _entitlement
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // The completion cache goes to this test's folder, never to the real home.
        var environment = ["XDG_CACHE_HOME": cacheHome ?? directory.path + "/cache"]
        environment["ENTITLEMENT_STORE"] = store
        let result = try runProgram("bash", ["-c", driver], environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: programAvailable("bash") && Binary.exists, "bash or the built binary is missing"))
    func bashCompletesCommandsOptionsValuesAndCustomerIDs() throws {
        #expect(try bashComplete(["ch"]) == ["check"])
        #expect(try bashComplete(["st"]) == ["status"])
        #expect(try bashComplete(["check", "alice", "--environment", ""]) == ["production", "sandbox", "any"])
        #expect(try bashComplete(["status", "--out"]) == ["--output"])
        #expect(try bashComplete(["status", "--output", "js"]) == ["json", "jsonl"])
        #expect(try bashComplete(["check", "--at", "to"]) == ["today", "tomorrow"])
        // Customer ids from the store named on the line, and from $ENTITLEMENT_STORE.
        #expect(try bashComplete(["status", "--store", demoStorePath, "gr"]) == ["grace-period"])
        #expect(try bashComplete(["--store", demoStorePath, "history", "refu"]) == ["refunded"])
        #expect(try bashComplete(["check", "lifet"], store: demoStorePath) == ["lifetime"])
        // A second time from the completion cache (the real binary, the real clock): the same answer.
        let cache = TemporaryDirectory()
        for _ in 0..<2 {
            #expect(try bashComplete(["check", "lifet"], store: demoStorePath, cacheHome: cache.path) == ["lifetime"])
        }
        // Entitlements from config.json, as the second argument.
        #expect(try bashComplete(["check", "lifetime", "sp"], store: demoStorePath) == ["sports"])
    }

    /// Ids are data: each completes as one word, quoted so bash reads it back literally, never
    /// globbed against the working directory nor run.
    @Test(.enabled(if: programAvailable("bash") && Binary.exists, "bash or the built binary is missing"))
    func bashCompletesHostileIDsAsOneQuotedWord() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let marker = directory.path + "/pwned"
        let ids = ["x*", "x;touch \(marker)", "x y", "x$(touch \(marker))", "x`touch \(marker)`", "x?'\"\\"]
        for id in ids {
            #expect(runCLI(["--store", store, "grant", id, "sports", "--lifetime", "--reason", "test"]).exitCode == 0, "\(id)")
        }
        let cwd = directory.path + "/cwd"
        try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        for file in ["xa", "xb", "x y"] { _ = FileManager.default.createFile(atPath: cwd + "/" + file, contents: Data()) }
        let replies = try bashComplete(["check", "x"], store: store, in: cwd)
        #expect(replies.count == ids.count, "\(replies)")
        // Reading each reply back as bash would gives the id, one word.
        for reply in replies {
            let result = try runProgram("bash", ["-c", "set -f; words=(\(reply)); printf '%s\\n' \"${#words[@]}\" \"${words[0]}\""])
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "1", "\(reply)")
            #expect(lines.count > 1 && ids.contains(String(lines[1])), "\(reply) -> \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
        // The typed word may already be escaped.
        #expect(try bashComplete(["check", "x\\;"], store: store, in: cwd).count == 1)
    }

    @Test(.enabled(if: programAvailable("groff"), "groff is not installed (scripts/ensure-tools.sh installs it)"))
    func manPageRendersWithoutWarnings() throws {
        let result = try runProgram("groff", ["-man", "-ww", "-z"], stdin: ManPage.render(version: CLI.version))
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func manPageHasASectionPerCommandFromTheDeclarations() {
        let page = ManPage.render(version: CLI.version)
        for spec in CommandSpec.visible {
            #expect(page.contains(".SS \(ManPage.roff(spec.name))\n"))
            for option in spec.options { #expect(page.contains("\\-\\-\(ManPage.roff(option.name))"), "\(spec.name) --\(option.name)") }
        }
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"] { #expect(page.contains(".SH \(section)\n")) }
    }

    @Test func committedManPageMatchesTheDeclarations() {
        // `make man` regenerates docs/entitlement.1.
        #expect(readFile(repositoryRoot + "/docs/entitlement.1") == runCLI(["man"]).stdout)
    }

    @Test func everyCommandAndOptionIsInEveryScript() {
        let scripts = [BashCompletion.script(), ZshCompletion.script(), FishCompletion.script()]
        for spec in CommandSpec.visible {
            for script in scripts { #expect(script.contains(spec.name)) }
            for option in spec.options {
                #expect(scripts[0].contains("--\(option.name)") && scripts[1].contains("--\(option.name)") && scripts[2].contains("-l \(option.name)"))
            }
        }
    }
}
