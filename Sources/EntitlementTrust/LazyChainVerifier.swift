import Synchronization

/// A `ChainVerifier` made at its first use: Apple's root is parsed then, with the roots a
/// caller added (parsed, and so checked, when the App Store verifier is made). A run that
/// verifies no App Store chain (a RevenueCat webhook, a run whose JWS headers are all known)
/// never sets up libcrypto's certificate decoders.
final class LazyChainVerifier: Sendable {
    private let made = Mutex<ChainVerifier?>(nil)
    private let roots: [Certificate]
    private let includeAppleRoot: Bool
    private let strict: Bool
    private let counter: SignatureCounter?

    init(roots: [Certificate], includeAppleRoot: Bool, strict: Bool, counter: SignatureCounter?) {
        self.roots = roots
        self.includeAppleRoot = includeAppleRoot
        self.strict = strict
        self.counter = counter
    }

    var verifier: ChainVerifier {
        made.withLock { made in
            if let made { return made }
            var all: [Certificate] = []
            if includeAppleRoot, let apple = Certificate(der: AppleRootCAG3.der) { all.append(apple) }
            let verifier = ChainVerifier(roots: all + roots, strict: strict, counter: counter)
            made = verifier
            return verifier
        }
    }
}
