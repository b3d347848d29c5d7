import Synchronization
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// The team store's write hook: every locked write becomes exactly one commit.
///
/// Crash safety: before a file is replaced, its path is appended (durably) to a journal in
/// `.git/entitlement/journal`, after the change's message and actor. The commit removes the
/// journal. A run killed between the two leaves the journal, and the next writer (or `sync`)
/// commits those paths with the recorded message before doing anything else.
final class GitChangeRecorder: ChangeRecorder {
    let repository: GitRepository
    let durable: Bool
    private let state = Mutex<(change: ChangeDescription?, paths: [String])>((nil, []))

    init(repository: GitRepository, durable: Bool = true) {
        self.repository = repository
        self.durable = durable
    }

    var journalPath: String { "\(repository.gitDirectory)/entitlement/journal" }

    func begin(_ change: ChangeDescription?) throws(EntitlementError) {
        try GitRecovery(repository: repository).recover()
        state.withLock { $0 = (change, []) }
    }

    func willWrite(_ paths: [String]) throws(EntitlementError) {
        let relative = paths.map(repository.relativePath)
        let (change, isFirst) = state.withLock { value -> (ChangeDescription?, Bool) in
            let isFirst = value.paths.isEmpty
            value.paths += relative
            return (value.change, isFirst)
        }
        let lines = relative.map { JournalLine.encode($0) + "\n" }.joined()
        if isFirst {
            let change = change ?? ChangeDescription(summary: "update the store", actor: "unknown")
            let header = JournalLine.encode(change.summary) + "\n" + JournalLine.encode(change.actor) + "\n"
            try GitFiles.makeDirectory(PathName.directory(of: journalPath))
            try GitFiles.writeAtomically(Array((header + lines).utf8), to: journalPath, durable: durable)
        } else {
            try GitFiles.append(Array(lines.utf8), to: journalPath, durable: durable)
        }
    }

    func finish() throws(EntitlementError) {
        let (change, paths) = state.withLock { value in
            defer { value = (nil, []) }
            return (value.change, value.paths)
        }
        guard !paths.isEmpty else { return }
        let description = change ?? ChangeDescription(summary: "update the store", actor: "unknown")
        try GitCommitter(repository: repository, durable: durable).commit(paths: paths, message: description.summary, author: GitIdentity(actor: description.actor))
        try GitFiles.remove(journalPath)
    }
}

/// One journal line: the text with `%`, and bytes below 0x20, written as `%XX`.
enum JournalLine {
    static func encode(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar == "%" {
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(scalar.value >> 4)])\(hex[Int(scalar.value & 0xF)])"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func decode(_ line: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(line.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension GitRepository {
    /// `ROOT/a/b` → `a/b`.
    func relativePath(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
