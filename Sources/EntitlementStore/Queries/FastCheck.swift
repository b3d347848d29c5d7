import FoundationEssentials
import Glibc
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// The fast path of `check --stdin`: reads a profile file into a reused buffer, scans it
/// (`CheckProfileScanner`) and evaluates the one entitlement asked about
/// (`OneEntitlementEngine`), with no `Profile` and no allocation per transaction.
///
/// It answers only when its answer is the full path's (`EntitlementStore.loadProfile`, then
/// `StatusEngine.evaluate`): whenever the file is missing, unreadable, unusual or damaged,
/// it answers nil and the caller takes the full path, which answers or reports the error
/// as before. Tests compare both paths over generated profiles.
package struct FastCheck: Sendable {
    let store: EntitlementStore
    let engine: OneEntitlementEngine
    let date: Date
    /// The store's profiles folder, open for `openat`; closed by `close()`.
    let directory: Int32
    /// How the store names its profile files (read with the configuration).
    let layout: ProfileLayout

    /// Nil when the fast path cannot stand in for the full one (an entitlement or product id
    /// outside ASCII) or the profiles folder cannot be opened.
    package init?(store: EntitlementStore, configuration: ProductConfiguration, entitlement: String, environment: EnvironmentFilter, date: Date) {
        guard let engine = OneEntitlementEngine(entitlement, configuration: configuration, environment: environment),
              let directory = try? ProfileFileReader.openDirectory(store.profilesPath) else { return nil }
        self.store = store
        self.engine = engine
        self.date = date
        self.directory = directory
        layout = store.layout
    }

    package func close() { ProfileFileReader.closeDirectory(directory) }

    /// What one thread reuses from user to user: the file buffer, the scanner's arrays and
    /// the buffer of the answer's JSON line.
    /// Unchecked: each is used by one thread at a time (one per part of a chunk).
    package final class Scratch: @unchecked Sendable {
        let reader: ProfileFileReader
        var scanner = CheckProfileScanner()
        package let line = ByteSink(capacity: 1024)

        init(_ check: FastCheck) { reader = ProfileFileReader(directory: check.directory, directoryPath: check.store.profilesPath) }
    }

    package func makeScratch() -> Scratch { Scratch(self) }

    /// The access level and `profile_id` of `userID`, or nil when the full path must answer.
    package func answer(_ userID: String, scratch: Scratch) -> (level: AccessLevel, profileID: String?)? {
        guard (try? scratch.reader.read(relative: layout.profileFile(for: userID))) == true else { return nil }
        let raw = scratch.reader.bytes
        guard raw.count > 0 else { return nil }
        return Self.answer(raw.bindMemory(to: UInt8.self), userID: userID, engine: engine, at: date, scanner: &scratch.scanner)
    }

    /// `last_event.at` of the profile `answer` last read with `scratch` (nil when it has none):
    /// the same reading as `Profile.lastEventAt`, from the one small object the scan marked.
    package func lastEventAt(_ scratch: Scratch) -> Date? {
        guard let range = scratch.scanner.lastEvent else { return nil }
        let object = UnsafeBufferPointer(rebasing: scratch.reader.bytes.bindMemory(to: UInt8.self)[range])
        guard case .object(let fields)? = try? JSONParser.parse(Array(object)) else { return nil }
        return fields["at"]?.stringValue.flatMap(ISODate.parse)
    }

    /// The answer for the file bytes of `userID`'s profile, or nil when the full path must answer.
    static func answer(_ bytes: UnsafeBufferPointer<UInt8>, userID: String, engine: OneEntitlementEngine, at date: Date,
                       scanner: inout CheckProfileScanner) -> (level: AccessLevel, profileID: String?)? {
        do {
            try scanner.scan(bytes)
        } catch {
            return nil
        }
        // A misplaced profile (another customer's id) is the full path's error to report.
        var id = userID
        let sameCustomer = id.withUTF8 { wanted in
            let range = scanner.customerUserID
            return range.count == wanted.count && memcmp(bytes.baseAddress! + range.lowerBound, wanted.baseAddress!, range.count) == 0
        }
        guard sameCustomer else { return nil }
        let profileID = scanner.profileID.map { ScannedFields.makeString($0, bytes) }
        return (engine.accessLevel(&scanner, bytes: bytes, at: date), profileID)
    }
}
