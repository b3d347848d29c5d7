import Synchronization

/// Counts the expensive steps of App Store signature checks: ES256 verifications and
/// certificate chains built by libcrypto, so a test can show that each JWS of a run is
/// verified once and each chain built once (docs/performance.md, "Live store").
///
/// A verifier holds an optional counter; nil (the default outside tests) costs one branch.
package final class SignatureCounter: Sendable {
    private let signatures = Atomic<Int>(0)
    private let chains = Atomic<Int>(0)

    init() {}

    /// ES256 verifications made.
    var signatureChecks: Int { signatures.load(ordering: .relaxed) }
    /// Certificate chains verified by libcrypto (not answered from a cache).
    var chainChecks: Int { chains.load(ordering: .relaxed) }

    func countSignature() { signatures.add(1, ordering: .relaxed) }
    func countChain() { chains.add(1, ordering: .relaxed) }
}
