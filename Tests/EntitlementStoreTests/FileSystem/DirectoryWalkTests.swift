import Foundation
import Glibc
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// `FileSystem.walk`, the one directory walk: every entry but `.` and `..`, kinds without
/// following links, early stop, and `opendir`'s error handed to the caller.
@Suite(.tags(.unit))
struct DirectoryWalkTests {
    let directory = TemporaryDirectory()

    func walked(_ detail: FileSystem.WalkDetail = .kind, fileSystem: FileSystem = .system) throws(SystemError) -> [String: DirectoryEntry.Kind] {
        var found: [String: DirectoryEntry.Kind] = [:]
        try fileSystem.walk(directory.path, detail: detail) { entry in
            found[String(decoding: entry.name, as: UTF8.self)] = entry.kind
            return true
        }
        return found
    }

    @Test func listsEveryEntryWithItsKindAndNeverFollowsALink() throws {
        let path = directory.path
        _ = FileManager.default.createFile(atPath: path + "/a.json", contents: Data("{}".utf8))
        _ = FileManager.default.createFile(atPath: path + "/.a.json.tmp-1", contents: Data())
        try FileManager.default.createDirectory(atPath: path + "/ab", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path + "/link", withDestinationPath: path + "/ab")
        #expect(try walked() == ["a.json": .regular, ".a.json.tmp-1": .regular, "ab": .directory, "link": .symbolicLink])
        #expect(try FileSystem.system.list(path).sorted() == [".a.json.tmp-1", "a.json", "ab", "link"])
    }

    @Test func directoriesCarryTheirStatusWhenAsked() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/ab", withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: directory.path + "/file", contents: Data())
        var statuses: [String: Bool] = [:]
        try FileSystem.system.walk(directory.path, detail: .directoryStatus) { entry in
            statuses[String(decoding: entry.name, as: UTF8.self)] = entry.status != nil
            return true
        }
        #expect(statuses == ["ab": true, "file": false])
        let expected = try #require(try FileSystem.system.status(directory.path + "/ab"))
        try FileSystem.system.walk(directory.path, detail: .directoryStatus) { entry in
            if let status = entry.status { #expect(status.st_ino == expected.st_ino) }
            return true
        }
    }

    @Test func stopsWhenTheBodySaysSo() throws {
        for index in 0..<10 { _ = FileManager.default.createFile(atPath: directory.path + "/f\(index)", contents: Data()) }
        var seen = 0
        let finished = try FileSystem.system.walk(directory.path) { _ in
            seen += 1
            return seen < 3
        }
        #expect(!finished)
        #expect(seen == 3)
    }

    @Test func aMissingFolderIsENOENTAndAFailedOpenIsTheCallersError() {
        #expect(throws: SystemError(call: "opendir", code: ENOENT)) {
            try FileSystem.system.walk(directory.path + "/missing") { _ in true }
        }
        var failing = FileSystem.system
        failing.openDirectory = { _ in errno = EACCES; return nil }
        #expect(throws: SystemError(call: "opendir", code: EACCES)) { try walked(fileSystem: failing) }
        #expect(throws: EntitlementError.self) { try failing.list(directory.path) }
    }

    @Test func profileListingsGoThroughTheSeam() throws {
        // The profile listing of completion and of near-id suggestions walks through `FileSystem`:
        // a folder it cannot open is an error it reports, not a silent empty listing.
        _ = FileManager.default.createFile(atPath: directory.path + "/alice.json", contents: Data("{}".utf8))
        var names: [String] = []
        try ProfileNameListing(profilesPath: directory.path, layout: .flat).forEachName { name in
            names.append(String(decoding: name, as: UTF8.self))
            return true
        }
        #expect(names == ["alice"])
        var failing = FileSystem.system
        failing.openDirectory = { _ in errno = EIO; return nil }
        #expect(throws: SystemError.self) {
            try ProfileNameListing(profilesPath: directory.path, layout: .flat, fileSystem: failing).forEachName { _ in true }
        }
    }
}
