import Glibc
import EntitlementBasics

/// One entry of a directory, as `FileSystem.walk` hands it over: valid only during the call.
///
/// The name is read in place from the kernel's `dirent` (no copy, no allocation), so a folder
/// of a million files costs no allocation per file unless the caller makes one.
struct DirectoryEntry {
    /// The name's bytes, without the terminating NUL.
    let name: UnsafeBufferPointer<UInt8>
    /// What the entry is; `.unknown` only when the file system did not say and the walk was not
    /// asked to find out (`FileSystem.WalkDetail.kind`).
    let kind: Kind
    /// The entry's `lstat`, when the walk was asked for it (`FileSystem.WalkDetail.directoryStatus`, directories only).
    let status: stat?

    /// The kinds a walk tells apart.
    enum Kind: Equatable {
        case directory, regular, symbolicLink, other, unknown
    }

    /// True when the name starts with a dot (hidden files, a writer's temporary files).
    var isHidden: Bool { name.first == UInt8(ascii: ".") }
}

extension FileSystem {
    /// How much a walk finds out beyond the names.
    enum WalkDetail {
        /// Names and `d_type` only: no system call per entry (`.unknown` where the file system gives no type).
        case names
        /// An entry of unknown type is `lstat`ed (relative to the open folder) to learn its kind.
        case kind
        /// As `kind`, and every directory carries its `lstat` (`DirectoryEntry.status`).
        case directoryStatus
    }

    /// The one directory walk of the tool: calls `body` with each entry of the folder `path`
    /// except `.` and `..`, in directory order, until `body` returns false. Returns false when
    /// `body` stopped it. Throws the `opendir` error (ENOENT when the folder is missing; callers
    /// that treat a missing folder as empty catch that). Symbolic links are never followed.
    @discardableResult
    func walk(_ path: String, detail: WalkDetail = .kind, _ body: (DirectoryEntry) -> Bool) throws(SystemError) -> Bool {
        let directory = try systemCallPointer("opendir") { openDirectory(path) }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        // d_name is read in place: copying the 256-byte array per entry would cost more than the name.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let cName = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
            if name.count <= 2, name[0] == UInt8(ascii: "."), name.count == 1 || name[1] == UInt8(ascii: ".") { continue }
            var kind = Self.kind(ofType: entry.pointee.d_type)
            var status: stat?
            if detail != .names, kind == .unknown || detail == .directoryStatus && kind == .directory {
                var found = stat()
                if fstatat(descriptor, cName, &found, AT_SYMLINK_NOFOLLOW) == 0 {
                    kind = Self.kind(ofMode: found.st_mode)
                    if detail == .directoryStatus, kind == .directory { status = found }
                }
            }
            if !body(DirectoryEntry(name: name, kind: kind, status: status)) { return false }
        }
        return true
    }

    private static func kind(ofType type: UInt8) -> DirectoryEntry.Kind {
        switch Int32(type) {
        case Int32(DT_DIR): .directory
        case Int32(DT_REG): .regular
        case Int32(DT_LNK): .symbolicLink
        case Int32(DT_UNKNOWN): .unknown
        default: .other
        }
    }

    private static func kind(ofMode mode: mode_t) -> DirectoryEntry.Kind {
        switch mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .regular
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }
}
