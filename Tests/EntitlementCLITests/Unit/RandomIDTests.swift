import Testing
@testable import EntitlementCLI
import EntitlementTestSupport

extension UnitTests {
    /// The real id generator makes version 4 UUIDs.
    struct RandomIDTests {
        @Test func randomIDsAreDistinctLowerCaseVersion4UUIDs() {
            let hex = Set("0123456789abcdef")
            var seen = Set<String>()
            for _ in 0..<2000 {
                let id = Context.randomID()
                let groups = id.split(separator: "-", omittingEmptySubsequences: false)
                #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(id)")
                #expect(id.allSatisfy { $0 == "-" || hex.contains($0) }, "\(id)")
                #expect(groups.count == 5 && groups[2].first == "4", "version 4: \(id)")
                #expect(groups.count == 5 && "89ab".contains(groups[3].first ?? "x"), "RFC 9562 variant: \(id)")
                seen.insert(id)
            }
            #expect(seen.count == 2000)
        }
    }
}
