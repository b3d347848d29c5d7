import Glibc
import EntitlementBasics
import EntitlementModel

/// The base names (without `.json`) of a store's profile files, read from the folders
/// alone: for completion, which must never open a profile.
///
/// `flat` lists `profiles/`; `fanout` lists `profiles/XX/YY/`, the two folder levels the
/// layout writes (a file at another depth is misplaced and not listed; `verify` reports it).
/// Names that cannot be a customer's (dot files such as a writer's temporary files, the
/// SHA-256 form `~…`, names with a newline) are skipped. Names are handed over as bytes in
/// place, valid only during the call, so a million of them cost no allocation each.
struct ProfileNameListing {
    let profilesPath: String
    let layout: ProfileLayout
    let fileSystem: FileSystem

    init(profilesPath: String, layout: ProfileLayout, fileSystem: FileSystem = .system) {
        self.profilesPath = profilesPath
        self.layout = layout
        self.fileSystem = fileSystem
    }

    /// Calls `body` with each profile base name; `body` returns false to stop. Throws when a
    /// folder cannot be listed; a missing `profiles/` is an empty listing.
    func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(SystemError) {
        switch layout {
        case .flat:
            _ = try listFiles(profilesPath, body)
        case .fanout:
            for first in try subdirectories(of: profilesPath) {
                for second in try subdirectories(of: "\(profilesPath)/\(first)") {
                    guard try listFiles("\(profilesPath)/\(first)/\(second)", body) else { return }
                }
            }
        }
    }

    /// The names of the non-dot folders in `path`, sorted (the fanout buckets); none when it is missing.
    func subdirectories(of path: String) throws(SystemError) -> [String] {
        var names: [String] = []
        _ = try walkIfPresent(path) { entry in
            if !entry.isHidden, entry.kind == .directory { names.append(String(decoding: entry.name, as: UTF8.self)) }
            return true
        }
        return names.sorted()
    }

    /// Lists the profile files of one folder; false when `body` asked to stop.
    private func listFiles(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(SystemError) -> Bool {
        try walkIfPresent(path, detail: .names) { entry in
            let bytes = entry.name
            guard bytes.count > 5, bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "~") else { return true }
            guard bytes.suffix(5).elementsEqual(".json".utf8), !bytes.contains(UInt8(ascii: "\n")) else { return true }
            return body(UnsafeBufferPointer(rebasing: bytes.dropLast(5)))
        }
    }

    /// `FileSystem.walk`, with a missing folder walked as an empty one.
    private func walkIfPresent(_ path: String, detail: FileSystem.WalkDetail = .kind, _ body: (DirectoryEntry) -> Bool) throws(SystemError) -> Bool {
        do {
            return try fileSystem.walk(path, detail: detail, body)
        } catch where error.code == ENOENT {
            return true
        }
    }
}
