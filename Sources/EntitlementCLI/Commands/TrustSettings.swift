import EntitlementTrust
import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore
import EntitlementImport

/// What `import` trusts for App Store signed data, from its options, the environment and
/// `config.json` (docs/security.md). Test roots come only from an explicit option or variable.
struct TrustSettings: Equatable, Sendable {
    /// Root certificate files (DER or PEM) added to Apple Root CA - G3 by `--trust-root`.
    static let environmentVariable = "ENTITLEMENT_TRUST_ROOTS"

    var trustRoots: [String]
    var allowXcode: Bool
    /// False with `--no-verify`.
    var verify: Bool

    /// The reader for this run: a verifier built from the roots and the store's `app_store`
    /// identity, or a decoder with `--no-verify`. `now` is the effective date of payloads
    /// that carry no `signedDate`, as Apple's libraries use the current time.
    func reader(environment: [String: String], identity: AppStoreIdentity, now: Date, command: String) throws(EntitlementError) -> JWSReader {
        guard verify else { return .decodeOnly }
        var files = trustRoots
        // ENTITLEMENT_TRUST_ROOTS: a colon-separated list, like PATH; --trust-root adds to it.
        if let listed = environment[Self.environmentVariable] { files = listed.split(separator: ":").map(String.init) + files }
        var roots: [[UInt8]] = []
        for file in files { roots.append(try Self.read(file, command: command)) }
        do {
            // Apple's test CA lacks key identifiers: strict X.509 checks are relaxed only when
            // test roots are given; Apple's real chain is always checked strictly otherwise.
            let verifier = try AppStoreSignedDataVerifier(trustRoots: roots, bundleID: identity.bundleID, appAppleID: identity.appAppleID,
                                                          allowXcode: allowXcode, strict: roots.isEmpty,
                                                          fallbackDate: Int64((now.timeIntervalSince1970).rounded(.down)))
            return JWSReader(verifier: verifier)
        } catch {
            guard case .unreadableTrustRoot(let index) = error else { throw .usage(error.description, command: command) }
            throw .usage("\(Terminal.escape(files[index])) is not a DER or PEM certificate.", hint: "Give a root certificate file to --trust-root.", command: command)
        }
    }

    private static func read(_ path: String, command: String) throws(EntitlementError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.system.readFile(path, policy: .userFile)
        } catch {
            guard case .io(_, let message) = error else { throw error }
            throw .usage("trust root \(Terminal.escape(path)): \(message).", command: command)
        }
        guard let bytes else { throw .usage("trust root \(Terminal.escape(path)): cannot open: no such file.", command: command) }
        return bytes
    }
}
