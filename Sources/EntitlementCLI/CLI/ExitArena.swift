import Synchronization

/// Values a command hands over so they are not torn down before the process exits.
///
/// Freeing a parsed 10,000-transaction profile object by object costs about a fifth
/// of `status`; the process is about to exit and the kernel takes the memory back
/// at once. The executable keeps its arena alive until `exit`; tests let theirs go.
package final class ExitArena: Sendable {
    private let kept = Mutex<[any Sendable]>([])

    init() {}

    /// Keeps `value` alive as long as the arena.
    func keep(_ value: some Sendable) {
        kept.withLock { $0.append(value) }
    }
}
