#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EntitlementStore {
    /// Up to `limit` customer user ids whose bytes start with `prefix`, read from profile
    /// file names alone (no profile is opened), in directory order.
    ///
    /// For shell completion, so it must answer fast on a million profiles: names are
    /// compared as raw bytes with the escaped prefix, and only matches become strings.
    /// Ids stored under the SHA-256 form of the name (very long ids) cannot be read back
    /// from the name and are not listed. This is the one place that knows how profile
    /// file names map back to ids when listing.
    func userIDs(withPrefix prefix: String, limit: Int) throws(EntitlementError) -> [String] {
        try requireExists()
        guard limit > 0, let escapedPrefix = ProfileFileName.escapedWithoutHashing(prefix) else { return [] }
        let wanted = Array(escapedPrefix.utf8)
        guard let directory = opendir(profilesPath) else { return [] }
        defer { closedir(directory) }
        var found: [String] = []
        while found.count < limit, let entry = readdir(directory) {
            let id: String? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                guard length > 5, length >= wanted.count, bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "~") else { return nil }
                for index in 0..<wanted.count where bytes[index] != wanted[index] { return nil }
                let name = UnsafeBufferPointer(rebasing: bytes[0..<length])
                guard name.suffix(5).elementsEqual(".json".utf8) else { return nil }
                return ProfileFileName.userID(fromName: UnsafeBufferPointer(rebasing: name.dropLast(5)))
            }
            if let id { found.append(id) }
        }
        return found
    }
}
