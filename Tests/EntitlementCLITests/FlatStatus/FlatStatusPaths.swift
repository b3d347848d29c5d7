import Foundation
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore

/// Both paths of `status USER --json` over one profile file's bytes, in process: the full
/// path (`EntitlementStore.decodeProfile`, the customer check of `loadProfile`, `StatusEngine`
/// and `ProfileJSON.render`) and the flat one (`StatusCommand.renderFlat`).
enum FlatStatusPaths {
    /// The full path's output; nil when it reports an error (a damaged or misplaced profile).
    static func full(_ bytes: [UInt8], user: String, configuration: ProductConfiguration, environment: EnvironmentFilter = .any,
                     at date: Date) -> [UInt8]? {
        guard let profile = try? EntitlementStore.decodeProfile(bytes, path: "p.json"), profile.customerUserID.utf8.elementsEqual(user.utf8)
        else { return nil }
        let sink = ByteSink()
        ProfileJSON.render(profile, engine: StatusEngine(configuration: configuration, environment: environment), at: date, explain: false, into: sink)
        return sink.array
    }

    /// The flat path's output; nil when it leaves the answer to the full path.
    static func flat(_ bytes: [UInt8], user: String, configuration: ProductConfiguration, environment: EnvironmentFilter = .any,
                     at date: Date) -> [UInt8]? {
        let attempt = attempt(bytes, user: user, configuration: configuration, environment: environment, at: date)
        return attempt.answered ? attempt.written : nil
    }

    /// Whether the flat path answered, and what it wrote (nothing, when it did not).
    static func attempt(_ bytes: [UInt8], user: String, configuration: ProductConfiguration, environment: EnvironmentFilter = .any,
                        at date: Date) -> (answered: Bool, written: [UInt8]) {
        guard let engine = FlatStatusEngine(configuration: configuration, environment: environment) else { return (false, []) }
        let sink = ByteSink()
        let answered = bytes.withUnsafeBufferPointer { StatusCommand.renderFlat($0, userID: user, engine: engine, at: date, into: sink) }
        return (answered, sink.array)
    }

    /// Every instant a document names (each `…Z` string that parses), each a second before
    /// and after too, and two far from all: the boundaries where an answer can change.
    static func boundaries(of bytes: [UInt8]) -> [Date] {
        var instants: Set<Date> = [ISODate.parse("2000-01-01T00:00:00Z")!, ISODate.parse("2100-01-01T00:00:00Z")!]
        let text = String(decoding: bytes, as: UTF8.self)
        for part in text.split(separator: "\"") where part.hasSuffix("Z") && part.count >= 20 && part.count <= 30 {
            guard let date = ISODate.parse(String(part)) else { continue }
            instants.formUnion([date.addingTimeInterval(-1), date, date.addingTimeInterval(1)])
        }
        return instants.sorted()
    }

    static func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil" }
}
