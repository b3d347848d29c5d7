import Foundation
import Testing
import EntitlementTestSupport

/// Access that means something (CONTRIBUTING.md, "Access levels"): a declaration is `package`
/// only when a module that imports its module names it (the test support targets count: a
/// release build compiles them, so they cannot `@testable import`); everything else is
/// `internal` (the tests reach it through `@testable import`). EntitlementCLI's only consumer is the
/// executable's `main.swift`, so the CLI keeps `package` on just what that file names.
///
/// The reading is by name, over-approximate on purpose: a member whose name and type name
/// both occur in a consumer counts as used. What the compiler needs beyond names (a type a
/// `package` member exposes, a value a consumer reaches by inference) is the allow-list.
@Suite(.tags(.unit))
struct PackageAccessTests {
    /// `package` declarations no consumer names, kept for a reason the compiler enforces.
    static let mustStayPackage: [String: String] = PackageAccessAllowList.entries

    /// The types on the allow-list: their members count as named when their own name is.
    static let exposedTypes = Set(mustStayPackage.keys.compactMap { $0.split(separator: ".").last.map(String.init) })

    static func unnamed(_ declarations: [PackageAccess.Declaration], _ usedBy: [String: Set<String>]) -> [PackageAccess.Declaration] {
        declarations.filter { !PackageAccess.isNamed($0, by: usedBy[$0.module, default: []], exposed: exposedTypes) }
    }

    @Test func everyPackageDeclarationIsNamedByAnotherModule() throws {
        let (declarations, usedBy) = try PackageAccess.scan(root: repositoryRoot)
        #expect(declarations.count > 300, "the reader found too few declarations: is it still reading Sources/?")
        for declaration in Self.unnamed(declarations, usedBy) where Self.mustStayPackage[declaration.key] == nil {
            Issue.record("\(declaration): no module that imports \(declaration.module) names it; make it internal (or, if the compiler needs it, add \(declaration.key) to PackageAccessAllowList with the reason)")
        }
    }

    @Test func everyAllowListEntryIsStillNeeded() throws {
        let (declarations, usedBy) = try PackageAccess.scan(root: repositoryRoot)
        let unnamed = Set(Self.unnamed(declarations, usedBy).map(\.key))
        let named = Set(declarations.map(\.key)).subtracting(unnamed)
        for key in Self.mustStayPackage.keys.sorted() where !unnamed.contains(key) {
            Issue.record(named.contains(key)
                ? "\(key) is in PackageAccessAllowList but a consumer names it now: remove the entry"
                : "\(key) is in PackageAccessAllowList but no such package declaration exists: remove the entry")
        }
    }

    /// A parse check of the reader, so a change to it cannot make the tests above pass by
    /// reading nothing.
    @Test func declarationsAndTheirTypesAreRead() {
        let word = "package"   // spelled apart so this file's own lines are not read
        let text = """
        \(word) struct Outer {
            \(word) var plain: Int
            @inlinable \(word) static func make() -> Outer { Outer(plain: 1) }
            \(word) init(plain: Int) { self.plain = plain }
            private(set) var hidden = 0
            \(word) enum Inner {
                \(word) static let value = 1
            }
        }
        \(word) extension Outer {
            \(word) mutating func bump() {}
            \(word) static func == (a: Outer, b: Outer) -> Bool { true }
        }
        """
        let found = PackageAccess.declarations(inFile: "A.swift", text: text, module: "M")
        #expect(found.map(\.key) == ["M.Outer", "M.Outer.plain", "M.Outer.make", "M.Outer.init", "M.Outer.Inner",
                                     "M.Inner.value", "M.Outer.bump"])
        #expect(found.map(\.line) == [1, 2, 3, 4, 6, 7, 11])
        let member = found[1]
        #expect(PackageAccess.isNamed(member, by: ["plain", "Outer"]))
        #expect(!PackageAccess.isNamed(member, by: ["plain"]))
        #expect(!PackageAccess.isNamed(found[0], by: ["plain"]))
    }
}
