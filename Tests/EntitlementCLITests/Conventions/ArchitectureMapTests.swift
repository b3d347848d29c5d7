import Foundation
import Testing
import EntitlementTestSupport

/// The map is checked against the code (ARCHITECTURE.md): every `Sources/Entitlement*/`
/// folder has a README whose file table names every Swift file of the folder and no file
/// it does not hold; the graph in ARCHITECTURE.md is exactly `Package.swift`'s; and the
/// paths ARCHITECTURE.md and CONTRIBUTING.md give from the repository's top exist.
@Suite(.tags(.unit))
struct ArchitectureMapTests {
    static let sources = repositoryRoot + "/Sources"

    /// The library modules' folders: `Sources/Entitlement*/`.
    static func moduleFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sources).filter { $0.hasPrefix("Entitlement") }.sorted()
    }

    static func readme(of module: String) -> String? {
        try? String(contentsOfFile: "\(sources)/\(module)/README.md", encoding: .utf8)
    }

    @Test func everyModuleFolderHasAREADME() throws {
        let modules = try Self.moduleFolders()
        #expect(modules.contains("EntitlementCLI") && modules.contains("EntitlementBasics"))
        for module in modules {
            #expect(Self.readme(of: module) != nil,
                    "Sources/\(module)/ has no README.md: say what it owns, what it may not touch, and give a file → purpose table")
        }
    }

    /// A README's name is relative to its module's folder; one that starts with another
    /// folder of `Sources/` (`EntitlementStore/Store/ChangeRecorder.swift`) names that file.
    @Test func everyFileAModuleREADMENamesExists() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources)
        for module in try Self.moduleFolders() {
            guard let text = Self.readme(of: module) else { continue }
            let own = ArchitectureMap.swiftFiles(under: "\(Self.sources)/\(module)")
            for name in ArchitectureMap.swiftNames(text) {
                let first = String(name.split(separator: "/").first ?? "")
                if first != module, folders.contains(first) {
                    let files = ArchitectureMap.swiftFiles(under: "\(Self.sources)/\(first)").map { "\(first)/\($0)" }
                    #expect(files.contains { ArchitectureMap.matches($0, pattern: name) },
                            "Sources/\(module)/README.md names `\(name)`, but Sources/ has no such file")
                    continue
                }
                let relative = first == module ? String(name.dropFirst(module.count + 1)) : name
                #expect(own.contains { ArchitectureMap.matches($0, pattern: relative) },
                        "Sources/\(module)/README.md names `\(name)`, but Sources/\(module)/ has no such file: remove or rename its row")
            }
        }
    }

    @Test func everySwiftFileIsInItsModulesREADME() throws {
        for module in try Self.moduleFolders() {
            guard let text = Self.readme(of: module) else { continue }
            let patterns = ArchitectureMap.swiftNames(text).map { name in
                name.hasPrefix(module + "/") ? String(name.dropFirst(module.count + 1)) : name
            }
            let files = ArchitectureMap.swiftFiles(under: "\(Self.sources)/\(module)")
            #expect(!files.isEmpty)
            for file in files where !patterns.contains(where: { ArchitectureMap.matches(file, pattern: $0) }) {
                Issue.record("Sources/\(module)/\(file) is in no row of Sources/\(module)/README.md: add `\(file)` to its file table")
            }
        }
    }

    @Test func theGraphInARCHITECTUREIsPackageSwifts() throws {
        let manifest = ArchitectureMap.manifestTargets(try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8))
        let page = try String(contentsOfFile: repositoryRoot + "/ARCHITECTURE.md", encoding: .utf8)
        let graph = try #require(ArchitectureMap.graphBlock(page), "ARCHITECTURE.md has no `<!-- package graph` block")
        #expect(manifest.contains { $0.name == "EntitlementCLI" && $0.dependencies.contains("EntitlementStore") })
        for target in manifest where !graph.contains(where: { $0.name == target.name }) {
            Issue.record("Package.swift declares target \(target.name), which ARCHITECTURE.md's graph leaves out")
        }
        for line in graph {
            guard let target = manifest.first(where: { $0.name == line.name }) else {
                Issue.record("ARCHITECTURE.md's graph lists \(line.name), which Package.swift does not declare")
                continue
            }
            let missing = target.dependencies.filter { !line.dependencies.contains($0) }
            let extra = line.dependencies.filter { !target.dependencies.contains($0) }
            #expect(missing.isEmpty, "\(line.name): Package.swift depends on \(missing), which ARCHITECTURE.md's graph leaves out")
            #expect(extra.isEmpty, "\(line.name): ARCHITECTURE.md's graph lists \(extra), which Package.swift does not declare")
        }
        #expect(Set(graph.map(\.name)).count == graph.count, "ARCHITECTURE.md's graph lists a target twice")
        // Drawn top-down: each target above everything it uses.
        for (index, line) in graph.enumerated() {
            for dependency in line.dependencies where graph[..<index].contains(where: { $0.name == dependency }) {
                Issue.record("ARCHITECTURE.md's graph lists \(dependency) above \(line.name), which depends on it: move \(dependency) down")
            }
        }
    }

    /// Paths from the repository's top (`Sources/…`, `Tests/…`, `docs/…`, or a folder of
    /// `Sources/` such as `EntitlementStore/…`), with `*` allowed; a `<placeholder>` is skipped.
    @Test(arguments: ["ARCHITECTURE.md", "CONTRIBUTING.md"])
    func pathsThePageGivesExist(_ page: String) throws {
        let text = try String(contentsOfFile: "\(repositoryRoot)/\(page)", encoding: .utf8)
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources)
        let tops = ["Sources", "Tests", "Fixtures", "docs", "scripts", "Fuzz"]
        var checked = 0
        for word in ArchitectureMap.backticked(text) where word.contains("/") && !word.contains("<") {
            let first = String(word.split(separator: "/").first ?? "")
            let path = modules.contains(first) ? "Sources/\(word)" : word
            guard tops.contains(first) || modules.contains(first) else { continue }
            checked += 1
            #expect(Self.exists(path), "\(page) gives `\(word)`, which the repository does not hold")
        }
        #expect(checked > 3)
    }

    /// `path` (relative to the repository, `*` within a component) names a file or folder.
    static func exists(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard trimmed.contains("*") else { return FileManager.default.fileExists(atPath: "\(repositoryRoot)/\(trimmed)") }
        let folder = String(trimmed[..<(trimmed.lastIndex(of: "/") ?? trimmed.startIndex)])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/\(folder)")) ?? []
        return names.contains { ArchitectureMap.matches("\(folder)/\($0)", pattern: trimmed) }
    }

    // MARK: The parsers themselves

    @Test func theManifestParserReadsTargetsAndLeavesOutTests() {
        let manifest = """
            targets: [
                // A comment with "quotes" and .target(name: "Commented")
                .systemLibrary(name: "CLib"),
                .target(name: "Low", dependencies: ["CLib"], exclude: ["README.md"]),
                .target(name: "High", dependencies: [
                    "Low", // why
                    "CLib",
                ]),
                .executableTarget(name: "tool", dependencies: ["High"]),
                .target(name: "Support", dependencies: ["High"], path: "Tests/Support"),
                .testTarget(name: "HighTests", dependencies: ["High", "Support"]),
            ]
            """
        #expect(ArchitectureMap.manifestTargets(manifest) == [
            .init(name: "CLib", dependencies: []),
            .init(name: "Low", dependencies: ["CLib"]),
            .init(name: "High", dependencies: ["Low", "CLib"]),
            .init(name: "tool", dependencies: ["High"]),
        ])
    }

    @Test func theGraphBlockIsReadLineByLine() {
        let page = "# Map\n<!-- package graph: … -->\n```text\ntool: High\nHigh: Low, CLib\nCLib:\n```\nLow: not read\n"
        #expect(ArchitectureMap.graphBlock(page) == [
            .init(name: "tool", dependencies: ["High"]),
            .init(name: "High", dependencies: ["Low", "CLib"]),
            .init(name: "CLib", dependencies: []),
        ])
        #expect(ArchitectureMap.graphBlock("```text\ntool: High\n```\n") == nil)
    }

    @Test func namesAreBacktickedWordsAndMatchByComponent() {
        let table = "| `A.swift`, `Sub/B*.swift` | `not a name.swift` |\n```text\n`C.swift`\n```"
        #expect(ArchitectureMap.swiftNames(table) == ["A.swift", "Sub/B*.swift", "C.swift"])
        #expect(ArchitectureMap.matches("Sub/B+Extra.swift", pattern: "Sub/B*.swift"))
        #expect(!ArchitectureMap.matches("Sub/Deeper/B.swift", pattern: "Sub/B*.swift"))
        #expect(!ArchitectureMap.matches("B.swift", pattern: "Sub/B*.swift"))
        #expect(ArchitectureMap.matches("Engine/StatusEngine.swift", pattern: "Engine/StatusEngine*.swift"))
    }
}
