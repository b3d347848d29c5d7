import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// Every usage error `Command.parse` reports: exit 2, a message that says what is
    /// wrong, and the command whose usage line the CLI prints after it.
    struct ParserErrorTests {
        struct UsageCase: Sendable, CustomTestStringConvertible {
            var arguments: [String]
            /// A part of the message that must appear.
            var message: String
            /// The command named by the error (nil: no usage line applies).
            var command: String?
            var testDescription: String { arguments.map { $0.isEmpty ? "''" : $0 }.joined(separator: " ") }

            init(_ arguments: [String], _ message: String, command: String? = nil) {
                self.arguments = arguments
                self.message = message
                self.command = command ?? arguments.first.flatMap { name in Command.table.contains { $0.spec.name == name } ? name : nil }
            }
        }

        static let longUserID = String(repeating: "x", count: 4097)

        static let cases: [UsageCase] = [
            // Commands and options that do not exist
            UsageCase(["chek", "alice"], "unknown command 'chek'. Did you mean 'check'?"),
            UsageCase(["grnat"], "Did you mean 'grant'?"),
            UsageCase(["frobnicate"], "unknown command 'frobnicate'."),
            UsageCase(["--store", "s"], "missing command after --store s."),
            UsageCase(["--at", "2026-01-01", "check", "alice"], "unknown option '--at' before the command"),
            // Before the command a global option the command does not take is left out; after it, refused.
            UsageCase(["path", "alice", "--output", "json"], "unknown option '--output' for 'path'.", command: "path"),
            UsageCase(["help", "nope"], "unknown command 'nope'."),
            UsageCase(["help", "grant", "check"], "help takes at most one command.", command: "help"),
            UsageCase(["check", "alice", "--jsn"], "unknown option '--jsn' for 'check'. Did you mean '--json'?"),
            UsageCase(["status", "alice", "--expalin"], "Did you mean '--explain'?"),
            UsageCase(["grant", "alice", "premium", "--lifetim"], "Did you mean '--lifetime'?"),
            UsageCase(["check", "alice", "-x"], "unknown option '-x' for 'check'."),
            UsageCase(["path", "alice", "--at", "2026-01-01"], "unknown option '--at' for 'path'."),
            // Positional arguments
            UsageCase(["check"], "missing argument USER."),
            UsageCase(["status"], "missing argument USER."),
            UsageCase(["history"], "missing argument USER."),
            UsageCase(["grant", "alice"], "missing argument ENTITLEMENT."),
            UsageCase(["revoke"], "missing argument USER."),
            UsageCase(["path"], "missing argument USER."),
            UsageCase(["status", "alice", "bob"], "unexpected argument 'bob'."),
            UsageCase(["check", "alice", "premium", "extra"], "unexpected argument 'extra'."),
            UsageCase(["check", "--stdin", "premium", "extra"], "unexpected argument 'extra': --stdin reads the user ids; the only other argument is ENTITLEMENT."),
            UsageCase(["check", "--stdin", "alice", "premium"], "unexpected argument 'premium': --stdin reads the user ids"),
            UsageCase(["check", "--profile-id", "6b1c", "alice", "premium"], "unexpected argument 'premium': --profile-id names the profile"),
            UsageCase(["status", "--profile-id", "p1", "alice"], "unexpected argument 'alice'."),
            UsageCase(["grant", "alice", "premium", "extra", "--lifetime"], "unexpected argument 'extra'."),
            UsageCase(["init", "extra"], "unexpected argument 'extra'."),
            // Option values
            UsageCase(["check", "alice", "--at"], "option '--at' needs a value (DATE)"),
            UsageCase(["grant", "alice", "premium", "--duration"], "option '--duration' needs a value (D)"),
            UsageCase(["check", "alice", "--json=yes"], "option '--json' takes no value."),
            UsageCase(["status", "alice", "--json", "--output", "csv"], "--json means --output json; it cannot be combined with --output csv."),
            UsageCase(["status", "alice", "--output", "xml"], "invalid value for --output: 'xml'; expected table, json, jsonl, csv or tsv."),
            UsageCase(["status", "alice", "--output", "csv", "--explain"], "--explain prints with the table or json output, not csv."),
            UsageCase(["check", "alice", "--color", "sometimes"], "invalid value for --color: 'sometimes'"),
            UsageCase(["completions", "tcsh"], "unknown shell 'tcsh'; expected bash, zsh or fish."),
            UsageCase(["check", "alice", "--at", "-3x"], "invalid date for --at: '-3x'."),
            UsageCase(["check", "alice", "--at", "+99999999d"], "invalid date for --at"),
            UsageCase(["check", "alice", "--at", "2026-13-01"], "invalid date for --at: '2026-13-01'."),
            UsageCase(["status", "alice", "--at", "last week"], "invalid date for --at: 'last week'."),
            UsageCase(["check", "alice", "--at", "2026-01-15T12:00:00"], "invalid date for --at"),
            UsageCase(["history", "alice", "--since", "2026-02-30"], "invalid date for --since: '2026-02-30'."),
            UsageCase(["check", "alice", "--environment", "prod"], "invalid value for --environment: 'prod'; expected production, sandbox or any. Did you mean 'production'?"),
            UsageCase(["status", "alice", "--environment", "staging"], "invalid value for --environment: 'staging'"),
            UsageCase(["check", "alice", "--quiet", "--json"], "--quiet cannot be combined with --json or --explain."),
            UsageCase(["check", "alice", "-q", "--explain"], "--quiet cannot be combined with --json or --explain."),
            UsageCase(["check", "--stdin", "--profile-id", "p1"], "--stdin and --profile-id cannot be used together."),
            UsageCase(["check", "--stdin", "--explain"], "--explain checks one user"),
            UsageCase(["status", "--profile-id", ""], "option '--profile-id' needs a non-empty value."),
            UsageCase(["check", "alice", ""], "the entitlement must not be empty."),
            UsageCase(["history", "alice", "--entitlement", ""], "option '--entitlement' needs a non-empty value."),
            UsageCase(["history", "alice", "--limit", "0"], "invalid value for --limit: '0'; expected a whole number above 0."),
            UsageCase(["history", "alice", "--limit", "-3"], "invalid value for --limit: '-3'"),
            UsageCase(["history", "alice", "--limit", "ten"], "invalid value for --limit: 'ten'"),
            UsageCase(["history", "alice", "--limit", "1.5"], "invalid value for --limit: '1.5'"),
            // grant
            UsageCase(["grant", "alice", "premium"], "missing --duration, --until or --lifetime"),
            UsageCase(["grant", "alice", "premium", "--duration", "1d", "--lifetime"], "give only one of --duration, --until and --lifetime (got --duration and --lifetime)."),
            UsageCase(["grant", "alice", "premium", "--duration", "1d", "--until", "2026-03-01"], "(got --duration and --until)"),
            UsageCase(["grant", "alice", "premium", "--until", "2026-03-01", "--lifetime"], "(got --until and --lifetime)"),
            UsageCase(["grant", "alice", "premium", "--duration", "0d"], "invalid duration '0d'."),
            UsageCase(["grant", "alice", "premium", "--duration", "-1d"], "invalid duration '-1d'."),
            UsageCase(["grant", "alice", "premium", "--duration", "7"], "invalid duration '7'."),
            UsageCase(["grant", "alice", "premium", "--duration", "7x"], "invalid duration '7x'."),
            UsageCase(["grant", "alice", "premium", "--duration", "P0D"], "the duration must be longer than zero."),
            UsageCase(["grant", "alice", "premium", "--duration", "PT0S"], "the duration must be longer than zero."),
            UsageCase(["grant", "alice", "premium", "--until", "2026-02-01", "--starts", "2026-03-01"],
                      "--until (2026-02-01T00:00:00Z) must be after --starts (2026-03-01T00:00:00Z)."),
            UsageCase(["grant", "alice", "premium", "--until", "2026-03-01", "--starts", "2026-03-01"], "must be after --starts"),
            UsageCase(["grant", "alice", "premium", "--until", "31/12/2026"], "invalid date for --until: '31/12/2026'."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--starts", "soon"], "invalid date for --starts: 'soon'."),
            UsageCase(["grant", "", "premium", "--lifetime"], "the user id must not be empty."),
            UsageCase(["grant", longUserID, "premium", "--lifetime"], "the user id is longer than 4096 bytes."),
            UsageCase(["grant", "alice", "", "--lifetime"], "the entitlement must not be empty."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--reason", ""], "option '--reason' needs a non-empty value."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--reason", " \n"], "option '--reason' needs a non-empty value."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--actor", ""], "option '--actor' needs a non-empty value."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--idempotency-key", ""], "option '--idempotency-key' needs a non-empty value."),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--lock-timeout", "-1"], "invalid value for --lock-timeout: '-1'"),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--lock-timeout", "soon"], "invalid value for --lock-timeout: 'soon'"),
            UsageCase(["grant", "alice", "premium", "--lifetime", "--lock-timeout", "inf"], "invalid value for --lock-timeout: 'inf'"),
            // revoke, init, path
            UsageCase(["revoke", "alice", "premium", "--transaction", ""], "option '--transaction' needs a non-empty value."),
            UsageCase(["revoke", "", "premium"], "the user id must not be empty."),
            UsageCase(["revoke", "alice", "premium", "--reason", ""], "option '--reason' needs a non-empty value."),
            UsageCase(["init", "--entitlement", ""], "option '--entitlement' needs a non-empty value."),
            UsageCase(["init", "--entitlement", "a\u{7}b"], "invalid entitlement id 'a\\u{7}b'"),
            UsageCase(["path", ""], "the user id must not be empty."),
        ]

        @Test(arguments: cases)
        func usageError(_ item: UsageCase) {
            let error = #expect(throws: EntitlementError.self) { try Command.parse(item.arguments) }
            #expect(error?.exitCode == .usage)
            #expect(error?.description.contains(item.message) == true, "\(error?.description ?? "no error")")
            #expect(error?.usageCommand == item.command)
        }

        @Test func wholeErrorValuesCompareEqual() {
            #expect(throws: EntitlementError.usage("missing argument USER.", command: "status")) { try Command.parse(["status"]) }
            #expect(throws: EntitlementError.usage("--quiet cannot be combined with --json or --explain.", command: "check")) {
                try Command.parse(["check", "alice", "--quiet", "--json"])
            }
            #expect(throws: EntitlementError.usage("the duration must be longer than zero.", command: "grant")) {
                try Command.parse(["grant", "alice", "premium", "--duration", "P0D"])
            }
        }

        @Test func unknownCommandHintsAtTheCommandList() {
            let error = #expect(throws: EntitlementError.self) { try Command.parse(["frobnicate"]) }
            #expect(error?.hint == "See 'entitlement --help' for the list of commands.")
            #expect(error?.description.contains("Did you mean") == false)
        }

        @Test func invalidDurationHintsAtTheAcceptedForms() {
            let error = #expect(throws: EntitlementError.self) { try Command.parse(["grant", "a", "premium", "--duration", "soon"]) }
            #expect(error?.hint?.contains("7d") == true)
        }

        @Test func invalidDateHintsAtISO8601() {
            let error = #expect(throws: EntitlementError.self) { try Command.parse(["check", "alice", "--at", "noon"]) }
            #expect(error?.hint?.contains("ISO 8601") == true)
        }

        @Test func controlCharactersInMessagesAreEscaped() {
            let error = #expect(throws: EntitlementError.self) { try Command.parse(["check", "alice", "--\u{1b}[31m"]) }
            #expect(error?.description.contains("\u{1b}") == false)
            #expect(error?.description.contains("\\u{1b}") == true)
        }

        @Test func negativeNumberIsAPositionalNotAnUnknownOption() {
            // `-3` counts as the ENTITLEMENT positional, so `extra` is the surplus argument.
            let error = #expect(throws: EntitlementError.self) { try Command.parse(["check", "alice", "-3", "extra"]) }
            #expect(error?.description == "unexpected argument 'extra'.")
        }
    }
}
