@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport
import Foundation
import Glibc
import Testing

/// `import` killed at random moments (seeded): configuration and profile change together or not at all.
@Suite(.tags(.endToEnd))
struct ImportCrashTests {
    @Test func importsKilledAtRandomMomentsAreAllOrNothing() throws {
        guard Binary.exists else { return }
        let directory = TemporaryDirectory()
        let template = directory.path + "/template"
        #expect(runCLI(["init", "--store", template]).exitCode == 0)
        let document = repositoryRoot + "/Fixtures/import/adapty/profile-canceled.json"
        let user = "adapty-canceled@example.com"
        let configBefore = readFile(template + "/config.json")
        // Uninterrupted, this import changes both files (else the test would prove nothing).
        let whole = directory.path + "/whole"
        try FileManager.default.copyItem(atPath: template, toPath: whole)
        #expect(runCLI(["import", document, "--store", whole, "--at", "2026-03-10T00:00:00Z", "--update-config"]).exitCode == 0)
        #expect(readFile(whole + "/config.json") != configBefore)
        #expect(try EntitlementStore(root: whole).loadProfile(userID: user) != nil)
        var random = SplitMix64(seed: 0x1A2B)
                for round in 0..<40 {
            let root = directory.path + "/round-\(round)"
            try FileManager.default.copyItem(atPath: template, toPath: root)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["import", document, "--store", root, "--at", "2026-03-10T00:00:00Z", "--update-config"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(random.next() % 40_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // The next writer recovers, then the store must be all before or all after.
            try EntitlementStore(root: root).withWriteLock { () throws(EntitlementError) in }
            let config = readFile(root + "/config.json")
            let profile = try EntitlementStore(root: root).loadProfile(userID: user)
            if config == configBefore {
                #expect(profile == nil, "round \(round): the profile was written without its configuration")
            } else {
                #expect(profile?.transactions.isEmpty == false, "round \(round): the configuration was written without the profile")
            }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: root + "/.tmp"))?.isEmpty ?? true)
        }
    }
}
