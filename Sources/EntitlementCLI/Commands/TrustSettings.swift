import FoundationEssentials
import EntitlementImport
import EntitlementIngest
import EntitlementModel

/// What `import` trusts for App Store signed data, from its options, the environment and
/// `config.json` (docs/security.md). Test roots come only from an explicit option or variable.
struct TrustSettings: Equatable, Sendable {
    /// Root certificate files (DER or PEM) added to Apple Root CA - G3 by `--trust-root`.
    static let environmentVariable = "ENTITLEMENT_TRUST_ROOTS"

    var trustRoots: [String]
    var allowXcode: Bool
    /// False with `--no-verify`.
    var verify: Bool

    /// The reader for this run: a verifier built from the store's App Store settings
    /// (`AppStoreSettings`: `config.json` with the secrets file's `appstore` entry) and this
    /// run's roots and `--allow-xcode`, or a decoder with `--no-verify`. `now` is the effective
    /// date of payloads that carry no `signedDate`, as Apple's libraries use the current time.
    func reader(environment: [String: String], settings: AppStoreSettings, now: Date, command: String) throws(EntitlementError) -> JWSReader {
        guard verify else { return .decodeOnly }
        var files = trustRoots
        // ENTITLEMENT_TRUST_ROOTS: a colon-separated list, like PATH; --trust-root adds to it.
        if let listed = environment[Self.environmentVariable] { files = listed.split(separator: ":").map(String.init) + files }
        do throws(EntitlementError) {
            return JWSReader(verifier: try settings.verifier(addedRoots: files, allowXcode: allowXcode, now: now))
        } catch {
            guard case .usage(let message, let hint, _) = error else { throw error }
            throw .usage(message, hint: hint, command: command)
        }
    }
}
