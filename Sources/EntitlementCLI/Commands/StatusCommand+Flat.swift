import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

extension StatusCommand {
    /// `status USER --json` straight from the profile file's bytes: scanned into flat arrays
    /// (`CheckProfileScanner`, `FlatProfile`), evaluated by `FlatStatusEngine` and written by
    /// `ProfileJSON.render(_:levels:engine:into:)`, with no `Profile` and no object or `String`
    /// per transaction. False, having written nothing, where only the full path can answer:
    /// `--explain`, a lookup by profile id, a missing, unusual or damaged file, a misplaced
    /// profile, ids outside ASCII; the full path then answers or reports the error as before.
    func renderFlat(store: EntitlementStore, configuration: ProductConfiguration, at date: Date, into sink: ByteSink) -> Bool {
        guard output.format == .json, !explain, case .user(let userID) = lookup,
              let engine = FlatStatusEngine(configuration: configuration, environment: environment),
              let file = ProfileBytes.read(userID, in: store) else { return false }
        return file.withBytes { Self.renderFlat($0, userID: userID, engine: engine, at: date, into: sink) }
    }

    /// The flat path over a profile file's bytes; false, having written nothing, where the full path must answer.
    static func renderFlat(_ bytes: UnsafeBufferPointer<UInt8>, userID: String, engine: FlatStatusEngine, at date: Date, into sink: ByteSink) -> Bool {
        var scanner = CheckProfileScanner(limit: .max)
        do { try scanner.scan(bytes) } catch { return false }
        // A misplaced profile (another customer's id) is the full path's error to report.
        var wanted = userID
        let sameCustomer = wanted.withUTF8 { JSONKey.compare(UnsafeBufferPointer(rebasing: bytes[scanner.customerUserID]), $0) == 0 }
        guard sameCustomer else { return false }
        let flat = FlatProfile(&scanner, bytes: bytes, at: date)
        let ids = engine.entitlementIDs(for: flat).sorted(by: JSONKey.precedes)
        ProfileJSON.render(flat, levels: engine.accessLevels(of: ids, in: flat), engine: engine, into: sink)
        return true
    }
}
