import Foundation
import EntitlementTestSupport

/// Reads the `package` declarations of the library modules and the names their consumers use,
/// for `PackageAccessTests` (CONTRIBUTING.md, "Access levels").
enum PackageAccess {
    /// One `package` declaration: where it is, what it declares, and the type it belongs to.
    struct Declaration: Hashable, CustomStringConvertible {
        var module: String
        var file: String
        var line: Int
        var kind: String
        var name: String
        var owner: String?

        /// `Module.Owner.name`, or `Module.Owner.init` for an initializer: the allow-list key.
        var key: String {
            let member = kind == "init" || kind == "subscript" ? kind : name
            return [module, owner, member].compactMap { $0 }.joined(separator: ".")
        }

        var description: String { "Sources/\(module)/\(file):\(line): package \(kind) \(key)" }
    }

    nonisolated(unsafe) static let declaration = #/^(\s*)(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*package\s+(?:(?:static|final|override|mutating|nonmutating|nonisolated|lazy|convenience|required|indirect|private\(set\)|internal\(set\)|fileprivate\(set\)|class)\s+)*(func|var|let|struct|enum|class|protocol|actor|typealias|init|subscript|extension)\b\s*([A-Za-z_][A-Za-z0-9_]*)?/#
    nonisolated(unsafe) static let container = #/\b(?:struct|enum|class|extension|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_.]*)/#

    /// The `package` declarations of one file. Extensions carry no name of their own, and
    /// operators are witnesses of standard protocols (`==`, `<`); both are left out.
    static func declarations(inFile file: String, text: String, module: String) -> [Declaration] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Declaration] = []
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: declaration) else { continue }
            let kind = String(match.2)
            guard kind != "extension" else { continue }
            let owner = Self.owner(of: index, indent: match.1.count, in: lines)
            let name: String
            if kind == "init" || kind == "subscript" {
                guard let owner else { continue }
                name = owner
            } else {
                guard let declared = match.3 else { continue }
                name = String(declared)
            }
            found.append(Declaration(module: module, file: file, line: index + 1, kind: kind, name: name, owner: owner))
        }
        return found
    }

    /// The type a member line belongs to: the nearest line above with less indentation that
    /// opens a type or an extension (the code is formatted, so indentation is nesting).
    static func owner(of index: Int, indent: Int, in lines: [String]) -> String? {
        guard indent > 0 else { return nil }
        for line in lines[..<index].reversed() {
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("//") else { continue }
            let depth = line.count - trimmed.count
            guard depth < indent else { continue }
            if let match = line.firstMatch(of: container) {
                return String(match.1.split(separator: ".").last ?? match.1)
            }
            if depth == 0 { return nil }
        }
        return nil
    }

    /// Whether a module that imports the declaration's module names it: the name itself, and
    /// for a member also its type (a member of a type no consumer names is reached by none),
    /// unless the type is one of `exposed`, reached by inference through a `package` member.
    static func isNamed(_ declaration: Declaration, by used: Set<String>, exposed: Set<String> = []) -> Bool {
        guard used.contains(declaration.name) else { return false }
        guard let owner = declaration.owner else { return true }
        return used.contains(owner) || exposed.contains(owner)
    }

    /// Every library module's `package` declarations, and for each module the identifiers
    /// of the modules that import it: those under Sources/ and the test support targets.
    static func scan(root: String) throws -> (declarations: [Declaration], usedBy: [String: Set<String>]) {
        let sources = root + "/Sources"
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources).filter {
            !ArchitectureMap.swiftFiles(under: "\(sources)/\($0)").isEmpty
        }.sorted()
        let ours = Set(modules)
        var identifiers: [String: Set<String>] = [:], imports: [String: Set<String>] = [:]
        var declarations: [Declaration] = []
        for module in modules {
            let folder = "\(sources)/\(module)"
            for file in ArchitectureMap.swiftFiles(under: folder) {
                let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
                imports[module, default: []].formUnion(DeclaredDependencyTests.importedModules(of: "\(folder)/\(file)", ours: ours))
                let code = text.split(separator: "\n").filter { !$0.contains("import ") }.joined(separator: "\n")
                identifiers[module, default: []].formUnion(DeclaredDependencyTests.identifiers(in: code))
                declarations += Self.declarations(inFile: file, text: text, module: module)
            }
        }
        // The test support targets are modules built in every configuration (a release build
        // too), so they cannot `@testable import`: what they name is used from outside.
        var consumers = modules
        for support in ["EntitlementTestSupport", "EntitlementCLITestSupport"] {
            let folder = "\(root)/Tests/\(support)"
            for file in ArchitectureMap.swiftFiles(under: folder) {
                let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
                imports[support, default: []].formUnion(DeclaredDependencyTests.importedModules(of: "\(folder)/\(file)", ours: ours))
                let code = text.split(separator: "\n").filter { !$0.contains("import ") }.joined(separator: "\n")
                identifiers[support, default: []].formUnion(DeclaredDependencyTests.identifiers(in: code))
                consumers.append(support)
            }
        }
        var usedBy: [String: Set<String>] = [:]
        for module in modules {
            for consumer in Set(consumers) where consumer != module && imports[consumer, default: []].contains(module) {
                usedBy[module, default: []].formUnion(identifiers[consumer, default: []])
            }
        }
        return (declarations, usedBy)
    }
}
