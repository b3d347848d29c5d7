import Glibc
import EntitlementBasics
import EntitlementModel

/// A kept list of the store's profile file names, so that "did you mean …?" for a customer
/// without a profile reads one or two files instead of every profile folder.
///
/// `STORE/.profile-names` holds the names, sorted, one a line, after a header line; writers
/// rebuild it under the lock. `STORE/.profile-names-added` is appended to, under the lock, by
/// every write that creates a profile file, before its commit point, with the new names
/// (`EntitlementStore.commit`); past a quarter of the sorted list's size the writer folds it
/// into the list. A name listed whose profile is gone (moved, or a write that failed after
/// noting it) is no suggestion: the reader checks the one it would suggest. Both files are
/// a cache: never part of a team store's history, told by `sync` of the profiles others
/// created (`noteArrived`), and when missing the reader lists the folders as before. See docs/store-format.md ("The profile name list").
package struct ProfileNameIndex {
    static let fileName = ".profile-names"
    static let addedFileName = ".profile-names-added"
    static let header = Array("entitlement-profile-names 1\n".utf8)

    let store: EntitlementStore

    package init(store: EntitlementStore) { self.store = store }

    var path: String { "\(store.root)/\(Self.fileName)" }
    var addedPath: String { "\(store.root)/\(Self.addedFileName)" }

    /// Calls `body` with every name of the list, then every name added since; false when
    /// there is no usable list (the caller lists the folders). Names may repeat.
    func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard let list = try? store.fileSystem.readFile(path), list.starts(with: Self.header) else { return false }
        let added = (try? store.fileSystem.readFile(addedPath)) ?? nil
        list.withUnsafeBufferPointer { Self.forEachLine(UnsafeBufferPointer(rebasing: $0[Self.header.count...]), body) }
        added?.withUnsafeBufferPointer { Self.forEachLine($0, body) }
        return true
    }

    /// Each complete line of `bytes` (a last line without its newline is a write cut short).
    static func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start < bytes.count, let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if end > start { body(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
            start = end + 1
        }
    }

    /// The profile base name of a store-relative profile path, when it is one a listing would
    /// give (`ProfileNameListing`'s rule); nil for any other path.
    static func name(ofProfilePath path: String) -> [UInt8]? {
        guard path.hasPrefix("\(EntitlementStore.profilesDirectory)/"), path.hasSuffix(".json") else { return nil }
        let base = Array(PathName.base(of: path).utf8.dropLast(5))
        guard let first = base.first, first != UInt8(ascii: "."), first != UInt8(ascii: "~"),
              !base.contains(UInt8(ascii: "\n")) else { return nil }
        return base
    }

    /// Notes `names` (profiles about to be created). Call only under the lock. Best effort: a
    /// store this user cannot write here, or a full disk, leaves the list as it was, and the
    /// reader then lists the folders or misses a suggestion, never a wrong one.
    func noteAdded(_ names: [[UInt8]]) {
        guard !names.isEmpty else { return }
        guard let listStatus = try? store.fileSystem.status(path) else {
            rebuild(adding: names)
            return
        }
        var bytes: [UInt8] = []
        for name in names { bytes += name; bytes.append(UInt8(ascii: "\n")) }
        let fileSystem = store.fileSystem
        guard let fd = try? systemCall("open", { fileSystem.open(addedPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }) else { return }
        var addedStatus = stat()
        let written = (try? fileSystem.writeAll(bytes, to: fd)) != nil
        let measured = (try? systemCall("fstat", { fileSystem.fstat(fd, &addedStatus) })) != nil
        fileSystem.closeQuietly(fd)
        if written, measured, Int(addedStatus.st_size) > max(1 << 16, Int(listStatus.st_size) / 4) { fold() }
    }

    /// Notes the profile files `paths` (store-relative) that arrived from others (`sync`), so
    /// that the next write need not list every folder again. Without a list, nothing: the next
    /// write that creates a profile builds it. Call only under the lock.
    package func noteArrived(_ paths: [String]) {
        guard store.fileSystem.exists(path) else { return }
        noteAdded(paths.compactMap(Self.name(ofProfilePath:)))
    }

    /// A new list from the folders, with `names` (about to be created) in it.
    private func rebuild(adding names: [[UInt8]]) {
        var all = Names()
        for name in names { all.append(name) }
        let listing = ProfileNameListing(profilesPath: store.profilesPath, layout: store.layout)
        guard (try? listing.forEachName { all.append($0); return true }) != nil else { return }
        save(all)
    }

    /// The list and the names added since, as one sorted list.
    private func fold() {
        var all = Names()
        guard forEachName({ all.append($0) }) else { return }
        save(all)
    }

    /// Writes `names` sorted and without repeats as the list (durably: it replaces a whole
    /// file), then drops the names added, which it holds.
    private func save(_ names: Names) {
        let body = names.sortedLines()
        let fileSystem = store.fileSystem
        let modes = store.newModes()
        do throws(EntitlementError) {
            try store.ensureDirectory(EntitlementStore.stagingDirectory, mode: modes.directory)
            try fileSystem.replace(path, with: Self.header + body, stagingDirectory: store.stagingPath,
                                   newFileMode: modes.file, durable: store.durable)
            _ = try? systemCall("unlink") { fileSystem.unlink(addedPath) }
        } catch {}
    }
}

/// Names kept as ranges into one buffer: a million of them cost two allocations.
private struct Names {
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []

    mutating func append<Bytes: Collection<UInt8>>(_ name: Bytes) {
        let start = bytes.count
        bytes += name
        ranges.append(start..<bytes.count)
    }

    /// Every name once, in byte order, each followed by a newline.
    func sortedLines() -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            let sorted = ranges.sorted { a, b in
                let common = min(a.count, b.count)
                let order = memcmp(buffer.baseAddress! + a.lowerBound, buffer.baseAddress! + b.lowerBound, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
            var lines: [UInt8] = []
            lines.reserveCapacity(bytes.count + ranges.count)
            var previous: Range<Int>?
            for range in sorted {
                if let previous, buffer[previous].elementsEqual(buffer[range]) { continue }
                lines += buffer[range]
                lines.append(UInt8(ascii: "\n"))
                previous = range
            }
            return lines
        }
    }
}
