import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `status --json` over flat transactions against the full path on profiles made from vendor
/// documents: the vendor-truth cases (`../shared/vendor-truth/`, when beside the repository)
/// and every import fixture with a verdict table (Fixtures/import, always), each imported into
/// a fresh store, then every profile file compared at the case's instants and at every instant
/// the profile names, a second either side.
@Suite(.tags(.cli))
struct FlatStatusVendorTests {
    struct Tally {
        var compared = 0
        var answered = 0
    }

    /// Compares both paths on every profile file of the store at `path`, at `dates` and at each profile's own boundaries.
    static func compare(storeAt path: String, dates: [Date], label: String, tally: inout Tally) {
        let store = EntitlementStore(root: path)
        guard let configuration = try? store.loadConfiguration() else {
            Issue.record("\(label): no configuration")
            return
        }
        let folder = store.profilesPath
        let names = (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                  let profile = try? EntitlementStore.decodeProfile(Array(data), path: name) else { continue }
            let bytes = Array(data), user = profile.customerUserID
            for date in dates + boundaries(of: bytes) {
                let sink = ByteSink()
                ProfileJSON.render(profile, engine: StatusEngine(configuration: configuration), at: date, explain: false, into: sink)
                tally.compared += 1
                guard let engine = FlatStatusEngine(configuration: configuration, environment: .any) else { continue }
                let flat = ByteSink()
                guard bytes.withUnsafeBufferPointer({ StatusCommand.renderFlat($0, userID: user, engine: engine, at: date, into: flat) }) else {
                    #expect(flat.array.isEmpty, "\(label) \(user): wrote before giving up")
                    continue
                }
                tally.answered += 1
                #expect(flat.array == sink.array, "\(label) \(user) at \(ISODate.format(date))")
            }
        }
    }

    /// Every instant a document names, a second either side.
    static func boundaries(of bytes: [UInt8]) -> [Date] {
        var instants: Set<Date> = []
        for part in String(decoding: bytes, as: UTF8.self).split(separator: "\"") where part.hasSuffix("Z") && part.count >= 20 && part.count <= 30 {
            guard let date = ISODate.parse(String(part)) else { continue }
            instants.formUnion([date.addingTimeInterval(-1), date, date.addingTimeInterval(1)])
        }
        return instants.sorted()
    }

    @Test(.enabled(if: VendorTruth.present, "../shared/vendor-truth/ is absent beside the repository"))
    func vendorTruthProfiles() {
        var tally = Tally()
        for testCase in VendorTruth.cases {
            let (store, result) = testCase.imported()
            guard result.exitCode == 0 else { continue }
            let dates = (testCase.value["verdicts"]?.arrayValue ?? []).compactMap { $0["at"]?.stringValue.flatMap(ISODate.parse) }
            Self.compare(storeAt: store.path, dates: dates, label: testCase.id, tally: &tally)
        }
        #expect(tally.answered * 2 > tally.compared, "\(tally.answered) of \(tally.compared) answered by the flat path")
    }

    @Test func importFixtureProfiles() {
        var tally = Tally()
        let cases = ImportTests.Adapty.cases + ImportTests.AppStore.cases + ImportTests.GooglePlay.cases + ImportTests.Qonversion.cases
            + ImportTests.RevenueCat.cases + ImportTests.Stripe.cases
        for fixture in cases {
            let store = ImportTests.Store(config: fixture.config.flatMap { readFile(ImportTests.fixtures + "/" + $0) })
            guard store.importing(fixture.arguments).exitCode == 0 else { continue }
            Self.compare(storeAt: store.path, dates: [ImportTests.documentTime], label: fixture.file, tally: &tally)
        }
        #expect(tally.answered * 2 > tally.compared, "\(tally.answered) of \(tally.compared) answered by the flat path")
    }
}
