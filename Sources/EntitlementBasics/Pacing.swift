import Glibc

/// The clock and the sleep of a run that waits between requests (a vendor API's back-off and
/// rate limit): monotonic seconds and a sleep, passed in so tests never wait on the wall clock.
package struct Pacing: Sendable {
    /// Monotonic seconds (any origin).
    package var now: @Sendable () -> Double
    /// Waits `seconds`.
    package var sleep: @Sendable (Double) -> Void

    package init(now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Double) -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// CLOCK_MONOTONIC and nanosleep.
    package static let real = Pacing(now: { Subprocess.monotonicSeconds() }, sleep: { seconds in
        guard seconds > 0 else { return }
        var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&wait, &left) != 0, errno == EINTR { wait = left }
    })
}
