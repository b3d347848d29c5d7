import Foundation
import Testing
import EntitlementTestSupport

/// The project's text talks about the product only (CONTRIBUTING.md, "Commits"): no comment,
/// doc, test description or script cites the tracker's numbered tickets. A reason or a
/// figure is stated as the product fact it is. Vendor data (JSON, certificates, keys) and
/// the bad-input samples are data, not prose, and are not read.
@Suite(.tags(.unit))
struct ProductProseTests {
    /// The ticket citation, built from parts so that this file does not cite one itself.
    static var citation: Regex<AnyRegexOutput> {
        let word = "[Ii]" + "ss" + "ues?"
        return try! Regex("\\b" + word + " #?[0-9]+")
    }

    /// The folders scanned whole, and the single files, relative to the repository root.
    static let folders = ["Sources", "Tests", "scripts", "docs"]
    static let files = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "Package.swift", "Makefile"]
    /// Extensions of data files, never prose.
    static let dataExtensions: Set<String> = ["json", "jsonl", "der", "pem", "p8", "p12", "bin"]
    /// Folders of input samples (bytes a test feeds the tool), never prose.
    static let dataFolders = ["Tests/BadInput/"]

    /// Every path the check reads: the folders' text files, Fixtures' READMEs, the root files.
    static func scannedPaths() -> [String] {
        var paths = files
        for folder in folders {
            let enumerator = FileManager.default.enumerator(atPath: repositoryRoot + "/" + folder)
            while let path = enumerator?.nextObject() as? String {
                let relative = folder + "/" + path
                guard isFile(relative), !dataExtensions.contains((path as NSString).pathExtension.lowercased()),
                      !dataFolders.contains(where: { relative.hasPrefix($0) }) else { continue }
                paths.append(relative)
            }
        }
        let fixtures = FileManager.default.enumerator(atPath: repositoryRoot + "/Fixtures")
        while let path = fixtures?.nextObject() as? String {
            if path.hasSuffix(".md") { paths.append("Fixtures/" + path) }
        }
        return paths.sorted()
    }

    static func isFile(_ relative: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: repositoryRoot + "/" + relative, isDirectory: &directory) && !directory.boolValue
    }

    /// `path:line: text` for each line of `text` that cites a ticket.
    static func citations(in text: String, path: String) -> [String] {
        let pattern = citation
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            line.contains(pattern) ? "\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))" : nil
        }
    }

    @Test("No file of the project cites a ticket number")
    func noTicketCitations() throws {
        let paths = Self.scannedPaths()
        #expect(paths.contains("docs/commands.md") && paths.contains("Sources/EntitlementCLI/CLI/CLI.swift"))
        #expect(paths.contains("Fixtures/README.md") && !paths.contains(where: { $0.hasSuffix(".json") }))
        var found: [String] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: repositoryRoot + "/" + path),
                  let text = String(data: data, encoding: .utf8) else { continue }
            found += Self.citations(in: text, path: path)
        }
        #expect(found.isEmpty, "state the product fact instead of the ticket:\n\(found.joined(separator: "\n"))")
    }

    @Test("The citation pattern finds a ticket number and leaves product wording alone")
    func patternMatchesCitationsOnly() {
        let cite = "iss" + "ue"
        for text in ["quadratic (\(cite) 21, item 17)", "\(cite.capitalized) 25, \"Audit\"", "\(cite)s 21 and 23", "see \(cite) #4"] {
            #expect(!Self.citations(in: text, path: "x").isEmpty, "\(text)")
        }
        for text in ["billing_\(cite) 3", "\(cite)d 5 times", "tissue 3", "an \(cite) with the card", "\(cite)r_id 57"] {
            #expect(Self.citations(in: text, path: "x").isEmpty, "\(text)")
        }
        #expect(Self.citations(in: "one\n(\(cite) 9)\n", path: "f.md") == ["f.md:2: (\(cite) 9)"])
    }
}
