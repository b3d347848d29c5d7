import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The tool never writes a file it would refuse to read.
@Suite(.tags(.cli))
struct ReadBackTests {
    let directory = TemporaryDirectory()

    func adaptyDocument(extra: String, attributes: String = "{}") throws -> String {
        let path = repositoryRoot + "/Fixtures/import/adapty/profile-canceled.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"is_sandbox\": false", with: "\"is_sandbox\": false, \"extra\": \(extra)")
        text = text.replacingOccurrences(of: "\"custom_attributes\": {}", with: "\"custom_attributes\": \(attributes)")
        return text
    }

    func store() -> String {
        let root = directory.path + "/store"
        #expect(runCLI(["init", "--store", root, "--entitlement", "sports"]).exitCode == 0)
        return root
    }

    func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in (FileManager.default.subpaths(atPath: root) ?? []) where !path.hasPrefix(".") {
            if let data = FileManager.default.contents(atPath: root + "/" + path) { files[path] = data }
        }
        return files
    }

    /// A document nested just under the parser's cap would be stored deeper than the cap.
    @Test func aDeeplyNestedImportIsRefusedAndTheStoreIsUnchanged() throws {
        let root = store()
        // The deepest document the parser accepts: its vendor data is stored a few levels deeper.
        var depth = JSONParser.maximumDepth
        var document = ""
        repeat {
            depth -= 1
            document = try adaptyDocument(extra: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        } while (try? JSONParser.parse(document)) == nil
        let file = directory.path + "/deep.json"
        writeFile(file, document)
        let before = snapshot(root)
        let result = runCLI(["import", file, "--store", root])
        #expect(result.exitCode == 4, "\(result.stderr)")
        #expect(result.stderr.contains("would not read back"))
        #expect(snapshot(root) == before)
        #expect(runCLI(["status", "adapty-canceled@example.com", "--store", root]).exitCode != 4)
    }

    /// Keys that differ only in Unicode normalization are two keys: written and read back.
    @Test func nfcAndNfdAttributeKeysReadBack() throws {
        let root = store()
        for (index, key) in ["caf\u{E9}", "cafe\u{301}"].enumerated() {
            let file = directory.path + "/doc\(index).json"
            writeFile(file, try adaptyDocument(extra: "null", attributes: "{\"\(key)\": \"v\(index)\"}"))
            let result = runCLI(["import", file, "--store", root])
            #expect(result.exitCode == 0, "\(result.stderr)")
        }
        let status = runCLI(["status", "adapty-canceled@example.com", "--store", root])
        #expect(status.exitCode == 0, "\(status.stderr)")
    }

    @Test func saveRefusesAProfileTheReaderWouldRefuse() throws {
        let root = store()
        let file = directory.path + "/ok.json"
        writeFile(file, try adaptyDocument(extra: "null"))
        #expect(runCLI(["import", file, "--store", root]).exitCode == 0)
        let store = EntitlementStore(root: root)
        var profile = try #require(try store.loadProfile(userID: "adapty-canceled@example.com"))
        var deep = JSONValue.null
        for _ in 0..<JSONParser.maximumDepth { deep = .array([deep]) }
        profile.transactions[0].raw["deep"] = deep
        let path = store.profilePath(for: profile.customerUserID)
        let before = readFile(path)
        #expect(throws: EntitlementError.self) { try store.withWriteLock { () throws(EntitlementError) in _ = try store.saveProfile(profile) } }
        #expect(readFile(path) == before)
    }
}
