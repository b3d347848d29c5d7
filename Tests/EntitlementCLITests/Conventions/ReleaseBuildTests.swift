import Foundation
import Testing
import EntitlementTestSupport

/// `swift build` builds in every configuration, as packagers run it: a plain (non-test) target
/// that says `@testable import` compiles only where its dependencies were compiled for testing
/// (a debug build), so `swift build -c release` in a fresh clone would fail with "module … was
/// not compiled for testing". `make test` also runs that release build (`build-release` in the
/// Makefile); this finds the cause in a second.
@Suite(.tags(.unit))
struct ReleaseBuildTests {
    /// The folders of the package's targets that are not test targets: Sources/* and any
    /// `path:` a plain target declares under Tests/.
    static func plainTargetFolders() throws -> [String] {
        let sources = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Sources").sorted().map { "Sources/" + $0 }
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        var declared: [String] = []
        for line in manifest.split(separator: "\n") where line.contains("path: \"Tests/") {
            if let start = line.range(of: "path: \"")?.upperBound, let end = line[start...].firstIndex(of: "\"") {
                declared.append(String(line[start..<end]))
            }
        }
        return sources + declared
    }

    /// Files of `folders` with a `@testable import` line.
    static func testableImports(in folders: [String]) -> [String] {
        var found: [String] = []
        for folder in folders {
            let enumerator = FileManager.default.enumerator(atPath: repositoryRoot + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift"),
                      let text = try? String(contentsOfFile: repositoryRoot + "/" + folder + "/" + path, encoding: .utf8) else { continue }
                if text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@testable import ") }) {
                    found.append(folder + "/" + path)
                }
            }
        }
        return found
    }

    @Test func noPlainTargetUsesTestableImport() throws {
        let folders = try Self.plainTargetFolders()
        #expect(folders.contains("Tests/EntitlementTestSupport"))
        #expect(folders.contains("Sources/EntitlementCLI"))
        let found = Self.testableImports(in: folders)
        #expect(found.isEmpty, "a plain target builds in release too, where @testable import fails: \(found)")
    }

    @Test func aTestTargetMayUseTestableImport() {
        #expect(!Self.testableImports(in: ["Tests/EntitlementRulesTests"]).isEmpty)
    }
}
