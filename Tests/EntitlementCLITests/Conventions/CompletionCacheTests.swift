import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The completion cache: it answers as a listing of the store would, is never used once
/// stale, and is left out quietly when it cannot be kept. Every test points XDG_CACHE_HOME
/// at its own temporary folder and passes a fixed clock.
@Suite(.tags(.cli))
struct CompletionCacheTests {
    /// A clock far after any file time on the machine: the folders count as settled.
    static let settled = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01

    struct Fixture {
        let directory = TemporaryDirectory()
        let root: String
        var cacheHome: String { directory.path + "/cache" }
        var environment: [String: String] { ["XDG_CACHE_HOME": cacheHome] }

        init(layout: ProfileLayout = .flat, ids: [String]) {
            let layoutField = layout == .fanout ? #", "profile_layout": "fanout""# : ""
            root = directory.store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["m"]}}\#(layoutField)}"#)
            for id in ids { add(id) }
        }

        func add(_ id: String) {
            let path = EntitlementStore(root: root).profilePath(for: id)
            try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            writeFile(path, "not parsed by completion")
        }

        func complete(_ prefix: String, now: Date = CompletionCacheTests.settled, environment extra: [String: String] = [:]) -> [String] {
            let result = runCLI(["__complete", "users", "--store", root, "--", prefix], environment: environment.merging(extra) { $1 }, now: now)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }

        /// The cache files saved so far (temporary files excluded).
        var cacheFiles: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cacheHome + "/entitlement")) ?? []).filter { !$0.hasPrefix(".") }
        }
    }

    /// Cached and listed answers agree, over generated stores (both layouts) and prefixes.
    @Test(arguments: ProfileLayout.allCases)
    func cachedAndListedCompletionsAgree(layout: ProfileLayout) {
        var random = SplitMix64(seed: layout == .flat ? 0x5EED : 0xFA40)
        let alphabet: [Unicode.Scalar] = ["a", "b", "A", "0", "1", "-", ".", "@", "%", " ", "/", "é", "日", "\u{1}"]
        func word(_ length: Int) -> String {
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            return text
        }
        for round in 0..<6 {
            let ids = Set((0..<Int(random.next() % 300)).map { _ in word(1 + Int(random.next() % 6)) } + [String(repeating: "a", count: 250)])
            let fixture = Fixture(layout: layout, ids: Array(ids))
            let store = EntitlementStore(root: fixture.root)
            _ = fixture.complete("")
            #expect(fixture.cacheFiles.count == 1, "round \(round): the first completion saves the cache")
            for prefix in [""] + (0..<40).map({ _ in word(Int(random.next() % 3)) }) {
                let listed = (try? store.userIDs(withPrefix: prefix, limit: .max)) ?? []
                let cached = fixture.complete(prefix)
                // Both sort by file name; past the limit the cache answers the first names.
                #expect(cached == listed.prefix(CompleteCommand.limit).filter { !$0.unicodeScalars.contains { $0.value < 0x20 } },
                        "round \(round), prefix '\(prefix)'")
                #expect(listed.allSatisfy { $0.hasPrefix(prefix) && ids.contains($0) })
                #expect(Set(listed) == ids.filter { $0.utf8.starts(with: prefix.utf8) && $0.count < 250 }, "every id but the hashed one")
            }
        }
    }

    /// Adding or removing a profile makes the next completion see it, even without a clock tick:
    /// the cache is only saved once the folders' times have settled.
    @Test(arguments: ProfileLayout.allCases)
    func aChangedStoreIsNeverAnsweredFromAStaleCache(layout: ProfileLayout) throws {
        let fixture = Fixture(layout: layout, ids: ["alice", "alex", "bob"])
        #expect(fixture.complete("al") == ["alex", "alice"])
        #expect(fixture.cacheFiles.count == 1)
        // The fixed clock called the folders settled; make that true before each change, so that
        // the change moves the folders' times past the coarse tick the cache was built in.
        usleep(30_000)
        fixture.add("albert")
        #expect(fixture.complete("al") == ["albert", "alex", "alice"])
        usleep(30_000)
        try FileManager.default.removeItem(atPath: EntitlementStore(root: fixture.root).profilePath(for: "alex"))
        #expect(fixture.complete("al") == ["albert", "alice"])
        #expect(fixture.complete("b") == ["bob"])
    }

    @Test func unsettledFoldersAreListedAndNotCached() {
        let fixture = Fixture(ids: ["alice"])
        // A clock before the folders' times: they may still change within their clock tick.
        #expect(fixture.complete("a", now: demoDate) == ["alice"])
        #expect(fixture.cacheFiles.isEmpty)
    }

    /// The fanout layout keeps files two folders down: completion finds them there.
    @Test func fanoutStoresCompleteWithAndWithoutACache() {
        let fixture = Fixture(layout: .fanout, ids: ["alice", "alex", "bob", "a b"])
        let listed = runCLI(["__complete", "users", "a", "--store", fixture.root]).stdout
        #expect(listed.split(separator: "\n").sorted() == ["a b", "alex", "alice"])
        #expect(fixture.complete("a") == ["a b", "alex", "alice"])
        #expect(fixture.complete("a") == ["a b", "alex", "alice"], "from the cache")
    }

    @Test func anUnwritableOrUntrustedCacheFolderIsIgnoredQuietly() throws {
        let fixture = Fixture(ids: ["alice", "bob"])
        // A file where the folder should be, then a symbolic link to a folder elsewhere.
        try FileManager.default.createDirectory(atPath: fixture.cacheHome, withIntermediateDirectories: true)
        writeFile(fixture.cacheHome + "/entitlement", "")
        #expect(fixture.complete("a") == ["alice"])
        try FileManager.default.removeItem(atPath: fixture.cacheHome + "/entitlement")
        try FileManager.default.createDirectory(atPath: fixture.directory.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.cacheHome + "/entitlement", withDestinationPath: fixture.directory.path + "/elsewhere")
        #expect(fixture.complete("a") == ["alice"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path + "/elsewhere").isEmpty)
        // A read-only folder (root may write anyway; then the cache is simply used).
        try FileManager.default.removeItem(atPath: fixture.cacheHome + "/entitlement")
        try FileManager.default.createDirectory(atPath: fixture.cacheHome + "/entitlement", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o500])
        defer { chmod(fixture.cacheHome + "/entitlement", 0o700) }
        #expect(fixture.complete("b") == ["bob"])
        #expect(fixture.complete("b") == ["bob"])
        // No cache folder at all: neither XDG_CACHE_HOME nor HOME.
        #expect(runCLI(["__complete", "users", "a", "--store", fixture.root], now: Self.settled).stdout == "alice\n")
    }

    @Test func aPlantedLinkOrABrokenFileIsNotUsed() throws {
        let fixture = Fixture(ids: ["alice"])
        #expect(fixture.complete("a") == ["alice"])
        let name = try #require(fixture.cacheFiles.first)
        let path = fixture.cacheHome + "/entitlement/" + name
        let saved = try #require(readFile(path))
        // Truncated: the recorded length no longer matches.
        writeFile(path, String(saved.dropLast(3)))
        #expect(fixture.complete("a") == ["alice"])
        #expect(readFile(path) == saved, "rebuilt")
        // A link in its place is neither read nor followed when the cache is rewritten.
        try FileManager.default.removeItem(atPath: path)
        let target = fixture.directory.path + "/target"
        writeFile(target, saved.replacingOccurrences(of: "alice", with: "mallory"))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(fixture.complete("") == ["alice"])
        #expect(readFile(target)?.contains("mallory") == true)
    }

    @Test func theCacheIsNeverInsideTheStore() {
        let fixture = Fixture(ids: ["alice"])
        #expect(fixture.complete("a", environment: ["XDG_CACHE_HOME": fixture.root]) == ["alice"])
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/entitlement"))
    }

    @Test func lookUpFindsEveryPrefixInSortedLines() {
        let names = ["a", "ab", "abc", "abd", "b", "ba", "c%20d", "zz"]
        var bytes: [UInt8] = [], ranges: [Range<Int32>] = []
        for name in names.reversed() + ["ab", "c%20d"] {
            ranges.append(Int32(bytes.count)..<Int32(bytes.count + name.utf8.count))
            bytes += name.utf8
        }
        let body = SortedNameLines.build(bytes: bytes, ranges: ranges)
        #expect(String(decoding: body, as: UTF8.self) == names.map { $0 + "\n" }.joined())
        body.withUnsafeBytes { buffer in
            let lines = SortedNameLines(body: buffer)
            for prefix in ["", "a", "ab", "abc", "abe", "b", "c", "c%2", "c ", "y", "zz", "zzz", "0", "~"] {
                let wanted = ProfileFileName.escapedWithoutHashing(prefix) ?? ""
                let expected = names.filter { $0.hasPrefix(wanted) }.map { Array($0.utf8).withUnsafeBufferPointer { ProfileFileName.userID(fromName: $0)! } }
                #expect(lines.userIDs(withNamePrefix: Array(wanted.utf8), limit: .max) == expected, "'\(prefix)'")
            }
            #expect(lines.userIDs(withNamePrefix: Array("a".utf8), limit: 2) == ["a", "ab"])
        }
    }
}
