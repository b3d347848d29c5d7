import Synchronization

/// How profile files are arranged under `profiles/` (and `index/profile-id/`).
///
/// `flat` is one folder, as a person writes a small fixture store. `fanout` puts each
/// file two folders down, named from the SHA-256 of its file name (`profiles/3f/a2/NAME.json`),
/// so no folder grows past a few hundred entries and a git commit rewrites only small trees.
/// `config.json` records the layout (`profile_layout`); absent means `flat`.
public enum ProfileLayout: String, CaseIterable, Sendable {
    case flat
    case fanout

    static let configKey = "profile_layout"

    /// The path of the file NAME below its top folder: `NAME` or `ab/cd/NAME`.
    func relativePath(forName name: String, suffix: String = "") -> String {
        switch self {
        case .flat:
            return name + suffix
        case .fanout:
            let digest = SHA256.hexDigest(name.utf8)
            return "\(digest.prefix(2))/\(digest.dropFirst(2).prefix(2))/\(name)\(suffix)"
        }
    }

    /// The profile file of `userID` below `profiles/`: `NAME.json` or `ab/cd/NAME.json`.
    func profileFile(for userID: String) -> String {
        relativePath(forName: ProfileFileName.name(for: userID), suffix: ".json")
    }
}

/// The layout a store's configuration named, remembered once read (read commands load the
/// configuration first, so a lookup never reads it twice).
final class LayoutCache: Sendable {
    private let value = Atomic<UInt8>(0)

    var layout: ProfileLayout? {
        switch value.load(ordering: .relaxed) {
        case 1: return .flat
        case 2: return .fanout
        default: return nil
        }
    }

    func remember(_ layout: ProfileLayout) {
        value.store(layout == .flat ? 1 : 2, ordering: .relaxed)
    }
}
