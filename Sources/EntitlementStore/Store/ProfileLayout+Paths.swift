import Synchronization
import EntitlementBasics
import EntitlementModel

extension ProfileLayout {
    /// The path of the file NAME below its top folder: `NAME` or `ab/cd/NAME`.
    package func relativePath(forName name: String, suffix: String = "") -> String {
        switch self {
        case .flat:
            return name + suffix
        case .fanout:
            let digest = SHA256.hexDigest(name.utf8)
            return "\(digest.prefix(2))/\(digest.dropFirst(2).prefix(2))/\(name)\(suffix)"
        }
    }

    /// The profile file of `userID` below `profiles/`: `NAME.json` or `ab/cd/NAME.json`.
    package func profileFile(for userID: String) -> String {
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
