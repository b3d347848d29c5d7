import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// What an incoming tree may hold, path by path and mode by mode (no git, no files).
@Suite(.tags(.unit))
struct StoreTreePolicyTests {
    static let allowed = [
        "config.json", ".gitattributes", ".gitignore", "profiles/alice.json", "profiles/3f/a2/alice.json",
        "profiles/.hidden.json", "index/profile-id/0c7d", "index/profile-id/0c/7d/1d2bc463",
        "index/alias/anon", "index/alias/0c/7d/anon", "index/app-store-original-transaction/aa/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "ingest/events/revenuecat/aa/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json", "ingest/googleplay/purchases/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json",
    ]
    static let refused = [
        ".lock", ".journal", ".tmp/k", ".tmp", "notes.txt", "profiles/alice.txt", "profiles/3fa/a2/alice.json",
        "profiles/3f/alice.json", "profiles/zz/a2/alice.json", "profiles/3f/a2/b1/alice.json", "index/other/x",
        "index/profile-id", ".git/config", "config.json/x", ".merge_file_abc",
        "ingest/spool/x.json", "ingest/failed/x.json", "ingest/incoming/x", "ingest/googleplay/purchases/abc.json",
        "ingest/googleplay/other/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json", "ingest/events/revenuecat/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json", "index/app-store-original-transaction/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]

    @Test(arguments: allowed) func storeFilesMayArrive(path: String) {
        #expect(StoreTreePolicy.refusal(.init(path: path, mode: "100644", status: "A")) == nil)
        #expect(StoreTreePolicy.refusal(.init(path: path, mode: "100644", status: "M")) == nil)
    }

    @Test(arguments: refused) func everythingElseIsRefusedByPath(path: String) {
        #expect(StoreTreePolicy.refusal(.init(path: path, mode: "100644", status: "A")) != nil)
        // Removing it is always fine: that is how a bad path is cleaned up.
        #expect(StoreTreePolicy.refusal(.init(path: path, mode: "000000", status: "D")) == nil)
    }

    @Test(arguments: [("120000", "symbolic link"), ("160000", "gitlink"), ("100755", "mode 100755"), ("040000", "mode 040000")])
    func onlyPlainFilesMayArrive(mode: String, words: String) {
        let refusal = StoreTreePolicy.refusal(.init(path: "profiles/3f/a2/alice.json", mode: mode, status: "T"))
        #expect(refusal?.contains(words) == true, "\(refusal ?? "nil")")
    }

    @Test func rawDiffOutputParsesWithAnyBytesInPaths() {
        let raw = ":100644 120000 \(String(repeating: "a", count: 40)) \(String(repeating: "b", count: 40)) T\0index/profile-id\0"
            + ":100644 000000 \(String(repeating: "c", count: 40)) \(String(repeating: "0", count: 40)) D\0profiles/a b\nc.json\0"
        let entries = IncomingTree.parse(Array(raw.utf8))
        let (a, b, c, zero) = (String(repeating: "a", count: 40), String(repeating: "b", count: 40), String(repeating: "c", count: 40), String(repeating: "0", count: 40))
        #expect(entries == [.init(path: "index/profile-id", mode: "120000", status: "T", oldMode: "100644", oldID: a, newID: b),
                            .init(path: "profiles/a b\nc.json", mode: "000000", status: "D", oldMode: "100644", oldID: c, newID: zero)])
    }

    @Test func removedProfilesCountCustomersNotMoves() {
        let tree = IncomingTree(entries: [
            .init(path: "profiles/alice.json", mode: "000000", status: "D"),
            .init(path: "profiles/3f/a2/alice.json", mode: "100644", status: "A"),
            .init(path: "profiles/bob.json", mode: "000000", status: "D"),
            .init(path: "index/profile-id/x", mode: "000000", status: "D"),
        ])
        #expect(StoreTreePolicy.removedProfiles(tree) == ["profiles/bob.json"])
    }

    @Test(arguments: [("GIT_DIR", false), ("GIT_WORK_TREE", false), ("GIT_INDEX_FILE", false), ("GIT_OBJECT_DIRECTORY", false),
                      ("GIT_ALTERNATE_OBJECT_DIRECTORIES", false), ("GIT_COMMON_DIR", false), ("GIT_NAMESPACE", false),
                      ("GIT_CONFIG", false), ("GIT_CONFIG_COUNT", false), ("GIT_CONFIG_KEY_0", false), ("GIT_CONFIG_PARAMETERS", false),
                      ("GIT_EXEC_PATH", false), ("GIT_SSH_COMMAND", true), ("GIT_SSL_CAINFO", true), ("GIT_HTTP_PROXY_AUTHMETHOD", true),
                      ("GIT_CONFIG_GLOBAL", true), ("GIT_AUTHOR_NAME", true), ("GIT_AUTHOR_DATE", false)])
    func onlyHarmlessGitVariablesAreKept(name: String, kept: Bool) {
        #expect(GitRepository.keepsGitVariable(name) == kept)
    }
}
