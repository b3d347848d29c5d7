/// The store's committed layout, declared once: every kind of file the tool writes in a store
/// (and a team store commits), the folder it lives in, and the shape of its path.
///
/// Writers take their folders from here (`EntitlementStore`'s folder names, Ingest's ledger,
/// App Store index and awaiting Google Play purchases); `kind(of:)` accepts exactly the paths
/// they make, and it decides what a journal may rename (`EntitlementStore.isStoreFile`), what a
/// team store's incoming tree may hold, and which files the merge driver merges. Files the
/// tool keeps local to one copy (the lock, the journal, staged files, the webhook's spool) are
/// `localPaths`, git-ignored and refused in any incoming tree (docs/store-format.md, "Files").
package enum StoreFileKind: String, CaseIterable, Sendable {
    /// `config.json`.
    case configuration
    /// `profiles/NAME.json` or `profiles/xx/yy/NAME.json`.
    case profile
    /// `index/profile-id/NAME` (flat or fanned out like the profiles): a cache of profile id → customer.
    case profileIDIndexEntry
    /// `index/alias/NAME` (flat or fanned out): alias → customer.
    case aliasIndexEntry
    /// `index/app-store-original-transaction/XX/SHA256`: original transaction → customer.
    case appStoreCustomerIndexEntry
    /// `ingest/events/VENDOR/xx/SHA256.json`: one applied event's record.
    case eventRecord
    /// `ingest/googleplay/purchases/SHA256.json`: a Play purchase a notification changed.
    case googlePlayPurchase

    /// The folder that holds every file of the kind (`""` for `config.json`, at the top).
    package var directory: String {
        switch self {
        case .configuration: return ""
        case .profile: return "profiles"
        case .profileIDIndexEntry: return "index/profile-id"
        case .aliasIndexEntry: return "index/alias"
        case .appStoreCustomerIndexEntry: return "index/app-store-original-transaction"
        case .eventRecord: return "ingest/events"
        case .googlePlayPurchase: return "ingest/googleplay/purchases"
        }
    }

    /// The pattern git's attributes give the tool's merge driver (nil: the profile-id index is
    /// a cache that any side may rewrite, and git's own merge of identical entries suffices).
    package var mergePattern: String? {
        switch self {
        case .configuration: return "config.json"
        case .profileIDIndexEntry: return nil
        default: return "\(directory)/**"
        }
    }

    /// The webhook's request files, local to each copy: applied events are committed as records.
    package static let spoolDirectory = "ingest/spool"
    package static let failedDirectory = "ingest/failed"
    package static let incomingDirectory = "ingest/incoming"

    /// What the tool writes but never commits: the writer's lock, journal and staged files, the
    /// kept list of profile names (`ProfileNameIndex`), and the webhook's requests (`.gitignore`
    /// of a team store; refused in an incoming tree).
    package static let localPaths = [".lock", ".journal", ".tmp/", ".profile-names", ".profile-names-added",
                                     "\(spoolDirectory)/", "\(failedDirectory)/", "\(incomingDirectory)/"]

    /// The kind of the store-relative `path`, or nil when the tool never writes such a file.
    package static func kind(of path: String) -> StoreFileKind? {
        if path == "config.json" { return .configuration }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        if parts[0] == "profiles" {
            return isLayoutPath(parts.dropFirst()) && parts.last!.hasSuffix(".json") ? .profile : nil
        }
        let folder = "\(parts[0])/\(parts[1])"
        switch folder {
        case "index/profile-id": return isLayoutPath(parts.dropFirst(2)) ? .profileIDIndexEntry : nil
        case "index/alias": return isLayoutPath(parts.dropFirst(2)) ? .aliasIndexEntry : nil
        case StoreFileKind.appStoreCustomerIndexEntry.directory:
            return parts.count == 4 && isHex(parts[2], count: 2) && isHex(parts[3], count: 64) ? .appStoreCustomerIndexEntry : nil
        case "ingest/events":
            // VENDOR/xx/SHA256.json (EntitlementIngest's EventLedger).
            guard parts.count == 5, !parts[2].isEmpty, parts[2].allSatisfy({ $0.isASCII && $0.isLowercase }),
                  isHex(parts[3], count: 2), isPlainName(parts[4]), parts[4].hasSuffix(".json") else { return nil }
            return .eventRecord
        case "ingest/googleplay":
            guard parts.count == 4, parts[2] == "purchases", parts[3].hasSuffix(".json"),
                  isHex(parts[3].dropLast(5), count: 64) else { return nil }
            return .googlePlayPurchase
        default:
            return nil
        }
    }

    /// `NAME` or `xx/yy/NAME` (two hex folders), as `ProfileLayout` makes them.
    private static func isLayoutPath(_ parts: ArraySlice<Substring>) -> Bool {
        guard let name = parts.last, isPlainName(name) else { return false }
        let folders = parts.dropLast()
        return folders.isEmpty || folders.count == 2 && folders.allSatisfy { isHex($0, count: 2) }
    }

    private static func isHex(_ text: Substring, count: Int) -> Bool { text.count == count && text.allSatisfy(\.isHexDigit) }

    private static func isPlainName(_ name: Substring) -> Bool { !name.isEmpty && name != "." && name != ".." && !name.contains("/") }
}
