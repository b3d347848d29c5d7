import Glibc
import EntitlementModel

/// What the store creates and what it refuses (docs/store-format.md, "Permissions" and "Links").
enum StorePolicy {
    /// Mode of new files when the store gives no other (config.json missing): owner only.
    static let defaultFileMode: mode_t = 0o600
    /// Mode of new directories when the store gives no other: owner only.
    static let defaultDirectoryMode: mode_t = 0o700

    /// The modes new files and directories get in a store: those of `config.json` and
    /// of the store directory, always with the owner's read and write. So a team shares
    /// a store with `chmod 0660 config.json` and `chmod 2770 STORE`, and no umask matters.
    /// New files never get permissions for others (`0o007`): customer data is not made
    /// world-readable because an old `config.json` is `0644`.
    static func modes(configStatus: stat?, rootStatus: stat?) -> (file: mode_t, directory: mode_t) {
        let file = configStatus.map { $0.st_mode & 0o660 | 0o600 } ?? defaultFileMode
        let directory = rootStatus.map { $0.st_mode & 0o2777 | 0o700 } ?? defaultDirectoryMode
        return (file, directory)
    }

    static func symlinkRefused(_ path: String) -> EntitlementError {
        .io(path: path, message: "is a symbolic link; the store never follows links inside it (see docs/store-format.md, \"Links\")")
    }

    static func notRegular(_ path: String, kind: mode_t) -> EntitlementError {
        .io(path: path, message: "is not a regular file (it is \(describe(kind))); the store reads and writes regular files only")
    }

    static func notDirectory(_ path: String, kind: mode_t) -> EntitlementError {
        .io(path: path, message: "is not a directory (it is \(describe(kind)))")
    }

    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a regular file"
        default: return "of an unknown kind"
        }
    }
}
