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

/// Issue 23 item 5: completion of customer ids holding `@`, `:`, `=` and spaces (bash, fish).
///
/// bash cuts COMP_WORDS at every COMP_WORDBREAKS character, so `alice@cu` reaches the
/// function as `alice`, `@`, `cu`, and the reply replaces only `cu`. Each case gives the
/// line up to the cursor (COMP_LINE, COMP_POINT) and COMP_WORDS exactly as bash splits it.
@Suite(.tags(.endToEnd))
struct CompletionWordBreakTests {
    static let ids = ["alice@customer.com", "alina@customer.com", "bob@customer.com", "carol:x=1", "dan smith@x.io"]

    func complete(line: String, bashWords: [String], store: String) throws -> [String] {
        let directory = TemporaryDirectory()
        let script = writeTemporary(BashCompletion.script(), named: "entitlement.bash", in: directory)
        let words = ([Binary.path] + bashWords).map(ShellQuote.posix).joined(separator: " ")
        let full = ShellQuote.posix(Binary.path + " " + line)
        let driver = """
            source \(ShellQuote.posix(script))
            COMP_LINE=\(full)
            COMP_POINT=${#COMP_LINE}
            COMP_WORDS=(\(words))
            COMP_CWORD=\(bashWords.count)
            _entitlement
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProgram("bash", ["-c", driver], environment: ["ENTITLEMENT_STORE": store, "XDG_CACHE_HOME": directory.path + "/cache"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: programAvailable("bash") && Binary.exists, "bash or the built binary is missing"))
    func idsWithWordBreaksComplete() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        for id in Self.ids { #expect(runCLI(["grant", id, "premium", "--lifetime", "--store", store]).exitCode == 0) }
        // `status alice@cu<Tab>`: bash replaces `cu`.
        #expect(try complete(line: "status alice@cu", bashWords: ["status", "alice", "@", "cu"], store: store) == ["customer.com"])
        // `status alice@<Tab>`: bash replaces `@`; never a host name.
        #expect(try complete(line: "status ali", bashWords: ["status", "ali"], store: store) == ["alice@customer.com", "alina@customer.com"])
        #expect(try complete(line: "status alice@", bashWords: ["status", "alice", "@"], store: store) == ["@customer.com"])
        // `grant bob@customer.com <Tab>`: the second argument, so entitlements, not files.
        #expect(try complete(line: "grant bob@customer.com ", bashWords: ["grant", "bob", "@", "customer.com", ""], store: store)
            == ["premium", "sports", "science"])
        // `:` and `=` break words too.
        #expect(try complete(line: "history carol:x", bashWords: ["history", "carol", ":", "x"], store: store) == ["x=1"])
        #expect(try complete(line: "history carol:x=", bashWords: ["history", "carol", ":", "x", "="], store: store) == ["=1"])
        // A space typed with a backslash stays inside the word, for bash and for us.
        #expect(try complete(line: "check dan\\ sm", bashWords: ["check", "dan\\ sm"], store: store) == ["dan\\ smith@x.io"])
        #expect(try complete(line: "check dan\\ smith@x", bashWords: ["check", "dan\\ smith", "@", "x"], store: store) == ["x.io"])
        // An unknown id gives nothing at all (no file or host names: no -o default).
        #expect(try complete(line: "status zz@", bashWords: ["status", "zz", "@"], store: store).isEmpty)
        #expect(BashCompletion.script().contains("\ncomplete -F _entitlement entitlement\n"))
    }

    /// fish hands the token over as typed (`dan\ sm`); the script unescapes it first.
    @Test(.enabled(if: programAvailable("fish") && Binary.exists, "fish or the built binary is missing"))
    func fishCompletesIDsWithWordBreaks() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        for id in Self.ids { #expect(runCLI(["grant", id, "premium", "--lifetime", "--store", store]).exitCode == 0) }
        let script = writeTemporary(FishCompletion.script(), named: "entitlement.fish", in: directory)
        let binaryFolder = (Binary.path as NSString).deletingLastPathComponent
        func complete(_ line: String) throws -> [String] {
            let driver = "source \(ShellQuote.posix(script)); complete -C \(ShellQuote.posix("entitlement " + line))"
            let path = binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let result = try runProgram("fish", ["-c", driver], environment: ["ENTITLEMENT_STORE": store, "XDG_CACHE_HOME": directory.path + "/cache", "PATH": path])
            #expect(result.exitCode == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("status alice@cu") == ["alice@customer.com"])
        #expect(try complete("history carol:x=") == ["carol:x=1"])
        #expect(try complete("check dan\\ sm") == ["dan smith@x.io"])
        #expect(try complete("check 'dan sm") == ["dan smith@x.io"])
        #expect(try complete("grant bob@customer.com sp") == ["sports"])
    }
}
