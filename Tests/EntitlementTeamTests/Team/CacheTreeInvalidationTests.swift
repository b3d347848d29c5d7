import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// The index's cache tree, marked out of date along changed paths as git itself does.
@Suite(.tags(.unit))
struct CacheTreeInvalidationTests {
    /// `name NUL count SPACE subtrees LF [20-byte id]`, depth first.
    private func node(_ name: String, _ count: Int, _ subtrees: Int, id: UInt8? = nil) -> [UInt8] {
        Array(name.utf8) + [0] + Array("\(count) \(subtrees)\n".utf8) + (count >= 0 ? [UInt8](repeating: id ?? 0xAB, count: 20) : [])
    }

    /// root (2 dirs: a with a/b, and c), a/b out of date already.
    private var tree: [UInt8] {
        node("", 5, 2, id: 1) + node("a", 3, 1, id: 2) + node("b", -1, 0) + node("c", 2, 0, id: 3)
    }

    @Test func marksTheDirectoriesAboveAPathAndKeepsTheRest() throws {
        let directories = Set(CacheTreeInvalidation.directories(above: "a/b/file.json"))
        #expect(directories == [[], Array("a".utf8), Array("a/b".utf8)])
        let out = try #require(CacheTreeInvalidation.invalidating(directories, in: tree))
        #expect(out == node("", -1, 2) + node("a", -1, 1) + node("b", -1, 0) + node("c", 2, 0, id: 3))
    }

    @Test func aPathInTheRootOnlyMarksTheRoot() throws {
        let out = try #require(CacheTreeInvalidation.invalidating(Set(CacheTreeInvalidation.directories(above: "config.json")), in: tree))
        #expect(out == node("", -1, 2) + Array(tree.dropFirst(node("", 5, 2).count)))
    }

    @Test func aDirectoryTheTreeDoesNotHoldChangesNothingBelowTheRoot() throws {
        let out = try #require(CacheTreeInvalidation.invalidating(Set(CacheTreeInvalidation.directories(above: "x/y/new.json")), in: tree))
        #expect(out == node("", -1, 2) + Array(tree.dropFirst(node("", 5, 2).count)))
    }

    @Test(arguments: [
        [UInt8](),                                   // empty
        Array("a".utf8),                             // no NUL
        Array("\0" .utf8) + Array("5 x\n".utf8),     // not a number
        Array("\0".utf8) + Array("5 1\n".utf8),      // a promised id and subtree missing
    ])
    func malformedTreesAreRefused(_ bytes: [UInt8]) {
        #expect(CacheTreeInvalidation.invalidating([[]], in: bytes) == nil)
    }
}
