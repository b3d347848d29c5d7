import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
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

    static func ingest(_ store: String, _ secrets: String) -> CLIResult {
        runCLI(["ingest", "--store", store, "--secrets", secrets, "--json"])
    }

    @Test func aRequestGoesIntoAPreparedFileAndIntoTheSpoolAfterTheAnswer() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let spooled = try spool.write(Self.record("p1", user: "alice"))
        let claim = try #require(spooled.claim)
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
        let (store, secrets) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let spooled = try spool.write(Self.record("k1", user: "alice"))
        spool.prepared.release(try #require(spooled.claim))  // killed after its answer
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
        let (store, secrets) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        let spooled = try spool.write(Self.record("k2", user: "alice"))
        let claim = try #require(spooled.claim)
        #expect(link(claim.path, spool.path + "/" + spooled.name) == 0)
        spool.prepared.release(claim)  // killed between the link and the prepared name's removal
        let waiting = try spool.waiting()
        #expect(waiting.count == 2 && waiting.contains(spooled.name), "the first request and this one, once: \(waiting)")
        #expect(!FileManager.default.fileExists(atPath: claim.path))
        #expect(Self.ingest(store, secrets).stdout.contains("\"applied\": 2"))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
    }

    @Test func twoWritersNeverShareAPreparedFile() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let spool = try Self.preparedSpool(store)
        var claims: [String] = []
        var spooled: [Spool.Spooled] = []
        for index in 0..<(Spool.preparedCount + 1) {
            let written = try spool.write(Self.record("c\(index)", user: "u\(index)"))
            spooled.append(written)
            if let claim = written.claim { claims.append(claim.path) }
        }
        #expect(Set(claims).count == Spool.preparedCount, "each held file went to one writer")
        #expect(spooled.last?.claim == nil, "with none free, the request is written the usual way")
        for written in spooled { try spool.publish(written) }
        #expect(try spool.waiting().count == Spool.preparedCount + 2)
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
