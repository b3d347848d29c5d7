import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Completion of customer ids holding `@`, `:`, `=` and spaces (bash, zsh, fish).
///
/// bash cuts COMP_WORDS at every COMP_WORDBREAKS character, so `alice@cu` reaches the
/// function as `alice`, `@`, `cu`; readline then replaces `@cu` (it keeps `@` and `$` in the
/// word), or after `:` and `=` only the text behind them. Each case gives the line up to the
/// cursor (COMP_LINE, COMP_POINT) and COMP_WORDS exactly as bash splits it, with bash's default
/// COMP_WORDBREAKS; BashInteractiveCompletionTests types the same lines into a real bash.
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
        // `status alice@cu<Tab>`: readline replaces `@cu`.
        #expect(try complete(line: "status alice@cu", bashWords: ["status", "alice", "@", "cu"], store: store) == ["@customer.com"])
        // `status alice@<Tab>`: bash replaces `@`; never a host name.
        #expect(try complete(line: "status ali", bashWords: ["status", "ali"], store: store) == ["alice@customer.com", "alina@customer.com"])
        #expect(try complete(line: "status alice@", bashWords: ["status", "alice", "@"], store: store) == ["@customer.com"])
        // `grant bob@customer.com <Tab>`: the second argument, so entitlements, not files.
        #expect(try complete(line: "grant bob@customer.com ", bashWords: ["grant", "bob", "@", "customer.com", ""], store: store)
            == ["premium", "sports", "science"])
        // `:` and `=` break words too.
        #expect(try complete(line: "history carol:x", bashWords: ["history", "carol", ":", "x"], store: store) == ["x=1"])
        #expect(try complete(line: "history carol:x=", bashWords: ["history", "carol", ":", "x", "="], store: store) == ["1"])
        // A space typed with a backslash stays inside the word, for bash and for us.
        #expect(try complete(line: "check dan\\ sm", bashWords: ["check", "dan\\ sm"], store: store) == ["dan\\ smith@x.io"])
        #expect(try complete(line: "check dan\\ smith@x", bashWords: ["check", "dan\\ smith", "@", "x"], store: store) == ["@x.io"])
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
        #expect(try complete("grant 'dan smith@x.io' sp") == ["sports"])
        #expect(try complete("status zz@").isEmpty)
    }

    /// zsh completes only inside its line editor, so a real interactive zsh runs on a pseudo-
    /// terminal (`zpty`, as zsh's own completion tests do): the line is typed, then Tab, then
    /// a key bound to a widget that writes the edited line to a file.
    static let zshDriver = #"""
        zmodload zsh/zpty || exit 3
        fndir=$1 bindir=$2 out=$3 line=$4
        zpty -b z zsh -f -i
        zpty -w z "PS1='' RPROMPT=''; path=(${(q)bindir} \$path); fpath=(${(q)fndir} \$fpath); autoload -Uz compinit; compinit -u -D; \
        dump() { print -r -- \"\$BUFFER\" >| ${(q)out}; }; zle -N dump; bindkey '^X' dump; zstyle ':completion:*' menu no"
        zpty -w -n z "entitlement $line"$'\t'$'\x18'
        for i in {1..200}; do [[ -s $out ]] && break; sleep 0.1; done
        zpty -d z
        [[ -s $out ]] || exit 4
        """#

    /// zsh's `PREFIX` is the word as typed: `dan\ sm` completed nothing until the script unquoted it.
    @Test(.enabled(if: programAvailable("zsh") && Binary.exists, "zsh or the built binary is missing"))
    func zshCompletesIDsWithWordBreaks() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        for id in Self.ids { #expect(runCLI(["grant", id, "premium", "--lifetime", "--store", store]).exitCode == 0) }
        let functions = directory.path + "/functions"
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        _ = writeTemporary(ZshCompletion.script(), named: "functions/_entitlement", in: directory)
        let driver = writeTemporary(Self.zshDriver, named: "drive.zsh", in: directory)
        let binaryFolder = (Binary.path as NSString).deletingLastPathComponent
        func complete(_ line: String) throws -> String {
            let out = directory.path + "/line-\(UUID().uuidString)"
            let result = try runProgram("zsh", ["-f", driver, functions, binaryFolder, out, line],
                                        environment: ["ENTITLEMENT_STORE": store, "XDG_CACHE_HOME": directory.path + "/cache", "HOME": directory.path])
            #expect(result.exitCode == 0, "\(result.stderr)")
            let edited = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            return String(edited.dropFirst("entitlement ".count)).trimmingCharacters(in: .newlines)
        }
        #expect(try complete("status alice@cu") == "status alice@customer.com ")
        #expect(try complete("history carol:x") == "history carol:x=1 ")
        #expect(try complete("status carol:x=") == "status carol:x=1 ")
        #expect(try complete("check dan\\ sm") == "check dan\\ smith@x.io ")
        #expect(try complete("check 'dan sm") == "check 'dan smith@x.io' ")
        #expect(try complete("grant bob@customer.com sp") == "grant bob@customer.com sports ")
        #expect(try complete("grant 'dan smith@x.io' sp") == "grant 'dan smith@x.io' sports ")
        // Two ids share `ali`: the line keeps what they share; an unknown id changes nothing.
        #expect(try complete("status alin") == "status alina@customer.com ")
        #expect(try complete("status zz@") == "status zz@")
    }
}
