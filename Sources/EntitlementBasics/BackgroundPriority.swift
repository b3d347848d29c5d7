#if canImport(Glibc)
import Glibc
#endif
internal import CSystemShims

/// Work a process does after it has answered (a `webhook` applying the request it spooled)
/// yields to the processes still answering: its CPU priority drops to nice 10 and its I/O
/// priority to the lowest of the best-effort class, so the next request's process start is
/// not queued behind the apply (and, under a scheduler that orders by level, such as BFQ, its
/// spool fsync; mq-deadline orders by class only). A hint: refused, it changes nothing.
package enum BackgroundPriority {
    package static func lower() {
        _ = try? systemCall("setpriority") { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
        _ = try? systemCall("ioprio_set") { entitlement_set_io_priority_best_effort(7) }
    }
}
