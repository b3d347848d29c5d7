import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Conformance with the vendors' own verdicts on their published documents
/// (`../shared/vendor-truth/`, read in place; its README gives the format).
///
/// Each case is imported into a fresh store, then every verdict is checked with
/// `check --json` at the stated instant: the state must be one the vendor's word accepts,
/// and every field the vendor states must match. A difference counts only when
/// docs/import.md or docs/status-rules.md name it as the tool's choice (`documented`).
@Suite(.tags(.cli), .enabled(if: VendorTruth.present, "../shared/vendor-truth/ is absent beside the repository: vendor conformance NOT checked"))
struct VendorTruthTests {
    static var cases: [VendorTruthCase] { VendorTruth.cases }

    @Test func everyVendorHasCases() {
        #expect(Set(Self.cases.map(\.vendor)) == ["adapty", "appstore", "qonversion", "revenuecat"])
    }

    @Test(arguments: VendorTruth.cases)
    func agreesWithTheVendor(_ testCase: VendorTruthCase) {
        let outcome = testCase.run()
        for failure in outcome.failures { Issue.record(Comment(rawValue: "\(testCase.id): \(failure)")) }
        #expect(outcome.checked > 0 || outcome.documentedRefusal, "\(testCase.id): no verdict checked")
    }

    /// The conformance figure, printed so a run shows it; 100% means every verdict agrees
    /// or differs only where the docs name the difference.
    @Test func conformanceFigure() {
        let outcomes = Self.cases.map { $0.run() }
        let verdicts = outcomes.reduce(0) { $0 + $1.checked }
        let failing = outcomes.reduce(0) { $0 + $1.failedVerdicts }
        let notes = outcomes.flatMap(\.notes)
        print("vendor conformance: \(verdicts - failing) of \(verdicts) verdicts agree (\(notes.count) documented deviation(s))")
        for note in notes { print("  note: \(note)") }
        #expect(failing == 0)
    }
}

/// Says so when the vendor documents are not beside the repository (CI always has them).
@Test(.enabled(if: !VendorTruth.present))
func vendorTruthSkipped() {
    print("skipped: vendor conformance, \(VendorTruth.root) is absent")
}

/// Where the vendor documents are, and their cases.
enum VendorTruth {
    static let root = repositoryRoot + "/../shared/vendor-truth"
    static var present: Bool { FileManager.default.fileExists(atPath: root + "/README.md") }

    /// Every case of every vendor, in folder order.
    static let cases: [VendorTruthCase] = ["adapty", "appstore", "qonversion", "revenuecat"].flatMap { vendor -> [VendorTruthCase] in
        guard let text = readFile(root + "/\(vendor)/cases.json"), let document = try? JSONParser.parse(text) else { return [] }
        return (document["cases"]?.arrayValue ?? []).map { VendorTruthCase(vendor: vendor, value: $0) }
    }
}

/// One case of a `cases.json`.
struct VendorTruthCase: Sendable, CustomTestStringConvertible {
    let vendor: String
    let value: JSONValue

    var id: String { value["id"]?.stringValue ?? "?" }
    var testDescription: String { id }

    struct Outcome {
        var checked = 0
        var failedVerdicts = 0
        var failures: [String] = []
        var notes: [String] = []
        var documentedRefusal = false
    }

    /// A fresh store with the case's configuration, and its documents imported into it.
    func imported() -> (store: ImportTests.Store, result: CLIResult) {
        let folder = VendorTruth.root + "/" + vendor
        let options = value["import"]
        var entitlements: [(String, JSONValue)] = []
        for (entitlement, products) in options?["config"]?.objectValue?.entries ?? [] {
            entitlements.append((entitlement, .object(JSONObject([("products", products)]))))
        }
        let config = JSONWriter().string(.object(JSONObject([("schema_version", .int(1)), ("entitlements", .object(JSONObject(entitlements)))])))
        let store = ImportTests.Store(config: config)
        var arguments = (value["documents"]?.arrayValue ?? []).compactMap { $0.stringValue.map { folder + "/" + $0 } }
        if let user = options?["user"]?.stringValue { arguments += ["--user", user] }
        if let at = options?["at"]?.stringValue { arguments += ["--at", at] }
        return (store, store.importing(arguments))
    }

    func run() -> Outcome {
        var outcome = Outcome()
        let (store, imported) = imported()
        if let refusal = value["import_documented"] {
            let expected = refusal["ours_exit"]?.intValue.map(Int32.init)
            if imported.exitCode == expected {
                outcome.documentedRefusal = true
                outcome.notes.append("\(id): refused with exit \(imported.exitCode), as documented: \(refusal["doc"]?.stringValue ?? "")")
            } else {
                outcome.failures.append("documented refusal (exit \(expected.map(String.init) ?? "?")) but import exited \(imported.exitCode): \(imported.stderr)")
            }
            return outcome
        }
        if imported.exitCode != 0 { outcome.failures.append("import exited \(imported.exitCode): \(imported.stderr)") }
        for verdict in value["verdicts"]?.arrayValue ?? [] {
            outcome.checked += 1
            let problems = check(verdict, in: store, notes: &outcome.notes)
            if !problems.isEmpty {
                outcome.failedVerdicts += 1
                outcome.failures += problems
            }
        }
        return outcome
    }

    /// The differences between `verdict` and our `check --json` answer; documented ones become notes.
    private func check(_ verdict: JSONValue, in store: ImportTests.Store, notes: inout [String]) -> [String] {
        let user = verdict["user"]?.stringValue ?? "", entitlement = verdict["entitlement"]?.stringValue ?? ""
        let at = verdict["at"]?.stringValue ?? ""
        let label = "\(user) \(entitlement) at \(at)"
        let result = runCLI(["check", user, entitlement, "--store", store.path, "--at", at, "--json"])
        guard let ours = try? JSONParser.parse(result.stdout) else { return ["\(label): check printed no JSON (exit \(result.exitCode)): \(result.stderr)"] }
        let documented = verdict["documented"]
        var problems: [String] = []
        let accepted = (verdict["states"]?.arrayValue ?? []).compactMap(\.stringValue)
        let state = ours["state"]?.stringValue ?? "?"
        if !accepted.contains(state) {
            if let deviation = documented?["access"], deviation["ours"]?.stringValue == state {
                notes.append("\(id) \(label): state \(state), documented: \(deviation["doc"]?.stringValue ?? "")")
            } else {
                problems.append("\(label): state \(state), vendor \(verdict["vendor"]?.stringValue ?? "?") accepts \(accepted)")
            }
        }
        for (field, stated) in verdict["fields"]?.objectValue?.entries ?? [] {
            let mine = ours[field] ?? .null
            if Self.same(mine, stated) { continue }
            if let deviation = documented?[field], Self.same(mine, deviation["ours"] ?? .null) {
                notes.append("\(id) \(label): \(field) \(Self.text(mine)), documented: \(deviation["doc"]?.stringValue ?? "")")
            } else {
                problems.append("\(label): \(field) is \(Self.text(mine)), the vendor states \(Self.text(stated))")
            }
        }
        return problems
    }

    static func text(_ value: JSONValue) -> String {
        JSONWriter().string(value).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Equal values, with dates compared as instants (`.000Z` and `Z` are the same).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if a == b { return true }
        if let x = a.stringValue.flatMap(ISODate.parse), let y = b.stringValue.flatMap(ISODate.parse) { return x == y }
        return false
    }
}
