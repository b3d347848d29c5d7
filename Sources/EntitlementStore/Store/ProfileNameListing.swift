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
package struct ProfileNameListing {
    let profilesPath: String
    let layout: ProfileLayout

    package init(profilesPath: String, layout: ProfileLayout) {
        self.profilesPath = profilesPath
        self.layout = layout
    }

    /// Calls `body` with each profile base name; `body` returns false to stop. Throws when a
    /// folder cannot be listed; a missing `profiles/` is an empty listing.
    package func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(SystemError) {
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

    /// The names of the non-dot folders in `path`, sorted (the fanout buckets).
    func subdirectories(of path: String) throws(SystemError) -> [String] {
        guard let directory = try Self.open(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            let type = entry.pointee.d_type
            var status = stat()
            if type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) && lstat("\(path)/\(name)", &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Lists the profile files of one folder; false when `body` asked to stop.
    private func listFiles(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) throws(SystemError) -> Bool {
        guard let directory = try Self.open(path) else { return true }
        defer { closedir(directory) }
        // d_name is read in place: copying the 256-byte array per entry would cost more than the name.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            guard name[0] != UInt8(ascii: "."), name[0] != UInt8(ascii: "~") else { continue }
            let length = strlen(name)
            guard length > 5 else { continue }
            let bytes = UnsafeBufferPointer(start: name, count: length)
            guard bytes.suffix(5).elementsEqual(".json".utf8), !bytes.contains(UInt8(ascii: "\n")) else { continue }
            if !body(UnsafeBufferPointer(rebasing: bytes.dropLast(5))) { return false }
        }
        return true
    }

    /// `opendir`, nil when the folder is missing.
    private static func open(_ path: String) throws(SystemError) -> OpaquePointer? {
        do {
            return try systemCallPointer("opendir") { opendir(path) }
        } catch where error.code == ENOENT {
            return nil
        }
    }
}
