import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// config.json: a union of entitlements and product mappings; real conflicts reported.
    @Suite(.tags(.unit))
    struct ConfigMergeTests {
        static let base = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y"]}, "sports": {"products": ["s"]}}}"#

        static func merge(_ base: String?, _ ours: String, _ theirs: String) throws(MergeFailure) -> String {
            String(decoding: try StoreFileMerge.merge(path: "config.json", base: base.map { Array($0.utf8) }, ours: Array(ours.utf8), theirs: Array(theirs.utf8), stamp: Merge.stamp), as: UTF8.self)
        }

        static func conflicts(_ base: String?, _ ours: String, _ theirs: String) -> [MergeConflict] {
            do {
                _ = try merge(base, ours, theirs)
                return []
            } catch {
                guard case .conflicts(let conflicts) = error else { return [MergeConflict(field: "?", message: "\(error)")] }
                return conflicts
            }
        }

        @Test func entitlementsAndProductsAreAUnion() throws {
            let ours = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y", "l"]}, "sports": {"products": ["s"]}, "kids": {"products": []}}}"#
            let theirs = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y", "c"]}, "sports": {"products": ["s", "y"]}, "art": {"products": ["a"]}}}"#
            let merged = Merge.configuration(try Self.merge(Self.base, ours, theirs))
            #expect(merged.entitlementIDs == ["premium", "sports", "art", "kids"])
            #expect(merged.entitlement("premium")?.products == ["m", "y", "c", "l"])
            #expect(merged.entitlement("sports")?.products == ["s", "y"])
            #expect(merged.raw["x_team"] == .string("ops"))
            #expect(try Self.merge(Self.base, ours, theirs) == Self.merge(Self.base, theirs, ours))
        }

        @Test func aRemovalOnOneSideIsTaken() throws {
            let ours = #"{"entitlements": {"premium": {"description": "All", "products": ["y"]}}}"#
            let merged = Merge.configuration(try Self.merge(Self.base, ours, Self.base))
            #expect(merged.entitlementIDs == ["premium"])
            #expect(merged.entitlement("premium")?.products == ["y"])
            #expect(merged.raw["x_team"] == nil)
        }

        @Test func theOutputIsWhatTheStoreWrites() throws {
            let ours = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y", "l"]}, "sports": {"products": ["s"]}}}"#
            let text = try Self.merge(Self.base, ours, Self.base)
            #expect(text == JSONWriter(sortKeys: false).string(Merge.configuration(text).json))
            #expect(text.hasPrefix("{\n  \"schema_version\": 1,\n  \"x_team\": \"ops\",\n  \"entitlements\": {\n    \"premium\""))
        }

        @Test func aProductMovedDifferentlyOnBothSidesIsAConflict() {
            let ours = #"{"entitlements": {"premium": {"description": "All", "products": ["y"]}, "sports": {"products": ["s", "m"]}}, "x_team": "ops"}"#
            let theirs = #"{"entitlements": {"premium": {"description": "All", "products": ["y"]}, "sports": {"products": ["s"]}, "pro": {"products": ["m"]}}, "x_team": "ops"}"#
            #expect(Self.conflicts(Self.base, ours, theirs) == [
                MergeConflict(field: "entitlements.*.products", message: "product 'm' was mapped differently on both sides (base: premium; ours: sports; theirs: pro)"),
            ])
        }

        @Test func twoAdditionsOfOneProductAreNotAConflict() throws {
            let ours = #"{"entitlements": {"premium": {"products": ["m"]}}}"#
            let theirs = #"{"entitlements": {"premium": {"products": []}, "sports": {"products": ["m"]}}}"#
            let merged = Merge.configuration(try Self.merge(#"{"entitlements": {"premium": {"products": []}}}"#, ours, theirs))
            #expect(merged.entitlements(unlockedBy: "m") == ["premium", "sports"])
        }

        @Test func aDescriptionChangedDifferentlyIsAConflictNamingTheField() {
            let ours = Self.base.replacingOccurrences(of: #""All""#, with: #""Everything""#)
            let theirs = Self.base.replacingOccurrences(of: #""All""#, with: #""All of it""#)
            #expect(Self.conflicts(Self.base, ours, theirs) == [
                MergeConflict(field: "entitlements.premium.description", message: #"changed differently on both sides (ours: "Everything", theirs: "All of it")"#),
            ])
        }

        @Test func anEntitlementRemovedOnOneSideAndChangedOnTheOtherIsAConflict() {
            let ours = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y"]}}}"#
            let theirs = #"{"schema_version": 1, "x_team": "ops", "entitlements": {"premium": {"description": "All", "products": ["m", "y"]}, "sports": {"products": ["s", "t"]}}}"#
            #expect(Self.conflicts(Self.base, ours, theirs).map(\.field) == ["entitlements.sports"])
        }

        @Test func aNewerSchemaOnEitherSideIsRefusedByName() {
            let newer = #"{"schema_version": 2, "entitlements": {}}"#
            #expect(throws: MergeFailure.newerSchema(.theirs, version: 2)) {
                try Self.merge(Self.base, Self.base, newer)
            }
        }
    }
}
