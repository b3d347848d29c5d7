import Foundation
import Testing
import EntitlementBasics
import EntitlementModel

/// How the work-counting suites (`ManyEntitlementsWorkTests`, `ManyEntitlementsImportWorkTests`,
/// `WorkShapesTests`, `StatusOutputWorkTests`) tell n log n from n²: the same shape at three
/// sizes, each 4× the last, its steps counted (never timed); a step under 6× is n log n,
/// where the old code took 16×.
package enum WorkGrowth {
    package static let sizes = [1_000, 4_000, 16_000]
    package static let start = ISODate.parse("2020-01-01T00:00:00Z")!
    package static let at = ISODate.parse("2020-06-01T00:00:00Z")!

    /// Fails when a step of `steps` (the work at each of `sizes`) grew 6× or more.
    package static func expectNLogN(_ steps: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        print("work for \(sizes): \(steps) steps")
        for (smaller, larger) in zip(steps, steps.dropFirst()) {
            #expect(Double(larger) < 6 * Double(smaller), "work grew \(Double(larger) / Double(smaller))×: \(steps)", sourceLocation: sourceLocation)
        }
    }

    /// `body` run at each size with a fresh counter; the caller reads each counter's steps
    /// (`WorkCounter.steps` is Basics' own: the suites reach it through `@testable import`).
    package static func counters(_ body: (Int, WorkCounter) -> Void) -> [WorkCounter] {
        sizes.map { size in
            let counter = WorkCounter()
            body(size, counter)
            return counter
        }
    }

    /// `count` entitlements, each unlocked by its own product, and one purchase of each.
    package static func manyEntitlements(_ count: Int) -> (ProductConfiguration, Profile) {
        let configuration = ProductConfiguration(entitlements: (0..<count).map { .init(id: "e\($0)", products: ["p\($0)"]) })
        var profile = Profile(profileID: "p", customerUserID: "many", createdAt: start)
        profile.transactions = (0..<count).map {
            Transaction(transactionID: "t\($0)", productID: "p\($0)", store: .appStore, type: .subscriptionStarted, purchasedAt: start,
                        expiresAt: start.addingTimeInterval(86_400 * 365))
        }
        return (configuration, profile)
    }
}
