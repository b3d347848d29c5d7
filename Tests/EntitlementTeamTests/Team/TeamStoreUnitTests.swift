import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// The team store's pure parts: object names, trees, zlib framing, identities, messages, layout.
@Suite(.tags(.unit))
struct TeamStoreUnitTests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func sha1MatchesTheStandardVectors(input: String, digest: String) {
        #expect(SHA1.hex(SHA1.digest(Array(input.utf8))) == digest)
    }

    @Test func blobAndTreeIDsAreGitsOwn() {
        // `printf 'hello\n' | git hash-object --stdin`, and git's empty tree.
        #expect(SHA1.objectID(type: "blob", content: Array("hello\n".utf8)) == "ce013625030ba8dba906f756967f9e9ca394464a")
        #expect(GitTree().id == "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
    }

    @Test func treesSortDirectoriesAsIfTheyEndedInASlashAndRoundTrip() {
        var tree = GitTree()
        let id = String(repeating: "ab", count: 20)
        tree.entries["a.json"] = .init(mode: GitTree.fileMode, name: "a.json", id: id)
        tree.entries["a"] = .init(mode: GitTree.directoryMode, name: "a", id: id)
        tree.entries["a-b"] = .init(mode: GitTree.fileMode, name: "a-b", id: id)
        let content = tree.content
        func offset(_ entry: String) -> Int? {
            let needle = Array(entry.utf8) + [0]
            return (0...(content.count - needle.count)).first { Array(content[$0..<($0 + needle.count)]) == needle }
        }
        // Byte order with a directory as "a/": "a-b" (0x2D) < "a.json" (0x2E) < "a/" (0x2F).
        let order = [offset("100644 a-b"), offset("100644 a.json"), offset("40000 a")].compactMap { $0 }
        #expect(order.count == 3 && order == order.sorted())
        #expect(GitTree(content: tree.content) == tree)
    }

    @Test(arguments: [0, 1, 100, 65_535, 65_536, 200_000])
    func zlibStoredBlocksFrameAnyLength(length: Int) {
        var random = SplitMix64(seed: UInt64(length))
        let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let stream = ObjectWriter.zlibStored(data)
        #expect(Array(stream.prefix(2)) == [0x78, 0x01])
        // Unframe: each block is a flag byte, LEN, NLEN, then LEN bytes.
        var index = 2, out: [UInt8] = [], final = false
        while !final {
            final = stream[index] & 1 == 1
            let count = Int(stream[index + 1]) | Int(stream[index + 2]) << 8
            #expect(UInt16(count) == ~(UInt16(stream[index + 3]) | UInt16(stream[index + 4]) << 8))
            out += stream[(index + 5)..<(index + 5 + count)]
            index += 5 + count
        }
        #expect(out == data)
        #expect(stream.count == index + 4)
    }

    @Test(arguments: [
        ("Dana Scully <dana@example.com>", "Dana Scully", "dana@example.com"),
        ("dana", "dana", ""),
        ("  <only@example.com>", "only@example.com", "only@example.com"),
        ("Evil <x>\nInjected", "Evil xInjected", ""),
    ])
    func identitiesFromActors(actor: String, name: String, email: String) {
        let identity = GitIdentity(actor: actor)
        #expect(identity.name == name)
        #expect(identity.email == email)
    }

    @Test func anActorMatchesItsAuthorByWholeNameOrEmail() {
        let author = GitIdentity(name: "Dana", email: "dana@example.com")
        #expect(author.matches(actor: "Dana <dana@example.com>"))
        #expect(author.matches(actor: "Dana"))
        #expect(author.matches(actor: "dana@example.com"))
        #expect(!author.matches(actor: "root"))
        #expect(!author.matches(actor: "Dana <other@example.com>"))
    }

    @Test func commitMessagesSayWhatAndWhy() {
        let grant = GrantRequest(userID: "alice@example.com", entitlement: "premium", term: .duration(GrantDuration(months: 1)), startsAt: nil,
                                 reason: "Outage INC-42", actor: "dana")
        #expect(ChangeSummary.grant(grant) == "grant premium to alice@example.com for 1m: Outage INC-42")
        let revoke = RevokeRequest(entitlement: "premium", transactionID: nil, includeStore: true, reason: "Refund", actor: "dana")
        #expect(ChangeSummary.revoke(revoke, userID: "bob") == "revoke premium from bob (including store purchases): Refund")
        #expect(ChangeSummary.import(["a.json", "b.json", "c.json", "d.json"], customers: []) == "import 4 documents: a.json, b.json, c.json, …")
        // The customers changed, up to three, then a count.
        #expect(ChangeSummary.import(["a.json"], customers: ["alice", "bob"]) == "import 1 document for alice, bob: a.json")
        #expect(ChangeSummary.import(["-"], customers: ["a", "b", "c", "d"]) == "import 1 document for 4 customers: -")
        #expect(ChangeSummary.describe(GrantDuration(seconds: 14 * 86_400)) == "2w")
        #expect(ChangeSummary.describe(GrantDuration(months: 24)) == "2y")
    }

    @Test func journalLinesRoundTripAnyText() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("ab%\n\r\t é€/\\\u{1}x")
        for _ in 0..<200 {
            let text = String((0..<Int(random.next() % 20)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            let line = JournalLine.encode(text)
            #expect(!line.contains("\n"))
            #expect(JournalLine.decode(line[...]) == text)
        }
    }

    @Test func fanoutPathsComeFromTheNamesDigestAndFlatOnesStayAsTheyWere() {
        #expect(ProfileLayout.flat.relativePath(forName: "alice@example.com", suffix: ".json") == "alice@example.com.json")
        let digest = SHA256.hexDigest("alice@example.com".utf8)
        #expect(ProfileLayout.fanout.relativePath(forName: "alice@example.com", suffix: ".json")
            == "\(digest.prefix(2))/\(digest.dropFirst(2).prefix(2))/alice@example.com.json")
        #expect(ProfileLayout.fanout.relativePath(forName: "alice@example.com") == "ff/8d/alice@example.com")
    }
}
