import Synchronization
import EntitlementBasics

/// At most `perSecond` requests a second (`refresh --stdin --rate N`): each request waits for
/// its slot, one `1/perSecond` after the one before, on the run's `Pacing`.
package final class RequestRate: Sendable {
    package let perSecond: Double
    private let nextSlot = Mutex<Double?>(nil)

    package init(perSecond: Double) { self.perSecond = perSecond }

    /// Waits until this request may start.
    func wait(_ pacing: Pacing) {
        let now = pacing.now()
        let start = nextSlot.withLock { slot -> Double in
            let start = max(now, slot ?? now)
            slot = start + 1 / perSecond
            return start
        }
        if start > now { pacing.sleep(start - now) }
    }
}
