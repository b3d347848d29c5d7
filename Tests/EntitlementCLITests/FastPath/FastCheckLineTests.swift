import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// `check --stdin`'s lines with the fast path and without it, on a store on disk: the
/// same bytes and exit codes for readable, damaged, misplaced and missing profiles. (The
/// twins themselves: `FastCheckTests`; `check USER` on the same store: `FastCheckStoreTests`.)
@Suite(.tags(.unit))
struct FastCheckLineTests {
    /// `check --stdin`'s options, as typed.
    static let arguments = [["premium"], ["sports", "--environment", "sandbox"], ["premium", "--strict"], ["science", "--environment", "production"]]

    @Test func linesAreTheSameWithAndWithoutTheFastPath() throws {
        let directory = TemporaryDirectory()
        let (store, users) = try CheckFixture.store(in: directory)
        let date = UnitTests.Fixture.date("2025-07-01T00:00:00Z")
        for arguments in Self.arguments {
            guard case .check(let command) = try Command.parse(["check", "--stdin"] + arguments) else { Issue.record("not a check"); return }
            let configuration = try store.loadConfiguration()
            let engine = StatusEngine(configuration: configuration, environment: command.environment)
            let fast = try #require(FastCheck(store: store, configuration: configuration, entitlement: command.entitlement,
                                              environment: command.environment, date: date))
            defer { fast.close() }
            func checker(_ fast: FastCheck?) -> LineChecker {
                LineChecker(command: command, store: store, engine: engine, evaluatedAt: .string(ISODate.format(date)), date: date, terminal: false, fast: fast)
            }
            let scratch = fast.makeScratch()
            // Many of these profiles take the fast path (the fancy half mostly falls back): not two full paths compared.
            #expect(users.filter { fast.answer($0, scratch: scratch) != nil }.count >= 15, "\(arguments)")
            for (number, user) in users.enumerated() {
                var fastBytes: [UInt8] = [], fullBytes: [UInt8] = [], rows: [[String]] = []
                let fastCode = checker(fast).check(ArraySlice(user.utf8), number: number + 1, into: &fastBytes, rows: &rows, scratch: scratch)
                let fullCode = checker(nil).check(ArraySlice(user.utf8), number: number + 1, into: &fullBytes, rows: &rows)
                #expect(fastCode == fullCode, "\(arguments) \(user)")
                #expect(fastBytes == fullBytes, "\(arguments) \(user): \(String(decoding: fastBytes, as: UTF8.self))")
            }
        }
    }
}
