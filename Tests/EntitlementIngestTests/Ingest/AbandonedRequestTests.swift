import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// A webhook killed while writing its request leaves a file in `ingest/incoming/` (never
/// renamed into the spool, so never acknowledged). One older than any live writer is
/// reported by `verify` and `ingest --status` and removed by `ingest`; a fresh one (a webhook
/// writing now) is left alone. Times are the injected clock's, file times set from it.
@Suite(.tags(.cli))
struct AbandonedRequestTests {
    typealias F = IngestFixtures

    @Test func oldIncomingFilesAreReportedAndRemovedFreshOnesKept() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let incoming = store + "/ingest/incoming"
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let old = incoming + "/00001773576000000-revenuecat-4242-ab.json.4242-17", fresh = incoming + "/00001773576000000-revenuecat-4343-cd.json.4343-18"
        writeFile(old, #"{"vendor": "revenuecat", "body": "#)
        writeFile(fresh, #"{"vendor": "revenuecat", "body": "#)
        try FileManager.default.setAttributes([.modificationDate: demoDate.addingTimeInterval(-3600)], ofItemAtPath: old)
        try FileManager.default.setAttributes([.modificationDate: demoDate.addingTimeInterval(-5)], ofItemAtPath: fresh)

        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode == 4)
        #expect(verify.stdout.contains(old) && verify.stdout.contains("killed webhook"), "\(verify.stdout)")
        #expect(!verify.stdout.contains(fresh))
        let status = runCLI(["ingest", "--status", "--store", store, "--secrets", secrets])
        #expect(status.stdout.contains("Abandoned: 1 request file"), "\(status.stdout)")
        let json = try JSONParser.parse(runCLI(["ingest", "--status", "--json", "--store", store, "--secrets", secrets]).stdout)
        #expect(json["abandoned_requests"] == .int(1))

        #expect(runCLI(["ingest", "--store", store, "--secrets", secrets]).exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: fresh), "a webhook may be writing it now")
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }
}
