import Glibc
import EntitlementBasics
import EntitlementModel

/// The checks of `verify` on the store's layout rather than on file contents: links
/// in place of its directories, files writers refuse, and an interrupted write.
extension StoreVerifier {
    /// A problem for an error the reader raised on `path`, without repeating the path.
    static func problem(_ path: String, _ error: EntitlementError) -> VerifyProblem {
        var message = error.description
        let prefix = Terminal.escape(path) + ": "
        if message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
        return VerifyProblem(path: path, field: nil, message: message)
    }

    /// `profiles/`, `index/` or `index/profile-id/` as a symbolic link: readers follow it
    /// (they do not pay for the check) but every writer refuses it.
    func linkedDirectories() -> [VerifyProblem] {
        let names = [EntitlementStore.profilesDirectory, "index", EntitlementStore.profileIDIndexDirectory, EntitlementStore.aliasIndexDirectory]
        return names.compactMap { name in
            let path = "\(store.root)/\(name)"
            guard let status = try? store.fileSystem.status(path), status.st_mode & S_IFMT == S_IFLNK else { return nil }
            return VerifyProblem(path: path, field: nil,
                                 message: "is a symbolic link; reads follow it but every write refuses it (see docs/store-format.md, \"Links\")")
        }
    }

    /// A profile file its owner cannot write: writers refuse to replace it.
    func readOnlyProblem(_ path: String) -> VerifyProblem? {
        guard let status = try? store.fileSystem.status(path), status.st_mode & S_IFMT == S_IFREG,
              status.st_mode & S_IWUSR == 0 else { return nil }
        return VerifyProblem(path: path, field: nil,
                             message: "is read-only (mode 0\(String(status.st_mode & 0o7777, radix: 8))); writes to this profile will fail. Make it writable (chmod u+w)")
    }

    /// `.journal` and `.tmp/`: what the next write will do with them, or why it cannot.
    func interruptedWrite() throws(EntitlementError) -> [VerifyProblem] {
        var found: [VerifyProblem] = []
        var installed: Set<String>? = nil  // staged names a valid journal renames into place
        if try store.fileSystem.status(store.journalPath) != nil {
            do throws(EntitlementError) {
                guard let bytes = try store.fileSystem.readFile(store.journalPath) else { throw .io(path: store.journalPath, message: "cannot be read") }
                let renames = try EntitlementStore.decodeJournal(bytes, path: store.journalPath)
                installed = Set(renames.map { String($0.from.split(separator: "/").last ?? "") })
                found.append(VerifyProblem(path: store.journalPath, field: nil,
                                           message: "journal of an interrupted multi-file write; the next write completes it"))
            } catch {
                let reason = Self.problem(store.journalPath, error).message
                found.append(VerifyProblem(path: store.journalPath, field: nil,
                                           message: "unusable journal of an interrupted write (\(reason)); every write will fail until it is fixed or removed"))
            }
        }
        if store.fileSystem.isDirectory(store.stagingPath) {
            for name in try store.fileSystem.list(store.stagingPath).sorted() {
                let fate = installed?.contains(name) == true ? "the next write installs it" : "the next write removes it"
                found.append(VerifyProblem(path: "\(store.stagingPath)/\(name)", field: nil, message: "staged file of an interrupted write; \(fate)"))
            }
        }
        return found
    }
}
