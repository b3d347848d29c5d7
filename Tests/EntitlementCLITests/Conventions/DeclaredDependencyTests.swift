import Foundation
import Testing
import EntitlementTestSupport

/// The build holds the graph (ARCHITECTURE.md, "The graph"): each target's `dependencies` in
/// `Package.swift` are exactly the modules of ours its files import. SwiftPM's own check
/// (`--explicit-target-dependency-import-check`, run by `make build`) refuses a module the
/// target cannot reach, but accepts one reached only through another target and says nothing
/// of a declared dependency no file imports; this test holds both. That each file imports
/// all it uses is held by the compiler (`MemberImportVisibility`); that it imports nothing
/// it does not use, by `everyImportOfOursNamesSomething`.
@Suite(.tags(.unit))
struct DeclaredDependencyTests {
    /// The modules of this package a file imports: `import X`, `@testable import X`,
    /// `internal import X`, including those under `#if` (the fuzz harness's are real in tests).
    static func importedModules(of file: String, ours: Set<String>) -> Set<String> {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let position = words.firstIndex(of: "import"), position + 1 < words.count,
                  words[..<position].allSatisfy({ $0.hasPrefix("@") || ["internal", "package", "public", "private", "fileprivate"].contains($0) })
            else { continue }
            let module = words[position + 1]
            if ours.contains(module) { modules.insert(module) }
        }
        return modules
    }

    /// A target's folder: `path:` for the test support, else Sources/NAME or Tests/NAME.
    static func folder(of target: String) -> String? {
        for candidate in ["Sources/\(target)", "Tests/\(target)"] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(repositoryRoot)/\(candidate)", isDirectory: &isDirectory), isDirectory.boolValue {
                return "\(repositoryRoot)/\(candidate)"
            }
        }
        return nil
    }

    @Test func everyTargetDeclaresExactlyWhatItsFilesImport() throws {
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        let targets = ArchitectureMap.manifestTargets(manifest, includingTests: true)
        let ours = Set(targets.map(\.name))
        #expect(ours.contains("EntitlementCLITests") && ours.contains("EntitlementTestSupport") && ours.contains("COpenSSL"))
        var checked = 0
        for target in targets {
            guard let folder = Self.folder(of: target.name) else { continue }
            let files = ArchitectureMap.swiftFiles(under: folder)
            guard !files.isEmpty else { continue }   // system libraries: headers only
            checked += 1
            var imported: Set<String> = []
            for file in files { imported.formUnion(Self.importedModules(of: "\(folder)/\(file)", ours: ours)) }
            imported.remove(target.name)
            let declared = Set(target.dependencies)
            for module in imported.subtracting(declared).sorted() {
                Issue.record("\(target.name) imports \(module) without declaring it in Package.swift: add it to the target's dependencies")
            }
            for module in declared.subtracting(imported).sorted() {
                Issue.record("\(target.name) declares \(module) in Package.swift and no file of it imports it: remove it from the target's dependencies")
            }
        }
        #expect(checked >= 20)
    }

    /// The names a module declares, at any depth and any access level: types, functions,
    /// properties, enum cases. Over-approximate on purpose (a member name shared with the
    /// standard library counts as used), so the test below never refuses a needed import.
    static func declaredNames(under folder: String) -> Set<String> {
        let keywords: Set = ["func", "var", "let", "case", "struct", "enum", "class", "protocol", "actor", "typealias", "associatedtype"]
        var names: Set<String> = []
        for file in ArchitectureMap.swiftFiles(under: folder) {
            let tokens = identifiers(in: (try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)) ?? "", keepingCommas: true)
            var afterCase = false
            for (index, token) in tokens.enumerated() where index > 0 {
                let previous = tokens[index - 1]
                if keywords.contains(previous), token != "," { names.insert(token) }
                if previous == "case" { afterCase = true } else if afterCase, previous == ",", token != "," { names.insert(token) } else if token != "," && previous != "," { afterCase = previous == "case" }
            }
        }
        return names
    }

    /// The identifiers of `text` outside comments, in order (commas kept when asked).
    static func identifiers(in text: String, keepingCommas: Bool = false) -> [String] {
        var result: [String] = []
        for line in text.split(separator: "\n") {
            let code = line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line)
            var current = ""
            for character in code {
                if character.isLetter || character.isNumber || character == "_" { current.append(character); continue }
                if !current.isEmpty { result.append(current); current = "" }
                if keepingCommas, character == "," { result.append(",") }
            }
            if !current.isEmpty { result.append(current) }
        }
        return result
    }

    @Test func everyImportOfOursNamesSomething() throws {
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        let targets = ArchitectureMap.manifestTargets(manifest, includingTests: true)
        let ours = Set(targets.map(\.name))
        var declared: [String: Set<String>] = [:]
        for target in targets where !target.name.hasSuffix("Tests") && !target.name.hasPrefix("entitlement") {
            guard let folder = Self.folder(of: target.name) else { continue }
            let names = Self.declaredNames(under: folder)
            if !names.isEmpty { declared[target.name] = names }
        }
        #expect(declared["EntitlementStore"]?.contains("EntitlementStore") == true)
        for target in targets {
            guard let folder = Self.folder(of: target.name) else { continue }
            for file in ArchitectureMap.swiftFiles(under: folder) {
                let path = "\(folder)/\(file)"
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                let used = Set(Self.identifiers(in: text.split(separator: "\n").filter { !$0.contains("import ") }.joined(separator: "\n")))
                for module in Self.importedModules(of: path, ours: ours) {
                    guard let names = declared[module] else { continue }   // C modules: headers
                    if used.isDisjoint(with: names) {
                        Issue.record("\(target.name)/\(file) imports \(module) and names nothing it declares: remove the import")
                    }
                }
            }
        }
    }

    /// A parse check of the import reader, so a change to it cannot make the test above pass
    /// by reading nothing.
    @Test func importLinesAreRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("A.swift").path
        let word = "import"   // spelled apart so this file's own lines are not read as imports
        try """
        \(word) Foundation
        @testable \(word) EntitlementStore
        internal \(word) CSystemShims
        #if !FUZZING
        \(word) EntitlementCLI
        #endif
        // \(word) EntitlementTeam
        let text = "\(word) EntitlementIngest"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let ours: Set = ["EntitlementStore", "CSystemShims", "EntitlementCLI", "EntitlementTeam", "EntitlementIngest"]
        #expect(Self.importedModules(of: file, ours: ours) == ["EntitlementStore", "CSystemShims", "EntitlementCLI"])
    }
}
