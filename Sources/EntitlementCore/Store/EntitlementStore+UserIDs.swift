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
        // d_name is read in place: copying the 256-byte array per entry would cost more than the compare.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while found.count < limit, let entry = readdir(directory) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            guard name[0] != UInt8(ascii: "."), name[0] != UInt8(ascii: "~") else { continue }
            var matches = true
            for index in 0..<wanted.count where name[index] != wanted[index] {
                matches = false  // also stops at the terminating zero of a shorter name
                break
            }
            guard matches else { continue }
            let length = strlen(name)
            guard length > 5 else { continue }
            let bytes = UnsafeBufferPointer(start: name, count: length)
            guard bytes.suffix(5).elementsEqual(".json".utf8),
                  let id = ProfileFileName.userID(fromName: UnsafeBufferPointer(rebasing: bytes.dropLast(5))) else { continue }
            found.append(id)
        }
        return found
    }
}
