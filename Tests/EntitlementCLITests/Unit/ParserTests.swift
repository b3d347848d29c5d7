import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `Command.parse` on valid command lines: the right command with the right values.
    struct ParserTests {
        typealias F = Fixture

        /// The parsed command, or nil (with a recorded issue) when `arguments` parse to another case.
        func parsed<C>(_ arguments: [String], _ match: (Command) -> C?) throws -> C? {
            let command = try Command.parse(arguments)
            guard let matched = match(command) else {
                Issue.record("\(arguments) parsed to \(command)")
                return nil
            }
            return matched
        }

        func parseCheck(_ arguments: [String]) throws -> CheckCommand? { try parsed(arguments) { if case .check(let c) = $0 { c } else { nil } } }
        func parseStatus(_ arguments: [String]) throws -> StatusCommand? { try parsed(arguments) { if case .status(let c) = $0 { c } else { nil } } }
        func parseHistory(_ arguments: [String]) throws -> HistoryCommand? { try parsed(arguments) { if case .history(let c) = $0 { c } else { nil } } }
        func parseGrant(_ arguments: [String]) throws -> GrantCommand? { try parsed(arguments) { if case .grant(let c) = $0 { c } else { nil } } }
        func parseRevoke(_ arguments: [String]) throws -> RevokeCommand? { try parsed(arguments) { if case .revoke(let c) = $0 { c } else { nil } } }
        func parseInitStore(_ arguments: [String]) throws -> InitCommand? { try parsed(arguments) { if case .initStore(let c) = $0 { c } else { nil } } }
        func parsePath(_ arguments: [String]) throws -> PathCommand? { try parsed(arguments) { if case .path(let c) = $0 { c } else { nil } } }

        func helpName(_ arguments: [String]) throws -> String?? {
            guard case .help(let spec) = try Command.parse(arguments) else { return nil }
            return .some(spec?.name)
        }

        // MARK: check

        @Test func checkDefaults() throws {
            let check = try #require(try parseCheck(["check", "alice@example.com"]))
            #expect(check.subject == .single(.user("alice@example.com")))
            #expect(check.entitlement == "premium")
            #expect(check.store == nil && check.at == nil)
            #expect(check.environment == .any)
            #expect(!check.quiet && !check.json && !check.strict && !check.explain)
        }

        @Test func checkWithEveryOption() throws {
            let check = try #require(try parseCheck(
                ["check", "alice", "sports", "--store", "store", "--at", "2026-01-15T13:00:00+01:00", "--environment", "sandbox",
                 "--json", "--strict", "--explain"]))
            #expect(check.subject == .single(.user("alice")))
            #expect(check.entitlement == "sports")
            #expect(check.store == "store")
            #expect(check.at == F.date("2026-01-15T12:00:00Z"))
            #expect(check.environment == .sandbox)
            #expect(check.json && check.strict && check.explain && !check.quiet)
        }

        @Test func checkInlineValuesShortFlagsAndDoubleDash() throws {
            let inline = try #require(try parseCheck(["check", "alice", "--at=2026-01-15", "--environment=production", "-q"]))
            #expect(inline.at == F.date("2026-01-15T00:00:00Z"))
            #expect(inline.environment == .production)
            #expect(inline.quiet)
            let dashed = try #require(try parseCheck(["check", "--", "-alice", "--json"]))
            #expect(dashed.subject == .single(.user("-alice")))
            #expect(dashed.entitlement == "--json")
        }

        @Test func checkStdinAndProfileID() throws {
            let batch = try #require(try parseCheck(["check", "--stdin", "sports", "--quiet"]))
            #expect(batch.subject == .standardInput)
            #expect(batch.entitlement == "sports")
            let byProfile = try #require(try parseCheck(["check", "--profile-id", "6b1c", "sports"]))
            #expect(byProfile.subject == .single(.profileID("6b1c")))
            #expect(byProfile.entitlement == "sports")
        }

        // MARK: status, history

        @Test func status() throws {
            let status = try #require(try parseStatus(
                ["status", "alice", "--at", "2026-01-15", "--environment", "production", "--json", "--explain", "--store", "s"]))
            #expect(status.lookup == .user("alice"))
            #expect(status.at == F.date("2026-01-15T00:00:00Z"))
            #expect(status.environment == .production)
            #expect(status.json && status.explain)
            #expect(status.store == "s")
            let byProfile = try #require(try parseStatus(["status", "--profile-id", "6b1c"]))
            #expect(byProfile.lookup == .profileID("6b1c"))
            #expect(!byProfile.json && byProfile.at == nil && byProfile.environment == .any)
        }

        @Test func history() throws {
            let history = try #require(try parseHistory(
                ["history", "alice", "--entitlement", "premium", "--since", "2026-01-01", "--limit", "5", "--json"]))
            #expect(history.lookup == .user("alice"))
            #expect(history.entitlement == "premium")
            #expect(history.since == F.date("2026-01-01T00:00:00Z"))
            #expect(history.limit == 5)
            #expect(history.json)
            let plain = try #require(try parseHistory(["history", "alice"]))
            #expect(plain.entitlement == nil && plain.since == nil && plain.limit == nil && !plain.json)
        }

        // MARK: grant, revoke

        @Test func grantWithEveryOption() throws {
            let grant = try #require(try parseGrant(
                ["grant", "alice", "premium", "--duration", "1m", "--starts", "2026-02-01", "--reason", "Outage INC-42", "--actor", "dana",
                 "--idempotency-key", "INC-42-alice", "--dry-run", "--json", "--lock-timeout", "2.5", "--store", "s"]))
            #expect(grant.userID == "alice")
            #expect(grant.entitlement == "premium")
            #expect(grant.term == .duration(GrantDuration(months: 1)))
            #expect(grant.startsAt == F.date("2026-02-01T00:00:00Z"))
            #expect(grant.reason == "Outage INC-42")
            #expect(grant.idempotencyKey == "INC-42-alice")
            #expect(grant.options.store == "s")
            #expect(grant.options.actor == "dana")
            #expect(grant.options.lockTimeout == 2.5)
            #expect(grant.options.dryRun && grant.options.json)
        }

        @Test(arguments: [
            (["--duration", "7d"], GrantRequest.Term.duration(GrantDuration(seconds: 7 * 86_400))),
            (["--duration", "P1Y"], .duration(GrantDuration(months: 12))),
            (["--duration", "lifetime"], .lifetime),
            (["--lifetime"], .lifetime),
            (["--until", "2026-12-31"], .until(F.date("2026-12-31T00:00:00Z"))),
        ])
        func grantTerm(options: [String], expected: GrantRequest.Term) throws {
            let grant = try #require(try parseGrant(["grant", "bob", "premium"] + options))
            #expect(grant.term == expected)
            #expect(grant.startsAt == nil && grant.reason == nil && grant.idempotencyKey == nil)
            #expect(grant.options.store == nil && grant.options.actor == nil && grant.options.lockTimeout == nil)
            #expect(!grant.options.dryRun && !grant.options.json)
        }

        @Test func revoke() throws {
            let revoke = try #require(try parseRevoke(
                ["revoke", "alice", "premium", "--transaction", "t1", "--include-store", "--reason", "Refund 981", "--actor", "dana"]))
            #expect(revoke.userID == "alice")
            #expect(revoke.request == .init(entitlement: "premium", transactionID: "t1", includeStore: true, reason: "Refund 981"))
            #expect(revoke.options.actor == "dana")
            let plain = try #require(try parseRevoke(["revoke", "alice", "premium"]))
            #expect(plain.request == .init(entitlement: "premium", transactionID: nil, includeStore: false, reason: nil))
        }

        // MARK: init, path

        @Test func initCommand() throws {
            let defaults = try #require(try parseInitStore(["init"]))
            #expect(defaults.entitlements == ["premium"])
            #expect(defaults.store == nil && !defaults.json)
            let named = try #require(try parseInitStore(
                ["init", "--store", "s", "--entitlement", "premium", "--entitlement", "sports", "--entitlement", "premium", "--json"]))
            #expect(named.entitlements == ["premium", "sports"])
            #expect(named.store == "s" && named.json)
        }

        @Test func path() throws {
            let path = try #require(try parsePath(["path", "../etc/passwd", "--json", "--store", "s"]))
            #expect(path.user == "../etc/passwd")
            #expect(path.json && path.store == "s")
        }

        // MARK: help and version

        @Test(arguments: [[], ["help"], ["--help"], ["-h"]])
        func mainHelp(arguments: [String]) throws {
            #expect(try helpName(arguments) == .some(nil))
        }

        @Test(arguments: [
            (["help", "grant"], "grant"), (["grant", "--help"], "grant"), (["grant", "-h"], "grant"),
            (["check", "alice", "--help"], "check"), (["grant", "--help", "--lifetime", "--duration", "1d"], "grant"),
            (["status", "-qh"], "status"), (["check", "-qh"], "check"),
        ] as [([String], String?)])
        func commandHelp(arguments: [String], expected: String?) throws {
            if let expected {
                #expect(try helpName(arguments) == .some(expected))
            } else {
                #expect(throws: EntitlementError.self) { try Command.parse(arguments) }
            }
        }

        @Test(arguments: Command.specs.map(\.name).filter { $0 != "help" })
        func helpNamesEveryCommand(name: String) throws {
            #expect(try helpName(["help", name]) == .some(name))
            #expect(try helpName([name, "--help"]) == .some(name))
        }

        @Test(arguments: [["help", "help"], ["help", "--help"], ["help", "-h"]])
        func helpExplainsItself(arguments: [String]) throws {
            #expect(try helpName(arguments) == .some("help"))
        }

        @Test(arguments: [["--version"], ["-V"]])
        func version(arguments: [String]) throws {
            guard case .version = try Command.parse(arguments) else {
                Issue.record("\(arguments) is not .version")
                return
            }
        }

        @Test func helpListsEveryCommandOnceWithHelpLast() {
            let names = Command.specs.map(\.name)
            #expect(Set(names).count == names.count)
            #expect(names.last == "help")
            let documented = ["check", "status", "history", "grant", "revoke", "init", "path"]
            #expect(names.filter(documented.contains) == documented)
        }
    }
}
