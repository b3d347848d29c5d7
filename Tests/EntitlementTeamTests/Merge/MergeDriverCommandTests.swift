import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementCLITestSupport
import EntitlementTestSupport

extension Merge {
    /// `entitlement merge-driver`, run in-process on files, as git runs it.
    @Suite(.tags(.cli))
    struct MergeDriverCommandTests {
        let directory = TemporaryDirectory()

        func files(base: String, ours: String, theirs: String) -> (String, String, String) {
            let paths = (directory.path + "/O", directory.path + "/A", directory.path + "/B")
            writeFile(paths.0, base)
            writeFile(paths.1, ours)
            writeFile(paths.2, theirs)
            return paths
        }

        static let profile = #"{"customer_user_id": "alice", "transactions": [{"transaction_id": "t1", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-01T00:00:00Z"}]}"#

        static func with(_ id: String) -> String {
            profile.replacingOccurrences(of: "}]}", with: #"}, {"transaction_id": "\#(id)", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-02T00:00:00Z"}]}"#)
        }

        @Test func mergesAProfileIntoOursInTheToolsOwnFormat() throws {
            let (base, ours, theirs) = files(base: Self.profile, ours: Self.with("t2"), theirs: Self.with("t3"))
            let result = runCLI(["merge-driver", base, ours, theirs, "profiles/alice.json"])
            #expect(result.exitCode == 0)
            #expect(result.stderr.isEmpty)
            let text = try #require(readFile(ours))
            let merged = Merge.profile(text)
            #expect(merged.transactions.map(\.transactionID) == ["t1", "t2", "t3"])
            #expect(text == Merge.text(merged))
            #expect(readFile(theirs) == Self.with("t3"))
        }

        @Test func anEmptyBaseMeansNoCommonAncestor() throws {
            let (base, ours, theirs) = files(base: "", ours: Self.with("t2"), theirs: Self.with("t3"))
            #expect(runCLI(["merge-driver", base, ours, theirs, "profiles/alice.json"]).exitCode == 0)
            #expect(Merge.profile(try #require(readFile(ours))).transactions.count == 3)
        }

        @Test func anUnreadableSideIsNamedAndNothingIsWritten() {
            let (base, ours, theirs) = files(base: Self.profile, ours: Self.with("t2"), theirs: #"{"customer_user_id": "alice", "transactions": [}"#)
            let result = runCLI(["merge-driver", base, ours, theirs, "profiles/alice.json"])
            #expect(result.exitCode == 4)
            #expect(result.stderr.hasPrefix("Error: profiles/alice.json (theirs): invalid JSON at line 1"))
            #expect(result.stderr.contains("never rewrites a file it cannot read"))
            #expect(readFile(ours) == Self.with("t2"))
        }

        @Test func aMisplacedProfileIsRefused() {
            let (base, ours, theirs) = files(base: Self.profile, ours: Self.with("t2"), theirs: Self.with("t3"))
            let result = runCLI(["merge-driver", base, ours, theirs, "profiles/bob.json"])
            #expect(result.exitCode == 4)
            #expect(result.stderr.hasPrefix("Error: profiles/bob.json (ours): misplaced profile"))
        }

        @Test func aConfigConflictNamesFileAndFieldAndWritesNothing() {
            let base = #"{"entitlements": {"premium": {"description": "A", "products": []}}}"#
            let ours = #"{"entitlements": {"premium": {"description": "B", "products": []}}}"#
            let (o, a, b) = files(base: base, ours: ours, theirs: #"{"entitlements": {"premium": {"description": "C", "products": []}}}"#)
            let result = runCLI(["merge-driver", o, a, b, "config.json"])
            #expect(result.exitCode == 4)
            #expect(result.stderr == """
            Error: config.json: cannot merge entitlements.premium.description: changed differently on both sides (ours: "B", theirs: "C")
            Nothing was merged: resolve the file by hand, then 'git add' it. See docs/team-store.md.

            """)
            #expect(readFile(a) == ours)
        }

        @Test func theKindComesFromThePathElseFromTheContents() throws {
            #expect(try StoreFileMerge.kind(path: "profiles/ab/config.json", contents: .null) == .profile)
            #expect(try StoreFileMerge.kind(path: "config.json", contents: .null) == .configuration)
            #expect(try StoreFileMerge.kind(path: "x", contents: JSONParser.parse(Array(Self.profile.utf8))) == .profile)
            #expect(throws: MergeFailure.notAStoreFile) { try StoreFileMerge.kind(path: "notes.txt", contents: .null) }
            let (base, ours, theirs) = files(base: "{}", ours: "[1]", theirs: "[2]")
            let result = runCLI(["merge-driver", base, ours, theirs, "notes.json"])
            #expect(result.exitCode == 4)
            #expect(result.stderr.hasPrefix("Error: notes.json: cannot merge neither a profile nor config.json"))
        }

        @Test func isPlumbingHiddenFromTheMainHelpButDocumented() {
            #expect(!runCLI(["help"]).stdout.contains("merge-driver"))
            let help = runCLI(["help", "merge-driver"])
            #expect(help.exitCode == 0)
            #expect(help.stdout.contains("git config merge.entitlement.driver 'entitlement merge-driver %O %A %B %P'"))
            #expect(runCLI(["merge-driver", "only-one"]).exitCode == 2)
        }
    }
}
