import Foundation
import Testing
import EntitlementTestSupport

/// The test tree itself (CONTRIBUTING.md, "Layers"): a Swift file in a folder no target
/// declares is never compiled, so its tests would vanish without a sound; and a top-level
/// suite with no layer tag drops out of every `--filter`-by-tag run.
@Suite(.tags(.unit))
struct TestLayoutTests {
    static let testsRoot = repositoryRoot + "/Tests"

    /// The folders under Tests/ that hold Swift files.
    static func swiftFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: testsRoot).sorted().filter { name in
            let enumerator = FileManager.default.enumerator(atPath: testsRoot + "/" + name)
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".swift") { return true }
            }
            return false
        }
    }

    @Test func everyFolderOfSwiftFilesIsATargetInThePackage() throws {
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        let folders = try Self.swiftFolders()
        #expect(folders.contains("EntitlementCLITests"))
        for folder in folders {
            #expect(manifest.contains("\"\(folder)\""), "Tests/\(folder) holds Swift files but Package.swift declares no target for it")
        }
    }

    @Test func everyTopLevelSuiteCarriesALayerTag() throws {
        var untagged: [String] = []
        for folder in try Self.swiftFolders() {
            let base = Self.testsRoot + "/" + folder
            let enumerator = FileManager.default.enumerator(atPath: base)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift"),
                      let text = try? String(contentsOfFile: base + "/" + path, encoding: .utf8), text.contains("@Test") else { continue }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (index, line) in lines.enumerated() where Self.isTopLevelSuite(line) {
                    let attributes = lines[..<index].reversed().prefix { $0.hasPrefix("@") }
                    if !attributes.contains(where: { $0.contains(".tags(") }) { untagged.append("\(folder)/\(path):\(index + 1)") }
                }
            }
        }
        #expect(untagged.isEmpty, "suites without a layer tag: \(untagged)")
    }

    /// A top-level type named like a suite (`…Tests`), or one marked `@Suite` above it.
    static func isTopLevelSuite(_ line: String) -> Bool {
        for keyword in ["struct ", "enum ", "final class ", "package enum ", "package struct "] where line.hasPrefix(keyword) {
            let name = line.dropFirst(keyword.count).prefix { $0.isLetter || $0.isNumber }
            return name.hasSuffix("Tests")
        }
        return false
    }

    @Test func aSuiteLineIsRecognised() {
        #expect(Self.isTopLevelSuite("struct VerifyTests {"))
        #expect(Self.isTopLevelSuite("package enum ImportTests {}"))
        #expect(!Self.isTopLevelSuite("    struct NestedTests {"))
        #expect(!Self.isTopLevelSuite("struct Fixture {"))
    }
}
