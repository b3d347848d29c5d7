import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Completion as a person gets it: `entitlement status alice@cu<Tab>` typed into a real
/// interactive bash on a pseudo-terminal, and the edited line read back. Readline, not the
/// completion function, decides which part of the line a reply replaces (the text after the
/// last COMP_WORDBREAKS character, or from it for `@` and `$`), so only a real line editor
/// shows whether an `@` survives. Run three ways: with Debian's bash-completion loaded as it
/// comes (`@` taken out of COMP_WORDBREAKS by `shopt -u hostcomplete`), with bash-completion
/// and `@` in COMP_WORDBREAKS (hostcomplete on), and in a bash without bash-completion.
@Suite(.tags(.endToEnd))
struct BashInteractiveCompletionTests {
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"

    enum Setup: String, CaseIterable, CustomTestStringConvertible {
        case bashCompletion, bashCompletionWithHostcomplete, plainBash
        var testDescription: String { rawValue }
        var rcLines: String {
            switch self {
            case .bashCompletion: "source \(BashInteractiveCompletionTests.bashCompletion)"
            case .bashCompletionWithHostcomplete: "source \(BashInteractiveCompletionTests.bashCompletion); shopt -s hostcomplete"
            case .plainBash: ":"
            }
        }
    }

    /// zsh's zpty gives bash a pseudo-terminal: the rc file sets bash up, the line is typed with
    /// a Tab, then Ctrl-X runs a `bind -x` command that writes READLINE_LINE to a file.
    static let driver = #"""
        zmodload zsh/zpty || exit 3
        rc=$1 out=$2 line=$3
        zpty -b b bash --noprofile --rcfile $rc -i
        zpty -w -n b "entitlement $line"$'\t'
        sleep 0.3
        zpty -w -n b $'\x18'
        for i in {1..300}; do [[ -s $out ]] && break; sleep 0.1; done
        zpty -d b
        [[ -s $out ]] || exit 4
        """#

    static var available: Bool {
        programAvailable("bash") && programAvailable("zsh") && FileManager.default.fileExists(atPath: bashCompletion) && Binary.exists
    }

    @Test(.enabled(if: available, "bash, zsh, bash-completion or the built binary is missing"), arguments: Setup.allCases)
    func typedIDsKeepEveryCharacter(_ setup: Setup) throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        for id in CompletionWordBreakTests.ids { #expect(runCLI(["grant", id, "premium", "--lifetime", "--store", store]).exitCode == 0) }
        let script = writeTemporary(BashCompletion.script(), named: "entitlement.bash", in: directory)
        let binaryFolder = (Binary.path as NSString).deletingLastPathComponent
        let driver = writeTemporary(Self.driver, named: "drive.zsh", in: directory)
        func complete(_ line: String) throws -> String {
            let out = directory.path + "/line-\(UUID().uuidString)"
            let rc = writeTemporary("""
                PS1=''; PS2=''; PATH=\(ShellQuote.posix(binaryFolder)):$PATH
                \(setup.rcLines)
                source \(ShellQuote.posix(script))
                bind -x '"\\C-x": printf "%s" "$READLINE_LINE" > \(out)'

                """, named: "rc-\(UUID().uuidString)", in: directory)
            let result = try runProgram("zsh", ["-f", driver, rc, out, line],
                                        environment: ["ENTITLEMENT_STORE": store, "XDG_CACHE_HOME": directory.path + "/cache", "HOME": directory.path])
            #expect(result.exitCode == 0, "\(setup.rawValue): \(line): \(result.stderr)")
            let edited = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            return String(edited.dropFirst("entitlement ".count))
        }
        #expect(try complete("status alice@cu") == "status alice@customer.com ")
        #expect(try complete("status alice@") == "status alice@customer.com ")
        #expect(try complete("status alin") == "status alina@customer.com ")
        #expect(try complete("history carol:x") == "history carol:x=1 ")
        #expect(try complete("history carol:x=") == "history carol:x=1 ")
        #expect(try complete("check dan\\ smith@x") == "check dan\\ smith@x.io ")
        #expect(try complete("check 'dan sm") == "check 'dan smith@x.io' ")
        #expect(try complete("check \"dan sm") == "check \"dan smith@x.io\" ")
        #expect(try complete("grant bob@customer.com sp") == "grant bob@customer.com sports ")
        #expect(try complete("status zz@") == "status zz@")
    }
}
