/// What `import` knew of the signature of the App Store JWS a transaction came from,
/// kept as `vendor.appstore.signature` (docs/store-format.md); `verify` reports `unverified`.
package enum SignedDataState: String, Sendable {
    /// Every check of docs/security.md passed.
    case verified
    /// Decoded without verification: `import --no-verify`, or Xcode data with `--allow-xcode`.
    case unverified

    /// The member of the transaction's vendor object that holds the state.
    package static let vendorKey = "signature"
}
