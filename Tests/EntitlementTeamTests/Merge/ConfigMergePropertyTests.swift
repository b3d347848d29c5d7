import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// config.json merges over generated configurations: symmetric, and a union.
    @Suite(.tags(.unit))
    struct ConfigMergePropertyTests {
        struct Generator {
            var rng: SplitMix64
            mutating func int(_ bound: Int) -> Int { Int(rng.next() % UInt64(bound)) }

            mutating func configuration() -> ProductConfiguration {
                var entitlements: [ProductConfiguration.Entitlement] = []
                for id in ["premium", "sports", "kids"] where int(4) > 0 {
                    entitlements.append(.init(id: id, description: int(3) == 0 ? "about \(id)" : nil, products: products()))
                }
                return ProductConfiguration(entitlements: entitlements)
            }

            mutating func products() -> [String] { (0..<6).compactMap { int(3) == 0 ? "p\($0)" : nil } }

            mutating func edit(_ configuration: ProductConfiguration) -> ProductConfiguration {
                var result = configuration
                for _ in 0..<(1 + int(3)) {
                    switch int(5) {
                    case 0: result.entitlements.append(.init(id: "new\(int(3))", products: products()))
                    case 1 where !result.entitlements.isEmpty: result.entitlements.remove(at: int(result.entitlements.count))
                    case 2 where !result.entitlements.isEmpty: result.entitlements[int(result.entitlements.count)].products.append("p\(6 + int(3))")
                    case 3 where !result.entitlements.isEmpty:
                        let index = int(result.entitlements.count)
                        if !result.entitlements[index].products.isEmpty { result.entitlements[index].products.removeFirst() }
                    default:
                        if !result.entitlements.isEmpty { result.entitlements[int(result.entitlements.count)].description = "text \(int(3))" }
                    }
                }
                // Keep ids unique, as a file's object keys are.
                var seen = Set<String>()
                result.entitlements = result.entitlements.filter { seen.insert($0.id).inserted }
                return result
            }
        }

        static func bytes(_ configuration: ProductConfiguration) -> [UInt8] { JSONWriter(sortKeys: false).bytes(configuration.json) }

        static func merge(_ base: ProductConfiguration?, _ ours: ProductConfiguration, _ theirs: ProductConfiguration) -> Result<[UInt8], MergeFailure> {
            Result { () throws(MergeFailure) -> [UInt8] in
                try StoreFileMerge.merge(path: "config.json", base: base.map(bytes), ours: bytes(ours), theirs: bytes(theirs), stamp: Merge.stamp)
            }
        }

        @Test func mergeIsSymmetricAndAUnionOfAdditions() throws {
            var merged = 0, conflicted = 0
            for seed in UInt64(1)...300 {
                var generator = Generator(rng: SplitMix64(seed: seed))
                let base = generator.configuration()
                let ours = generator.edit(base), theirs = generator.edit(base)
                let forward = Self.merge(base, ours, theirs), backward = Self.merge(base, theirs, ours)
                switch (forward, backward) {
                case (.success(let a), .success(let b)):
                    merged += 1
                    #expect(a == b, "seed \(seed)")
                    let result = Merge.configuration(String(decoding: a, as: UTF8.self))
                    for side in [ours, theirs] {
                        for entitlement in side.entitlements where base.entitlement(entitlement.id) == nil {
                            #expect(result.entitlement(entitlement.id) != nil, "seed \(seed): \(entitlement.id)")
                        }
                    }
                    #expect(Self.merge(base, ours, ours) == .success(Self.bytes(ours)), "seed \(seed)")
                case (.failure(.conflicts(let a)), .failure(.conflicts(let b))):
                    conflicted += 1
                    #expect(a.map(\.field) == b.map(\.field), "seed \(seed)")
                    #expect(!a.isEmpty)
                default:
                    Issue.record("seed \(seed): the two orders disagree: \(forward) / \(backward)")
                }
            }
            #expect(merged > 100 && conflicted > 10)  // both kinds of outcome are exercised
        }
    }
}
