import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Errors blamed on the right party: an import document's bad user id is the document's error, and a store
/// this user may not read is "permission denied", not "no store".
@Suite(.tags(.cli))
struct ErrorAttributionTests {
    let directory = TemporaryDirectory()

    /// A RevenueCat document whose `original_app_user_id` holds `id`.
    func document(userID id: String) throws -> String {
        let text = try String(contentsOfFile: ImportTests.fixtures + "/revenuecat/subscriber-active.json", encoding: .utf8)
        var object = try #require(try JSONParser.parse(text).objectValue)
        var subscriber = try #require(object["subscriber"]?.objectValue)
        subscriber["original_app_user_id"] = .string(id)
        object["subscriber"] = .object(subscriber)
        let path = directory.path + "/doc.json"
        writeFile(path, JSONWriter().string(.object(object)))
        return path
    }

    @Test func documentUserIDWithControlCharacterNamesTheFileAndShowsNoUsage() throws {
        let store = directory.store()
        let file = try document(userID: "bad\u{1B}id")
        let result = runCLI(["import", file, "--store", store, "--at", "2026-01-15"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("Error: \(file): the user id 'bad\\u{1b}id' contains a control character (U+001B).\n"))
        #expect(!result.stderr.contains("Usage:"))
        let json = runCLI(["import", file, "--store", store, "--at", "2026-01-15", "--json"])
        let error = try #require(try JSONParser.parse(String(json.stderr.split(separator: "\n")[0])).objectValue?["error"]?.objectValue)
        #expect(error["code"] == .string("invalid_user_id"))
        #expect(error["message"]?.stringValue?.hasPrefix(file + ": ") == true)
        // --user is the command line's: its usage line still follows.
        let option = runCLI(["import", file, "--store", store, "--at", "2026-01-15", "--user", "x\ty"])
        #expect(option.exitCode == 2)
        #expect(option.stderr.contains("Usage: entitlement import"))
    }

    @Test func storeThatCannotBeLookedIntoIsPermissionDenied() throws {
        let root = directory.store()
        var store = EntitlementStore(root: root)
        store.fileSystem.lstat = { _, _ in errno = EACCES; return -1 }
        #expect(throws: EntitlementError.io(path: root + "/config.json", message: "cannot stat: Permission denied")) {
            try StoreVerifier(store: store).run()
        }
        store.fileSystem.lstat = { _, _ in errno = ENOENT; return -1 }
        #expect(throws: EntitlementError.storeMissing(path: root)) { try StoreVerifier(store: store).run() }
    }

    /// The real thing, run as another user (needs root to switch users; skipped otherwise).
    @Test(.tags(.endToEnd), .enabled(if: geteuid() == 0 && Binary.exists && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func verifyAsAnotherUser() throws {
        let root = directory.store()
        chmod(directory.path, 0o755)
        chmod(root, 0o700)
        let binary = directory.path + "/entitlement"
        try FileManager.default.copyItem(atPath: Binary.path, toPath: binary)
        chmod(binary, 0o755)
        let result = try Binary.run(["verify", "--store", root], launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("Permission denied"))
        #expect(!result.stderr.contains("no store"))
    }
}
