#if canImport(Glibc)
import Glibc
#endif

/// Holds off SIGTERM while work that has been promised finishes: a `webhook` that has answered
/// applies its request with the signal blocked, since a CGI server signals the program once
/// the response is complete (lighttpd sends SIGTERM). A signal that arrives meanwhile stays
/// pending and is dropped at exit; without one, `release` restores the mask as it was.
package struct TerminationHold: ~Copyable {
    private var previous = sigset_t()
    private var held = false

    package init() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        held = (try? systemCall("sigprocmask") { sigprocmask(SIG_BLOCK, &set, &previous) }) != nil
    }

    /// Restores the signal mask, unless SIGTERM came meanwhile: then it stays blocked (the
    /// caller is about to exit, and exits as it would have, with its own status).
    package consuming func release() {
        guard held else { return }
        var pending = sigset_t()
        sigemptyset(&pending)
        if (try? systemCall("sigpending") { sigpending(&pending) }) != nil, sigismember(&pending, SIGTERM) == 1 { return }
        _ = try? systemCall("sigprocmask") { sigprocmask(SIG_SETMASK, &previous, nil) }
    }
}
