/// A JWS that passed every configured check: its decoded parts and what was checked.
package struct VerifiedSignedData: Sendable, Equatable {
    /// The header's JSON bytes.
    let header: [UInt8]
    /// The payload's JSON bytes.
    package let payload: [UInt8]
    /// The payload's `signedDate` (milliseconds since 1970), when it has one.
    let signedDate: Int64?
    /// The payload's environment (`Production`, `Sandbox`, `Xcode`, `LocalTesting`), when stated.
    package let environment: String?
    /// False only for `Xcode`/`LocalTesting` data accepted with `allowXcode`: Xcode signs
    /// with a local certificate no root vouches for, so no signature was checked.
    package let signatureChecked: Bool
}
