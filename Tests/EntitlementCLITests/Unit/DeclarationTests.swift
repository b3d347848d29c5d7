import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// The option and command declarations that help, completions and the man page read.
    struct DeclarationTests {
        @Test func everyValueOptionDeclaresWhatItTakes() {
            for spec in Command.specs {
                for option in spec.options {
                    #expect((option.kind == nil) == !option.takesValue, "\(spec.name) --\(option.name)")
                }
                #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(spec.name): option names are unique")
            }
        }

        @Test func defaultsComeFromOneDeclaration() throws {
            let check = try #require(Command.specs.first { $0.name == "check" })
            #expect(check.arguments[1].helpLine.contains("(default: \(CheckCommand.defaultEntitlement))"))
            #expect(CommonOptions.lockTimeout.defaultValue == EntitlementStore.defaultLockTimeout)
            let shown = formatSeconds(EntitlementStore.defaultLockTimeout)
            #expect(CommonOptions.lockTimeout.spec.helpLine.hasSuffix("(default: $ENTITLEMENT_LOCK_TIMEOUT, then \(shown))."))
            #expect(CommonOptions.environment.spec.kind == .choice(["production", "sandbox", "any"]))
            #expect(try CommonOptions.lockTimeout.resolve(given: nil, environment: ["ENTITLEMENT_LOCK_TIMEOUT": "2.5"]) == 2.5)
            #expect(try CommonOptions.lockTimeout.resolve(given: 1, environment: ["ENTITLEMENT_LOCK_TIMEOUT": "2.5"]) == 1)
            #expect(try CommonOptions.lockTimeout.resolve(given: nil, environment: [:]) == EntitlementStore.defaultLockTimeout)
        }

        @Test func typedReadsGoThroughTheParser() throws {
            let parsed = try ParsedArguments.parse(["alice", "--at", "2026-01-15", "--environment", "sandbox"], spec: CheckCommand.spec)
            #expect(try parsed.value(CommonOptions.at) == ISODate.parse("2026-01-15T00:00:00Z"))
            #expect(try parsed.value(CommonOptions.environment) == .sandbox)
            #expect(try parsed.value(CommonOptions.store) == nil)
            let bad = try ParsedArguments.parse(["alice", "--environment", "prod"], spec: CheckCommand.spec)
            #expect(throws: EntitlementError.usage("invalid value for --environment: 'prod'; expected production, sandbox or any. Did you mean 'production'?",
                                                   command: "check")) { try bad.value(CommonOptions.environment) }
        }

        @Test func versionFlagIsInTheMainHelpBecauseItIsDeclared() throws {
            #expect(HelpText.main(Command.specs).contains("-V, --version"))
            guard case .version = try Command.parse(["-V"]) else { Issue.record("-V is not version"); return }
        }

        /// The compiler checks the switch in CLI.run; this checks the table that parses names.
        @Test func everyDeclaredCommandParsesToItsOwnCase() throws {
            let samples: [String: [String]] = [
                "check": ["check", "a"], "status": ["status", "a"], "history": ["history", "a"], "grant": ["grant", "a", "premium", "--lifetime"],
                "revoke": ["revoke", "a", "premium"], "import": ["import", "f.json"], "init": ["init"], "path": ["path", "a"],
                "completions": ["completions", "zsh"], "man": ["man"], "__complete": ["__complete", "users", "a"],
                "find": ["find", "--state", "active"], "summary": ["summary"], "verify": ["verify"],
                "restore": ["restore", "a", "premium", "--reason", "r"],
                "clone": ["clone", "/srv/store.git"], "sync": ["sync"], "migrate": ["migrate", "--layout", "fanout"],
                "merge-driver": ["merge-driver", "o", "a", "b", "p"], "log": ["log", "--since", "2026-01-01", "--event", "grant,revocation"],
                "ingest": ["ingest", "--status"], "webhook": ["webhook", "appstore"], "refresh": ["refresh", "a", "--vendor", "revenuecat"], "lookup": ["lookup", "MQSVG1AB2C"],
                "transfer": ["transfer", "a", "b", "--reason", "r"],
            ]
            for entry in Command.table + Command.plumbing {
                let spec = entry.spec
                #expect(entry.name == spec.name, "the table's name for \(spec.name) is its declaration's")
                let command = try Command.parse(try #require(samples[spec.name], "\(spec.name) has a sample"))
                #expect(command.spec?.name == spec.name)
            }
        }
    }

    /// Every error's machine code, exit code and message come from one place.
    struct ErrorPresentationTests {
        static let samples: [EntitlementError] = [
            .usage("x"), .invalidArgumentEncoding(position: 1, escaped: "\\xff"), .invalidUserID(.empty), .unknownUser("u"), .unknownProfileID("p"),
            .unknownEntitlement(UnknownEntitlement("premum", known: ["premium"])), .grant(.startsInPast(Date(timeIntervalSince1970: 0))),
            .grant(.idempotencyKeyReused(key: "k", usedFor: "a", requested: "b")), .revoke(.transactionNotFound(id: "t", user: "u")),
            .revoke(.transactionDoesNotGrant(id: "t", entitlement: "e")), .storeMissing(path: "/s"), .storeExists(path: "/s"),
            .invalidFile(path: "/f", detail: "d"), .newerSchema(path: "/f", version: 2), .invalidImport(file: "f", detail: "d"),
            .io(path: "/f", message: "m"), .busy(path: "/l", seconds: 10), .git(message: "m", hint: nil),
            .remoteUnavailable(remote: "origin", detail: "d"), .cannotMerge(path: "config.json", conflicts: ["c"]),
            .vendorAPI(.missingKey(key: "revenuecat.api_key", file: "/s.json")), .vendorAPI(.unreachable(url: "https://x", detail: "d")),
            .vendorAPI(.timedOut(url: "https://x", seconds: 1)), .vendorAPI(.status(url: "https://x", code: 503)),
        ]

        @Test func codesAreStableSnakeCaseNames() {
            for error in Self.samples {
                #expect(!error.code.isEmpty && error.code.allSatisfy { $0.isLowercase || $0 == "_" }, "\(error.code)")
                #expect(!error.description.isEmpty)
            }
            #expect(EntitlementError.unknownEntitlement(UnknownEntitlement("x", known: [])).code == "unknown_entitlement")
            #expect(EntitlementError.storeMissing(path: "/s").code == "store_not_found")
            #expect(EntitlementError.busy(path: "/l", seconds: 10).code == "lock_timeout")
            #expect(EntitlementError.newerSchema(path: "/f", version: 2).code == "newer_schema")
            #expect(EntitlementError.remoteUnavailable(remote: "origin", detail: "d").code == "remote_unavailable")
            #expect(EntitlementError.remoteUnavailable(remote: "origin", detail: "d").exitCode == .remoteUnavailable)
            #expect(EntitlementError.cannotMerge(path: "config.json", conflicts: []).code == "merge_conflict")
            #expect(EntitlementError.git(message: "m", hint: nil).code == "git_error")
            // refresh: set-up 2, unreachable 6, a wrong answer 4 (docs/ingest.md, "refresh").
            #expect(EntitlementError.vendorAPI(.missingKey(key: "k", file: "f")).exitCode == .usage)
            #expect(EntitlementError.vendorAPI(.timedOut(url: "u", seconds: 1)).exitCode == .remoteUnavailable)
            #expect(EntitlementError.vendorAPI(.status(url: "u", code: 500)).exitCode == .dataError)
        }

        @Test func exitCodesFollowTheDocumentedTable() {
            let codes = Dictionary(Self.samples.map { ($0.code, $0.exitCode) }, uniquingKeysWith: { first, _ in first })
            #expect(codes["usage"] == .usage && codes["invalid_user_id"] == .usage && codes["invalid_encoding"] == .usage)
            #expect(codes["unknown_user"] == .notFound && codes["unknown_entitlement"] == .notFound && codes["unknown_transaction"] == .notFound)
            #expect(codes["invalid_file"] == .dataError && codes["newer_schema"] == .dataError && codes["io_error"] == .dataError)
            #expect(codes["lock_timeout"] == .busy)
            #expect(ExitCode.worst(.notEntitled, .dataError) == .dataError && ExitCode.worst(.busy, .usage) == .busy)
        }

        @Test func newerSchemaIsTypedNotMatchedByText() {
            let error = EntitlementStore.fieldError(FieldError(path: "schema_version", message: "anything", newerSchemaVersion: 3), path: "/p.json")
            #expect(error == .newerSchema(path: "/p.json", version: 3))
            #expect(error.description == "/p.json: schema_version 3 is newer than this tool supports (1); upgrade entitlement")
            #expect(EntitlementStore.fieldError(FieldError(path: "schema_version", message: "schema_version 3 is newer"), path: "/p.json").code == "invalid_file")
        }
    }
}
