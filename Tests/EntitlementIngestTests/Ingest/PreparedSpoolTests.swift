import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
import EntitlementJSON
@testable import EntitlementStore
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The spool's prepared files (docs/ingest.md, "The spool"): a webhook writes its request into an
/// empty file made durable after an earlier answer (one flush), and names it in the spool after
/// its own answer. A request whose webhook is killed between the two is applied exactly once by
/// the next reader of the spool; a prepared file cut off by a crash is never taken for a request.
/// A webhook's death is its descriptor closing: `release` without `publish`.
@Suite(.tags(.unit))
struct PreparedSpoolTests {
    typealias F = IngestFixtures

    static func record(_ id: String, user: String) -> SpoolRecord {
        let body = F.revenueCat("INITIAL_PURCHASE", id: id, at: 0, user: user, transaction: "t-\(id)", original: "t-\(id)")
        let request = WebhookRequest(vendor: .revenuecat, body: Array(body.utf8), headers: ["authorization": F.secret], receivedAt: demoDate, overHTTP: true)
        return SpoolRecord(request: request, verification: "authorization header")
    }

    static func preparedNames(_ store: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store + "/ingest/incoming")) ?? []).filter { $0.hasPrefix(".slot-") }.sorted()
    }

    /// A spool whose earlier request (written the usual way) has prepared the files.
    static func preparedSpool(_ store: String) throws -> Spool {
        let spool = Spool(store: EntitlementStore(root: store))
        let first = try spool.write(Self.record("first", user: "zoe"))
        #expect(first.claim == nil, "no file is prepared before the first request")
        try spool.publish(first)
        #expect(Self.preparedNames(store).count == Spool.preparedCount)
        return spool
    }

    /// A prepared store, and a request for alice written into one of its prepared files.
    static func claimedRequest(_ id: String, in directory: TemporaryDirectory) throws
        -> (store: String, secrets: String, spool: Spool, spooled: Spool.Spooled, claim: PreparedFiles.Claim) {
        let (store, secrets) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let spooled = try spool.write(Self.record(id, user: "alice"))
        return (store, secrets, spool, spooled, try #require(spooled.claim))
    }

    static func ingest(_ store: String, _ secrets: String) -> CLIResult {
        runCLI(["ingest", "--store", store, "--secrets", secrets, "--json"])
    }

    @Test func aRequestGoesIntoAPreparedFileAndIntoTheSpoolAfterTheAnswer() throws {
        let directory = TemporaryDirectory()
        let (store, _, spool, spooled, claim) = try Self.claimedRequest("p1", in: directory)
        #expect(try spool.waiting().count == 1, "held by its webhook, not adopted by another reader")
        #expect(!FileManager.default.fileExists(atPath: spool.path + "/" + spooled.name))
        try spool.publish(spooled)
        #expect(try spool.waiting().count == 2)
        #expect(try spool.read(spooled.name)?.request.body == Self.record("p1", user: "alice").request.body)
        #expect(!FileManager.default.fileExists(atPath: claim.path))
        #expect(Self.preparedNames(store).count == Spool.preparedCount, "one made for the next request")
    }

    @Test func aWebhookKilledBeforeItPublishesIsAppliedOnceByTheNextReader() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, spool, _, claim) = try Self.claimedRequest("k1", in: directory)
        spool.prepared.release(claim)  // killed after its answer
        #expect(try spool.waiting().count == 2, "the request is published by the reader")
        #expect(Self.preparedNames(store).count == Spool.preparedCount - 1)
        let first = Self.ingest(store, secrets)
        #expect(first.exitCode == 0)
        #expect(first.stdout.contains("\"applied\": 2"), "\(first.stdout)")
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(Self.ingest(store, secrets).stdout.contains("\"applied\": 0"))
        #expect(try spool.waiting().isEmpty)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func aWebhookKilledAfterTheLinkLeavesOneRequestNotTwo() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, spool, spooled, claim) = try Self.claimedRequest("k2", in: directory)
        #expect(link(claim.path, spool.path + "/" + spooled.name) == 0)
        spool.prepared.release(claim)  // killed between the link and the prepared name's removal
        let waiting = try spool.waiting()
        #expect(waiting.count == 2 && waiting.contains(spooled.name), "the first request and this one, once: \(waiting)")
        #expect(!FileManager.default.fileExists(atPath: claim.path))
        #expect(Self.ingest(store, secrets).stdout.contains("\"applied\": 2"))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
    }

    @Test func aRequestStillInAPreparedFileIsCountedReportedAndNeverRemoved() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, _, _, claim) = try Self.claimedRequest("s1", in: directory)
        // Held by a webhook that never gets to publish it (stuck, or its link refused).
        let status = try JSONParser.parse(runCLI(["ingest", "--status", "--json", "--store", store, "--secrets", secrets]).stdout)
        #expect(status["waiting"] == .int(2), "the first request and the held one")
        #expect(runCLI(["verify", "--store", store]).exitCode == 0, "a webhook may be publishing it now")
        try FileManager.default.setAttributes([.modificationDate: demoDate.addingTimeInterval(-3600)], ofItemAtPath: claim.path)
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode == 4)
        #expect(verify.stdout.contains(claim.path) && verify.stdout.contains("not yet in ingest/spool/"), "\(verify.stdout)")
        #expect(Self.ingest(store, secrets).exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: claim.path), "an acknowledged request is never removed")
        Spool(store: EntitlementStore(root: store)).prepared.release(claim)
        #expect(Self.ingest(store, secrets).stdout.contains("\"applied\": 1"))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func aHardLinkElsewhereIsNotTakenForTheSpoolFile() throws {
        let directory = TemporaryDirectory()
        let (_, _, spool, spooled, claim) = try Self.claimedRequest("h1", in: directory)
        #expect(link(claim.path, directory.path + "/backup-copy") == 0)  // a `cp -al` taken meanwhile
        spool.prepared.release(claim)  // killed before it published
        #expect(try spool.waiting().contains(spooled.name))
    }

    @Test func aPreparedFileAnotherDescriptorHoldsIsNeverClaimed() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        // Another writer's locks: separate open file descriptions, as another process's would be.
        let held = Self.preparedNames(store).map { open(store + "/ingest/incoming/" + $0, O_RDWR) }
        for fd in held { #expect(flock(fd, LOCK_EX | LOCK_NB) == 0) }
        let refused = try spool.write(Self.record("c1", user: "u1"))
        #expect(refused.claim == nil, "every prepared file is held: the request is written the usual way")
        #expect(FileManager.default.fileExists(atPath: spool.path + "/" + refused.name))
        for fd in held { close(fd) }
        let claimed = try spool.write(Self.record("c2", user: "u2"))
        #expect(claimed.claim != nil)
        try spool.publish(claimed)
        #expect(try spool.waiting().count == 3)
    }

    @Test func aPreparedFileIsClaimableOnlyOnceItsFolderIsFsynced() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        for name in Self.preparedNames(store) { try FileManager.default.removeItem(atPath: store + "/ingest/incoming/" + name) }
        // The folder's fsync fails: the new files keep no permission bits, and no writer takes them.
        var failing = EntitlementStore(root: store)
        var fileSystem = FileSystem.system
        fileSystem.fsync = { fd in
            var status = stat()
            if Glibc.fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { errno = EIO; return -1 }
            return Glibc.fsync(fd)
        }
        failing.fileSystem = fileSystem
        Spool(store: failing).prepared.replenish(to: Spool.preparedCount, mode: 0o600, durable: true)
        let unready = Self.preparedNames(store)
        #expect(unready.count == Spool.preparedCount)
        for name in unready {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: store + "/ingest/incoming/" + name)[.posixPermissions] as? Int)
            #expect(mode == 0, "\(name) is claimable before its name is durable")
        }
        #expect(try spool.write(Self.record("u1", user: "alice")).claim == nil)
        // The next replenish, whose fsync succeeds, finishes them instead of making more.
        spool.prepared.replenish(to: Spool.preparedCount, mode: 0o600, durable: true)
        #expect(Self.preparedNames(store) == unready)
        let claimed = try spool.write(Self.record("u2", user: "bob"))
        #expect(claimed.claim != nil)
        try spool.publish(claimed)
    }

    @Test func theSpoolFolderIsFsyncedBeforeThePreparedNameGoesEvenWhenTheLinkWasMade() throws {
        let directory = TemporaryDirectory()
        let (store, _, spool, spooled, claim) = try Self.claimedRequest("o1", in: directory)
        #expect(link(claim.path, spool.path + "/" + spooled.name) == 0)  // the writer's link, not its fsync
        spool.prepared.release(claim)
        let recorder = FaultyFileSystem()
        var recorded = EntitlementStore(root: store)
        recorded.fileSystem = recorder.fileSystem
        #expect(Spool(store: recorded).adoptPrepared().isEmpty)
        let calls = recorder.calls
        let synced = try #require(calls.firstIndex { $0.name == "fsync" && $0.path == spool.path })
        let removed = try #require(calls.firstIndex { $0.name == "unlink" && $0.path == claim.path })
        #expect(synced < removed, "\(calls)")
    }

    @Test func aWholeRequestThisVersionCannotReadIsKeptAndReportedNeverDeleted() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let prepared = try #require(Self.preparedNames(store).first)
        let future = String(decoding: Self.record("v1", user: "alice").bytes, as: UTF8.self)
            .replacingOccurrences(of: "\"vendor\": \"revenuecat\"", with: "\"vendor\": \"a-later-vendor\"")
        #expect(future.contains("a-later-vendor"))
        writeFile(store + "/ingest/incoming/" + prepared, future)
        let waiting = try spool.waiting()
        let kept = try #require(waiting.first { $0.contains("-unreadable-slot-") })
        let ingest = Self.ingest(store, secrets)
        #expect(ingest.exitCode != 0)
        #expect((ingest.stdout + ingest.stderr).contains(kept), "\(ingest.stdout)\(ingest.stderr)")
        #expect(FileManager.default.fileExists(atPath: spool.path + "/" + kept), "reported by path, never removed")
    }

    @Test func aCutOffPreparedFileIsNeverARequestAndIsRemovedWhenAbandoned() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let prepared = try #require(Self.preparedNames(store).first)
        writeFile(store + "/ingest/incoming/" + prepared, #"{"body": "{\"api_version\": \"1.0\", \"ev"#)
        #expect(try spool.waiting().count == 1, "only the first request")
        let cut = store + "/ingest/incoming/cut-off" + prepared
        #expect(FileManager.default.fileExists(atPath: cut))
        try FileManager.default.setAttributes([.modificationDate: demoDate.addingTimeInterval(-3600)], ofItemAtPath: cut)
        #expect(runCLI(["verify", "--store", store]).stdout.contains(cut))
        #expect(Self.ingest(store, secrets).exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: cut))
        #expect(Self.preparedNames(store).count == Spool.preparedCount - 1)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0, "free prepared files are not abandoned requests")
    }

    @Test func aFailedWriteLeavesThePreparedFileFreeAndWritesTheUsualWay() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        _ = try Self.preparedSpool(store)
        var failing = EntitlementStore(root: store)
        var fileSystem = FileSystem.system
        fileSystem.fsync = { fd in
            var status = stat()
            // Only the prepared file's flush fails: a full disk at the worst moment.
            if Glibc.fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0, status.st_nlink == 1,
               (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?.contains("/.slot-") == true {
                errno = ENOSPC
                return -1
            }
            return Glibc.fsync(fd)
        }
        failing.fileSystem = fileSystem
        let spooled = try Spool(store: failing).write(Self.record("f1", user: "alice"))
        #expect(spooled.claim == nil)
        #expect(FileManager.default.fileExists(atPath: store + "/ingest/spool/" + spooled.name))
        let sizes = Self.preparedNames(store).map { (try? FileManager.default.attributesOfItem(atPath: store + "/ingest/incoming/" + $0)[.size] as? Int) ?? -1 }
        #expect(sizes == Array(repeating: 0, count: Spool.preparedCount), "every prepared file is free again")
    }
}
